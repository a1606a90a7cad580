//! How the C allocator under the `plugforge` binary (glibc's malloc, on
//! Linux) holds memory between a build's phases. The only `unsafe` code of
//! the command line: two calls into glibc, each on its own.
//!
//! `bench/memory` measures both against the build's bound (2 x the source
//! plus the output, above a one-skill build's peak).

/// glibc's allocator raises its mmap threshold each time a large block is
/// freed, so later large blocks (a build's tables of tens of thousands of
/// files, grown and freed phase by phase) come from the heap, whose freed
/// holes it keeps: a 400-skill update peaked about 4 MiB above what it
/// held. A fixed 128 KiB threshold (glibc's default start) maps each large
/// block on its own and hands it back when freed. Set by the binary before
/// its first thread, not by the library a Node or Python process links:
/// there the allocator is the interpreter's to tune.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn limit_allocator_growth() {
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
pub fn limit_allocator_growth() {}

/// Hands the pages of what one phase freed back to the system before the
/// next phase allocates: glibc keeps freed small blocks' pages resident in
/// each thread's arena, so without this the building threads' leftovers
/// (a 400-skill plugin's file maps) sit beside the plan and the writer's
/// tables, which come from other holes. Called between phases, never in a
/// loop: it walks every arena once and hands back pages with `madvise`
/// (a second 400-skill plugin into a project makes 67 such calls in all,
/// 5 ms under strace, which slows each call).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub(crate) fn release_freed_memory() {
    // SAFETY: `malloc_trim` takes every arena's lock itself, so it is safe
    // from any thread at any time; it frees nothing that is in use. Its
    // result (whether any memory went back) is not needed.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(crate) fn release_freed_memory() {}
