// The playground page: a plugin source held in memory, built by the wasm
// engine on every change, shown per runtime. Every failure lands on the page.
import init, { build, runtimes, starterSource, validate, version } from "./pkg/plugforge_wasm.js";
import { examples } from "./examples.js";
import { readZip, writeZip } from "./zip.js";
import { createEditor, showDiff } from "./editor.js";
import { linkState, readLinkState, LINK_SOURCE_LIMIT } from "./link.js";

// Folders the command line skips when it reads a source; `dist` is its
// default output folder inside a source.
const SKIPPED_DIRS = new Set([".git", "node_modules", "target", "dist", "__MACOSX"]);
const TYPING_DELAY_MS = 250;
const LINK_DELAY_MS = 400;
const ROOT_TAB = "";
// DOM rows past these stay unrendered: a source or output of tens of
// thousands of files would otherwise take seconds to lay out on every build.
const TREE_LIMIT = 1000;
const LIST_LIMIT = 200;
const HONESTY_ROW_LIMIT = 300;

const $ = (id) => document.getElementById(id);
const encoder = new TextEncoder();

const state = {
  files: new Map(), // path -> {bytes, executable}
  selectedSource: null,
  tab: undefined, // ROOT_TAB or "runtime:kind"; undefined: the first bundle
  selectedOutput: new Map(), // tab -> path shown in the viewer
  result: null, // the last successful build
  usable: false, // the last build succeeded and strict mode did not refuse it
  timer: undefined,
  lastDownload: undefined,
  findings: [], // validate findings and build problems with a source location
  diff: { left: undefined, right: undefined, rightPicked: false, leftPath: undefined, rightPath: undefined },
  linkTimer: undefined,
  linkVersion: 0,
};

let sourceEditor;
let viewer;
// The runtimes the engine writes for and their artifact kinds, default first:
// the engine's own registry, read once the module is loaded.
let engineRuntimes = [];

class PageError extends Error {
  constructor(message, location) {
    super(message);
    this.code = "invalid_input";
    this.problems = [{ message, location }];
  }
}

// ---- source ----------------------------------------------------------------

function setSource(name, files, { stripTopFolder = false } = {}) {
  let entries = files.filter((f) => !f.path.split("/").some((part) => SKIPPED_DIRS.has(part) || part === ".DS_Store"));
  if (stripTopFolder) entries = withoutTopFolder(entries);
  state.files = new Map(
    entries
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map((f) => [f.path, { bytes: f.bytes, executable: Boolean(f.executable) }]),
  );
  state.sourceName = name;
  $("source-name").textContent = `${name}: ${state.files.size} file(s)`;
  const config = ["plugforge.json", "plugforge.json.j2", ".claude-plugin/plugin.json"].find((p) => state.files.has(p));
  selectSource(config ?? state.files.keys().next().value ?? null);
  rebuild();
}

/** A zip of a folder, or a picked folder, holds every path under one top folder. */
function withoutTopFolder(files) {
  const tops = new Set(files.map((f) => (f.path.includes("/") ? f.path.split("/")[0] : "")));
  if (tops.size !== 1 || tops.has("")) return files;
  return files.map((f) => ({ ...f, path: f.path.slice(f.path.indexOf("/") + 1) }));
}

function loadChoice(value) {
  if (value === "starter") {
    setSource("starter (plugforge init)", starterSource("my-plugin"));
    return;
  }
  const example = examples.find((e) => `example:${e.name}` === value);
  if (!example) return;
  const files = example.files.map((f) => ({ path: f.path, bytes: fromBase64(f.base64), executable: f.executable }));
  setSource(`examples/${example.name}`, files);
}

