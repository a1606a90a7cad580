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

#[test]
fn frontmatter_a_key_holding_many_flow_indicators_reads_back() {
    // A plain key of 99 `[`s two levels down: written plain, the reader's
    // nesting bound counted each `[` and refused the writer's own output.
    let key = format!("openclaw{}", "[".repeat(99));
    round_trips(&format!(
        "---\nname: reset-ping\nmetadata:\n  \"{key}\":\n    events:\n      - command:new\n---\nBody\n"
    ));
}

/// The TOML writer's output of a document the core's reader parsed must be
/// TOML the `toml` crate reads back as the same table (the `toml` target's
/// property).
fn toml_round_trips(text: &str) {
    use plugforge_core::format::{toml as write, toml_doc};
    let document = toml_doc::parse(text).expect("the input parses");
    let written = write::document(&document.table);
    let reread: serde_json::Map<String, serde_json::Value> =
        toml::from_str(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(reread, document.table, "{written}");
}

#[test]
fn toml_an_inline_array_of_tables_is_written_as_tables_that_read_back() {
    toml_round_trips(
        "description = \"Design a screen\"\nprompt = \"\"\"\nDesign {{args}}.\n\"\"\"\nargs = [ { name = \"screen\", description = \"What to design\" } ]\n",
    );
}

#[test]
fn toml_dotted_keys_nested_past_the_readers_limit_are_an_error_with_a_line() {
    use plugforge_core::format::toml_doc;
    // Deeper than the `toml` crate's recursion limit: refused with a
    // position, never a stack overflow.
    let key = vec!["k"; 300].join(".");
    let err = toml_doc::parse(&format!("a = 1\n[{key}]\nv = 1\n")).expect_err("too deep");
    assert!(err.line >= 1 && !err.message.is_empty(), "{err}");
    // Nested as deep as a real file goes, the writer's output reads back.
    toml_round_trips(&format!("[{}]\nv = 1\n", vec!["k"; 20].join(".")));
}

/// Found by the `template` target: a URL right after a character of more
/// than one byte (here a byte order mark inside a line) panicked the URL
/// scan, which cut the line inside that character.
#[test]
fn template_a_url_after_a_multibyte_character_is_found_not_a_panic() {
    use plugforge_core::{BuildOptions, ErrorCode, SourceTree, TargetRequest, build};
    let mut tree = SourceTree::new();
    tree.insert("plugforge.json", br#"{"name": "p", "version": "1.0.0"}"#.to_vec(), false).unwrap();
    let command = "---\ndescription: Releases\n---\nSee \u{feff}https://example.com/notes and ééhttps://example.com/x\n";
    tree.insert("commands/release.md.j2", command.as_bytes().to_vec(), false).unwrap();
    let options =
        BuildOptions { targets: vec![TargetRequest::new("claude-code")], ..BuildOptions::default() };
    match build(&tree, &options) {
        Ok(output) => {
            let urls: Vec<&str> = output.urls.iter().map(|u| u.url.as_str()).collect();
            assert!(urls.contains(&"https://example.com/notes"), "{urls:?}");
        }
        // A source under a deny policy refuses the URL by name instead.
        Err(error) => assert_eq!(error.code, ErrorCode::UrlNotAllowed, "{error}"),
    }
}

/// A one-file plugforge source plus `extra`, built for `runtime`.
fn build_with(runtime: &str, extra: &[(&str, &str)]) -> plugforge_core::Result<plugforge_core::Output> {
    use plugforge_core::{BuildOptions, SourceTree, TargetRequest, build};
    let mut tree = SourceTree::new();
    tree.insert("plugforge.json", br#"{"name": "p", "version": "1.0.0"}"#.to_vec(), false).unwrap();
    for (path, text) in extra {
        tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
    }
    build(&tree, &BuildOptions { targets: vec![TargetRequest::new(runtime)], ..BuildOptions::default() })
}

#[test]
fn template_a_credential_after_a_multibyte_character_is_named_by_key_not_a_panic() {
    // Found by `template`, `source_tree`, `validate` and `plan`: the key
    // before a token was cut one byte after a multi-byte character. In a
    // command's body (prose) it is a warning; in a script it refuses.
    let line = "Set \u{feff}DEPLOY_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345 first\n";
    let text = format!("---\ndescription: Deploy\n---\n{line}");
    let output = build_with("claude-code", &[("commands/deploy.md", &text)]).expect("carried with a warning");
    let warned: Vec<_> =
        output.diagnostics.iter().filter(|d| d.file() == Some("commands/deploy.md")).collect();
    assert_eq!(warned.len(), 1, "{:?}", output.diagnostics);
    assert_eq!(warned[0].line(), Some(4));
    let message = &warned[0].message;
    assert!(message.contains("DEPLOY_TOKEN") && !message.contains("ghp_0123456789"), "{message}");
    let error = build_with(
        "claude-code",
        &[("commands/deploy.md", "---\ndescription: Deploy\n---\nGo.\n"), ("bin/deploy", line)],
    )
    .expect_err("a literal credential");
    assert_eq!(error.code, plugforge_core::ErrorCode::Credential, "{error}");
    let message = error.message();
    assert!(message.contains("bin/deploy") && message.contains("DEPLOY_TOKEN"), "{message}");
    assert!(!message.contains("ghp_0123456789"), "the value is never echoed: {message}");
}

#[test]
fn plan_a_hook_command_with_multibyte_characters_before_a_user_option_is_rewritten() {
    // Found by `plan`: the walk over a hook command sliced the text inside
    // a multi-byte character while looking for `${user_config.`.
    let hooks = r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo \"ٛé\" ${user_config.api_url}"}]}]}}"#;
    let output = build_with("claude-code", &[("hooks/hooks.json", hooks)]).expect("the hook builds");
    let bundle = &output.bundles[0];
    let written: String = bundle
        .files
        .values()
        .filter_map(|file| std::str::from_utf8(&file.bytes).ok())
        .filter(|text| text.contains("ٛé"))
        .collect();
    assert!(written.contains("CLAUDE_PLUGIN_OPTION_API_URL"), "{written}");
    assert!(!written.contains("${user_config.api_url}"), "{written}");
}
