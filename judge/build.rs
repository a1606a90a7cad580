//! Embeds the client drivers so the verifier runs the very scripts the
//! suite's real-client tests run, wherever the binary is installed. A
//! driver lives in the folder of the runtime its client judges,
//! `core/src/runtime/<folder>/drivers/` (`*.py`, `*.mjs`); the core only
//! holds the files, this crate reads them. Every file of those folders is
//! taken: none is named here.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let runtimes = Path::new(&manifest).join("../core/src/runtime");
    // A new runtime folder (and so perhaps new drivers) changes the folder.
    println!("cargo:rerun-if-changed={}", runtimes.display());
    let mut drivers: Vec<(String, String)> = Vec::new();
    for runtime in std::fs::read_dir(&runtimes).expect("core/src/runtime/ is readable") {
        let runtime = runtime.expect("core/src/runtime/ is readable").path();
        let folder = runtime.join("drivers");
        if !folder.is_dir() {
            continue;
        }
        println!("cargo:rerun-if-changed={}", folder.display());
        let runtime = runtime.file_name().and_then(|n| n.to_str()).expect("a runtime folder's name is UTF-8");
        for entry in std::fs::read_dir(&folder).expect("a drivers/ folder is readable") {
            let entry = entry.expect("a drivers/ folder is readable");
            let Ok(name) = entry.file_name().into_string() else { continue };
            if entry.path().is_file() && (name.ends_with(".py") || name.ends_with(".mjs")) {
                drivers.push((runtime.to_string(), name));
            }
        }
    }
    drivers.sort_by(|a, b| a.1.cmp(&b.1));
    // The drivers run side by side in one scratch folder (one imports
    // another, or a helper script, by its file name): a name is taken once.
    for pair in drivers.windows(2) {
        assert!(
            pair[0].1 != pair[1].1,
            "two drivers are named {}: core/src/runtime/{}/drivers/ and core/src/runtime/{}/drivers/",
            pair[0].1,
            pair[0].0,
            pair[1].0
        );
    }
    let mut code = String::from(
        "/// The drivers, by their path in the repository.\npub const DRIVERS: &[(&str, &str)] = &[\n",
    );
    for (runtime, name) in &drivers {
        let path = format!("core/src/runtime/{runtime}/drivers/{name}");
        println!("cargo:rerun-if-changed={}", runtimes.join(runtime).join("drivers").join(name).display());
        // Below the crate's folder as the compiler sees it, not as this script
        // did: a copy of the repository building into the same target folder
        // embeds its own files.
        writeln!(
            code,
            "    (\"{path}\", include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/../{path}\"))),"
        )
        .expect("write to a string");
    }
    code.push_str("];\n");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out).join("drivers.rs"), code).expect("write drivers.rs");
}
