// The release workflow (.github/workflows/release.yml) is not run here, so
// it is read: valid YAML, a build for every napi target, publishing only
// after every build and smoke test; and the platform packages it fills
// agree with the main package's optionalDependencies and version.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { test } from 'node:test'

import { withOptionalDependencies } from '../release/optional-dependencies.mjs'
import { pkgDir, repoDir } from './support.mjs'

const yaml = createRequire(import.meta.url)('js-yaml')
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'))
const workflowFile = path.join(repoDir, '.github', 'workflows', 'release.yml')

/** `npm/<platform>` of a napi target triple, as `napi create-npm-dirs` names it. */
function platformOf(triple) {
  if (triple.startsWith('wasm32-wasip1')) return 'wasm32-wasi'
  const [cpu, , os, abi] = triple.split('-')
  const arch = { x86_64: 'x64', aarch64: 'arm64' }[cpu]
  const platform = { linux: 'linux', darwin: 'darwin', windows: 'win32' }[os]
  return [platform, arch, abi].filter(Boolean).join('-')
}

test('release.yml parses, and builds every napi target before publishing', () => {
  const workflow = yaml.load(fs.readFileSync(workflowFile, 'utf8'))
  assert.equal(typeof workflow, 'object')
  assert.deepEqual(workflow.on.push.tags, ['v*'])
  const { build, smoke, publish } = workflow.jobs
  const built = build.strategy.matrix.include.map((row) => row.target).sort()
  assert.deepEqual(built, [...pkg.napi.targets].sort())
  for (const row of build.strategy.matrix.include) {
    assert.match(row.build, new RegExp(`^npx napi build --platform --release --target ${row.target}( |$)`), row.target)
    assert.ok(row.os, row.target)
  }
  for (const row of smoke.strategy.matrix.include) {
    assert.ok(pkg.napi.targets.includes(row.target), row.target)
    assert.equal(row.platform, platformOf(row.target))
  }
  assert.deepEqual(publish.needs, ['build', 'smoke'])
  // The WASI package's typings import ./vocabulary.cjs: it is put beside them
  // after napi artifacts filled the package and before anything is packed.
  const runs = publish.steps.map((step) => step.run ?? '')
  const artifacts = runs.findIndex((r) => r.includes('napi artifacts'))
  const vocabulary = runs.findIndex((r) => r.includes('node release/wasi-vocabulary.mjs'))
  const packed = runs.findIndex((r) => /npm (pack|publish)/.test(r))
  assert.ok(artifacts >= 0 && artifacts < vocabulary && vocabulary < packed, `publish steps: ${runs}`)
  assert.equal(publish.permissions['id-token'], 'write')
  for (const [name, job] of Object.entries(workflow.jobs)) {
    assert.ok(job['runs-on'], `${name}: runs-on`)
    for (const step of job.steps) assert.ok(step.uses || step.run, `${name}: a step with neither uses nor run`)
  }
})

test('every napi target has its npm/<platform> package, optional in the published main package, at its version', () => {
  const platforms = pkg.napi.targets.map(platformOf).sort()
  assert.deepEqual(fs.readdirSync(path.join(pkgDir, 'npm')).sort(), platforms)
  const optional = Object.fromEntries(platforms.map((p) => [`plugforge-${p}`, pkg.version]))
  // Written only into the published package.json: here npm ci would look them up.
  assert.equal(pkg.optionalDependencies, undefined)
  assert.deepEqual(withOptionalDependencies(pkg).optionalDependencies, optional)
  for (const platform of platforms) {
    const sub = JSON.parse(fs.readFileSync(path.join(pkgDir, 'npm', platform, 'package.json'), 'utf8'))
    assert.equal(sub.name, `plugforge-${platform}`)
    assert.equal(sub.version, pkg.version, platform)
    assert.equal(sub.license, pkg.license, platform)
  }
})
