//! Every command a generated bundle README prints works as printed, run
//! from the folder the README names, with the pinned real client in a
//! throwaway HOME: Striatum is built for every runtime, each README's code
//! blocks are read with the paragraph before them ("run from this folder",
//! "from the folder above this one", "from the output root, `../`"), and
//! each line runs there. A line no client here can run (an interactive
//! session, a client with no offline build) is listed as not run, with why;
//! a block whose folder the README does not say fails.

mod clients;
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{TempDir, run, s, striatum};
use plugforge_core::{Client, Judge, Runtime};

/// A code block of a README and the folder its commands run from.
struct Block {
    readme: PathBuf,
    line: usize,
    cwd: Option<PathBuf>,
    commands: Vec<String>,
}

/// The folder the paragraph before a block says to run it from; `previous`
/// is the folder of the block before it ("from the same folder").
fn folder(paragraph: &str, readme_dir: &Path, previous: Option<&Path>) -> Option<PathBuf> {
    let lower = paragraph.to_lowercase();
    if lower.contains("run from this folder") {
        return Some(readme_dir.to_path_buf());
    }
    if lower.contains("the folder above this one") {
        return Some(readme_dir.join(".."));
    }
    if lower.contains("from the same folder") {
        return previous.map(Path::to_path_buf);
    }
    let rest = paragraph.split("the output root, `").nth(1)?;
    Some(readme_dir.join(rest.split('`').next()?))
}

fn blocks(readme: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(readme).expect("README");
    let dir = readme.parent().expect("a folder");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].starts_with("```") {
            let start = i;
            let mut commands = Vec::new();
            i += 1;
            while i < lines.len() && !lines[i].starts_with("```") {
                if !lines[i].trim().is_empty() {
                    commands.push(lines[i].trim().to_string());
                }
                i += 1;
            }
            let paragraph: Vec<&str> = lines[..start]
                .iter()
                .rev()
                .skip_while(|l| l.trim().is_empty())
                .take_while(|l| !l.trim().is_empty())
                .copied()
                .collect();
            let paragraph: String = paragraph.into_iter().rev().collect::<Vec<_>>().join(" ");
            let previous = out.last().and_then(|b: &Block| b.cwd.clone());
            let cwd = folder(&paragraph, dir, previous.as_deref());
            out.push(Block { readme: readme.to_path_buf(), line: start + 1, cwd, commands });
        }
        i += 1;
    }
    out
}

fn readmes(root: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(root).expect("read_dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            readmes(&path, out);
        } else if path.file_name().is_some_and(|n| n == "README.md") {
            out.push(path);
        }
    }
}

/// Environment variables, as a client's spec lists them.
type Env = &'static [(&'static str, &'static str)];

/// Every client of the registry a README may name: the command its install
/// puts on PATH, the variable naming its pinned binary, and the environment
/// that keeps it offline and quiet.
fn registry_clients() -> Vec<(&'static str, String, Env)> {
    let mut clients: Vec<&'static Client> = Vec::new();
    for runtime in Runtime::ALL {
        if let Judge::Clients(checks) = &runtime.spec().judge {
            for check in checks.iter() {
                if !clients.iter().any(|known| known.id == check.client.id) {
                    clients.push(check.client);
                }
            }
        }
    }
    clients
        .iter()
        .flat_map(|client| {
            let var = format!("PLUGFORGE_{}_BIN", client.id.to_ascii_uppercase().replace('-', "_"));
            client.commands.iter().map(move |command| (*command, var.clone(), client.quiet))
        })
        .collect()
}

/// Why a command cannot run here, or `None` when it runs.
fn not_run(command: &str) -> Option<&'static str> {
    if command == "claude --plugin-dir ." {
        return Some("starts an interactive session");
    }
    match command.split_whitespace().next() {
        Some("agy") => Some("Antigravity CLI has no offline client here"),
        _ => None,
    }
}

/// What every command runs with besides each client's quiet environment.
const PLAIN: [(&str, &str); 2] = [("NO_COLOR", "1"), ("RUST_BACKTRACE", "0")];

