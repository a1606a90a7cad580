//! A spinner on stderr naming what a long run is doing (reading the source,
//! planning, writing). It appears only once a run has taken `delay` (half a
//! second), only when stderr is a terminal, and never with `--json`; it is
//! cleared before any output, so what a run prints is the same with or without it.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before the spinner shows.
pub(crate) const DEFAULT_DELAY: Duration = Duration::from_millis(500);

/// How often the spinner turns, and the elapsed time updates.
const TICK: Duration = Duration::from_millis(100);

pub(crate) struct Progress {
    enabled: bool,
    delay: Duration,
    shown: Option<Shown>,
}

/// The spinner of the current run, and whether it was cleared: the thread
/// that shows it after the delay holds the lock, so a spinner never appears
/// after the run has printed.
struct Shown {
    bar: ProgressBar,
    cleared: Arc<Mutex<bool>>,
}

impl Progress {
    pub(crate) fn new(delay: Duration) -> Self {
        Progress { enabled: false, delay, shown: None }
    }

    /// Turns the spinner on for this run when stderr is a terminal.
    pub(crate) fn enable(&mut self, wanted: bool) {
        self.enabled = wanted && std::io::stderr().is_terminal();
    }

    /// Names the current step, starting the spinner's clock on the first.
    pub(crate) fn step(&mut self, message: String) {
        if !self.enabled {
            return;
        }
        match &self.shown {
            Some(shown) => shown.bar.set_message(message),
            None => self.shown = Some(self.start(message)),
        }
    }

    /// Removes the spinner; the next step starts a new one.
    pub(crate) fn clear(&mut self) {
        if let Some(shown) = self.shown.take() {
            let mut cleared = shown.cleared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            *cleared = true;
            shown.bar.finish_and_clear();
        }
    }

    fn start(&self, message: String) -> Shown {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("a valid template");
        bar.set_style(style);
        bar.set_message(message);
        let cleared = Arc::new(Mutex::new(false));
        if self.delay.is_zero() {
            show(&bar);
        } else {
            let (weak, flag, delay) = (bar.downgrade(), Arc::clone(&cleared), self.delay);
            std::thread::spawn(move || {
                std::thread::sleep(delay);
                let cleared = flag.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if let (false, Some(bar)) = (*cleared, weak.upgrade()) {
                    show(&bar);
                }
            });
        }
        Shown { bar, cleared }
    }
}

fn show(bar: &ProgressBar) {
    bar.set_draw_target(ProgressDrawTarget::stderr());
    bar.enable_steady_tick(TICK);
    bar.tick();
}
