//! The URL policy. By default the URLs an author wrote travel with their
//! files and are reported; a URL plugforge itself would introduce (its own
//! templates, generated READMEs, a host variable rendered into a template)
//! is refused unless allowed, so bundles stay what the author published.
//! The `deny` policy refuses every URL outside the allowlist, for runners
//! that promise self-contained bundles.

use std::collections::{BTreeMap, BTreeSet};

use crate::bundle::{Bundle, CarriedUrl};
use crate::error::{ErrorCode, Location, Problems, Result};
use crate::recognise::urls::{has_scheme_separator, urls_in};
use crate::source::{SourceTree, UrlPolicy};

/// The policy applied to one build: allowed prefixes plus, under `carry`,
/// every URL written literally in the source's files.
pub struct UrlCheck {
    policy: UrlPolicy,
    allowed: Vec<String>,
    authored: BTreeSet<String>,
    carried: BTreeMap<String, BTreeSet<String>>,
}

impl UrlCheck {
    pub fn new(policy: UrlPolicy, allowed: Vec<String>, source: &SourceTree) -> Self {
        let mut authored = BTreeSet::new();
        if policy == UrlPolicy::Carry {
            for (_, file) in source.iter() {
                let Ok(text) = std::str::from_utf8(&file.bytes) else { continue };
                for line in text.lines() {
                    authored.extend(urls_in(line).map(str::to_string));
                }
            }
        }
        UrlCheck { policy, allowed, authored, carried: BTreeMap::new() }
    }

    /// Refuses every URL in the bundle's text files that is neither allowed
    /// (the allowlist, `required` by the runtime's format) nor, under
    /// `carry`, written in the source; each problem names the source file.
    ///
    /// Returns the author's URLs the bundle carries (URL, source file), for
    /// [`UrlCheck::record`]: checking reads only, so several bundles may be
    /// checked at once.
    pub fn check(&self, bundle: &Bundle, required: &[&str]) -> Result<Vec<(String, String)>> {
        let mut problems = Problems::default();
        let mut carried = Vec::new();
        for (path, file) in &bundle.files {
            let Ok(text) = std::str::from_utf8(&file.bytes) else { continue };
            // Most generated files hold no URL: one search a file, then a
            // byte check a line, before the per-line scan.
            if !has_scheme_separator(text) {
                continue;
            }
            for (line_index, line) in text.lines().enumerate() {
                if !line.as_bytes().contains(&b':') {
                    continue;
                }
                for url in urls_in(line) {
                    let allowed = self.allowed.iter().map(String::as_str).chain(required.iter().copied());
                    if allowed.into_iter().any(|prefix| url.starts_with(prefix)) {
                        continue;
                    }
                    if self.authored.contains(url) {
                        // Listed by the source files that hold it, not by
                        // plugforge's own templates that repeat it.
                        if !file.template.starts_with("plugforge:") {
                            carried.push((url.to_string(), file.template.clone()));
                        }
                        continue;
                    }
                    let out = bundle.out_path(path);
                    let location = match file.template.strip_prefix("plugforge:") {
                        Some(_) => Location::at(out.to_string(), line_index + 1, 1),
                        None if file.template.ends_with(".j2") => Location::file(file.template.clone()),
                        None => Location::at(file.template.clone(), line_index + 1, 1),
                    };
                    let message = if self.policy == UrlPolicy::Deny {
                        format!(
                            "URL {url} is not allowed in {out} (the \"deny\" URL policy); \
                             allow it with --allow-url or \"allowUrls\" in plugforge.json"
                        )
                    } else {
                        format!(
                            "URL {url} in {out} is not written in the source: it comes from {}; \
                             allow it with --allow-url or \"allowUrls\" in plugforge.json",
                            file.template
                        )
                    };
                    problems.push(location, message);
                }
            }
        }
        problems.finish(ErrorCode::UrlNotAllowed)?;
        Ok(carried)
    }

    /// Notes the URLs [`UrlCheck::check`] found a bundle carrying.
    pub fn record(&mut self, carried: Vec<(String, String)>) {
        for (url, origin) in carried {
            self.carried.entry(url).or_default().insert(origin);
        }
    }

    /// The author's URLs the bundles carry, in URL order.
    pub fn carried(self) -> Vec<CarriedUrl> {
        self.carried
            .into_iter()
            .map(|(url, files)| CarriedUrl { url, files: files.into_iter().collect() })
            .collect()
    }
}
