//! `PLUGFORGE_BUILD_ID`: a digest of the engine, host and command-line
//! sources this build compiles, so the rerun record of one build is never
//! taken for another's (two builds of one version can write different
//! bytes while it is being developed).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

fn main() {
    let crate_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut digest = Sha256::new();
    digest.update(std::env::var("CARGO_PKG_VERSION").unwrap_or_default());
    // A packaged crate (the Python sdist) may lay the folders out otherwise:
    // what is there is hashed.
    for name in ["src", "../core/src", "../core/templates", "../host-fs/src"] {
        let Ok(dir) = crate_dir.join(name).canonicalize() else { continue };
        // Relative to the crate, as cargo reads it: the same output in any
        // copy of the repository sharing one target folder, so a build in
        // one does not make the other's stale.
        println!("cargo:rerun-if-changed={name}");
        let mut files = Vec::new();
        collect(&dir, &mut files);
        files.sort();
        for file in files {
            let bytes = std::fs::read(&file).unwrap_or_default();
            digest.update(file.strip_prefix(&dir).unwrap_or(&file).to_string_lossy().as_bytes());
            digest.update([0]);
            digest.update(Sha256::digest(&bytes));
        }
    }
    let id: String = digest.finalize().iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=PLUGFORGE_BUILD_ID={id}");
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}
