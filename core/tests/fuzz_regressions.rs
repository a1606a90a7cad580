//! Inputs the fuzz targets (fuzz/) found, kept as tests so they stay fixed.
//! Each test names the target that found it.

use plugforge_core::format::yaml;
use plugforge_core::parse_document;

/// What the writer makes of a parsed frontmatter must read back as the same
/// values (the `frontmatter` target's property).
fn round_trips(text: &str) {
    let document = parse_document("SKILL.md", text).expect("the input parses");
    let frontmatter = document.frontmatter.expect("it has frontmatter");
    let written = yaml::frontmatter(&frontmatter, &document.body);
    let reread = parse_document("SKILL.md", &written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(reread.frontmatter.as_ref(), Some(&frontmatter), "{written}");
    assert_eq!(reread.body, document.body);
}

#[test]
fn frontmatter_a_key_whose_escaped_form_passes_1024_characters_reads_back() {
    // 200 control characters are 1200 once escaped: too long for `key:`.
    let key = format!("na{}n", "\u{f}\u{1b}".repeat(100));
    round_trips(&format!("---\n{key}: Plans\nnested:\n  {key}: [1]\nlist:\n  - {key}: x\n---\nBody\n"));
}
