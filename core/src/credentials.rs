//! No literal credential is ever written. Every text file of the source is
//! scanned for the token shapes `validate` knows and, under credential-like
//! names, for literal values that look like keys; each built bundle is
//! scanned again for tokens the source does not hold (a host variable
//! rendered into a template). A finding in what runs or configures (a
//! manifest, MCP or hook configuration, settings, a script, any code, a
//! Markdown file's frontmatter) refuses the build naming the source file,
//! the key and the line, never the value (at most its first 4 characters).
//! One in prose (a Markdown body) or in a test file is a warning naming the
//! file and line, and the file travels, unless plugforge.json says
//! `"credentials": "deny"`. `allowCredentials` lets test fixtures through
//! without a word.

use std::collections::{BTreeSet, HashSet};
use std::sync::{Mutex, PoisonError};

use serde_json::Value;

use crate::bundle::Bundle;
use crate::codes::DiagnosticCode;
use crate::error::{ErrorCode, Location, Problems, Result};
use crate::recognise::secrets::{
    Surface, assignments, frontmatter_end, is_expression, is_pattern, is_reference_or_placeholder,
    is_well_known_key, looks_random, preview, private_keys, secret_name, strip_scheme, token_shapes,
};
use crate::report::Diagnostic;
use crate::source::{CredentialAllowance, CredentialPolicy, SourceTree};

/// One literal credential: where it is and under which key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Finding {
    file: String,
    line: Option<usize>,
    /// The name the value is written under (a JSON key, a shell variable).
    key: Option<String>,
    /// In a JSON file, the dotted path of that key.
    path: Option<String>,
    kind: &'static str,
    preview: String,
    /// The token is the file's name (or a folder's on its path).
    in_name: bool,
    /// What the file (or the line's part of it) is: a finding outside
    /// [`Surface::Configuration`] is a warning unless the source is strict.
    surface: Surface,
}

/// The source's credential scan: its findings and every token it holds,
/// allowed or not, so a bundle scan refuses only tokens the build added.
pub struct CredentialCheck {
    allowed: Vec<CredentialAllowance>,
    source_tokens: BTreeSet<String>,
    /// Every literal value under a credential-like name in the source, so a
    /// bundle scan refuses only those a template rendered in.
    source_literals: BTreeSet<String>,
    /// sha256 of bundle files already scanned and found clean. Whether a
    /// file holds a finding depends only on its bytes and `source_tokens`,
    /// so a file every runtime copies alike (a skill's references) is
    /// scanned once, not once per target. Behind a lock, since a host may
    /// check several bundles at once; a poisoned lock is still a valid set.
    clean: Mutex<HashSet<crate::hash::Sha256Digest>>,
    /// Literal credentials in prose and test files, which travel.
    warnings: Vec<Diagnostic>,
}

impl CredentialCheck {
    /// Scans every text file of `written` (the source as the author wrote
    /// it, so problems name their files); refuses it when it holds a literal
    /// credential `allowed` does not list. `canonical` is the source the
    /// build reads (the same tree, or a native plugin read as a canonical
    /// source): its tokens are the source's too.
    pub fn new(
        written: &SourceTree,
        canonical: &SourceTree,
        allowed: &[CredentialAllowance],
        policy: CredentialPolicy,
    ) -> Result<Self> {
        let mut findings = BTreeSet::new();
        let mut source_tokens = BTreeSet::new();
        let mut source_literals = BTreeSet::new();
        for (path, file) in written.iter() {
            scan_name(path.as_str(), &mut findings);
            let Some((text, lines)) = decoded(&file.bytes) else { continue };
            let mut seen = Seen { tokens: &mut source_tokens, literals: &mut source_literals };
            let mut found = BTreeSet::new();
            scan_file(path.as_str(), &text, &mut found, &mut seen);
            let frontmatter = frontmatter_end(&text).unwrap_or(0);
            findings.extend(found.into_iter().map(|f| {
                let in_frontmatter = f.line.is_some_and(|line| line <= frontmatter);
                let surface = if lines { Surface::of(path.as_str(), in_frontmatter) } else { f.surface };
                // The strings of a binary have no lines to name.
                Finding { line: f.line.filter(|_| lines), surface, ..f }
            }));
        }
        // A plugforge source is read as it is written: the same tree, whose
        // tokens are already in.
        if !std::ptr::eq(written, canonical) {
            for (_, file) in canonical.iter() {
                let Some((text, _)) = decoded(&file.bytes) else { continue };
                source_tokens.extend(tokens_in(&text));
                source_literals.extend(
                    text.lines().flat_map(|l| assignments(l).into_iter().map(|(_, v)| v.to_string())),
                );
            }
        }
        let mut check = CredentialCheck {
            allowed: allowed.to_vec(),
            source_tokens,
            source_literals,
            clean: Mutex::default(),
            warnings: Vec::new(),
        };
        let (refused, warned): (BTreeSet<Finding>, BTreeSet<Finding>) = findings
            .into_iter()
            .partition(|f| policy == CredentialPolicy::Deny || f.surface == Surface::Configuration);
        check.refuse(refused)?;
        check.warnings = warned.iter().filter(|f| !check.allows(f)).map(warning).collect();
        Ok(check)
    }

