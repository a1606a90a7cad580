//! A validated relative path: hosts only ever join it onto a root, so no
//! generated or planned path can land outside that root.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::error::{Error, ErrorCode, Result};

/// The folder part of a `/`-separated path: `None` for a file at the root.
pub(crate) fn parent(path: &str) -> Option<&str> {
    path.rsplit_once('/').map(|(parent, _)| parent)
}

/// A relative, `/`-separated path with no `..`, `.`, empty segments,
/// backslashes, NUL bytes or leading `/`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(type = "string"))]
pub struct BundlePath(String);

impl BundlePath {
    pub fn new(path: impl Into<String>) -> Result<Self> {
        let path = path.into();
        match refusal(&path) {
            None => Ok(BundlePath(path)),
            Some(why) => Err(Error::new(ErrorCode::InvalidPath, format!("invalid path {path:?}: {why}"))),
        }
    }

    /// A bound for range queries over sorted paths; never a real path.
    pub(crate) fn range_bound(prefix: &str) -> Self {
        BundlePath(prefix.to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `self/child`, both already valid.
    pub fn join(&self, child: &BundlePath) -> BundlePath {
        BundlePath(format!("{}/{}", self.0, child.0))
    }

    /// `prefix/self` when `prefix` is not empty.
    pub fn under(&self, prefix: &str) -> BundlePath {
        if prefix.is_empty() { self.clone() } else { BundlePath(format!("{prefix}/{}", self.0)) }
    }

    /// The path relative to `prefix/`, if it lies below it.
    pub fn strip_prefix(&self, prefix: &str) -> Option<BundlePath> {
        if prefix.is_empty() {
            return Some(self.clone());
        }
        self.0.strip_prefix(prefix)?.strip_prefix('/').map(|rest| BundlePath(rest.to_string()))
    }

    pub fn file_name(&self) -> &str {
        self.0.rsplit('/').next().unwrap_or(&self.0)
    }
}

fn refusal(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        return Some("empty path");
    }
    if path.contains('\0') {
        return Some("contains a NUL byte");
    }
    if path.contains('\\') {
        return Some("contains a backslash");
    }
    if path.starts_with('/') {
        return Some("absolute path");
    }
    if path.len() >= 2 && path.as_bytes()[1] == b':' && path.as_bytes()[0].is_ascii_alphabetic() {
        return Some("drive-letter path");
    }
    for segment in path.split('/') {
        match segment {
            "" => return Some("empty path segment"),
            "." => return Some("'.' segment"),
            ".." => return Some("'..' segment escapes the root"),
            _ => {}
        }
    }
    None
}

impl fmt::Display for BundlePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for BundlePath {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_clean_relative_paths() {
        for ok in ["a", "skills/x/SKILL.md", ".claude-plugin/plugin.json", "a..b/c"] {
            assert_eq!(BundlePath::new(ok).unwrap().as_str(), ok);
        }
    }

    #[test]
    fn refuses_escapes_with_a_reason() {
        let cases = [
            ("", "empty path"),
            ("../x", "'..' segment"),
            ("a/../../x", "'..' segment"),
            ("/etc/passwd", "absolute"),
            ("a\\b", "backslash"),
            ("a\0b", "NUL"),
            ("a//b", "empty path segment"),
            ("a/", "empty path segment"),
            ("./a", "'.' segment"),
            ("C:/x", "drive-letter"),
        ];
        for (bad, why) in cases {
            let err = BundlePath::new(bad).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidPath);
            assert!(err.message().contains(why), "{bad:?}: {}", err.message());
        }
    }

    #[test]
    fn strips_prefixes_only_at_segment_boundaries() {
        let p = BundlePath::new("claude-code/skills/a").unwrap();
        assert_eq!(p.strip_prefix("claude-code").unwrap().as_str(), "skills/a");
        assert!(p.strip_prefix("claude").is_none());
    }
}
