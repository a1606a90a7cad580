//! Markdown components whose frontmatter changes on the way in: parsed,
//! edited as a map, written back with the one YAML writer.

use serde_json::{Map, Value};

use crate::error::Result;
use crate::format::yaml;
use crate::source::parse_document;

/// A Markdown file as frontmatter and body.
pub struct Markdown {
    pub frontmatter: Option<Map<String, Value>>,
    pub body: String,
}

impl Markdown {
    pub fn parse(file: &str, text: &str) -> Result<Markdown> {
        let document = parse_document(file, text)?;
        Ok(Markdown { frontmatter: document.frontmatter, body: document.body })
    }

    pub fn text(&self) -> String {
        match &self.frontmatter {
            Some(map) if !map.is_empty() => yaml::frontmatter(map, &self.body),
            _ => self.body.clone(),
        }
    }
}