    /// The literal credentials the build carries with a warning: in prose
    /// and test files, under the default policy.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// Refuses a bundle holding a token the source does not: one a template
    /// rendered from a host variable. The problem names the source file
    /// the bundle file came from.
    pub fn check_bundle(&self, bundle: &Bundle) -> Result<()> {
        let mut findings = BTreeSet::new();
        let clean = || self.clean.lock().unwrap_or_else(PoisonError::into_inner);
        for file in bundle.files.values() {
            if clean().contains(&file.sha256) {
                continue;
            }
            let Ok(text) = std::str::from_utf8(&file.bytes) else {
                clean().insert(file.sha256);
                continue;
            };
            let mut found = false;
            let line_of = |index: usize| Some(index + 1).filter(|_| !file.template.ends_with(".j2"));
            for (index, line) in text.lines().enumerate() {
                for (kind, token) in credentials(line) {
                    if self.source_tokens.contains(token) {
                        continue;
                    }
                    found = true;
                    findings.insert(Finding {
                        file: file.template.clone(),
                        line: line_of(index),
                        key: key_before(line, token),
                        path: None,
                        kind,
                        preview: preview(token),
                        in_name: false,
                        surface: Surface::Configuration,
                    });
                }
                // A random value rendered under a credential's name
                // (`API_KEY={{ vars.key }}`): not in the source as written.
                for (key, value) in named_values(file.template.trim_end_matches(".j2"), line) {
                    let kind = literal_credential(key, value);
                    if let Some(kind) = kind.filter(|_| !self.source_literals.contains(value)) {
                        found = true;
                        findings.insert(Finding {
                            file: file.template.clone(),
                            line: line_of(index),
                            key: Some(key.to_string()),
                            path: None,
                            kind,
                            preview: preview(strip_scheme(value)),
                            in_name: false,
                            surface: Surface::Configuration,
                        });
                    }
                }
            }
            for (offset, header) in private_keys(text) {
                if !self.source_tokens.contains(header) {
                    found = true;
                    findings.insert(Finding {
                        file: file.template.clone(),
                        line: line_of(text[..offset].matches('\n').count()),
                        key: None,
                        path: None,
                        kind: "private key",
                        preview: preview(header),
                        in_name: false,
                        surface: Surface::Configuration,
                    });
                }
            }
            if !found {
                clean().insert(file.sha256);
            }
        }
        self.refuse(findings)
    }

    fn refuse(&self, findings: BTreeSet<Finding>) -> Result<()> {
        let mut problems = Problems::default();
        for finding in findings.into_iter().filter(|f| !self.allows(f)) {
            let location = Location { file: finding.file.clone(), line: finding.line, column: None };
            problems.push(location, message(&finding));
        }
        problems.finish(ErrorCode::Credential)
    }

    fn allows(&self, finding: &Finding) -> bool {
        self.allowed.iter().any(|allow| {
            allow.file == finding.file
                && allow.key.as_deref().is_none_or(|key| {
                    finding.key.as_deref() == Some(key) || finding.path.as_deref() == Some(key)
                })
        })
    }
}

/// The token shapes in `text` that are real credentials, not placeholders
/// of the same shape (`ghp_xxxx…`, AWS's documented `AKIAIOSFODNN7EXAMPLE`).
fn credentials(text: &str) -> Vec<(&'static str, &str)> {
    let mut found = token_shapes(text);
    found.retain(|(_, token)| is_credential(token));
    found
}

