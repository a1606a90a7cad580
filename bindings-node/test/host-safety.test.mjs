// The host helpers never read outside the source folder, never write through
// a symbolic link below the output root, and a run after an interrupted one
// (by hand, or killed inside `npx plugforge`) converges to the bytes of an
// uninterrupted build.
import assert from 'node:assert/strict'
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { applyPlan, build, buildToDir, observe, readTree } from 'plugforge'
import { binJs, run, rustCli, tempDir } from './support.mjs'

const AT = '2026-01-01T00:00:00Z'

function makeSource(root) {
  const files = {
    'plugforge.json': '{"name": "demo", "version": "1.0.0", "description": "d", "author": {"name": "a"}}',
    'skills/tidy/SKILL.md': '---\nname: tidy\ndescription: Tidies things\n---\nTidy up.\n',
    'commands/hi.md': '---\ndescription: Say hi\n---\nHi $ARGUMENTS\n',
    'bin/tool': '#!/bin/sh\necho tool\n',
  }
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true })
    fs.writeFileSync(path.join(root, rel), text)
  }
  fs.chmodSync(path.join(root, 'bin/tool'), 0o755)
}

/** relative path -> [bytes as hex, executable] of every file below `root`. */
function tree(root) {
  const found = {}
  for (const rel of fs.readdirSync(root, { recursive: true })) {
    const full = path.join(root, rel)
    const stat = fs.statSync(full)
    if (stat.isFile()) found[rel.split(path.sep).join('/')] = [fs.readFileSync(full).toString('hex'), (stat.mode & 0o111) !== 0]
  }
  return found
}

function thrown(action) {
  try {
    action()
  } catch (error) {
    return error
  }
  assert.fail('expected a throw')
}

test('links inside the source read as their files; hard links as plain files', (t) => {
  const src = tempDir(t, 'link-inside')
  makeSource(src)
  fs.mkdirSync(path.join(src, 'docs'))
  fs.writeFileSync(path.join(src, 'docs/shared.md'), 'shared\n')
  fs.symlinkSync('../../docs/shared.md', path.join(src, 'skills/tidy/shared.md'))
  fs.linkSync(path.join(src, 'docs/shared.md'), path.join(src, 'skills/tidy/hard.md'))
  const files = Object.fromEntries(readTree(src).map((f) => [f.path, f.bytes.toString()]))
  assert.equal(files['skills/tidy/shared.md'], 'shared\n')
  assert.equal(files['skills/tidy/hard.md'], 'shared\n')
})

test('readTree refuses links leading outside, nowhere or in a loop, and FIFOs, by name', (t) => {
  const dir = tempDir(t, 'link-outside')
  const secret = path.join(dir, 'secret')
  fs.mkdirSync(secret)
  fs.writeFileSync(path.join(secret, 'key.txt'), 'do not read\n')
  const cases = {
    'skills/tidy/key.txt': (src) => fs.symlinkSync(path.join(secret, 'key.txt'), path.join(src, 'skills/tidy/key.txt')),
    'skills/tidy/all': (src) => fs.symlinkSync(secret, path.join(src, 'skills/tidy/all')),
    'commands/gone.md': (src) => fs.symlinkSync('nowhere.md', path.join(src, 'commands/gone.md')),
    'commands/loop.md': (src) => {
      fs.symlinkSync('loop-b.md', path.join(src, 'commands/loop.md'))
      fs.symlinkSync('loop.md', path.join(src, 'commands/loop-b.md'))
    },
    'bin/pipe': (src) => execFileSync('mkfifo', [path.join(src, 'bin/pipe')]),
  }
  for (const [n, [named, make]] of Object.entries(cases).entries()) {
    const src = path.join(dir, `src${n}`)
    makeSource(src)
    make(src)
    const error = thrown(() => readTree(src))
    assert.equal(error.code, 'io', named)
    assert.ok(error.message.includes(`${named}: `), `${named}: ${error.message}`)
    const out = path.join(dir, `out${n}`)
    assert.equal(thrown(() => buildToDir(src, out, {}, { generatedAt: AT })).code, 'io')
    assert.ok(!fs.existsSync(out), `${named}: nothing written`)
  }
})

