// The typings hold up: `tsc --strict` compiles a consumer written against
// the package from ESM and from CommonJS (test/types/), and the option types
// of src/header.d.ts (generated from the core's Rust types by
// tests/typings.rs) name exactly the keys the engine takes.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { build, doctorPathsToRead, importPlugin, starterSource, uninstallPathsToRead, validate } from 'plugforge'
import { addVocabulary } from '../release/wasi-vocabulary.mjs'
import { pkgDir, run, tempDir } from './support.mjs'

const tsc = path.join(pkgDir, 'node_modules', 'typescript', 'bin', 'tsc')

test('tsc --strict compiles ESM and CommonJS consumers against index.d.ts and lib/host.d.ts', () => {
  const result = run(process.execPath, [tsc, '-p', path.join(pkgDir, 'test', 'types', 'tsconfig.json')], { cwd: pkgDir })
  assert.equal(result.code, 0, result.stdout + result.stderr)
})

// The WASI fallback's package ships plugforge.wasi.d.cts, which imports the
// vocabulary from './vocabulary.cjs' as index.d.ts does: laid out as the release
// lays it out (napi's files, then release/wasi-vocabulary.mjs), its typings
// resolve and carry the runtime ids; without the vocabulary they do not.
test('the WASI package, as released, has typings that carry the vocabulary', (t) => {
  const consumer = tempDir(t, 'wasi-types')
  const installed = path.join(consumer, 'node_modules', 'plugforge-wasm32-wasi')
  fs.mkdirSync(installed, { recursive: true })
  for (const file of ['package.json', 'plugforge.wasi.d.cts']) {
    const from = file === 'package.json' ? path.join(pkgDir, 'npm', 'wasm32-wasi', file) : path.join(pkgDir, file)
    fs.copyFileSync(from, path.join(installed, file))
  }
  fs.writeFileSync(path.join(consumer, 'consumer.cts'), [
    "import type { RuntimeId, Component, BuildOptions } from 'plugforge-wasm32-wasi'",
    "const runtime: RuntimeId = 'qwen-code'",
    "const component: Component = 'skill'",
    "const options: BuildOptions = { targets: [{ runtime: 'codex' }] }",
    '// @ts-expect-error: not a runtime id',
    "const wrong: RuntimeId = 'not-a-runtime'",
    'export { runtime, component, options, wrong }',
    '',
  ].join('\n'))
  fs.writeFileSync(path.join(consumer, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022', lib: ['es2022'], strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [path.join(pkgDir, 'node_modules', '@types')] },
    files: ['consumer.cts'],
  }))
  const compile = () => run(process.execPath, [tsc, '-p', path.join(consumer, 'tsconfig.json')], { cwd: consumer })
  const without = compile()
  assert.notEqual(without.code, 0, 'compiled without the vocabulary beside plugforge.wasi.d.cts')
  assert.match(without.stdout, /plugforge\.wasi\.d\.cts.*'\.\/vocabulary\.cjs'/)

  addVocabulary(installed)
  const pkg = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'))
  assert.ok(pkg.files.includes('vocabulary.d.cts'), `${pkg.files}`)
  assert.match(fs.readFileSync(path.join(installed, 'vocabulary.d.cts'), 'utf8'), /export type RuntimeId = "claude-code" \|/)
  const result = compile()
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
