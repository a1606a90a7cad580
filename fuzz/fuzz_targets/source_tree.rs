//! Source loading from a file map: any folder a host hands over builds for
//! the runtime the input picks (or all of them) or fails with an error, never
//! a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plugforge_fuzz::{file_map, picked_targets, templates_bounded};

fuzz_target!(|data: &[u8]| {
    let tree = file_map(data);
    if !templates_bounded(&tree) {
        return;
    }
    let _ = plugforge_core::build(&tree, &picked_targets(data, 1));
});
