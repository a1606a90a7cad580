// The typings hold up: `tsc --strict` compiles a consumer written against
// the package from ESM and from CommonJS (test/types/).
import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'

import { pkgDir, run } from './support.mjs'

test('tsc --strict compiles ESM and CommonJS consumers against index.d.ts and lib/host.d.ts', () => {
  const tsc = path.join(pkgDir, 'node_modules', 'typescript', 'bin', 'tsc')
  const result = run(process.execPath, [tsc, '-p', path.join(pkgDir, 'test', 'types', 'tsconfig.json')], { cwd: pkgDir })
  assert.equal(result.code, 0, result.stdout + result.stderr)
})
