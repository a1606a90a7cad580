//! Acceptance: a source over a bound (a file too large, JSON or YAML nested
//! too deep, a template that loops) fails fast with the `limit` error code,
//! naming the file, and nothing is written.

mod common;

use std::fs;
use std::time::{Duration, Instant};

use serde_json::Value;

use common::*;

/// Builds `src` with `--json`: exit 1, code `limit`, the problem at `file`
/// (and `line`), within a few seconds, and no output folder.
fn refused_by_limit(tmp: &TempDir, file: &str, line: Option<u64>) -> Value {
    let src = tmp.join("src");
    let out = tmp.join("out");
    let started = Instant::now();
    let (code, report) = build_json(&src, &out, &[]);
    let took = started.elapsed();
    assert_eq!(code, 1, "{report:#}");
    let (actual, problem) = error(&report);
    assert_eq!(actual, "limit", "{report:#}");
    assert_eq!(problem["location"]["file"], file, "{report:#}");
    if let Some(line) = line {
        assert_eq!(problem["location"]["line"], line, "{report:#}");
    }
    assert!(!out.exists(), "nothing is written");
    assert!(took < Duration::from_secs(30), "refused in {took:?}");
    report
}

#[test]
fn a_source_file_over_the_size_limit_is_refused_without_being_read() {
    let tmp = TempDir::new("limit-size");
    let src = tmp.join("src");
    demo_source(&src, &[("skills/s/SKILL.md", "---\nname: s\ndescription: S.\n---\nGo.\n")]);
    // Sparse: 65 MiB long on paper, next to nothing on disk; the host reads
    // only its length before the engine refuses it.
    let big = fs::File::create(src.join("skills/s/huge.bin")).unwrap();
    big.set_len(65 << 20).unwrap();
    let report = refused_by_limit(&tmp, "skills/s/huge.bin", None);
    let message = report["error"]["message"].as_str().unwrap();
    assert_eq!(message, "skills/s/huge.bin: 68157440 bytes, over the 64 MiB one source file may hold");
}

#[test]
fn json_nested_past_the_limit_is_refused_at_its_line_and_column() {
    let tmp = TempDir::new("limit-json");
    let src = tmp.join("src");
    let deep = format!("{{\n  \"mcpServers\": {}\n}}\n", "[".repeat(100_000));
    demo_source(&src, &[(".mcp.json", &deep)]);
    let report = refused_by_limit(&tmp, ".mcp.json", Some(2));
    assert_eq!(report["error"]["problems"][0]["location"]["column"], 116, "{report:#}");
    let message = report["error"]["message"].as_str().unwrap();
    assert_eq!(message, ".mcp.json:2:116: JSON nested deeper than 100 levels");
}

#[test]
fn frontmatter_nested_past_the_limit_is_refused_not_a_crash() {
    let tmp = TempDir::new("limit-yaml");
    let src = tmp.join("src");
    let skill = format!("---\nname: s\ndescription: {}\n---\nGo.\n", "[".repeat(100_000));
    demo_source(&src, &[("skills/s/SKILL.md", &skill)]);
    refused_by_limit(&tmp, "skills/s/SKILL.md", Some(3));
}

#[test]
fn a_template_that_loops_runs_out_of_fuel() {
    let tmp = TempDir::new("limit-fuel");
    let src = tmp.join("src");
    let looping = "---\ndescription: Loops.\n---\n{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}\n";
    demo_source(&src, &[("commands/loop.md.j2", looping)]);
    let report = refused_by_limit(&tmp, "commands/loop.md.j2", None);
    let message = report["error"]["message"].as_str().unwrap();
    assert!(message.contains("template ran out of fuel (10000000 steps)"), "{message}");
}
