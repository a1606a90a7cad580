// Generated from the Rust types by bindings-wasm/src/typescript.rs: do not edit.
// Every input and result of the functions below, in the shapes they cross in
// (the vocabulary's string unions, RuntimeId and the others, in a section of their own).

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]: JsonValue } | null;
/**
 * A relative, `/`-separated path with no `..`, `.`, empty segments,
 * backslashes, NUL bytes or leading `/`.
 */
export type BundlePath = string;
export type Scope = "project" | "user";
export type Op = "create" | "update" | "unchanged" | "conflict" | "remove" | "keep";
/**
 * How well a runtime carries one component instance.
 */
export type Level = "supported" | "degraded" | "unsupported";
export type Severity = "info" | "warning" | "error";
/**
 * A rule's severity before `--strict` turns warnings into errors.
 */
export type RuleSeverity = "error" | "warning";
export type SubjectKind = "source" | "marketplace" | "plugin" | "skills";
/**
 * Stable error codes. `as_str()` is what Node's `err.code`, Python's `.code`,
 * wasm's `err.code` and the CLI's `--json` carry.
 */
export type ErrorCode = "invalid_source" | "invalid_path" | "template" | "unsupported_runtime" | "unsupported_kind" | "url_not_allowed" | "invalid_options" | "invalid_manifest" | "credential" | "limit" | "nothing_to_load";
/**
 * Where in the source a problem sits. Lines and columns are 1-based.
 */
export type SourceLocation = { file: string, line?: number, column?: number, };
/**
 * A single problem: what, where, and (optionally) how to fix it.
 */
export type Problem = { message: string, location?: SourceLocation, };
/**
 * One requested runtime, with an optional artifact kind.
 */
export type TargetRequest = { runtime: RuntimeId | "all", kind?: ArtifactKind | null, };
/**
 * The program that generated a bundle; a runner such as Striatum passes its
 * own name and version so its doctor can compare them.
 */
export type Generator = { name: string, version: string, };
/**
 * A requested runtime that could not be built, and every reason why.
 */
export type TargetFailure = { runtime: RuntimeId, kind: ArtifactKind, error: { code: ErrorCode, problems: Array<Problem>, }, 
/**
 * Listed, not a failure of the build: `all` asked for the runtime and
 * its bundle would load nothing (`nothing_to_load`). A runtime named
 * on its own that builds nothing is a failure like any other.
 */
skipped: boolean, };
/**
 * A URL the author wrote that the built bundles carry, with the source
 * files it is written in.
 */
export type CarriedUrl = { url: string, files: Array<string>, };
/**
 * Build options. Every field has a default, so hosts pass only what they set.
 */
export type BuildOptions = { 
/**
 * Runtimes to build; empty = the enabled `targets` of the config, else claude-code.
 */
targets?: Array<TargetRequest>, scope?: Scope, 
/**
 * Overrides the plugin's namespace (`/namespace:command`).
 */
namespace?: string | null, 
/**
 * Template variables (`--var k=v`).
 */
vars?: { [key in string]: string }, generator?: Generator, 
/**
 * URL prefixes generated content may contain, on top of the config's.
 */
allowUrls?: Array<string>, 
/**
 * Refuse every URL outside the allowlists, whatever the source's
 * `"urls"` policy says (`--deny-urls`).
 */
denyUrls?: boolean, 
/**
 * The source folder's own name: a Claude Code plugin without a manifest
 * is named after it, as Claude Code names it.
 */
sourceName?: string | null, 
/**
 * Also produce marketplace entries for runtimes that have marketplaces.
 */
marketplace?: boolean, 
/**
 * File name of the generation manifest in each bundle root.
 */
manifestName?: string, 
/**
 * Bundle folder per runtime id below the output root (default: the id).
 */
roots?: { [key in string]: string }, 
/**
 * Folder bundles go to `<runtime id>/<plugin namespace>` (several
 * plugins in one output root) unless `roots` names their folder.
 */
pluginFolders?: boolean, 
/**
 * The marketplace every bundle is listed in, over the source's own
 * (one name for all the plugins of a monorepo build).
 */
marketplaceName?: string | null, };
export type PlanOptions = { 
/**
 * Overwrite edited or foreign files, remove edited leftovers.
 */
force?: boolean, 
/**
 * RFC 3339 time for new manifests; kept from the previous manifest when
 * nothing changed.
 */
generatedAt: string, };
export type UninstallOptions = { 
/**
 * `runtime` or `runtime:kind`.
 */
runtimes?: Array<string>, 
/**
 * The plugin namespace: needed for kinds written into a project folder.
 */
namespace?: string | null, scope?: Scope, manifestName?: string, force?: boolean, 
/**
 * Bundle folder per runtime id, as given to the build.
 */
roots?: { [key in string]: string }, };
export type DoctorOptions = { 
/**
 * `runtime` or `runtime:kind`.
 */
runtimes?: Array<string>, 
/**
 * The plugin namespace: needed for kinds written into a project folder.
 */
namespace?: string | null, scope?: Scope, manifestName?: string, 
/**
 * The generator installed now; an older one in a manifest is outdated.
 */
generator?: Generator, 
/**
 * The command that regenerates the bundles, quoted into every fix.
 */
buildCommand?: string, 
/**
 * Where the output root is, as the user typed it, for `rm` fixes.
 */
outDir?: string, 
/**
 * Bundle folder per runtime id, as given to the build.
 */
roots?: { [key in string]: string }, };
/**
 * What `validate` checks against.
 */
