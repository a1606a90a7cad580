//! JSON and JSONC: any bytes parse as a source file, a config, a generation
//! manifest, or as the content of every shared file plans merge into (JSON,
//! JSONC, YAML, TOML, Markdown sections) without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plugforge_core::{Config, Manifest, Observed, PlanOptions, Sha256Digest, parse_json, plan};
use plugforge_fuzz::fixed_output;

fuzz_target!(|data: &[u8]| {
    let _ = parse_json::<serde_json::Value>("file.json", data);
    let _ = parse_json::<Config>("plugforge.json", data);
    let _ = Manifest::parse(".plugforge-manifest.json", data);

    let output = fixed_output();
    let mut observed = Observed::default();
    for path in output.paths_to_read() {
        observed.hashes.insert(path.to_string(), Some(Sha256Digest::of(data)));
        observed.contents.insert(path.to_string(), data.into());
    }
    for force in [false, true] {
        let options = PlanOptions { force, generated_at: "2026-01-01T00:00:00Z".into() };
        let _ = plan(output, observed.clone(), &options);
    }
});
