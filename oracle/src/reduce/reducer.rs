//! The reduction loop: rounds of passes to a fixed point. Within a pass the
//! edits are tried in order, in parallel batches (rayon); the first
//! interesting candidate of a batch (by position, not by finishing time)
//! is kept, the pass is asked again from that position, and the pass ends
//! when no edit from there on is interesting. The result is therefore the
//! same for every job count. Judgements are cached by candidate text, so a
//! later round does not re-run what an earlier one ruled out.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::case::{Case, Size};
use super::passes::{self, Edit, Pass};
use super::predicate::{Judgement, Target};

#[derive(Clone, Debug)]
pub struct Options {
    /// Worker threads (0: one per core).
    pub jobs: usize,
    /// A progress line on stderr.
    pub progress: bool,
    /// Rounds at most (a fixed point normally comes first).
    pub max_rounds: u32,
    /// Stop here with what is reduced so far (every kept candidate is
    /// interesting, so the result is valid, just larger): nightly runs give
    /// each reduction a time budget.
    pub deadline: Option<Instant>,
    /// Stop likewise once the candidates' oracle runs have been charged
    /// this much interpreter fuel in all ([`Target::judge_counted`]): a
    /// budget of work that, unlike the deadline, does not depend on the
    /// machine.
    pub fuel_budget: Option<u64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            jobs: 0,
            progress: false,
            max_rounds: 30,
            deadline: None,
            fuel_budget: None,
        }
    }
}

/// Per pass: candidates judged, and kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassCount {
    pub tried: u64,
    pub kept: u64,
}

#[derive(Clone, Debug)]
pub struct Reduction {
    pub reduced: Case,
    pub before: Size,
    pub after: Size,
    /// Candidates judged (cache hits not counted).
    pub tried: u64,
    /// Of those, not defined programs.
    pub invalid: u64,
    pub kept: u64,
    pub rounds: u32,
    pub elapsed: Duration,
    /// Interpreter fuel charged to the candidates' oracle runs.
    pub fuel: u64,
    /// Stopped by the deadline or the fuel budget before the fixed point.
    pub cut_short: bool,
    /// By pass name (`delete/N` counted under `delete`).
    pub passes: BTreeMap<String, PassCount>,
}

struct Loop<'a> {
    target: &'a Target,
    opts: &'a Options,
    cache: Mutex<FxHashMap<(String, String), bool>>,
    before: Size,
    tried: u64,
    invalid: u64,
    kept: u64,
    fuel: u64,
    passes: BTreeMap<String, PassCount>,
    batch: usize,
    last_draw: Option<Instant>,
    last_round: u32,
}

fn pass_key(name: &str) -> String {
    name.split('/').next().unwrap_or(name).to_string()
}

