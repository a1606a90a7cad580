// The typings hold up: `tsc --strict` compiles a consumer written against
// the nodejs package's .d.ts (src/types.d.ts, generated from the Rust types,
// plus wasm-bindgen's function signatures), misspelt options included as
// expected errors. scripts/test-wasm passes the pinned tsc as PLUGFORGE_TSC.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))

test('tsc --strict compiles a consumer against the package typings', () => {
  assert.ok(process.env.PLUGFORGE_TSC, 'PLUGFORGE_TSC names the tsc to run (scripts/test-wasm installs and sets it)')
  const result = spawnSync(process.execPath, [process.env.PLUGFORGE_TSC, '-p', path.join(here, 'types', 'tsconfig.json')], { encoding: 'utf8' })
  assert.equal(result.status, 0, result.stdout + result.stderr)
})
