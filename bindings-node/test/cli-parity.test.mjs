// `npx plugforge` is the Rust CLI: the same arguments through the Rust
// binary and through bin/plugforge.js give the same exit code, the same
// stdout and stderr (with each run's own output folder written as OUT) and
// the same files on disk.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { before, test } from 'node:test'

import { binJs, claudeBin, readFiles, repoDir, run, rustCli, tempDir } from './support.mjs'

const striatum = path.join(repoDir, 'examples', 'striatum')
const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000', NO_COLOR: '1' }
let rust

before(() => {
  rust = rustCli()
})

/** Runs `args` (with `{OUT}` for the output folder) through both hosts, and compares. */
function both(t, label, args, { code, cwd } = {}) {
  const dirs = { rust: tempDir(t, `${label}-rust`), node: tempDir(t, `${label}-node`) }
  return (more = {}) => {
    const results = {}
    for (const [host, dir] of Object.entries(dirs)) {
      const argv = (more.args ?? args).map((a) => a.replaceAll('{OUT}', path.join(dir, 'out')))
      const [command, prefix] = host === 'rust' ? [rust, []] : [process.execPath, [binJs]]
      const result = run(command, [...prefix, ...argv], { cwd: cwd ?? dir, env })
      const mask = (text) => text.replaceAll(path.join(dir, 'out'), 'OUT')
      results[host] = { code: result.code, stdout: mask(result.stdout), stderr: mask(result.stderr), dir }
    }
    const { rust: r, node: n } = results
    assert.equal(n.stdout, r.stdout, `${label}: stdout`)
    assert.equal(n.stderr, r.stderr, `${label}: stderr`)
    assert.equal(n.code, r.code, `${label}: exit code`)
    if (code !== undefined) assert.equal(r.code, more.code ?? code, `${label}: expected exit code\n${r.stderr}`)
    const rustFiles = readFiles(path.join(dirs.rust, 'out'))
    assert.deepEqual(readFiles(path.join(dirs.node, 'out')), rustFiles, `${label}: files on disk`)
    return { ...r, dirs }
  }
}

const buildArgs = ['build', striatum, '--target', 'claude-code', '--out', '{OUT}', '--var', 'runner_version=0.7.3']

test('build, rerun, conflict, force, doctor and uninstall: same output, codes and files', (t) => {
  const step = both(t, 'lifecycle', buildArgs, { code: 0 })
  const first = step()
  assert.match(first.stdout, /plan: \d+ create/)
  assert.match(step().stdout, /\(0 writes\)/)

  for (const dir of Object.values(first.dirs)) {
    fs.writeFileSync(path.join(dir, 'out', 'claude-code', 'commands', 'status.md'), 'mine\n')
  }
  const refused = step({ code: 1 })
  assert.match(refused.stdout, /CONFLICT/)
  assert.match(step({ args: [...buildArgs, '--json'], code: 1 }).stdout, /"refused": true/)
  step({ args: ['doctor', striatum, '--target', 'claude-code', '--out', '{OUT}', '--var', 'runner_version=0.7.3', '--json'], code: 0 })
  step({ args: [...buildArgs, '--force', '-v'], code: 0 })
  step({ args: ['uninstall', '--target', 'claude-code', '--out', '{OUT}', '--dry-run', '--json'], code: 0 })
  step({ args: ['uninstall', '--target', 'claude-code', '--out', '{OUT}'], code: 0 })
})

test('build --json and --dry-run', (t) => {
  both(t, 'json', [...buildArgs, '--json'], { code: 0 })()
  both(t, 'dry', [...buildArgs, '--dry-run', '--strict'], { code: 1 })()
})

test('usage errors, suggestions, help, version, completions and man pages', (t) => {
  both(t, 'usage', ['build', '--bogus'], { code: 2 })()
  both(t, 'runtime', [...buildArgs, '--target', 'nonesuch'], { code: 2 })()
  both(t, 'typo-verb', ['biuld'], { code: 2 })()
  both(t, 'typo-flag', ['build', '--dryrun'], { code: 2 })()
  both(t, 'flag-value', ['build', '--json=false'], { code: 2 })()
  both(t, 'help', [], { code: 0 })()
  both(t, 'version', ['--version'], { code: 0 })()
  for (const verb of ['init', 'build', 'uninstall', 'doctor', 'validate', 'import', 'verify']) both(t, `help-${verb}`, [verb, '--help'], { code: 0 })()
  for (const shell of ['bash', 'zsh', 'fish']) both(t, `completions-${shell}`, ['completions', shell], { code: 0 })()
  both(t, 'man', ['man'], { code: 0 })()
  both(t, 'man-dir', ['man', '--dir', '{OUT}'], { code: 0 })()
})

test('--target a,b, repeated --target and --', (t) => {
  const step = both(t, 'targets', ['build', '--target', 'claude-code,codex', '-t', 'gemini', '--out', '{OUT}', '--var', 'runner_version=0.7.3', '--', striatum], { code: 0 })
  assert.match(step().stdout, /plan: \d+ create/)
})