#[test]
fn every_command_a_bundle_readme_prints_works_as_printed() {
    let tmp = TempDir::new("bundle-readmes");
    let out = tmp.join("dist");
    run(&["build", s(&striatum()), "--target", "all", "--out", s(&out)]).expect(0);
    let mut files = Vec::new();
    readmes(&out, &mut files);
    files.sort();
    assert!(files.len() >= 5, "bundle READMEs not found: {files:?}");
    let blocks: Vec<Block> = files.iter().flat_map(|f| blocks(f)).collect();
    let named: std::collections::BTreeSet<&str> =
        blocks.iter().flat_map(|b| &b.commands).filter_map(|c| c.split_whitespace().next()).collect();
    // The clients the READMEs name, under those names; a client skipped by name is absent.
    let shims = tmp.join("bin");
    std::fs::create_dir_all(&shims).expect("shims");
    let mut absent = Vec::new();
    let mut quiet: Vec<(&str, &str)> = PLAIN.to_vec();
    for (program, var, env) in registry_clients().into_iter().filter(|(p, _, _)| named.contains(p)) {
        match clients::client(&var) {
            Some(bin) => std::os::unix::fs::symlink(bin, shims.join(program)).expect("symlink"),
            None => absent.push(program),
        }
        quiet.extend(env.iter().copied());
    }
    let copilot_cache =
        std::env::var("HOME").map(|h| format!("{h}/.cache/plugforge/copilot-pkg")).unwrap_or_default();
    let path = format!("{}:{}", shims.display(), std::env::var("PATH").unwrap_or_default());
    let (mut ran, mut skipped, mut failed) = (0, Vec::new(), Vec::new());
    for block in &blocks {
        let shown =
            format!("{}:{}", block.readme.strip_prefix(&out).unwrap_or(&block.readme).display(), block.line);
        // One HOME per block: what its first lines install is there for the next.
        let home = TempDir::new("bundle-readme-home");
        for command in &block.commands {
            let program = command.split_whitespace().next().unwrap_or_default();
            if let Some(why) = not_run(command) {
                skipped.push(format!("{shown}: {command} ({why})"));
                continue;
            }
            if absent.contains(&program) {
                skipped.push(format!("{shown}: {command} ({program} skipped by name)"));
                continue;
            }
            let Some(cwd) = &block.cwd else {
                failed.push(format!("{shown}: the README does not say which folder to run `{command}` from"));
                continue;
            };
            let mut bash = Command::new("bash");
            bash.args(["-e", "-o", "pipefail", "-c", command]).current_dir(cwd).stdin(Stdio::piped());
            bash.stdout(Stdio::piped()).stderr(Stdio::piped());
            for key in
                ["CODEX_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "GITHUB_TOKEN", "GH_TOKEN", "HERMES_HOME"]
            {
                bash.env_remove(key);
            }
            bash.envs(quiet.iter().copied())
                .env("HOME", home.path())
                .env("PATH", &path)
                .env("COPILOT_CACHE_HOME", &copilot_cache);
            let mut child = bash.spawn().expect("bash runs");
            // A client that asks for consent on a terminal gets the user's yes.
            if let Some(mut stdin) = child.stdin.take() {
                use std::io::Write;
                let _ = stdin.write_all("y\n".repeat(8).as_bytes());
            }
            let output = child.wait_with_output().expect("the command finishes");
            ran += 1;
            if !output.status.success() {
                failed.push(format!(
                    "{shown}: `{command}` in {} exited {:?}:\n{}{}",
                    cwd.display(),
                    output.status.code(),
                    String::from_utf8_lossy(&output.stdout),
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
        }
    }
    eprintln!("bundle README commands: {ran} run, {} not run", skipped.len());
    for line in &skipped {
        eprintln!("  not run: {line}");
    }
    assert!(failed.is_empty(), "{} command(s) failed as printed:\n{}", failed.len(), failed.join("\n"));
    assert!(ran + skipped.len() >= 12, "only {ran} commands ran");
}

#[test]
fn the_folder_a_block_runs_from_is_read_from_its_paragraph() {
    let dir = Path::new("/x/dist/codex");
    assert_eq!(folder("Install it (run from this folder):", dir, None), Some(dir.to_path_buf()));
    assert_eq!(folder("From the folder above this one:", dir, None), Some(dir.join("..")));
    assert_eq!(folder("From the output root, `../../`:", dir, None), Some(dir.join("../../")));
    assert_eq!(
        folder("Link it instead, from the same folder:", dir, Some(Path::new("/y"))),
        Some(PathBuf::from("/y"))
    );
    assert_eq!(folder("Load it like this:", dir, None), None);
}
