//! `cargo run --release -p plugforge-bench [-- --runs N]`: builds, plans
//! and validates synthetic sources of about 2,700 and 10,000 files in
//! memory and prints wall time (median of the runs), throughput and the
//! process's peak memory. Figures only: nothing here passes or fails.

mod corpus;

use std::time::{Duration, Instant};

use corpus::Shape;
use plugforge_core::{
    BuildOptions, Observed, Output, PlanOptions, SourceTree, TargetRequest, ValidateOptions, build, plan,
    validate,
};

/// The four runtimes a popular single-source tool generates, for a
/// side-by-side figure, then every runtime.
const TARGET_SETS: [(&str, &[&str]); 2] =
    [("4 runtimes", &["claude-code", "codex", "cursor", "opencode"]), ("all runtimes", &["all"])];

fn main() {
    let runs = runs_from_args();
    println!("plugforge bench: median of {runs} runs, in memory (no disk), one thread");
    for (label, shape) in [
        ("2.7k files", Shape { skills: 1000, commands: 500, agents: 200 }),
        ("10k files", Shape { skills: 3500, commands: 2000, agents: 1000 }),
    ] {
        let tree = corpus::source(shape);
        let source_bytes: usize = tree.iter().map(|(_, f)| f.bytes.len()).sum();
        println!(
            "\n{label}: {} source files, {:.1} MiB ({} skills, {} commands, {} agents)",
            tree.len(),
            mib(source_bytes),
            shape.skills,
            shape.commands,
            shape.agents
        );
        for (set, targets) in TARGET_SETS {
            let options = BuildOptions {
                targets: targets.iter().map(|t| TargetRequest::new(*t)).collect(),
                ..BuildOptions::default()
            };
            let (built, time) = median(runs, || build(&tree, &options).expect("corpus builds"));
            let (files, bytes) = output_size(&built);
            println!(
                "  build {set:<13} {:>8.1} ms  {files:>6} files  {:>7.1} MiB out  {:>7.0} source files/s",
                ms(time),
                mib(bytes),
                tree.len() as f64 / time.as_secs_f64()
            );
            let plan_options = PlanOptions { force: false, generated_at: "2026-01-01T00:00:00Z".into() };
            let (_, time) = median(runs, || plan(&built, &Observed::default(), &plan_options).expect("plan"));
            println!("  plan  {set:<13} {:>8.1} ms  (every file a create)", ms(time));
        }
        report_validate(&tree, runs);
    }
    println!("\npeak memory of this process: {}", peak_memory());
}

fn report_validate(tree: &SourceTree, runs: usize) {
    let options = ValidateOptions::default();
    let (report, time) = median(runs, || validate(tree, &options).expect("validate"));
    println!("  validate source     {:>8.1} ms  ({} findings)", ms(time), report.findings.len());
}

fn runs_from_args() -> usize {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => 5,
        [flag, n] if flag == "--runs" => n.parse().expect("--runs takes a number"),
        _ => panic!("usage: plugforge-bench [--runs N]"),
    }
}

/// Runs `job` `runs` times; the last result and the median time.
fn median<T>(runs: usize, mut job: impl FnMut() -> T) -> (T, Duration) {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs.max(1) {
        let start = Instant::now();
        last = Some(job());
        times.push(start.elapsed());
    }
    times.sort();
    (last.expect("ran at least once"), times[times.len() / 2])
}

fn output_size(output: &Output) -> (usize, usize) {
    let mut files = 0;
    let mut bytes = 0;
    for bundle in &output.bundles {
        files += bundle.files.len();
        bytes += bundle.files.values().map(|f| f.bytes.len()).sum::<usize>();
    }
    (files, bytes)
}

fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1000.0
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// VmHWM from /proc (Linux); elsewhere the figure is not available.
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l[6..].trim().to_string())
        })
        .unwrap_or_else(|| "not available on this system".into())
}
