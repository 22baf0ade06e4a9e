//! Progress reporting: a bar on a terminal, periodic log lines otherwise.

use crate::pipeline::{LineError, Progress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often non-terminal runs log a line.
const LOG_EVERY: Duration = Duration::from_secs(10);

pub(crate) struct Reporter {
    bar: Option<ProgressBar>,
    written: AtomicU64,
    failed: AtomicU64,
    start: Instant,
    /// When the last log line was printed, and the images written then.
    last_log: Mutex<(Instant, u64)>,
    quiet: bool,
}

impl Reporter {
    /// `total`: images expected, when known.
    pub(crate) fn new(total: Option<u64>, quiet: bool) -> Self {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = match total {
                Some(n) => ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr()),
                None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
            };
            let template = if total.is_some() {
                "{bar:40.cyan/blue} {pos}/{len} images  {per_sec}  eta {eta}  {msg}"
            } else {
                "{spinner} {pos} images  {per_sec}  {elapsed}  {msg}"
            };
            bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Reporter {
            bar,
            written: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            start: Instant::now(),
            last_log: Mutex::new((Instant::now(), 0)),
            quiet,
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    /// Prints a line without breaking the bar.
    pub(crate) fn println(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{text}")),
            None => eprintln!("{text}"),
        }
    }
}

/// Failed lines printed to the terminal before the rest go only to errors.jsonl.
const SHOWN_ERRORS: u64 = 20;

impl Progress for Reporter {
    fn image_written(&self, _id: &str) {
        let n = self.written.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(bar) = &self.bar {
            bar.set_position(n);
            return;
        }
        if self.quiet {
            return;
        }
        let mut last = self.last_log.lock().unwrap_or_else(|p| p.into_inner());
        let (at, before) = *last;
        if at.elapsed() >= LOG_EVERY {
            *last = (Instant::now(), n);
            let secs = self.start.elapsed().as_secs_f64();
            eprintln!(
                "geomrender: {n} images written in {secs:.0} s ({:.1} images/s; {:.1} since the last line), {} failed",
                n as f64 / secs,
                (n - before) as f64 / at.elapsed().as_secs_f64(),
                self.failed.load(Ordering::Relaxed)
            );
        }
    }

    fn line_failed(&self, error: &LineError) {
        let n = self.failed.fetch_add(1, Ordering::Relaxed) + 1;
        // The first few on the terminal; all of them are in errors.jsonl.
        if n <= SHOWN_ERRORS {
            self.println(&format!("error: {error}"));
        } else if n == SHOWN_ERRORS + 1 {
            self.println(&format!(
                "error: more lines or images failed; only the first {SHOWN_ERRORS} are shown here, all are in errors.jsonl"
            ));
        }
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{n} failed"));
        }
    }
}

/// "busy time per stage (summed over threads): prepare 1.2 s (40 %), …" — shares of
/// the summed busy time, which can exceed wall time because stages overlap.
pub(crate) fn stage_line(stages: &crate::pipeline::StageTimes, elapsed: Duration) -> String {
    let list = stages.list();
    let total: f64 = list.iter().map(|(_, d)| d.as_secs_f64()).sum();
    let parts: Vec<String> = list
        .iter()
        .filter(|(_, d)| !d.is_zero())
        .map(|(name, d)| {
            format!(
                "{name} {:.2} s ({:.0} %)",
                d.as_secs_f64(),
                100.0 * d.as_secs_f64() / total.max(1e-9)
            )
        })
        .collect();
    format!(
        "stage busy time, summed over threads ({:.2} s wall): {}",
        elapsed.as_secs_f64(),
        parts.join(", ")
    )
}
