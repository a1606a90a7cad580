//! `verify --install`: every client the registry names, at its pinned
//! version, into plugforge's cache (`<cache>/clients/<id>`), where `verify`
//! finds it: npm packages with npm, PyPI packages into a venv with pip.

use std::path::Path;
use std::process::{Command, Stdio};

use plugforge_core::{Client, Judge, Runtime};

use crate::find;

/// Every client some runtime's spec names, each once, in registry order.
pub fn clients() -> Vec<&'static Client> {
    let mut out: Vec<&'static Client> = Vec::new();
    for spec in Runtime::specs() {
        if let Judge::Clients(checks) = &spec.judge {
            for check in *checks {
                if !out.iter().any(|c| c.id == check.client.id) {
                    out.push(check.client);
                }
            }
        }
    }
    out
}

fn run(mut command: Command, what: &str) -> Result<(), String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{what}: cannot run {:?}: {e}", command.get_program()))?;
    if output.status.success() {
        return Ok(());
    }
    let text = String::from_utf8_lossy(&output.stderr);
    let tail: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    Err(format!("{what} failed: {}", tail[tail.len().saturating_sub(3)..].join(" / ")))
}

/// Installs one client into `prefix`.
fn install_one(client: &Client, prefix: &Path) -> Result<(), String> {
    std::fs::create_dir_all(prefix).map_err(|e| format!("{}: {e}", prefix.display()))?;
    if let Some(package) = client.package.strip_prefix("pypi:") {
        let python =
            find::on_path("python3").ok_or("python3 not found on PATH (it installs PyPI clients)")?;
        let mut venv = Command::new(python);
        venv.args(["-m", "venv"]).arg(prefix);
        run(venv, "python3 -m venv")?;
        let mut pip = Command::new(prefix.join("bin/pip"));
        pip.args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            &format!("{package}=={}", client.version),
        ]);
        return run(pip, &format!("pip install {package}=={}", client.version));
    }
    let npm = find::on_path("npm").ok_or("npm not found on PATH (it installs the npm clients)")?;
    let mut packages = vec![format!("{}@{}", client.package, client.version)];
    packages.extend(client.extra_packages.iter().map(|p| p.to_string()));
    let mut install = Command::new(npm);
    install.args(["install", "--no-audit", "--no-fund", "--prefix"]).arg(prefix).args(&packages);
    run(install, &format!("npm install {}", packages.join(" ")))
}

/// Installs every client not yet in the cache; `say` hears each step.
/// Returns what became of each client.
pub fn install(say: &mut dyn FnMut(&str)) -> Result<Vec<String>, String> {
    let cache = find::cache_dir().ok_or("no cache folder: set PLUGFORGE_CACHE_DIR or HOME")?;
    let mut done = Vec::new();
    for client in clients() {
        let prefix = find::install_prefix(&cache, client);
        if let Some(binary) = find::glob(&prefix, client.binary) {
            done.push(format!(
                "install: {} {} is in the cache ({})",
                client.id,
                client.version,
                binary.display()
            ));
            continue;
        }
        let (package, registry) =
            client.package.strip_prefix("pypi:").map_or((client.package, ""), |p| (p, " (PyPI)"));
        say(&format!("install: {package}@{}{registry} into {}", client.version, prefix.display()));
        match install_one(client, &prefix).and_then(|()| {
            find::glob(&prefix, client.binary)
                .ok_or_else(|| format!("installed, but no binary at {}/{}", prefix.display(), client.binary))
        }) {
            Ok(binary) => {
                done.push(format!("install: {} {} ready ({})", client.id, client.version, binary.display()))
            }
            Err(e) => done.push(format!("install: {} {}: {e}", client.id, client.version)),
        }
    }
    Ok(done)
}
