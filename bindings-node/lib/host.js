'use strict'
// The filesystem side of the host, in JS: read a source tree, observe an
// output folder, apply a plan with atomic writes (temp file + rename,
// manifests last). The engine (the native binding) never touches a file.

const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')
const util = require('node:util')

const native = require('../index.js')

/** Folders never read as plugin source. */
const SKIPPED_DIRS = new Set(['.git', 'node_modules', 'target'])

/** `root/rel` with one `/` between, unnormalized (as the Rust CLI joins paths). */
function join(root, rel) {
  if (root === '' || root === '.') return rel
  return root.endsWith('/') ? root + rel : `${root}/${rel}`
}

/** An fs error as the Rust CLI words it: `path: No such file or directory (os error 2)`. */
function ioError(where, error) {
  const known = typeof error.errno === 'number' && util.getSystemErrorMap().get(error.errno)
  const text = known ? `${known[1][0].toUpperCase()}${known[1].slice(1)} (os error ${-error.errno})` : error.message
  return Object.assign(new Error(`${where}: ${text}`), { code: 'io', cause: error })
}

function attempt(where, action) {
  try {
    return action()
  } catch (error) {
    throw ioError(where, error)
  }
}

/** [relative path with `/`, path] of every file below `root`, sorted; symlinked folders are not followed. */
function walk(root, skipDir) {
  const found = []
  const pending = [[root, '']]
  while (pending.length > 0) {
    const [dir, prefix] = pending.pop()
    for (const entry of attempt(dir, () => fs.readdirSync(dir, { withFileTypes: true }))) {
      const full = join(dir, entry.name)
      const rel = prefix + entry.name
      if (entry.isDirectory()) {
        if (!skipDir(full, entry.name)) pending.push([full, `${rel}/`])
      } else if (entry.isFile() || (entry.isSymbolicLink() && isFile(full))) {
        found.push([rel, full])
      }
    }
  }
  return found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

function isFile(file) {
  try {
    return fs.statSync(file).isFile()
  } catch {
    return false
  }
}

function realpath(dir) {
  try {
    return fs.realpathSync(dir)
  } catch {
    return null
  }
}

/**
 * Every file below `dir` as `{path, bytes, executable}`, skipping `.git`,
 * `node_modules`, `target` and the `exclude` folders (e.g. an output folder
 * inside the source).
 */
function readTree(dir, { exclude = [] } = {}) {
  const excluded = new Set(exclude.map(realpath).filter(Boolean))
  const skip = (full, name) => SKIPPED_DIRS.has(name) || excluded.has(realpath(full))
  return walk(dir, skip).map(([rel, full]) => ({
    path: rel,
    bytes: attempt(full, () => fs.readFileSync(full)),
    executable: (attempt(full, () => fs.statSync(full)).mode & 0o111) !== 0,
  }))
}

/** sha256 of every file below `root`, and the bytes of those named in `pathsToRead`. */
function observe(root, pathsToRead = []) {
  const observed = { hashes: {}, contents: {} }
  if (!fs.existsSync(root)) return observed
  const wanted = new Set(pathsToRead)
  for (const [rel, full] of walk(root, () => false)) {
    const bytes = attempt(full, () => fs.readFileSync(full))
    observed.hashes[rel] = crypto.createHash('sha256').update(bytes).digest('hex')
    if (wanted.has(rel)) observed.contents[rel] = bytes
  }
  return observed
}

/** Writes `bytes` whole or not at all: a temp file in the same folder, then a rename. */
function writeAtomic(target, bytes, executable) {
  const dir = path.dirname(target)
  attempt(dir, () => fs.mkdirSync(dir, { recursive: true }))
  const temp = path.join(dir, `.${path.basename(target)}.plugforge-${process.pid}.tmp`)
  const mode = executable ? 0o755 : 0o644
  try {
    const fd = fs.openSync(temp, 'w', mode)
    try {
      fs.writeFileSync(fd, bytes)
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    fs.chmodSync(temp, mode)
    fs.renameSync(temp, target)
  } catch (error) {
    fs.rmSync(temp, { force: true })
    throw ioError(target, error)
  }
}

/** Removes a file, then the folders it leaves empty, up to `root`. */
function remove(root, target) {
  attempt(target, () => fs.rmSync(target, { force: true }))
  const top = path.resolve(root)
  for (let dir = path.dirname(path.resolve(target)); dir !== top && dir.startsWith(top); dir = path.dirname(dir)) {
    try {
      fs.rmdirSync(dir)
    } catch {
      break
    }
  }
}

/**
 * Applies a plan below `root`, in its order (manifests come last): atomic
 * writes for `create` and `update`, removals for `remove`. A refused plan
 * (a conflict) is never applied.
 */
function applyPlan(root, plan) {
  if (plan.refused) {
    const error = new Error(`refused: ${plan.summary.conflict} conflict(s); nothing was written (force overwrites)`)
    throw Object.assign(error, { code: 'refused', plan })
  }
  const top = path.resolve(root)
  for (const action of plan.actions) {
    const target = join(root, action.path)
    if (!path.resolve(target).startsWith(top + path.sep)) {
      throw Object.assign(new Error(`${action.path}: not below ${root}`), { code: 'invalid_path' })
    }
    if ((action.op === 'create' || action.op === 'update') && action.bytes) {
      writeAtomic(target, action.bytes, action.executable)
    } else if (action.op === 'remove') {
      remove(root, target)
    }
  }
}

/** Writes new files below `dir` (a starter source). */
function createFiles(dir, files) {
  for (const file of files) writeAtomic(join(dir, file.path), file.bytes, Boolean(file.executable))
}

/** RFC 3339 UTC time for new manifests: `SOURCE_DATE_EPOCH` when set, else now. */
function generatedAt() {
  const epoch = (process.env.SOURCE_DATE_EPOCH ?? '').trim()
  const seconds = /^[+-]?\d+$/.test(epoch) ? Number(epoch) : Math.floor(Date.now() / 1000)
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** The last component of `dir` made absolute, `..` left unresolved (as the Rust CLI). */
function folderName(dir) {
  const parts = path.resolve(dir).split(path.sep).filter(Boolean)
  const last = dir.split(/[\\/]/).filter((p) => p !== '' && p !== '.').pop()
  if (last === '..') return null
  return parts.length > 0 ? parts[parts.length - 1] : null
}

/** The `runCli` host over the local filesystem and this process's terminal. */
const nodeHost = {
  readTree: (dir, exclude) => readTree(dir, { exclude }),
  observe: (root, pathsToRead) => observe(root, pathsToRead),
  apply: (root, plan) => applyPlan(root, plan),
  createFiles: (dir, files) => createFiles(dir, files),
  exists: (file) => fs.existsSync(file),
  generatedAt: () => generatedAt(),
  homeDir: () => process.env.HOME || null,
  folderName: (dir) => folderName(dir),
  stdout: (text) => {
    process.stdout.write(text)
  },
  stderr: (text) => {
    process.stderr.write(text)
  },
  color: () => process.stdout.isTTY === true && process.env.NO_COLOR === undefined,
}

/**
 * Builds `sourceDir` and writes the bundles below `outDir`: read, build,
 * observe, plan, apply. Throws the engine's error for a bad source, and a
 * `refused` error (nothing written) when the plan has conflicts.
 */
function buildToDir(sourceDir, outDir, options = {}, planOptions = {}) {
  const build = native.build(readTree(sourceDir, { exclude: [outDir] }), options)
  const plan = build.plan(observe(outDir, build.pathsToRead()), { generatedAt: generatedAt(), ...planOptions })
  applyPlan(outDir, plan)
  return { build, plan }
}

module.exports = { readTree, observe, applyPlan, createFiles, generatedAt, nodeHost, buildToDir }
