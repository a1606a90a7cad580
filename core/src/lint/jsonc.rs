//! JSONC (JSON with comments and trailing commas), as OpenCode reads it.

/// `text` with JSONC comments and trailing commas blanked out, keeping every
/// other character where it was (so parse errors keep their line and column).
pub(crate) fn strip_jsonc(text: &str) -> String {
    let mut out: Vec<char> = text.chars().collect();
    blank_outside_strings(&mut out, |out, i| match (out[i], out.get(i + 1)) {
        ('/', Some('/')) => out[i..].iter().position(|c| *c == '\n').map_or(out.len(), |n| i + n),
        ('/', Some('*')) => {
            out[i + 2..].windows(2).position(|w| w == ['*', '/']).map_or(out.len(), |n| i + n + 4)
        }
        _ => i,
    });
    blank_outside_strings(&mut out, |out, i| {
        let next = out[i + 1..].iter().find(|c| !c.is_whitespace());
        if out[i] == ',' && matches!(next, Some('}' | ']')) { i + 1 } else { i }
    });
    out.into_iter().collect()
}

/// Walks `chars` outside JSON strings; where `span(chars, i)` returns an end
/// past `i`, blanks `i..end` (newlines kept) and goes on from `end`.
fn blank_outside_strings(chars: &mut [char], span: impl Fn(&[char], usize) -> usize) {
    let (mut i, mut in_string) = (0, false);
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            match c {
                '\\' => i += 1,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else {
            let end = span(chars, i);
            if end > i {
                chars[i..end].iter_mut().filter(|c| **c != '\n').for_each(|c| *c = ' ');
                i = end;
                continue;
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    #[test]
    fn jsonc_comments_and_trailing_commas_are_blanked_in_place() {
        let text = "{\n // note\n \"a\": \"//x\", /* b */ // c\n \"b\": [1, 2,],\n}";
        let stripped = strip_jsonc(text);
        assert_eq!(stripped.lines().count(), text.lines().count());
        let value: Value = serde_json::from_str(&stripped).unwrap();
        assert_eq!(value["a"], "//x");
        assert_eq!(value["b"], serde_json::json!([1, 2]));
    }
}