export type ValidateOptions = { 
/**
 * A runtime id; `None` detects the runtimes from the folder's markers.
 */
target?: RuntimeId | null, 
/**
 * Warnings count as errors (as `claude plugin validate --strict` does).
 */
strict?: boolean, };
export type ImportOptions = { 
/**
 * The runtime the folder is for; `None` detects it from its marker.
 */
from?: RuntimeId | null, 
/**
 * The plugin's name: required for a Claude Code plugin without its
 * manifest (Claude Code then names it after its folder, which the core
 * never sees); otherwise it replaces the manifest's name.
 */
name?: string | null, 
/**
 * The plugin folder's own name: what Claude Code names a plugin that
 * has no manifest, used when neither `name` nor a manifest gives one.
 */
folderName?: string | null, };
/**
 * One finding, whoever makes it: a build's diagnostic (a problem with the
 * source or the output that does not stop the build), a note of `import`
 * (something of the native plugin the canonical source does not carry, an
 * `info`), or a broken rule of `validate`.
 *
 * Serialized as a build diagnostic (`{severity, code, message, location?}`);
 * an import's notes and validate's report carry the same findings in their
 * own shapes (`ImportNote`, `ValidationFinding`).
 */
export type Diagnostic = { severity: Severity, 
/**
 * A stable identifier: snake_case for build diagnostics and import
 * notes, `area/what` for validate's rules.
 */
code: Code, message: string, location?: SourceLocation, };
/**
 * One row of the honesty report: component x runtime, with the reason.
 */
export type Honesty = { component: Component, name: string, runtime: RuntimeId, kind: ArtifactKind, level: Level, detail: string, };
export type Part = { "kind": "marketplace_entry", document: JsonValue, entry: JsonValue, } | { "kind": "json_entry", pointer: Array<string>, key: string, value: JsonValue, } | { "kind": "json_items", pointer: Array<string>, items: Array<JsonValue>, } | { "kind": "section", id: string, text: string, };
/**
 * One part of a shared file that a bundle wants.
 */
export type Merge = { 
/**
 * The shared file, below the output root.
 */
path: BundlePath, part: Part, };
export type Summary = { create: number, update: number, unchanged: number, conflict: number, remove: number, keep: number, };
/**
 * What `doctor` found wrong with an installed bundle.
 */
export type FindingCode = "plugin_missing" | "plugin_outdated" | "file_edited" | "file_missing" | "file_orphaned" | "hooks_need_trust";
export type Finding = { code: FindingCode, severity: Severity, runtime: string, path: string, message: string, fix: string, };
export type DoctorReport = { findings: Array<Finding>, diagnostics: Array<Diagnostic>, };
/**
 * One thing `validate` judges.
 */
export type Subject = { kind: SubjectKind, 
/**
 * `None` for a source judged for every runtime it targets.
 */
runtime: RuntimeId | null, 
/**
 * Folder relative to the validated folder ("" = itself).
 */
root: string, 
/**
 * The file that identified it, or `--target` when named by the user.
 */
marker: string, };
/**
 * One broken rule at one place.
 */
export type ValidationFinding = { code: RuleCode, 
/**
 * Effective severity: `--strict` reports warnings as errors.
 */
severity: RuleSeverity, 
/**
 * The runtime the finding applies to, when it is runtime-specific.
 */
runtime?: RuntimeId, 
/**
 * Path relative to the validated folder.
 */
file?: string, line?: number, column?: number, message: string, fix: string, };
/**
 * The whole verdict.
 */
