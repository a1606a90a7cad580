//! sha256 as lowercase hex, the form every manifest and host uses.

use sha2::{Digest, Sha256};

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// sha256 of bytes that come in pieces (a file read a block at a time, so
/// a host never holds a whole large file to hash it), as [`sha256_hex`] gives it.
#[derive(Debug, Clone, Default)]
pub struct Sha256Stream(Sha256);

impl Sha256Stream {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    pub fn finish(self) -> String {
        hex(&self.0.finalize())
    }
}

fn hex(digest: &[u8]) -> String {
    let mut out = String::with_capacity(64);
    for byte in digest.iter() {
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    out
}

const HEX: &[u8; 16] = b"0123456789abcdef";

#[cfg(test)]
mod tests {
    #[test]
    fn in_pieces_matches_the_whole() {
        let mut stream = super::Sha256Stream::new();
        stream.update(b"a");
        stream.update(b"");
        stream.update(b"bc");
        assert_eq!(stream.finish(), super::sha256_hex(b"abc"));
    }

    #[test]
    fn matches_the_known_digest() {
        assert_eq!(
            super::sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
