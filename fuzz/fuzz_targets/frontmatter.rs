//! Markdown frontmatter: any text parses or fails with an error; what the
//! YAML writer makes of a parsed frontmatter reads back as the same values.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plugforge_core::{format::yaml, parse_document};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(document) = parse_document("SKILL.md", text) else { return };
    let Some(frontmatter) = document.frontmatter else { return };
    let written = yaml::frontmatter(&frontmatter, &document.body);
    let reread = parse_document("SKILL.md", &written)
        .unwrap_or_else(|e| panic!("the writer's YAML does not parse: {e}\n{written}"));
    assert_eq!(reread.frontmatter.as_ref(), Some(&frontmatter), "{written}");
});
