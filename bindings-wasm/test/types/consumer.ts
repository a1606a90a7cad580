// Compiled by `tsc --strict` (test/types.test.mjs), never run: the typings a
// consumer sees, generated from the Rust types (src/types.d.ts) and by
// wasm-bindgen (the functions).
import {
  build,
  doctor,
  doctorPathsToRead,
  importPlugin,
  rules,
  runtimes,
  sha256Hex,
  starterSource,
  uninstallPathsToRead,
  uninstallPlan,
  validate,
  version,
} from '../../pkg-node/plugforge_wasm.js'
import type {
  Action,
  ArtifactKind,
  Bundle,
  BundleFile,
  CarriedUrl,
  Diagnostic,
  DoctorReport,
  ErrorCode,
  Finding,
  FindingCode,
  Honesty,
  Imported,
  Level,
  Merge,
  Op,
  OutputFile,
  Plan,
  PlugforgeError,
  Rule,
  RuntimeId,
  RuntimeInfo,
  SourceFile,
  SourceLocation,
  Subject,
  TargetFailure,
  ValidationFinding,
  ValidationReport,
} from '../../pkg-node/plugforge_wasm.js'

const source: SourceFile[] = starterSource('demo')
const result = build(source, { targets: [{ runtime: 'claude-code' }, { runtime: 'codex', kind: null }], vars: { a: 'b' } })
const bundles: Bundle[] = result.bundles
const file: BundleFile = bundles[0].files[0]
const bytes: Uint8Array = file.bytes
const honesty: Honesty[] = bundles[0].honesty
const level: Level = honesty[0].level
const merges: Merge[] = bundles[0].merges
const kind: 'marketplace_entry' | 'json_entry' | 'json_items' | 'section' = merges[0].part.kind
const diagnostics: Diagnostic[] = result.diagnostics
const where: SourceLocation | undefined = diagnostics[0].location
const line: number | undefined = where?.line
const failures: TargetFailure[] = result.failures
const failed: ErrorCode = failures[0].error.code
const urls: CarriedUrl[] = result.urls

const plan: Plan = result.plan({ hashes: {}, contents: {} }, { generatedAt: '2026-01-01T00:00:00Z', force: false })
const action: Action = plan.actions[0]
const op: Op = action.op
const written: Uint8Array | undefined = action.bytes
const fresh: OutputFile[] = result.outputFiles('2026-01-01T00:00:00Z')
const creates: number = plan.summary.create

const report: DoctorReport = doctor({ runtimes: ['claude-code'], buildCommand: 'make' }, { hashes: {} })
const finding: Finding = report.findings[0]
const code: FindingCode = finding.code
const toRead: string[] = [...doctorPathsToRead({ outDir: 'dist' }), ...uninstallPathsToRead({ force: true })]
const removal: Plan = uninstallPlan({ runtimes: ['codex'] }, { hashes: {} })

const verdict: ValidationReport = validate(source, { target: 'claude-code', strict: true })
const schema: 'plugforge.validate.v1' = verdict.schema
const subject: Subject = verdict.subjects[0]
const subjectKind: 'source' | 'marketplace' | 'plugin' | 'skills' = subject.kind
const broken: ValidationFinding[] = verdict.findings
const catalog: Rule[] = rules()
const targets: RuntimeInfo[] = runtimes()
const firstKind: string = targets[0].kinds[0] + targets[0].id + targets[0].name
const marker: string | null = targets[0].marker
const imported: Imported = importPlugin(source, { from: 'claude-code', folderName: 'demo' })
const hash: string = sha256Hex(bytes) + version()

try {
  build(source)
} catch (error) {
  const thrown = error as PlugforgeError
  const first: string = thrown.problems[0].message + thrown.code
}

// A misspelt option or a wrong shape does not compile.
// @ts-expect-error `target` is not a build option (`targets` is)
build(source, { target: 'codex' })
// @ts-expect-error `force` is a boolean
result.plan({}, { generatedAt: '', force: 'yes' })
// @ts-expect-error a runtime request is an object
build(source, { targets: ['codex'] })

// The vocabulary's unions (bindings-node/vocabulary.d.cts, a section of their own).
const runtimeId: RuntimeId = 'qwen-code'
const artifactKind: ArtifactKind = 'plugin'
// @ts-expect-error not a runtime id
const wrongRuntime: RuntimeId = 'not-a-runtime'

export {
  bytes, level, kind, line, failed, urls, op, written, fresh, creates, code, toRead, removal, schema,
  subjectKind, broken, catalog, imported, hash, runtimeId, artifactKind, wrongRuntime,
}
