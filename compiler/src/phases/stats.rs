//! Per-phase time and memory, in ptxas's report format (docs/MODEL.md,
//! Phase statistics):
//!
//! ```text
//!   <phase_name>  ::  [Total 1.205 KB]  [Freeable 512 B]  [Freeable Leaked 0 B] (2%)
//!   ...
//!   All Phases Summary  ::  [Total ...]  [Freeable ...]  [Freeable Leaked ...] (100%)
//!   [Pool Consumption = 0.045 MB]
//! ```
//!
//! Memory is measured for real by [`CountingAlloc`], a global allocator
//! wrapper (the `ptxc` binary installs it around mimalloc) that keeps
//! per-thread counters: bytes allocated, bytes freed, bytes live and the
//! peak of live bytes. A phase runs on one thread (the function's worker
//! under `--threads`), so the per-thread deltas between two [`Snapshot`]s
//! are the phase's own. ptxas's three metrics, as measured here:
//!
//! - **Total**: bytes the phase allocated;
//! - **Freeable**: bytes the phase released (its temporaries, and memory
//!   of earlier phases it dropped, such as removed instructions);
//! - **Freeable Leaked**: the phase's net growth, `max(Total - Freeable, 0)`:
//!   what it allocated and did not give back.
//!
//! The percentage is the phase's share of the dispatch's wall-clock time
//! (the description of ptxas does not say what it divides by; time is what the "timing
//! reporter" measures). `Pool Consumption` is the peak of live bytes above
//! the dispatch's start, in MB. Sizes follow ptxas's thresholds: below
//! 1024 bytes `N B`, up to 10 MiB `N.NNN KB`, above `N.NNN MB`.
//!
//! Without the counting allocator installed (library tests), every size
//! reads 0; [`counting`] says which.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counters {
    allocated: u64,
    freed: u64,
    live: i64,
    peak: i64,
}

thread_local! {
    static COUNTERS: Cell<Counters> = const {
        Cell::new(Counters { allocated: 0, freed: 0, live: 0, peak: 0 })
    };
}

static INSTALLED: AtomicBool = AtomicBool::new(false);

fn note_alloc(n: usize) {
    let _ = COUNTERS.try_with(|c| {
        let mut v = c.get();
        v.allocated += n as u64;
        v.live += n as i64;
        v.peak = v.peak.max(v.live);
        c.set(v);
    });
}

fn note_free(n: usize) {
    let _ = COUNTERS.try_with(|c| {
        let mut v = c.get();
        v.freed += n as u64;
        v.live -= n as i64;
        c.set(v);
    });
}

/// A global allocator that counts, per thread, what passes through it.
/// Install it in a binary:
///
/// ```no_run
/// #[global_allocator]
/// static ALLOC: ptxc::phases::stats::CountingAlloc<std::alloc::System> =
///     ptxc::phases::stats::CountingAlloc::new(std::alloc::System);
/// ```
pub struct CountingAlloc<A> {
    inner: A,
}

impl<A> CountingAlloc<A> {
    pub const fn new(inner: A) -> CountingAlloc<A> {
        CountingAlloc { inner }
    }
}

