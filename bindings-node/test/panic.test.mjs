// No panic crosses the binding: a panic inside the engine arrives as a thrown
// Error with the stable code `internal`, and the process and the addon keep
// working. `__panicForTests` (native only, not in the package's exports or
// typings) is the deliberate panic path; every entry runs in the same guard
// (src/panic.rs).
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { test } from 'node:test'

import { build } from 'plugforge'

const native = createRequire(import.meta.url)('../index.js')

const source = [{ path: 'plugforge.json', bytes: Buffer.from('{"name": "p", "version": "1.0.0"}') }]

test('a panic is an internal error and the next call works', () => {
  assert.equal(typeof native.__panicForTests, 'function')
  for (let round = 0; round < 2; round++) {
    assert.throws(
      () => native.__panicForTests(),
      (error) => {
        assert.ok(error instanceof Error)
        assert.equal(error.code, 'internal')
        assert.match(error.message, /^internal error in plugforge \(please report it\): deliberate panic/)
        assert.deepEqual(error.problems, [])
        return true
      },
    )
    const output = build(source, { targets: [{ runtime: 'claude-code' }] })
    assert.ok(output.bundles[0].files.some((f) => f.path === '.claude-plugin/plugin.json'))
  }
})

test('the test-only entry is not part of the package', async () => {
  const esm = await import('plugforge')
  assert.equal(esm.__panicForTests, undefined)
  assert.equal(esm.default?.__panicForTests, undefined)
})
