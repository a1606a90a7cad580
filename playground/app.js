// The playground page: a plugin source held in memory, built by the wasm
// engine on every change, shown per runtime. Every failure lands on the page.
import init, { build, starterSource, version } from "./pkg/plugforge_wasm.js";
import { examples } from "./examples.js";
import { RUNTIMES } from "./runtimes.js";
import { readZip, writeZip } from "./zip.js";

// Folders the command line skips when it reads a source; `dist` is its
// default output folder inside a source.
const SKIPPED_DIRS = new Set([".git", "node_modules", "target", "dist", "__MACOSX"]);
const TYPING_DELAY_MS = 250;
const ROOT_TAB = "";

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
};

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
  editor.disabled = text === null;
  editor.value = file ? (text ?? `(binary file, ${file.bytes.length} bytes: not editable here)`) : "";
  editor.scrollTop = 0;
  renderTree($("source-tree"), [...state.files.keys()], path, selectSource);
}

function onEdit() {
  const file = state.files.get(state.selectedSource);
  if (!file) return;
  file.bytes = encoder.encode($("editor").value);
  markCustomSource();
  scheduleRebuild();
}

function jumpTo(location) {
  const path = [location.file, `${location.file}.j2`].find((p) => state.files.has(p));
  if (!path) return;
  selectSource(path);
  const editor = $("editor");
  const lines = editor.value.split("\n");
  const line = Math.min(Math.max(location.line ?? 1, 1), lines.length);
  const start = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0);
  editor.focus();
  editor.setSelectionRange(start, start + lines[line - 1].length);
  const lineHeight = parseFloat(getComputedStyle(editor).lineHeight) || 16;
  editor.scrollTop = Math.max(0, (line - 3) * lineHeight);
}

// ---- options ---------------------------------------------------------------

function renderRuntimeOptions() {
  const box = $("runtimes");
  for (const runtime of RUNTIMES) {
    const row = document.createElement("div");
    row.className = "runtime";
    const label = document.createElement("label");
    const check = document.createElement("input");
    check.type = "checkbox";
    check.id = `runtime-${runtime.id}`;
    check.value = runtime.id;
    check.checked = runtime.id === "claude-code";
    label.append(check, ` ${runtime.label} `, code(runtime.id));
    const kind = document.createElement("select");
    kind.id = `kind-${runtime.id}`;
    kind.setAttribute("aria-label", `${runtime.label} artifact kind`);
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
  const targets = RUNTIMES.filter((r) => $(`runtime-${r.id}`).checked).map((r) => ({
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
  let result;
  try {
    const { options, generatedAt } = readOptions();
    const files = [...state.files].map(([path, f]) => ({ path, bytes: f.bytes, executable: f.executable }));
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
    showFailure(err, performance.now() - started);
    return;
  }
  result.elapsed = performance.now() - started;
  showResult(result);
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
  renderTree($("output-tree"), paths, selected, (path) => {
    state.selectedOutput.set(state.tab, path);
    renderOutput();
  });
  const entry = entries.find((e) => e.path === selected);
  $("viewer-path").textContent = entry ? entry.file.path : "";
  $("viewer-sha256").textContent = entry ? entry.file.sha256 : "";
  const text = entry ? decodeText(entry.file.bytes) : "";
  $("viewer-content").textContent = text ?? `(binary file, ${entry.file.bytes.length} bytes)`;
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

/** Renders sorted `paths` as a nested folder list; files are buttons carrying data-path. */
function renderTree(container, paths, selected, onPick) {
  const root = document.createElement("ul");
  const folders = new Map([["", root]]);
  for (const path of [...paths].sort()) {
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
  container.replaceChildren(root);
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
  for (const row of rows.values()) {
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
  for (const d of all) {
    const item = document.createElement("li");
    item.className = d.severity;
    item.append(`${d.severity} ${d.code}: ${d.message} `);
    if (d.location) item.append(locationButton(d.location));
    list.append(item);
  }
  const title = document.createElement("h3");
  title.textContent = "Diagnostics";
  box.replaceChildren(title, list);
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

  $("editor").addEventListener("input", onEdit);
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
    $("editor").focus();
  });

  for (const id of ["vars", "namespace", "generated-at"]) $(id).addEventListener("input", scheduleRebuild);
  for (const id of ["scope", "strict"]) $(id).addEventListener("change", rebuild);
  $("runtimes").addEventListener("change", rebuild);
  $("download-bundle").addEventListener("click", downloadBundle);
  $("download-root").addEventListener("click", downloadRoot);
  $("show-manifest").addEventListener("click", showManifest);
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
  $("generated-at").value = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  renderRuntimeOptions();
  fillExamples();
  wire();
  document.querySelector("header .tagline").append(` Engine ${version()}.`);
  loadChoice($("example").value);
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