test('an unreadable source is an io error with the same message', (t) => {
  both(t, 'missing', ['build', 'no-such-source', '--out', '{OUT}'], { code: 2 })()
  both(t, 'missing-json', ['build', 'no-such-source', '--out', '{OUT}', '--json'], { code: 2 })()
})

test('init writes the same starter source', (t) => {
  const step = both(t, 'init', ['init', '{OUT}/my-plugin'], { code: 0 })
  step()
  step({ code: 1 })
})

const noPlugin = path.join(repoDir, 'tests', 'rules', 'detect', 'no-plugin')

test('validate: human and --json output, --strict, --target, exit codes', (t) => {
  for (const [label, args, code] of [
    ['validate-fail', ['validate', path.join(noPlugin, 'fail')], 1],
    ['validate-pass', ['validate', path.join(noPlugin, 'pass')], 0],
    ['validate-json', ['validate', path.join(noPlugin, 'fail'), '--json'], 1],
    ['validate-strict', ['validate', path.join(noPlugin, 'pass'), '--strict', '--json'], 0],
    ['validate-target', ['validate', path.join(noPlugin, 'pass'), '--target', 'codex'], undefined],
    ['validate-unknown', ['validate', path.join(noPlugin, 'pass'), '--target', 'nonesuch'], 2],
    ['validate-missing', ['validate', 'no-such-folder', '--json'], 2],
  ]) {
    both(t, label, args, { code })()
  }
})

test('import: the same source written, the same notes, the same refusals', (t) => {
  const plugin = path.join(noPlugin, 'pass')
  const step = both(t, 'import', ['import', plugin, '--out', '{OUT}/src'])
  const first = step()
  if (first.code === 0) step({ code: 1 }) // never writes over an import
  both(t, 'import-json', ['import', plugin, '--out', '{OUT}/src', '--json'])()
  both(t, 'import-from', ['import', plugin, '--from', 'nonesuch', '--out', '{OUT}/src'], { code: 2 })()
  both(t, 'import-usage', ['import', plugin], { code: 2 })()
})

test('verify: the same report and exit codes, with no client found by either host', (t) => {
  const dir = tempDir(t, 'verify')
  const out = path.join(dir, 'out')
  const built = run(rust, ['build', striatum, '--target', 'claude-code,cursor', '--out', out, '--var', 'runner_version=0.7.3'], { cwd: dir, env })
  assert.equal(built.code, 0, built.stderr)
  const home = path.join(dir, 'home')
  fs.mkdirSync(home)
  // No client in a variable or on PATH (only node's own folder): each host skips every one.
  const bare = Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('PLUGFORGE_')))
  const quiet = { ...bare, HOME: home, PATH: path.dirname(process.execPath) }
  // Timings are the one thing two runs differ by.
  const report = (text) => JSON.stringify(JSON.parse(text), (k, v) => (k === 'millis' ? undefined : v))
  for (const [extra, code] of [[[], 0], [['--require-clients'], 1]]) {
    const r = run(rust, ['verify', out, '--json', ...extra], { cwd: dir, env: quiet })
    const n = run(process.execPath, [binJs, 'verify', out, '--json', ...extra], { cwd: dir, env: quiet })
    assert.equal(n.code, r.code, `exit code ${extra}`)
    assert.equal(r.code, code, r.stderr)
    assert.equal(n.stderr, r.stderr)
    assert.equal(report(n.stdout), report(r.stdout))
    const parsed = JSON.parse(r.stdout)
    assert.equal(parsed.bundles[0].clients[0].status, 'skipped')
    assert.match(parsed.bundles[0].clients[0].reason, /plugforge verify --install/)
    assert.equal(parsed.bundles[1].status, 'not-judged')
  }
})

test('verify with a real client: the same verdict through both hosts, passed and then failed', (t) => {
  const claude = claudeBin(t)
  if (!claude) return
  const dir = tempDir(t, 'verify-client')
  const out = path.join(dir, 'out')
  const built = run(rust, ['build', striatum, '--target', 'claude-code', '--out', out, '--var', 'runner_version=0.7.3'], { cwd: dir, env })
  assert.equal(built.code, 0, built.stderr)
  const report = (text) => JSON.parse(text, (k, v) => (k === 'millis' ? undefined : v))
  const verify = () => {
    const args = ['verify', out, '--json', '--client', `claude=${claude}`]
    const r = run(rust, args, { cwd: dir, env })
    const n = run(process.execPath, [binJs, ...args], { cwd: dir, env })
    assert.equal(n.code, r.code, 'exit code')
    assert.equal(n.stderr, r.stderr)
    assert.deepEqual(report(n.stdout), report(r.stdout))
    return { code: r.code, report: report(r.stdout) }
  }
  const passed = verify()
  assert.equal(passed.code, 0, JSON.stringify(passed.report))
  const [client] = passed.report.bundles[0].clients
  assert.equal(client.status, 'passed')
  // A skill folder deleted after the build: the client no longer lists it.
  fs.rmSync(path.join(out, 'claude-code', 'skills', 'striatum-recover'), { recursive: true })
  const failed = verify()
  assert.equal(failed.code, 1)
  assert.match(JSON.stringify(failed.report.bundles[0]), /striatum-recover/)
})
