//! `verify --install`: every client the registry names, at its pinned
//! version, into plugforge's cache (`<cache>/clients/<id>`), where `verify`
//! finds it: npm packages with npm, PyPI packages into a venv with pip, then
//! whatever its spec's `Launch` says makes it runnable (the same steps as
//! `scripts/install-clients`, read from the same spec).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use plugforge_core::{Client, Judge, Launch, Runtime};

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
    let mut install = Command::new(&npm);
    install.args(["install", "--no-audit", "--no-fund"]);
    if client.launch == Launch::WithoutScripts {
        install.arg("--ignore-scripts");
    }
    install.arg("--prefix").arg(prefix).args(&packages);
    match client.launch {
        Launch::AsInstalled | Launch::WithoutScripts => {
            run(install, &format!("npm install {}", packages.join(" ")))
        }
        Launch::AfterScript(script) => {
            run(install, &format!("npm install {}", packages.join(" ")))?;
            let node = find::on_path("node").ok_or("node not found on PATH (it runs the install script)")?;
            let script = prefix.join(script);
            let mut setup = Command::new(node);
            setup.arg(&script).current_dir(script.parent().unwrap_or(prefix));
            run(setup, &format!("node {}", script.display()))
        }
        Launch::Node { version, entry } => {
            let node = node_of(&npm, prefix, version)?;
            // npm resolves the release against the engines of the node it runs under.
            let path = std::env::join_paths(
                std::iter::once(node.parent().unwrap_or(prefix).to_path_buf())
                    .chain(std::env::var_os("PATH").iter().flat_map(std::env::split_paths)),
            )
            .map_err(|e| format!("PATH: {e}"))?;
            install.env("PATH", path);
            run(install, &format!("npm install {}", packages.join(" ")))?;
            wrap(prefix, client.binary, &node, entry)
        }
    }
}

/// npm's package of the Node release for this platform, as its registry names it.
fn node_package(version: &str) -> Result<String, String> {
    let os = match std::env::consts::OS {
        "linux" => "linux",
        "macos" => "darwin",
        other => {
            return Err(format!(
                "no Node package on npm for {other}: install Node {version} and name the client with --client"
            ));
        }
    };
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => {
            return Err(format!(
                "no Node package on npm for {other}: install Node {version} and name the client with --client"
            ));
        }
    };
    Ok(format!("node-{os}-{arch}@{version}"))
}

/// Node `version` from npm, in its own folder of the cache beside the
/// clients (installed once, shared by every client that names it).
fn node_of(npm: &Path, client_prefix: &Path, version: &str) -> Result<PathBuf, String> {
    let package = node_package(version)?;
    let name = package.rsplit_once('@').map_or(package.as_str(), |(name, _)| name);
    let prefix = client_prefix.with_file_name(format!("node-{version}"));
    let node = prefix.join("node_modules").join(name).join("bin/node");
    let reports = |node: &Path| {
        Command::new(node)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == format!("v{version}"))
    };
    if !reports(&node) {
        std::fs::create_dir_all(&prefix).map_err(|e| format!("{}: {e}", prefix.display()))?;
        let mut install = Command::new(npm);
        install.args(["install", "--no-audit", "--no-fund", "--prefix"]).arg(&prefix).arg(&package);
        run(install, &format!("npm install {package}"))?;
        if !reports(&node) {
            return Err(format!("installed {package}, but {} does not report v{version}", node.display()));
        }
    }
    Ok(node)
}

/// The client's `binary`: a script running `entry` with `node`, and that
/// node linked beside it as `node` for drivers that import the client's
/// own modules (as `scripts/install-clients` writes them).
#[cfg(unix)]
fn wrap(prefix: &Path, binary: &str, node: &Path, entry: &str) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let wrapper = prefix.join(binary);
    let script =
        format!("#!/bin/sh\nexec \"{}\" \"{}\" \"$@\"\n", node.display(), prefix.join(entry).display());
    std::fs::write(&wrapper, script).map_err(|e| format!("{}: {e}", wrapper.display()))?;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("{}: {e}", wrapper.display()))?;
    let link = prefix.join("node");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(node, &link).map_err(|e| format!("{}: {e}", link.display()))
}

#[cfg(not(unix))]
fn wrap(_prefix: &Path, binary: &str, node: &Path, _entry: &str) -> Result<(), String> {
    Err(format!(
        "{binary} runs under {}; on this system install it by hand and name it with --client",
        node.display()
    ))
}

/// Installs every client not yet in the cache; `say` hears each step.
/// Returns what became of each client.
pub fn install(say: &mut dyn FnMut(&str)) -> Result<Vec<String>, String> {
    let cache = find::cache_dir().ok_or("no cache folder: set PLUGFORGE_CACHE_DIR or HOME")?;
    let mut done = Vec::new();
    for client in clients() {
        let prefix = find::install_prefix(&cache, client);
        if let Some(binary) =
            find::glob(&prefix, client.binary).filter(|b| reports_version(b, client.version))
        {
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
            find::glob(&prefix, client.binary).filter(|b| reports_version(b, client.version)).ok_or_else(
                || {
                    format!(
                        "installed, but {}/{} does not run and report {}",
                        prefix.display(),
                        client.binary,
                        client.version
                    )
                },
            )
        }) {
            Ok(binary) => {
                done.push(format!("install: {} {} ready ({})", client.id, client.version, binary.display()))
            }
            Err(e) => done.push(format!("install: {} {}: {e}", client.id, client.version)),
        }
    }
    Ok(done)
}

/// Whether `binary --version` runs and names `version`: a stub left by a
/// skipped install script, or a wrapper whose Node is gone, does not. It
/// runs with a throwaway HOME (some clients write state even for
/// `--version`) and is ended after a minute.
fn reports_version(binary: &Path, version: &str) -> bool {
    use wait_timeout::ChildExt;
    let Ok(home) = tempfile::Builder::new().prefix("plugforge-install-").tempdir() else { return false };
    let Ok(mut child) = Command::new(binary)
        .arg("--version")
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join(".config"))
        .env("XDG_DATA_HOME", home.path().join(".local/share"))
        .env("XDG_STATE_HOME", home.path().join(".local/state"))
        .env("XDG_CACHE_HOME", home.path().join(".cache"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    let mut stdout = child.stdout.take().expect("piped stdout");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut text);
        text
    });
    match child.wait_timeout(std::time::Duration::from_secs(60)) {
        Ok(Some(_)) => reader.join().is_ok_and(|text| text.contains(version)),
        _ => {
            let _ = child.kill();
            let _ = child.wait();
            false
        }
    }
}
