// Drives the real playground page in headless Chromium and holds what it
// shows and downloads against the plugforge command line, byte for byte.
// Needs the assembled site (scripts/playground --build) and the CLI binary:
// scripts/test-playground sets both up. PLAYGROUND_SCREENSHOT=1 rewrites
// docs/playground.png.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { chromium } from "playwright-core";
import { serve } from "../serve.mjs";

const repo = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const site = process.env.PLAYGROUND_SITE ?? join(repo, "target", "playground");
// The engine the page runs, loaded here too: its registry is the page's runtime table.
const wasm = await import(join(site, "pkg", "plugforge_wasm.js"));
wasm.initSync({ module: readFileSync(join(site, "pkg", "plugforge_wasm_bg.wasm")) });
const RUNTIMES = wasm.runtimes();
const cli = process.env.PLUGFORGE_CLI ?? join(repo, "target", "debug", "plugforge");
const striatum = join(repo, "examples", "striatum");
// 2026-01-01T00:00:00Z: the CLI reads it from SOURCE_DATE_EPOCH, the page from its manifest-time field.
const EPOCH = "1767225600";
const GENERATED_AT = "2026-01-01T00:00:00Z";
// Not the template's default, so the page must really pass variables on.
const RUNNER_VERSION = "0.9.1";
// The tab of the whole output root.
const ROOT_TAB_KEY = "";

let server;
let url;
let browser;
let context;
let page;
let scratch;
const foreignRequests = [];
const requests = [];
const pageErrors = [];

