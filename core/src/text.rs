//! Text as editors save it. Windows editors may start a UTF-8 file with a
//! byte order mark and end its lines with CRLF; every reader of a text
//! input accepts both, and what plugforge generates from such a file has
//! neither. Files copied as they are keep their bytes.

use std::borrow::Cow;

/// The UTF-8 byte order mark, as a character.
pub const BOM: char = '\u{feff}';

/// `text` without a leading byte order mark.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// `text` with its byte order mark dropped and CRLF line endings turned to
/// LF; borrowed when it has neither. Line numbers are unchanged.
pub fn normalised(text: &str) -> Cow<'_, str> {
    let plain = without_bom(text);
    if plain.contains("\r\n") { Cow::Owned(plain.replace("\r\n", "\n")) } else { Cow::Borrowed(plain) }
}

/// Whether `text` needs [`normalised`] to change it.
pub fn is_normalised(text: &str) -> bool {
    !text.starts_with(BOM) && !text.contains("\r\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_the_bom_and_crlf_and_nothing_else() {
        let cases = [
            ("\u{feff}---\r\nname: x\r\n---\r\nbody\r\n", "---\nname: x\n---\nbody\n"),
            ("\u{feff}{}", "{}"),
            ("a\r\nb", "a\nb"),
            ("lone\rcarriage return", "lone\rcarriage return"),
            ("inner \u{feff} mark", "inner \u{feff} mark"),
            ("plain\n", "plain\n"),
        ];
        for (text, expected) in cases {
            assert_eq!(normalised(text), expected, "{text:?}");
            assert_eq!(is_normalised(text), text == expected, "{text:?}");
        }
        assert!(matches!(normalised("plain\n"), Cow::Borrowed(_)));
    }
}
