// Every platform package this machine can run, installed as users get it:
// the packed main package plus the packed npm/<platform> package (with the
// addon scripts/build-node-addons built) in an empty project. Under that
// platform's Node, `npx plugforge build --target all` must write the very
// files the Rust binary writes, the library API the very files the
// in-process API writes, and the loader must have picked that platform's
// artifact. The WASI fallback is installed without any native package.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { before, test } from 'node:test'

import { installTarballs, packMain, packPlatform, pkgDir, readFiles, repoDir, run, rustCli, tempDir } from './support.mjs'

const striatum = path.join(repoDir, 'examples', 'striatum')
const env = { ...process.env, SOURCE_DATE_EPOCH: '1700000000', NO_COLOR: '1' }
const runtimes = process.env.PLUGFORGE_NODE_RUNTIMES_DIR
const planOptions = { generatedAt: '2026-01-01T00:00:00Z' }
const apiOptions = { targets: [{ runtime: 'claude-code' }, { runtime: 'codex' }], vars: { runner_version: '0.7.3' } }

// The WASI package's runtime (@napi-rs/wasm-runtime and what it needs) is
// resolved by npm, which `npm ci`'s cache may not hold the metadata of; no
// native package may come along, so the optional ones are left out.
const wasiInstall = ['--force', '--prefer-offline', '--omit=optional']

// Which platform each case runs, with which Node, how npm installs it
// (`--force`: a package for another cpu or libc than npm's own), and what must load.
const platforms = [
  { platform: 'linux-x64-gnu', node: process.execPath, loaded: 'plugforge.linux-x64-gnu.node' },
  { platform: 'wasm32-wasi', node: process.execPath, loaded: 'plugforge.wasi.cjs', target: 'wasm32-wasi', install: wasiInstall },
  { platform: 'linux-x64-musl', runtime: 'linux-x64-musl', loaded: 'plugforge.linux-x64-musl.node', install: ['--force'] },
  { platform: 'linux-arm64-gnu', runtime: 'linux-arm64-gnu', loaded: 'plugforge.linux-arm64-gnu.node', install: ['--force'] },
  { platform: 'linux-arm64-musl', runtime: 'linux-arm64-musl', loaded: 'plugforge.linux-arm64-musl.node', install: ['--force'] },
]

// Prints what loaded (the generated loader's marker and the file), then
// builds with the API: the output folder is argv[1], the source argv[2].
const apiScript = `
const path = require('node:path')
const main = require.resolve('plugforge')
const loader = require(path.join(path.dirname(main), '..', 'index.js'))
const { buildToDir } = require('plugforge')
buildToDir(process.argv[2], process.argv[1], ${JSON.stringify(apiOptions)}, ${JSON.stringify(planOptions)})
const files = Object.keys(require.cache).filter((f) => /[\\\\/]node_modules[\\\\/]plugforge-[^\\\\/]+[\\\\/]plugforge\\.[^\\\\/]+$/.test(f))
console.log(JSON.stringify({ target: loader.__napiBindingTarget, files: files.map((f) => path.basename(f)), arch: process.arch }))
`

let rustFiles
let expectedApiFiles
let mainTarball
let packs

before(async (t) => {
  packs = tempDir(t, 'platform-packs')
  mainTarball = (await packMain(packs)).tarball
  const rustOut = path.join(packs, 'rust-out')
  const built = run(rustCli(), ['build', striatum, '--target', 'all', '--out', rustOut], { env })
  assert.equal(built.code, 0, built.stderr)
  rustFiles = readFiles(rustOut)
  const apiOut = path.join(packs, 'api-out')
  // The in-process API, over this checkout's addon.
  const script = `require(${JSON.stringify(path.join(pkgDir, 'lib', 'index.js'))}).buildToDir(${JSON.stringify(striatum)}, process.argv[1], ${JSON.stringify(apiOptions)}, ${JSON.stringify(planOptions)})`
  const api = run(process.execPath, ['-e', script, apiOut], { env })
  assert.equal(api.code, 0, api.stderr)
  expectedApiFiles = readFiles(apiOut)
})

for (const { platform, node, runtime, loaded, target = 'native', install = [] } of platforms) {
  const command = node ?? (runtimes && path.join(runtimes, runtime, 'node'))
  const why = !command || !fs.existsSync(command) ? `no Node for ${platform} (scripts/node-runtimes sets PLUGFORGE_NODE_RUNTIMES_DIR)` : false
  test(`${platform}: the installed packages build what the Rust binary builds`, { skip: why }, (t) => {
    const tmp = tempDir(t, `platform-${platform}`)
    const platformPack = packPlatform(platform, packs)
    if (!platformPack) return t.skip(`the ${platform} addon is not built (scripts/build-node-addons)`)
    const consumer = path.join(tmp, 'consumer')
    // Only this platform's package: on any other, the loader would have a choice.
    installTarballs(consumer, [mainTarball, platformPack.tarball], install)
    const installed = fs.readdirSync(path.join(consumer, 'node_modules')).filter((n) => n.startsWith('plugforge-'))
    assert.deepEqual(installed, [platformPack.name])

    // Relative paths, as typed: they start at the process's working folder on every platform.
    const bin = path.join('node_modules', 'plugforge', 'bin', 'plugforge.js')
    const cli = run(command, [bin, 'build', path.relative(consumer, striatum), '--target', 'all', '--out', '../cli-out'], { cwd: consumer, env })
    assert.equal(cli.code, 0, cli.stderr)
    assert.deepEqual(readFiles(path.join(tmp, 'cli-out')), rustFiles, `${platform}: npx plugforge build --target all`)

    const apiOut = path.join(tmp, 'api-out')
    const api = run(command, ['-e', apiScript, '../api-out', path.relative(consumer, striatum)], { cwd: consumer, env })
    assert.equal(api.code, 0, api.stderr)
    const report = JSON.parse(api.stdout.trim().split('\n').at(-1))
    assert.equal(report.target, target, `${platform}: the loader's binding`)
    assert.ok(report.files.includes(loaded), `${platform}: loaded ${report.files}, not ${loaded}`)
    assert.deepEqual(readFiles(apiOut), expectedApiFiles, `${platform}: buildToDir`)
  })
}

test('wasm32-wasi: --watch is refused with a clear error, not a crash', (t) => {
  const tmp = tempDir(t, 'wasi-watch')
  const wasi = packPlatform('wasm32-wasi', tmp)
  if (!wasi) return t.skip('the wasm32-wasi addon is not built (scripts/build-node-addons)')
  const consumer = path.join(tmp, 'consumer')
  installTarballs(consumer, [mainTarball, wasi.tarball], wasiInstall)
  const bin = path.join(consumer, 'node_modules', 'plugforge', 'bin', 'plugforge.js')
  const watched = run(process.execPath, [bin, 'build', striatum, '--watch', '--out', path.join(tmp, 'out')], { cwd: consumer, env })
  assert.equal(watched.code, 2, watched.stderr)
  assert.match(watched.stderr, /^error\[usage\]: --watch is not available in the WebAssembly build/)
})
