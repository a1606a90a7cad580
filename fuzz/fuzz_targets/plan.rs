//! plan and uninstall: any output folder as a host observed it (with any
//! manifests and shared files in it) plans, with and without --force, and
//! uninstalls, without a panic. Files under `src/` are the source built
//! first; when they do not build, a fixed source with every component is.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plugforge_core::{Observed, PlanOptions, Runtime, Sha256Digest, UninstallOptions, plan, uninstall_plan};
use plugforge_fuzz::{picked_fixed_output, picked_targets, source_and_rest, templates_bounded};

fuzz_target!(|data: &[u8]| {
    let (source, folder) = source_and_rest(data);
    let built = if templates_bounded(&source) {
        plugforge_core::build(&source, &picked_targets(data, 1)).ok()
    } else {
        None
    };
    let output = built.as_ref().unwrap_or_else(|| picked_fixed_output(data, 1));
    let mut observed = Observed::default();
    for (path, file) in folder.iter() {
        observed.hashes.insert(path.to_string(), Some(Sha256Digest::of(&file.bytes)));
        observed.contents.insert(path.to_string(), file.bytes.clone());
    }
    for force in [false, true] {
        let options = PlanOptions { force, generated_at: "2026-01-01T00:00:00Z".into() };
        let _ = plan(output, observed.clone(), &options);
        let runtimes = Runtime::ALL.iter().map(|r| r.id().to_string()).collect();
        let options = UninstallOptions {
            runtimes,
            namespace: Some("fuzzed".into()),
            force,
            ..UninstallOptions::default()
        };
        let _ = uninstall_plan(&options, &observed);
    }
});
