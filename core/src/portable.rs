//! Output paths every filesystem can hold. A bundle is built on one machine
//! and installed on others: a path that Windows refuses, or two paths that a
//! case-insensitive filesystem (Windows, macOS) folds into one, would lose a
//! file or fail the install there. Such a bundle is refused when it is built,
//! naming the source file that produced the path.

use std::collections::{BTreeMap, BTreeSet};

use crate::bundle::Bundle;
use crate::error::{ErrorCode, Location, Problems, Result};

/// The longest path Windows opens without long-path support (`MAX_PATH`).
pub const MAX_PATH_CHARS: usize = 260;

/// Names Windows reserves for devices, whatever the extension or case.
const RESERVED_NAMES: [&str; 22] = [
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
    "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// Characters Windows refuses in a file name.
const REFUSED_CHARACTERS: &str = "<>:\"|?*";

/// A path segment as a person and the filesystems that fold names see it: lower
/// case, Unicode NFC (macOS's APFS and HFS+ treat `é` and `e` + U+0301 as
/// one name), without the invisible characters that make two names look
/// alike (zero-width space, joiners, word joiner, BOM, soft hyphen).
/// Segments fold one by one: `/` composes with nothing and is neither cased
/// nor case-ignorable, so folding a path is folding each segment.
fn folded(segment: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    const INVISIBLE: [char; 6] = ['\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{00AD}'];
    // ASCII is already NFC and holds no invisible character: the common
    // case skips the normalizer (a bundle holds thousands of paths).
    if segment.is_ascii() {
        return segment.to_ascii_lowercase();
    }
    segment.nfc().filter(|c| !INVISIBLE.contains(c)).collect::<String>().to_lowercase()
}

/// Refuses a bundle holding a path some filesystem cannot hold, with every
/// such path; each problem names the source file (or plugforge template)
/// the path was generated from.
pub fn check_bundle(bundle: &Bundle) -> Result<()> {
    let mut problems = Problems::default();
    // Lowercased path (every leading folder, then the file) -> the first
    // spelling seen and the source that produced it.
    let mut spellings: BTreeMap<String, (String, &str)> = BTreeMap::new();
    let mut reported = BTreeSet::new();
    for (path, file) in &bundle.files {
        let out = bundle.out_path(path);
        let out = out.as_str();
        let source = file.template.as_str();
        if let Some(why) = refusal(out) {
            problems.push(Location::file(source), format!("output path {out:?} {why}"));
        }
        let mut end = 0;
        let mut folded_prefix = String::with_capacity(out.len());
        for (index, segment) in out.split('/').enumerate() {
            end += segment.len();
            let prefix = &out[..end];
            end += 1;
            if index > 0 {
                folded_prefix.push('/');
            }
            folded_prefix.push_str(&folded(segment));
            match spellings.get(folded_prefix.as_str()) {
                Some((first, first_source)) if first != prefix => {
                    if reported.insert((first.clone(), prefix.to_string())) {
                        problems.push(
                            Location::file(source),
                            format!(
                                "output path {prefix:?} differs from {first:?} (from {first_source}) only by \
                                 case, Unicode normalization or invisible characters: a case- or \
                                 normalization-insensitive filesystem (Windows, macOS) holds one of them, and \
                                 a reader cannot tell them apart; rename one"
                            ),
                        );
                    }
                    break;
                }
                Some(_) => {}
                None => {
                    spellings.insert(folded_prefix.clone(), (prefix.to_string(), source));
                }
            }
        }
    }
    problems.finish(ErrorCode::InvalidPath)
}

/// Why Windows cannot hold `path`, if it cannot.
fn refusal(path: &str) -> Option<String> {
    let length = path.chars().count();
    if length > MAX_PATH_CHARS {
        return Some(format!("is {length} characters long, over Windows' {MAX_PATH_CHARS}"));
    }
    path.split('/').find_map(segment_refusal)
}

fn segment_refusal(segment: &str) -> Option<String> {
    if let Some(c) =
        segment.chars().find(|c| c.is_control() && (*c as u32) < 0x20 || REFUSED_CHARACTERS.contains(*c))
    {
        return Some(format!("holds {c:?}, which Windows refuses in a file name"));
    }
    if segment.ends_with(['.', ' ']) {
        return Some(format!("has a segment {segment:?} ending in a dot or space, which Windows drops"));
    }
    let stem = segment.split('.').next().unwrap_or(segment).trim_end_matches(' ');
    if RESERVED_NAMES.iter().any(|name| name.eq_ignore_ascii_case(stem)) {
        return Some(format!("has a segment {segment:?} that Windows reserves for a device"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::GeneratedFile;
    use crate::path::BundlePath;

    fn bundle(root: &str, files: &[(&str, &str)]) -> Bundle {
        Bundle {
            runtime: crate::registry::Runtime::ClaudeCode,
            kind: crate::registry::ArtifactKind::Plugin,
            root: root.to_string(),
            manifest: BundlePath::new("m.json").unwrap(),
            namespace: "p".into(),
            plugin_name: "p".into(),
            plugin_version: None,
            requires: Default::default(),
            conflicts: Vec::new(),
            files: files
                .iter()
                .map(|(path, source)| {
                    (BundlePath::new(*path).unwrap(), GeneratedFile::new(&b"x"[..], false, *source))
                })
                .collect(),
            merges: Vec::new(),
            honesty: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    #[test]
    fn two_skills_differing_by_case_are_refused_naming_their_source() {
        let files = [
            ("skills/Deploy/SKILL.md", "skills/Deploy/SKILL.md"),
            ("skills/Deploy/notes.md", "skills/Deploy/notes.md"),
            ("skills/deploy/SKILL.md", "skills/deploy/SKILL.md"),
            ("skills/deploy/notes.md", "skills/deploy/notes.md"),
        ];
        let error = check_bundle(&bundle("p", &files)).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidPath);
        assert_eq!(error.problems.len(), 1, "{error}");
        assert_eq!(error.location().unwrap().file, "skills/deploy/SKILL.md");
        let message = &error.problems[0].message;
        assert!(
            message.contains("\"p/skills/deploy\"") && message.contains("\"p/skills/Deploy\""),
            "{message}"
        );
    }

    #[test]
    fn normalization_and_invisible_twins_of_a_name_are_refused_naming_their_source() {
        let nfc = "commands/caf\u{e9}.md";
        let nfd = "commands/cafe\u{301}.md";
        let zero_width = "commands/de\u{200b}ploy.md";
        for (first, second) in [
            (nfc, nfd),
            ("commands/deploy.md", zero_width),
            ("support/r\u{e9}sum\u{e9}.txt", "support/re\u{301}sume\u{301}.txt"),
        ] {
            let error = check_bundle(&bundle("p", &[(first, first), (second, second)])).unwrap_err();
            assert_eq!(error.code, ErrorCode::InvalidPath);
            assert_eq!(error.problems.len(), 1, "{error}");
            assert!(
                error.problems[0].message.contains("Unicode normalization or invisible characters"),
                "{error}"
            );
        }
        assert!(check_bundle(&bundle("p", &[(nfc, nfc), ("commands/cafe.md", "commands/cafe.md")])).is_ok());
    }

    /// The check folds segment by segment; that must equal folding the
    /// whole path, or twins across a `/` would slip through.
    #[test]
    fn folding_segment_by_segment_equals_folding_the_whole_path() {
        use unicode_normalization::UnicodeNormalization;
        let whole = |path: &str| {
            path.nfc()
                .filter(|c| {
                    !['\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{00AD}'].contains(c)
                })
                .collect::<String>()
                .to_lowercase()
        };
        for path in [
            "Skills/Deploy/SKILL.md",
            "a\u{3a3}/b",
            "\u{3a3}/\u{3a3}x\u{3a3}/x\u{3a3}",
            "e/\u{301}x",
            "cafe\u{301}/re\u{301}sume\u{301}",
            "de\u{200b}ploy/\u{feff}x",
            "\u{130}stanbul/\u{212a}elvin",
            "/leading/and//double/",
        ] {
            let by_segment = path.split('/').map(folded).collect::<Vec<_>>().join("/");
            assert_eq!(by_segment, whole(path), "{path:?}");
        }
    }

    #[test]
    fn refuses_what_windows_cannot_hold() {
        let long = format!("skills/{}/SKILL.md", "a".repeat(250));
        let cases: &[(&str, &str)] = &[
            ("skills/con/SKILL.md", "reserves"),
            ("skills/CON/SKILL.md", "reserves"),
            ("agents/nul.md", "reserves"),
            ("agents/Aux.tar.gz", "reserves"),
            ("bin/com1", "reserves"),
            ("bin/LPT9.txt", "reserves"),
            ("skills/x./SKILL.md", "ending in a dot"),
            ("skills/x /SKILL.md", "ending in a dot or space"),
            ("commands/a:b.md", "refuses"),
            ("commands/a<b.md", "refuses"),
            ("commands/a>b.md", "refuses"),
            ("commands/a\"b.md", "refuses"),
            ("commands/a|b.md", "refuses"),
            ("commands/a?b.md", "refuses"),
            ("commands/a*b.md", "refuses"),
            ("commands/a\u{1}b.md", "refuses"),
            ("commands/a\tb.md", "refuses"),
            (&long, "over Windows' 260"),
        ];
        for (path, why) in cases {
            let error = check_bundle(&bundle("", &[(path, "commands/source.md")])).unwrap_err();
            assert_eq!(error.code, ErrorCode::InvalidPath);
            assert_eq!(error.location().unwrap().file, "commands/source.md", "{path:?}");
            assert!(error.problems[0].message.contains(why), "{path:?}: {error}");
            assert!(!error.problems[0].message.contains("…"), "{error}");
        }
    }

    #[test]
    fn counts_the_root_in_the_length() {
        let rel = format!("skills/{}/SKILL.md", "a".repeat(240));
        assert!(check_bundle(&bundle("", &[(&rel, "s")])).is_ok());
        assert!(check_bundle(&bundle("some-plugin-root-folder", &[(&rel, "s")])).is_err());
    }

    #[test]
    fn accepts_ordinary_paths() {
        let files = [
            ("skills/deploy/SKILL.md", "skills/deploy/SKILL.md"),
            ("skills/deploy/scripts/run.sh", "skills/deploy/scripts/run.sh"),
            ("commands/console.md", "commands/console.md"),
            ("agents/aux-helper.md", "agents/aux-helper.md"),
            ("bin/com10", "bin/com10"),
            (".claude-plugin/plugin.json", "plugforge:claude-code/plugin.json"),
            ("README.md", "plugforge:claude-code/README.md"),
            ("readme-extra.md", "readme-extra.md"),
        ];
        assert!(check_bundle(&bundle("p", &files)).is_ok());
    }
}
