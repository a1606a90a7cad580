// Drives the real playground page in headless Chromium and holds what it
// shows and downloads against the plugforge command line, byte for byte.
// Needs the assembled site (scripts/playground --build) and the CLI binary:
// scripts/test-playground sets both up. PLAYGROUND_SCREENSHOT=1 rewrites
// docs/playground.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { chromium } from "playwright-core";
import { serve } from "../serve.mjs";
import { RUNTIMES } from "../runtimes.js";

const repo = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const site = process.env.PLAYGROUND_SITE ?? join(repo, "target", "playground");
const cli = process.env.PLUGFORGE_CLI ?? join(repo, "target", "debug", "plugforge");
const striatum = join(repo, "examples", "striatum");
// 2026-01-01T00:00:00Z: the CLI reads it from SOURCE_DATE_EPOCH, the page from its manifest-time field.
const EPOCH = "1767225600";
const GENERATED_AT = "2026-01-01T00:00:00Z";
// Not the template's default, so the page must really pass variables on.
const RUNNER_VERSION = "0.9.1";

let server;
let url;
let browser;
let page;
let scratch;
const foreignRequests = [];
const requests = [];
const pageErrors = [];

before(async () => {
  for (const needed of [join(site, "index.html"), join(site, "pkg", "plugforge_wasm_bg.wasm"), cli]) {
    assert.ok(statSync(needed, { throwIfNoEntry: false }), `${needed} is missing: run scripts/test-playground`);
  }
  scratch = mkdtempSync(join(tmpdir(), "plugforge-playground-"));
  ({ server, url } = await serve(site));
  browser = await chromium.launch({
    executablePath: process.env.PLAYGROUND_CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
  const origin = new URL(url).origin;
  context.on("request", (request) => {
    requests.push(request.url());
    if (new URL(request.url()).origin !== origin) foreignRequests.push(request.url());
  });
  page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(url);
  await page.waitForFunction(() => Number(document.body.dataset.builds) > 0);
});

after(async () => {
  await browser?.close();
  server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

// ---- helpers ---------------------------------------------------------------

/** Runs the CLI build into a fresh folder; returns {out, status, stderr}. */
function cliBuild(targets, extra = []) {
  const out = mkdtempSync(join(scratch, "cli-"));
  const args = ["build", striatum, "--out", out, "--var", `runner_version=${RUNNER_VERSION}`, ...extra];
  for (const target of targets) args.push("--target", target);
  const run = spawnSync(cli, args, { env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH }, encoding: "utf8" });
  return { out, status: run.status, stderr: run.stderr };
}

/** Every file below `dir`: path -> {bytes, executable}. */
function readTree(dir) {
  const files = new Map();
  const walk = (at) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else files.set(relative(dir, path).split(sep).join("/"), { bytes: readFileSync(path), executable: (stat.mode & 0o111) !== 0 });
    }
  };
  walk(dir);
  return files;
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Reads a zip independently of the page's reader: path -> {bytes, executable}, checking every CRC-32. */
function unzip(buffer) {
  let end = buffer.length - 22;
  while (end >= 0 && buffer.readUInt32LE(end) !== 0x06054b50) end--;
  assert.ok(end >= 0, "no end of central directory record");
  const files = new Map();
  let at = buffer.readUInt32LE(end + 16);
  for (let i = 0; i < buffer.readUInt16LE(end + 10); i++) {
    assert.equal(buffer.readUInt32LE(at), 0x02014b50, "central directory header");
    const method = buffer.readUInt16LE(at + 10);
    const crc = buffer.readUInt32LE(at + 16);
    const size = buffer.readUInt32LE(at + 20);
    const nameLength = buffer.readUInt16LE(at + 28);
    const mode = buffer.readUInt32LE(at + 38) >>> 16;
    const local = buffer.readUInt32LE(at + 42);
    const path = buffer.toString("utf8", at + 46, at + 46 + nameLength);
    at += 46 + nameLength + buffer.readUInt16LE(at + 30) + buffer.readUInt16LE(at + 32);
    assert.equal(buffer.readUInt32LE(local), 0x04034b50, `${path}: local header`);
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const raw = buffer.subarray(start, start + size);
    const bytes = method === 8 ? inflateRawSync(raw) : raw;
    assert.equal(crc32(bytes), crc, `${path}: CRC-32`);
    files.set(path, { bytes, executable: (mode & 0o111) !== 0 });
  }
  return files;
}

/** A deflate-compressed zip of `files` (path -> bytes), every path under `top/`, as zip tools make of a folder. */
function zipDeflated(files, top) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [path, bytes] of files) {
    const name = Buffer.from(`${top}/${path}`);
    const data = deflateRawSync(bytes);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(crc32(bytes), 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(bytes.length, 22);
    header.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(bytes), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(bytes.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(header, name, data);
    centrals.push(central, name);
    offset += header.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const endRecord = Buffer.alloc(22);
  endRecord.writeUInt32LE(0x06054b50, 0);
  endRecord.writeUInt16LE(files.size, 8);
  endRecord.writeUInt16LE(files.size, 10);
  endRecord.writeUInt32LE(directory.length, 12);
  endRecord.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, endRecord]);
}

/** Does `action` and waits until the page has finished the build it set off (and none is pending). */
async function settled(action) {
  const before = Number(await page.getAttribute("body", "data-builds"));
  await action();
  await page.waitForFunction(
    (n) => Number(document.body.dataset.builds) > n && !document.body.dataset.pending,
    before,
  );
}

/** The text in a CodeMirror editor of the page (its container carries the view). */
const editorText = (selector = "#editor") => page.$eval(selector, (el) => el.editorView.state.doc.toString());
const viewerText = () => editorText("#viewer-content");

/** Replaces the source editor's text as a user pasting over a select-all does. */
async function setEditorText(text) {
  await page.click("#editor .cm-content");
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
}

const outputPaths = () => page.$$eval("#output-tree [data-path]", (buttons) => buttons.map((b) => b.dataset.path).sort());

async function openTab(key) {
  await page.click(`#tabs [data-tab="${key}"]`);
}

async function showOutput(path) {
  await page.click(`#output-tree [data-path="${path}"]`);
  return { sha256: await page.textContent("#viewer-sha256"), text: await viewerText() };
}

async function downloadZip(button) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(button)]);
  const path = join(scratch, download.suggestedFilename());
  await download.saveAs(path);
  return { name: download.suggestedFilename(), files: unzip(readFileSync(path)) };
}

