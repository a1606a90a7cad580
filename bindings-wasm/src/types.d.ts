/** One file of a canonical source; `executable` defaults to false. */
export interface SourceFile {
  path: string;
  bytes: Uint8Array;
  executable?: boolean;
}

export type Scope = "project" | "user";

export interface TargetRequest {
  /** A runtime id, or "all" for every runtime with its default kind. */
  runtime: string;
  kind?: string | null;
}

export interface Generator {
  name: string;
  version: string;
}

/** Every field is optional; unknown fields are an `invalid_options` error. */
/** A requested runtime that could not be built, with every reason; nothing is generated for it. */
export interface TargetFailure {
  runtime: string;
  kind: string;
  error: { code: string; problems: Array<{ message: string; location?: { file: string; line?: number | null; column?: number | null } | null }> };
}

/** A URL the author wrote that the bundles carry (the default `carry` URL policy), with the source files holding it. */
export interface CarriedUrl {
  url: string;
  files: string[];
}

export interface BuildOptions {
  /** Runtimes to build; empty = the enabled targets of the config, else claude-code. */
  targets?: TargetRequest[];
  scope?: Scope;
  namespace?: string | null;
  vars?: Record<string, string>;
  generator?: Generator;
  allowUrls?: string[];
  /** Refuse every URL outside the allowlists, whatever the source's `"urls"` policy says. */
  denyUrls?: boolean;
  /** The source folder's own name: names a Claude Code plugin without a manifest, as Claude Code does. */
  sourceName?: string | null;
  /** Default true. */
  marketplace?: boolean;
  /** Default ".plugforge-manifest.json". */
  manifestName?: string;
  /** Bundle folder per runtime id below the output root (default: the id). */
  roots?: Record<string, string>;
  /** Folder bundles go to `<runtime id>/<plugin namespace>` (several plugins in one output root) unless `roots` names their folder. */
  pluginFolders?: boolean;
  /** The marketplace every bundle is listed in, over the source's own (one name for all the plugins of a monorepo build). */
  marketplaceName?: string | null;
}

/** Lines and columns are 1-based. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export type Severity = "info" | "warning" | "error";

export interface Diagnostic {
  severity: Severity;
  code: string;
  message: string;
  location?: SourceLocation;
}

export type Level = "supported" | "degraded" | "unsupported";

/** One row of the honesty report: component x runtime, with the reason. */
export interface Honesty {
  component: string;
  name: string;
  runtime: string;
  kind: string;
  level: Level;
  detail: string;
}

/** A generated file; `path` is relative to its bundle's `root`. */
export interface BundleFile {
  path: string;
  bytes: Uint8Array;
  sha256: string;
  executable: boolean;
  /** A source path, or `plugforge:<runtime>/<name>` for built-in templates. */
  template: string;
}