/// A token of a known shape that is a credential: not a reference or a
/// placeholder of the same shape (`ghp_xxxx…`), not a key published for
/// anyone to use (an emulator's fixed key).
fn is_credential(token: &str) -> bool {
    !is_reference_or_placeholder(token) && !is_well_known_key(token)
}

/// The text a file holds to scan: UTF-8 as it is; UTF-16 (with a byte order
/// mark, or ASCII with every other byte zero) decoded; any other file's
/// runs of at least 16 printable ASCII characters, one a line, the way
/// `strings` finds a token in a binary. With it, whether its lines are the
/// file's (not so for a binary's strings).
fn decoded(bytes: &[u8]) -> Option<(std::borrow::Cow<'_, str>, bool)> {
    use std::borrow::Cow;
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Some((Cow::Borrowed(crate::text::without_bom(text)), true));
    }
    let half = bytes.len() / 2;
    let zeros_at = |parity: usize| bytes.iter().skip(parity).step_by(2).filter(|b| **b == 0).count();
    let little = bytes.starts_with(&[0xFF, 0xFE]) || (half > 0 && zeros_at(1) * 10 >= half * 9);
    let big = bytes.starts_with(&[0xFE, 0xFF]) || (half > 0 && zeros_at(0) * 10 >= half * 9);
    if little || big {
        let units = bytes.chunks_exact(2).map(|pair| {
            if little {
                u16::from_le_bytes([pair[0], pair[1]])
            } else {
                u16::from_be_bytes([pair[0], pair[1]])
            }
        });
        let text: String = char::decode_utf16(units).map(|c| c.unwrap_or('\u{FFFD}')).collect();
        return Some((Cow::Owned(text.trim_start_matches('\u{FEFF}').to_string()), true));
    }
    let mut runs = String::new();
    for run in bytes.split(|b| !(b.is_ascii_graphic() || *b == b' ')) {
        if run.len() >= 16 {
            runs.push_str(std::str::from_utf8(run).expect("ASCII"));
            runs.push('\n');
        }
    }
    (!runs.is_empty()).then_some((Cow::Owned(runs), false))
}

/// A token in a file's path (`tokens/ghp_….txt`) ships as a name in every
/// bundle. The file is named with the token cut to its preview, so the
/// message echoes no more of it than any other does.
fn scan_name(file: &str, findings: &mut BTreeSet<Finding>) {
    // Each folder and the file's name, whole and without its extension
    // (`ghp_….txt` reads as one word).
    let names = file.split('/').flat_map(|name| [Some(name), name.rsplit_once('.').map(|(stem, _)| stem)]);
    for (kind, token) in names.flatten().flat_map(credentials) {
        findings.insert(Finding {
            file: file.replace(token, &preview(token)),
            line: None,
            key: None,
            path: None,
            kind,
            preview: preview(token),
            in_name: true,
            surface: Surface::Configuration,
        });
    }
}

/// Every string of a JSON value, and the values of the shell assignments
/// in them: what a bundle may carry on from the source as written.
fn strings_of(value: &Value, into: &mut BTreeSet<String>) {
    match value {
        Value::String(text) => {
            into.extend(assignments(text).into_iter().map(|(_, v)| v.to_string()));
            into.insert(strip_scheme(text).to_string());
            into.insert(text.clone());
        }
        Value::Array(items) => items.iter().for_each(|item| strings_of(item, into)),
        Value::Object(map) => map.values().for_each(|item| strings_of(item, into)),
        _ => {}
    }
}

/// What a source scan collects besides findings: its token shapes and
/// literal values under credential-like names.
struct Seen<'a> {
    tokens: &'a mut BTreeSet<String>,
    literals: &'a mut BTreeSet<String>,
}

fn tokens_in(text: &str) -> impl Iterator<Item = String> + '_ {
    let keys = private_keys(text).into_iter().map(|(_, header)| header.to_string());
    text.lines()
        .flat_map(|line| token_shapes(line).into_iter().map(|(_, token)| token.to_string()))
        .chain(keys)
}

/// The warning for a literal credential in prose or a test file.
fn warning(finding: &Finding) -> Diagnostic {
    let location = Location { file: finding.file.clone(), line: finding.line, column: None };
    let message = format!(
        "{} holds a literal {} ({}) in {}: the file is carried as written; if the credential is real, \
         revoke it and write \"${{{}}}\" instead (\"credentials\": \"deny\" in plugforge.json refuses it)",
        holder(finding),
        finding.kind,
        finding.preview,
        finding.surface.describe(),
        variable_name(finding)
    );
    Diagnostic::warning(DiagnosticCode::LiteralCredential, Some(location), message)
}