function assertSameFiles(actual, expected, what) {
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), `${what}: the same paths`);
  for (const [path, file] of expected) {
    assert.ok(Buffer.from(actual.get(path).bytes).equals(file.bytes), `${what}: ${path} byte for byte`);
    assert.equal(actual.get(path).executable, file.executable, `${what}: ${path} executable bit`);
  }
}

function below(files, folder) {
  return new Map([...files].filter(([path]) => path.startsWith(`${folder}/`)));
}

// ---- tests -----------------------------------------------------------------

test("the page's runtime table is the engine's, kinds in order, default first", async () => {
  const wasm = await import(join(site, "pkg", "plugforge_wasm.js"));
  wasm.initSync({ module: readFileSync(join(site, "pkg", "plugforge_wasm_bg.wasm")) });
  const source = wasm.starterSource("demo");
  const error = (options) => {
    try {
      wasm.build(source, options);
    } catch (err) {
      return err;
    }
    assert.fail(`expected ${JSON.stringify(options)} to fail`);
  };
  const unknown = error({ targets: [{ runtime: "no-such-runtime" }] });
  assert.equal(unknown.code, "unsupported_runtime");
  assert.match(unknown.message, new RegExp(`known: ${RUNTIMES.map((r) => r.id).join(", ")}$`));
  for (const runtime of RUNTIMES) {
    const bad = error({ targets: [{ runtime: runtime.id, kind: "no-such-kind" }] });
    assert.equal(bad.code, "unsupported_kind");
    assert.ok(bad.message.endsWith(`it supports: ${runtime.kinds.join(", ")}`), `${runtime.id}: ${bad.message}`);
  }
});