impl Loop<'_> {
    fn past_deadline(&self) -> bool {
        self.opts.deadline.is_some_and(|d| Instant::now() >= d)
            || self.opts.fuel_budget.is_some_and(|b| self.fuel >= b)
    }

    /// The first interesting candidate among `edits[from..]` and its index.
    fn first_interesting(
        &mut self,
        cur: &Case,
        edits: &[Edit],
        from: usize,
        pass: &str,
    ) -> Option<(usize, Case)> {
        let mut at = from;
        while at < edits.len() && !self.past_deadline() {
            let end = (at + self.batch).min(edits.len());
            let cands: Vec<Option<Case>> = edits[at..end].par_iter().map(|e| e(cur)).collect();
            let keys: Vec<Option<(String, String)>> = cands
                .par_iter()
                .map(|c| c.as_ref().map(|c| (c.ptx(), c.spec.to_json_string())))
                .collect();
            let cached: Vec<Option<bool>> = {
                let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
                keys.iter()
                    .map(|k| match k {
                        Some(k) => cache.get(k).copied(),
                        None => Some(false),
                    })
                    .collect()
            };
            let target = self.target;
            let judged: Vec<Option<Judgement>> = cands
                .par_iter()
                .zip(&cached)
                .map(|(c, hit)| match (c, hit) {
                    (Some(c), None) => Some(target.judge_counted(c)),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .into_iter()
                .map(|j| {
                    j.map(|(j, fuel)| {
                        self.fuel = self.fuel.saturating_add(fuel);
                        j
                    })
                })
                .collect();
            let count = self.passes.entry(pass_key(pass)).or_default();
            let mut found = None;
            {
                let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
                for (k, (j, hit)) in judged.iter().zip(&cached).enumerate() {
                    let ok = match (j, hit) {
                        (Some(j), _) => {
                            self.tried += 1;
                            count.tried += 1;
                            if matches!(j, Judgement::Invalid(_)) {
                                self.invalid += 1;
                            }
                            let ok = j.is_interesting();
                            if let Some(key) = &keys[k] {
                                cache.insert(key.clone(), ok);
                            }
                            ok
                        }
                        (None, Some(h)) => *h,
                        (None, None) => false,
                    };
                    if ok && found.is_none() {
                        found = Some(k);
                    }
                }
            }
            if let Some(k) = found {
                count.kept += 1;
                self.kept += 1;
                return cands.into_iter().nth(k).flatten().map(|c| (at + k, c));
            }
            at = end;
        }
        None
    }

    /// The progress bar on a terminal (redrawn at most every 200 ms); a
    /// line per round otherwise.
    fn progress(&mut self, round: u32, pass: &str, cur: &Case) {
        if !self.opts.progress {
            return;
        }
        let tty = std::io::stderr().is_terminal();
        let due = if tty {
            self.last_draw
                .is_none_or(|t| t.elapsed() >= Duration::from_millis(200))
        } else {
            self.last_round != round
        };
        if !due {
            return;
        }
        self.last_draw = Some(Instant::now());
        self.last_round = round;
        if !tty {
            eprintln!(
                "reduce: round {round}: {}/{} instructions, {} tried, {} kept",
                cur.size().instructions,
                self.before.instructions,
                self.tried,
                self.kept
            );
            return;
        }
        let now = cur.size().instructions;
        let done = 1.0 - now as f64 / self.before.instructions.max(1) as f64;
        let filled = (done * 30.0).round() as usize;
        let bar: String = "#".repeat(filled.min(30)) + &"-".repeat(30 - filled.min(30));
        let mut e = std::io::stderr().lock();
        let _ = write!(
            e,
            "\r[{bar}] {now}/{} instructions, round {round}, {pass:<14} {} tried, {} kept   ",
            self.before.instructions, self.tried, self.kept
        );
        let _ = e.flush();
    }

    fn run_pass(&mut self, pass: &dyn Pass, mut cur: Case, round: u32) -> (Case, bool) {
        let name = pass.name();
        let mut from = 0;
        let mut changed = false;
        loop {
            if self.past_deadline() {
                return (cur, changed);
            }
            self.progress(round, &name, &cur);
            let edits = pass.edits(&cur);
            match self.first_interesting(&cur, &edits, from, &name) {
                Some((k, next)) => {
                    cur = next;
                    from = k;
                    changed = true;
                }
                None => return (cur, changed),
            }
        }
    }
}

/// Reduces `original` under `target`, whose [`Target::calibrate`] must
/// have accepted it.
pub fn reduce(original: &Case, target: &Target, opts: &Options) -> Result<Reduction, String> {
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", opts.jobs))?;
    let batch = 2 * pool.current_num_threads().max(1);
    let mut lp = Loop {
        target,
        opts,
        cache: Mutex::new(FxHashMap::default()),
        before: original.size(),
        tried: 0,
        invalid: 0,
        kept: 0,
        fuel: 0,
        passes: BTreeMap::new(),
        batch,
        last_draw: None,
        last_round: 0,
    };
    let mut cur = original.clone();
    let mut rounds = 0;
    pool.install(|| {
        while rounds < opts.max_rounds {
            rounds += 1;
            let mut changed = false;
            for pass in passes::round(cur.size().statements) {
                let (next, c) = lp.run_pass(pass.as_ref(), cur.clone(), rounds);
                cur = next;
                changed |= c;
            }
            if !changed || lp.past_deadline() {
                break;
            }
        }
    });
    if opts.progress && std::io::stderr().is_terminal() {
        eprintln!();
    }
    Ok(Reduction {
        after: cur.size(),
        reduced: cur,
        before: lp.before,
        tried: lp.tried,
        invalid: lp.invalid,
        kept: lp.kept,
        rounds,
        elapsed: start.elapsed(),
        fuel: lp.fuel,
        cut_short: lp.past_deadline(),
        passes: lp.passes,
    })
}
