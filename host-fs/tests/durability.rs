//! Every durability level lands the same files: bytes, modes, removals,
//! no temp file left, in groups large enough to run on several threads.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use plugforge_host_fs::{Durability, Expect, FileWrite, Step, Writer, file_sha256, is_temp_name};

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("plugforge-host-fs-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Relative path -> (bytes, executable) of every file below `root`.
fn contents(root: &Path) -> BTreeMap<String, (Vec<u8>, bool)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = BTreeMap::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let rel = path.strip_prefix(root).unwrap().to_str().unwrap().to_string();
                let mode = fs::metadata(&path).unwrap().permissions().mode();
                out.insert(rel, (fs::read(&path).unwrap(), mode & 0o111 != 0));
            }
        }
    }
    out
}

/// 300 files in nested folders, every seventh executable, then a manifest.
fn files() -> Vec<(String, Vec<u8>, bool)> {
    let mut files: Vec<(String, Vec<u8>, bool)> = (0..300)
        .map(|i| {
            (format!("b{}/skills/s{i}/SKILL.md", i % 3), format!("skill {i}\n").into_bytes(), i % 7 == 0)
        })
        .collect();
    files.push(("b0/.plugforge-manifest.json".into(), b"{}\n".to_vec(), false));
    files
}

fn write(file: &(String, Vec<u8>, bool)) -> Step<'_> {
    Step::Write(FileWrite { path: &file.0, bytes: &file.1, executable: file.2, expect: Expect::Any })
}

fn steps(files: &[(String, Vec<u8>, bool)]) -> Vec<Step<'_>> {
    let (body, manifest) = files.split_at(files.len() - 1);
    body.iter().map(write).chain([Step::Barrier]).chain(manifest.iter().map(write)).collect()
}

#[test]
fn every_durability_writes_the_same_files_and_leaves_no_temp_file() {
    let files = files();
    let expected: BTreeMap<String, (Vec<u8>, bool)> =
        files.iter().map(|(p, b, x)| (p.clone(), (b.clone(), *x))).collect();
    for durability in [Durability::Full, Durability::Batch, Durability::None] {
        let scratch = Scratch::new(durability.name());
        let out = scratch.0.join("out");
        Writer::new().with_durability(durability).apply(&out, &steps(&files)).expect("apply");
        let got = contents(&out);
        assert_eq!(got, expected, "{durability:?}");
        assert!(got.keys().all(|p| !is_temp_name(p.rsplit('/').next().unwrap())), "{durability:?}");

        // A second plan updates one file and removes a whole folder's worth.
        let update = [
            Step::Write(FileWrite {
                path: "b1/skills/s1/SKILL.md",
                bytes: b"changed\n",
                executable: false,
                expect: Expect::Any,
            }),
            Step::Remove { path: "b2/skills/s2/SKILL.md", expect: Expect::Any },
            Step::Keep { path: "b0/skills/s0/SKILL.md" },
        ];
        Writer::new().with_durability(durability).apply(&out, &update).expect("update");
        let got = contents(&out);
        assert_eq!(got["b1/skills/s1/SKILL.md"].0, b"changed\n", "{durability:?}");
        assert!(!got.contains_key("b2/skills/s2/SKILL.md"), "{durability:?}");
        assert!(!out.join("b2/skills/s2").exists(), "{durability:?}: the emptied folder goes too");
        assert_eq!(got.len(), expected.len() - 1, "{durability:?}");
    }
}