test("the Striatum example builds the Claude Code tree and hashes the CLI writes", async () => {
  await settled(async () => {
    await page.selectOption("#example", "starter");
  });
  await settled(async () => {
    await page.selectOption("#example", "example:striatum");
    await page.fill("#generated-at", GENERATED_AT);
    await page.fill("#vars", `runner_version=${RUNNER_VERSION}`);
  });
  assert.equal(await page.getAttribute("body", "data-state"), "ok");
  assert.match(await page.textContent("#status"), /built 1 runtime\(s\), \d+ file\(s\) in \d+\.\d ms/);

  const expected = below(readTree(cliBuild(["claude-code"]).out), "claude-code");
  await openTab("claude-code:plugin");
  const paths = await outputPaths();
  assert.deepEqual(paths, [...expected.keys()].map((p) => p.slice("claude-code/".length)).sort());
  for (const path of [".claude-plugin/plugin.json", "commands/status.md", "skills/striatum-claim-loop/SKILL.md", ".plugforge-manifest.json"]) {
    assert.ok(paths.includes(path), `the tree shows ${path}`);
  }
  const status = expected.get("claude-code/commands/status.md").bytes;
  const shown = await showOutput("commands/status.md");
  assert.equal(shown.sha256, sha256(status));
  assert.equal(shown.text, status.toString("utf8"));
  assert.ok(shown.text.includes(`striatum ${RUNNER_VERSION}`), "the template variable reached the output");

  await page.click("#show-manifest");
  const manifest = JSON.parse(await viewerText());
  assert.equal(manifest.generated_at ?? manifest.generatedAt, GENERATED_AT);
});

test("invalid frontmatter shows inline, links to the source line, and clears when fixed", async () => {
  await page.click('#source-tree [data-path="commands/status.md.j2"]');
  const original = await editorText();
  // An unterminated quote: not YAML even once values are quoted the way Claude Code quotes them.
  await settled(() => setEditorText(original.replace("description: Show", 'description: "Show')));

  assert.equal(await page.getAttribute("body", "data-state"), "error");
  assert.ok(await page.isVisible("#error"));
  const error = await page.textContent("#error");
  assert.match(error, /invalid_source/);
  assert.match(error, /frontmatter/);
  assert.ok(await page.isVisible("#output"), "the rest of the page stays");
  assert.ok(await page.isDisabled("#download-root"), "no download of a source that does not build");

  await page.click('#source-tree [data-path="AGENTS.md"]');
  const location = await page.textContent("#error button.location");
  assert.match(location, /^commands\/status\.md:\d+/);
  await page.click("#error button.location");
  assert.equal(await page.textContent("#editor-path"), "commands/status.md.j2", "the location opens the source file");

  await settled(() => setEditorText(original));
  assert.equal(await page.getAttribute("body", "data-state"), "ok");
  assert.ok(!(await page.isVisible("#error")));
  const expected = readTree(cliBuild(["claude-code"]).out).get("claude-code/commands/status.md").bytes;
  await openTab("claude-code:plugin");
  assert.equal((await showOutput("commands/status.md")).sha256, sha256(expected));
});

test("bad JSON in the config shows inline with its file and line", async () => {
  await page.click('#source-tree [data-path="plugforge.json.j2"]');
  const original = await editorText();
  await settled(() => setEditorText(original.replace('"license": "MIT",', '"license": "MIT",,')));
  assert.equal(await page.getAttribute("body", "data-state"), "error");
  assert.match(await page.textContent("#error"), /plugforge\.json\.j2:\d+/);
  await settled(() => setEditorText(original));
  assert.equal(await page.getAttribute("body", "data-state"), "ok");
});

test("a file added in place builds, its warning links back to it, and deleting it clears the warning", async () => {
  await settled(async () => {
    await page.fill("#new-file-path", "commands/hello.md");
    await page.click("#new-file button[type=submit]");
  });
  await settled(() => setEditorText("Say hello to $ARGUMENTS\n"));
  assert.equal(await page.getAttribute("body", "data-state"), "ok");
  assert.ok(await page.isVisible("#diagnostics"));
  assert.match(await page.textContent("#diagnostics"), /warning description_derived: commands\/hello.md has no description/);
  await openTab("claude-code:plugin");
  assert.ok((await outputPaths()).includes("commands/hello.md"));

  await page.click('#source-tree [data-path="AGENTS.md"]');
  await page.click('#diagnostics button.location:text("commands/hello.md")');
  assert.equal(await page.textContent("#editor-path"), "commands/hello.md");
  await settled(() => page.click("#delete-file"));
  assert.ok(!(await page.isVisible("#diagnostics")));
  assert.ok(!(await outputPaths()).includes("commands/hello.md"));
});

