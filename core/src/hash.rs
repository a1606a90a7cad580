//! sha256 digests: held as their 32 bytes, written as lowercase hex, the
//! form every manifest and host uses.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::Digest;

/// A sha256 digest. A build keeps one for every file it generates, sees
/// and plans; held inline, not as 64 characters of text on the heap (about
/// 100 bytes a file, a megabyte or more a large build, several times over).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sha256Digest([u8; 32]);

impl Sha256Digest {
    pub fn of(bytes: &[u8]) -> Self {
        Sha256Digest(sha2::Sha256::digest(bytes).into())
    }

    /// The digest a host gave as hex, if it is one (64 hex digits).
    pub fn from_hex(hex: &str) -> Option<Self> {
        hex.parse().ok()
    }

    fn hex(&self) -> [u8; 64] {
        let mut out = [0; 64];
        hex::encode_to_slice(self.0, &mut out).expect("64 digits hold 32 bytes");
        out
    }
}

impl fmt::Display for Sha256Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = self.hex();
        f.write_str(std::str::from_utf8(&hex).expect("hex digits are ASCII"))
    }
}

impl fmt::Debug for Sha256Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Equal to its lowercase hex: a manifest's text compares without a copy.
impl PartialEq<str> for Sha256Digest {
    fn eq(&self, other: &str) -> bool {
        self.hex() == other.as_bytes()
    }
}

impl PartialEq<&str> for Sha256Digest {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

/// Why a text is not a sha256 digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotADigest(String);

impl fmt::Display for NotADigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a sha256 (64 lowercase hex digits)", self.0)
    }
}

impl std::error::Error for NotADigest {}

impl FromStr for Sha256Digest {
    type Err = NotADigest;

    /// Lowercase only: the form written everywhere, so a digest and its text
    /// compare equal exactly when the text parses to it.
    fn from_str(text: &str) -> Result<Self, NotADigest> {
        let mut bytes = [0; 32];
        if text.bytes().any(|b| b.is_ascii_uppercase()) || hex::decode_to_slice(text, &mut bytes).is_err() {
            return Err(NotADigest(text.chars().take(80).collect()));
        }
        Ok(Sha256Digest(bytes))
    }
}

impl Serialize for Sha256Digest {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let hex = self.hex();
        serializer.serialize_str(std::str::from_utf8(&hex).expect("hex digits are ASCII"))
    }
}

impl<'de> Deserialize<'de> for Sha256Digest {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256Digest::of(bytes).to_string()
}

/// sha256 of bytes that come in pieces (a file read a block at a time, so
/// a host never holds a whole large file to hash it).
#[derive(Debug, Clone, Default)]
pub struct Sha256Stream(sha2::Sha256);

impl Sha256Stream {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    pub fn finish(self) -> Sha256Digest {
        Sha256Digest(self.0.finalize().into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_pieces_matches_the_whole() {
        let mut stream = Sha256Stream::new();
        stream.update(b"a");
        stream.update(b"");
        stream.update(b"bc");
        assert_eq!(stream.finish(), Sha256Digest::of(b"abc"));
    }

    #[test]
    fn matches_the_known_digest_as_text_and_through_serde() {
        let known = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let digest = Sha256Digest::of(b"abc");
        assert_eq!(sha256_hex(b"abc"), known);
        assert_eq!(format!("{digest:?}"), known);
        assert!(digest == *known);
        assert_eq!(serde_json::to_string(&digest).unwrap(), format!("\"{known}\""));
        assert_eq!(serde_json::from_str::<Sha256Digest>(&format!("\"{known}\"")).unwrap(), digest);
        assert_eq!(Sha256Digest::from_hex(known), Some(digest));
    }

    #[test]
    fn only_64_lowercase_hex_digits_are_a_digest() {
        let known = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        for text in
            ["", "0", &known[1..], &format!("{known}0"), &known.to_uppercase(), &known.replace('b', "g")]
        {
            assert_eq!(Sha256Digest::from_hex(text), None, "{text}");
            assert!(Sha256Digest::of(b"abc") != *text, "{text}");
        }
        let err = serde_json::from_str::<Sha256Digest>("\"0\"").unwrap_err().to_string();
        assert!(err.contains("\"0\" is not a sha256"), "{err}");
    }
}
