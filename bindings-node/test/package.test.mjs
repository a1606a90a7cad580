// The package as users get it: `npm pack` of the main package and of its
// linux-x64-gnu platform package (the addon), both tarballs installed
// offline into a fresh folder, then used from ESM (`import`), CommonJS
// (`require`) and its `plugforge` bin. platforms.test.mjs does the same for
// every other platform this machine can run.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'

import { installTarballs, pack, packMain, packPlatform, pkgDir, repoDir, run, tempDir } from './support.mjs'

const striatum = JSON.stringify(path.join(repoDir, 'examples', 'striatum'))

const smoke = (load) => `
${load}
const out = require('node:path').join(process.cwd(), 'out')
const { build, plan } = buildToDir(${striatum}, out, { vars: { runner_version: '0.7.3' } }, { generatedAt: '2026-01-01T00:00:00Z' })
const bundle = build.bundles[0]
if (plan.refused || plan.summary.create < 10 || !Buffer.isBuffer(bundle.files[0].bytes)) throw new Error('bad build')
try { starterSource('Bad Name') } catch (err) { console.log(version(), bundle.pluginName, plan.summary.create, err.code) }
`

test('npm pack + npm install: the main package and its platform package, and ESM, CommonJS and the bin all work', async (t) => {
  const tmp = tempDir(t, 'pack')
  // What this folder packs is what the release packs, but for the optional dependencies.
  assert.deepEqual(pack(pkgDir, tmp).files, (await packMain(tmp)).files)
  const { tarball, files } = await packMain(tmp)
  // The addon is in the platform packages only, so no install downloads every platform's.
  assert.ok(!files.some((f) => /\.(node|wasm)$/.test(f)), `an addon in the main package: ${files}`)
  for (const wanted of ['index.js', 'index.d.ts', 'vocabulary.d.cts', 'lib/index.js', 'lib/index.mjs', 'lib/index.d.ts', 'lib/host.js', 'lib/host.d.ts', 'bin/plugforge.js', 'README.md', 'package.json']) {
    assert.ok(files.includes(wanted), `${wanted} missing from ${files}`)
  }
  assert.ok(!files.some((f) => f.startsWith('test/') || f.startsWith('src/') || f.startsWith('node_modules/') || f.startsWith('npm/')), `${files}`)
  const native = packPlatform('linux-x64-gnu', tmp)
  assert.deepEqual(native.files, ['README.md', 'package.json', 'plugforge.linux-x64-gnu.node'])

  const consumer = path.join(tmp, 'consumer')
  installTarballs(consumer, [tarball, native.tarball])

  const version = run(process.execPath, ['-p', "require('plugforge').version()"], { cwd: consumer }).stdout.trim()
  const expected = `${version} striatum `
  const esm = run(process.execPath, ['--input-type=module', '-e', smoke("import { buildToDir, starterSource, version } from 'plugforge'; import { createRequire } from 'node:module'; const require = createRequire(import.meta.url)")], { cwd: consumer })
  assert.equal(esm.code, 0, esm.stderr)
  assert.match(esm.stdout, new RegExp(`^${expected}\\d+ invalid_options\\n$`))
  fs.rmSync(path.join(consumer, 'out'), { recursive: true })
  const cjs = run(process.execPath, ['-e', smoke("const { buildToDir, starterSource, version } = require('plugforge')")], { cwd: consumer })
  assert.equal(cjs.code, 0, cjs.stderr)
  assert.equal(cjs.stdout, esm.stdout)

  const bin = run(path.join(consumer, 'node_modules', '.bin', 'plugforge'), ['--version'], { cwd: consumer })
  assert.equal(bin.code, 0, bin.stderr)
  assert.equal(bin.stdout, `plugforge ${version}\n`)
})
