//! Running one client driver: the embedded script in a scratch folder, with a
//! throwaway HOME, XDG folders and temp folder inside it, no credentials in
//! its environment, stdin closed, and a deadline after which it is ended with
//! every process it started.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use wait_timeout::ChildExt;

include!(concat!(env!("OUT_DIR"), "/drivers.rs"));

/// The interpreter the drivers run on.
pub const PYTHON: &str = "python3";

/// Environment variables never handed to a driver (and so to a client):
/// anything that looks like a credential, and the variables that point a
/// client at the user's own configuration instead of HOME.
fn withheld(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["TOKEN", "API_KEY", "APIKEY", "SECRET", "PASSWORD", "CREDENTIAL", "AUTH"]
        .iter()
        .any(|w| upper.contains(w))
        || upper.starts_with("XDG_")
        || upper.starts_with("PLUGFORGE_")
        || matches!(
            upper.as_str(),
            "CLAUDE_CONFIG_DIR"
                | "CODEX_HOME"
                | "GEMINI_CLI_HOME"
                | "OPENCODE_CONFIG"
                | "OPENCODE_CONFIG_DIR"
                | "HERMES_HOME"
                | "OPENCLAW_STATE_DIR"
                | "OPENCLAW_PROFILE"
                | "COPILOT_HOME"
                | "TMPDIR"
                | "NPM_CONFIG_USERCONFIG"
                | "PIP_CONFIG_FILE"
        )
}

/// A scratch folder for one driver run, removed when dropped: the drivers,
/// and the HOME, temp and cache folders every client of the run sees.
pub struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    /// A new scratch folder below `base` (the system's temp folder when `None`).
    pub fn new(base: Option<&Path>) -> Result<Scratch, String> {
        let mut builder = tempfile::Builder::new();
        builder.prefix("plugforge-verify-");
        let dir = match base {
            Some(base) => {
                std::fs::create_dir_all(base).map_err(|e| format!("{}: {e}", base.display()))?;
                builder.tempdir_in(base)
            }
            None => builder.tempdir(),
        }
        .map_err(|e| format!("cannot make a scratch folder: {e}"))?;
        for sub in ["drivers", "home", "tmp"] {
            std::fs::create_dir_all(dir.path().join(sub)).map_err(|e| format!("scratch folder: {e}"))?;
        }
        for (path, text) in DRIVERS {
            let name = Path::new(path).file_name().expect("a driver has a file name");
            std::fs::write(dir.path().join("drivers").join(name), text)
                .map_err(|e| format!("scratch folder: {e}"))?;
        }
        Ok(Scratch { dir })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The throwaway HOME.
    pub fn home(&self) -> PathBuf {
        self.path().join("home")
    }
}

/// What a driver run gave.
#[derive(Debug)]
pub enum Outcome {
    /// Its JSON report.
    Report(Value),
    /// It could not run the client (an unusable binary, a usage error), or
    /// it failed or timed out: what it said.
    Failed(String),
}

/// The repository path of the embedded driver whose file name is `name`
/// (`claude_inventory.py`): file names are unique across the runtimes'
/// `drivers/` folders.
pub fn named(name: &str) -> Option<&'static str> {
    DRIVERS.iter().map(|(path, _)| *path).find(|path| Path::new(path).file_name().is_some_and(|n| n == name))
}

/// Runs the driver `driver` (its repository path, as a `Check` names it)
/// with `args` in `scratch`, ending it after `timeout`.
pub fn run(scratch: &Scratch, driver: &str, args: &[String], timeout: Duration) -> Outcome {
    let Some(name) = DRIVERS.iter().find(|(path, _)| *path == driver).map(|(path, _)| path) else {
        return Outcome::Failed(format!("no driver {driver} is embedded in this build"));
    };
    let script = scratch.path().join("drivers").join(Path::new(name).file_name().expect("a file name"));
    let home = scratch.home();
    let mut command = Command::new(PYTHON);
    command
        .arg(&script)
        .args(args)
        .current_dir(&home)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_clear()
        .envs(std::env::vars_os().filter(|(k, _)| !k.to_str().is_some_and(withheld)))
        .env("HOME", &home)
        .env("TMPDIR", scratch.path().join("tmp"))
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env("PLUGFORGE_CLIENTS_DIR", home.join(".cache/plugforge/clients"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("NO_COLOR", "1");
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return Outcome::Failed(format!("cannot run {PYTHON}: {e}")),
    };
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stderr.read_to_end(&mut bytes);
        bytes
    });
    let started = Instant::now();
    let status = match child.wait_timeout(timeout) {
        Ok(Some(status)) => Some(status),
        Ok(None) | Err(_) => None,
    };
    if status.is_none() {
        end_group(&mut child);
    }
    let stdout = out.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
    let Some(status) = status else {
        return Outcome::Failed(format!(
            "timed out after {} s{}",
            started.elapsed().as_secs(),
            tail(&stderr).map(|t| format!(": {t}")).unwrap_or_default()
        ));
    };
    if !status.success() {
        let said = tail(&stderr).unwrap_or_else(|| format!("exit {}", status.code().unwrap_or(-1)));
        return Outcome::Failed(said);
    }
    match serde_json::from_slice(&stdout) {
        Ok(report) => Outcome::Report(report),
        Err(e) => Outcome::Failed(format!("the driver printed no JSON report ({e})")),
    }
}

/// The last lines of what a driver printed on stderr.
fn tail(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    (!lines.is_empty()).then(|| lines[lines.len().saturating_sub(4)..].join(" / "))
}

/// Ends a driver that ran out of time, with the clients it started.
fn end_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    if let Some(pid) = rustix::process::Pid::from_raw(child.id() as i32) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}
