//! Embeds the client drivers (`drivers/*.py`, `*.mjs`) so the verifier runs
//! the very scripts the suite's real-client tests run, wherever the binary is
//! installed. Every file of the folder is taken: none is named here.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let folder = Path::new(&manifest).join("drivers");
    println!("cargo:rerun-if-changed={}", folder.display());
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .expect("drivers/ is readable")
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_file())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.ends_with(".py") || name.ends_with(".mjs"))
        .collect();
    names.sort();
    let mut code = String::from(
        "/// The drivers, by their path in the repository.\npub const DRIVERS: &[(&str, &str)] = &[\n",
    );
    for name in &names {
        println!("cargo:rerun-if-changed={}", folder.join(name).display());
        // Below the crate's folder as the compiler sees it, not as this script
        // did: a copy of the repository building into the same target folder
        // embeds its own files.
        writeln!(
            code,
            "    (\"judge/drivers/{name}\", include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/drivers/{name}\"))),"
        )
        .expect("write to a string");
    }
    code.push_str("];\n");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out).join("drivers.rs"), code).expect("write drivers.rs");
}
