//! Where the built-in templates are read from at compile time. Authors edit
//! the workspace's top-level `templates/`; `core/templates` links to it so a
//! packaged crate (the Python sdist, `cargo package`) carries the files as
//! its own. A checkout without symlinks (Git on Windows by default) has a
//! plain file there, and the top-level folder is read instead.

// A build script runs on the building machine, before the engine exists: the
// engine's own rule against environment and filesystem access is for `src/`.
#![allow(clippy::disallowed_methods)]

use std::path::PathBuf;

fn main() {
    let crate_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let packaged = crate_dir.join("templates");
    let dir = if packaged.is_dir() { packaged } else { crate_dir.join("../templates") };
    let dir = dir.canonicalize().expect("the templates folder exists");
    println!("cargo:rustc-env=PLUGFORGE_TEMPLATES_DIR={}", dir.display());
    println!("cargo:rerun-if-changed={}", dir.display());
}
