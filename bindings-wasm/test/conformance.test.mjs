// Every golden vector through the `nodejs` wasm-pack build (pkg-node): the
// output root of build + plan over an empty root must equal expected/ (path
// set, bytes, executable bits), with every manifest's sha256 recomputed here
// with node:crypto, and the honesty rows and diagnostics must be report.json;
// failing cases must throw an Error with the right `code`.
// Every rule fixture (<area>/<what>/{fail,pass}) validated gives exactly its
// blessed report; every import case exactly its expected/ source and
// notes.json. The cases are those scripts/lib/conformance_cases.py lists
// (tests/<suite>/ and each runtime's folder).
// Records what ran in $PLUGFORGE_CONFORMANCE_DIR/wasm{,.rules,.imports}.json.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const wasm = createRequire(import.meta.url)("../pkg-node/plugforge_wasm.js");

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** Every file below `root` as path -> {bytes, executable}, paths with `/`. */
function readTree(root) {
  const tree = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else {
        const path = relative(root, full).split(sep).join("/");
        tree.set(path, { bytes: readFileSync(full), executable: (statSync(full).mode & 0o111) !== 0 });
      }
    }
  };
  walk(root);
  return new Map(sorted(tree.keys()).map((path) => [path, tree.get(path)]));
}

// A blessed report says `{markers}` where its text lists every runtime's marker
// files (so adding a runtime changes no fixture): every marketplace file, then
// every plugin marker, each once, in registry order (tests/src/rules.rs).
const markerFiles = (() => {
  const listed = wasm.runtimes();
  return [...new Set([...listed.map((r) => r.marketplace), ...listed.map((r) => r.marker)].filter(Boolean))].join(", ");
})();
const expandPlaceholders = (value) =>
  JSON.parse(JSON.stringify(value), (_, v) => (typeof v === "string" ? v.replaceAll("{markers}", markerFiles) : v));

/** Sorted by UTF-16 code units, which for these ASCII paths is byte order. */
const sorted = (paths) => [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    if (error.code === "ENOENT") return undefined;
    throw error;
  }
}

/** A folder as the file list the binding takes. */
function sourceFiles(root) {
  return [...readTree(root)].map(([path, { bytes, executable }]) => ({
    path,
    bytes: new Uint8Array(bytes),
    executable,
  }));
}

/**
 * Every case of `suite` ("vectors", "rules", "imports") as [{name, dir}], sorted
 * by name: the one listing every host asks (scripts/lib/conformance_cases.py).
 */
function conformanceCases(suite) {
  const listed = spawnSync("python3", [join(repo, "scripts/lib/conformance_cases.py"), suite], { encoding: "utf8" });
  if (listed.error) throw listed.error;
  assert.equal(listed.status, 0, `scripts/lib/conformance_cases.py ${suite}: ${listed.stderr}`);
  return JSON.parse(listed.stdout).map(({ name, dir }) => ({ name, dir: join(repo, dir) }));
}

/** Writes the names `suite` ran, for scripts/check-conformance wasm. */
function record(suffix, ran) {
  const out = process.env.PLUGFORGE_CONFORMANCE_DIR || join(repo, "target/conformance");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `wasm${suffix}.json`), JSON.stringify(sorted(ran), null, 2) + "\n");
}

/** Builds the case into an empty output root, as every host does. */
function run(dir, spec) {
  const files = sourceFiles(join(dir, spec.source ?? "input"));
  const build = wasm.build(files, spec.options);
  const plan = build.plan({ hashes: {}, contents: {} }, { generatedAt: spec.generatedAt });
  const tree = new Map();
  for (const action of plan.actions) {
    assert.equal(action.op, "create", `${action.path}: a fresh root only creates`);
    assert.ok(action.bytes instanceof Uint8Array, `${action.path}: bytes are a Uint8Array`);
    assert.equal(sha256(action.bytes), action.sha256, `${action.path}: action sha256`);
    tree.set(action.path, { bytes: Buffer.from(action.bytes), executable: action.executable });
  }
  const fresh = build.outputFiles(spec.generatedAt);
  assert.deepEqual(
    fresh.map((f) => [f.path, sha256(f.bytes), f.executable]),
    [...tree].map(([path, f]) => [path, sha256(f.bytes), f.executable]),
    "outputFiles is the fresh plan's files",
  );
  const report = plain({
    bundles: build.bundles.map((b) => ({ runtime: b.runtime, kind: b.kind, honesty: b.honesty, diagnostics: b.diagnostics })),
    diagnostics: build.diagnostics,
    failures: build.failures,
  });
  return { tree, manifestName: build.manifestName, report };
}

/** A value as plain JSON with null and absent fields left out, as the core writes report.json. */
function plain(value) {
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== "object") return value;
  const out = {};
  for (const [key, field] of Object.entries(value)) if (field !== null && field !== undefined) out[key] = plain(field);
  return out;
}

