//! Source loading from a file map: any folder a host hands over builds for
//! every runtime or fails with an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plugforge_fuzz::{all_targets, file_map, templates_bounded};

fuzz_target!(|data: &[u8]| {
    let tree = file_map(data);
    if !templates_bounded(&tree) {
        return;
    }
    let _ = plugforge_core::build(&tree, &all_targets());
});
