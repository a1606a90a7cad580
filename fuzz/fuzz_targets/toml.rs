//! TOML: any text parses with the core's reader or fails with a line and
//! column; what the TOML writer makes of a parsed document is TOML a full
//! reader (the `toml` crate) reads back as the same table. The core's own
//! reader is not the judge: it refuses arrays of tables, which the writer
//! emits and the runtimes read.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plugforge_core::format::{toml as toml_write, toml_read};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(document) = toml_read::parse(text) else { return };
    let written = toml_write::document(&document.table);
    let reread: serde_json::Map<String, serde_json::Value> = match toml::from_str(&written) {
        Ok(table) => table,
        // The judge's own nesting limit (dotted keys dozens deep), not a
        // fault of the writer.
        Err(e) if e.message().contains("recursion limit") => return,
        Err(e) => panic!("the writer's TOML does not parse: {e}\n{written}"),
    };
    assert_eq!(reread, document.table, "{written}");
});