fn holder(finding: &Finding) -> String {
    match (&finding.path, &finding.key) {
        _ if finding.in_name => "the file's name".to_string(),
        (Some(path), _) => format!("{path:?}"),
        (None, Some(key)) => format!("{key:?}"),
        (None, None) => "the file".to_string(),
    }
}

fn message(finding: &Finding) -> String {
    let holder = holder(finding);
    let variable = variable_name(finding);
    format!(
        "{holder} holds a literal {} ({}): a plugin must not ship credentials; write \"${{{variable}}}\" \
         instead, declare {variable} under requires.bindings in plugforge.json (and revoke the credential \
         if it was real); a test fixture can be listed under allowCredentials",
        finding.kind, finding.preview
    )
}

/// The variable to read the credential from: the key's name when it names
/// a credential, else the kind (`GITHUB_TOKEN` for a GitHub token).
fn variable_name(finding: &Finding) -> String {
    let base = finding.key.as_deref().filter(|key| secret_name(key)).unwrap_or(finding.kind);
    let name: String =
        base.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect();
    let name = name.trim_matches('_').to_string();
    let mut collapsed = String::with_capacity(name.len());
    for c in name.chars() {
        if !(c == '_' && collapsed.ends_with('_')) {
            collapsed.push(c);
        }
    }
    if collapsed.is_empty() { "TOKEN".to_string() } else { collapsed }
}

/// Findings of one source file, and every token shape in it (per line, as
/// [`tokens_in`] reads a file) into `source_tokens`.
fn scan_file(file: &str, text: &str, findings: &mut BTreeSet<Finding>, seen: &mut Seen<'_>) {
    // A key file's header and body are on lines of their own: found in the
    // whole text, at the header's line.
    for (offset, header) in private_keys(text) {
        seen.tokens.insert(header.to_string());
        findings.insert(Finding {
            file: file.to_string(),
            line: Some(text[..offset].matches('\n').count() + 1),
            key: None,
            path: None,
            kind: "private key",
            preview: preview(header),
            in_name: false,
            surface: Surface::Configuration,
        });
    }
    if file.ends_with(".json") {
        if let Ok(value) = serde_json::from_str::<Value>(text) {
            seen.tokens.extend(tokens_in(text));
            strings_of(&value, seen.literals);
            let mut path = Vec::new();
            scan_json(file, text, &value, &mut path, findings);
            return;
        }
    }
    for (index, line) in text.lines().enumerate() {
        let line_number = Some(index + 1);
        let mut tokens = BTreeSet::new();
        // One scan a line serves both: every shape is a source token, and
        // those that are not references or placeholders are findings.
        let mut shapes = token_shapes(line);
        seen.tokens.extend(shapes.iter().map(|(_, token)| token.to_string()));
        shapes.retain(|(_, token)| is_credential(token));
        for (kind, token) in shapes {
            tokens.insert(token);
            let key = key_before(line, token);
            // A key on one line is the header a whole-text scan found.
            let same_key = |f: &Finding| f.file == file && f.line == line_number && f.kind == kind;
            if kind == "private key" && findings.iter().any(same_key) {
                continue;
            }
            findings.insert(Finding {
                file: file.to_string(),
                line: line_number,
                key,
                path: None,
                kind,
                preview: preview(token),
                in_name: false,
                surface: Surface::Configuration,
            });
        }
        for (key, value) in named_values(file, line) {
            seen.literals.insert(value.to_string());
            if tokens.iter().any(|t| value.contains(t)) {
                continue;
            }
            if let Some(kind) = literal_credential(key, value) {
                findings.insert(Finding {
                    file: file.to_string(),
                    line: line_number,
                    key: Some(key.to_string()),
                    path: None,
                    kind,
                    preview: preview(strip_scheme(value)),
                    in_name: false,
                    surface: Surface::Configuration,
                });
            }
        }
    }
}

