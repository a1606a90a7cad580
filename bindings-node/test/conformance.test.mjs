// Every golden vector through the Node binding: the case's source read with
// the package's own readTree, built, planned on an empty output folder (all
// creates), and compared with expected/ (path set, bytes, executable bits);
// every manifest-listed file's sha256 recomputed with node:crypto, and the
// honesty rows and diagnostics compared with report.json. Error
// cases must throw an Error with the vector's code, message and location.
// Every rule fixture (<area>/<what>/{fail,pass}) validated gives exactly its
// blessed report, and every import case exactly its expected/ source and
// notes.json. The cases are those scripts/lib/conformance_cases.py lists
// (tests/<suite>/ and each runtime's folder).
// The names run are recorded for the guard (scripts/check-conformance node).
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'

import { build, importPlugin, readTree, runtimes, validate } from 'plugforge'
import { conformanceCases, readFiles, repoDir, sha256 } from './support.mjs'

const vectors = new Map(conformanceCases('vectors').map(({ name, dir }) => [name, dir]))
const names = [...vectors.keys()]
const passed = []
const rulesPassed = []
const importsPassed = []

function load(name) {
  const dir = vectors.get(name)
  const file = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8'))
  const errorPath = path.join(dir, 'error.json')
  const expectedError = fs.existsSync(errorPath) ? JSON.parse(fs.readFileSync(errorPath, 'utf8')) : null
  return { dir, file, expectedError, source: path.join(dir, file.source ?? 'input') }
}

/** Builds the case into an empty output folder: path -> {bytes, executable}, and the bundles. */
function produce({ file, source }) {
  const output = build(readTree(source), file.options)
  const plan = output.plan({ hashes: {}, contents: {} }, { generatedAt: file.generatedAt })
  const tree = new Map()
  for (const action of plan.actions) {
    assert.equal(action.op, 'create', `${action.path}: a fresh root only creates`)
    assert.ok(Buffer.isBuffer(action.bytes), `${action.path}: bytes cross as a Buffer`)
    assert.equal(action.sha256, sha256(action.bytes), `${action.path}: action sha256`)
    tree.set(action.path, { bytes: action.bytes, executable: action.executable })
  }
  return { tree, bundles: output.bundles, output }
}

/** A value as plain JSON with null and absent fields left out, as the core writes report.json. */
function plain(value) {
  if (Array.isArray(value)) return value.map(plain)
  if (value === null || typeof value !== 'object') return value
  const out = {}
  for (const [key, field] of Object.entries(value)) if (field !== null && field !== undefined) out[key] = plain(field)
  return out
}

/** The build's honesty rows and diagnostics must be the blessed report.json, field for field. */
function checkReport(name, { output, bundles }, dir) {
  const report = plain({
    bundles: bundles.map((b) => ({ runtime: b.runtime, kind: b.kind, honesty: b.honesty, diagnostics: b.diagnostics })),
    diagnostics: output.diagnostics,
    failures: output.failures,
  })
  const want = JSON.parse(fs.readFileSync(path.join(dir, 'report.json'), 'utf8'))
  assert.deepEqual(report, want, `${name}: honesty rows or diagnostics differ`)
}

/** Every bundle's manifest lists files (below the bundle's root) whose sha256 node:crypto agrees with. */
function checkHashes(name, { tree, bundles }) {
  let checked = 0
  for (const bundle of bundles) {
    const manifest = tree.get(bundle.manifest)
    assert.ok(manifest, `${name}: manifest ${bundle.manifest} not written`)
    for (const listed of JSON.parse(manifest.bytes.toString('utf8')).files) {
      const rel = bundle.root === '' ? listed.path : `${bundle.root}/${listed.path}`
      const file = tree.get(rel)
      assert.ok(file, `${name}: ${rel} listed, not written`)
      assert.equal(listed.sha256, sha256(file.bytes), `${name}: ${rel} sha256`)
      assert.equal(listed.executable ?? false, file.executable, `${name}: ${rel} mode`)
      checked += 1
    }
  }
  assert.ok(checked > 0, `${name}: no manifest entries checked`)
}

