//! validate: any folder is judged (detected, and against each runtime)
//! into a report, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plugforge_core::{Runtime, ValidateOptions, validate};
use plugforge_fuzz::file_map;

fuzz_target!(|data: &[u8]| {
    let tree = file_map(data);
    let _ = validate(&tree, &ValidateOptions { target: None, strict: true });
    // One runtime per input, picked by its length, keeps each run fast.
    let runtime = Runtime::ALL[data.len() % Runtime::ALL.len()];
    let _ = validate(&tree, &ValidateOptions { target: Some(runtime.id().into()), strict: false });
});
