//! The golden vectors every host runs: `<case>/case.json` names a source
//! and options; `expected/` is the exact output root after a fresh build, or
//! `error.json` the error it must fail with. Where the cases of each suite
//! are (shared ones in `tests/<suite>/`, a runtime's own in
//! `core/src/runtime/<folder>/conformance/<suite>/`) is said once, by
//! `scripts/lib/conformance_cases.py`, which every host asks: [`listed`].

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub mod honesty;
pub mod imports;
pub mod rules;

use plugforge_core::{BuildOptions, Error, Observed, Op, PlanOptions, SourceTree};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CaseFile {
    pub description: String,
    /// Source folder relative to the case folder (default `input`).
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default)]
    pub options: serde_json::Value,
    pub generated_at: String,
    /// Every runtime of `--target all` builds this source: those its
    /// `targets` leave out, in a vector of their own folder
    /// (`tests/tests/case_places.rs` holds each to it; `scripts/new-runtime`
    /// writes it), so adding a runtime changes no shared vector.
    #[serde(default)]
    pub every_runtime: bool,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ExpectedError {
    pub code: String,
    pub message_contains: String,
    #[serde(default)]
    pub file: Option<String>,
    #[serde(default)]
    pub line: Option<usize>,
}

pub struct Case {
    pub name: String,
    pub dir: PathBuf,
    /// The runtime folder it lives in; `None` for a shared case.
    pub folder: Option<String>,
    pub file: CaseFile,
}

/// An output root as a file map: path -> (bytes, executable).
pub type Tree = BTreeMap<String, (Vec<u8>, bool)>;

/// The repository's root: found from the package cargo runs the test in, then
/// from where this crate was compiled. A test binary reused from another copy of
/// the repository (the documented-commands test runs cargo in a fresh copy that
/// shares the target folder) must read the copy it runs in, not the one it was
/// built from, which may be gone.
pub fn repo_dir() -> PathBuf {
    let running = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    let compiled = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    running
        .into_iter()
        .chain([compiled.clone()])
        .find_map(|start| {
            start.ancestors().find(|dir| dir.join("core/src/registry.rs").is_file()).map(Path::to_path_buf)
        })
        .unwrap_or_else(|| compiled.join(".."))
}

/// One case folder of a suite, as the listing gives it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Listed {
    /// Its name (a rule fixture's: the rule's code), unique in the suite.
    pub name: String,
    /// Its folder, relative to the repository root.
    pub dir: String,
    /// The runtime folder it lives in; `None` for a shared case.
    pub folder: Option<String>,
}

/// The registry's folder of each runtime (`core/src/runtime/<folder>/`), in
/// registry order.
pub fn registry_folders() -> Vec<String> {
    let registry = fs::read_to_string(repo_dir().join("core/src/registry.rs")).expect("the registry");
    let start = registry.find("macro_rules! registry {").expect("registry! in core/src/registry.rs");
    let body = &registry[start..start + registry[start..].find("\n}\n").expect("the registry's end")];
    // `Variant => folder as "id",` (or `{` and the runtime's own rule codes).
    body.lines()
        .filter_map(|line| Some(line.trim().split_once(" => ")?.1.split_once(" as \"")?.0.to_string()))
        .collect()
}

/// The runtime whose folder is `folder`.
pub fn runtime_of_folder(folder: &str) -> plugforge_core::Runtime {
    let folders = registry_folders();
    assert_eq!(folders.len(), plugforge_core::Runtime::ALL.len(), "one registry line per runtime");
    let index = folders
        .iter()
        .position(|f| f == folder)
        .unwrap_or_else(|| panic!("core/src/runtime/{folder}/ is no runtime of the registry"));
    plugforge_core::Runtime::ALL[index]
}

/// The script every host asks where the cases are.
pub const LISTING_SCRIPT: &str = "scripts/lib/conformance_cases.py";

/// Every case of `suite` (`vectors`, `rules`, `imports`), sorted by name,
/// from every place that holds them (`scripts/lib/conformance_cases.py`,
/// run once per process).
pub fn listed(suite: &str) -> Vec<Listed> {
    static LISTING: OnceLock<BTreeMap<String, Vec<Listed>>> = OnceLock::new();
    let listing = LISTING.get_or_init(|| {
        let output = std::process::Command::new("python3")
            .arg(repo_dir().join(LISTING_SCRIPT))
            .output()
            .unwrap_or_else(|e| panic!("python3 {LISTING_SCRIPT} runs: {e}"));
        assert!(
            output.status.success(),
            "{LISTING_SCRIPT} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{LISTING_SCRIPT} prints JSON: {e}"))
    });
    listing.get(suite).unwrap_or_else(|| panic!("{LISTING_SCRIPT} lists no suite {suite:?}")).clone()
}

impl Listed {
    pub fn path(&self) -> PathBuf {
        repo_dir().join(&self.dir)
    }
}

/// Every golden vector, sorted by name.
pub fn cases() -> Vec<Case> {
    listed("vectors")
        .into_iter()
        .map(|listed| {
            let dir = listed.path();
            let name = listed.name;
            let text =
                fs::read_to_string(dir.join("case.json")).unwrap_or_else(|e| panic!("{name}/case.json: {e}"));
            let file = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}/case.json: {e}"));
            Case { name, dir, folder: listed.folder, file }
        })
        .collect()
}

