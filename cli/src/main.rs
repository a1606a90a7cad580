//! `plugforge`: the command line of the plugforge-cli library, whose
//! verbs, flags, messages and exit codes are shared with `npx plugforge`
//! and `python -m plugforge`.

use std::process::ExitCode;

fn main() -> ExitCode {
    limit_allocator_growth();
    ExitCode::from(plugforge_cli::run(std::env::args_os().skip(1)))
}

/// glibc's allocator raises its mmap threshold each time a large block is
/// freed, so later large blocks (a build's tables of tens of thousands of
/// files, grown and freed phase by phase) come from the heap, whose freed
/// holes it keeps: a 400-skill update peaked about 4 MiB above what it
/// held. A fixed 128 KiB threshold (glibc's default start) maps each large
/// block on its own and hands it back when freed. `bench/memory` measures
/// the difference.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn limit_allocator_growth() {
    const MMAP_THRESHOLD: libc::c_int = 128 * 1024;
    // SAFETY: `mallopt` only sets a glibc allocator parameter; it is called
    // first thing in `main`, before any other thread exists, with an option
    // and a value glibc documents. Its result (0 when refused) changes
    // nothing but memory use, so it is not checked.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn limit_allocator_growth() {}
