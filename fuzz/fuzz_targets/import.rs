//! Every importer: any folder imports (detected, or read as the runtime the
//! input picks) or fails with an error; an imported source builds for the
//! runtime the input picks, or fails cleanly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plugforge_core::{ImportOptions, import, importable};
use plugforge_fuzz::{file_map, pick, picked_targets, templates_bounded};

fuzz_target!(|data: &[u8]| {
    let tree = file_map(data);
    // Choice 0 lets import detect the runtime; the others name one.
    let importable = importable();
    let choices = importable.len() + 1;
    let from = pick(data, 1, choices).checked_sub(1).map(|i| importable[i].id().to_string());
    let options = ImportOptions { from, name: None, folder_name: Some("fuzzed-plugin".into()) };
    if let Ok(imported) = import(&tree, &options)
        && templates_bounded(&imported.source)
    {
        let _ = plugforge_core::build(&imported.source, &picked_targets(data, choices));
    }
});
