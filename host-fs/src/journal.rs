//! The journal that makes applying a plan all or nothing for the next run.
//!
//! A plan's files land first and its manifests last, so a run killed in
//! between (`kill -9`, a power loss, a full disk) would leave files in place
//! that no manifest tracks: the next build of a *changed* source would then
//! see plugforge's own files as the user's (conflicts) and never remove the
//! ones no longer generated. So before the first rename the writer stages
//! every temp file, manifests included, and writes a journal naming each
//! rename and removal still to do; it removes the journal once all are done.
//! The next run that finds a journal (under the output root's lock, before it
//! looks at anything) does what it names that is not done yet: the plan
//! lands whole, and that run starts from a tree some manifest describes.
//! Killed before the journal exists, a run changed nothing but temp files,
//! which the next run sweeps.
//!
//! Each step of the journal is safe to do twice: a rename whose temp file is
//! gone was done, a removal whose file is gone too, and a file that is no
//! longer what the plan saw (edited since the crash) is left alone, as
//! [`Expect`] says; the manifest then tracks what plugforge meant to write
//! there, so the next build shows the edit as a conflict.

use std::fs;
use std::path::Path;

use plugforge_core::Sha256Digest;
use serde::Serialize;
use serde::ser::{Error as _, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

use crate::{
    Durability, Expect, Folders, HostError, HostResult, Staged, TEMP_PREFIX, Writer, flush_filesystem,
    flush_folder, parent_of,
};

/// The journal's name in the output root. It starts like a temp file, so
/// observing the root never lists it; a writer reads it before it sweeps.
pub const JOURNAL: &str = ".plugforge-tmp-journal";

impl Writer {
    /// Writes the journal of `body` (the files) and `last` (the manifests),
    /// both staged, flushed as the writer's durability asks before any
    /// rename starts.
    pub(crate) fn write_journal(&self, root: &Path, body: &Staged<'_>, last: &Staged<'_>) -> HostResult<()> {
        // Written as it is serialized, from the staged writes themselves: the
        // journal of an update of every file of a large build names tens of
        // thousands of renames.
        let journal = Journal { root, pid: self.pid, body, last };
        let part = root.join(format!("{TEMP_PREFIX}{}-journal-part", self.pid));
        let flush = self.durability != Durability::None;
        let written = fs::File::create(&part).and_then(|file| {
            let mut out = std::io::BufWriter::new(file);
            serde_json::to_writer(&mut out, &journal)?;
            let file = out.into_inner().map_err(|e| e.into_error())?;
            if flush { file.sync_data() } else { Ok(()) }
        });
        if let Err(e) = written {
            let _ = fs::remove_file(&part);
            return Err(HostError::at(&part, e));
        }
        self.checkpoint();
        let journal = root.join(JOURNAL);
        fs::rename(&part, &journal).map_err(|e| HostError::at(&journal, e))?;
        if flush {
            flush_folder(root).map_err(|e| HostError::at(root, e))?;
        }
        Ok(())
    }

    /// Removes the journal of a plan that landed whole.
    pub(crate) fn end_journal(&self, root: &Path) -> HostResult<()> {
        self.checkpoint();
        let journal = root.join(JOURNAL);
        fs::remove_file(&journal).map_err(|e| HostError::at(&journal, e))
    }

    /// Finishes the plan an interrupted run journaled below `root`, if any:
    /// what it names that is not done yet is done, then the journal goes.
    /// A step that cannot be done (a folder of the user's where a file
    /// goes) is skipped, so one bad path never keeps the journal forever.
    pub(crate) fn recover(&self, root: &Path) -> HostResult<()> {
        let at = root.join(JOURNAL);
        let text = match fs::read(&at) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(HostError::at(&at, e)),
        };
        // Written whole by a rename, so it parses; one that does not (not
        // ours) names nothing to do.
        let journal: Value = serde_json::from_slice(&text).unwrap_or(Value::Null);
        let mut folders = Folders::new(root);
        for (from, to, expect) in entries(&journal["renames"]) {
            let to = to.as_str().unwrap_or_default();
            if inside(&mut folders, from) && inside(&mut folders, to) {
                self.finish_rename(root, from, to, expect);
            }
        }
        for (from, to, _) in entries(&journal["stages"]) {
            let to = to.as_str().unwrap_or_default();
            if !(inside(&mut folders, from) && inside(&mut folders, to)) {
                continue;
            }
            let (temp, target) = (root.join(from), root.join(to));
            if temp.is_dir() && fs::symlink_metadata(&target).is_err() {
                let _ = fs::rename(&temp, &target);
            }
            let _ = fs::remove_dir_all(&temp);
        }
        let mut emptied = Vec::new();
        for (path, expect, _) in entries(&journal["removes"]) {
            if inside(&mut folders, path)
                && let Some(expect) = expect_from(expect)
            {
                let _ = self.remove(root, path, expect, &mut emptied);
            }
        }
        for (from, to, expect) in entries(&journal["then"]) {
            let to = to.as_str().unwrap_or_default();
            if inside(&mut folders, from) && inside(&mut folders, to) {
                self.finish_rename(root, from, to, expect);
            }
        }
        if self.durability != Durability::None {
            flush_filesystem(root).map_err(|e| HostError::at(root, e))?;
        }
        fs::remove_file(&at).map_err(|e| HostError::at(&at, e))
    }

    /// One journaled rename, unless it was done (its temp file is gone).
    fn finish_rename(&self, root: &Path, from: &str, to: &str, expect: &Value) {
        let temp = root.join(from);
        if fs::symlink_metadata(&temp).is_err() {
            return;
        }
        let target = root.join(to);
        let placed = match expect_from(expect) {
            Some(expect) => fs::create_dir_all(root.join(parent_of(to)))
                .and_then(|()| self.put_in_place(&temp, &target, to, expect)),
            None => Err(std::io::Error::other("the journal's hash is not a sha256")),
        };
        if placed.is_err() {
            let _ = fs::remove_file(&temp);
        }
    }
}

