//! The command line's grammar through the real binary: per-verb help with a
//! line for every option, suggestions for typos, comma-separated and
//! repeated `--target`, `--`, flags that take no value, the documented exit
//! codes, shell completions and the man page.

mod common;

use common::*;

const VERBS: [&str; 6] = ["init", "build", "uninstall", "doctor", "validate", "import"];

/// Every option each verb takes, as its help must list it.
const OPTIONS: [(&str, &[&str]); 6] = [
    ("init", &["--name <NAME>"]),
    (
        "build",
        &[
            "-t, --target <RUNTIME[:KIND]>",
            "-o, --out <DIR>",
            "--scope <SCOPE>",
            "--manifest-name <NAME>",
            "--json",
            "--namespace <N>",
            "--var <KEY=VALUE>",
            "--allow-url <PREFIX>",
            "--deny-urls",
            "--dry-run",
            "--force",
            "--strict",
            "--no-marketplace",
            "--durability <DURABILITY>",
            "--check",
            "-v, --verbose",
        ],
    ),
    (
        "uninstall",
        &[
            "-t, --target <RUNTIME[:KIND]>",
            "-o, --out <DIR>",
            "--scope <SCOPE>",
            "--namespace <N>",
            "--force",
            "--durability <DURABILITY>",
            "--dry-run",
            "--json",
        ],
    ),
    (
        "doctor",
        &[
            "-t, --target <RUNTIME[:KIND]>",
            "-o, --out <DIR>",
            "--namespace <N>",
            "--var <KEY=VALUE>",
            "--json",
        ],
    ),
    ("validate", &["-t, --target <RUNTIME>", "--strict", "--json"]),
    ("import", &["--from <RUNTIME>", "--name <NAME>", "-o, --out <SRC>", "--json"]),
];

