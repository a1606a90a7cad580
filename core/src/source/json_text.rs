//! JSON parsing that reports the file, line and column of a syntax error.

use serde::de::DeserializeOwned;

use crate::error::{Error, ErrorCode, Location, Result};

/// Parses `bytes` as JSON into `T`; errors name `file` and the position.
pub fn parse_json<T: DeserializeOwned>(file: &str, bytes: &[u8]) -> Result<T> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| Error::at(ErrorCode::InvalidSource, Location::file(file), format!("not UTF-8: {e}")))?;
    let text = crate::text::without_bom(text);
    // serde_json would stop at its own recursion limit with a syntax error;
    // the depth is checked first so the error says what it is.
    if let Some((line, column)) = crate::limits::too_deep(text) {
        return Err(Error::at(
            ErrorCode::Limit,
            Location::at(file, line, column),
            format!("JSON nested deeper than {} levels", crate::limits::MAX_JSON_DEPTH),
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        let what = match e.classify() {
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof => "invalid JSON",
            _ => "unexpected JSON content",
        };
        let message = strip_position(&e.to_string());
        Error::at(
            ErrorCode::InvalidSource,
            Location::at(file, e.line(), e.column()),
            format!("{what}: {message}"),
        )
    })
}

/// serde_json appends " at line X column Y"; the location already says it.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(cut) => message[..cut].to_string(),
        None => message.to_string(),
    }
}

/// The 1-based line of the first key named `key` (at any depth, in
/// document order), to point a structural error at the right place.
pub fn line_of_key(text: &str, key: &str) -> Option<usize> {
    super::JsonPositions::of(text).line_of_key(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bom_and_crlf_are_read_as_if_absent() {
        let value: serde_json::Value =
            parse_json("plugforge.json", "\u{feff}{\r\n  \"name\": \"p\"\r\n}\r\n".as_bytes()).unwrap();
        assert_eq!(value, serde_json::json!({"name": "p"}));
        let err = parse_json::<serde_json::Value>("p.json", "\u{feff}{\r\n  \"a\": 1,\r\n}\r\n".as_bytes())
            .unwrap_err();
        assert_eq!(err.location().unwrap().line, Some(3));
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let err = parse_json::<serde_json::Value>("hooks/hooks.json", b"{\n  \"a\": 1,\n}\n").unwrap_err();
        let loc = err.location().unwrap();
        assert_eq!(loc.file, "hooks/hooks.json");
        assert_eq!(loc.line, Some(3));
        assert!(err.message().starts_with("hooks/hooks.json:3:1: invalid JSON: trailing comma"), "{}", err);
    }

    #[test]
    fn json_nested_past_the_limit_is_a_limit_error_at_its_place() {
        let depth = crate::limits::MAX_JSON_DEPTH;
        let fine = format!("{{\"a\": {}{}}}", "[".repeat(depth - 1), "]".repeat(depth - 1));
        assert!(parse_json::<serde_json::Value>("x.json", fine.as_bytes()).is_ok());
        // A million levels: refused by the scan, before any parser recurses.
        let deep = format!("{{\n\"a\": {}", "[".repeat(1_000_000));
        let err = parse_json::<serde_json::Value>("plugforge.json", deep.as_bytes()).unwrap_err();
        assert_eq!(err.code, ErrorCode::Limit);
        assert_eq!(err.location(), Some(&Location::at("plugforge.json", 2, 6 + depth - 1)));
        assert_eq!(
            err.message(),
            format!("plugforge.json:2:{}: JSON nested deeper than 100 levels", 5 + depth)
        );
    }

    #[test]
    fn finds_key_lines() {
        assert_eq!(line_of_key("{\n \"a\": {\n  \"Stop\": []}}", "Stop"), Some(3));
        assert_eq!(line_of_key("{}", "Stop"), None);
    }
}
