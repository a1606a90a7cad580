//! The benchmark's Rust half. `bench/run` drives it and times whole
//! processes; run alone, `plugforge-bench [--runs N]` prints in-memory
//! build, plan and validate figures. Figures only: nothing here passes or
//! fails.
//!
//! ```text
//! plugforge-bench [--runs N]                    in-memory figures
//! plugforge-bench corpus OUT                    the shared corpus (plugforge/ and rulesync/)
//! plugforge-bench marketplace OUT N             N plugin sources, OUT/p000 ...
//! plugforge-bench in-memory SRC TARGETS RUNS    median ms of the core build of SRC
//! plugforge-bench hash-tree DIR                 reads and hashes every file below DIR
//! plugforge-bench write SRC OUT TARGETS DURABILITY   build + plan + apply, as `plugforge build`
//! ```

mod corpus;
mod marketplace;

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use corpus::Shape;
use plugforge_core::{
    BuildOptions, Observed, Output, PlanOptions, SourceTree, TargetRequest, ValidateOptions, build, plan,
    validate,
};
use plugforge_host_fs::{self as host_fs, Durability, Writer};

/// The four runtimes a popular single-source tool generates, for a
/// side-by-side figure, then every runtime.
const TARGET_SETS: [(&str, &[&str]); 2] =
    [("4 runtimes", &["claude-code", "codex", "cursor", "opencode"]), ("all runtimes", &["all"])];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let done = match words.as_slice() {
        [] => in_memory_figures(5),
        ["--runs", n] => {
            n.parse().map_err(|_| "--runs takes a number".to_string()).and_then(in_memory_figures)
        }
        ["corpus", out] => corpus::write(Path::new(out), Shape::SHARED).map_err(|e| e.to_string()),
        ["marketplace", out, n] => {
            let n = n.parse().map_err(|_| "marketplace takes a count".to_string());
            n.and_then(|n| marketplace::write(Path::new(out), n).map_err(|e| e.to_string()))
        }
        ["in-memory", src, targets, runs] => in_memory(src, targets, runs),
        ["hash-tree", dir] => hash_tree(dir),
        ["write", src, out, targets, durability] => write(src, out, targets, durability),
        _ => Err("usage: see the top of bench/src/main.rs".to_string()),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("plugforge-bench: {why}");
            ExitCode::FAILURE
        }
    }
}

fn options(targets: &str) -> BuildOptions {
    BuildOptions { targets: targets.split(',').map(TargetRequest::new).collect(), ..BuildOptions::default() }
}

/// The core build alone (source already in memory), the figure every
/// binding's in-memory build is compared with.
fn in_memory(src: &str, targets: &str, runs: &str) -> Result<(), String> {
    let runs: usize = runs.parse().map_err(|_| "runs must be a number".to_string())?;
    let tree = host_fs::read_tree(Path::new(src), &[]).map_err(|e| e.to_string())?;
    let options = options(targets);
    let (built, time) = median(runs, || build(&tree, &options));
    let built = built.map_err(|e| e.to_string())?;
    let (files, bytes) = output_size(&built);
    println!("{:.1} ms {files} files {bytes} bytes", ms(time));
    // The CLI's build: the same targets on every core (host_fs::build).
    let (threaded, time) = median(runs, || host_fs::build(&tree, &options));
    threaded.map_err(|e| e.to_string())?;
    println!("{:.1} ms with the targets on every core", ms(time));
    Ok(())
}

/// What a rerun cannot avoid: every output byte read and hashed (the same
/// reader and hash as `observe`).
fn hash_tree(dir: &str) -> Result<(), String> {
    let observed = host_fs::observe(Path::new(dir), &[]).map_err(|e| e.to_string())?;
    println!("{} files hashed", observed.hashes.len());
    Ok(())
}

/// `plugforge build SRC --target TARGETS --out OUT` with a chosen durability.
fn write(src: &str, out: &str, targets: &str, durability: &str) -> Result<(), String> {
    let durability: Durability = durability.parse()?;
    let tree = host_fs::read_tree(Path::new(src), &[]).map_err(|e| e.to_string())?;
    // Targets on every core, as the CLI builds them.
    let built = host_fs::build(&tree, &options(targets)).map_err(|e| e.to_string())?;
    let to_read = built.paths_to_read();
    let to_read: Vec<&str> = to_read.iter().map(|p| p.as_str()).collect();
    let observed = host_fs::observe(Path::new(out), &to_read).map_err(|e| e.to_string())?;
    let planned =
        plan(&built, observed, &PlanOptions { force: false, generated_at: "2026-01-01T00:00:00Z".into() })
            .map_err(|e| e.to_string())?;
    if planned.refused {
        return Err("the plan is refused (conflicts)".into());
    }
    Writer::new()
        .with_durability(durability)
        .apply(Path::new(out), &host_fs::plan_steps(&planned))
        .map_err(|e| e.to_string())?;
    println!("{} files written", planned.writes());
    Ok(())
}

fn in_memory_figures(runs: usize) -> Result<(), String> {
    println!("plugforge bench: median of {runs} runs, in memory (no disk), one thread");
    for (label, shape) in
        [("2.7k files", Shape::SHARED), ("10k files", Shape { skills: 3500, commands: 2000, agents: 1000 })]
    {
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
            let options = options(&targets.join(","));
            let (built, time) = median(runs, || build(&tree, &options).expect("corpus builds"));
            let (files, bytes) = output_size(&built);
            println!(
                "  build {set:<13} {:>8.1} ms  {files:>6} files  {:>7.1} MiB out  {:>7.0} source files/s",
                ms(time),
                mib(bytes),
                tree.len() as f64 / time.as_secs_f64()
            );
            let plan_options = PlanOptions { force: false, generated_at: "2026-01-01T00:00:00Z".into() };
            let (_, time) = median(runs, || plan(&built, Observed::default(), &plan_options).expect("plan"));
            println!("  plan  {set:<13} {:>8.1} ms  (every file a create)", ms(time));
        }
        report_validate(&tree, runs);
    }
    println!("\npeak memory of this process: {}", peak_memory());
    Ok(())
}

fn report_validate(tree: &SourceTree, runs: usize) {
    let options = ValidateOptions::default();
    let (report, time) = median(runs, || validate(tree, &options).expect("validate"));
    println!("  validate source     {:>8.1} ms  ({} findings)", ms(time), report.findings.len());
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
