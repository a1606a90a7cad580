// Compiled by `tsc` (test/types.test.mjs), never run: the typings a consumer
// sees from ESM, generated (index.d.ts) and hand-written (lib/host.d.ts).
import {
  applyPlan,
  build,
  buildToDir,
  doctor,
  doctorPathsToRead,
  generatedAt,
  importPlugin,
  observe,
  readTree,
  rules,
  runCli,
  runtimes,
  sha256Hex,
  starterSource,
  uninstallPathsToRead,
  uninstallPlan,
  validate,
  version,
} from 'plugforge'
import type {
  Action,
  ArtifactKind,
  Bundle,
  Code,
  Component,
  DiagnosticCode,
  Imported,
  Op,
  PlugforgeError,
  Plan,
  Rule,
  RuleCode,
  RuleSeverity,
  RuntimeId,
  RuntimeInfo,
  SourceFile,
  Subject,
  ValidationFinding,
  ValidationReport,
} from 'plugforge'

const files: SourceFile[] = readTree('src', { exclude: ['dist'] })
const result = build([...files, ...starterSource('demo')], { targets: [{ runtime: 'claude-code' }], vars: { a: 'b' } })
const bundles: Bundle[] = result.bundles
const bytes: Buffer = bundles[0].files[0].bytes
const plan: Plan = result.plan(observe('dist', result.pathsToRead()), { generatedAt: generatedAt() })
const ops: Op[] = plan.actions.map((a: Action) => a.op)
if (!plan.refused) applyPlan('dist', plan)
const { build: again, plan: second } = buildToDir('src', 'dist', {}, { force: true })
const report = doctor({ runtimes: ['claude-code'], outDir: 'dist' }, observe('dist', doctorPathsToRead({})), again)
const removal = uninstallPlan({ runtimes: ['claude-code'] }, observe('dist', uninstallPathsToRead({})))
const code: number = runCli(['--version'])
try {
  build([{ path: 'x', bytes: new Uint8Array(1) }])
} catch (err) {
  const e = err as PlugforgeError
  const where: string | undefined = e.problems[0]?.location?.file
  console.log(e.code === 'invalid_source', where)
}
console.log(version(), sha256Hex(bytes), ops, second.summary.create, report.findings, removal.refused, code)
const verdict: ValidationReport = validate(files, { target: 'claude-code', strict: true })
const first: ValidationFinding | undefined = verdict.findings[0]
const where: string | undefined = first?.file
const line: number | undefined = first?.line
const subject: Subject = verdict.subjects[0]
const runtime: RuntimeId | null = subject.runtime
const severities: RuleSeverity[] = rules().map((r: Rule) => r.severity)
const targets: RuntimeInfo[] = runtimes()
const marker: string | null = targets[0].marker
console.log(targets[0].kinds[0], targets[0].inTargetAll, marker)
const imported: Imported = importPlugin(files, { from: 'claude-code' })
const written: Buffer = imported.files[0].bytes
const noteLine: number | undefined = imported.notes[0]?.location.line
console.log(verdict.valid, verdict.errors, where, line, runtime, severities, imported.runtime, written, noteLine)

// A Build can be freed at once, or with `using` where the runtime has Symbol.dispose.
const freed = build([{ path: 'x', bytes: new Uint8Array(1) }])
freed.free()
const disposable: { [Symbol.dispose](): void } = build([{ path: 'x', bytes: new Uint8Array(1) }])
disposable[Symbol.dispose]()

// The vocabulary is string unions: results carry the ids and codes, options take them, a typo fails.
const ids: RuntimeId[] = bundles.map((b) => b.runtime)
const kinds: ArtifactKind[] = bundles.map((b) => b.kind)
const components: Component[] = bundles.flatMap((b) => b.honesty.map((h) => h.component))
const codes: Code[] = result.diagnostics.map((d) => d.code)
const ruleCodes: RuleCode[] = verdict.findings.map((f) => f.code)
const noteCodes: DiagnosticCode[] = imported.notes.map((n) => n.code)
const asText: string = ids[0]
build([], { targets: [{ runtime: 'all' }, { runtime: 'codex', kind: 'project' }] })
// @ts-expect-error: not a runtime id
build([], { targets: [{ runtime: 'claude' }] })
// @ts-expect-error: not an artifact kind
build([], { targets: [{ runtime: 'codex', kind: 'folder' }] })
// @ts-expect-error: not a rule's code
const wrongCode: RuleCode = 'manifest/no-such-rule'
console.log(kinds, components, codes, ruleCodes, noteCodes, asText, wrongCode)
