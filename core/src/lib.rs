//! plugforge's pure engine: one canonical agent-plugin source in, every
//! runtime's native bundle out, as in-memory file maps with sha256 hashes.
//!
//! No filesystem, environment, clock or randomness: hosts read trees into a
//! [`SourceTree`], call [`build`], observe their output root into an
//! [`Observed`], call [`plan`], and apply the [`Plan`] themselves.
//!
//! ```
//! use plugforge_core::{build, plan, BuildOptions, Observed, Op, PlanOptions, SourceTree, TargetRequest};
//!
//! let mut source = SourceTree::new();
//! source.insert("plugforge.json", br#"{"name": "hello", "version": "1.0.0"}"#.to_vec(), false)?;
//! source.insert("commands/hi.md", b"---\ndescription: Say hi\n---\nHi $ARGUMENTS\n".to_vec(), false)?;
//! let options = BuildOptions { targets: vec![TargetRequest::new("claude-code")], ..Default::default() };
//! let output = build(&source, &options)?;
//! let options = PlanOptions { force: false, generated_at: "2026-01-01T00:00:00Z".into() };
//! let plan = plan(&output, Observed::default(), &options)?;
//! assert!(plan.actions.iter().any(|a| a.path.as_str() == "claude-code/commands/hi.md" && a.op == Op::Create));
//! # Ok::<(), plugforge_core::Error>(())
//! ```
//!
//! # Layers
//!
//! The top-level modules depend on their own layer or the layers below it,
//! never in a circle (`tests/tests/module_graph.rs` checks both). Bottom to top:
//!
//! 1. `error`, `hash`, `json`, `limits`, `registry`, `shell`, `text`: primitives, and the registry of runtimes (their ids, artifact kinds and own rule codes).
//! 2. `codes`, `format`, `path`, `report`: finding codes, format parsers, bundle paths, findings and honesty rows.
//! 3. `canonical`, `recognise`, `vars`: canonical names, credential and URL patterns, plugin-root variables.
//! 4. `source`: the source tree, its config, documents and templates.
//! 5. `lint`, `merge`, `model`, `templates`: the rule toolkit (rules, findings, documents, layouts), shared-file parts, the plugin model and its loader, starter sources.
//! 6. `bundle`: what a build produces.
//! 7. `credentials`, `draft`, `manifest`, `options`, `portable`, `urls`: build options, the canonical source a reader drafts, manifests, build checks.
//! 8. `runtime`: each runtime the registry lists: its spec, facts, writer, reader and own rules.
//! 9. `import`, `normalise`: native plugins read into canonical sources.
//! 10. `build`, `manifest_paths`: a source into every runtime's bundles, and the paths their manifests carry.
//! 11. `doctor`, `plan`, `uninstall`: bundles and the observed output root into file actions.
//! 12. `validate`: judges a plugin (a canonical source through `build`).
//! 13. `members`, `listing`: several plugins into one output root, and the plugins a marketplace lists as them.
//! 14. `typescript`: the bindings' typings (feature `typescript`).

#![forbid(unsafe_code)]

mod build;
mod bundle;
mod canonical;
mod codes;
mod credentials;
mod doctor;
mod draft;
mod error;
pub mod format;
mod hash;
mod import;
mod json;
pub mod limits;
mod lint;
mod listing;
mod manifest;
mod manifest_paths;
mod members;
mod merge;
pub mod model;
mod normalise;
mod options;
mod path;
mod plan;
mod portable;
mod recognise;
mod registry;
mod report;
mod runtime;
mod shell;
mod source;
mod templates;
mod text;
#[cfg(feature = "typescript")]
pub mod typescript;
mod uninstall;
mod urls;
mod validate;
mod vars;

pub use build::ALL_TARGETS;
pub use build::{PreparedBuild, TargetBuilt, build};
pub use bundle::{
    Bundle, CarriedUrl, DEFAULT_MANIFEST_NAME, GeneratedFile, Generator, Output, Scope, TargetFailure,
};
pub use codes::{Code, DiagnosticCode, RuleCode, SharedRule};
pub use doctor::{
    DoctorOptions, DoctorReport, Finding, FindingCode, doctor, doctor_paths_to_read, shell_quote,
};
pub use error::{Error, ErrorCode, Location, Problem, Result};
pub use hash::{NotADigest, Sha256Digest, Sha256Stream, sha256_hex};
pub use import::{ImportOptions, Imported, import, importable};
pub use listing::{ListedPlugin, Listing, read_listing};
pub use manifest::{Manifest, ManifestFile, SCHEMA_VERSION};
pub use members::{Member, build_members};
pub use merge::{Merge, Part, Record};
pub use options::{BuildOptions, TargetRequest};
pub use path::BundlePath;
pub use plan::{Action, Observed, Op, Plan, PlanOptions, Summary, plan};
pub use registry::{ArtifactKind, RuntimeRule};
pub use report::{Component, Diagnostic, Honesty, ImportNotes, Level, RuleSeverity, Severity};
pub use runtime::verdict::{Built, Count, Missing, Reading, Said};
pub use runtime::{
    Check, Client, HookEvents, HookShape, Judge, Kind, Launch, Layout, Runtime, RuntimeInfo, SchemaCheck,
    SchemaReport, Spec, runtimes,
};
pub use source::{
    Author, BindingRequirement, Config, Conflict, Document, MarketplaceConfig, PluginRequirement, Requires,
    ServiceRequirement, SourceFile, SourceTree, TargetConfig, UrlPolicy, VariableDoc, parse_document,
    parse_json,
};
pub use templates::starter_source;
pub use uninstall::{UninstallOptions, uninstall_paths_to_read, uninstall_plan};
pub use validate::{Rule, Subject, SubjectKind, ValidateOptions, ValidationReport, rule, rules, validate};
