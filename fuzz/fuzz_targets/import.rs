//! Every importer: any folder imports (detected, or read as each runtime in
//! turn) or fails with an error; an imported source builds or fails cleanly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plugforge_core::{IMPORTABLE, ImportOptions, import};
use plugforge_fuzz::{all_targets, file_map, templates_bounded};

fuzz_target!(|data: &[u8]| {
    let tree = file_map(data);
    let detected = std::iter::once(None);
    let each = IMPORTABLE.iter().map(|r| Some(r.id().to_string()));
    for from in detected.chain(each) {
        let options = ImportOptions { from, name: None, folder_name: Some("fuzzed-plugin".into()) };
        if let Ok(imported) = import(&tree, &options)
            && templates_bounded(&imported.source)
        {
            let _ = plugforge_core::build(&imported.source, &all_targets());
        }
    }
});
