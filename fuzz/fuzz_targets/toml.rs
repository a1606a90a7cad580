//! TOML: any text parses with the core's reader or fails with a line and
//! column; what the TOML writer makes of a parsed document is TOML that the
//! `toml` crate reads back as the same table.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plugforge_core::format::{toml as toml_write, toml_doc};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(document) = toml_doc::parse(text) else { return };
    // A float JSON cannot hold (`inf`, `nan`) reads as null, which has no
    // TOML form to compare with.
    if has_null(&serde_json::Value::Object(document.table.clone())) {
        return;
    }
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

fn has_null(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Null => true,
        serde_json::Value::Array(items) => items.iter().any(has_null),
        serde_json::Value::Object(map) => map.values().any(has_null),
        _ => false,
    }
}