// SAFETY: every call forwards to the inner allocator with the same
// arguments; the counters are plain thread-local cells without
// destructors (no allocation while counting).
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAlloc<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        INSTALLED.store(true, Ordering::Relaxed);
        let p = self.inner.alloc(layout);
        if !p.is_null() {
            note_alloc(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        INSTALLED.store(true, Ordering::Relaxed);
        let p = self.inner.alloc_zeroed(layout);
        if !p.is_null() {
            note_alloc(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        self.inner.dealloc(ptr, layout);
        note_free(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = self.inner.realloc(ptr, layout, new_size);
        if !p.is_null() {
            note_free(layout.size());
            note_alloc(new_size);
        }
        p
    }
}

/// Whether a [`CountingAlloc`] is the global allocator (it has served an
/// allocation).
pub fn counting() -> bool {
    INSTALLED.load(Ordering::Relaxed)
}

/// This thread's counters at one moment (ptxas's `take_snapshot`,
/// docs/MODEL.md, Phase statistics).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    allocated: u64,
    freed: u64,
    live: i64,
    peak: i64,
}

impl Snapshot {
    pub fn take() -> Snapshot {
        let c = COUNTERS.try_with(Cell::get).unwrap_or_default();
        Snapshot {
            allocated: c.allocated,
            freed: c.freed,
            live: c.live,
            peak: c.peak,
        }
    }

    /// Resets this thread's peak to the current live bytes, so that the
    /// peak read at the end is the peak since now.
    pub fn take_resetting_peak() -> Snapshot {
        let _ = COUNTERS.try_with(|c| {
            let mut v = c.get();
            v.peak = v.live;
            c.set(v);
        });
        Snapshot::take()
    }

    /// The memory deltas from `self` to `later`.
    pub fn delta(&self, later: &Snapshot) -> MemDelta {
        let total = later.allocated.saturating_sub(self.allocated);
        let freeable = later.freed.saturating_sub(self.freed);
        MemDelta {
            total,
            freeable,
            leaked: total.saturating_sub(freeable),
            peak_above_start: (later.peak - self.live).max(0) as u64,
        }
    }
}

/// ptxas's three metrics for one phase (or the summary), plus the peak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemDelta {
    /// Bytes allocated (Total).
    pub total: u64,
    /// Bytes released (Freeable).
    pub freeable: u64,
    /// Net growth (Freeable Leaked).
    pub leaked: u64,
    /// Peak live bytes above the starting snapshot's live bytes.
    pub peak_above_start: u64,
}

/// One phase's measurements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhaseStat {
    pub index: u16,
    pub name: &'static str,
    pub mem: MemDelta,
    pub time: Duration,
}

/// ptxas's size formatting: bytes below 1024 (`N B`), KB with three
/// decimals up to 10 MiB, MB with three decimals above.
pub fn format_size(bytes: u64) -> String {
    if bytes < 1024 {
        format!("{bytes} B")
    } else if bytes <= 10 * 1024 * 1024 {
        format!("{:.3} KB", bytes as f64 / 1024.0)
    } else {
        format!("{:.3} MB", bytes as f64 / (1024.0 * 1024.0))
    }
}

fn percent(part: Duration, whole: Duration) -> u64 {
    if whole.is_zero() {
        0
    } else {
        (part.as_secs_f64() * 100.0 / whole.as_secs_f64()).round() as u64
    }
}

/// One report line (ptxas's per-phase timing reporter).
pub fn format_line(indent: &str, name: &str, mem: &MemDelta, pct: u64) -> String {
    format!(
        "{indent}{name}  ::  [Total {}]  [Freeable {}]  [Freeable Leaked {}] ({pct}%)",
        format_size(mem.total),
        format_size(mem.freeable),
        format_size(mem.leaked)
    )
}

/// The pool line (ptxas's pool consumption reporter): always MB with three decimals.
pub fn format_pool(indent: &str, bytes: u64) -> String {
    format!(
        "{indent}[Pool Consumption = {:.3} MB]",
        bytes as f64 / (1024.0 * 1024.0)
    )
}

/// The whole report: a line per dispatched phase in order, the summary
/// and the pool line.
pub fn format_report(
    indent: &str,
    phases: &[PhaseStat],
    summary: &MemDelta,
    total: Duration,
) -> Vec<String> {
    let mut out: Vec<String> = phases
        .iter()
        .map(|p| format_line(indent, p.name, &p.mem, percent(p.time, total)))
        .collect();
    out.push(format_line(indent, "All Phases Summary", summary, 100));
    out.push(format_pool(indent, summary.peak_above_start));
    out
}

