//! What Hermes's report (`core/src/runtime/hermes/drivers/hermes_inventory.py`) says of a skill
//! plugin: listed, enabled, loaded by its own PluginManager (which runs the
//! plugin's `register(ctx)`), and each registered skill served.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::runtime::verdict::{Built, Reading, exit, last_lines};

pub(crate) fn read_plugin(report: &Value, built: &Built<'_>) -> Reading {
    let mut reading = Reading::default();
    let plugin = &report["plugin"];
    let name = plugin["name"].as_str().unwrap_or(built.plugin());
    for (key, step) in [("list", "plugins list"), ("enable", "plugins enable")] {
        let result = &plugin[key];
        if exit(result) != Some(0) {
            let text = format!("{}{}", result["output"].as_str().unwrap_or_default(), result["stderr"].as_str().unwrap_or_default());
            reading.say(step, if result.is_null() { "not run".into() } else { last_lines(&text, 3) }, None);
        }
    }
    let load = &plugin["load"];
    let loaded = &load["data"][name];
    if loaded.is_null() {
        let text = last_lines(load["stderr"].as_str().unwrap_or_default(), 3);
        reading.say("load", if text.is_empty() { format!("{name} was not loaded") } else { text }, None);
    } else if let Some(error) = loaded["error"].as_str() {
        reading.say("load", error, None);
    }
    let served: BTreeSet<String> = loaded["served"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(_, ok)| ok.as_bool() == Some(true))
        .map(|(skill, _)| skill.clone())
        .collect();
    reading.compare("skill", "skills served", &built.skill_folders("skills"), &served, &|n| n.to_string());
    reading
}
