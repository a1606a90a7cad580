//! The one JSON writer: 2-space indent, UTF-8, trailing newline, keys in
//! insertion order, so every host emits the same bytes.

use serde::Serialize;

pub fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(value).expect("JSON values always serialize");
    bytes.push(b'\n');
    bytes
}
