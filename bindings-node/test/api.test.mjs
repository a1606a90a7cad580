// The API's shapes and round trips: errors with code and problems, the Build
// class, plan/apply/uninstall/doctor over a real folder, runCli (the Rust
// command line) over a temp folder, and the same exports from ESM and CommonJS.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { test } from 'node:test'

import * as esm from 'plugforge'
import {
  applyPlan,
  build,
  buildToDir,
  doctor,
  doctorPathsToRead,
  generatedAt,
  observe,
  readTree,
  runCli,
  runtimes,
  sha256Hex,
  starterSource,
  uninstallPathsToRead,
  uninstallPlan,
  version,
} from 'plugforge'
import { pkgDir, readFiles, repoDir, run, sha256, tempDir } from './support.mjs'

const require = createRequire(import.meta.url)
const striatum = path.join(repoDir, 'examples', 'striatum')
const striatumOptions = { targets: [{ runtime: 'claude-code' }], vars: { runner_version: '0.7.3' } }
const file = (p, text, executable = false) => ({ path: p, bytes: Buffer.from(text), executable })
const AT = '2026-01-01T00:00:00Z'

function thrown(action) {
  try {
    action()
  } catch (error) {
    return error
  }
  assert.fail('expected a throw')
}

test('ESM and CommonJS export the same objects', () => {
  const cjs = require('plugforge')
  const names = Object.keys(cjs).sort()
  assert.deepEqual(Object.keys(esm).filter((n) => n !== 'default').sort(), names)
  for (const name of names) assert.equal(esm[name], cjs[name], name)
  assert.equal(esm.default, cjs)
  assert.match(version(), /^\d+\.\d+\.\d+/)
})

test('runtimes() is the registry the builder knows: ids in order, kinds default first, marker files', () => {
  const listed = runtimes()
  const unknown = thrown(() => build(starterSource('demo'), { targets: [{ runtime: 'nonesuch' }] }))
  assert.equal(unknown.code, 'unsupported_runtime')
  assert.ok(unknown.message.endsWith(`known: ${listed.map((r) => r.id).join(', ')}`), unknown.message)
  for (const runtime of listed) {
    const bad = thrown(() => build(starterSource('demo'), { targets: [{ runtime: runtime.id, kind: 'nonesuch' }] }))
    assert.ok(bad.message.endsWith(`it supports: ${runtime.kinds.join(', ')}`), `${runtime.id}: ${bad.message}`)
  }
  assert.deepEqual(listed[0], {
    id: 'claude-code',
    name: 'Claude Code',
    kinds: ['plugin', 'project'],
    inTargetAll: true,
    marker: '.claude-plugin/plugin.json',
    marketplace: '.claude-plugin/marketplace.json',
  })
})

test('a bad source throws an Error with code and every problem', () => {
  const error = thrown(() =>
    build([
      file('plugforge.json', '{"name": "demo", "version": "1.0.0"}'),
      file('commands/a.md', '---\ndescription: "unclosed\n---\nA\n'),
      file('commands/b.md', '---\ndescription: "unclosed\n---\nB\n'),
    ]),
  )
  assert.ok(error instanceof Error)
  assert.equal(error.code, 'invalid_source')
  assert.equal(error.problems.length, 2, error.message)
  assert.deepEqual(
    error.problems.map((p) => p.location.file),
    ['commands/a.md', 'commands/b.md'],
  )
  for (const problem of error.problems) {
    assert.equal(typeof problem.message, 'string')
    assert.equal(typeof problem.location.line, 'number')
    assert.ok(error.message.includes(problem.message))
  }
})

test('options use the core JSON shape: unknown keys and bad values are invalid_options', () => {
  const source = starterSource('demo')
  const unknown = thrown(() => build(source, { allowUrl: ['https://x'] }))
  assert.equal(unknown.code, 'invalid_options')
  assert.match(unknown.message, /allowUrl/)
  assert.equal(thrown(() => build(source, { scope: 'galaxy' })).code, 'invalid_options')
  assert.equal(thrown(() => build(source).plan({}, { force: 'yes' })).code, 'invalid_options')
  assert.equal(thrown(() => build(source, { targets: [{ runtime: 'nonesuch' }] })).code, 'unsupported_runtime')
  assert.equal(thrown(() => build([file('../x', '')])).code, 'invalid_path')
  assert.equal(thrown(() => starterSource('Not Kebab')).code, 'invalid_options')
})

