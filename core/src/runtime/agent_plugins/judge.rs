//! What the Agent Skills reference validator's report
//! (`core/src/runtime/agent_plugins/drivers/skills_ref_validate.py`) says of a package's skills: each
//! `skills/<name>/` validated, and any SKILL.md nested deeper (which Agent
//! Plugins clients never read).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::runtime::verdict::{Built, Reading, last_lines};

pub(crate) fn read_skills(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    let mut valid = BTreeSet::new();
    for (dir, result) in report["skills"].as_object().into_iter().flatten() {
        let name = dir.rsplit('/').next().unwrap_or(dir).to_string();
        if result["exit"].as_i64() == Some(0) {
            valid.insert(name);
        } else {
            let file = format!("skills/{name}/SKILL.md");
            let output = result["output"].as_str().unwrap_or_default().replace(&format!("{dir}/"), "").replace(dir, &format!("skills/{name}"));
            reading.say("skills-ref validate", last_lines(&output, 4), Some(&file));
        }
    }
    for nested in report["nested"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        let file = crate::runtime::verdict::file_named(nested, built.dir);
        reading.say("layout", format!("{}: nested below skills/<name>/, where clients do not look", file.as_deref().unwrap_or(nested)), file.as_deref());
    }
    reading.compare("skill", "valid skills", &built.skill_folders("skills"), &valid, &|name| name.to_string());
    reading
}
