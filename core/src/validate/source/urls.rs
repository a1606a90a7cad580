//! The URL allowlist, applied to a built bundle but reported where each URL
//! comes from: the source file it was copied or rendered from, or
//! `plugforge.json` for metadata the runtime's manifest repeats.

use super::super::Context;
use super::URL_NOT_ALLOWED;
use super::outcome::Outcomes;
use crate::bundle::{Bundle, GeneratedFile};
use crate::error::Location;
use crate::path::BundlePath;
use crate::recognise::urls::urls_in;
use crate::source::Config;

pub(super) fn check(cx: &Context<'_>, config: &Config, bundle: &Bundle, outcomes: &mut Outcomes<'_>) {
    let required = bundle.runtime.required_urls();
    let allowed = |url: &str| {
        config
            .allow_urls
            .iter()
            .map(String::as_str)
            .chain(required.iter().copied())
            .any(|p| url.starts_with(p))
    };
    for (path, file) in &bundle.files {
        let Ok(text) = std::str::from_utf8(&file.bytes) else { continue };
        for (index, line) in text.lines().enumerate() {
            for url in urls_in(line).filter(|url| !allowed(url)) {
                let generated = bundle.out_path(path);
                let location = origin_of(cx, file, url)
                    .unwrap_or_else(|| Location::at(cx.folder.full(generated.as_str()), index + 1, 1));
                let message = format!("URL {url} is not allowed in generated content ({generated})");
                outcomes.add(&URL_NOT_ALLOWED, Some(location), message, Some(&bundle.runtime.to_string()));
            }
        }
    }
}

/// The line of the source file holding `url`: the file the generated one
/// came from, or `plugforge.json` for plugforge's own templates.
fn origin_of(cx: &Context<'_>, file: &GeneratedFile, url: &str) -> Option<Location> {
    let source = if file.template.starts_with("plugforge:") {
        cx.subject.marker.clone()
    } else {
        BundlePath::new(file.template.as_str()).ok()?.to_string()
    };
    let text = std::str::from_utf8(&cx.folder.get(&source)?.bytes).ok()?;
    let (index, line) = text.lines().enumerate().find(|(_, line)| line.contains(url))?;
    let column = line[..line.find(url)?].chars().count() + 1;
    Some(cx.folder.at_line(&source, index + 1, column))
}
