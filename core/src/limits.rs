//! Bounds on what one run takes in, so a hostile or broken input fails with
//! the `limit` error code instead of exhausting memory, stack or time. Each
//! is set far above what a real plugin needs (sources of 10,000 files are the
//! design point); the README's safety table lists them with their tests.

/// Levels of `[`/`{` nesting in one JSON or JSONC text. Plugin manifests,
/// settings and hooks nest fewer than ten; the parsers recurse once a level.
pub const MAX_JSON_DEPTH: usize = 100;

/// Where `text` (JSON or JSONC) first nests deeper than [`MAX_JSON_DEPTH`],
/// as a 1-based (line, column), without building anything: brackets inside
/// strings and comments do not count.
pub fn too_deep(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => {
                let quote = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 1;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_JSON_DEPTH {
                    return Some(position(text, i));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// 1-based (line, column) of byte `offset`, columns counted in characters.
pub fn position(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_counted_outside_strings_and_comments_only() {
        let deep = "[".repeat(MAX_JSON_DEPTH + 1);
        assert_eq!(too_deep(&deep), Some((1, MAX_JSON_DEPTH + 1)));
        let at_the_limit = format!("{}{}", "[".repeat(MAX_JSON_DEPTH), "]".repeat(MAX_JSON_DEPTH));
        assert_eq!(too_deep(&at_the_limit), None);
        let quoted = format!(
            "{{\"a\": \"{}\\\"\", // {}\n /* {} */ \"b\": 1}}",
            "[".repeat(500),
            "{".repeat(500),
            "[".repeat(500)
        );
        assert_eq!(too_deep(&quoted), None);
        let second_line = format!("{{\n  \"a\": {}", "[".repeat(MAX_JSON_DEPTH));
        assert_eq!(too_deep(&second_line), Some((2, 7 + MAX_JSON_DEPTH)));
    }
}