/// The journal of a staged plan, as it is written:
/// `{"renames": [[temp, path, expect]...], "stages": [[temp folder, folder]...],
/// "removes": [[path, expect]...], "then": [[temp, manifest, expect]...]}`,
/// temp paths relative to the output root.
struct Journal<'a> {
    root: &'a Path,
    pid: u32,
    body: &'a Staged<'a>,
    last: &'a Staged<'a>,
}

impl<'a> Journal<'a> {
    /// `path` relative to the output root, with `/` between its parts.
    fn relative(&self, path: &Path) -> Result<String, String> {
        let below = path
            .strip_prefix(self.root)
            .map_err(|_| format!("{}: not below the output root", path.display()))?;
        let parts: Option<Vec<&str>> = below.iter().map(|c| c.to_str()).collect();
        parts.map(|p| p.join("/")).ok_or_else(|| format!("{}: not a UTF-8 path", path.display()))
    }

    fn renames(
        &'a self,
        staged: &'a Staged<'a>,
    ) -> Rows<impl Iterator<Item = Result<(String, &'a str, ExpectRow), String>> + Clone + 'a> {
        Rows(staged.writes.iter().filter(|w| w.renamed()).map(move |w| {
            let temp = self.relative(&w.write_to(self.root, &staged.stages, self.pid))?;
            Ok((temp, w.rel(), ExpectRow(w.write.expect)))
        }))
    }
}

impl Serialize for Journal<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let stages = Rows(
            self.body
                .stages
                .iter()
                .map(|s| Ok::<_, String>((self.relative(&s.temp(self.root, self.pid))?, s.rel))),
        );
        let removes =
            Rows(self.body.removes.iter().map(|(path, expect)| Ok::<_, String>((*path, ExpectRow(*expect)))));
        let mut map = serializer.serialize_map(Some(4))?;
        map.serialize_entry("renames", &self.renames(self.body))?;
        map.serialize_entry("stages", &stages)?;
        map.serialize_entry("removes", &removes)?;
        map.serialize_entry("then", &self.renames(self.last))?;
        map.end()
    }
}

/// A journal list, serialized from an iterator of its rows as they are made.
struct Rows<I>(I);

impl<I, R, E> Serialize for Rows<I>
where
    I: Iterator<Item = Result<R, E>> + Clone,
    R: Serialize,
    E: std::fmt::Display,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut list = serializer.serialize_seq(None)?;
        for row in self.0.clone() {
            list.serialize_element(&row.map_err(S::Error::custom)?)?;
        }
        list.end()
    }
}

/// An [`Expect`] as the journal keeps it: `null` any, `""` absent, else the hash.
struct ExpectRow(Expect);

impl Serialize for ExpectRow {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Expect::Any => serializer.serialize_none(),
            Expect::Absent => serializer.serialize_str(""),
            Expect::Sha256(sha) => sha.serialize(serializer),
        }
    }
}

/// `None` for a row whose hash does not read as one: such a row touches
/// nothing, as no file would have matched it.
fn expect_from(value: &Value) -> Option<Expect> {
    match value.as_str() {
        None => Some(Expect::Any),
        Some("") => Some(Expect::Absent),
        Some(sha) => Sha256Digest::from_hex(sha).map(Expect::Sha256),
    }
}

/// The `[a, b, c]` rows of a journal list (`c` null when a row has two).
fn entries(list: &Value) -> impl Iterator<Item = (&str, &Value, &Value)> {
    list.as_array().into_iter().flatten().filter_map(|row| {
        let a = row.get(0)?.as_str()?;
        Some((a, row.get(1).unwrap_or(&Value::Null), row.get(2).unwrap_or(&Value::Null)))
    })
}

/// Whether a path a journal names is a bundle path whose folders stay
/// below the output root (a journal is not trusted to name only those).
fn inside<'s>(folders: &mut Folders<'_, 's>, rel: &'s str) -> bool {
    crate::BundlePath::new(rel).is_ok() && folders.check(rel).is_ok()
}