test('file names that are not UTF-8 are refused by name, shown with escapes, and nothing is written', (t) => {
  const dir = tempDir(t, 'not-utf8')
  const src = path.join(dir, 'src')
  makeSource(src)
  // "café" in Latin-1 and "cafè": two names, one each if read as text.
  const folder = Buffer.from(path.join(src, 'skills/tidy/'))
  fs.writeFileSync(Buffer.concat([folder, Buffer.from([0x63, 0x61, 0x66, 0xe9])]), 'first\n')
  fs.writeFileSync(Buffer.concat([folder, Buffer.from([0x63, 0x61, 0x66, 0xe8])]), 'second\n')
  const error = thrown(() => readTree(src))
  assert.equal(error.code, 'io')
  for (const shown of ['skills/tidy/caf\\xe9: ', 'skills/tidy/caf\\xe8: ']) {
    assert.ok(error.message.includes(shown), `${shown}\n${error.message}`)
  }
  const out = path.join(dir, 'out')
  assert.equal(thrown(() => buildToDir(src, out, {}, { generatedAt: AT })).code, 'io')
  assert.ok(!fs.existsSync(out), 'nothing written')
})

test('a symlinked bundle folder in the output root is refused and nothing is written', (t) => {
  const dir = tempDir(t, 'out-link')
  const src = path.join(dir, 'src')
  makeSource(src)
  const elsewhere = path.join(dir, 'elsewhere')
  fs.mkdirSync(elsewhere)
  const out = path.join(dir, 'out')
  fs.mkdirSync(out)
  fs.symlinkSync(elsewhere, path.join(out, 'claude-code'))
  const error = thrown(() => buildToDir(src, out, {}, { generatedAt: AT }))
  assert.equal(error.code, 'io')
  assert.match(error.message, /claude-code\/ is a symbolic link/)
  assert.deepEqual(fs.readdirSync(elsewhere), [])
  assert.deepEqual(fs.readdirSync(out), ['claude-code'])
})

test('a rerun after an interrupted build converges and sweeps temp files', (t) => {
  const dir = tempDir(t, 'interrupted')
  const src = path.join(dir, 'src')
  makeSource(src)
  const reference = path.join(dir, 'reference')
  buildToDir(src, reference, {}, { generatedAt: AT })
  const out = path.join(dir, 'out')
  buildToDir(src, out, {}, { generatedAt: AT })
  // What a kill before the last renames leaves: no manifest yet, a file not yet
  // renamed into place, and half-written temp files (this and the earlier naming).
  fs.rmSync(path.join(out, 'claude-code/.plugforge-manifest.json'))
  fs.rmSync(path.join(out, 'claude-code/bin/tool'))
  fs.writeFileSync(path.join(out, 'claude-code/bin/.plugforge-tmp-4242-7'), '#!/bin/')
  fs.writeFileSync(path.join(out, 'claude-code/.plugforge-tmp-4242-9'), '{')
  fs.writeFileSync(path.join(out, 'claude-code/.plugin.json.plugforge-4242.tmp'), '{')
  assert.ok(!Object.keys(observe(out).hashes).some((p) => p.includes('plugforge-tmp')))
  buildToDir(src, out, {}, { generatedAt: AT })
  assert.deepEqual(tree(out), tree(reference))
})

