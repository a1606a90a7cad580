// The `web` build (pkg-web) is what a browser page imports: an ES module
// whose init takes the .wasm bytes. Loaded here the way a page would, minus fetch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const pkg = new URL("../pkg-web/", import.meta.url);
const wasm = await import(new URL("plugforge_wasm.js", pkg));

test("pkg-web loads as an ES module and builds a source", () => {
  wasm.initSync({ module: readFileSync(new URL("plugforge_wasm_bg.wasm", pkg)) });
  const build = wasm.build(wasm.starterSource("demo"));
  const files = build.outputFiles("2026-01-01T00:00:00Z");
  assert.ok(files.some((f) => f.path === "claude-code/.claude-plugin/plugin.json"));
  assert.ok(files.every((f) => f.bytes instanceof Uint8Array && f.sha256 === wasm.sha256Hex(f.bytes)));
  assert.throws(() => wasm.build([{ path: "/abs", bytes: new Uint8Array() }]), { code: "invalid_path" });
});

test("the typings describe the results, not `any`", () => {
  const dts = readFileSync(new URL("plugforge_wasm.d.ts", pkg), "utf8");
  for (const signature of [
    "export function build(files: SourceFile[], options?: BuildOptions",
    "readonly bundles: Bundle[];",
    "plan(observed: Observed, options?: PlanOptions): Plan",
    "outputFiles(generatedAt: string): OutputFile[]",
    "export interface PlugforgeError extends Error",
    "export function validate(files: SourceFile[], options?: ValidateOptions",
    "export function importPlugin(files: SourceFile[], options?: ImportOptions",
    "export function rules(): Rule[]",
    "export function runtimes(): RuntimeInfo[]",
    "export type ValidationReport = {",
  ]) {
    assert.ok(dts.includes(signature), `missing from the .d.ts: ${signature}`);
  }
});
