// Hand-written typings of lib/host.js (the filesystem helpers).
import type { Build, BuildOptions, Observed, Plan, PlanOptions, SourceFile, TreeFile } from '../index'

/** A source file as read from disk: `bytes` is a Buffer, `executable` always set. */
export interface ReadFile extends SourceFile {
  bytes: Buffer
  executable: boolean
}

/** What `observe` returns: both maps always present. */
export interface ObservedOnDisk extends Observed {
  hashes: Record<string, string>
  contents: Record<string, Buffer>
}

/**
 * Every file below `dir`, skipping `.git` and `node_modules`, `target` at the top, and the
 * `exclude` folders. Nothing outside `dir` is read: a symbolic link to a file
 * inside it reads as that file. Throws an error with `code: 'io'` when
 * unreadable, and for links leading outside `dir`, nowhere or in a loop, and
 * FIFOs, sockets or devices (each named by its path below `dir`).
 */
export declare function readTree(dir: string, options?: { exclude?: Array<string> }): Array<ReadFile>

/**
 * sha256 of every file below `root`, and the bytes of those named in
 * `pathsToRead`; temp files of an interrupted write (`.plugforge-tmp-*`) are
 * left out.
 */
export declare function observe(root: string, pathsToRead?: Array<string>): ObservedOnDisk

/**
 * Applies a plan below `root` in its order (manifests last): atomic writes
 * (temp file + rename, mode 755/644), removals, emptied folders removed up to
 * `root`, after sweeping the temp files an interrupted run left in the
 * folders the plan touches. Throws `code: 'refused'` for a refused plan,
 * `code: 'invalid_path'` for a path that is not clean, `code: 'io'` on a
 * failed write and, before writing anything, for a path through a symbolic
 * link below `root`. Each file is replaced or removed only if it still holds
 * what the plan saw (`Action.found`): one edited meanwhile is left as it is
 * and named in a `code: 'conflict'` error once the rest is written.
 */
export declare function applyPlan(root: string, plan: Plan): void

/**
 * Runs `run()` holding the lock of the output root `root` (waiting, with a
 * message on stderr, while another run holds it), after finishing what an
 * interrupted run left; returns what `run` returns. It is the lock the
 * `plugforge` binary takes: no other run (CLI, Node, Python) plans over or
 * writes `root` between this run's `observe` and its `applyPlan`.
 */
export declare function withLock<T>(root: string, run: () => T): T

/** Writes new files below `dir` (a starter source). */
export declare function createFiles(dir: string, files: Array<TreeFile | SourceFile>): void

/** RFC 3339 UTC time (`YYYY-MM-DDTHH:MM:SSZ`): `SOURCE_DATE_EPOCH` when set, else now. */
export declare function generatedAt(): string

/**
 * Builds `sourceDir` into `outDir`: read, build, then observe, plan and apply
 * under the output root's lock (`withLock`).
 * Throws the engine's error for a bad source, and `code: 'refused'` (nothing
 * written) when the plan has conflicts.
 */
export declare function buildToDir(
  sourceDir: string,
  outDir: string,
  options?: BuildOptions,
  planOptions?: Partial<PlanOptions>,
): { build: Build; plan: Plan }