test('Build exposes bundles with Buffer bytes, shared files and paths to read', () => {
  const output = build(readTree(striatum), striatumOptions)
  const [bundle] = output.bundles
  assert.equal(bundle.runtime, 'claude-code')
  assert.equal(bundle.kind, 'plugin')
  assert.equal(bundle.root, 'claude-code')
  assert.equal(bundle.pluginName, 'striatum')
  assert.equal(typeof bundle.pluginVersion, 'string')
  assert.ok(bundle.files.length > 10)
  for (const f of bundle.files) {
    assert.ok(Buffer.isBuffer(f.bytes), f.path)
    assert.equal(f.sha256, sha256(f.bytes), f.path)
    assert.equal(typeof f.template, 'string')
  }
  assert.ok(bundle.honesty.some((row) => row.level === 'unsupported'))
  assert.ok(bundle.merges.some((m) => m.path === '.claude-plugin/marketplace.json' && m.part.kind === 'marketplace_entry'))
  assert.ok(output.shared.includes('.claude-plugin/marketplace.json'))
  assert.ok(output.pathsToRead().includes(bundle.manifest))
  assert.ok(Array.isArray(output.diagnostics))
})

test('plan, apply, rerun, edit, conflict, force, doctor and uninstall over a folder', (t) => {
  const out = tempDir(t, 'lifecycle')
  const first = buildToDir(striatum, out, striatumOptions, { generatedAt: AT })
  assert.equal(first.plan.refused, false)
  const written = readFiles(out)
  assert.equal(written.size, first.plan.summary.create)
  for (const action of first.plan.actions) assert.ok(written.get(action.path).bytes.equals(action.bytes), action.path)

  const again = buildToDir(striatum, out, striatumOptions)
  assert.equal(again.plan.summary.create + again.plan.summary.update + again.plan.summary.remove, 0)
  assert.deepEqual(readFiles(out), written, 'a rerun is byte-identical (generatedAt kept)')

  const doctorOptions = { runtimes: ['claude-code'], outDir: out }
  const healthy = doctor(doctorOptions, observe(out, doctorPathsToRead(doctorOptions)), again.build)
  assert.deepEqual(healthy.findings, [])

  const edited = path.join(out, 'claude-code', 'commands', 'status.md')
  fs.writeFileSync(edited, 'mine\n')
  const refused = thrown(() => buildToDir(striatum, out, striatumOptions))
  assert.equal(refused.code, 'refused')
  assert.equal(refused.plan.summary.conflict, 1)
  assert.equal(fs.readFileSync(edited, 'utf8'), 'mine\n', 'nothing written')
  const report = doctor(doctorOptions, observe(out, doctorPathsToRead(doctorOptions)))
  assert.deepEqual(
    report.findings.map((f) => [f.code, f.severity, f.path]),
    [['file_edited', 'info', 'claude-code/commands/status.md']],
  )

  const forced = buildToDir(striatum, out, striatumOptions, { force: true })
  assert.equal(forced.plan.summary.update, 1)
  assert.notEqual(fs.readFileSync(edited, 'utf8'), 'mine\n')

  const uninstall = { runtimes: ['claude-code'] }
  const plan = uninstallPlan(uninstall, observe(out, uninstallPathsToRead(uninstall)))
  assert.equal(plan.refused, false)
  applyPlan(out, plan)
  assert.deepEqual([...readFiles(out).keys()], [])
  assert.deepEqual(fs.readdirSync(out), [], 'emptied folders removed up to the root')
})

test('readTree skips VCS, dependency and excluded folders and keeps the executable bit', (t) => {
  const dir = tempDir(t, 'tree')
  for (const rel of ['a.txt', '.git/HEAD', 'node_modules/x/i.js', 'target/t', 'dist/out.txt', 'bin/run']) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), rel)
  }
  fs.chmodSync(path.join(dir, 'bin/run'), 0o755)
  const files = readTree(dir, { exclude: [path.join(dir, 'dist')] })
  assert.deepEqual(
    files.map((f) => [f.path, f.executable, f.bytes.toString()]),
    [
      ['a.txt', false, 'a.txt'],
      ['bin/run', true, 'bin/run'],
    ],
  )
  const missing = thrown(() => readTree(path.join(dir, 'nope')))
  assert.equal(missing.code, 'io')
  assert.match(missing.message, /nope: No such file or directory \(os error 2\)$/)
})

test('applyPlan refuses a refused plan and writes atomically with modes', (t) => {
  const out = tempDir(t, 'apply')
  assert.equal(thrown(() => applyPlan(out, { refused: true, actions: [], summary: { conflict: 1 } })).code, 'refused')
  const escape = { path: '../escaped', op: 'create', bytes: Buffer.from('x'), executable: false }
  assert.equal(thrown(() => applyPlan(out, { refused: false, actions: [escape], summary: {} })).code, 'invalid_path')
  assert.ok(!fs.existsSync(path.join(out, '..', 'escaped')))
  applyPlan(out, {
    refused: false,
    summary: {},
    actions: [
      { path: 'x/run', op: 'create', bytes: Buffer.from('#!/bin/sh\n'), executable: true },
      { path: 'x/doc.md', op: 'create', bytes: new Uint8Array([104, 105]), executable: false },
      { path: 'x/same', op: 'unchanged', executable: false },
    ],
  })
  assert.equal(fs.statSync(path.join(out, 'x/run')).mode & 0o777, 0o755)
  assert.equal(fs.statSync(path.join(out, 'x/doc.md')).mode & 0o777, 0o644)
  assert.equal(fs.readFileSync(path.join(out, 'x/doc.md'), 'utf8'), 'hi')
  assert.deepEqual(fs.readdirSync(path.join(out, 'x')).sort(), ['doc.md', 'run'], 'no temp file left')
})

