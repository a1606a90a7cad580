//! `--diff`: what a plan would change, file by file, as unified diffs (the
//! `similar` crate's format, headers naming the path below the output root).
//! The bytes on disk come from a second look at the output root, asking for
//! just the files the plan changes; the bytes to write come from the plan, or
//! for a conflict from the same plan forced, so a user's edit is shown against
//! what plugforge would put in its place.

use plugforge_core::{BundlePath, Op, Output, Plan, PlanOptions, plan as make_plan};
use similar::TextDiff;

use crate::host::{Host, Listing};
use crate::{Failure, join};

/// The header side of a file that does not exist, as `diff -N` and git write it.
const ABSENT: &str = "/dev/null";

/// One changed file's diff.
pub(crate) struct FileDiff {
    /// The index of the file's action in the plan, to place the text in `--json`.
    pub action: usize,
    /// Unified diff text, uncoloured; ends with a newline.
    pub text: String,
}

/// The diffs of a build plan: creates, updates, conflicts and removals.
pub(crate) fn build_plan(
    host: &mut dyn Host,
    out: &str,
    output: &Output,
    plan: &Plan,
    plan_options: &PlanOptions,
) -> Result<Vec<FileDiff>, Failure> {
    // What the plan read too (manifests, shared files), so the forced plan below sees what it saw.
    let mut to_read = output.paths_to_read();
    to_read.extend(output.retired.iter().cloned());
    to_read.extend(changed_paths(plan));
    let on_disk = host.observe(out, &to_read, &[], Listing::Every).map_err(Failure::io)?;
    // Only a forced plan carries the bytes that would replace an edited file.
    let forced = if plan.summary.conflict > 0 {
        let options = PlanOptions { force: true, ..plan_options.clone() };
        Some(make_plan(output, on_disk.clone(), &options)?)
    } else {
        None
    };
    let mut diffs = Vec::new();
    for (index, action) in plan.actions.iter().enumerate() {
        let shown = join(out, action.path.as_str());
        let old = || on_disk.contents.get(action.path.as_str()).map(|b| &b[..]);
        let text = match action.op {
            Op::Create | Op::Update => file(&shown, old(), action.bytes.as_deref()),
            Op::Remove => file(&shown, old(), None),
            Op::Conflict => match replacement(forced.as_ref(), &action.path) {
                Some(new) => file(&shown, old(), Some(new)),
                None => format!(
                    "conflict: {shown}: nothing to compare ({})\n",
                    action.reason.as_deref().unwrap_or("no content would be written")
                ),
            },
            Op::Unchanged | Op::Keep => continue,
        };
        diffs.push(FileDiff { action: index, text });
    }
    Ok(diffs)
}

/// The diffs of an uninstall plan: every removal, all lines removed.
pub(crate) fn removals(host: &mut dyn Host, out: &str, plan: &Plan) -> Result<Vec<FileDiff>, Failure> {
    let on_disk = host.observe(out, &changed_paths(plan), &[], Listing::Every).map_err(Failure::io)?;
    let diffs = plan.actions.iter().enumerate().filter(|(_, a)| a.op == Op::Remove).map(|(index, action)| {
        let old = on_disk.contents.get(action.path.as_str()).map(|b| &b[..]);
        FileDiff { action: index, text: file(&join(out, action.path.as_str()), old, None) }
    });
    Ok(diffs.collect())
}

/// A plan as the `--json` report shows it: serialized as it is, or, with
/// `--diff`, with each diff's text as `"diff"` on its action.
#[derive(serde::Serialize)]
#[serde(untagged)]
pub(crate) enum PlanJson<'a> {
    Plain(&'a Plan),
    WithDiffs(serde_json::Value),
}

pub(crate) fn plan_json<'a>(plan: &'a Plan, diffs: &[FileDiff]) -> PlanJson<'a> {
    if diffs.is_empty() {
        return PlanJson::Plain(plan);
    }
    let mut value = serde_json::to_value(plan).expect("a plan serializes");
    for diff in diffs {
        value["actions"][diff.action]["diff"] = diff.text.clone().into();
    }
    PlanJson::WithDiffs(value)
}

/// Every path whose bytes on disk a diff shows.
fn changed_paths(plan: &Plan) -> Vec<BundlePath> {
    let changes = |a: &&plugforge_core::Action| matches!(a.op, Op::Update | Op::Conflict | Op::Remove);
    plan.actions.iter().filter(changes).map(|a| a.path.clone()).collect()
}

fn replacement<'a>(forced: Option<&'a Plan>, path: &BundlePath) -> Option<&'a [u8]> {
    forced?.actions.iter().find(|a| &a.path == path)?.bytes.as_deref()
}

/// The unified diff of one file from `old` to `new` (`None`: the file is absent on that side).
pub(crate) fn file(path: &str, old: Option<&[u8]>, new: Option<&[u8]>) -> String {
    let (old_label, new_label) =
        (if old.is_some() { path } else { ABSENT }, if new.is_some() { path } else { ABSENT });
    let (old_text, new_text) = match (text(old), text(new)) {
        (Some(old_text), Some(new_text)) => (old_text, new_text),
        _ => return format!("binary file differs: {path} ({} -> {})\n", size(old), size(new)),
    };
    let diff = TextDiff::from_lines(old_text, new_text);
    let unified = diff.unified_diff().header(old_label, new_label).to_string();
    if unified.is_empty() {
        // An empty file created or removed has no hunk, so similar writes no header either.
        format!("--- {old_label}\n+++ {new_label}\n")
    } else {
        unified
    }
}

/// The bytes as text: absent is empty; NUL or invalid UTF-8 make it binary.
fn text(bytes: Option<&[u8]>) -> Option<&str> {
    let bytes = bytes.unwrap_or_default();
    if bytes.contains(&0) { None } else { std::str::from_utf8(bytes).ok() }
}

fn size(bytes: Option<&[u8]>) -> String {
    bytes.map_or_else(|| "absent".to_string(), |b| format!("{} bytes", b.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_update_is_a_unified_diff_naming_the_path() {
        let diff = file("out/a.md", Some(b"one\ntwo\n"), Some(b"one\nthree\n"));
        assert_eq!(diff, "--- out/a.md\n+++ out/a.md\n@@ -1,2 +1,2 @@\n one\n-two\n+three\n");
    }

    #[test]
    fn a_new_file_is_all_added_and_a_removed_one_all_removed() {
        assert_eq!(file("o/n", None, Some(b"x\ny\n")), "--- /dev/null\n+++ o/n\n@@ -0,0 +1,2 @@\n+x\n+y\n");
        assert_eq!(file("o/n", Some(b"x\n"), None), "--- o/n\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n");
        assert_eq!(file("o/empty", None, Some(b"")), "--- /dev/null\n+++ o/empty\n");
    }

    #[test]
    fn binary_content_is_one_line_with_the_sizes() {
        assert_eq!(
            file("o/logo.png", Some(b"\x89PNG\0\0"), Some(b"\x89PNG\0")),
            "binary file differs: o/logo.png (6 bytes -> 5 bytes)\n"
        );
        assert_eq!(
            file("o/x.bin", None, Some(&[0xff, 0xfe])),
            "binary file differs: o/x.bin (absent -> 2 bytes)\n"
        );
    }

    #[test]
    fn a_missing_final_newline_is_marked() {
        let diff = file("o/a", Some(b"a\n"), Some(b"a\nb"));
        assert!(diff.ends_with("+b\n\\ No newline at end of file\n"), "{diff}");
    }
}