before(async () => {
  for (const needed of [join(site, "index.html"), join(site, "pkg", "plugforge_wasm_bg.wasm"), cli]) {
    assert.ok(statSync(needed, { throwIfNoEntry: false }), `${needed} is missing: run scripts/test-playground`);
  }
  // Memory-backed when there is one: the big export test writes and removes
  // some 150,000 files, which takes minutes on a disk that discards on delete.
  const memory = statSync("/dev/shm", { throwIfNoEntry: false })?.isDirectory() ? "/dev/shm" : tmpdir();
  scratch = mkdtempSync(join(memory, "plugforge-playground-"));
  ({ server, url } = await serve(site));
  browser = await chromium.launch({
    executablePath: process.env.PLAYGROUND_CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, acceptDownloads: true });
  const origin = new URL(url).origin;
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
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
  server?.closeAllConnections();
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

/**
 * Reads a zip independently of the page's reader: path -> {bytes, executable},
 * checking every CRC-32. Zip64 (end record, locator, extra fields) too; `zip64`
 * on the result says whether the archive had the zip64 end record.
 */
function unzip(buffer) {
  let end = buffer.length - 22;
  while (end >= 0 && buffer.readUInt32LE(end) !== 0x06054b50) end--;
  assert.ok(end >= 0, "no end of central directory record");
  const files = new Map();
  let count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  const zip64 = end >= 20 && buffer.readUInt32LE(end - 20) === 0x07064b50;
  if (zip64) {
    const record = Number(buffer.readBigUInt64LE(end - 20 + 8));
    assert.equal(buffer.readUInt32LE(record), 0x06064b50, "zip64 end of central directory record");
    count = Number(buffer.readBigUInt64LE(record + 32));
    at = Number(buffer.readBigUInt64LE(record + 48));
  }
  for (let i = 0; i < count; i++) {
    assert.equal(buffer.readUInt32LE(at), 0x02014b50, "central directory header");
    const method = buffer.readUInt16LE(at + 10);
    const crc = buffer.readUInt32LE(at + 16);
    let size = buffer.readUInt32LE(at + 20);
    let uncompressed = buffer.readUInt32LE(at + 24);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const mode = buffer.readUInt32LE(at + 38) >>> 16;
    let local = buffer.readUInt32LE(at + 42);
    const path = buffer.toString("utf8", at + 46, at + 46 + nameLength);
    // The zip64 extra field (id 1) holds, in order, each of these that is 0xffffffff.
    for (let x = at + 46 + nameLength; x < at + 46 + nameLength + extraLength; x += 4 + buffer.readUInt16LE(x + 2)) {
      if (buffer.readUInt16LE(x) !== 1) continue;
      let next = x + 4;
      const take = () => Number(buffer.readBigUInt64LE((next += 8) - 8));
      if (uncompressed === 0xffffffff) uncompressed = take();
      if (size === 0xffffffff) size = take();
      if (local === 0xffffffff) local = take();
    }
    at += 46 + nameLength + extraLength + buffer.readUInt16LE(at + 32);
    assert.equal(buffer.readUInt32LE(local), 0x04034b50, `${path}: local header`);
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const raw = buffer.subarray(start, start + size);
    const bytes = method === 8 ? inflateRawSync(raw) : raw;
    assert.equal(crc32(bytes), crc, `${path}: CRC-32`);
    assert.equal(bytes.length, uncompressed, `${path}: size`);
    files.set(path, { bytes, executable: (mode & 0o111) !== 0 });
  }
  files.zip64 = zip64;
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
async function settled(action, on = page, timeout = 30_000) {
  const before = Number(await on.getAttribute("body", "data-builds"));
  await action();
  await on.waitForFunction(
    (n) => Number(document.body.dataset.builds) > n && !document.body.dataset.pending,
    before,
    { timeout },
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

async function downloadZip(button, on = page) {
  const [download] = await Promise.all([on.waitForEvent("download"), on.click(button)]);
  const path = join(mkdtempSync(join(scratch, "download-")), download.suggestedFilename());
  await download.saveAs(path);
  const bytes = readFileSync(path);
  return { name: download.suggestedFilename(), path, bytes, files: unzip(bytes) };
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
  // The page offers each runtime of the registry, in its order, with its kinds.
  const offered = await page.$$eval("#runtimes .runtime", (rows) =>
    rows.map((row) => ({
      id: row.querySelector("input[type=checkbox]").value,
      kinds: [...row.querySelectorAll("select option")].map((o) => o.value).filter(Boolean),
    })),
  );
  assert.deepEqual(offered, RUNTIMES.map((r) => ({ id: r.id, kinds: r.kinds })));
  assert.ok(RUNTIMES.length >= 12 && RUNTIMES.every((r) => r.name && r.kinds.length > 0), JSON.stringify(RUNTIMES));
  // The registry's list is the one the builder knows: its errors name the same ids and kinds.
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

/** A copy of the Striatum example in a scratch folder, with `edit(path, text) -> text` applied to every text file. */
function editedStriatum(edit) {
  const dir = mkdtempSync(join(scratch, "src-"));
  for (const [path, file] of readTree(striatum)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), edit(path, file.bytes.toString("utf8")), { mode: file.executable ? 0o755 : 0o644 });
  }
  return dir;
}

function cliBuildOf(src, targets) {
  const out = mkdtempSync(join(scratch, "cli-"));
  const args = ["build", src, "--out", out, "--var", `runner_version=${RUNNER_VERSION}`];
  for (const target of targets) args.push("--target", target);
  const run = spawnSync(cli, args, { env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH }, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  return readTree(out);
}

test("the CodeMirror editor highlights by file type, and typing into it rebuilds the output", async () => {
  await page.click('#source-tree [data-path="plugforge.json.j2"]');
  assert.equal(await page.getAttribute("#editor", "data-language"), "json");
  // The highlighter wraps tokens in classed spans; a property name and a string value get different colours.
  const colours = await page.$$eval("#editor .cm-content .cm-line span[class]", (spans) => [
    ...new Set(spans.map((s) => getComputedStyle(s).color)),
  ]);
  assert.ok(colours.length >= 2, `JSON tokens carry highlight classes with their own colours: ${colours}`);
  const stringToken = await page.$eval("#editor .cm-content", (content) =>
    [...content.querySelectorAll("span[class]")].some((s) => s.textContent === '"MIT"'),
  );
  assert.ok(stringToken, 'the "MIT" string is a highlighted token');
  await page.click('#source-tree [data-path="AGENTS.md"]');
  assert.equal(await page.getAttribute("#editor", "data-language"), "markdown");
  await page.click('#source-tree [data-path="hooks/hooks.json"]');
  assert.equal(await page.getAttribute("#editor", "data-language"), "json");

  await page.click('#source-tree [data-path="commands/status.md.j2"]');
  assert.equal(await page.getAttribute("#editor", "data-language"), "markdown", "a .j2 template is highlighted as the file it renders");
  const original = await editorText();
  await settled(async () => {
    await page.click("#editor .cm-content");
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\nTyped in the editor.\n");
  });
  assert.equal(await page.getAttribute("body", "data-state"), "ok");
  assert.equal(await page.inputValue("#example"), "custom", "an edit marks the source as the user's");
  assert.equal(await editorText(), `${original}\nTyped in the editor.\n`);
  const expected = cliBuildOf(
    editedStriatum((path, text) => (path === "commands/status.md.j2" ? `${text}\nTyped in the editor.\n` : text)),
    ["claude-code", "codex"],
  ).get("claude-code/commands/status.md").bytes;
  await openTab("claude-code:plugin");
  const shown = await showOutput("commands/status.md");
  assert.ok(shown.text.includes("Typed in the editor."), "the typed text reached the output");
  assert.equal(shown.sha256, sha256(expected), "the output is what the CLI builds from the edited source");
  assert.equal(await page.getAttribute("#viewer-content", "data-language"), "markdown");
  assert.equal(await page.getAttribute("#viewer-content .cm-content", "contenteditable"), "false", "the output viewer is read-only");

  await settled(() => setEditorText(original));
  assert.equal(await editorText(), original);
});

test("a validate finding shows as a lint marker at its line in the source editor and in the list", async () => {
  await page.click('#source-tree [data-path="AGENTS.md"]');
  const original = await editorText();
  const lines = original.split("\n");
  const at = 3; // the finding's line, 1-based
  const withToken = [...lines.slice(0, at - 1), "deploy key: ghp_abcdefghijklmnopqrstuvwxyz0123456789", ...lines.slice(at - 1)].join("\n");
  await settled(() => setEditorText(withToken));

  // A credential in prose (a context file) is a warning at its line; in what runs or configures it refuses.
  assert.match(await page.textContent("#findings"), /warning source\/diagnostic: .*GitHub token.*literal_credential/);
  assert.equal(await page.textContent('#findings button.location:has-text("AGENTS.md")'), `AGENTS.md:${at}`);
  assert.ok((await page.$$("#editor .cm-gutter-lint .cm-lint-marker-warning")).length >= 1, "a warning marker in the lint gutter");
  const marked = await page.$$eval("#editor .cm-content .cm-lintRange-warning", (ranges) =>
    ranges.map((r) => {
      const line = r.closest(".cm-line");
      return { index: [...line.parentElement.children].indexOf(line) + 1, text: line.textContent };
    }),
  );
  assert.ok(marked.length >= 1, "the finding underlines its range");
  for (const m of marked) {
    assert.equal(m.index, at, `the marker sits on line ${at}`);
    assert.match(m.text, /ghp_/);
  }
  await page.hover("#editor .cm-lintRange-warning");
  await page.waitForSelector(".cm-tooltip-lint .cm-diagnostic-warning");
  assert.match(await page.textContent(".cm-tooltip-lint"), /source\/diagnostic: .*GitHub token/);

  // Another file does not carry AGENTS.md's marker; coming back shows it again.
  await page.click('#source-tree [data-path="plugforge.json.j2"]');
  assert.equal(await page.getAttribute("#editor", "data-lint"), "0");
  await page.click('#findings button.location:has-text("AGENTS.md")');
  assert.equal(await page.textContent("#editor-path"), "AGENTS.md");
  assert.ok(Number(await page.getAttribute("#editor", "data-lint")) >= 1);

  await settled(() => setEditorText(original));
  assert.equal(await page.getAttribute("body", "data-state"), "ok");
  assert.equal(await page.$$eval("#editor .cm-lintRange-warning", (r) => r.length), 0, "the marker clears with the fix");
  assert.doesNotMatch((await page.textContent("#findings")) ?? "", /credential/);
});

test("two runtimes' bundles side by side: the diff shows both files and lists the paths only one has", async () => {
  const expected = readTree(cliBuild(["claude-code", "codex"]).out);
  const left = new Map([...below(expected, "claude-code")].map(([p, f]) => [p.slice("claude-code/".length), f]));
  const right = new Map([...below(expected, "codex")].map(([p, f]) => [p.slice("codex/".length), f]));
  assert.deepEqual(
    [await page.inputValue("#diff-left"), await page.inputValue("#diff-right")],
    ["claude-code:plugin", "codex:plugin"],
    "unpicked, the two sides are the first two bundles",
  );
  await page.selectOption("#diff-left", "claude-code:plugin");
  await page.selectOption("#diff-right", "codex:plugin");

  const onlyLeft = [...left.keys()].filter((p) => !right.has(p)).sort();
  const onlyRight = [...right.keys()].filter((p) => !left.has(p)).sort();
  assert.ok(onlyLeft.length > 0 && onlyRight.length > 0, "the two bundles differ in their paths");
  const listed = (id) => page.$$eval(`#${id} li code`, (codes) => codes.map((c) => c.textContent));
  assert.deepEqual(await listed("diff-only-left"), onlyLeft);
  assert.deepEqual(await listed("diff-only-right"), onlyRight);
  const common = [...left.keys()].filter((p) => right.has(p));
  const differing = common.filter((p) => !left.get(p).bytes.equals(right.get(p).bytes));
  assert.equal(
    await page.textContent("#diff-summary"),
    `${common.length} path(s) in both, ${differing.length} of them different; ${onlyLeft.length} only in claude-code:plugin, ${onlyRight.length} only in codex:plugin`,
  );

  const sides = () =>
    page.$eval("#diff-view", (el) => ({ a: el.mergeView.a.state.doc.toString(), b: el.mergeView.b.state.doc.toString() }));
  const changed = () => page.$$eval("#diff-view .cm-changedLine, #diff-view .cm-changedText", (e) => e.length);
  const path = differing.find((p) => !p.endsWith(".plugforge-manifest.json"));
  assert.ok(path, "a file both bundles have with different bytes");
  await page.selectOption("#diff-left-path", path);
  assert.equal(await page.inputValue("#diff-right-path"), path, "the right side follows to the same path");
  assert.deepEqual(await sides(), { a: left.get(path).bytes.toString("utf8"), b: right.get(path).bytes.toString("utf8") });
  assert.ok((await changed()) > 0, `${path}: the changes are marked`);

  const same = common.find((p) => left.get(p).bytes.equals(right.get(p).bytes));
  if (same) {
    await page.selectOption("#diff-left-path", same);
    assert.equal(await changed(), 0, `${same}: identical files show no change`);
  }

  // Any two files: one bundle's file against another file of the other.
  const other = onlyRight[0];
  await page.selectOption("#diff-right-path", other);
  assert.deepEqual(await sides(), { a: left.get(same ?? path).bytes.toString("utf8"), b: right.get(other).bytes.toString("utf8") });
});

test("a copied link reproduces the source and options in a new page: same files, same output bytes", async () => {
  await settled(async () => {
    await page.fill("#new-file-path", "commands/linked.md");
    await page.click("#new-file button[type=submit]");
  });
  await settled(() => setEditorText("---\ndescription: Only in the link\n---\nSay ünïcödé hello to $ARGUMENTS\n"));
  await settled(() => page.selectOption("#kind-gemini", "extension"));
  await settled(() => page.check("#runtime-gemini"));
  await page.click("#copy-link");
  await page.waitForFunction(() => document.getElementById("link-status").textContent.startsWith("link copied"));
  const link = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(link.startsWith(`${url}#s=`), `a #s= link on the page's address: ${link.slice(0, 60)}`);
  assert.equal(link, await page.evaluate(() => location.href), "the address bar holds the same link");

  const other = await context.newPage();
  other.on("pageerror", (error) => pageErrors.push(error.message));
  try {
    await other.goto(link);
    await other.waitForFunction(() => Number(document.body.dataset.builds) > 0 && !document.body.dataset.pending);
    assert.equal(await other.getAttribute("body", "data-state"), "ok");
    const sourcePaths = (on) => on.$$eval("#source-tree [data-path]", (b) => b.map((x) => x.dataset.path));
    const paths = await sourcePaths(page);
    assert.ok(paths.includes("commands/linked.md"));
    assert.deepEqual(await sourcePaths(other), paths, "the same source files");
    for (const path of ["commands/linked.md", "plugforge.json.j2", "commands/status.md.j2"]) {
      await page.click(`#source-tree [data-path="${path}"]`);
      await other.click(`#source-tree [data-path="${path}"]`);
      const text = (on) => on.$eval("#editor", (el) => el.editorView.state.doc.toString());
      assert.equal(await text(other), await text(page), `${path}: the same content`);
    }
    // Every file's bytes and executable bit and every option: the new page's
    // own link, written from the state it decoded, is the same link.
    await other.waitForFunction(() => !document.body.dataset.linkPending);
    const again = await other.evaluate(() => location.href);
    assert.ok(again === link, `the state read from the link encodes back to the same link (${again.length} vs ${link.length} characters)`);
    for (const id of ["#generated-at", "#vars", "#namespace", "#scope", "#kind-gemini", "#example"]) {
      assert.equal(await other.inputValue(id), await page.inputValue(id), `${id} is the same`);
    }
    const checked = (on) => on.$$eval("#runtimes input[type=checkbox]:checked", (c) => c.map((x) => x.value));
    assert.deepEqual(await checked(other), ["claude-code", "codex", "gemini"]);
    assert.deepEqual(await checked(other), await checked(page));

    const mine = await downloadZip("#download-root");
    const theirs = await downloadZip("#download-root", other);
    assert.ok(theirs.bytes.equals(mine.bytes), "the output root zips are the same bytes");
    assert.ok(mine.files.has("commands/linked.md") || [...mine.files.keys()].some((p) => p.endsWith("/linked.md")));
    assert.ok([...mine.files.keys()].some((p) => p.startsWith("gemini/")), "the linked runtime choice took effect");

    // A damaged link says so instead of building something else.
    await other.goto(`${url}#s=AAAA-not-deflate`);
    await other.waitForSelector("#fatal:not([hidden])");
    assert.match(await other.textContent("#fatal"), /the link's source is damaged/);
  } finally {
    await other.close();
  }

  await settled(() => page.uncheck("#runtime-gemini"));
  await settled(() => page.selectOption("#kind-gemini", ""));
  await page.click('#source-tree [data-path="commands/linked.md"]');
  await settled(() => page.click("#delete-file"));
});

test("an output root of more than 65,535 files exports as a zip64 the same as the CLI's output, byte for byte", async (t) => {
  const SKILLS = 6700;
  const src = join(scratch, "big");
  const source = new Map();
  source.set(
    "plugforge.json",
    Buffer.from(
      JSON.stringify(
        { name: "big", version: "1.0.0", description: "A plugin with many skills.", author: { name: "big authors" }, license: "MIT", marketplace: { owner: { name: "big authors" }, category: "Developer Tools" } },
        null,
        2,
      ),
    ),
  );
  for (let i = 1; i <= SKILLS; i++) {
    source.set(`skills/skill-${i}/SKILL.md`, Buffer.from(`---\nname: skill-${i}\ndescription: Skill number ${i}. Use when the user asks for skill ${i}.\n---\n# Skill ${i}\n\nDo step ${i} carefully.\n`));
  }
  for (const [path, bytes] of source) {
    mkdirSync(dirname(join(src, path)), { recursive: true });
    writeFileSync(join(src, path), bytes);
  }
  let started = performance.now();
  const out = mkdtempSync(join(scratch, "cli-big-"));
  const run = spawnSync(cli, ["build", src, "--out", out, "--target", "all"], {
    env: { ...process.env, SOURCE_DATE_EPOCH: EPOCH },
    encoding: "utf8",
    stdio: ["ignore", "ignore", "pipe"],
  });
  assert.equal(run.status, 0, run.stderr);
  const expected = readTree(out);
  t.diagnostic(`CLI build of ${source.size} source files: ${expected.size} output files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  assert.ok(expected.size > 65_535, `more than 65,535 output files (${expected.size})`);

  await settled(() => page.fill("#vars", ""));
  // `--target all`: every runtime the registry builds for it.
  const all = RUNTIMES.filter((r) => r.inTargetAll);
  await settled(async () => {
    for (const runtime of all) await page.check(`#runtime-${runtime.id}`);
  });
  started = performance.now();
  await settled(
    () => page.setInputFiles("#zip-input", { name: "big.zip", mimeType: "application/zip", buffer: zipDeflated(source, "big") }),
    page,
    600_000,
  );
  const built = (performance.now() - started) / 1000;
  assert.equal(await page.getAttribute("body", "data-state"), "ok", await page.textContent("#status"));
  assert.equal(await page.textContent("#source-name"), `big.zip: ${source.size} file(s)`);
  assert.match(await page.textContent("#status"), new RegExp(`built ${all.length} runtime\\(s\\), ${expected.size} file\\(s\\)`));

  // The trees render a bounded number of rows; the filter finds any file.
  await openTab(ROOT_TAB_KEY);
  assert.equal(Number(await page.getAttribute("#output-tree", "data-total")), expected.size);
  assert.ok(Number(await page.getAttribute("#output-tree", "data-shown")) <= 1001, "the output tree is capped");
  assert.ok(Number(await page.getAttribute("#source-tree", "data-shown")) <= 1001, "the source tree is capped");
  assert.match(await page.textContent("#output-tree .tree-note"), /filter to find the rest/);
  await page.fill("#output-filter", "claude-code/skills/skill-6543/");
  assert.deepEqual(await outputPaths(), ["claude-code/skills/skill-6543/SKILL.md"]);
  const shown = await showOutput("claude-code/skills/skill-6543/SKILL.md");
  assert.equal(shown.sha256, sha256(expected.get("claude-code/skills/skill-6543/SKILL.md").bytes));
  await page.fill("#output-filter", "");

  started = performance.now();
  const root = await downloadZip("#download-root");
  const exported = (performance.now() - started) / 1000;
  t.diagnostic(
    `page: loading the ${source.size}-file .zip and building ${expected.size} files took ${built.toFixed(1)} s; ` +
      `exporting the output root zip (${(root.bytes.length / 1048576).toFixed(1)} MiB) took ${exported.toFixed(1)} s`,
  );
  assert.ok(root.files.zip64, "the zip has the zip64 end record");
  assert.equal(root.files.size, expected.size);
  assertSameFiles(root.files, expected, "the big output root zip");
  const python = spawnSync("python3", ["-m", "zipfile", "-t", root.path], { encoding: "utf8", maxBuffer: 256 << 20 });
  assert.equal(python.status, 0, `python3 -m zipfile -t: ${python.stdout}${python.stderr}`);
  assert.doesNotMatch(python.stdout + python.stderr, /bad|error/i);
  const unzipTest = spawnSync("unzip", ["-tqq", root.path], { encoding: "utf8", maxBuffer: 256 << 20 });
  assert.equal(unzipTest.status, 0, `unzip -t: ${unzipTest.stdout}${unzipTest.stderr}`);
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
  await settled(async () => {
    for (const runtime of RUNTIMES) await page.setChecked(`#runtime-${runtime.id}`, ["claude-code", "codex"].includes(runtime.id));
  });
  await settled(() => page.selectOption("#example", "example:striatum"));
  await settled(() => page.fill("#vars", `runner_version=${RUNNER_VERSION}`));
  await page.click('#source-tree [data-path="commands/status.md.j2"]');
  await openTab("claude-code:plugin");
  await showOutput("commands/status.md");
  await page.waitForFunction(() => !document.body.dataset.linkPending);
  await page.setViewportSize({ width: 1280, height: 1560 });
  await page.evaluate(() => window.scrollTo(0, 0));
  mkdirSync(join(repo, "docs"), { recursive: true });
  await page.screenshot({ path: join(repo, "docs", "playground.png") });
  await page.setViewportSize({ width: 1280, height: 1000 });
});
