// Shared by the tests: paths, temp folders, file trees, sha256, processes.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { addVocabulary } from '../release/wasi-vocabulary.mjs'

export const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const repoDir = path.resolve(pkgDir, '..')
export const binJs = path.join(pkgDir, 'bin', 'plugforge.js')

/**
 * Every case of `suite` ('vectors', 'rules', 'imports') as [{name, dir}], sorted
 * by name: the one listing every host asks (scripts/lib/conformance_cases.py),
 * shared cases in tests/<suite>/ and a runtime's own in its folder.
 */
export function conformanceCases(suite) {
  const listed = run('python3', [path.join(repoDir, 'scripts', 'lib', 'conformance_cases.py'), suite])
  if (listed.code !== 0) throw new Error(`scripts/lib/conformance_cases.py ${suite} failed:\n${listed.stderr}`)
  return JSON.parse(listed.stdout).map(({ name, dir }) => ({ name, dir: path.join(repoDir, dir) }))
}

/** A fresh temp folder, removed when the test ends. */
export function tempDir(t, label) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `plugforge-node-${label}-`))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

export function sha256(bytes) {
  return crypto.createHash('sha256').update(bytes).digest('hex')
}

/** Every file below `root`: Map of relative path -> {bytes, executable}, sorted. */
export function readFiles(root) {
  const out = new Map()
  const walk = (dir, prefix) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full, `${prefix}${entry.name}/`)
      else out.set(prefix + entry.name, { bytes: fs.readFileSync(full), executable: (fs.statSync(full).mode & 0o111) !== 0 })
    }
  }
  if (fs.existsSync(root)) walk(root, '')
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** Runs a program to completion: {code, stdout, stderr}. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...options })
  if (result.error) throw result.error
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** The Rust `plugforge` binary, built on demand (`cargo build -p plugforge-cli`). */
export function rustCli() {
  const built = run('cargo', ['build', '--quiet', '--locked', '-p', 'plugforge-cli'], { cwd: repoDir, stdio: ['ignore', 'pipe', 'pipe'] })
  if (built.code !== 0) throw new Error(`cargo build -p plugforge-cli failed:\n${built.stderr}`)
  const target = process.env.CARGO_TARGET_DIR ? path.resolve(repoDir, process.env.CARGO_TARGET_DIR) : path.join(repoDir, 'target')
  return path.join(target, 'debug', 'plugforge')
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

/** `npm pack` of the package in `dir` into `dest`: {tarball, files}. */
export function pack(dir, dest) {
  const packed = run(npm, ['pack', '--json', '--pack-destination', dest], { cwd: dir })
  if (packed.code !== 0) throw new Error(`npm pack in ${dir} failed:\n${packed.stderr}`)
  const [info] = JSON.parse(packed.stdout)
  return { tarball: path.join(dest, info.filename), files: info.files.map((f) => f.path).sort() }
}

/**
 * The main package as published, packed into `dest`: a copy whose
 * package.json names the platform packages as optional dependencies
 * (release/optional-dependencies.mjs, as the release workflow does).
 */
export async function packMain(dest) {
  const { withOptionalDependencies } = await import('../release/optional-dependencies.mjs')
  const staged = path.join(dest, 'stage-main')
  const skipped = new Set(['node_modules', 'npm', 'test', 'src', 'target', 'artifacts'])
  fs.cpSync(pkgDir, staged, { recursive: true, filter: (f) => !skipped.has(path.relative(pkgDir, f).split(path.sep)[0]) && !/\.(node|wasm|tgz)$/.test(f) })
  const manifest = path.join(staged, 'package.json')
  fs.writeFileSync(manifest, `${JSON.stringify(withOptionalDependencies(JSON.parse(fs.readFileSync(manifest, 'utf8'))), null, 2)}\n`)
  return pack(staged, dest)
}

/** Folder of the addons `scripts/build-node-addons` built for the other platforms. */
export const addonsDir = process.env.PLUGFORGE_NODE_ADDONS_DIR ?? path.join(os.homedir(), '.cache', 'plugforge', 'node-addons')

/**
 * The platform package `npm/<platform>` with its addon, packed into `dest`:
 * the linux-x64-gnu addon is the one `napi build` left in the package, the
 * others come from `addonsDir`. Null when that addon was not built. The
 * WASI package gets the vocabulary its typings import, as the release adds it
 * (release/wasi-vocabulary.mjs).
 */
export function packPlatform(platform, dest) {
  const source = path.join(pkgDir, 'npm', platform)
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8'))
  const staged = path.join(dest, `stage-${platform}`)
  fs.cpSync(source, staged, { recursive: true })
  for (const file of manifest.files) {
    const built = [path.join(addonsDir, platform, file), path.join(pkgDir, file)].find((f) => fs.existsSync(f))
    if (!built) return null
    fs.copyFileSync(built, path.join(staged, file))
  }
  if (platform === 'wasm32-wasi') addVocabulary(staged)
  return { ...pack(staged, dest), name: manifest.name }
}

/**
 * A fresh project in `dir` with the tarballs installed: offline (from npm's
 * cache) unless `extra` asks for `--prefer-offline`.
 */
export function installTarballs(dir, tarballs, extra = []) {
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name": "consumer", "private": true}\n')
  const mode = extra.includes('--prefer-offline') ? [] : ['--offline']
  const installed = run(npm, ['install', ...mode, '--no-audit', '--no-fund', '--no-package-lock', ...extra, ...tarballs], { cwd: dir })
  if (installed.code !== 0) throw new Error(`npm install failed:\n${installed.stderr}`)
}

/** The real Claude Code the suite pinned (PLUGFORGE_CLAUDE_BIN): a missing one fails the test
 * unless PLUGFORGE_SKIP_CLIENTS names it, and then the test is skipped, saying so. */
export function claudeBin(t) {
  const bin = process.env.PLUGFORGE_CLAUDE_BIN
  if (bin && fs.existsSync(bin)) return bin
  const skip = (process.env.PLUGFORGE_SKIP_CLIENTS ?? '').split(',').map((s) => s.trim())
  assert.ok(skip.includes('claude'), 'PLUGFORGE_CLAUDE_BIN is not set to a binary: install the client (scripts/install-clients claude) or skip it by name (PLUGFORGE_SKIP_CLIENTS=claude)')
  t.skip('claude is listed in PLUGFORGE_SKIP_CLIENTS; the real-client check did not run')
  return null
}
