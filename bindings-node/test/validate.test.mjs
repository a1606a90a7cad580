// validate, importPlugin and rules through the Node binding: the report's
// JSON shape, options in the core's shape, errors with `code`, the catalog.
// Every fixture and import case runs in conformance.test.mjs.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { importPlugin, rules, validate } from 'plugforge'
import { repoDir } from './support.mjs'

const file = (p, text) => ({ path: p, bytes: Buffer.from(text) })
const manifest = file('.claude-plugin/plugin.json', '{"name": "demo", "version": "1.0.0", "description": "d", "author": {"name": "a"}}')

function thrown(action) {
  try {
    action()
  } catch (error) {
    return error
  }
  assert.fail('expected a throw')
}

test('a folder with no plugin is invalid: detect/no-plugin, no subjects', () => {
  const report = validate([file('notes.txt', 'nothing\n')])
  assert.equal(report.schema, 'plugforge.validate.v1')
  assert.equal(report.valid, false)
  assert.equal(report.strict, false)
  assert.deepEqual(report.subjects, [])
  assert.equal(report.errors, 1)
  const [finding] = report.findings
  assert.equal(finding.code, 'detect/no-plugin')
  assert.equal(finding.severity, 'error')
  assert.equal(finding.file, undefined)
  assert.match(finding.fix, /--target/)
})

test('subjects come from markers; target restricts them; strict is reported', () => {
  const files = [manifest, { ...manifest, path: '.codex-plugin/plugin.json' }]
  const runtimes = (report) => report.subjects.map((s) => s.runtime)
  assert.deepEqual(runtimes(validate(files)), ['claude-code', 'codex'])
  const codex = validate(files, { target: 'codex', strict: true })
  assert.deepEqual(codex.subjects, [{ kind: 'plugin', runtime: 'codex', root: '', marker: '.codex-plugin/plugin.json' }])
  assert.equal(codex.strict, true)
  assert.ok(codex.findings.every((f) => f.severity === 'error'))
})

test('a plugforge source is one subject with a null runtime', () => {
  const report = validate([file('plugforge.json', '{"name": "demo", "version": "1.0.0"}')])
  assert.deepEqual(report.subjects, [{ kind: 'source', runtime: null, root: '', marker: 'plugforge.json' }])
})

test('bad options throw with the error codes of the table', () => {
  assert.equal(thrown(() => validate([manifest], { target: 'nonesuch' })).code, 'unsupported_runtime')
  assert.equal(thrown(() => validate([manifest], { strict: 'yes' })).code, 'invalid_options')
  assert.equal(thrown(() => validate([file('../x', '')])).code, 'invalid_path')
  assert.equal(thrown(() => importPlugin([manifest], { from: 'nonesuch' })).code, 'unsupported_runtime')
  assert.equal(thrown(() => importPlugin([manifest], { into: 'x' })).code, 'invalid_options')
})

test('rules() is the catalog of docs/rules.md, codes unique and area/what', () => {
  const catalog = rules()
  assert.ok(catalog.length > 0)
  const codes = catalog.map((r) => r.code)
  assert.equal(new Set(codes).size, codes.length, 'unique codes')
  const doc = fs.readFileSync(path.join(repoDir, 'docs', 'rules.md'), 'utf8')
  for (const rule of catalog) {
    assert.match(rule.code, /^[a-z0-9]+(-[a-z0-9]+)*\/[a-z0-9]+(-[a-z0-9]+)*$/)
    assert.ok(['error', 'warning'].includes(rule.severity), rule.code)
    assert.ok(Array.isArray(rule.runtimes) && rule.summary && rule.fix, rule.code)
    assert.ok(doc.includes(`| \`${rule.code}\` | ${rule.severity} |`), `${rule.code} in docs/rules.md`)
  }
  assert.deepEqual(
    catalog.find((r) => r.code === 'detect/no-plugin'),
    {
      code: 'detect/no-plugin',
      severity: 'error',
      runtimes: [],
      summary:
        'The folder holds a plugforge source, a plugin or a marketplace of a known runtime, or a folder of Agent Skills (`skills/<name>/SKILL.md`, `<name>/SKILL.md`).',
      fix: "Point validate at the plugin's root folder, or name the runtime with --target.",
    },
  )
})