export interface Bundle {
  runtime: string;
  kind: string;
  /** Folder below the output root; "" when the files go straight into it. */
  root: string;
  /** The generation manifest's path below the output root. */
  manifest: string;
  namespace: string;
  pluginName: string;
  pluginVersion: string | null;
  files: BundleFile[];
  /** Parts of shared files (marketplaces, `.mcp.json`, context files). */
  merges: Merge[];
  honesty: Honesty[];
  diagnostics: Diagnostic[];
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One part of a shared file that a bundle owns; the rest of the file is left alone. */
export type Part =
  | { kind: "marketplace_entry"; document: Json; entry: Json }
  | { kind: "json_entry"; pointer: string[]; key: string; value: Json }
  | { kind: "json_items"; pointer: string[]; items: Json[] }
  | { kind: "section"; id: string; text: string };

export interface Merge {
  /** The shared file, below the output root. */
  path: string;
  part: Part;
}

/** What the host found below the output root. */
export interface Observed {
  /** sha256 (lowercase hex) of every file below the output root, by relative path. */
  hashes?: Record<string, string>;
  /** Bytes of the `pathsToRead()` files that exist. */
  contents?: Record<string, Uint8Array>;
}

export interface PlanOptions {
  /** Overwrite edited or foreign files, remove edited leftovers. */
  force?: boolean;
  /** RFC 3339 time for new manifests. */
  generatedAt: string;
}

export type Op = "create" | "update" | "unchanged" | "conflict" | "remove" | "keep";

export interface Action {
  /** Below the output root. */
  path: string;
  op: Op;
  reason?: string;
  /** For create and update. */
  bytes?: Uint8Array;
  sha256?: string;
  executable: boolean;
}

export interface Summary {
  create: number;
  update: number;
  unchanged: number;
  conflict: number;
  remove: number;
  keep: number;
}

/** Actions in apply order (manifests last). A refused plan must not be applied at all. */
export interface Plan {
  actions: Action[];
  refused: boolean;
  summary: Summary;
  diagnostics: Diagnostic[];
}

/** One file of a fresh output root; `path` is below the output root. */
export interface OutputFile {
  path: string;
  bytes: Uint8Array;
  sha256: string;
  executable: boolean;
}

export interface UninstallOptions {
  /** `runtime` or `runtime:kind`; default ["claude-code"]. */
  runtimes?: string[];
  /** The plugin namespace: needed for kinds written into a project folder. */
  namespace?: string | null;
  scope?: Scope;
  manifestName?: string;
  force?: boolean;
  roots?: Record<string, string>;
}

export interface DoctorOptions {
  /** `runtime` or `runtime:kind`; default ["claude-code"]. */
  runtimes?: string[];
  /** The plugin namespace: needed for kinds written into a project folder. */
  namespace?: string | null;
  scope?: Scope;
  manifestName?: string;
  /** The generator installed now; an older one in a manifest is outdated. */
  generator?: Generator;
  /** Quoted into every fix (default "plugforge build"). */
  buildCommand?: string;
  /** The output root as the user typed it, for `rm` fixes (default "."). */
  outDir?: string;
  roots?: Record<string, string>;
}

export type FindingCode =
  | "plugin_missing"
  | "plugin_outdated"
  | "file_edited"
  | "file_missing"
  | "file_orphaned";

export interface Finding {
  code: FindingCode;
  severity: Severity;
  runtime: string;
  path: string;
  message: string;
  /** The command that fixes it. */
  fix: string;
}

export interface DoctorReport {
  findings: Finding[];
  diagnostics: Diagnostic[];
}

export type ErrorCode =
  | "invalid_source"
  | "invalid_path"
  | "template"
  | "unsupported_runtime"
  | "unsupported_kind"
  | "url_not_allowed"
  | "invalid_options"
  | "invalid_manifest"
  | "credential"
  | "limit";

export interface Problem {
  message: string;
  location?: SourceLocation;
}

/** What every function throws: `message` lists every problem, one per line. */
export interface PlugforgeError extends Error {
  code: ErrorCode;
  problems: Problem[];
}

/** Unknown fields are an `invalid_options` error. */
export interface ValidateOptions {
  /** A runtime id; absent: the runtimes detected from the folder's marker files. */
  target?: string | null;
  /** Report warnings as errors (as `claude plugin validate --strict` does). */
  strict?: boolean;
}

export type RuleSeverity = "error" | "warning";

/** What `validate` judged: detected from a marker file, or named by `target`. */
export interface Subject {
  kind: "source" | "marketplace" | "plugin" | "skills";
  /** null for a plugforge source judged for every runtime it targets, and for a folder of Agent Skills. */
  runtime: string | null;
  /** Folder relative to the validated folder ("" = itself). */
  root: string;
  /** The file that identified it, or "--target". */
  marker: string;
}

/** One broken rule at one place; `file` is relative to the validated folder. */
export interface ValidationFinding {
  /** The rule's stable code, `area/what`. */
  code: string;
  /** Effective severity: with `strict`, always "error". */
  severity: RuleSeverity;
  runtime?: string;
  file?: string;
  line?: number;
  column?: number;
  message: string;
  fix: string;
}

/** The `report` of `plugforge validate --json` (schema/validate-report.schema.json). */
export interface ValidationReport {
  schema: "plugforge.validate.v1";
  /** No errors (with `strict`, no warnings either). */
  valid: boolean;
  strict: boolean;
  subjects: Subject[];
  errors: number;
  warnings: number;
  /** Sorted by file, line, column, code. */
  findings: ValidationFinding[];
}

/** One rule of the catalog (docs/rules.md). */
export interface Rule {
  code: string;
  /** The rule's own severity, before `strict`. */
  severity: RuleSeverity;
  /** Runtime ids the rule judges; empty = every runtime. */
  runtimes: string[];
  summary: string;
  fix: string;
}

/** Unknown fields are an `invalid_options` error. */
export interface ImportOptions {
  /** The runtime the plugin is for; absent: detected from its marker file. */
  from?: string | null;
  /** The plugin's name (needed for a Claude Code plugin without a manifest); replaces the manifest's. */
  name?: string | null;
  /** The plugin folder's own name: names a Claude Code plugin without a manifest when `name` is absent, as Claude Code does. */
  folderName?: string | null;
}

/** Something of the native plugin the canonical source does not carry. */
export interface ImportNote {
  /** Stable snake_case identifier, e.g. "unknown_field". */
  code: string;
  location: SourceLocation;
  message: string;
}

/** A native plugin read into a canonical source (with plugforge.json). */
export interface Imported {
  runtime: string;
  files: SourceFile[];
  notes: ImportNote[];
}
