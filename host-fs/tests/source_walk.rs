//! The source walk skips the output root when it sits inside the source,
//! however either is spelled: through a symbolic link, relative to the
//! working folder, or by its real path; so do the stamps of the rerun
//! record.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};

/// A source with one command and an output root `dist/` inside it, below a
/// fresh folder; the folder's path.
fn source_with_output_inside(name: &str) -> PathBuf {
    let base = std::env::temp_dir().join(format!("plugforge-walk-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&base);
    let src = base.join("real");
    fs::create_dir_all(src.join("commands")).unwrap();
    fs::create_dir_all(src.join("dist/claude-code/commands")).unwrap();
    fs::write(src.join("commands/hello.md"), "Say hello.\n").unwrap();
    fs::write(src.join("dist/claude-code/commands/hello.md"), "Say hello.\n").unwrap();
    std::os::unix::fs::symlink(&src, base.join("link")).unwrap();
    base
}

fn paths(root: &Path, exclude: &[PathBuf]) -> Vec<String> {
    let tree = plugforge_host_fs::read_tree(root, exclude).expect("the source reads");
    tree.iter().map(|(path, _)| path.as_str().to_string()).collect()
}

#[test]
fn an_output_root_inside_the_source_is_skipped_however_it_is_spelled() {
    let base = source_with_output_inside("spelled");
    let real = base.join("real");
    let link = base.join("link");
    let only_source = vec!["commands/hello.md".to_string()];
    for (root, out) in [
        (&real, real.join("dist")),
        (&link, link.join("dist")),
        (&link, real.join("dist")),
        (&real, link.join("dist")),
        (&real, real.join("commands/../dist")),
    ] {
        assert_eq!(paths(root, std::slice::from_ref(&out)), only_source, "source {root:?}, output {out:?}");
    }
    // Nothing excluded: the output is read as any other folder.
    assert_eq!(paths(&link, &[]), ["commands/hello.md", "dist/claude-code/commands/hello.md"]);
    // An output root outside the source (or missing) excludes nothing.
    assert_eq!(paths(&real, &[base.join("elsewhere")]).len(), 2);
    assert_eq!(paths(&real, std::slice::from_ref(&base)).len(), 2);
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn the_stamps_of_a_source_skip_the_output_root_as_its_walk_does() {
    let base = source_with_output_inside("stamps");
    let link = base.join("link");
    let stamps = plugforge_host_fs::stamps(&link, true, &[base.join("real/dist")]).unwrap().unwrap();
    let stamped: Vec<&str> = stamps.iter().map(|(path, _)| path.as_str()).collect();
    // Folders are stamped too (a folder's path ends in `/`, the root's is empty).
    assert_eq!(stamped, ["", "commands/", "commands/hello.md"]);
    fs::remove_dir_all(&base).unwrap();
}