/// Every string of a JSON document: token shapes anywhere (under the key
/// of the object or array holding them), literal credentials as the value
/// of a credential-like key or a shell assignment in a command.
fn scan_json<'v>(
    file: &str,
    text: &str,
    value: &'v Value,
    path: &mut Vec<&'v str>,
    findings: &mut BTreeSet<Finding>,
) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                // A token used as a key (`{"ghp_…": "work"}`) ships as well;
                // the object holding it is named, never the key itself.
                for (kind, token) in credentials(key) {
                    let mut finding = json_finding(file, text, key, path, kind, token);
                    finding.line = crate::source::JsonPositions::of(text).line_of_key(key).or(finding.line);
                    findings.insert(finding);
                }
                path.push(key);
                scan_json(file, text, item, path, findings);
                if let Value::String(literal) = item {
                    if let Some(kind) = literal_credential(key, literal) {
                        if token_shapes(literal).is_empty() {
                            findings.insert(json_finding(
                                file,
                                text,
                                literal,
                                path,
                                kind,
                                strip_scheme(literal),
                            ));
                        }
                    }
                }
                path.pop();
            }
        }
        Value::Array(items) => items.iter().for_each(|item| scan_json(file, text, item, path, findings)),
        Value::String(string) => {
            for (kind, token) in credentials(string) {
                findings.insert(json_finding(file, text, string, path, kind, token));
            }
            for (name, literal) in assignments(string) {
                if let Some(kind) = literal_credential(name, literal) {
                    if token_shapes(literal).is_empty() {
                        let mut finding = json_finding(file, text, string, path, kind, literal);
                        finding.key = Some(name.to_string());
                        finding.path = None;
                        findings.insert(finding);
                    }
                }
            }
        }
        _ => {}
    }
}

fn json_finding(
    file: &str,
    text: &str,
    string: &str,
    path: &[&str],
    kind: &'static str,
    secret: &str,
) -> Finding {
    let positions = crate::source::JsonPositions::of(text);
    let line = positions.line_at(path).or_else(|| positions.line_of_string(string));
    Finding {
        file: file.to_string(),
        line,
        key: path.last().map(|k| k.to_string()),
        path: (!path.is_empty()).then(|| path.join(".")),
        kind,
        preview: preview(secret),
        in_name: false,
        surface: Surface::Configuration,
    }
}

/// A literal (not a reference, a placeholder or a variable's name) under a
/// credential-like name that looks like a key or password.
fn literal_credential(name: &str, value: &str) -> Option<&'static str> {
    let value = strip_scheme(value);
    let variable_name = value.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
    let literal =
        !variable_name && !is_reference_or_placeholder(value) && !is_expression(value) && !is_pattern(value);
    (secret_name(name) && literal && !is_well_known_key(value) && looks_random(value)).then_some("credential")
}

/// `NAME=value` shell assignments on any line, and in YAML, TOML and
/// `.env` files `name: value` and `name = value` too.
fn named_values<'t>(file: &str, line: &'t str) -> Vec<(&'t str, &'t str)> {
    let mut found = assignments(line);
    let keyed = [".yaml", ".yml", ".toml", ".env", ".ini", ".cfg"].iter().any(|ext| file.ends_with(ext))
        || file.rsplit('/').next().is_some_and(|name| name.starts_with(".env"));
    if keyed {
        let trimmed = line.trim_start().trim_start_matches("export ");
        let split = trimmed.split_once(": ").or_else(|| trimmed.split_once('='));
        if let Some((key, value)) = split {
            let key = key.trim().trim_matches(['"', '\'']);
            let value = value.trim().trim_matches(['"', '\'', ',']);
            let plain_key = !key.is_empty()
                && key.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'));
            if plain_key && !found.iter().any(|(k, _)| *k == key) {
                found.push((key, value));
            }
        }
    }
    found
}

