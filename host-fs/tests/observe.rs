//! Observing an output root reads what a plan can look at and nothing
//! else: every other file is listed unread, and what is hashed is hashed a
//! block at a time.

use std::fs;
use std::path::PathBuf;

use plugforge_core::Sha256Digest;
use plugforge_host_fs::{Listing, observe, observe_for};

fn sha(bytes: &[u8]) -> Option<Sha256Digest> {
    Some(Sha256Digest::of(bytes))
}

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn only_what_a_plan_looks_at_is_read_and_the_rest_is_listed() {
    let root = Scratch(std::env::temp_dir().join(format!("plugforge-observe-{}", std::process::id())));
    let out = root.0.join("out");
    fs::create_dir_all(out.join("b/skills/s")).unwrap();
    fs::create_dir_all(out.join("data")).unwrap();
    // Larger than any block the hash reads, and not a whole number of them.
    let big: Vec<u8> = (0..9_000_000u32).map(|n| (n % 251) as u8).collect();
    fs::write(out.join("b/skills/s/SKILL.md"), &big).unwrap();
    fs::write(out.join("data/unrelated.bin"), &big).unwrap();
    fs::write(out.join("b/new.md"), "in the way\n").unwrap();
    let manifest = r#"{"schema_version":"plugforge.manifest.v1","generator":{"name":"plugforge","version":"0"},
        "generated_at":"2026-01-01T00:00:00Z","runtime":"claude-code","kind":"plugin","scope":"project",
        "namespace":"p","plugin":{"name":"p","version":"1.0.0"},
        "files":[{"path":"skills/s/SKILL.md","sha256":"x","template":"SKILL.md"}]}"#;
    fs::write(out.join("b/.plugforge-manifest.json"), manifest).unwrap();

    plugforge_core::Manifest::parse("b/.plugforge-manifest.json", manifest.as_bytes()).expect("a manifest");
    let all = observe(&out, &["b/.plugforge-manifest.json"]).unwrap();
    assert_eq!(all.hashes["data/unrelated.bin"], sha(&big), "streamed, the same hash");
    assert_eq!(all.hashes.len(), 4);

    let only = observe_for(&out, &["b/.plugforge-manifest.json"], &["b/new.md"], Listing::Every).unwrap();
    assert_eq!(only.hashes.len(), 4, "every file is listed: {:?}", only.hashes.keys());
    assert_eq!(only.hashes["data/unrelated.bin"], None, "listed, not hashed");
    assert_eq!(only.hashes["b/skills/s/SKILL.md"], sha(&big), "tracked by the manifest");
    assert_eq!(only.hashes["b/new.md"], sha(b"in the way\n"), "a path the build writes");
    assert_eq!(only.hashes["b/.plugforge-manifest.json"], sha(manifest.as_bytes()));
    assert_eq!(&only.contents["b/.plugforge-manifest.json"][..], manifest.as_bytes());
    assert_eq!(only.contents.len(), 1);
}

/// For a build, another plugin's files in a shared project folder are not
/// even listed: the plan asks about its own paths only. Its manifest is read
/// (through a pattern), not what it tracks; a manifest anywhere is listed,
/// so a monorepo build still finds a removed member's.
#[test]
fn a_build_lists_what_it_looks_at_and_every_manifest_not_another_plugins_files() {
    let root = Scratch(std::env::temp_dir().join(format!("plugforge-observe-build-{}", std::process::id())));
    let out = root.0.join("out");
    let manifest = |path: &str| {
        format!(
            r#"{{"schema_version":"plugforge.manifest.v1","generator":{{"name":"plugforge","version":"0"}},
            "generated_at":"2026-01-01T00:00:00Z","runtime":"claude-code","kind":"plugin","scope":"project",
            "namespace":"p","plugin":{{"name":"p","version":"1.0.0"}},
            "files":[{{"path":"{path}","sha256":"x","template":"SKILL.md"}}]}}"#
        )
    };
    let files = [
        (".state/mine.plugforge-manifest.json", manifest("skills/mine/SKILL.md")),
        (".state/theirs.plugforge-manifest.json", manifest("skills/theirs/SKILL.md")),
        ("claude-code/gone/.plugforge-manifest.json", manifest("x.md")),
        ("skills/mine/SKILL.md", "mine\n".to_string()),
        ("skills/theirs/SKILL.md", "theirs\n".to_string()),
        ("skills/mine/new.md", "in the way\n".to_string()),
        ("data/unrelated.bin", "the user's\n".to_string()),
    ];
    for (rel, text) in &files {
        fs::create_dir_all(out.join(rel).parent().unwrap()).unwrap();
        fs::write(out.join(rel), text).unwrap();
    }

    let looked = observe_for(
        &out,
        &[".state/mine.plugforge-manifest.json", ".state/*.plugforge-manifest.json"],
        &["skills/mine/new.md"],
        Listing::ForBuild { manifest_name: ".plugforge-manifest.json" },
    )
    .unwrap();
    let listed: Vec<&str> = looked.hashes.keys().map(String::as_str).collect();
    assert_eq!(
        listed,
        [
            ".state/mine.plugforge-manifest.json",
            ".state/theirs.plugforge-manifest.json",
            "claude-code/gone/.plugforge-manifest.json",
            "skills/mine/SKILL.md",
            "skills/mine/new.md",
        ]
    );
    assert_eq!(looked.hashes["skills/mine/SKILL.md"], sha(b"mine\n"), "tracked by its own manifest");
    assert_eq!(looked.hashes["skills/mine/new.md"], sha(b"in the way\n"), "a path the build writes");
    assert_eq!(looked.hashes["claude-code/gone/.plugforge-manifest.json"], None, "listed, not read");
    let read: Vec<&str> = looked.contents.keys().map(String::as_str).collect();
    assert_eq!(read, [".state/mine.plugforge-manifest.json", ".state/theirs.plugforge-manifest.json"]);

    let every = observe_for(
        &out,
        &[".state/mine.plugforge-manifest.json", ".state/*.plugforge-manifest.json"],
        &["skills/mine/new.md"],
        Listing::Every,
    )
    .unwrap();
    assert_eq!(every.hashes.len(), files.len(), "every file is listed");
    assert_eq!(every.hashes["skills/theirs/SKILL.md"], None, "another plugin's file is not hashed");
    assert_eq!(every.hashes["data/unrelated.bin"], None);
}