function fromBase64(text) {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

function markCustomSource() {
  $("example").value = "custom";
}

async function loadZipFile(file) {
  try {
    const files = await readZip(new Uint8Array(await file.arrayBuffer()));
    if (files.length === 0) throw new Error("the zip holds no files");
    markCustomSource();
    setSource(file.name, files, { stripTopFolder: true });
  } catch (err) {
    showFatal(`${file.name}: ${err.message}`);
  }
}

async function openFolder() {
  if (!window.showDirectoryPicker) {
    $("folder-input").click();
    return;
  }
  try {
    const dir = await window.showDirectoryPicker();
    const files = [];
    await readHandle(dir, "", files);
    markCustomSource();
    setSource(dir.name, files);
  } catch (err) {
    if (err.name !== "AbortError") showFatal(`opening the folder failed: ${err.message}`);
  }
}

async function readHandle(dir, prefix, files) {
  for await (const [name, handle] of dir.entries()) {
    if (handle.kind === "directory") {
      if (!SKIPPED_DIRS.has(name)) await readHandle(handle, `${prefix}${name}/`, files);
    } else {
      const file = await handle.getFile();
      files.push({ path: prefix + name, bytes: new Uint8Array(await file.arrayBuffer()), executable: false });
    }
  }
}

async function loadFolderInput(input) {
  const picked = [...input.files];
  input.value = "";
  if (picked.length === 0) return;
  try {
    const files = await Promise.all(
      picked.map(async (f) => ({
        path: f.webkitRelativePath || f.name,
        bytes: new Uint8Array(await f.arrayBuffer()),
        executable: false,
      })),
    );
    markCustomSource();
    setSource(picked[0].webkitRelativePath.split("/")[0] || "folder", files, { stripTopFolder: true });
  } catch (err) {
    showFatal(`reading the folder failed: ${err.message}`);
  }
}

async function loadDrop(event) {
  event.preventDefault();
  document.body.classList.remove("dropping");
  const item = [...event.dataTransfer.items].find((i) => i.kind === "file");
  const entry = item?.webkitGetAsEntry?.();
  try {
    if (entry?.isDirectory) {
      const files = [];
      await readEntry(entry, "", files);
      markCustomSource();
      setSource(entry.name, files);
    } else if (item && item.getAsFile().name.toLowerCase().endsWith(".zip")) {
      await loadZipFile(item.getAsFile());
    } else {
      showFatal("drop a plugin folder or a .zip of one");
    }
  } catch (err) {
    showFatal(`reading the dropped files failed: ${err.message}`);
  }
}

async function readEntry(dir, prefix, files) {
  const reader = dir.createReader();
  for (;;) {
    const batch = await new Promise((done, fail) => reader.readEntries(done, fail));
    if (batch.length === 0) return;
    for (const entry of batch) {
      if (entry.isDirectory) {
        if (!SKIPPED_DIRS.has(entry.name)) await readEntry(entry, `${prefix}${entry.name}/`, files);
      } else {
        const file = await new Promise((done, fail) => entry.file(done, fail));
        files.push({ path: prefix + entry.name, bytes: new Uint8Array(await file.arrayBuffer()), executable: false });
      }
    }
  }
}

// ---- editor ----------------------------------------------------------------

function decodeText(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function selectSource(path) {
  state.selectedSource = path;
  const file = path === null ? undefined : state.files.get(path);
  const editor = $("editor");
  $("editor-path").textContent = path ?? "no file";
  $("editor-executable").checked = Boolean(file?.executable);
  $("editor-executable").disabled = !file;
  $("delete-file").disabled = !file;
  const text = file ? decodeText(file.bytes) : null;
  editor.dataset.disabled = String(text === null);
  sourceEditor.show(file ? (text ?? `(binary file, ${file.bytes.length} bytes: not editable here)`) : "", path, { canEdit: text !== null });
  renderSourceTree();
  showLint();
}

function renderSourceTree() {
  renderTree($("source-tree"), [...state.files.keys()], state.selectedSource, selectSource, $("source-filter").value);
}

function onEdit(text) {
  const file = state.files.get(state.selectedSource);
  if (!file) return;
  file.bytes = encoder.encode(text);
  markCustomSource();
  scheduleRebuild();
}

function jumpTo(location) {
  const path = [location.file, `${location.file}.j2`].find((p) => state.files.has(p));
  if (!path) return;
  selectSource(path);
  sourceEditor.selectLine(location.line ?? 1);
}

// ---- findings in the editor ------------------------------------------------

/** validate's findings plus the build's own problems and diagnostics that have a source location. */
function collectFindings(files, buildError, result) {
  const findings = [];
  const seen = new Set();
  const add = (file, line, column, severity, message, code) => {
    const key = `${file}\u0000${line ?? 1}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    findings.push({ file, line, column, severity, message, code });
  };
  let report;
  try {
    report = validate(files, {});
  } catch (err) {
    report = { findings: [] };
  }
  for (const f of report.findings) if (f.file) add(f.file, f.line, f.column, f.severity, f.message, f.code);
  const located = [
    ...(buildError?.problems ?? []).map((p) => ({ ...p, severity: "error", code: buildError.code })),
    ...(result ? [...result.diagnostics, ...result.bundles.flatMap((b) => b.diagnostics)] : []),
  ];
  for (const d of located) {
    if (!d.location?.file) continue;
    // validate restates build diagnostics with the code appended; one marker is enough.
    const same = findings.some((f) => f.file === d.location.file && (f.line ?? 1) === (d.location.line ?? 1) && f.message.startsWith(d.message));
    if (!same) add(d.location.file, d.location.line, d.location.column, d.severity, d.message, d.code);
  }
  return { findings, report };
}

/** The findings of the file open in the editor (a `.j2` template carries those of the file it renders) as lint diagnostics. */
function showLint() {
  const path = state.selectedSource;
  const mine = state.findings.filter((f) => f.file === path || `${f.file}.j2` === path);
  sourceEditor.setLint(
    mine.map((f) => ({ line: f.line, column: f.column, severity: f.severity, message: f.code ? `${f.code}: ${f.message}` : f.message, source: "plugforge" })),
  );
}

function renderFindings(report) {
  const box = $("findings");
  const findings = report?.findings ?? [];
  box.hidden = findings.length === 0;
  if (box.hidden) return box.replaceChildren();
  const title = document.createElement("h3");
  title.textContent = `Validation (${report.errors} error(s), ${report.warnings} warning(s))`;
  const list = document.createElement("ul");
  for (const f of findings.slice(0, LIST_LIMIT)) {
    const item = document.createElement("li");
    item.className = f.severity;
    item.append(`${f.severity} ${f.code}: ${f.message} `);
    if (f.file) item.append(locationButton({ file: f.file, line: f.line, column: f.column }));
    list.append(item);
  }
  box.replaceChildren(title, list, ...limitNote(findings.length, LIST_LIMIT, "findings"));
}

function limitNote(total, limit, what) {
  if (total <= limit) return [];
  const note = document.createElement("p");
  note.className = "hint";
  note.textContent = `showing the first ${limit.toLocaleString("en")} of ${total.toLocaleString("en")} ${what}`;
  return [note];
}

// ---- options ---------------------------------------------------------------

function renderRuntimeOptions() {
  const box = $("runtimes");
  for (const runtime of engineRuntimes) {
    const row = document.createElement("div");
    row.className = "runtime";
    const label = document.createElement("label");
    const check = document.createElement("input");
    check.type = "checkbox";
    check.id = `runtime-${runtime.id}`;
    check.value = runtime.id;
    check.checked = runtime.id === "claude-code";
    // A runtime named by its id alone (generic, universal) shows the id once.
    label.append(check, " ", ...(runtime.name === runtime.id ? [] : [`${runtime.name} `]), code(runtime.id));
    const kind = document.createElement("select");
    kind.id = `kind-${runtime.id}`;
    kind.setAttribute("aria-label", `${runtime.name} artifact kind`);
    kind.append(new Option("default kind", ""), ...runtime.kinds.map((k) => new Option(k, k)));
    row.append(label, kind);
    box.append(row);
  }
}

function code(text) {
  const element = document.createElement("code");
  element.textContent = text;
  return element;
}

function readVars() {
  const vars = {};
  $("vars")
    .value.split("\n")
    .forEach((line, index) => {
      if (!line.trim()) return;
      const at = line.indexOf("=");
      if (at <= 0) throw new PageError(`template variables, line ${index + 1}: expected name=value, got ${JSON.stringify(line)}`);
      vars[line.slice(0, at).trim()] = line.slice(at + 1);
    });
  return vars;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function readOptions() {
  const targets = engineRuntimes.filter((r) => $(`runtime-${r.id}`).checked).map((r) => ({
    runtime: r.id,
    kind: $(`kind-${r.id}`).value || null,
  }));
  if (targets.length === 0) throw new PageError("choose at least one runtime");
  const generatedAt = $("generated-at").value.trim();
  if (!RFC3339.test(generatedAt)) {
    throw new PageError(`manifest time: expected an RFC 3339 time such as 2026-01-01T00:00:00Z, got ${JSON.stringify(generatedAt)}`);
  }
  const namespace = $("namespace").value.trim() || null;
  return { options: { targets, scope: $("scope").value, namespace, vars: readVars() }, generatedAt };
}

// ---- build -----------------------------------------------------------------

function scheduleRebuild() {
  clearTimeout(state.timer);
  document.body.dataset.pending = "true";
  state.timer = setTimeout(rebuild, TYPING_DELAY_MS);
}

function rebuild() {
  clearTimeout(state.timer);
  delete document.body.dataset.pending;
  const started = performance.now();
  const files = [...state.files].map(([path, f]) => ({ path, bytes: f.bytes, executable: f.executable }));
  scheduleLinkUpdate();
  let result;
  try {
    const { options, generatedAt } = readOptions();
    const built = build(files, options);
    try {
      result = {
        bundles: built.bundles,
        output: built.outputFiles(generatedAt),
        diagnostics: built.diagnostics,
        manifestName: built.manifestName,
      };
    } finally {
      built.free();
    }
  } catch (err) {
    const elapsed = performance.now() - started;
    showValidation(files, err, null);
    showFailure(err, elapsed);
    return;
  }
  result.elapsed = performance.now() - started;
  showValidation(files, null, result);
  showResult(result);
}

function showValidation(files, buildError, result) {
  const { findings, report } = collectFindings(files, buildError, result);
  state.findings = findings;
  renderFindings(report);
  showLint();
}

function notSupported(result) {
  return result.bundles.flatMap((b) => b.honesty).filter((row) => row.level !== "supported").length;
}

function showFailure(err, elapsed) {
  state.usable = false;
  renderProblems($("error"), err);
  $("diagnostics").hidden = true;
  $("results").classList.add("stale");
  $("results").hidden = !state.result;
  const stale = state.result ? "; the output below is from the last good build" : "";
  setStatus("error", `${err.code ? `${err.code}: ` : ""}nothing was built (${ms(elapsed)})${stale}`);
  finishBuild("error");
}

function showResult(result) {
  state.result = result;
  $("error").hidden = true;
  $("results").classList.remove("stale");
  $("results").hidden = false;
  const refused = $("strict").checked ? notSupported(result) : 0;
  state.usable = refused === 0;
  const files = result.output.length;
  if (refused > 0) {
    setStatus("refused", `refused: ${refused} component(s) are not fully supported and strict is set (built in ${ms(result.elapsed)})`);
  } else {
    setStatus("ok", `built ${result.bundles.length} runtime(s), ${files} file(s) in ${ms(result.elapsed)}`);
  }
  renderDiagnostics(result);
  renderTabs(result);
  renderOutput();
  renderDiff();
  renderHonesty(result);
  finishBuild(refused > 0 ? "refused" : "ok");
}

function ms(elapsed) {
  return `${elapsed.toFixed(1)} ms`;
}

function setStatus(kind, text) {
  const status = $("status");
  status.className = kind;
  status.textContent = text;
}

/** Tells watchers (the end-to-end test) that a build attempt finished; `data-pending` marks one still to come. */
function finishBuild(outcome) {
  document.body.dataset.state = outcome;
  document.body.dataset.builds = String(Number(document.body.dataset.builds) + 1);
  for (const id of ["download-bundle", "download-root"]) $(id).disabled = !state.usable;
  updateTabButtons();
}

// ---- output ----------------------------------------------------------------

function tabKey(bundle) {
  return `${bundle.runtime}:${bundle.kind}`;
}

function currentBundle() {
  return state.result?.bundles.find((b) => tabKey(b) === state.tab);
}

/** The output-root files of one bundle: its files, its manifest and the shared files it has parts in. */
function bundleFiles(bundle, output) {
  const prefix = bundle.root ? `${bundle.root}/` : "";
  const own = new Set([bundle.manifest, ...bundle.files.map((f) => prefix + f.path), ...bundle.merges.map((m) => m.path)]);
  return output.filter((f) => own.has(f.path) && f.path.startsWith(prefix));
}

/** [{path shown, file}] for the open tab. */
function tabEntries() {
  const { output } = state.result;
  const bundle = currentBundle();
  if (!bundle) return output.map((file) => ({ path: file.path, file }));
  const prefix = bundle.root ? `${bundle.root}/` : "";
  return bundleFiles(bundle, output).map((file) => ({ path: file.path.slice(prefix.length), file }));
}

function renderTabs(result) {
  if (state.tab !== ROOT_TAB && !currentBundle()) state.tab = tabKey(result.bundles[0]);
  const tabs = $("tabs");
  tabs.replaceChildren();
  const add = (key, label) => {
    const tab = document.createElement("button");
    tab.type = "button";
    tab.role = "tab";
    tab.dataset.tab = key;
    tab.textContent = label;
    tab.setAttribute("aria-selected", String(key === state.tab));
    tab.addEventListener("click", () => {
      state.tab = key;
      renderTabs(state.result);
      renderOutput();
    });
    tabs.append(tab);
  };
  for (const bundle of result.bundles) add(tabKey(bundle), `${bundle.runtime} (${bundle.kind})`);
  add(ROOT_TAB, "whole output root");
}

function updateTabButtons() {
  $("show-manifest").hidden = state.tab === ROOT_TAB;
  $("download-bundle").hidden = state.tab === ROOT_TAB;
}

function renderOutput() {
  const entries = tabEntries();
  const paths = entries.map((e) => e.path);
  let selected = state.selectedOutput.get(state.tab);
  if (!paths.includes(selected)) {
    selected = paths.find((p) => p.split("/").pop() !== state.result.manifestName) ?? paths[0];
  }
  state.selectedOutput.set(state.tab, selected);
  renderTree(
    $("output-tree"),
    paths,
    selected,
    (path) => {
      state.selectedOutput.set(state.tab, path);
      renderOutput();
    },
    $("output-filter").value,
  );
  const entry = entries.find((e) => e.path === selected);
  $("viewer-path").textContent = entry ? entry.file.path : "";
  $("viewer-sha256").textContent = entry ? entry.file.sha256 : "";
  const text = entry ? decodeText(entry.file.bytes) : "";
  viewer.show(text ?? `(binary file, ${entry.file.bytes.length} bytes)`, entry?.file.path);
  $("download-bundle").textContent = `Download ${state.tab.split(":")[0]} bundle .zip`;
  updateTabButtons();
}

function showManifest() {
  const bundle = currentBundle();
  if (!bundle) return;
  const prefix = bundle.root ? `${bundle.root}/` : "";
  state.selectedOutput.set(state.tab, bundle.manifest.slice(prefix.length));
  renderOutput();
}

/**
 * Renders sorted `paths` as a nested folder list; files are buttons carrying
 * data-path. Only paths containing `filter` are shown, at most TREE_LIMIT of
 * them (the selected one always), with a note saying how many are left out.
 */
function renderTree(container, paths, selected, onPick, filter = "") {
  const root = document.createElement("ul");
  const folders = new Map([["", root]]);
  const needle = filter.trim().toLowerCase();
  const matching = needle ? paths.filter((p) => p.toLowerCase().includes(needle)) : paths;
  let shown = [...matching].sort().slice(0, TREE_LIMIT);
  if (selected !== undefined && selected !== null && matching.includes(selected) && !shown.includes(selected)) {
    shown = [...shown, selected].sort();
  }
  container.dataset.total = String(paths.length);
  container.dataset.shown = String(shown.length);
  for (const path of shown) {
    const parts = path.split("/");
    let parent = root;
    for (let depth = 1; depth < parts.length; depth++) {
      const folder = parts.slice(0, depth).join("/");
      if (!folders.has(folder)) {
        const item = document.createElement("li");
        item.className = "folder";
        const name = document.createElement("span");
        name.textContent = `${parts[depth - 1]}/`;
        const list = document.createElement("ul");
        item.append(name, list);
        parent.append(item);
        folders.set(folder, list);
      }
      parent = folders.get(folder);
    }
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.path = path;
    button.textContent = parts[parts.length - 1];
    if (path === selected) button.setAttribute("aria-current", "true");
    button.addEventListener("click", () => onPick(path));
    item.append(button);
    parent.append(item);
  }
  const notes = [];
  if (shown.length < matching.length || needle) {
    const note = document.createElement("p");
    note.className = "tree-note hint";
    note.textContent = `${shown.length.toLocaleString("en")} of ${matching.length.toLocaleString("en")}${needle ? " matching" : ""} file(s) shown${
      shown.length < matching.length ? "; filter to find the rest" : ""
    }`;
    notes.push(note);
  }
  container.replaceChildren(...notes, root);
}

function renderHonesty(result) {
  const columns = result.bundles.map(tabKey);
  const rows = new Map();
  for (const bundle of result.bundles) {
    for (const row of bundle.honesty) {
      const key = `${row.component}\u0000${row.name}`;
      if (!rows.has(key)) rows.set(key, { component: row.component, name: row.name, cells: new Map() });
      rows.get(key).cells.set(tabKey(bundle), row);
    }
  }
  const thead = document.createElement("thead");
  const head = thead.insertRow();
  for (const title of ["component", "name", ...columns]) {
    const th = document.createElement("th");
    th.textContent = title;
    head.append(th);
  }
  const body = document.createElement("tbody");
  const all = [...rows.values()];
  const note = $("honesty-note");
  note.hidden = all.length <= HONESTY_ROW_LIMIT;
  note.textContent = note.hidden ? "" : `showing the first ${HONESTY_ROW_LIMIT} of ${all.length.toLocaleString("en")} rows`;
  for (const row of all.slice(0, HONESTY_ROW_LIMIT)) {
    const tr = body.insertRow();
    tr.insertCell().textContent = row.component;
    tr.insertCell().append(code(row.name));
    for (const column of columns) {
      const cell = tr.insertCell();
      const found = row.cells.get(column);
      if (!found) {
        cell.textContent = "n/a";
        cell.className = "na";
        continue;
      }
      const level = document.createElement("span");
      level.className = `level ${found.level}`;
      level.textContent = found.level;
      const detail = document.createElement("div");
      detail.className = "detail";
      detail.textContent = found.detail;
      cell.append(level, detail);
    }
  }
  $("honesty").replaceChildren(thead, body);
}

function renderDiagnostics(result) {
  const seen = new Set();
  const all = [...result.diagnostics, ...result.bundles.flatMap((b) => b.diagnostics)].filter((d) => {
    const key = JSON.stringify(d);
    return !seen.has(key) && seen.add(key);
  });
  const box = $("diagnostics");
  box.hidden = all.length === 0;
  const list = document.createElement("ul");
  for (const d of all.slice(0, LIST_LIMIT)) {
    const item = document.createElement("li");
    item.className = d.severity;
    item.append(`${d.severity} ${d.code}: ${d.message} `);
    if (d.location) item.append(locationButton(d.location));
    list.append(item);
  }
  const title = document.createElement("h3");
  title.textContent = "Diagnostics";
  box.replaceChildren(title, list, ...limitNote(all.length, LIST_LIMIT, "diagnostics"));
}

function locationButton(location) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "location";
  button.textContent = [location.file, location.line, location.column].filter((x) => x !== undefined && x !== null).join(":");
  button.title = "open in the editor";
  button.addEventListener("click", () => jumpTo(location));
  return button;
}

/** Shows an error with one line per problem, each location a link to the source. */
function renderProblems(box, err) {
  const problems = err?.problems?.length ? err.problems : [{ message: err?.message ?? String(err) }];
  const title = document.createElement("strong");
  title.textContent = err?.code ? `Error (${err.code})` : "Error";
  const list = document.createElement("ul");
  for (const problem of problems) {
    const item = document.createElement("li");
    if (problem.location) item.append(locationButton(problem.location), " ");
    item.append(problem.message);
    list.append(item);
  }
  box.replaceChildren(title, list);
  box.hidden = false;
}

function showFatal(message) {
  renderProblems($("fatal"), { message });
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "Dismiss";
  close.addEventListener("click", () => ($("fatal").hidden = true));
  $("fatal").append(close);
}

// ---- diff between two bundles ------------------------------------------------

/** path relative to the bundle root -> output file, for one bundle. */
function bundleEntries(bundle) {
  const prefix = bundle.root ? `${bundle.root}/` : "";
  return new Map(bundleFiles(bundle, state.result.output).map((file) => [file.path.slice(prefix.length), file]));
}

function fillSelect(select, values, labels, chosen) {
  const options = values.map((value, i) => new Option(labels ? labels[i] : value, value));
  select.replaceChildren(...options);
  select.value = chosen;
}

function renderDiff() {
  const bundles = state.result.bundles;
  const keys = bundles.map(tabKey);
  const d = state.diff;
  if (!keys.includes(d.left)) d.left = keys[0];
  // Until the user picks the right side it is another bundle than the left, once there is one.
  if (!keys.includes(d.right) || (!d.rightPicked && d.right === d.left)) d.right = keys.find((k) => k !== d.left) ?? keys[0];
  const labels = bundles.map((b) => `${b.runtime} (${b.kind})`);
  fillSelect($("diff-left"), keys, labels, d.left);
  fillSelect($("diff-right"), keys, labels, d.right);
  const left = bundleEntries(bundles[keys.indexOf(d.left)]);
  const right = bundleEntries(bundles[keys.indexOf(d.right)]);
  const leftPaths = [...left.keys()].sort();
  const rightPaths = [...right.keys()].sort();
  const common = leftPaths.filter((p) => right.has(p));
  const differing = common.filter((p) => left.get(p).sha256 !== right.get(p).sha256);
  const manifest = state.result.manifestName;
  if (!left.has(d.leftPath)) {
    d.leftPath = differing.find((p) => p.split("/").pop() !== manifest) ?? common[0] ?? leftPaths[0];
    d.rightPath = undefined;
  }
  if (!right.has(d.rightPath)) d.rightPath = right.has(d.leftPath) ? d.leftPath : rightPaths[0];
  fillSelect($("diff-left-path"), leftPaths, null, d.leftPath);
  fillSelect($("diff-right-path"), rightPaths, null, d.rightPath);

  const onlyLeft = leftPaths.filter((p) => !right.has(p));
  const onlyRight = rightPaths.filter((p) => !left.has(p));
  $("diff-summary").textContent =
    `${common.length} path(s) in both, ${differing.length} of them different; ` +
    `${onlyLeft.length} only in ${d.left}, ${onlyRight.length} only in ${d.right}`;
  for (const [id, paths] of [["diff-only-left", onlyLeft], ["diff-only-right", onlyRight]]) {
    const items = paths.slice(0, LIST_LIMIT).map((path) => {
      const item = document.createElement("li");
      item.append(code(path));
      return item;
    });
    if (paths.length > LIST_LIMIT) items.push(Object.assign(document.createElement("li"), { textContent: `… and ${paths.length - LIST_LIMIT} more` }));
    if (paths.length === 0) items.push(Object.assign(document.createElement("li"), { textContent: "none", className: "none" }));
    $(id).replaceChildren(...items);
  }
  const a = left.get(d.leftPath);
  const b = right.get(d.rightPath);
  const text = (file) => (file ? (decodeText(file.bytes) ?? `(binary file, ${file.bytes.length} bytes, sha256 ${file.sha256})`) : "");
  showDiff($("diff-view"), text(a), text(b), d.leftPath, d.rightPath);
  $("diff-view").dataset.left = a?.path ?? "";
  $("diff-view").dataset.right = b?.path ?? "";
}

function wireDiff() {
  const d = state.diff;
  const redraw = () => state.result && renderDiff();
  $("diff-left").addEventListener("change", (e) => {
    d.left = e.target.value;
    redraw();
  });
  $("diff-right").addEventListener("change", (e) => {
    d.right = e.target.value;
    d.rightPicked = true;
    redraw();
  });
  $("diff-left-path").addEventListener("change", (e) => {
    d.leftPath = e.target.value;
    d.rightPath = e.target.value;
    redraw();
  });
  $("diff-right-path").addEventListener("change", (e) => {
    d.rightPath = e.target.value;
    redraw();
  });
}

// ---- link --------------------------------------------------------------------

function linkOptions() {
  return {
    targets: engineRuntimes.filter((r) => $(`runtime-${r.id}`).checked).map((r) => [r.id, $(`kind-${r.id}`).value]),
    scope: $("scope").value,
    namespace: $("namespace").value,
    vars: $("vars").value,
    generatedAt: $("generated-at").value,
    strict: $("strict").checked,
  };
}

function applyLinkOptions(options) {
  if (Array.isArray(options.targets)) {
    const chosen = new Map(options.targets);
    for (const r of engineRuntimes) {
      $(`runtime-${r.id}`).checked = chosen.has(r.id);
      $(`kind-${r.id}`).value = chosen.get(r.id) ?? "";
    }
  }
  for (const id of ["scope", "namespace", "vars"]) if (typeof options[id] === "string") $(id).value = options[id];
  if (typeof options.generatedAt === "string") $("generated-at").value = options.generatedAt;
  $("strict").checked = options.strict === true;
}

function applyLinkState(linked) {
  applyLinkOptions(linked.options);
  const known = [...$("example").options].some((o) => o.value === linked.example && !o.disabled);
  $("example").value = known ? linked.example : "custom";
  setSource(linked.name, linked.files);
}

function scheduleLinkUpdate() {
  clearTimeout(state.linkTimer);
  document.body.dataset.linkPending = "true";
  state.linkTimer = setTimeout(updateLink, LINK_DELAY_MS);
}

/** Writes the state into the address (replacing, not adding, a history entry); resolves to the fragment, "" when too large. */
async function updateLink() {
  clearTimeout(state.linkTimer);
  const version = ++state.linkVersion;
  // Sorted: the same files give the same link whatever order they were added in.
  const files = [...state.files]
    .map(([path, f]) => ({ path, bytes: f.bytes, executable: f.executable }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const size = files.reduce((sum, f) => sum + f.bytes.length + f.path.length, 0);
  const hash =
    size <= LINK_SOURCE_LIMIT ? await linkState({ name: state.sourceName, example: $("example").value, files, options: linkOptions() }) : "";
  if (version !== state.linkVersion) return undefined; // a newer state is being written
  history.replaceState(null, "", hash || location.pathname + location.search);
  $("copy-link").disabled = !hash;
  $("link-status").textContent = hash ? "" : "this source is too large to put in a link";
  delete document.body.dataset.linkPending;
  return hash;
}

async function copyLink() {
  const hash = await updateLink();
  if (!hash) return;
  try {
    await navigator.clipboard.writeText(location.href);
    $("link-status").textContent = `link copied (${location.href.length.toLocaleString("en")} characters)`;
  } catch (err) {
    $("link-status").textContent = `copying failed (${err.message}): the address bar holds the link`;
  }
}

async function openLinkedState() {
  try {
    const linked = await readLinkState(location.hash);
    if (linked) applyLinkState(linked);
    return Boolean(linked);
  } catch (err) {
    showFatal(err.message);
    return false;
  }
}

// ---- downloads -------------------------------------------------------------

function download(name, files) {
  const blob = new Blob([writeZip(files)], { type: "application/zip" });
  if (state.lastDownload) URL.revokeObjectURL(state.lastDownload);
  state.lastDownload = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = state.lastDownload;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
}

function downloadBundle() {
  const bundle = currentBundle();
  if (!bundle || !state.usable) return;
  download(`${bundle.pluginName}-${bundle.runtime}.zip`, bundleFiles(bundle, state.result.output));
}

function downloadRoot() {
  if (!state.usable) return;
  download(`${state.result.bundles[0]?.pluginName ?? "plugin"}-output.zip`, state.result.output);
}

// ---- wiring ----------------------------------------------------------------

function wire() {
  $("example").addEventListener("change", (e) => loadChoice(e.target.value));
  $("open-folder").addEventListener("click", openFolder);
  $("folder-input").addEventListener("change", (e) => loadFolderInput(e.target));
  $("zip-input").addEventListener("change", (e) => {
    const [file] = e.target.files;
    e.target.value = "";
    if (file) loadZipFile(file);
  });
  document.addEventListener("dragover", (e) => {
    e.preventDefault();
    document.body.classList.add("dropping");
  });
  document.addEventListener("dragleave", (e) => {
    if (!e.relatedTarget) document.body.classList.remove("dropping");
  });
  document.addEventListener("drop", loadDrop);

  $("source-filter").addEventListener("input", renderSourceTree);
  $("output-filter").addEventListener("input", () => state.result && renderOutput());
  $("editor-executable").addEventListener("change", (e) => {
    const file = state.files.get(state.selectedSource);
    if (!file) return;
    file.executable = e.target.checked;
    markCustomSource();
    rebuild();
  });
  $("delete-file").addEventListener("click", () => {
    if (!state.files.delete(state.selectedSource)) return;
    markCustomSource();
    selectSource(state.files.keys().next().value ?? null);
    rebuild();
  });
  $("new-file").addEventListener("submit", (e) => {
    e.preventDefault();
    const path = $("new-file-path").value.trim();
    if (!path) return;
    if (!state.files.has(path)) state.files.set(path, { bytes: new Uint8Array(), executable: false });
    $("new-file-path").value = "";
    markCustomSource();
    selectSource(path);
    rebuild();
    sourceEditor.view.focus();
  });

  for (const id of ["vars", "namespace", "generated-at"]) $(id).addEventListener("input", scheduleRebuild);
  for (const id of ["scope", "strict"]) $(id).addEventListener("change", rebuild);
  $("runtimes").addEventListener("change", rebuild);
  $("download-bundle").addEventListener("click", downloadBundle);
  $("download-root").addEventListener("click", downloadRoot);
  $("show-manifest").addEventListener("click", showManifest);
  $("copy-link").addEventListener("click", copyLink);
  window.addEventListener("hashchange", openLinkedState);
  wireDiff();
}

function fillExamples() {
  const select = $("example");
  for (const example of examples) select.append(new Option(`examples/${example.name}`, `example:${example.name}`));
  select.append(new Option("starter (plugforge init)", "starter"));
  const custom = new Option("your files", "custom");
  custom.disabled = true;
  select.append(custom);
}

async function main() {
  window.addEventListener("error", (e) => showFatal(e.message));
  window.addEventListener("unhandledrejection", (e) => showFatal(e.reason?.message ?? String(e.reason)));
  await init();
  engineRuntimes = runtimes();
  sourceEditor = createEditor($("editor"), { onChange: onEdit, label: "File content" });
  viewer = createEditor($("viewer-content"), { readOnly: true, label: "Generated file content" });
  $("generated-at").value = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  renderRuntimeOptions();
  fillExamples();
  wire();
  document.querySelector("header .tagline").append(` Engine ${version()}.`);
  if (!(await openLinkedState())) loadChoice($("example").value);
}

main().catch((err) => {
  setStatusSafe(`the page could not start: ${err.message}`);
  showFatal(`the page could not start: ${err.message}`);
});

function setStatusSafe(text) {
  const status = $("status");
  status.className = "error";
  status.textContent = text;
  document.body.dataset.state = "broken";
}
