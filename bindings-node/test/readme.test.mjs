// The README's examples run as written (only their folders point into a
// temp folder), through the package's public entry points; the three-line
// build is then judged by the real Claude Code CLI: `plugin validate
// --strict` on the plugin and on the marketplace root, with no warnings.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { createFiles, starterSource } from 'plugforge'
import { claudeBin, pkgDir, readFiles, repoDir, run, tempDir } from './support.mjs'

const blocks = [...fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8').matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1])

/** Runs a README block with `node -e` from inside the package (so `plugforge` resolves to it). */
function runBlock(code, esm) {
  const args = esm ? ['--input-type=module', '-e', code] : ['-e', code]
  const result = run(process.execPath, args, { cwd: pkgDir })
  assert.equal(result.code, 0, `README example failed:\n${code}\n${result.stderr}`)
  return result
}


test('the three-line example builds Striatum, and Claude Code validates it with no warning', (t) => {
  const out = path.join(tempDir(t, 'readme'), 'dist', 'striatum')
  const code = blocks[0]
  assert.ok(code.includes("'examples/striatum'") && code.includes("'dist/striatum'"), code)
  assert.ok(code.trim().split('\n').length <= 3, 'three lines')
  runBlock(code.replace("'examples/striatum'", JSON.stringify(path.join(repoDir, 'examples/striatum'))).replace("'dist/striatum'", JSON.stringify(out)), false)
  const files = readFiles(out)
  assert.ok(files.has('claude-code/.claude-plugin/plugin.json'))
  assert.ok(files.has('.claude-plugin/marketplace.json'))

  const claude = claudeBin(t)
  if (!claude) return
  const inventory = run('python3', [
    path.join(repoDir, 'core/src/runtime/claude_code/drivers/claude_inventory.py'),
    ...['--claude', claude, '--plugin-dir', path.join(out, 'claude-code')],
    ...['--marketplace-root', out, '--plugin', 'striatum'],
  ])
  assert.equal(inventory.code, 0, `claude_inventory.py failed:\n${inventory.stderr}`)
  const report = JSON.parse(inventory.stdout)
  for (const step of ['validate_plugin', 'validate_marketplace']) {
    assert.equal(report[step].exit, 0, `${step}: ${report[step].output}`)
    assert.equal(report[step].warnings, 0, `${step}: ${report[step].output}`)
    assert.equal(report[step].errors, 0, `${step}: ${report[step].output}`)
  }
  for (const step of ['marketplace_add', 'install']) assert.equal(report[step].exit, 0, `${step}: ${report[step].output}`)
})

test('the step-by-step example builds a starter source', (t) => {
  const dir = tempDir(t, 'steps')
  createFiles(path.join(dir, 'my-plugin'), starterSource('my-plugin'))
  const code = blocks[1].replaceAll("'my-plugin'", JSON.stringify(path.join(dir, 'my-plugin'))).replace("'dist/my-plugin'", JSON.stringify(path.join(dir, 'out')))
  const { stdout } = runBlock(code, true)
  assert.match(stdout, /^create claude-code\/\.claude-plugin\/plugin\.json/m)
  assert.ok(readFiles(path.join(dir, 'out')).has('claude-code/.plugforge-manifest.json'))
})
