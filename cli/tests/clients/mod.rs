//! Which real agent CLI a test runs, and the one rule for a missing one: a
//! test whose client is not installed fails, unless that client is skipped
//! by name in `PLUGFORGE_SKIP_CLIENTS` (comma-separated names as
//! `scripts/install-clients` knows them: `claude,codex,gemini,opencode,
//! skills-ref,openclaw,hermes,copilot,qwen,droid,qoder`). A test that silently passed without its
//! client would prove nothing.

use std::path::Path;

pub mod judge;

/// The variable that lists the clients a run does without.
pub const SKIP_VAR: &str = "PLUGFORGE_SKIP_CLIENTS";

/// The client's name from its variable: `PLUGFORGE_SKILLS_REF_BIN` -> `skills-ref`.
pub fn name_of(var: &str) -> String {
    let inner = var.strip_prefix("PLUGFORGE_").and_then(|v| v.strip_suffix("_BIN")).unwrap_or(var);
    inner.to_ascii_lowercase().replace('_', "-")
}

/// What to do about one client: run it (`Ok(Some(bin))`), skip it because
/// it is named in `skip` (`Ok(None)`), or fail (`Err`, the message to fail with).
pub fn decide(var: &str, bin: Option<&str>, skip: Option<&str>) -> Result<Option<String>, String> {
    let name = name_of(var);
    if let Some(bin) = bin.filter(|b| !b.is_empty() && Path::new(b).exists()) {
        return Ok(Some(bin.to_string()));
    }
    let skipped = skip.unwrap_or_default().split(',').map(str::trim).any(|s| s == name);
    if skipped {
        return Ok(None);
    }
    Err(format!(
        "{var} is not set to a binary: install the client (scripts/install-clients {name}) \
         or skip it by name ({SKIP_VAR}={name})"
    ))
}

/// The binary `var` names; `None` (the caller skips) only when the client
/// is skipped by name; a panic (the test fails) when it is missing.
pub fn client(var: &str) -> Option<String> {
    let bin = std::env::var(var).ok();
    let skip = std::env::var(SKIP_VAR).ok();
    match decide(var, bin.as_deref(), skip.as_deref()) {
        Ok(Some(bin)) => Some(bin),
        Ok(None) => {
            eprintln!("skipping: {} is listed in {SKIP_VAR}", name_of(var));
            None
        }
        Err(message) => panic!("{message}"),
    }
}
