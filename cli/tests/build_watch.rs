//! `build --watch`: the real binary, left running while its source changes.
//! Each wait is for a line the run prints, with a generous deadline, so a slow
//! machine makes the test slower, never wrong; no duration is asserted.

mod common;

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use common::*;

const DEADLINE: Duration = Duration::from_secs(60);

const SKILL: &str = "---\nname: hello\ndescription: Says hello\n---\nSay hello.\n";
const MANIFEST_JSON: &str =
    "{\"name\": \"mini\", \"version\": \"1.0.0\", \"description\": \"A tiny plugin\"}\n";

/// A running `plugforge build --watch` and every line it prints, tagged by
/// stream. Each stream is read in its own order; the two pipes are read by two
/// threads, so how their lines interleave says nothing.
struct Watch {
    child: Child,
    lines: Receiver<(&'static str, String)>,
    seen: Vec<(&'static str, String)>,
    unread: Vec<(&'static str, String)>,
}

impl Watch {
    fn start(args: &[&str]) -> Watch {
        let mut child = Command::new(env!("CARGO_BIN_EXE_plugforge"))
            .args(args)
            .env("SOURCE_DATE_EPOCH", EPOCH)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start plugforge");
        let (sender, lines) = channel();
        let streams: [(&'static str, Box<dyn std::io::Read + Send>); 2] = [
            ("stdout", Box::new(child.stdout.take().unwrap())),
            ("stderr", Box::new(child.stderr.take().unwrap())),
        ];
        for (name, stream) in streams {
            let sender = sender.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    let _ = sender.send((name, line));
                }
            });
        }
        Watch { child, lines, seen: Vec::new(), unread: Vec::new() }
    }

    /// Waits for the next line on `stream` that starts with `prefix`, and returns it.
    fn next(&mut self, stream: &str, prefix: &str) -> String {
        let end = Instant::now() + DEADLINE;
        loop {
            // Lines of this stream already received are read first, in order.
            while let Some(at) = self.unread.iter().position(|(name, _)| *name == stream) {
                let (_, line) = self.unread.remove(at);
                if line.starts_with(prefix) {
                    return line;
                }
            }
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    self.unread.push(line);
                }
                Err(_) => {
                    panic!("no {stream} line starting with {prefix:?}; printed so far: {:#?}", self.seen)
                }
            }
        }
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().expect("poll plugforge").is_none()
    }

    /// Ctrl-C, as a terminal sends it, and the exit status.
    fn interrupt(mut self) -> Option<i32> {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-INT", &pid]).status().expect("run kill");
        assert!(sent.success());
        self.child.wait().expect("wait for plugforge").code()
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn tiny_source(src: &Path) {
    write(src, "plugforge.json", MANIFEST_JSON);
    write(src, "skills/hello/SKILL.md", SKILL);
}

#[test]
fn watch_rebuilds_on_each_change_survives_a_bad_edit_and_stops_on_ctrl_c() {
    let tmp = TempDir::new("watch");
    let (src, out) = (tmp.join("src"), tmp.join("out"));
    tiny_source(&src);
    let mut watch = Watch::start(&["build", s(&src), "--target", "claude-code", "--out", s(&out), "--watch"]);

    let first = watch.next("stdout", "plan: ");
    assert!(first.starts_with("plan: 5 create, 0 update"), "{first}");
    watch.next("stderr", "watching ");
    assert_eq!(read(&out, "claude-code/skills/hello/SKILL.md"), SKILL.as_bytes());

    let warmer = SKILL.replace("Say hello.", "Say hello warmly.");
    write(&src, "skills/hello/SKILL.md", &warmer);
    let second = watch.next("stdout", "plan: ");
    assert!(second.starts_with("plan: 0 create, 2 update"), "{second}");
    assert_eq!(read(&out, "claude-code/skills/hello/SKILL.md"), warmer.as_bytes());

    write(&src, "plugforge.json", "{\"name\": \"mini\",\n");
    let error = watch.next("stderr", "error[");
    assert!(error.starts_with("error[invalid_source]: ") && error.contains("plugforge.json"), "{error}");
    watch.next("stderr", "watching ");
    assert!(watch.alive(), "a bad edit ended the watch");

    write(&src, "plugforge.json", MANIFEST_JSON.replace("A tiny plugin", "A small plugin"));
    let third = watch.next("stdout", "plan: ");
    assert!(third.starts_with("plan: 0 create, "), "{third}");
    let plugin = read_json(&out, "claude-code/.claude-plugin/plugin.json");
    assert_eq!(plugin["description"], "A small plugin");

    assert_eq!(watch.interrupt(), Some(130));
}

#[test]
fn writes_into_an_output_root_inside_the_source_start_no_build() {
    let tmp = TempDir::new("watch-inside");
    let src = tmp.join("src");
    tiny_source(&src);
    // No --out: the bundles go to SRC/dist, below the watched folder.
    let mut watch = Watch::start(&["build", s(&src), "--target", "claude-code", "--watch"]);
    watch.next("stdout", "plan: 5 create");
    for n in 1..=2 {
        // Time for a build its own writes started to show up first (only the
        // chance to catch that bug depends on it, never the verdict).
        std::thread::sleep(Duration::from_secs(1));
        write(&src, "skills/hello/SKILL.md", SKILL.replace("Say hello.", &format!("Say hello {n} times.")));
        // A build started by its own writes would print an empty plan first.
        let plan = watch.next("stdout", "plan: ");
        assert!(plan.starts_with("plan: 0 create, 2 update"), "build {n}: {plan}\n{:#?}", watch.seen);
    }
    let skill = fs::read_to_string(src.join("dist/claude-code/skills/hello/SKILL.md")).unwrap();
    assert!(skill.ends_with("Say hello 2 times.\n"), "{skill}");
    assert!(watch.alive());
}

#[test]
fn watch_takes_no_check() {
    let tmp = TempDir::new("watch-check");
    let r = run(&["build", s(&tmp.join("src")), "--watch", "--check"]);
    r.expect(2);
    assert!(r.stderr.contains("'--watch' cannot be used with '--check'"), "{}", r.stderr);
}

#[test]
fn watch_rebuilds_when_any_of_several_sources_changes() {
    let tmp = TempDir::new("watch-several");
    let (one, two, out) = (tmp.join("one"), tmp.join("two"), tmp.join("out"));
    tiny_source(&one);
    write(&two, "plugforge.json", MANIFEST_JSON.replace("\"mini\"", "\"other\""));
    write(&two, "skills/bye/SKILL.md", "---\nname: bye\ndescription: Says bye\n---\nSay bye.\n");
    let args = ["build", s(&one), s(&two), "--target", "claude-code", "--out", s(&out), "--watch"];
    let mut watch = Watch::start(&args);
    let first = watch.next("stdout", "plan: ");
    assert!(first.contains(" 0 update,"), "{first}");
    let watching = watch.next("stderr", "watching ");
    assert_eq!(watching, format!("watching {}, {} for changes (Ctrl-C stops)", s(&one), s(&two)));

    write(&two, "skills/bye/SKILL.md", "---\nname: bye\ndescription: Says bye\n---\nSay goodbye.\n");
    let second = watch.next("stdout", "plan: 0 create, ");
    assert!(!second.contains(" 0 update,"), "{second}");
    let bye = files(&out).into_iter().find(|p| p.ends_with("skills/bye/SKILL.md")).expect("bye built");
    assert!(String::from_utf8(read(&out, &bye)).unwrap().ends_with("Say goodbye.\n"));
}
