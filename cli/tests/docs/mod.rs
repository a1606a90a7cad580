//! The shell blocks of a Markdown page, and running them as a reader would:
//! in a folder of their own, one after the other, each with `bash -e -o
//! pipefail`, exactly as written. A block is marked in the page's source with
//! an HTML comment on the lines before it (invisible on GitHub and in the
//! book): `<!-- not run: REASON -->` keeps it from running here (a registry
//! install, the whole suite), and `<!-- output -->` before a `text` block
//! makes that block the expected stdout of the shell block above it, compared
//! by snapbox (the library trycmd is built on) with its wildcards: `...` on a
//! line of its own for any lines, `[..]` for the rest of a line.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

/// The agent CLIs a block may call, with the variable naming each binary.
pub const CLIENTS: [(&str, &str); 7] = [
    ("claude", "PLUGFORGE_CLAUDE_BIN"),
    ("codex", "PLUGFORGE_CODEX_BIN"),
    ("copilot", "PLUGFORGE_COPILOT_BIN"),
    ("gemini", "PLUGFORGE_GEMINI_BIN"),
    ("opencode", "PLUGFORGE_OPENCODE_BIN"),
    ("openclaw", "PLUGFORGE_OPENCLAW_BIN"),
    ("hermes", "PLUGFORGE_HERMES_BIN"),
];

/// A block stops after this long: a client waiting on a terminal would hang the suite.
const BLOCK_TIMEOUT: Duration = Duration::from_secs(300);

#[derive(Debug, Clone)]
pub struct Block {
    /// 1-based line of the opening fence.
    pub line: usize,
    pub code: String,
    /// The reason given in `<!-- not run: ... -->`.
    pub not_run: Option<String>,
    /// The `text` block marked `<!-- output -->` after it.
    pub expected: Option<String>,
}

/// The shell blocks (`sh`, `bash`, `console`, `shell`) of a page; with
/// `any_fence`, every fenced block of any or no language (what generated
/// bundle READMEs print).
pub fn shell_blocks(markdown: &str, any_fence: bool) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut marks = String::new();
    let mut current: Option<(String, usize, String)> = None;
    for (event, range) in Parser::new(markdown).into_offset_iter() {
        match event {
            Event::Html(html) | Event::InlineHtml(html) => marks.push_str(&html),
            Event::Start(Tag::CodeBlock(kind)) => {
                let language = match kind {
                    CodeBlockKind::Fenced(info) => info.split_whitespace().next().unwrap_or("").to_string(),
                    CodeBlockKind::Indented => "indented".to_string(),
                };
                let line = markdown[..range.start].matches('\n').count() + 1;
                current = Some((language, line, String::new()));
            }
            Event::Text(text) => {
                if let Some((_, _, code)) = current.as_mut() {
                    code.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                let (language, line, code) = current.take().expect("a block was open");
                let is_shell = matches!(language.as_str(), "sh" | "bash" | "console" | "shell");
                if language == "text" && marks.contains("<!-- output -->") {
                    let last = blocks.last_mut().expect("an output block follows a shell block");
                    last.expected = Some(code);
                } else if is_shell || (any_fence && language != "indented") {
                    let not_run = marks
                        .split("<!-- not run:")
                        .nth(1)
                        .map(|rest| rest.split("-->").next().unwrap_or("").trim().to_string());
                    blocks.push(Block { line, code, not_run, expected: None });
                }
                marks.clear();
            }
            Event::Start(Tag::Paragraph | Tag::Heading { .. } | Tag::List(_) | Tag::Table(_)) => {
                marks.clear()
            }
            _ => {}
        }
    }
    blocks
}

/// The agent CLIs a block calls: the first word of each command in it.
pub fn clients_called(code: &str) -> Vec<&'static str> {
    let mut called = Vec::new();
    for command in code.lines().flat_map(|line| line.split(['&', '|', ';', '('])) {
        let word = command.split_whitespace().next().unwrap_or("");
        if let Some((name, _)) = CLIENTS.iter().find(|(name, _)| *name == word)
            && !called.contains(name)
        {
            called.push(*name);
        }
    }
    called
}

/// What a run printed and how it ended.
#[derive(Debug)]
pub struct Ran {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// A throwaway home, the real toolchain, and `bin` (plugforge and the
/// clients, by their names) first on PATH.
pub struct Shell {
    pub home: PathBuf,
    pub bin: PathBuf,
}

impl Shell {
    pub fn new(root: &Path) -> Shell {
        let home = root.join("home");
        let bin = root.join("bin");
        std::fs::create_dir_all(&home).expect("home");
        std::fs::create_dir_all(&bin).expect("bin");
        Shell { home, bin }
    }

    /// Puts `target` on PATH as `name`.
    pub fn link(&self, name: &str, target: &Path) {
        let link = self.bin.join(name);
        let _ = std::fs::remove_file(&link);
        #[cfg(unix)]
        std::os::unix::fs::symlink(target, &link).expect("link a binary onto PATH");
        #[cfg(not(unix))]
        std::fs::copy(target, &link).expect("copy a binary onto PATH");
    }

    pub fn run(&self, code: &str, cwd: &Path) -> Ran {
        let real_home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
        let cargo_home =
            std::env::var_os("CARGO_HOME").map_or_else(|| real_home.join(".cargo"), PathBuf::from);
        let rustup_home =
            std::env::var_os("RUSTUP_HOME").map_or_else(|| real_home.join(".rustup"), PathBuf::from);
        let path = std::env::join_paths(
            [self.bin.clone(), cargo_home.join("bin")]
                .into_iter()
                .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
        )
        .expect("PATH");
        let mut child = Command::new("bash")
            .args(["--noprofile", "--norc", "-e", "-o", "pipefail", "-c", code])
            .current_dir(cwd)
            .env("HOME", &self.home)
            .env("CARGO_HOME", cargo_home)
            .env("RUSTUP_HOME", rustup_home)
            .env("PATH", path)
            .env("NO_COLOR", "1")
            .env("SOURCE_DATE_EPOCH", "1767225600")
            // The clients stay offline and quiet, and read no real config.
            .env("DISABLE_TELEMETRY", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("DISABLE_ERROR_REPORTING", "1")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env("PLUGFORGE_CACHE_DIR", self.home.join(".cache/plugforge"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run bash");
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let out = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap_or_default());
        let err = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap_or_default());
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break Some(status);
            }
            if started.elapsed() > BLOCK_TIMEOUT {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        Ran {
            code: status.and_then(|s| s.code()),
            stdout: out.join().expect("stdout reader"),
            stderr: err.join().expect("stderr reader"),
        }
    }
}

/// The block's verdict: `None` when it ran as the page says, else why not.
pub fn judge(block: &Block, ran: &Ran) -> Option<String> {
    if ran.code != Some(0) {
        return Some(format!(
            "exit {:?} (expected 0)\n--- stdout\n{}--- stderr\n{}",
            ran.code, ran.stdout, ran.stderr
        ));
    }
    let expected = block.expected.as_ref()?;
    let assert = snapbox::Assert::new();
    assert
        .try_eq(Some(&"stdout"), ran.stdout.clone().into(), expected.clone().into())
        .err()
        .map(|error| format!("stdout differs from the page's output block:\n{error}"))
}
