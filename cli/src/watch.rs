//! `build --watch`: one build, then another after every change below any of
//! its sources, each printing its plan. A build that fails (a bad edit) prints its
//! error and the watch goes on. Changes below the output root (where the
//! builds write, `SRC/dist` by default) and in the folders a source read
//! skips are never a reason to rebuild. Ctrl-C ends the process with 130,
//! the status of an interrupted command, in the binary and inside the Node and
//! Python packages alike.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use notify_debouncer_full::notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{DebouncedEvent, new_debouncer};

use crate::args::BuildArgs;
use crate::host::Host;
use crate::{EXIT_USAGE, Failure, verbs};

/// Changes closer together than this make one rebuild (an editor's save is several events).
const DEBOUNCE: Duration = Duration::from_millis(200);

/// The exit status of a process stopped by Ctrl-C (128 + SIGINT), as shells report it.
const EXIT_INTERRUPTED: i32 = 130;

pub(crate) fn build(host: &mut dyn Host, args: &BuildArgs) -> Result<u8, Failure> {
    let first = args.sources.first().map_or(".", String::as_str);
    let out = verbs::out_dir(host, &args.output, first)?;
    let (sender, changes) = mpsc::channel();
    let mut debouncer = new_debouncer(DEBOUNCE, None, sender)
        .map_err(|e| Failure::io(format!("cannot watch {first}: {e}")))?;
    let mut sources = Vec::new();
    for source in watched(args) {
        let path = resolved(Path::new(source));
        debouncer
            .watch(&path, RecursiveMode::Recursive)
            .map_err(|e| Failure::io(format!("cannot watch {source}: {e}")))?;
        sources.push(path);
    }
    // The Node and Python hosts would otherwise keep the signal for themselves
    // and the watch would never end; a second watch in one process keeps the first handler.
    let _ = ctrlc::set_handler(|| std::process::exit(EXIT_INTERRUPTED));

    build_once(host, args);
    let ignored = Ignored { sources, out: resolved(Path::new(&out)) };
    for batch in changes {
        match batch {
            Ok(events) if events.iter().any(|event| ignored.is_rebuild(event)) => build_once(host, args),
            Ok(_) => {}
            Err(errors) => {
                for error in errors {
                    host.stderr(&format!("error[io]: watching: {error}\n"));
                }
            }
        }
    }
    Ok(EXIT_USAGE)
}

/// One build, its failure reported like any run's, then the line saying the watch goes on.
fn build_once(host: &mut dyn Host, args: &BuildArgs) {
    if let Err(failure) = verbs::build(host, args) {
        failure.report(host, args.output.json);
    }
    host.stderr(&format!(
        "watching {} for changes (Ctrl-C stops)\n",
        watched(args).collect::<Vec<_>>().join(", ")
    ));
}

/// The source folders a build reads (`.` when none is named).
fn watched(args: &BuildArgs) -> impl Iterator<Item = &str> {
    let default = args.sources.is_empty().then_some(".");
    args.sources.iter().map(String::as_str).chain(default)
}

/// What the builds write and what a source read skips.
struct Ignored {
    sources: Vec<PathBuf>,
    out: PathBuf,
}

impl Ignored {
    /// Whether the event changes a file a build reads.
    fn is_rebuild(&self, event: &DebouncedEvent) -> bool {
        // Reading the source opens its files; that is no change.
        if matches!(event.kind, EventKind::Access(_)) {
            return false;
        }
        event.paths.iter().any(|path| self.is_source(path))
    }

    fn is_source(&self, path: &Path) -> bool {
        let read = |source: &PathBuf| {
            // A change in a folder a source read skips changes no build.
            path.strip_prefix(source).is_ok_and(|rel| !plugforge_host_fs::is_skipped_source_dir(rel))
        };
        self.sources.iter().any(read) && !path.starts_with(&self.out)
    }
}

/// `path` absolute with its links resolved, as the watcher reports paths; a
/// part that does not exist yet (an output root before the first write) is appended as given.
fn resolved(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut missing = Vec::new();
    let mut existing = absolute.as_path();
    loop {
        if let Ok(real) = existing.canonicalize() {
            return missing.iter().rev().fold(real, |acc, part| acc.join(part));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                missing.push(name.to_os_string());
                existing = parent;
            }
            _ => return absolute,
        }
    }
}

#[cfg(test)]
mod tests {
    use notify_debouncer_full::notify::event::{AccessKind, CreateKind, Event, ModifyKind};

    use super::*;

    fn event(kind: EventKind, path: &str) -> DebouncedEvent {
        DebouncedEvent::new(Event::new(kind).add_path(path.into()), std::time::Instant::now())
    }

    #[test]
    fn only_changes_to_what_a_build_reads_start_one() {
        let ignored = Ignored { sources: vec!["/s".into(), "/t".into()], out: "/s/dist".into() };
        let modify = EventKind::Modify(ModifyKind::Any);
        assert!(ignored.is_rebuild(&event(modify, "/s/skills/a/SKILL.md")));
        assert!(ignored.is_rebuild(&event(EventKind::Create(CreateKind::File), "/s/plugforge.json")));
        assert!(ignored.is_rebuild(&event(modify, "/t/skills/b/SKILL.md")));
        assert!(!ignored.is_rebuild(&event(modify, "/s/dist/claude-code/README.md")));
        assert!(!ignored.is_rebuild(&event(modify, "/s/.git/index")));
        assert!(!ignored.is_rebuild(&event(modify, "/s/skills/node_modules/x.js")));
        assert!(!ignored.is_rebuild(&event(modify, "/elsewhere/a.md")));
        assert!(!ignored.is_rebuild(&event(EventKind::Access(AccessKind::Any), "/s/skills/a/SKILL.md")));
        // A sibling whose name only starts like the output root is source.
        assert!(ignored.is_rebuild(&event(modify, "/s/distant.md")));
    }
}
