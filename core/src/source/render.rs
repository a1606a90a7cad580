//! Renders `*.j2` source files with minijinja; the output drops `.j2`.

use std::collections::BTreeMap;

use minijinja::syntax::SyntaxConfig;
use minijinja::value::Serde;
use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;
use serde_json::{Map, Value};

use super::{RenderedFile, RenderedTree, SourceFile, SourceTree};
use crate::error::{Error, ErrorCode, Location, Problems, Result};
use crate::path::BundlePath;

const TEMPLATE_SUFFIX: &str = ".j2";

/// Whether any file of `tree` is a template: only templates see the
/// per-target built-ins (`runtime`, `kind`), so a source without one loads
/// the same for every target.
pub(crate) fn has_templates(tree: &SourceTree) -> bool {
    tree.iter().any(|(path, _)| path.as_str().ends_with(TEMPLATE_SUFFIX))
}

/// Names the core provides itself; host variables may not shadow them.
pub const BUILTIN_NAMES: [&str; 7] = ["plugin", "generator", "namespace", "runtime", "kind", "scope", "vars"];

/// The values a template sees: host variables at top level and under
/// `vars`, plus the built-ins once the plugin metadata is known.
#[derive(Debug, Clone, Serialize)]
pub struct TemplateContext {
    #[serde(flatten)]
    values: Map<String, Value>,
}

impl TemplateContext {
    /// Host variables only: what `plugforge.json.j2` is rendered with.
    pub fn host_only(vars: &BTreeMap<String, String>) -> Result<Self> {
        if let Some(reserved) = vars.keys().find(|k| BUILTIN_NAMES.contains(&k.as_str())) {
            return Err(Error::new(
                ErrorCode::InvalidOptions,
                format!("template variable {reserved:?} is reserved for a built-in; pick another name"),
            ));
        }
        let mut values: Map<String, Value> =
            vars.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
        values.insert("vars".into(), Value::Object(values.clone()));
        Ok(TemplateContext { values })
    }

    /// Adds a built-in value (`plugin`, `generator`, `runtime`, ...).
    pub fn with(mut self, name: &str, value: Value) -> Self {
        self.values.insert(name.to_string(), value);
        self
    }
}

/// Renders one file if it is a template, else returns its bytes unchanged.
pub fn render_config_file(path: &BundlePath, file: &SourceFile, ctx: &TemplateContext) -> Result<Vec<u8>> {
    if path.as_str().ends_with(TEMPLATE_SUFFIX) {
        render_one(&environment(), path, file, ctx)
    } else {
        Ok(file.bytes.to_vec())
    }
}

/// Renders every template of `tree` (skipping `skip` paths), copies the rest.
/// Two sources for one output path (`x.md` and `x.md.j2`) are refused.
pub fn render_tree(tree: &SourceTree, skip: &[&str], ctx: &TemplateContext) -> Result<RenderedTree> {
    let env = environment();
    let mut out = RenderedTree::new();
    let mut problems = Problems::default();
    let mut code = ErrorCode::InvalidSource;
    for (path, file) in tree.iter() {
        if skip.contains(&path.as_str()) {
            continue;
        }
        let (target, bytes) = match path.as_str().strip_suffix(TEMPLATE_SUFFIX) {
            Some(stripped) if !stripped.ends_with('/') && !stripped.is_empty() => {
                match render_one(&env, path, file, ctx) {
                    Ok(bytes) => (BundlePath::new(stripped)?, bytes.into()),
                    Err(e) => {
                        code = e.code;
                        problems.absorb(e);
                        continue;
                    }
                }
            }
            _ => (path.clone(), file.bytes.clone()),
        };
        let rendered = RenderedFile { bytes, executable: file.executable, origin: path.clone() };
        if let Some(previous) = out.insert(target.clone(), rendered) {
            problems.push(
                Location::file(path.as_str()),
                format!("duplicate source for {target}: both {} and {path} produce it", previous.origin),
            );
        }
    }
    problems.finish(code)?;
    Ok(out)
}

/// The one template environment: strict about undefined names, and keeping
/// a file's final newline.
pub(crate) fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    // minijinja names the undefined expression only in debug mode, which
    // defaults to the build profile: on, every host (release bindings, debug
    // tests) gives the same message.
    env.set_debug(true);
    // A template that loops without end (nested ranges, a macro calling
    // itself) runs out of fuel and fails with `limit` instead of running on.
    env.set_fuel(Some(crate::limits::TEMPLATE_FUEL));
    let syntax =
        SyntaxConfig::builder().keep_trailing_newline(true).build().expect("default delimiters are valid");
    env.set_syntax(syntax);
    env
}

