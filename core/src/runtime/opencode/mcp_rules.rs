//! How OpenCode reads the `mcp` servers of opencode.json:
//! `{type: "local", command: [argv]}` or `{type: "remote", url}`.

use serde_json::{Map, Value};

use crate::runtime::McpProblem;

/// A server's problem, if any: Claude's shape is another dialect.
pub(crate) fn server(name: &str, fields: &Map<String, Value>) -> Vec<McpProblem> {
    let problem = match fields.get("type").and_then(Value::as_str) {
        Some("local") => (!fields
            .get("command")
            .and_then(Value::as_array)
            .is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_string)))
        .then(|| {
            format!("server {name:?}: a local server's `command` is a list of strings (program and arguments)")
        }),
        Some("remote") => (!fields.get("url").is_some_and(Value::is_string))
            .then(|| format!("server {name:?}: a remote server needs a `url`")),
        _ if fields.get("command").is_some_and(Value::is_string) => Some(format!(
            "server {name:?} is in Claude's shape (`command` string): OpenCode wants {{\"type\": \"local\", \"command\": [program, args...]}}"
        )),
        _ => Some(format!("server {name:?} needs `type` local or remote: OpenCode refuses the config")),
    };
    let dialect = fields.get("command").is_some_and(Value::is_string);
    problem
        .map(|message| if dialect { McpProblem::Dialect(None, message) } else { McpProblem::Invalid(message) })
        .into_iter()
        .collect()
}
