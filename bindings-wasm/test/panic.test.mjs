// No panic crosses the binding as a bare trap: a panic inside the engine
// arrives as a thrown Error with the stable code `internal` and the panic's
// message, and the instance stays usable. `__panicForTests` (not in the
// typings) is the deliberate panic path; the hook that converts every panic
// is in src/panic.rs. A later panic in the same instance surfaces as the
// runtime's own RuntimeError (the Rust runtime still counts the first one
// as in progress), and the instance stays usable after it too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const wasm = createRequire(import.meta.url)("../pkg-node/plugforge_wasm.js");

const encoder = new TextEncoder();
const source = [{ path: "plugforge.json", bytes: encoder.encode('{"name": "p", "version": "1.0.0"}') }];

function stillWorks() {
  const build = wasm.build(source, { targets: [{ runtime: "claude-code" }] });
  const files = build.outputFiles("2026-01-01T00:00:00Z");
  assert.ok(files.some((f) => f.path === "claude-code/.claude-plugin/plugin.json"));
  assert.throws(() => wasm.build([{ path: "/abs", bytes: new Uint8Array() }]), { code: "invalid_path" });
}

test("a panic is an internal Error and the instance keeps working", () => {
  stillWorks();
  assert.throws(
    () => wasm.__panicForTests(),
    (error) => {
      assert.ok(error instanceof Error);
      assert.equal(error.code, "internal");
      assert.match(error.message, /^internal error in plugforge \(please report it\): deliberate panic/);
      assert.deepEqual(error.problems, []);
      return true;
    },
  );
  stillWorks();
  // A second panic: an Error still, and the instance still answers.
  assert.throws(() => wasm.__panicForTests(), Error);
  stillWorks();
});

test("the test-only entry is not in the typings", async () => {
  const { readFileSync } = await import("node:fs");
  const dts = readFileSync(new URL("../pkg-node/plugforge_wasm.d.ts", import.meta.url), "utf8");
  assert.ok(!dts.includes("__panicForTests"));
});