fn usage_error(r: &Run) -> &str {
    assert_eq!(r.code, 2, "a usage error exits 2\nstdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(r.stdout.is_empty(), "nothing on stdout: {}", r.stdout);
    assert!(r.stderr.starts_with("error[usage]: "), "{}", r.stderr);
    &r.stderr
}

#[test]
fn each_verb_has_its_own_help_with_a_line_for_every_option() {
    for (verb, options) in OPTIONS {
        for ask in [vec![verb, "--help"], vec![verb, "-h"], vec!["help", verb]] {
            let r = run(&ask);
            assert_eq!(r.code, 0, "{ask:?}: {}", r.stderr);
            assert!(r.stdout.contains(&format!("Usage: plugforge {verb} ")), "{ask:?}:\n{}", r.stdout);
            for option in options {
                let line = r.stdout.lines().find(|l| l.trim_start().starts_with(option));
                let line = line.unwrap_or_else(|| panic!("{verb} --help lists {option}:\n{}", r.stdout));
                assert!(line.len() > option.len() + 8, "{verb}: {option} has a description: {line:?}");
            }
            assert!(r.stdout.contains("Exit codes: 0 done, 1 refused"), "{verb}:\n{}", r.stdout);
        }
    }
}

#[test]
fn the_main_help_lists_every_verb_and_the_exit_codes() {
    for ask in [&[][..], &["--help"], &["help"]] {
        let r = run(ask);
        assert_eq!(r.code, 0, "{ask:?}");
        for verb in VERBS.iter().chain(&["completions", "man"]) {
            assert!(r.stdout.contains(&format!("\n  {verb} ")), "{ask:?} lists {verb}:\n{}", r.stdout);
        }
        assert!(r.stdout.contains("Exit codes:\n  0  done\n  1  refused"), "{}", r.stdout);
        assert!(r.stdout.contains("  2  bad usage or unreadable input"), "{}", r.stdout);
    }
    let version = run(&["--version"]);
    assert_eq!(
        (version.code, version.stdout.as_str()),
        (0, concat!("plugforge ", env!("CARGO_PKG_VERSION"), "\n"))
    );
}

#[test]
fn a_mistyped_verb_or_flag_gets_a_suggestion() {
    let r = run(&["buidl"]);
    let stderr = usage_error(&r);
    assert!(stderr.contains("unrecognized subcommand 'buidl'"), "{stderr}");
    assert!(stderr.contains("a similar subcommand exists: 'build'"), "{stderr}");
    let r = run(&["build", "--dry-rn"]);
    let stderr = usage_error(&r);
    assert!(stderr.contains("unexpected argument '--dry-rn'"), "{stderr}");
    assert!(stderr.contains("a similar argument exists: '--dry-run'"), "{stderr}");
}

#[test]
fn usage_errors_exit_2_with_a_message_naming_the_problem() {
    for (args, says) in [
        (&["build", "--bogus"][..], "unexpected argument '--bogus'"),
        (&["build", "--out"], "a value is required for '--out <DIR>'"),
        (
            &["build", "--var", "novalue"],
            "invalid value 'novalue' for '--var <KEY=VALUE>': expected KEY=VALUE with a non-empty KEY",
        ),
        (&["build", "a", "b"], "several sources build into one output root: name it with --out"),
        (&["build", "--scope", "galaxy"], "invalid value 'galaxy' for '--scope <SCOPE>'"),
        (&["uninstall", "dist"], "unexpected argument 'dist'"),
        (&["import", "plugin"], "the following required arguments were not provided:\n  --out <SRC>"),
        (&["build", "--json=false"], "unexpected value 'false' for '--json' found"),
    ] {
        let r = run(args);
        let stderr = usage_error(&r);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

#[test]
fn targets_come_comma_separated_or_repeated_with_the_same_result() {
    let tmp = TempDir::new("targets");
    let src = tmp.join("src");
    demo_source(&src, &[("commands/hi.md", "---\ndescription: Say hi\n---\nHi\n")]);
    let (commas, repeated) = (tmp.join("commas"), tmp.join("repeated"));
    run(&["build", s(&src), "--target", "claude-code,codex", "--out", s(&commas)]).expect(0);
    run(&["build", s(&src), "--target", "claude-code", "-t", "codex", "--out", s(&repeated)]).expect(0);
    assert!(files(&commas).iter().any(|f| f.starts_with("codex/")), "{:?}", files(&commas));
    assert!(files(&commas).iter().any(|f| f.starts_with("claude-code/")), "{:?}", files(&commas));
    assert_eq!(files(&commas), files(&repeated));
    for file in files(&commas) {
        assert!(read(&commas, &file) == read(&repeated, &file), "{file} differs");
    }
}

#[test]
fn a_double_dash_lets_a_folder_start_with_a_dash() {
    let tmp = TempDir::new("dashdash");
    let src = tmp.join("-src");
    demo_source(&src, &[("commands/hi.md", "---\ndescription: Say hi\n---\nHi\n")]);
    let out = tmp.join("out");
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_plugforge"))
        .args(["build", "--target", "claude-code", "--out", s(&out), "--", "-src"])
        .current_dir(tmp.path())
        .env("SOURCE_DATE_EPOCH", EPOCH)
        .output()
        .expect("run plugforge");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(out.join("claude-code/commands/hi.md").is_file(), "{:?}", files(&out));
}

#[test]
fn completions_are_generated_for_bash_zsh_and_fish() {
    for (shell, marker) in
        [("bash", "complete -F _plugforge"), ("zsh", "#compdef plugforge"), ("fish", "complete -c plugforge")]
    {
        let r = run(&["completions", shell]);
        assert_eq!(r.code, 0, "{shell}: {}", r.stderr);
        assert!(r.stdout.contains(marker), "{shell}:\n{}", r.stdout);
        for word in VERBS.iter().chain(&["--target", "--dry-run", "--manifest-name"]) {
            let bare = word.trim_start_matches('-');
            assert!(r.stdout.contains(bare), "{shell} completes {word}");
        }
    }
    usage_error(&run(&["completions", "tcsh"]));
}

#[test]
fn the_man_page_names_every_verb_and_the_exit_codes() {
    let r = run(&["man"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with(".ie \\n(.g .ds Aq \\(aq"), "roff:\n{}", r.stdout);
    assert!(r.stdout.contains(".TH plugforge 1"), "{}", r.stdout);
    for verb in VERBS {
        assert!(r.stdout.contains(&format!("plugforge\\-{verb}(1)")), "names {verb}:\n{}", r.stdout);
    }
    assert!(r.stdout.contains("bad usage or unreadable input"), "{}", r.stdout);

    let tmp = TempDir::new("man");
    let dir = tmp.join("man1");
    let r = run(&["man", "--dir", s(&dir)]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let pages = files(&dir);
    for verb in VERBS {
        let page = format!("plugforge-{verb}.1");
        assert!(pages.contains(&page), "{page} written: {pages:?}");
        assert!(r.stdout.contains(&format!("  create   {}/{page}\n", s(&dir))), "{}", r.stdout);
    }
    let build_page = String::from_utf8(read(&dir, "plugforge-build.1")).expect("roff is UTF-8");
    for option in ["\\-\\-target", "\\-\\-dry\\-run", "\\-\\-no\\-marketplace", "\\-\\-var"] {
        assert!(build_page.contains(option), "plugforge-build.1 documents {option}");
    }
    assert_eq!(String::from_utf8(read(&dir, "plugforge.1")).unwrap(), run(&["man"]).stdout);
}