/// The golden vector named `name`, wherever it lives.
pub fn case(name: &str) -> Case {
    cases().into_iter().find(|c| c.name == name).unwrap_or_else(|| panic!("no golden vector {name:?}"))
}

impl Case {
    pub fn source_dir(&self) -> PathBuf {
        self.dir.join(self.file.source.as_deref().unwrap_or("input"))
    }

    pub fn expected_error(&self) -> Option<ExpectedError> {
        let text = fs::read_to_string(self.dir.join("error.json")).ok()?;
        Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}/error.json: {e}", self.name)))
    }

    pub fn options(&self) -> BuildOptions {
        serde_json::from_value(self.file.options.clone())
            .unwrap_or_else(|e| panic!("{}/case.json options: {e}", self.name))
    }

    /// Builds the case into an empty output root, as every host does.
    pub fn run(&self) -> Result<Tree, Error> {
        self.run_with_report().map(|(tree, _)| tree)
    }

    /// The blessed honesty rows and diagnostics (`report.json` beside
    /// `expected/`); `None` for an error case or one not blessed yet.
    pub fn expected_report(&self) -> Option<serde_json::Value> {
        let text = fs::read_to_string(self.dir.join(REPORT_FILE)).ok()?;
        Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}/{REPORT_FILE}: {e}", self.name)))
    }

    /// [`Case::run`], plus what the build said: [`report_of`] its output.
    pub fn run_with_report(&self) -> Result<(Tree, serde_json::Value), Error> {
        let source = read_tree(&self.source_dir());
        let output = plugforge_core::build(&source, &self.options())?;
        let report = report_of(&output);
        let options = PlanOptions { force: false, generated_at: self.file.generated_at.clone() };
        let plan = plugforge_core::plan(&output, Observed::default(), &options)?;
        let mut tree = Tree::new();
        for action in plan.actions {
            assert_eq!(action.op, Op::Create, "{}: a fresh root only creates", action.path);
            let bytes = action.bytes.expect("creates carry bytes");
            tree.insert(action.path.to_string(), (bytes.to_vec(), action.executable));
        }
        Ok((tree, report))
    }
}

/// The file beside `expected/` holding the honesty rows and diagnostics.
pub const REPORT_FILE: &str = "report.json";

/// What a build says besides its files, in the core's JSON shapes (a `None`
/// field left out), the one form every host's runner compares: each
/// bundle's honesty rows and diagnostics, the output's own diagnostics, and
/// the requested runtimes that failed.
pub fn report_of(output: &plugforge_core::Output) -> serde_json::Value {
    let bundles: Vec<serde_json::Value> = output
        .bundles
        .iter()
        .map(|b| {
            serde_json::json!({
                "runtime": b.runtime,
                "kind": b.kind,
                "honesty": b.honesty,
                "diagnostics": b.diagnostics,
            })
        })
        .collect();
    serde_json::json!({
        "bundles": bundles,
        "diagnostics": output.diagnostics,
        "failures": output.failures,
    })
}

/// Reads a folder into a file map (the test host's own minimal reader).
pub fn read_tree(root: &Path) -> SourceTree {
    let mut tree = SourceTree::new();
    for (rel, (bytes, executable)) in read_files(root) {
        tree.insert(&rel, bytes, executable).unwrap_or_else(|e| panic!("{rel}: {e}"));
    }
    tree
}

/// Every file below `root` as (relative path, (bytes, executable)).
pub fn read_files(root: &Path) -> Tree {
    let mut out = Tree::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let rel = path.strip_prefix(root).expect("below root").to_string_lossy().replace('\\', "/");
            let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.insert(rel, (bytes, is_executable(&path)));
        }
    }
    out
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_: &Path) -> bool {
    false
}

/// Replaces `dir` with exactly `tree` (for `UPDATE_EXPECT=1`).
pub fn write_tree(dir: &Path, tree: &Tree) {
    let _ = fs::remove_dir_all(dir);
    for (rel, (bytes, executable)) in tree {
        let path = dir.join(rel);
        fs::create_dir_all(path.parent().expect("has parent")).expect("create dir");
        fs::write(&path, bytes).expect("write expected file");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = if *executable { 0o755 } else { 0o644 };
            fs::set_permissions(&path, fs::Permissions::from_mode(mode)).expect("chmod");
        }
    }
}

/// Where each host records the vectors it ran, for the guard that proves no
/// host skipped one (`PLUGFORGE_CONFORMANCE_DIR`, else `<repo>/target/conformance`).
pub fn conformance_dir() -> PathBuf {
    std::env::var_os("PLUGFORGE_CONFORMANCE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_dir().join("target/conformance"))
}

/// Records the sorted names of the vectors `host` ran.
pub fn record_host(host: &str, names: &[String]) {
    let mut names = names.to_vec();
    names.sort();
    let dir = conformance_dir();
    fs::create_dir_all(&dir).expect("create conformance dir");
    let text = serde_json::to_string_pretty(&names).expect("JSON") + "\n";
    fs::write(dir.join(format!("{host}.json")), text).expect("write conformance record");
}

/// Records the sorted names of the cases of `suite` (`rules`, `imports`)
/// that `host` ran, beside its vectors record.
pub fn record_suite(host: &str, suite: &str, names: &[String]) {
    record_host(&format!("{host}.{suite}"), names);
}