#[test]
fn a_write_into_a_file_where_a_folder_belongs_fails_and_leaves_no_temp_file() {
    let scratch = Scratch::new("blocked");
    let out = scratch.0.join("out");
    fs::create_dir_all(out.join("b0")).unwrap();
    fs::write(out.join("b0/skills"), "a file\n").unwrap();
    let files = files();
    let error = Writer::new().apply(&out, &steps(&files)).expect_err("a file blocks the folder");
    assert_eq!(error.code(), "io");
    assert!(error.message().contains("b0/skills"), "{}", error.message());
    let left = contents(&out);
    let temps: Vec<&String> = left.keys().filter(|p| p.split('/').any(is_temp_name)).collect();
    assert!(temps.is_empty(), "{temps:?}");
    // The rest of the plan landed, as the journal of a killed run would
    // have it land: the next plan starts from a tree its manifest describes.
    assert!(left.contains_key("b1/skills/s1/SKILL.md") && left.contains_key("b0/.plugforge-manifest.json"));
    assert!(!left.keys().any(|p| p.starts_with("b0/skills/")), "nothing through the file in the way");
}

#[test]
fn durability_names_round_trip_and_batch_is_the_default() {
    for name in Durability::NAMES {
        assert_eq!(name.parse::<Durability>().unwrap().name(), name);
    }
    assert_eq!(Durability::default(), Durability::Batch);
    assert_eq!(Writer::new().durability(), Durability::Batch);
    assert_eq!(
        "fast".parse::<Durability>().unwrap_err(),
        "durability \"fast\" is not one of full, batch, none"
    );
}

#[test]
fn a_file_that_is_not_what_the_plan_saw_is_left_alone_named_and_the_rest_written() {
    for durability in [Durability::Full, Durability::Batch, Durability::None] {
        let scratch = Scratch::new(&format!("changed-{}", durability.name()));
        let out = scratch.0.join("out");
        fs::create_dir_all(&out).unwrap();
        for name in ["edited", "planned", "doomed", "kept"] {
            fs::write(out.join(name), format!("{name} as planned\n")).unwrap();
        }
        let seen = |name: &str| file_sha256(&out.join(name)).unwrap();
        let (edited, planned, doomed, kept) = (seen("edited"), seen("planned"), seen("doomed"), seen("kept"));
        // Edits the plan did not see: one to a file it updates, one to a
        // file it removes, and a file of the user's where it creates one.
        fs::write(out.join("edited"), "the user's edit\n").unwrap();
        fs::write(out.join("kept"), "the user's edit\n").unwrap();
        fs::write(out.join("in-the-way"), "the user's file\n").unwrap();
        let steps = [
            Step::Write(FileWrite {
                path: "edited",
                bytes: b"new\n",
                executable: false,
                expect: Expect::Sha256(edited),
            }),
            Step::Write(FileWrite {
                path: "planned",
                bytes: b"new\n",
                executable: false,
                expect: Expect::Sha256(planned),
            }),
            Step::Write(FileWrite {
                path: "in-the-way",
                bytes: b"new\n",
                executable: false,
                expect: Expect::Absent,
            }),
            Step::Write(FileWrite {
                path: "created",
                bytes: b"new\n",
                executable: false,
                expect: Expect::Absent,
            }),
            Step::Remove { path: "doomed", expect: Expect::Sha256(doomed) },
            Step::Remove { path: "kept", expect: Expect::Sha256(kept) },
        ];
        let error = Writer::new().with_durability(durability).apply(&out, &steps).expect_err("changed");
        assert_eq!(error.code(), "conflict", "{durability:?}");
        assert!(error.message().contains("edited, in-the-way, kept"), "{durability:?}: {}", error.message());
        let got = contents(&out);
        assert_eq!(got["edited"].0, b"the user's edit\n", "{durability:?}");
        assert_eq!(got["kept"].0, b"the user's edit\n", "{durability:?}");
        assert_eq!(got["in-the-way"].0, b"the user's file\n", "{durability:?}");
        assert_eq!(got["planned"].0, b"new\n", "{durability:?}");
        assert_eq!(got["created"].0, b"new\n", "{durability:?}");
        assert!(!got.contains_key("doomed"), "{durability:?}");
        assert_eq!(got.len(), 5, "{durability:?}: no temp file left: {:?}", got.keys());
    }
}