/// A parsed report line: (name, total, freeable, leaked, percent), sizes
/// in bytes as printed (rounded to the printed precision). For tests and
/// tools that read `--phase-stats`.
pub fn parse_line(line: &str) -> Option<(String, f64, f64, f64, u64)> {
    let (name, rest) = line.trim_start().split_once("  ::  ")?;
    let size = |s: &str| -> Option<f64> {
        let (n, unit) = s.split_once(' ')?;
        let n: f64 = n.parse().ok()?;
        Some(match unit {
            "B" => n,
            "KB" => n * 1024.0,
            "MB" => n * 1024.0 * 1024.0,
            _ => return None,
        })
    };
    let rest = rest.strip_prefix("[Total ")?;
    let (total, rest) = rest.split_once("]  [Freeable ")?;
    let (freeable, rest) = rest.split_once("]  [Freeable Leaked ")?;
    let (leaked, rest) = rest.split_once("] (")?;
    let pct = rest.strip_suffix("%)")?.parse().ok()?;
    Some((
        name.to_string(),
        size(total)?,
        size(freeable)?,
        size(leaked)?,
        pct,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_seed_thresholds() {
        assert_eq!(format_size(0), "0 B");
        assert_eq!(format_size(1023), "1023 B");
        assert_eq!(format_size(1024), "1.000 KB");
        assert_eq!(format_size(1234), "1.205 KB");
        assert_eq!(format_size(10 * 1024 * 1024), "10240.000 KB");
        assert_eq!(format_size(10 * 1024 * 1024 + 1), "10.000 MB");
        assert_eq!(format_size(47_896_855), "45.678 MB");
    }

    #[test]
    fn lines_have_the_seed_layout_and_parse_back() {
        let m = MemDelta {
            total: 1234 * 1024,
            freeable: 567 * 1024,
            leaked: 12 * 1024,
            peak_above_start: 0,
        };
        let l = format_line("  ", "GvnCse", &m, 2);
        assert_eq!(
            l,
            "  GvnCse  ::  [Total 1234.000 KB]  [Freeable 567.000 KB]  [Freeable Leaked 12.000 KB] (2%)"
        );
        let (n, t, f, k, p) = parse_line(&l).unwrap();
        assert_eq!(n, "GvnCse");
        assert_eq!(
            (t, f, k, p),
            (1234.0 * 1024.0, 567.0 * 1024.0, 12.0 * 1024.0, 2)
        );
        assert_eq!(
            format_pool("", 47_896_855),
            "[Pool Consumption = 45.678 MB]"
        );
        assert!(parse_line("[Pool Consumption = 1.000 MB]").is_none());
    }

    #[test]
    fn the_report_ends_with_the_summary_and_the_pool() {
        let ms = Duration::from_millis;
        let stats = [
            PhaseStat {
                index: crate::phases::table::CHECK_INITIAL,
                name: "OriCheckInitialProgram",
                mem: MemDelta::default(),
                time: ms(1),
            },
            PhaseStat {
                index: crate::phases::table::EMIT,
                name: "EmitSassListing",
                mem: MemDelta {
                    total: 100,
                    freeable: 40,
                    leaked: 60,
                    peak_above_start: 100,
                },
                time: ms(3),
            },
        ];
        let summary = MemDelta {
            total: 100,
            freeable: 40,
            leaked: 60,
            peak_above_start: 2 * 1024 * 1024,
        };
        let r = format_report("", &stats, &summary, ms(4));
        assert_eq!(r.len(), 4);
        assert!(r[0].ends_with("(25%)"), "{}", r[0]);
        assert!(r[1].ends_with("(75%)"), "{}", r[1]);
        assert_eq!(
            r[2],
            "All Phases Summary  ::  [Total 100 B]  [Freeable 40 B]  [Freeable Leaked 60 B] (100%)"
        );
        assert_eq!(r[3], "[Pool Consumption = 2.000 MB]");
    }

    #[test]
    fn deltas_are_differences_of_snapshots() {
        let a = Snapshot {
            allocated: 100,
            freed: 50,
            live: 50,
            peak: 60,
        };
        let b = Snapshot {
            allocated: 300,
            freed: 120,
            live: 230,
            peak: 400,
        };
        let d = a.delta(&b);
        assert_eq!(d.total, 200);
        assert_eq!(d.freeable, 70);
        assert_eq!(d.leaked, 130);
        assert_eq!(d.peak_above_start, 350);
        // Releasing more than allocating leaks nothing.
        let c = Snapshot {
            allocated: 110,
            freed: 100,
            live: 10,
            peak: 60,
        };
        assert_eq!(a.delta(&c).leaked, 0);
    }
}
