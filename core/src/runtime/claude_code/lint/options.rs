//! Claude Code's option objects: `userConfig`, `channels` and `binaries`,
//! and the strict (zod `.strict()`) objects that refuse unknown keys.

use serde_json::{Map, Value};

use crate::lint::Sink;
use crate::lint::doc::{Doc, Shape, describe, look_alike};
use crate::lint::manifest_rules::*;

const USER_CONFIG_KEYS: &[&str] =
    &["type", "title", "description", "required", "default", "multiple", "sensitive", "min", "max"];
const USER_CONFIG_TYPES: &[&str] = &["string", "number", "boolean", "directory", "file"];
const CHANNEL_KEYS: &[&str] = &["server", "displayName", "userConfig"];
/// Claude Code fetches only the first 16 binaries at install.
const MAX_BINARIES: usize = 16;

/// Reports keys of a strict (zod `.strict()`) object that it does not allow.
pub(super) fn strict_keys(
    doc: Doc<'_>,
    sink: &mut Sink,
    field: &str,
    object: &Map<String, Value>,
    allowed: &[&str],
) {
    for key in object.keys().filter(|k| !allowed.contains(&k.as_str())) {
        let hint = look_alike(key, allowed).map_or(String::new(), |k| format!(" (did you mean {k:?}?)"));
        let message = format!(
            "{field}.{key}: not allowed here{hint}; Claude Code refuses unrecognized keys in this object"
        );
        doc.report(sink, &KEY_NOT_ALLOWED, field, message);
    }
}

pub(super) fn user_config(doc: Doc<'_>, sink: &mut Sink) {
    let Some(value) = doc.get("userConfig") else { return };
    let Some(options) = value.as_object().filter(|_| doc.expect(sink, "userConfig", value, Shape::Object))
    else {
        return;
    };
    for (key, option) in options {
        let field = format!("userConfig.{key}");
        if !is_identifier(key) {
            let message =
                format!("{field}: the key must match ^[A-Za-z_]\\w*$ (it becomes ${{user_config.{key}}})");
            doc.report(sink, &INVALID_FIELD, "userConfig", message);
        }
        let Some(option) = option.as_object().filter(|_| doc.expect(sink, &field, option, Shape::Object))
        else {
            continue;
        };
        strict_keys(doc, sink, &field, option, USER_CONFIG_KEYS);
        for required in ["type", "title", "description"] {
            if !option.contains_key(required) {
                doc.report(
                    sink,
                    &REQUIRED_FIELD_MISSING,
                    "userConfig",
                    format!("{field}.{required}: missing"),
                );
            }
        }
        if let Some(kind) = option.get("type") {
            if !kind.as_str().is_some_and(|k| USER_CONFIG_TYPES.contains(&k)) {
                let message = format!("{field}.type: {kind} is not one of {}", USER_CONFIG_TYPES.join(", "));
                doc.report(sink, &INVALID_FIELD, "userConfig", message);
            }
        }
    }
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

pub(super) fn channels(doc: Doc<'_>, sink: &mut Sink) {
    let Some(value) = doc.get("channels") else { return };
    let Some(items) = value.as_array().filter(|_| doc.expect(sink, "channels", value, Shape::Array)) else {
        return;
    };
    for (i, channel) in items.iter().enumerate() {
        let field = format!("channels[{i}]");
        let Some(channel) = channel.as_object().filter(|_| doc.expect(sink, &field, channel, Shape::Object))
        else {
            continue;
        };
        strict_keys(doc, sink, &field, channel, CHANNEL_KEYS);
        match channel.get("server") {
            Some(server) => {
                doc.expect(sink, &format!("{field}.server"), server, Shape::Str);
            }
            None => doc.report(sink, &REQUIRED_FIELD_MISSING, "channels", format!("{field}.server: missing")),
        }
    }
}

pub(super) fn binaries(doc: Doc<'_>, sink: &mut Sink) {
    let Some(value) = doc.get("binaries") else { return };
    let Some(entries) = value.as_object() else {
        let message =
            format!("binaries: expected an object of basename -> {{sha256}}, found {}", describe(value));
        doc.report(sink, &BINARIES_INVALID, "binaries", message);
        return;
    };
    for (name, entry) in entries {
        let sha_ok = entry.get("sha256").and_then(Value::as_str).is_some_and(|h| {
            h.len() == 64 && h.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        });
        if !is_binary_name(name) || !sha_ok {
            let message = format!(
                "binaries.{name}: ignored at install; the basename must be lowercase ([a-z0-9._-], no leading or trailing dot) and the value {{\"sha256\": <64 lowercase hex>}}"
            );
            doc.report(sink, &BINARIES_INVALID, "binaries", message);
        }
    }
    if entries.len() > MAX_BINARIES {
        let message = format!(
            "binaries: {} entries; only the first {MAX_BINARIES} are fetched at install",
            entries.len()
        );
        doc.report(sink, &BINARIES_INVALID, "binaries", message);
    }
}

/// `^[a-z0-9](?:[a-z0-9._-]*[a-z0-9_-])?$`
fn is_binary_name(name: &str) -> bool {
    let allowed = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._-".contains(&b);
    let bytes = name.as_bytes();
    match bytes {
        [] => false,
        [first, ..] if !(first.is_ascii_lowercase() || first.is_ascii_digit()) => false,
        [.., last] if *last == b'.' => false,
        _ => bytes.iter().all(|b| allowed(*b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_names_are_lowercase_basenames() {
        assert!(is_binary_name("my-tool") && is_binary_name("tool_2.x_"));
        assert!(!is_binary_name("Bad Name") && !is_binary_name(".hidden") && !is_binary_name("tool."));
    }
}
