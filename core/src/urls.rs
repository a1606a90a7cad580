//! The self-contained guarantee: generated text holds no URL unless allowed.

use crate::bundle::Bundle;
use crate::error::{ErrorCode, Location, Problems, Result};

/// Refuses every URL in the bundle's text files that does not start with an
/// allowed prefix; each problem names the file, the line and its source.
pub fn check(bundle: &Bundle, allowed: &[String]) -> Result<()> {
    let mut problems = Problems::default();
    for (path, file) in &bundle.files {
        let Ok(text) = std::str::from_utf8(&file.bytes) else { continue };
        for (line_index, line) in text.lines().enumerate() {
            for url in urls_in(line) {
                if !allowed.iter().any(|prefix| url.starts_with(prefix.as_str())) {
                    let location = Location::at(bundle.out_path(path).to_string(), line_index + 1, 1);
                    let message = format!(
                        "URL {url} is not allowed in generated content (from {}); \
                         allow it with --allow-url or \"allowUrls\" in plugforge.json",
                        file.template
                    );
                    problems.push(location, message);
                }
            }
        }
    }
    problems.finish(ErrorCode::UrlNotAllowed)
}

/// `scheme://rest` spans in a line, scheme being letters, digits, `+`, `-`, `.`.
pub fn urls_in(line: &str) -> impl Iterator<Item = &str> {
    line.match_indices("://").filter_map(move |(at, _)| {
        let start = line[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
            .map_or(0, |i| i + 1);
        let scheme = &line[start..at];
        if scheme.is_empty() || !scheme.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return None;
        }
        let end = line[at + 3..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | ')' | '`' | ']'))
            .map_or(line.len(), |i| at + 3 + i);
        Some(&line[start..end])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_urls_of_any_scheme() {
        let found: Vec<&str> = urls_in("see https://a.b/c) and `git+ssh://x/y` or ${X}://no").collect();
        assert_eq!(found, ["https://a.b/c", "git+ssh://x/y"]);
    }
}