export type ValidationReport = { 
/**
 * `plugforge.validate.v1`.
 */
schema: "plugforge.validate.v1", 
/**
 * No errors (and, with `strict`, no warnings).
 */
valid: boolean, strict: boolean, 
/**
 * What was judged: detected from markers, or named by `--target`.
 */
subjects: Array<Subject>, errors: number, warnings: number, 
/**
 * Sorted by file, line, column, code.
 */
findings: Array<ValidationFinding>, };
/**
 * One rule of the catalog.
 */
export type Rule = { 
/**
 * Stable identifier, `area/what-is-wrong` in kebab-case.
 */
code: RuleCode, severity: RuleSeverity, 
/**
 * Runtime ids the rule applies to; empty = every runtime.
 */
runtimes: Array<RuntimeId>, 
/**
 * One sentence: what the rule requires.
 */
summary: string, 
/**
 * How to fix a finding.
 */
fix: string, };
/**
 * A runtime as the hosts list it (`runtimes()` in every binding): what a
 * page or a tool needs to offer it as a target, and the files that mark a
 * folder as its plugin or marketplace.
 */
export type RuntimeInfo = { 
/**
 * The id `--target` takes and reports carry.
 */
id: RuntimeId, 
/**
 * Its name in messages and documentation.
 */
name: string, 
/**
 * Its artifact kinds, default first.
 */
kinds: Array<ArtifactKind>, 
/**
 * Whether `--target all` builds it.
 */
inTargetAll: boolean, 
/**
 * The file that marks a folder as its plugin (`validate` looks for it).
 */
marker: string | null, 
/**
 * Its marketplace file (`validate` looks for it too).
 */
marketplace: string | null, };
/**
 * Something of the native plugin the canonical source does not carry.
 */
export type ImportNote = { 
/**
 * Stable snake_case identifier, e.g. `unknown_field`.
 */
code: DiagnosticCode, location: SourceLocation, message: string, };
/**
 * What every function throws: `message` lists every problem, one per line.
 */
export interface PlugforgeError extends Error {
  code: ErrorCode;
  problems: Array<Problem>;
}

/**
 * A byte string as a JS `Uint8Array`.
 */
export type Bytes = Uint8Array;
/**
 * One file of a source as JS passes it in (extra fields are ignored, so an
 * output file can be fed back in).
 */
export type SourceFile = { 
/**
 * Relative, `/`-separated.
 */
path: string, bytes: Bytes, executable?: boolean, };
/**
 * What the host found below the output root.
 */
export type Observed = { 
/**
 * sha256 (lowercase hex) of every file below the output root, by relative path.
 */
hashes?: { [key in string]: string }, 
/**
 * Bytes of the `pathsToRead()` files that exist.
 */
contents?: { [key in string]: Bytes }, };
/**
 * A generated file; `path` is relative to its bundle's `root`.
 */
export type BundleFile = { path: BundlePath, bytes: Bytes, sha256: string, executable: boolean, 
/**
 * A source path, or `plugforge:<runtime>/<name>` for built-in templates.
 */
template: string, };
/**
 * One runtime's bundle of one kind.
 */
export type Bundle = { runtime: RuntimeId, kind: ArtifactKind, 
/**
 * Folder below the output root; "" when the files go straight into it.
 */
root: string, 
/**
 * The generation manifest's path below the output root.
 */
manifest: BundlePath, namespace: string, pluginName: string, pluginVersion: string | null, files: Array<BundleFile>, 
/**
 * Parts of shared files (marketplaces, `.mcp.json`, context files).
 */
merges: Array<Merge>, honesty: Array<Honesty>, diagnostics: Array<Diagnostic>, };
/**
 * One file action; `bytes` and `sha256` are set for `create` and `update`.
 */
export type Action = { 
/**
 * Below the output root.
 */
path: BundlePath, op: Op, reason?: string, bytes?: Bytes, sha256?: string, executable: boolean, };
/**
 * Actions in apply order (manifests last). A refused plan must not be applied at all.
 */
export type Plan = { actions: Array<Action>, refused: boolean, summary: Summary, diagnostics: Array<Diagnostic>, };
/**
 * One file of a fresh output root; `path` is below the output root.
 */
export type OutputFile = { path: BundlePath, bytes: Bytes, sha256: string, executable: boolean, };
/**
 * A native plugin read into a canonical source (with `plugforge.json`).
 */
export type Imported = { runtime: RuntimeId, files: Array<SourceFile>, notes: Array<ImportNote>, };
