// The typings hold up: `tsc --strict` compiles a consumer written against
// the package from ESM and from CommonJS (test/types/), and the option types
// of src/header.d.ts (generated from the core's Rust types by
// tests/typings.rs) name exactly the keys the engine takes.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { build, doctorPathsToRead, importPlugin, starterSource, uninstallPathsToRead, validate } from 'plugforge'
import { pkgDir, run } from './support.mjs'

test('tsc --strict compiles ESM and CommonJS consumers against index.d.ts and lib/host.d.ts', () => {
  const tsc = path.join(pkgDir, 'node_modules', 'typescript', 'bin', 'tsc')
  const result = run(process.execPath, [tsc, '-p', path.join(pkgDir, 'test', 'types', 'tsconfig.json')], { cwd: pkgDir })
  assert.equal(result.code, 0, result.stdout + result.stderr)
})

const header = fs.readFileSync(path.join(pkgDir, 'src', 'header.d.ts'), 'utf8')

/** The keys an object type of src/header.d.ts declares (its top level only). */
function declared(name) {
  const body = header.match(new RegExp(`export type ${name} = \\{([\\s\\S]*?)\\};\\n`))
  assert.ok(body, `type ${name} in src/header.d.ts`)
  // Doc comments out, then every nested {...} out, so only the top level's keys are left.
  let text = body[1].replace(/\/\*\*[\s\S]*?\*\//g, '')
  while (/\{[^{}]*\}/.test(text)) text = text.replace(/\{[^{}]*\}/g, '')
  return [...text.matchAll(/(?:^|,)\s*(\w+)\??:/g)].map((m) => m[1]).sort()
}

/** The keys the engine takes: its unknown-key error lists them all. */
function accepted(call) {
  try {
    call({ notAnOption: true })
  } catch (error) {
    assert.equal(error.code, 'invalid_options', error.message)
    return [...error.message.matchAll(/`(\w+)`/g)].map((m) => m[1]).filter((k) => k !== 'notAnOption').sort()
  }
  assert.fail('an unknown key was accepted')
}

test('the option typings match the options the engine takes', () => {
  assert.deepEqual(declared('BuildOptions'), accepted((o) => build([], o)))
  assert.deepEqual(declared('PlanOptions'), accepted((o) => build(starterSource('demo')).plan({}, o)))
  assert.deepEqual(declared('UninstallOptions'), accepted((o) => uninstallPathsToRead(o)))
  assert.deepEqual(declared('DoctorOptions'), accepted((o) => doctorPathsToRead(o)))
  assert.deepEqual(declared('ValidateOptions'), accepted((o) => validate([], o)))
  assert.deepEqual(declared('ImportOptions'), accepted((o) => importPlugin([], o)))
})
