'use strict'
// The filesystem side of the host: read a source tree, observe an output
// folder, apply a plan with atomic writes (temp file + rename, manifests
// last). The work is done by the same Rust code as the `plugforge` binary's
// (the native host* functions); the engine itself never touches a file.

const native = require('../index.js')

/** The addon, its relative paths starting at `process.cwd()` (the WASI module has its own). */
function inCwd() {
  native.hostSetCwd(process.cwd())
  return native
}

/**
 * Every file below `dir` as `{path, bytes, executable}`, skipping `.git`,
 * `node_modules`, `target` at the top, and the `exclude` folders (e.g. an output folder
 * inside the source). Nothing outside `dir` is read: a symbolic link to a
 * file inside it reads as that file; one leading outside, nowhere or in a
 * loop, and FIFOs, sockets and devices, throw an `io` error naming each.
 */
function readTree(dir, { exclude = [] } = {}) {
  return inCwd().hostReadTree(dir, exclude)
}

/**
 * sha256 of every file below `root`, and the bytes of those named in
 * `pathsToRead`; temp files of an interrupted write are left out.
 */
function observe(root, pathsToRead = []) {
  return inCwd().hostObserve(root, [...pathsToRead])
}

/**
 * Applies a plan below `root`, in its order (manifests come last): atomic
 * writes for `create` and `update`, removals for `remove`, after sweeping
 * the temp files an interrupted run left. A refused plan (a conflict) is
 * never applied; a path through a symbolic link is refused before anything
 * is written.
 */
/**
 * Runs `run()` holding the lock of the output root `root` (waiting, with a
 * message on stderr, while another run holds it), after finishing what an
 * interrupted run left; returns what `run` returns. The lock is the one the
 * `plugforge` binary takes: no other run (CLI, Node, Python) plans over or
 * writes `root` between this run's `observe` and its `applyPlan`.
 */
function withLock(root, run) {
  return inCwd().hostLocked(root, run)
}

function applyPlan(root, plan) {
  if (plan.refused) {
    const error = new Error(`refused: ${plan.summary.conflict} conflict(s); nothing was written (force overwrites)`)
    throw Object.assign(error, { code: 'refused', plan })
  }
  inCwd().hostApply(root, plan.actions, plan.manifests)
}

/** Writes new files below `dir` (a starter source). */
function createFiles(dir, files) {
  inCwd().hostCreateFiles(dir, files)
}

/** RFC 3339 UTC time for new manifests: `SOURCE_DATE_EPOCH` when set, else now (the binary's clock). */
function generatedAt() {
  return native.hostGeneratedAt()
}

/**
 * Builds `sourceDir` and writes the bundles below `outDir`: read, build,
 * observe, plan, apply. Throws the engine's error for a bad source, and a
 * `refused` error (nothing written) when the plan has conflicts.
 */
function buildToDir(sourceDir, outDir, options = {}, planOptions = {}) {
  const build = native.build(readTree(sourceDir, { exclude: [outDir] }), options)
  return withLock(outDir, () => {
    const plan = build.plan(observe(outDir, build.pathsToRead()), { generatedAt: generatedAt(), ...planOptions })
    applyPlan(outDir, plan)
    return { build, plan }
  })
}

module.exports = { readTree, observe, applyPlan, createFiles, generatedAt, buildToDir, withLock }