/// The name a token on `line` is written under: `"KEY": "token"`,
/// `KEY=token`, `--key token`-style flags are not followed.
fn key_before(line: &str, token: &str) -> Option<String> {
    let offset = line.find(token)?;
    let mut prefix = line[..offset].trim_end_matches([' ', '"', '\'']);
    for scheme in ["Bearer", "Basic", "Token", "token", "bearer"] {
        prefix = prefix.strip_suffix(scheme).unwrap_or(prefix).trim_end_matches([' ', '"', '\'']);
    }
    let prefix = prefix.strip_suffix([':', '='])?.trim_end_matches([' ', '"', '\'']);
    // The key is ASCII: it starts right after the last character that cannot
    // be in one, whatever that character's width.
    let start = prefix
        .char_indices()
        .rfind(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let key = prefix[start..].trim_start_matches('-');
    (!key.is_empty()).then(|| key.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GITHUB: &str = "ghp_0123456789abcdefghijABCDEFGHIJ012345";

    fn source(files: &[(&str, &str)]) -> SourceTree {
        let mut tree = SourceTree::new();
        for (path, text) in files {
            tree.insert(path, text.as_bytes().to_vec(), false).unwrap();
        }
        tree
    }

    fn refusal(
        files: &[(&str, &str)],
        allowed: &[CredentialAllowance],
    ) -> Vec<(String, Option<usize>, String)> {
        let tree = source(files);
        match CredentialCheck::new(&tree, &tree, allowed, CredentialPolicy::Deny) {
            Ok(_) => Vec::new(),
            Err(error) => {
                assert_eq!(error.code, ErrorCode::Credential);
                error
                    .problems
                    .iter()
                    .map(|p| {
                        let at = p.location.clone().unwrap();
                        (at.file, at.line, p.message.clone())
                    })
                    .collect()
            }
        }
    }

    #[test]
    fn finds_credentials_in_every_place_a_source_holds_them() {
        let mcp = format!(
            "{{\n  \"mcpServers\": {{\n    \"gh\": {{\n      \"command\": \"gh-mcp\",\n      \"env\": {{\"GITHUB_TOKEN\": \"{GITHUB}\"}}\n    }}\n  }}\n}}\n"
        );
        let headers = "{\"api\": {\"url\": \"https://x\", \"headers\": {\"Authorization\": \"Bearer q8Zt3vN1xK9pL2mR7sW4\"}}}";
        let args = format!("{{\"s\": {{\"command\": \"s\", \"args\": [\"--token\", \"{GITHUB}\"]}}}}");
        let hooks = "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"API_KEY=q8Zt3vN1xK9pL2mR7sW4 notify\"}]}]}}";
        let settings = "{\"env\": {\"ANTHROPIC_API_KEY\": \"sk-ant-api03-abcdefghij0123456789\"}}";
        let skill =
            format!("---\nname: s\ndescription: d\n---\nRun `gh auth login --with-token {GITHUB}`.\n");
        let config = "api_key: q8Zt3vN1xK9pL2mR7sW4\n";
        let cases: &[(&str, &str, Option<usize>, &str)] = &[
            (
                ".mcp.json",
                &mcp,
                Some(5),
                "\"mcpServers.gh.env.GITHUB_TOKEN\" holds a literal GitHub token (ghp_…)",
            ),
            (
                ".mcp.json",
                headers,
                Some(1),
                "\"api.headers.Authorization\" holds a literal credential (q8Zt…)",
            ),
            (".mcp.json", &args, Some(1), "\"s.args\" holds a literal GitHub token"),
            ("hooks/hooks.json", hooks, Some(1), "\"API_KEY\" holds a literal credential (q8Zt…)"),
            (
                "settings.json",
                settings,
                Some(1),
                "\"env.ANTHROPIC_API_KEY\" holds a literal Anthropic API key",
            ),
            ("skills/s/SKILL.md", &skill, Some(5), "the file holds a literal GitHub token"),
            ("skills/s/config.yaml", config, Some(1), "\"api_key\" holds a literal credential"),
        ];
        for (file, text, line, says) in cases {
            let found = refusal(&[(file, text)], &[]);
            assert_eq!(found.len(), 1, "{file}: {found:?}");
            let (at, at_line, message) = &found[0];
            assert_eq!((at.as_str(), at_line), (*file, line), "{message}");
            assert!(message.contains(says), "{file}: {message}");
            assert!(message.contains("requires.bindings"), "{message}");
            assert!(!message.contains(GITHUB) && !message.contains("q8Zt3vN1x"), "{message}");
        }
    }

    #[test]
    fn the_fix_names_a_variable_to_read_it_from() {
        let found = refusal(
            &[(".mcp.json", &format!("{{\"s\": {{\"env\": {{\"GH_TOKEN\": \"{GITHUB}\"}}}}}}"))],
            &[],
        );
        assert!(
            found[0].2.contains("write \"${GH_TOKEN}\" instead, declare GH_TOKEN under requires.bindings")
        );
        let found = refusal(&[("README.md", &format!("Use {GITHUB}.\n"))], &[]);
        assert!(found[0].2.contains("\"${GITHUB_TOKEN}\""), "{}", found[0].2);
    }

    #[test]
    fn references_placeholders_and_ordinary_values_pass() {
        let mcp = r#"{"s": {"command": "s", "env": {"API_KEY": "${API_KEY}", "AUTH_TOKEN": "<your-token>",
            "SECRET": "changeme", "KEY_NAME": "OPENAI_API_KEY_2024_PRODUCTION", "LOG_LEVEL": "q8Zt3vN1xK9pL2mR7sW4"},
            "args": ["--config", "/home/user/.config/some-tool-2024/config.json"]},
            "keywords": ["gpt4-turbo-2024-preview-x"]}"#;
        let hook = "#!/bin/sh\nTOKEN=\"$GITHUB_TOKEN\" gh api /user\n";
        let docs = "Set AWS_ACCESS_KEY_ID (e.g. AKIAIOSFODNN7EXAMPLE) and GH_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.\n";
        let files = [(".mcp.json", mcp), ("bin/check.sh", hook), ("README.md", docs)];
        assert!(refusal(&files, &[]).is_empty(), "{:?}", refusal(&files, &[]));
    }

    #[test]
    fn an_allowance_lets_a_fixture_through_by_file_and_key() {
        let fixture =
            format!("{{\"env\": {{\"GITHUB_TOKEN\": \"{GITHUB}\", \"OTHER_TOKEN\": \"{GITHUB}x\"}}}}");
        let files = [("tests/fixture.json", fixture.as_str())];
        let allow = |key: Option<&str>| CredentialAllowance {
            file: "tests/fixture.json".into(),
            key: key.map(str::to_string),
        };
        let by_name = refusal(&files, &[allow(Some("GITHUB_TOKEN"))]);
        assert_eq!(by_name.len(), 1, "{by_name:?}");
        assert!(by_name[0].2.contains("env.OTHER_TOKEN"), "{by_name:?}");
        assert_eq!(refusal(&files, &[allow(Some("GITHUB_TOKEN")), allow(Some("env.OTHER_TOKEN"))]), []);
        assert_eq!(refusal(&files, &[allow(None)]), []);
        let elsewhere = CredentialAllowance { file: "other.json".into(), key: None };
        assert_eq!(refusal(&files, &[elsewhere]).len(), 2);
    }

    /// A build's scan under the default policy: (file, line, message) of
    /// each refusal, or of each warning when nothing is refused.
    fn scanned(files: &[(&str, &str)]) -> Result<Vec<(String, Option<usize>, String)>> {
        let tree = source(files);
        let check = CredentialCheck::new(&tree, &tree, &[], CredentialPolicy::Warn)?;
        Ok(check
            .warnings()
            .iter()
            .map(|w| (w.file().unwrap().to_string(), w.line(), w.message.clone()))
            .collect())
    }

    #[test]
    fn prose_and_tests_warn_what_runs_or_configures_refuses() {
        let skill =
            format!("---\nname: s\ndescription: d\n---\nRun `gh auth login --with-token {GITHUB}`.\n");
        let test = format!("const fake = \"{GITHUB}\";\n");
        let files = [
            ("skills/s/SKILL.md", skill.as_str()),
            ("README.md", "Set GH_TOKEN=q8Zt3vN1xK9pL2mR7sW4 first.\n"),
            ("tests/auth.test.ts", test.as_str()),
            ("src/session.spec.js", test.as_str()),
            ("scripts/test_login.py", test.as_str()),
        ];
        let warned = scanned(&files).unwrap();
        let at: Vec<_> = warned.iter().map(|(file, line, _)| (file.as_str(), *line)).collect();
        assert_eq!(
            at,
            [
                ("README.md", Some(1)),
                ("scripts/test_login.py", Some(1)),
                ("skills/s/SKILL.md", Some(5)),
                ("src/session.spec.js", Some(1)),
                ("tests/auth.test.ts", Some(1)),
            ]
        );
        assert!(warned[2].2.contains("GitHub token (ghp_…) in documentation"), "{}", warned[2].2);
        assert!(warned[4].2.contains("in a test file"), "{}", warned[4].2);
        assert!(warned.iter().all(|(_, _, m)| !m.contains(GITHUB) && !m.contains("q8Zt3vN1x")));
        // Strict: every one of them refuses.
        assert_eq!(refusal(&files, &[]).len(), 5);
        // Code, scripts and a Markdown file's frontmatter configure.
        let frontmatter =
            format!("---\nname: a\nmcpServers:\n  gh:\n    env:\n      GH_TOKEN: {GITHUB}\n---\nBody.\n");
        for (file, text, line) in [
            ("agents/a.md", frontmatter.as_str(), 6),
            ("src/server.ts", test.as_str(), 1),
            ("bin/login", test.as_str(), 1),
            ("scripts/setup.sh", "export API_KEY=q8Zt3vN1xK9pL2mR7sW4\n", 1),
        ] {
            let error = scanned(&[(file, text)]).unwrap_err();
            assert_eq!(error.code, ErrorCode::Credential, "{file}");
            assert_eq!(error.problems[0].location.as_ref().unwrap().line, Some(line), "{file}");
        }
    }

    #[test]
    fn reading_a_variable_examples_and_published_keys_are_no_credentials() {
        let files = [
            // openai/plugins cloudflare: skills/cloudflare/references/r2-data-catalog/configuration.md
            (
                "src/r2.py",
                "catalog = RestCatalog(\n    token=os.getenv(\"R2_TOKEN\"),\n)\nclient = Cloudflare(api_token=os.environ[\"CF_TOKEN\"])\nkey = os.environ.get(\"CF_API_KEY_2024_PRODUCTION\")\n",
            ),
            (
                "src/env.js",
                "const token=process.env.GITHUB_TOKEN_FOR_RELEASES_2024;\n<li key={group.id2024abcdefghijk}>x</li>\n",
            ),
            // anthropics/claude-plugins-official telegram: server.ts
            ("server.ts", "`  format: TELEGRAM_BOT_TOKEN=123456789:AAHfiqksKZ8...\\n`,\n"),
            (
                "src/db.ts",
                "const url = 'postgres://postgres:postgres@localhost:5432/app';\nconst other = 'postgresql://app:s3cretPassw0rd@127.0.0.1/app';\n",
            ),
            (
                "src/example.ts",
                "// ssh://deploy:hunter2secret@host/repo.git\n// https://bob:Pa55word99@example.com/\n",
            ),
            // AzureCosmosDB/cosmosdb-claude-code-plugin: rules/sdk-emulator-ssl.md
            (
                "src/cosmos.py",
                "client = CosmosClient(url, credential=\"C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==\",\n",
            ),
            (
                "src/azurite.env",
                "AZURE_STORAGE_KEY=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==\n",
            ),
            // ChromeDevTools/chrome-devtools-mcp: src/tools/performance.ts and Lighthouse's bundle
            (
                "src/perf.ts",
                "'https://chromeuxreport.googleapis.com/v1/records:queryRecord?key=AIzaSyBn5gimNjhiEyA_euicSKko6IlD3HdgUfk',\nSENTRY_URL = \"https://a6bb0da87ee048cc9ae2a345fc09ab2e:63a7029f46f74265981b7e005e0f69f8@sentry.io/174697\";\n",
            ),
        ];
        assert_eq!(scanned(&files).unwrap(), []);
        assert_eq!(refusal(&files, &[]), []);
        // The same shapes with a real-looking value are still refused.
        for (file, text) in [
            ("src/r2.py", "token=q8Zt3vN1xK9pL2mR7sW4\n"),
            ("src/db.ts", "const url = 'postgresql://app:s3cretPassw0rd@db.internal/app';\n"),
            (
                "src/perf.ts",
                "fetch('https://x.googleapis.com/v1?key=AIzaSyA-0123456789abcdefghijklmnopqrstu')\n",
            ),
        ] {
            assert_eq!(refusal(&[(file, text)], &[]).len(), 1, "{file}");
        }
    }

    #[test]
    fn reads_the_key_a_token_is_written_under() {
        assert_eq!(key_before("\"Authorization\": \"Bearer xyz\"", "xyz").as_deref(), Some("Authorization"));
        assert_eq!(key_before("export API_KEY=xyz", "xyz").as_deref(), Some("API_KEY"));
        assert_eq!(key_before("token = \"xyz\"", "xyz").as_deref(), Some("token"));
        assert_eq!(key_before("--token=xyz", "xyz").as_deref(), Some("token"));
        assert_eq!(key_before("run xyz now", "xyz"), None);
    }
}