fn render_one(
    env: &Environment<'_>,
    path: &BundlePath,
    file: &SourceFile,
    ctx: &TemplateContext,
) -> Result<Vec<u8>> {
    let source = std::str::from_utf8(&file.bytes).map_err(|e| {
        Error::at(ErrorCode::Template, Location::file(path.as_str()), format!("template is not UTF-8: {e}"))
    })?;
    // What a template renders is generated text: no BOM, LF line endings.
    let source = crate::text::normalised(source);
    if let Some((line, column)) = crate::limits::template_tag_too_long(&source) {
        let most = crate::limits::MAX_TEMPLATE_OPERATORS;
        return Err(Error::at(
            ErrorCode::Limit,
            Location { file: path.to_string(), line: Some(line), column: Some(column) },
            format!("a template tag with more than {most} operators (filters, lookups, arithmetic)"),
        ));
    }
    env.render_named_str(path.as_str(), &source, Serde(ctx)).map(String::into_bytes).map_err(|e| {
        let location = match e.line() {
            Some(line) => Location { file: path.to_string(), line: Some(line), column: None },
            None => Location::file(path.as_str()),
        };
        if e.kind() == minijinja::ErrorKind::OutOfFuel {
            let fuel = crate::limits::TEMPLATE_FUEL;
            return Error::at(
                ErrorCode::Limit,
                location,
                format!(
                    "template ran out of fuel ({fuel} units, one a step or 64 bytes made): does it loop or \
                     grow without end?"
                ),
            );
        }
        let detail = e.detail().map(str::to_string).unwrap_or_else(|| e.kind().to_string());
        Error::at(ErrorCode::Template, location, format!("template error: {detail}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_saved_with_a_bom_and_crlf_renders_plain_text() {
        let mut tree = SourceTree::new();
        tree.insert("a.md.j2", "\u{feff}v={{ version }}\r\nnext\r\n".as_bytes().to_vec(), false).unwrap();
        tree.insert("copied.txt", "\u{feff}kept\r\n".as_bytes().to_vec(), false).unwrap();
        let out = render_tree(&tree, &[], &ctx(&[("version", "1.2")])).unwrap();
        assert_eq!(&*out[&BundlePath::new("a.md").unwrap()].bytes, b"v=1.2\nnext\n");
        assert_eq!(&*out[&BundlePath::new("copied.txt").unwrap()].bytes, "\u{feff}kept\r\n".as_bytes());
    }

    fn ctx(pairs: &[(&str, &str)]) -> TemplateContext {
        let vars = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        TemplateContext::host_only(&vars).unwrap()
    }

    #[test]
    fn renders_templates_and_drops_the_suffix() {
        let mut tree = SourceTree::new();
        tree.insert("a.md.j2", b"v={{ version }}\n".to_vec(), false).unwrap();
        tree.insert("b.md", b"{{ untouched }}".to_vec(), true).unwrap();
        let out = render_tree(&tree, &[], &ctx(&[("version", "1.2")])).unwrap();
        assert_eq!(&*out[&BundlePath::new("a.md").unwrap()].bytes, b"v=1.2\n");
        let b = &out[&BundlePath::new("b.md").unwrap()];
        assert_eq!(&*b.bytes, b"{{ untouched }}");
        assert!(b.executable);
    }

    #[test]
    fn a_template_that_loops_without_end_runs_out_of_fuel() {
        let mut tree = SourceTree::new();
        let looping =
            "ok\n{% for a in range(100000) %}{% for b in range(100000) %}{{ b }}{% endfor %}{% endfor %}";
        tree.insert("loop.md.j2", looping.as_bytes().to_vec(), false).unwrap();
        let err = render_tree(&tree, &[], &ctx(&[])).unwrap_err();
        assert_eq!(err.code, ErrorCode::Limit);
        assert_eq!(err.location().map(|l| l.file.as_str()), Some("loop.md.j2"));
        assert!(err.message().contains("template ran out of fuel (10000 units"), "{err}");
    }

    #[test]
    fn a_template_over_five_hundred_items_stays_well_within_its_fuel() {
        let mut tree = SourceTree::new();
        let walk =
            "{% for i in range(500) %}{{ i | string | upper }} {% if i is even %}e{% endif %}\n{% endfor %}";
        tree.insert("walk.md.j2", walk.as_bytes().to_vec(), false).unwrap();
        let out = render_tree(&tree, &[], &ctx(&[])).unwrap();
        // What the limit's doc claims: the walk needs under 6,500 steps.
        let mut env = environment();
        env.set_fuel(Some(6_500));
        let text = env.render_named_str("walk.md.j2", walk, Serde(ctx(&[]))).expect("within 6,500 steps");
        assert_eq!(text.as_bytes(), &*out[&BundlePath::new("walk.md").unwrap()].bytes);
        assert_eq!(
            out[&BundlePath::new("walk.md").unwrap()].bytes.iter().filter(|b| **b == b'\n').count(),
            500
        );
    }

    #[test]
    fn undefined_variables_fail_with_file_and_line() {
        let mut tree = SourceTree::new();
        tree.insert("x.md.j2", b"ok\n{{ missing }}\n".to_vec(), false).unwrap();
        let err = render_tree(&tree, &[], &ctx(&[])).unwrap_err();
        assert_eq!(err.code, ErrorCode::Template);
        let loc = err.location().unwrap();
        assert_eq!((loc.file.as_str(), loc.line), ("x.md.j2", Some(2)));
    }

    #[test]
    fn default_filter_covers_missing_variables() {
        let mut tree = SourceTree::new();
        tree.insert("x.j2", b"{{ v | default(\"0.1\") }}".to_vec(), false).unwrap();
        let out = render_tree(&tree, &[], &ctx(&[])).unwrap();
        assert_eq!(&*out[&BundlePath::new("x").unwrap()].bytes, b"0.1");
    }

    #[test]
    fn two_sources_for_one_output_are_refused() {
        let mut tree = SourceTree::new();
        tree.insert("a.md", b"x".to_vec(), false).unwrap();
        tree.insert("a.md.j2", b"y".to_vec(), false).unwrap();
        let err = render_tree(&tree, &[], &ctx(&[])).unwrap_err();
        assert!(err.message().contains("duplicate source for a.md"), "{err}");
    }

    #[test]
    fn reserved_variable_names_are_refused() {
        let vars = [("plugin".to_string(), "x".to_string())].into_iter().collect();
        assert_eq!(TemplateContext::host_only(&vars).unwrap_err().code, ErrorCode::InvalidOptions);
    }
}