test("with a second runtime the downloaded zips equal the CLI's output byte for byte", async () => {
  await settled(() => page.check("#runtime-codex"));
  assert.equal(await page.getAttribute("body", "data-state"), "ok");
  const expected = readTree(cliBuild(["claude-code", "codex"]).out);

  const root = await downloadZip("#download-root");
  assert.equal(root.name, "striatum-output.zip");
  assert.ok(root.files.has(".claude-plugin/marketplace.json") && root.files.has(".agents/plugins/marketplace.json"));
  assertSameFiles(root.files, expected, "output root zip");

  await openTab("codex:plugin");
  const bundle = await downloadZip("#download-bundle");
  assert.equal(bundle.name, "striatum-codex.zip");
  assertSameFiles(bundle.files, below(expected, "codex"), "codex bundle zip");

  const honesty = await page.$$eval("#honesty thead th", (cells) => cells.map((c) => c.textContent));
  assert.deepEqual(honesty, ["component", "name", "claude-code:plugin", "codex:plugin"]);
  assert.ok((await page.textContent("#honesty tbody")).includes("degraded"), "codex rows report what degrades");
});

test("strict mode refuses exactly when the CLI's --strict does", async () => {
  assert.equal(cliBuild(["claude-code", "codex"], ["--strict"]).status, 1);
  await settled(() => page.check("#strict"));
  assert.equal(await page.getAttribute("body", "data-state"), "refused");
  assert.match(await page.textContent("#status"), /refused: \d+ component\(s\) are not fully supported/);
  assert.ok(await page.isDisabled("#download-root"));
  await settled(() => page.uncheck("#strict"));
  assert.equal(await page.getAttribute("body", "data-state"), "ok");
});

test("a deflate-compressed .zip of a plugin folder loads as the source", async () => {
  const source = new Map([...readTree(striatum)].map(([path, file]) => [path, file.bytes]));
  await settled(() =>
    page.setInputFiles("#zip-input", { name: "striatum.zip", mimeType: "application/zip", buffer: zipDeflated(source, "striatum") }),
  );
  assert.equal(await page.getAttribute("body", "data-state"), "ok");
  assert.equal(await page.textContent("#source-name"), `striatum.zip: ${source.size} file(s)`);
  const expected = readTree(cliBuild(["claude-code", "codex"]).out);
  const root = await downloadZip("#download-root");
  assertSameFiles(root.files, expected, "output root zip after the .zip source");
});

test("a picked folder loads as the source", async () => {
  await settled(() => page.setInputFiles("#folder-input", striatum));
  assert.equal(await page.getAttribute("body", "data-state"), "ok");
  assert.equal(await page.textContent("#source-name"), `striatum: ${readTree(striatum).size} file(s)`);
  await openTab("claude-code:plugin");
  const expected = readTree(cliBuild(["claude-code"]).out).get("claude-code/commands/why.md").bytes;
  assert.equal((await showOutput("commands/why.md")).sha256, sha256(expected));
});

test("a narrow screen needs no sideways scrolling", async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than a 390px screen`);
  await page.setViewportSize({ width: 1280, height: 1000 });
});

test("the page made no request outside its own origin and threw nothing", () => {
  assert.ok(requests.some((r) => r.endsWith("/pkg/plugforge_wasm_bg.wasm")), "the watcher saw the page's own requests");
  assert.deepEqual(foreignRequests, []);
  assert.deepEqual(pageErrors, []);
});

test("the README screenshot", { skip: process.env.PLAYGROUND_SCREENSHOT !== "1" && "PLAYGROUND_SCREENSHOT=1 takes it" }, async () => {
  await settled(() => page.selectOption("#example", "example:striatum"));
  await page.click('#source-tree [data-path="commands/status.md.j2"]');
  await openTab("claude-code:plugin");
  await showOutput("commands/status.md");
  await page.setViewportSize({ width: 1280, height: 1560 });
  await page.evaluate(() => window.scrollTo(0, 0));
  mkdirSync(join(repo, "docs"), { recursive: true });
  await page.screenshot({ path: join(repo, "docs", "playground.png") });
  await page.setViewportSize({ width: 1280, height: 1000 });
});
