//! The core's build with its targets on several threads: the core starts
//! no thread, so the host does. Each target reads only what
//! [`PreparedBuild`] shares and the results are put together in target
//! order, so the output is the very bytes of [`plugforge_core::build`].

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use plugforge_core::{BuildOptions, Output, PreparedBuild, Result, SourceTree, TargetBuilt};

/// [`plugforge_core::build`], each target built on the next free thread
/// (at most one a core).
pub fn build(source: &SourceTree, options: &BuildOptions) -> Result<Output> {
    let prepared = PreparedBuild::new(source, options)?;
    let targets = prepared.targets();
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let threads = cores.min(targets);
    if threads <= 1 {
        let built = (0..targets).map(|target| prepared.build_target(target)).collect();
        return prepared.finish(built);
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<TargetBuilt>>> = Mutex::new((0..targets).map(|_| None).collect());
    let work = || {
        loop {
            let target = next.fetch_add(1, Ordering::Relaxed);
            if target >= targets {
                return;
            }
            let built = prepared.build_target(target);
            results.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[target] = Some(built);
        }
    };
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        work();
        for helper in helpers {
            // A target's panic is the build's, as it would be on one thread.
            helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        }
    });
    let built = results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .into_iter()
        .map(|built| built.expect("every target is built once the threads are joined"))
        .collect();
    prepared.finish(built)
}