test('a plan counts the manifests at its end, so applyPlan lands every other file first, flushed once', (t) => {
  const out = tempDir(t, 'manifests-last')
  const saved = process.env.SOURCE_DATE_EPOCH
  t.after(() => (saved === undefined ? delete process.env.SOURCE_DATE_EPOCH : (process.env.SOURCE_DATE_EPOCH = saved)))
  process.env.SOURCE_DATE_EPOCH = '1778352131'
  const all = { targets: [{ runtime: 'all' }], vars: { runner_version: '0.7.3' } }
  const { plan } = buildToDir(striatum, out, all)
  const manifests = plan.actions.filter((a) => a.path.endsWith('.plugforge-manifest.json'))
  assert.ok(manifests.length > 5, `${manifests.length} manifests`)
  assert.equal(plan.manifests, manifests.length)
  assert.deepEqual(plan.actions.slice(-plan.manifests), manifests, 'the manifests are the last actions')
  for (const action of plan.actions.filter((a) => a.op === 'create')) {
    assert.equal(sha256(fs.readFileSync(path.join(out, action.path))), action.sha256, action.path)
  }
  // A plan object without the count (not made by plan()) still applies, one action at a time.
  const again = tempDir(t, 'manifests-uncounted')
  const built = build(readTree(striatum), all)
  const { manifests: _, ...uncounted } = built.plan(observe(again, built.pathsToRead()), { generatedAt: generatedAt() })
  applyPlan(again, uncounted)
  assert.deepEqual(readFiles(again), readFiles(out))
})

test('sha256Hex and generatedAt', (t) => {
  const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
  assert.equal(sha256Hex(Buffer.from('abc')), abc)
  assert.equal(sha256Hex(new Uint8Array([97, 98, 99])), abc)
  const saved = process.env.SOURCE_DATE_EPOCH
  t.after(() => (saved === undefined ? delete process.env.SOURCE_DATE_EPOCH : (process.env.SOURCE_DATE_EPOCH = saved)))
  process.env.SOURCE_DATE_EPOCH = '1778352131'
  assert.equal(generatedAt(), '2026-05-09T18:42:11Z')
  delete process.env.SOURCE_DATE_EPOCH
  assert.match(generatedAt(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
})

/**
 * Runs `runCli(args)` in a child node, as `npx plugforge` does: the Rust
 * command line writes to the process's own stdout and stderr.
 */
const entry = JSON.stringify(path.join(pkgDir, 'lib', 'index.js'))

function runCliIn(cwd, args, env = {}) {
  const script = `process.exitCode = require(${entry}).runCli(${JSON.stringify(args)})`
  return run(process.execPath, ['-e', script], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } })
}

test('runCli runs the Rust command line over real folders: files, output, exit codes', (t) => {
  const dir = tempDir(t, 'run-cli')
  const init = runCliIn(dir, ['init', 'src'])
  assert.equal(init.code, 0, init.stderr)
  assert.match(init.stdout, /^ {2}create {3}src\/plugforge\.json$/m)
  const built = runCliIn(dir, ['build', 'src', '--target', 'claude-code', '--out', 'o', '--json'], { SOURCE_DATE_EPOCH: '1778352131' })
  assert.equal(built.code, 0, built.stderr)
  const report = JSON.parse(built.stdout)
  assert.equal(report.ok, true)
  assert.equal(report.plan.summary.create, readFiles(path.join(dir, 'o')).size)
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'o', 'claude-code', '.plugforge-manifest.json'), 'utf8'))
  assert.equal(manifest.generated_at, '2026-05-09T18:42:11Z')

  const usage = runCliIn(dir, ['build', '--bogus'])
  assert.equal(usage.code, 2)
  assert.equal(usage.stdout, '')
  assert.match(usage.stderr, /^error\[usage\]: unexpected argument '--bogus' found/)
  const missing = runCliIn(dir, ['build', 'absent', '--out', 'o2'])
  assert.equal(missing.code, 2)
  assert.match(missing.stderr, /^error\[io\]: absent/)
})

test('runCli turns a panic into a thrown Error with code internal', (t) => {
  const dir = tempDir(t, 'run-cli-panic')
  const script = `try { require(${entry}).runCli(['--version']) } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })) }`
  const result = run(process.execPath, ['-e', script], { cwd: dir, env: { ...process.env, PLUGFORGE_PANIC: '1' } })
  assert.equal(result.code, 0, result.stderr)
  const thrown = JSON.parse(result.stdout)
  assert.equal(thrown.code, 'internal')
  assert.match(thrown.message, /^internal error in plugforge \(please report it\): PLUGFORGE_PANIC is set/)
})
