// The page's CodeMirror 6 editors: the source editor (editable, with the
// validate findings as lint diagnostics), the read-only output viewer and the
// side-by-side diff. build.mjs bundles this with the rest of the page.
import { EditorState, Compartment } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { StreamLanguage, syntaxHighlighting, defaultHighlightStyle, bracketMatching, foldGutter } from "@codemirror/language";
import { json } from "@codemirror/lang-json";
import { markdown } from "@codemirror/lang-markdown";
import { yaml, yamlFrontmatter } from "@codemirror/lang-yaml";
import { javascript } from "@codemirror/lang-javascript";
import { toml } from "@codemirror/legacy-modes/mode/toml";
import { shell } from "@codemirror/legacy-modes/mode/shell";
import { python } from "@codemirror/legacy-modes/mode/python";
import { lintGutter, setDiagnostics } from "@codemirror/lint";
import { MergeView } from "@codemirror/merge";

/** The language for a file path (a trailing `.j2` template suffix is looked through); null = plain text. */
export function languageFor(path) {
  const name = (path ?? "").toLowerCase().replace(/\.j2$/, "");
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1) : "";
  switch (ext) {
    case "json":
    case "jsonc":
    case "json5":
      return { name: "json", support: json() };
    case "md":
    case "markdown":
    case "mdc":
      // Commands, skills and agents open with YAML frontmatter.
      return { name: "markdown", support: yamlFrontmatter({ content: markdown() }) };
    case "yaml":
    case "yml":
      return { name: "yaml", support: yaml() };
    case "toml":
      return { name: "toml", support: StreamLanguage.define(toml) };
    case "js":
    case "mjs":
    case "cjs":
      return { name: "javascript", support: javascript() };
    case "ts":
    case "mts":
    case "cts":
      return { name: "typescript", support: javascript({ typescript: true }) };
    case "sh":
    case "bash":
    case "zsh":
      return { name: "shell", support: StreamLanguage.define(shell) };
    case "py":
      return { name: "python", support: StreamLanguage.define(python) };
    default:
      return null;
  }
}

const theme = EditorView.theme({
  "&": { fontSize: "13px", backgroundColor: "#fff", border: "1px solid var(--line)", borderRadius: "4px" },
  ".cm-scroller": { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace' },
  "&.cm-focused": { outline: "2px solid var(--accent)" },
});

function baseExtensions() {
  return [
    lineNumbers(),
    foldGutter(),
    drawSelection(),
    bracketMatching(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    theme,
  ];
}

/**
 * A CodeMirror editor in `parent`. `onChange(text)` runs on every edit the user
 * makes (never on `show`). The element also carries the view as `editorView`.
 */
export function createEditor(parent, { readOnly = false, onChange, label } = {}) {
  const language = new Compartment();
  const editable = new Compartment();
  let replacing = false;
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: "",
      extensions: [
        baseExtensions(),
        readOnly ? [] : [history(), highlightActiveLine(), highlightActiveLineGutter(), lintGutter()],
        keymap.of([...defaultKeymap, ...(readOnly ? [] : [...historyKeymap, indentWithTab])]),
        language.of([]),
        editable.of([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
        EditorView.contentAttributes.of({ "aria-label": label ?? "File content", spellcheck: "false", autocapitalize: "off" }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged && !replacing && onChange) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  parent.editorView = view;

  return {
    view,
    /** Shows `text` for `path` (its language picked from the name); `editable` false locks it. */
    show(text, path, { canEdit = !readOnly } = {}) {
      const lang = languageFor(path);
      replacing = true;
      try {
        view.dispatch({
          changes: { from: 0, to: view.state.doc.length, insert: text },
          selection: { anchor: 0 },
          effects: [
            language.reconfigure(lang ? lang.support : []),
            editable.reconfigure([EditorState.readOnly.of(!canEdit), EditorView.editable.of(canEdit)]),
          ],
        });
        view.dispatch(setDiagnostics(view.state, []));
      } finally {
        replacing = false;
      }
      parent.dataset.language = lang ? lang.name : "text";
      view.scrollDOM.scrollTop = 0;
    },
    text: () => view.state.doc.toString(),
    /** Selects line `line` (1-based, clamped), scrolls it into view and focuses the editor. */
    selectLine(line) {
      const doc = view.state.doc;
      const at = doc.line(Math.min(Math.max(line ?? 1, 1), doc.lines));
      view.dispatch({ selection: { anchor: at.from, head: at.to }, effects: EditorView.scrollIntoView(at.from, { y: "center" }) });
      view.focus();
    },
    /** diagnostics: [{line, column?, severity: "error"|"warning"|"info", message, source?}] on this document. */
    setLint(diagnostics) {
      const doc = view.state.doc;
      const mapped = diagnostics.map((d) => {
        const line = doc.line(Math.min(Math.max(d.line ?? 1, 1), doc.lines));
        const from = Math.min(line.from + Math.max((d.column ?? 1) - 1, 0), line.to);
        return { from, to: line.to > from ? line.to : from, severity: d.severity, message: d.message, source: d.source };
      });
      view.dispatch(setDiagnostics(view.state, mapped));
      parent.dataset.lint = String(mapped.length);
    },
  };
}

/** A side-by-side read-only diff of `a` and `b` in `parent` (replacing what was there); returns the MergeView. */
export function showDiff(parent, a, b, pathA, pathB) {
  parent.mergeView?.destroy();
  const side = (text, path) => {
    const lang = languageFor(path);
    return {
      doc: text,
      extensions: [baseExtensions(), lang ? lang.support : [], EditorState.readOnly.of(true), EditorView.editable.of(false)],
    };
  };
  const merge = new MergeView({ a: side(a, pathA), b: side(b, pathB), parent, collapseUnchanged: { margin: 3, minSize: 6 }, gutter: true });
  parent.mergeView = merge;
  return merge;
}
