//! URL recogniser: `scheme://rest` spans in text. Pure, below both the
//! build's URL policy (`urls.rs`) and validate's `url` rules.

/// Whether `text` holds `://` anywhere. `str::find(char)` runs the standard
/// library's word-at-a-time byte search; `contains("://")` builds a
/// substring searcher whose scan, without the SIMD prefilter it gets on
/// x86-64, was a tenth of the wasm build's time (most files hold no URL, so
/// the whole file is scanned).
pub(crate) fn has_scheme_separator(text: &str) -> bool {
    let mut rest = text;
    while let Some(at) = rest.find(':') {
        rest = &rest[at + 1..];
        if rest.starts_with("//") {
            return true;
        }
    }
    false
}

/// `scheme://rest` spans in a line, scheme being letters, digits, `+`, `-`, `.`.
/// A URL never holds a backslash, so one ends it: a URL inside an escaped
/// string (TOML, JSON: `\"`, `\n`) is the same URL as in the source.
pub(crate) fn urls_in(line: &str) -> impl Iterator<Item = &str> {
    // A byte search for `:` (most lines have none) rather than a substring
    // searcher built for every line of every file.
    let bytes = line.as_bytes();
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(found) = bytes[from..].iter().position(|&b| b == b':') {
            let at = from + found;
            from = at + 1;
            if !bytes[at + 1..].starts_with(b"//") {
                continue;
            }
            // The scheme starts after the last character that cannot be in
            // one; that character may take several bytes (a BOM, an accented letter).
            let start = line[..at]
                .char_indices()
                .rev()
                .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
                .map_or(0, |(i, c)| i + c.len_utf8());
            let scheme = &line[start..at];
            if scheme.is_empty() || !scheme.starts_with(|c: char| c.is_ascii_alphabetic()) {
                continue;
            }
            let end = line[at + 3..]
                .find(|c: char| {
                    c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | ')' | '`' | ']' | '\\')
                })
                .map_or(line.len(), |i| at + 3 + i);
            return Some(&line[start..end]);
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scheme_separator_is_found_wherever_it_sits_and_only_whole() {
        for text in ["://", "https://x", "a: b\nsee é://x", "key: value:\nurl: ftp://host", "x:::://"] {
            assert!(has_scheme_separator(text), "{text:?}");
        }
        for text in ["", ":", "a:/b", "a: /b", "x:\n//", "key: value\nother: é", "ends with :", "/: //"] {
            assert!(!has_scheme_separator(text), "{text:?}");
        }
    }

    #[test]
    fn the_byte_scan_finds_what_a_substring_search_finds() {
        let by_substring = |line: &str| -> Vec<String> {
            line.match_indices("://")
                .filter_map(|(at, _)| {
                    let start = line[..at]
                        .char_indices()
                        .rev()
                        .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
                        .map_or(0, |(i, c)| i + c.len_utf8());
                    let scheme = &line[start..at];
                    if scheme.is_empty() || !scheme.starts_with(|c: char| c.is_ascii_alphabetic()) {
                        return None;
                    }
                    let end = line[at + 3..]
                        .find(|c: char| {
                            c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | ')' | '`' | ']' | '\\')
                        })
                        .map_or(line.len(), |i| at + 3 + i);
                    Some(line[start..end].to_string())
                })
                .collect()
        };
        for line in [
            "",
            ":::///://",
            "a://b://c https://x.y/?u=http://z 1://no é:ftp://d",
            "x: y, git+ssh://h/p ${V}://w :// s3://bucket/key",
        ] {
            assert_eq!(urls_in(line).collect::<Vec<_>>(), by_substring(line), "{line:?}");
        }
    }

    #[test]
    fn finds_urls_of_any_scheme() {
        let found: Vec<&str> = urls_in("see https://a.b/c) and `git+ssh://x/y` or ${X}://no").collect();
        assert_eq!(found, ["https://a.b/c", "git+ssh://x/y"]);
        let found: Vec<&str> = urls_in(r#"prompt = "<link href=\"https://a.b/c.css\">""#).collect();
        assert_eq!(found, ["https://a.b/c.css"]);
        let found: Vec<&str> = urls_in(r#"p = "git clone https://g.com/x.git\ncd x""#).collect();
        assert_eq!(found, ["https://g.com/x.git"]);
        let found: Vec<&str> = urls_in("\u{feff}https://a.b/c é:ftp://d.e").collect();
        assert_eq!(found, ["https://a.b/c", "ftp://d.e"]);
    }
}
