// The runtimes the engine writes for and their artifact kinds, default first
// (the engine's own table; test/e2e.test.mjs checks this copy against it).
export const RUNTIMES = [
  { id: "claude-code", label: "Claude Code", kinds: ["plugin", "project"] },
  { id: "codex", label: "OpenAI Codex", kinds: ["plugin", "project"] },
  { id: "gemini", label: "Gemini CLI", kinds: ["extension", "project"] },
  { id: "cursor", label: "Cursor", kinds: ["plugin"] },
  { id: "opencode", label: "OpenCode", kinds: ["project"] },
  { id: "agent-plugins", label: "Agent Plugins 1.0", kinds: ["plugin"] },
  { id: "openclaw", label: "OpenClaw", kinds: ["compatible-bundle", "workspace"] },
  { id: "hermes", label: "Hermes Agent", kinds: ["workspace", "skill-plugin"] },
  { id: "copilot", label: "GitHub Copilot CLI", kinds: ["plugin"] },
  { id: "antigravity", label: "Google Antigravity CLI", kinds: ["plugin"] },
  { id: "generic", label: "Generic (Markdown guide)", kinds: ["guide"] },
  { id: "universal", label: "One folder for every host", kinds: ["plugin"] },
];