function checkTree(name, vector) {
  const result = produce(vector)
  checkHashes(name, result)
  checkReport(name, result, vector.dir)
  const produced = result.tree
  const expected = readFiles(path.join(vector.dir, 'expected'))
  assert.deepEqual([...produced.keys()].sort(), [...expected.keys()], `${name}: path set`)
  for (const [rel, { bytes, executable }] of produced) {
    const want = expected.get(rel)
    assert.equal(bytes.toString('utf8'), want.bytes.toString('utf8'), `${name}: ${rel} differs`)
    assert.ok(bytes.equals(want.bytes), `${name}: ${rel} bytes`)
    assert.equal(executable, want.executable, `${name}: ${rel} executable bit`)
  }
}

function checkError(name, vector) {
  const want = vector.expectedError
  assert.throws(
    () => produce(vector),
    (error) => {
      assert.ok(error instanceof Error, `${name}: an Error`)
      assert.equal(error.code, want.code, `${name}: code (${error.message})`)
      assert.ok(error.message.includes(want.message_contains), `${name}: message ${JSON.stringify(error.message)}`)
      assert.ok(Array.isArray(error.problems) && error.problems.length > 0, `${name}: problems`)
      const location = error.problems[0].location
      assert.equal(location?.file ?? null, want.file ?? null, `${name}: file`)
      assert.equal(location?.line ?? null, want.line ?? null, `${name}: line`)
      return true
    },
  )
}

test('the vectors are all there', () => {
  assert.ok(names.length >= 10, `vectors went missing: ${names.length}`)
})

for (const name of names) {
  test(`vector ${name}`, () => {
    const vector = load(name)
    if (vector.expectedError) checkError(name, vector)
    else checkTree(name, vector)
    passed.push(name)
  })
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'))

// A blessed report says `{markers}` where its text lists every runtime's marker
// files (so adding a runtime changes no fixture): every marketplace file, then
// every plugin marker, each once, in registry order (tests/src/rules.rs).
const markerFiles = (() => {
  const listed = runtimes()
  return [...new Set([...listed.map((r) => r.marketplace), ...listed.map((r) => r.marker)].filter(Boolean))].join(', ')
})()
const expandPlaceholders = (value) =>
  JSON.parse(JSON.stringify(value), (_, v) => (typeof v === 'string' ? v.replaceAll('{markers}', markerFiles) : v))

for (const { name: code, dir } of conformanceCases('rules')) {
  for (const side of ['fail', 'pass']) {
    test(`rule fixture ${code}/${side}`, () => {
      const { options } = readJson(path.join(dir, 'case.json'))
      const report = validate(readTree(path.join(dir, side)), options)
      const produced = JSON.parse(JSON.stringify(report))
      assert.deepEqual(produced, expandPlaceholders(readJson(path.join(dir, `${side}.json`))), `${code}/${side}: report`)
      const carries = report.findings.some((f) => f.code === code)
      assert.equal(carries, side === 'fail', `${code}/${side}: reports ${code}`)
      rulesPassed.push(`${code}/${side}`)
    })
  }
}

for (const { name, dir } of conformanceCases('imports')) {
  test(`import case ${name}`, () => {
    const { options } = readJson(path.join(dir, 'case.json'))
    const imported = importPlugin(readTree(path.join(dir, 'input')), options)
    const expected = readFiles(path.join(dir, 'expected'))
    assert.deepEqual(imported.files.map((f) => f.path), [...expected.keys()], `${name}: path set`)
    for (const file of imported.files) {
      const want = expected.get(file.path)
      assert.ok(Buffer.isBuffer(file.bytes), `${name}: ${file.path} bytes cross as a Buffer`)
      assert.equal(file.bytes.toString('utf8'), want.bytes.toString('utf8'), `${name}: ${file.path} differs`)
      assert.ok(file.bytes.equals(want.bytes), `${name}: ${file.path} bytes`)
      assert.equal(file.executable, want.executable, `${name}: ${file.path} executable bit`)
    }
    assert.deepEqual(JSON.parse(JSON.stringify(imported.notes)), readJson(path.join(dir, 'notes.json')), `${name}: notes`)
    importsPassed.push(name)
  })
}

after(() => {
  const dir = process.env.PLUGFORGE_CONFORMANCE_DIR || path.join(repoDir, 'target', 'conformance')
  fs.mkdirSync(dir, { recursive: true })
  const record = (suffix, ran) =>
    fs.writeFileSync(path.join(dir, `node${suffix}.json`), `${JSON.stringify(ran.sort(), null, 2)}\n`)
  record('', passed)
  record('.rules', rulesPassed)
  record('.imports', importsPassed)
})
