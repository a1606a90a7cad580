// The npm package `@plugforge/wasm` (bindings-wasm/pack.mjs), packed and installed from
// its tarball into an empty project the way users install it, then used from Node both
// as `import` (with the web build's `await init()`) and as `require`, on the Striatum
// example. Its web/ files are the very bytes of pkg-web, which the playground's test
// drives in Chromium.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const binding = path.join(here, "..");
const striatum = path.join(binding, "..", "examples", "striatum");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "plugforge-wasm-package-"));
process.on("exit", () => fs.rmSync(work, { recursive: true, force: true }));

const tarball = execFileSync("node", [path.join(binding, "pack.mjs"), path.join(work, "packed")], { encoding: "utf8" }).trim();
const consumer = path.join(work, "consumer");
fs.mkdirSync(consumer);
fs.writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: consumer });
const installed = path.join(consumer, "node_modules", "@plugforge", "wasm");

const sha = (file) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

// Reads the Striatum example, builds it for every runtime and prints each output
// file's path and sha256, as JSON: the same lines for the ESM and CJS entries.
const program = (load) => `
${load}
const fs = require("node:fs"), path = require("node:path");
const files = [];
const walk = (dir) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
  const p = path.join(dir, e.name);
  if (e.isDirectory()) walk(p); else files.push({ path: path.relative(${JSON.stringify(striatum)}, p), bytes: new Uint8Array(fs.readFileSync(p)) });
} };
walk(${JSON.stringify(striatum)});
const out = wasm.build(files, { targets: [{ runtime: "all" }] }).outputFiles("2026-01-01T00:00:00Z");
console.log(JSON.stringify({ version: wasm.version(), files: out.map((f) => [f.path, f.sha256, f.bytes.length]) }));
`;

function run(file, source) {
  fs.writeFileSync(path.join(consumer, file), source);
  return JSON.parse(execFileSync("node", [file], { cwd: consumer, encoding: "utf8" }));
}

test("the tarball holds the web and Node builds, and the web build is pkg-web byte for byte", () => {
  const listed = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" }).trim().split("\n").sort();
  assert.deepEqual(listed, [
    "package/README.md",
    "package/node/index.d.mts",
    "package/node/index.mjs",
    "package/node/package.json",
    "package/node/plugforge_wasm.d.ts",
    "package/node/plugforge_wasm.js",
    "package/node/plugforge_wasm_bg.wasm",
    "package/package.json",
    "package/web/plugforge_wasm.d.ts",
    "package/web/plugforge_wasm.js",
    "package/web/plugforge_wasm_bg.wasm",
  ]);
  for (const file of ["plugforge_wasm.js", "plugforge_wasm_bg.wasm", "plugforge_wasm.d.ts"]) {
    assert.equal(sha(path.join(installed, "web", file)), sha(path.join(binding, "pkg-web", file)), file);
    assert.equal(sha(path.join(installed, "node", file)), sha(path.join(binding, "pkg-node", file)), file);
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8"));
  assert.equal(pkg.name, "@plugforge/wasm");
  const download = ["plugforge_wasm_bg.wasm", "plugforge_wasm.js"]
    .map((f) => gzipSync(fs.readFileSync(path.join(installed, "web", f)), { level: 9 }).length)
    .reduce((a, b) => a + b);
  console.log(`# browser download (web/ wasm + JS, gzip -9): ${(download / 1024).toFixed(0)} KiB; tarball ${(fs.statSync(tarball).size / 1024).toFixed(0)} KiB`);
});

test("import with the web build's init, and require, build the Striatum example alike in Node", () => {
  const esm = run("esm.mjs", program(`import init, * as wasm from "@plugforge/wasm";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
await init();`));
  const cjs = run("cjs.cjs", program(`const wasm = require("@plugforge/wasm");`));
  assert.equal(esm.version, JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8")).version);
  assert.ok(esm.files.length > 100, `${esm.files.length} files`);
  assert.ok(esm.files.some(([p]) => p === "claude-code/.claude-plugin/plugin.json"));
  assert.deepEqual(esm, cjs);
});

// A consumer in Node compiles with Node's libraries only (no DOM: the node entry has its
// own typings); a browser consumer through a bundler gets the web build's, `init` included.
test("the package's typings compile for Node (import and require) and bundler consumers", () => {
  const tsc = process.env.PLUGFORGE_TSC;
  assert.ok(tsc, "PLUGFORGE_TSC not set (scripts/test-wasm sets it)");
  const body = `const result = build(starterSource("demo"), { targets: [{ runtime: "claude-code" }] });
const paths: string[] = result.outputFiles("2026-01-01T00:00:00Z").map((f) => f.path);
// @ts-expect-error: a runtime is a string
build(starterSource("demo"), { targets: [{ runtime: 7 }] });
`;
  fs.writeFileSync(path.join(consumer, "use-esm.mts"), `import init, { build, starterSource } from "@plugforge/wasm";
await init();
${body}export { paths };
`);
  fs.writeFileSync(path.join(consumer, "use-cjs.cts"), `import wasm = require("@plugforge/wasm");
const { build, starterSource } = wasm;
${body}export = paths;
`);
  fs.writeFileSync(path.join(consumer, "use-web.ts"), `import init, { build, starterSource, type InitInput } from "@plugforge/wasm";
const input: InitInput = new URL("https://example.invalid/plugforge_wasm_bg.wasm");
await init({ module_or_path: input });
${body}export { paths };
`);
  const compile = (files, ...flags) => {
    const run = spawnSync(process.execPath, [tsc, "--strict", "--noEmit", "--target", "es2022", ...flags, ...files], { cwd: consumer, encoding: "utf8" });
    assert.equal(run.status, 0, `tsc ${flags.join(" ")} ${files.join(" ")}:\n${run.stdout}${run.stderr}`);
  };
  compile(["use-esm.mts", "use-cjs.cts"], "--module", "nodenext", "--moduleResolution", "nodenext", "--lib", "es2022,esnext.disposable");
  compile(["use-web.ts"], "--module", "esnext", "--moduleResolution", "bundler", "--lib", "es2022,esnext.disposable,dom");
});
