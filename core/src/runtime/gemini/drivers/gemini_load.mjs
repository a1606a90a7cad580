// Loads Gemini CLI components the way gemini-cli itself does, offline.
//
// Usage: node gemini_load.mjs REQUEST_JSON
//   {"bundle": ".../@google/gemini-cli/bundle", "toml": ".../node_modules/@iarna/toml",
//    "skills": DIR?, "agents": DIR?, "commands": DIR?, "hooks": {"file": F, "pointer": "hooks"}?}
// Prints one JSON object. Skills and agents go through the bundle's own
// loaders (loadSkillsFromDir, loadAgentsFromDirectory); hook event names are
// checked against the bundle's HookEventName enum. Commands are only loaded by
// the interactive UI, so FileCommandLoader is emulated: the same TOML parser
// (@iarna/toml, which the bundle inlines), the same schema (`prompt` string
// required, `description` optional string) and the same naming.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const request = JSON.parse(process.argv[2]);

// The core chunk gemini.js loads: the one exporting the loaders.
function coreChunk(bundle) {
  const entry = fs.readFileSync(path.join(bundle, "gemini.js"), "utf8");
  const chunks = [...entry.matchAll(/import "\.\/(chunk-[A-Z0-9]+\.js)"/g)].map((m) => m[1]);
  for (const chunk of chunks) {
    const file = path.join(bundle, chunk);
    const text = fs.readFileSync(file, "utf8");
    const tail = text.slice(-40000);
    if (tail.includes("loadAgentsFromDirectory") && tail.includes("HookEventName")) return file;
  }
  throw new Error(`no chunk imported by ${bundle}/gemini.js exports the agent loader`);
}

// Same values as HOOKS_CONFIG_FIELDS in the bundle: keys of `hooks` that are not events.
const HOOKS_CONFIG_FIELDS = ["enabled", "disabled", "notifications"];

function walk(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

// FileCommandLoader.parseAndAdaptFile, minus the UI.
function loadCommands(dir, toml) {
  const commands = [];
  const ignored = [];
  for (const file of walk(dir).sort()) {
    if (!file.endsWith(".toml")) {
      ignored.push(path.relative(dir, file));
      continue;
    }
    const rel = path.relative(dir, file).slice(0, -".toml".length);
    const name = rel
      .split(path.sep)
      .map((segment) => {
        let sanitized = segment.replace(/[^a-zA-Z0-9_\-.]/g, "_");
        if (sanitized.length > 50) sanitized = sanitized.substring(0, 47) + "...";
        return sanitized;
      })
      .join(":");
    const found = { file: path.relative(dir, file), name };
    let parsed;
    try {
      parsed = toml.parse(fs.readFileSync(file, "utf8"));
    } catch (error) {
      found.error = `Failed to parse TOML: ${error.message}`;
      commands.push(found);
      continue;
    }
    if (typeof parsed.prompt !== "string") {
      found.error = "The 'prompt' field is required and must be a string.";
    } else if (parsed.description !== undefined && typeof parsed.description !== "string") {
      found.error = "The 'description' field must be a string.";
    } else {
      found.description = parsed.description ?? null;
      found.prompt = parsed.prompt;
    }
    commands.push(found);
  }
  return { commands, ignored };
}

// HookRegistry.processHooksConfiguration / processHookDefinition / validateHookConfig.
function checkHooks(hooks, eventNames) {
  const result = { events: [], problems: [] };
  if (hooks === undefined) return result;
  if (!hooks || typeof hooks !== "object" || Array.isArray(hooks)) {
    result.problems.push('"hooks" property must be an object');
    return result;
  }
  for (const [event, definitions] of Object.entries(hooks)) {
    if (HOOKS_CONFIG_FIELDS.includes(event)) continue;
    if (!eventNames.includes(event)) {
      result.problems.push(`Invalid hook event name: "${event}"`);
      continue;
    }
    if (!Array.isArray(definitions)) {
      result.problems.push(`Hook definitions for event "${event}" is not an array`);
      continue;
    }
    result.events.push(event);
    for (const definition of definitions) {
      if (!definition || typeof definition !== "object" || !Array.isArray(definition.hooks)) {
        result.problems.push(`Discarding invalid hook definition for ${event}`);
        continue;
      }
      for (const hook of definition.hooks) {
        const ok =
          hook && typeof hook === "object" && ["command", "plugin", "runtime"].includes(hook.type) &&
          (hook.type !== "command" || hook.command);
        if (!ok) result.problems.push(`Discarding invalid hook configuration for ${event}`);
      }
    }
  }
  return result;
}

const core = await import(pathToFileURL(coreChunk(request.bundle)).href);
const eventNames = Object.values(core.HookEventName);
const report = { hook_event_names: eventNames };

if (request.skills) {
  const skills = await core.loadSkillsFromDir(request.skills);
  report.skills = skills.map((s) => ({ name: s.name, description: s.description }));
}
if (request.agents) {
  const loaded = await core.loadAgentsFromDirectory(request.agents);
  report.agents = loaded.agents.map((a) => ({ name: a.name, tools: a.toolConfig?.tools ?? null }));
  report.agent_errors = loaded.errors.map((e) => e.message);
}
if (request.commands) {
  const toml = createRequire(import.meta.url)(request.toml);
  report.commands = loadCommands(request.commands, toml);
}
if (request.hooks) {
  let parsed = null;
  try {
    parsed = JSON.parse(fs.readFileSync(request.hooks.file, "utf8"));
  } catch (error) {
    report.hooks = { events: [], problems: [`cannot read ${request.hooks.file}: ${error.message}`] };
  }
  if (parsed !== null) report.hooks = checkHooks(parsed[request.hooks.pointer], eventNames);
}
process.stdout.write(JSON.stringify(report, null, 2) + "\n");