// PLUGFORGE_FAIL_AFTER_WRITES=N makes the N-th file operation kill the
// process halfway through (the Rust CLI's own crash hook): `npx plugforge`
// runs that very code, so a build killed there must converge on a rerun to
// the bytes the Rust binary writes uninterrupted.
test('npx plugforge killed at a file operation converges on rerun, byte for byte with the Rust binary', (t) => {
  const dir = tempDir(t, 'npx-crash')
  const src = path.join(dir, 'src')
  makeSource(src)
  const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000', NO_COLOR: '1' }
  const args = (out) => ['build', src, '--target', 'claude-code,codex', '--out', out]
  const reference = path.join(dir, 'reference')
  const rust = run(rustCli(), args(reference), { env })
  assert.equal(rust.code, 0, rust.stderr)
  const expected = tree(reference)
  for (const operation of [1, 2, 5, 9, 14]) {
    const out = path.join(dir, `crash${operation}`)
    const killed = spawnSync(process.execPath, [binJs, ...args(out)], {
      env: { ...env, PLUGFORGE_FAIL_AFTER_WRITES: String(operation) },
      encoding: 'utf8',
    })
    assert.equal(killed.signal, 'SIGABRT', `operation ${operation}: killed, not exit ${killed.status}\n${killed.stderr}`)
    const rerun = run(process.execPath, [binJs, ...args(out)], { env })
    assert.equal(rerun.code, 0, `operation ${operation}: ${rerun.stderr}`)
    const got = tree(out)
    assert.deepEqual(Object.keys(got).filter((p) => p.includes('plugforge-tmp')), [], `operation ${operation}: temp files left`)
    assert.deepEqual(got, expected, `operation ${operation}: the rerun differs from an uninterrupted build`)
  }
})

test('applyPlan leaves a file edited after the plan saw it, names it, and writes the rest', (t) => {
  const src = tempDir(t, 'edit-src')
  const out = tempDir(t, 'edit-out')
  makeSource(src)
  buildToDir(src, out, {}, { generatedAt: AT })
  fs.writeFileSync(path.join(src, 'commands/hi.md'), '---\ndescription: Say hi\n---\nHello $ARGUMENTS\n')
  fs.writeFileSync(path.join(src, 'skills/tidy/SKILL.md'), '---\nname: tidy\ndescription: Tidies\n---\nTidy.\n')
  const built = build(readTree(src))
  const plan = built.plan(observe(out, built.pathsToRead()), { generatedAt: AT })
  const command = plan.actions.find((a) => a.path.endsWith('commands/hi.md'))
  assert.equal(command.op, 'update')
  assert.ok(command.found, 'the plan carries what it saw')
  // The user saves the command between the plan and the write.
  fs.writeFileSync(path.join(out, command.path), 'my own words\n')
  const error = thrown(() => applyPlan(out, plan))
  assert.equal(error.code, 'conflict')
  assert.match(error.message, /changed while this run was writing/)
  assert.ok(error.message.includes(command.path), error.message)
  assert.equal(fs.readFileSync(path.join(out, command.path), 'utf8'), 'my own words\n')
  const skill = plan.actions.find((a) => a.path.endsWith('skills/tidy/SKILL.md'))
  assert.equal(fs.readFileSync(path.join(out, skill.path), 'utf8'), '---\nname: tidy\ndescription: Tidies\n---\nTidy.\n')
})

test('buildToDir waits for the lock another process holds on the output root', (t) => {
  const src = tempDir(t, 'lock-src')
  const out = tempDir(t, 'lock-out')
  makeSource(src)
  const ready = path.join(tempDir(t, 'lock-ready'), 'ready')
  const holder = spawn(process.execPath, [
    '-e',
    "const fs = require('node:fs'); const { withLock } = require('plugforge');" +
      "withLock(process.argv[1], () => { fs.writeFileSync(process.argv[2], 'locked'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000) })",
    out,
    ready,
  ], { stdio: 'inherit' })
  const exited = new Promise((resolve) => holder.on('exit', resolve))
  return (async () => {
    while (!fs.existsSync(ready)) await new Promise((resolve) => setTimeout(resolve, 20))
    const started = performance.now()
    const { plan } = buildToDir(src, out, {}, { generatedAt: AT })
    const waited = performance.now() - started
    assert.equal(await exited, 0)
    assert.ok(waited > 1000, `built in ${waited} ms while another process held the lock`)
    assert.ok(plan.summary.create > 0 && fs.existsSync(path.join(out, 'claude-code/.plugforge-manifest.json')))
  })()
})