/** Every manifest-listed file: sha256 and executable bit as written. */
function checkHashes(name, tree, manifestName) {
  let checked = 0;
  for (const [path, { bytes }] of tree) {
    const slash = path.lastIndexOf("/");
    const fileName = path.slice(slash + 1);
    if (!fileName.endsWith(manifestName)) continue;
    // A folder kind keeps `<root>/<name>` with paths below its root; an
    // in-place kind keeps `<state_dir>/<namespace><name>` with paths from the output root.
    const root = fileName === manifestName && slash >= 0 ? path.slice(0, slash + 1) : "";
    for (const file of JSON.parse(bytes.toString("utf8")).files) {
      const rel = root + file.path;
      const written = tree.get(rel);
      assert.ok(written, `${name}: ${rel} listed, not written`);
      assert.equal(file.sha256, sha256(written.bytes), `${name}: ${rel} sha256`);
      assert.equal(file.executable ?? false, written.executable, `${name}: ${rel} mode`);
      checked += 1;
    }
  }
  assert.ok(checked > 0, `${name}: no manifest entries checked`);
}

function checkTree(name, dir, spec) {
  const { tree, manifestName, report } = run(dir, spec);
  checkHashes(name, tree, manifestName);
  assert.deepEqual(report, readJson(join(dir, "report.json")), `${name}: honesty rows or diagnostics differ`);
  const expected = readTree(join(dir, "expected"));
  assert.deepEqual(sorted(tree.keys()), [...expected.keys()], `${name}: path set differs`);
  for (const [path, { bytes, executable }] of tree) {
    const want = expected.get(path);
    assert.ok(bytes.equals(want.bytes), `${name}: ${path} differs`);
    assert.equal(executable, want.executable, `${name}: ${path} executable bit`);
  }
}

function checkError(name, dir, spec, expected) {
  let error;
  try {
    run(dir, spec);
  } catch (thrown) {
    error = thrown;
  }
  assert.ok(error instanceof Error, `${name}: expected error ${expected.code}`);
  assert.equal(error.code, expected.code, `${name}: ${error.message}`);
  assert.ok(error.message.includes(expected.message_contains), `${name}: ${error.message}`);
  const location = error.problems[0]?.location;
  assert.equal(location?.file ?? null, expected.file ?? null, `${name}: file`);
  assert.equal(location?.line ?? null, expected.line ?? null, `${name}: line`);
}

test("every golden vector matches its expectation", () => {
  const cases = conformanceCases("vectors");
  const names = cases.map((c) => c.name);
  assert.ok(names.length >= 10, `vectors went missing: ${names.length}`);
  const ran = [];
  for (const { name, dir } of cases) {
    const spec = readJson(join(dir, "case.json"));
    const expected = readJson(join(dir, "error.json"));
    if (expected) checkError(name, dir, spec, expected);
    else checkTree(name, dir, spec);
    ran.push(name);
  }
  assert.deepEqual(ran, names, "a vector was skipped");
  record("", ran);
});

test("every rule fixture gives its blessed report", () => {
  const ran = [];
  for (const { name: code, dir } of conformanceCases("rules")) {
    const { options } = readJson(join(dir, "case.json"));
    for (const side of ["fail", "pass"]) {
      const name = `${code}/${side}`;
      const report = wasm.validate(sourceFiles(join(dir, side)), options);
      assert.deepEqual(report, expandPlaceholders(readJson(join(dir, `${side}.json`))), `${name}: report`);
      const carries = report.findings.some((f) => f.code === code);
      assert.equal(carries, side === "fail", `${name}: reports ${code}`);
      ran.push(name);
    }
  }
  record(".rules", ran);
});

test("every import case gives its expected source and notes", () => {
  const ran = [];
  for (const { name, dir } of conformanceCases("imports")) {
    const { options } = readJson(join(dir, "case.json"));
    const imported = wasm.importPlugin(sourceFiles(join(dir, "input")), options);
    const expected = readTree(join(dir, "expected"));
    assert.deepEqual(imported.files.map((f) => f.path), [...expected.keys()], `${name}: path set`);
    for (const file of imported.files) {
      const want = expected.get(file.path);
      assert.ok(file.bytes instanceof Uint8Array, `${name}: ${file.path} bytes are a Uint8Array`);
      assert.ok(Buffer.from(file.bytes).equals(want.bytes), `${name}: ${file.path} differs`);
      assert.equal(file.executable, want.executable, `${name}: ${file.path} executable bit`);
    }
    assert.deepEqual(imported.notes, readJson(join(dir, "notes.json")), `${name}: notes`);
    ran.push(name);
  }
  record(".imports", ran);
});
