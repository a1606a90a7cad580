// Shared by the tests: paths, temp folders, file trees, sha256, processes.
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const repoDir = path.resolve(pkgDir, '..')
export const vectorsDir = path.join(repoDir, 'tests', 'vectors')
export const rulesDir = path.join(repoDir, 'tests', 'rules')
export const importsDir = path.join(repoDir, 'tests', 'imports')
export const binJs = path.join(pkgDir, 'bin', 'plugforge.js')

/** A fresh temp folder, removed when the test ends. */
export function tempDir(t, label) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `plugforge-node-${label}-`))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

export function sha256(bytes) {
  return crypto.createHash('sha256').update(bytes).digest('hex')
}

/** Names of the folders directly in `dir`, sorted (none when it is absent). */
export function subdirs(dir) {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()
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
