//! The last liveness computed on this thread, reused while the function is
//! unchanged.
//!
//! Phases ask for the liveness of a function far more often than they
//! change it: on generated programs at -O3, two thirds of the requests
//! were for exactly the function the previous request saw (a dead-code
//! pass that removed nothing, then a loop pass that hoisted nothing, then
//! the next dead-code pass), and half of the dead-code passes ran on a
//! function a previous pass had already left without dead code (measured
//! over 40 `ptxdiff run --matrix fuzz` programs: 2017 of 3070 requests,
//! 999 of 1841 passes).
//!
//! The cache holds one entry per thread: a copy of the function, its
//! liveness, and the [`Pass`]es known to change nothing in it (a pass that
//! found nothing to do in a function finds nothing again in an equal one:
//! general optimization ran to its fixed point and dead-code removal
//! found nothing, then a later phase changed nothing, and the next
//! instance of each returns at once).
//! An entry answers only for a function *equal* to its copy (the IR's
//! `==`: every block, instruction, modifier and operand), so a cached
//! answer is the answer a fresh computation would give, bit for bit; no
//! hash stands in for the comparison, and no phase has to report whether
//! it changed anything. One compile of one function runs its phases on
//! one thread, which is what makes a single entry per thread hit.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use super::cfg::Cfg;
use super::func::Function;
use super::liveness::Liveness;

struct Entry {
    func: Function,
    /// Which content `func` holds: a fresh number each time the entry is
    /// made or its function replaced (see [`Seen`]).
    gen: u64,
    /// `Liveness::new` of `func` (never an incremental update: those number
    /// units differently, and consumers iterate in unit order).
    live: Option<Rc<Liveness>>,
    /// The [`Pass`]es that change nothing in `func`, one bit each.
    clean: u32,
}

/// A transformation whose "nothing to do" is remembered. Each is a function
/// of the IR alone (no option changes what it does once it runs at all)
/// and reports zero rewrites exactly when it leaves the function unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// `phases::live_dead::live_dead` (any round count: none removed in
    /// the first round means none in any).
    DeadCode,
    /// `phases::scalar::general_optimize`: a round changes nothing.
    GeneralOptimize,
    /// `phases::scalar::copies::propagate`.
    CopyProp,
    /// `phases::scalar::cse::eliminate` without loads, and with them.
    Cse,
    CseLoads,
    /// `phases::scalar::reassociation::reassociate`.
    Reassociate,
}

impl Entry {
    /// The entry's liveness, computed for `f` (equal to `func`) if absent.
    fn liveness(&mut self, f: &Function) -> Rc<Liveness> {
        self.live
            .get_or_insert_with(|| Rc::new(Liveness::new(f, &Cfg::new(f))))
            .clone()
    }
}

impl Entry {
    /// Whether `func` equals `f`: `seen`'s answer while it is current (`f`
    /// unchanged since, checked in debug builds), a comparison otherwise.
    fn trusts(&self, seen: Seen, f: &Function) -> bool {
        if seen.gen != 0 && seen.gen == self.gen {
            debug_assert_eq!(self.func == *f, seen.equal, "f changed since it was seen");
            seen.equal
        } else {
            self.func == *f
        }
    }
}

impl Pass {
    fn bit(self) -> u32 {
        1 << self as u32
    }
}

thread_local! {
    static LAST: RefCell<Option<Entry>> = const { RefCell::new(None) };
    /// The last [`Entry::gen`] handed out.
    static GEN: Cell<u64> = const { Cell::new(0) };
    /// Set inside [`bypassed`].
    static BYPASS: Cell<bool> = const { Cell::new(false) };
}

fn next_gen() -> u64 {
    GEN.with(|g| {
        g.set(g.get() + 1);
        g.get()
    })
}

/// What one comparison of a function `f` with the entry found, for a
/// caller that then leaves `f` unchanged and records something about it
/// ([`remember_seen`], [`mark_clean_seen`]): while the entry still holds
/// the same content (no other call replaced it), the comparison's answer
/// still holds and is not made again. A dead-code pass that removed
/// nothing compared the function once to look its liveness up and once
/// more to record that; general optimization compared it again to record
/// its own fixed point. The caller's promise that `f` did not change is
/// checked (the comparison made again) in debug builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The entry's [`Entry::gen`] then; 0 when there was none (or the
    /// cache was bypassed: nothing is trusted then).
    gen: u64,
    /// Whether `f` was equal to the entry's function.
    equal: bool,
}

impl Seen {
    /// An answer that is never trusted (the callee compares again).
    pub const NONE: Seen = Seen {
        gen: 0,
        equal: false,
    };
}

/// Runs `k` with the cache out of the way: every liveness computed afresh,
/// no pass known clean, nothing remembered. The tests compile with and
/// without the cache and require the same output.
pub fn bypassed<T>(k: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            BYPASS.with(|b| b.set(self.0));
        }
    }
    let _restore = Restore(BYPASS.with(|b| b.replace(true)));
    k()
}

fn is_bypassed() -> bool {
    BYPASS.with(Cell::get)
}

/// Runs `k` on the entry for `f`, made (empty) when the cached one is for
/// another function.
fn with_entry<T>(f: &Function, k: impl FnOnce(&mut Entry) -> T) -> T {
    LAST.with(|c| {
        let mut c = c.borrow_mut();
        match c.as_mut() {
            Some(e) if e.func == *f => {}
            // Reuse the entry's allocations when only the content changed.
            Some(e) => replace(e, f),
            None => *c = Some(fresh_entry(f)),
        }
        k(c.as_mut().expect("just made"))
    })
}

/// The entry's content becomes `f`, with nothing known about it.
fn replace(e: &mut Entry, f: &Function) {
    e.func.clone_from(f);
    e.gen = next_gen();
    e.live = None;
    e.clean = 0;
}

fn fresh_entry(f: &Function) -> Entry {
    Entry {
        func: f.clone(),
        gen: next_gen(),
        live: None,
        clean: 0,
    }
}

/// Runs `k` on the entry for `f` as [`with_entry`] does, without comparing
/// when `seen` (an answer for `f`, unchanged since) is still current;
/// returns `k`'s result and the answer after it (equal, the entry's
/// generation).
fn with_entry_seen<T>(f: &Function, seen: Seen, k: impl FnOnce(&mut Entry) -> T) -> (T, Seen) {
    LAST.with(|c| {
        let mut c = c.borrow_mut();
        match c.as_mut() {
            Some(e) if e.trusts(seen, f) => {}
            Some(e) => replace(e, f),
            None => *c = Some(fresh_entry(f)),
        }
        let e = c.as_mut().expect("just made");
        let gen = e.gen;
        (k(e), Seen { gen, equal: true })
    })
}

/// The liveness of `f` (`Liveness::new`): the cached one when `f` equals
/// the function it was computed for, a fresh one (then cached) otherwise.
pub fn liveness(f: &Function) -> Rc<Liveness> {
    if is_bypassed() {
        return Rc::new(Liveness::new(f, &Cfg::new(f)));
    }
    with_entry(f, |e| e.liveness(f))
}

/// The liveness of `f` as [`liveness`] gives it, or `None` when `pass` is
/// known to change nothing in `f` (one comparison answers both).
pub fn liveness_unless_clean(f: &Function, pass: Pass) -> Option<Rc<Liveness>> {
    if is_bypassed() {
        return Some(liveness(f));
    }
    with_entry(f, |e| {
        if e.clean & pass.bit() != 0 {
            return None;
        }
        Some(e.liveness(f))
    })
}

/// What [`liveness_or_compute`] found.
pub enum Lookup {
    /// `pass` is known to change nothing in `f` (with the comparison's
    /// answer: equal).
    Clean(Seen),
    /// The liveness of `f` (`Liveness::new`); `cached` when the cache holds
    /// `f` (and now this liveness), false when it was computed without
    /// copying `f` into the cache; `seen`, the comparison's answer.
    Live {
        live: Rc<Liveness>,
        cached: bool,
        seen: Seen,
    },
}

/// [`liveness_unless_clean`] without the copy of `f` on a miss: the
/// liveness is computed and returned, the cache left as it was. For a
/// caller about to change `f` most of the time (the dead-code rounds),
/// whose copy would be dropped unused; it calls [`remember`] if it ends up
/// leaving `f` unchanged.
pub fn liveness_or_compute(f: &Function, pass: Pass) -> Lookup {
    liveness_or_compute_seen(f, pass, Seen::NONE)
}

/// [`liveness_or_compute`] for an `f` unchanged since `seen`: no
/// comparison while that answer is current.
pub fn liveness_or_compute_seen(f: &Function, pass: Pass, seen: Seen) -> Lookup {
    let fresh = |seen| Lookup::Live {
        live: Rc::new(Liveness::new(f, &Cfg::new(f))),
        cached: false,
        seen,
    };
    if is_bypassed() {
        return fresh(Seen::NONE);
    }
    let hit = LAST.with(|c| {
        let mut c = c.borrow_mut();
        match c.as_mut() {
            Some(e) if e.trusts(seen, f) => Ok(if e.clean & pass.bit() != 0 {
                Lookup::Clean(Seen {
                    gen: e.gen,
                    equal: true,
                })
            } else {
                Lookup::Live {
                    live: e.liveness(f),
                    cached: true,
                    seen: Seen {
                        gen: e.gen,
                        equal: true,
                    },
                }
            }),
            Some(e) => Err(Seen {
                gen: e.gen,
                equal: false,
            }),
            None => Err(Seen::NONE),
        }
    });
    hit.unwrap_or_else(fresh)
}

/// Records that `pass` changes nothing in `f`, and that `live` is its
/// liveness (`Liveness::new(f)`, never an incremental update: see
/// [`Entry::live`]).
pub fn remember(f: &Function, live: Rc<Liveness>, pass: Pass) {
    if is_bypassed() {
        return;
    }
    with_entry(f, |e| {
        e.live.get_or_insert(live);
        e.clean |= pass.bit();
    });
}

/// [`remember`] for an `f` unchanged since `seen`; returns the answer for
/// `f` after it.
pub fn remember_seen(f: &Function, live: Rc<Liveness>, pass: Pass, seen: Seen) -> Seen {
    if is_bypassed() {
        return Seen::NONE;
    }
    with_entry_seen(f, seen, |e| {
        e.live.get_or_insert(live);
        e.clean |= pass.bit();
    })
    .1
}

/// [`mark_clean`] for an `f` unchanged since `seen`; returns the answer
/// for `f` after it.
pub fn mark_clean_seen(f: &Function, pass: Pass, seen: Seen) -> Seen {
    if is_bypassed() {
        return Seen::NONE;
    }
    with_entry_seen(f, seen, |e| e.clean |= pass.bit()).1
}

/// Whether `pass` is known to change nothing in a function equal to `f`.
/// Compares without copying `f` on a miss.
pub fn is_clean(f: &Function, pass: Pass) -> bool {
    if is_bypassed() {
        return false;
    }
    LAST.with(|c| {
        c.borrow()
            .as_ref()
            .is_some_and(|e| e.clean & pass.bit() != 0 && e.func == *f)
    })
}

/// Records that `pass` changes nothing in `f` (it just ran on `f` and
/// reported zero rewrites).
pub fn mark_clean(f: &Function, pass: Pass) {
    if is_bypassed() {
        return;
    }
    with_entry(f, |e| e.clean |= pass.bit());
}

/// Runs `pass` (`run`) on `f` unless it is known to change nothing there;
/// remembers when it changed nothing. Returns `run`'s rewrite count.
pub fn unless_clean(
    f: &mut Function,
    pass: Pass,
    run: impl FnOnce(&mut Function) -> usize,
) -> usize {
    unless_clean_seen(f, pass, run).0
}

/// [`unless_clean`], and when it changed nothing, the cache's answer for
/// `f` as left (the entry holds `f`); [`Seen::NONE`] otherwise.
pub fn unless_clean_seen(
    f: &mut Function,
    pass: Pass,
    run: impl FnOnce(&mut Function) -> usize,
) -> (usize, Seen) {
    if is_bypassed() {
        return (run(f), Seen::NONE);
    }
    let (clean, seen) = LAST.with(|c| match c.borrow().as_ref() {
        // Compared only when the mark would answer.
        Some(e) if e.clean & pass.bit() != 0 => {
            let equal = e.func == *f;
            (equal, Seen { gen: e.gen, equal })
        }
        _ => (false, Seen::NONE),
    });
    if clean {
        return (0, seen);
    }
    let n = run(f);
    if n == 0 {
        (0, mark_clean_seen(f, pass, seen))
    } else {
        (n, Seen::NONE)
    }
}

/// Drops the entry (for a caller that changed the function and wants to
/// own the liveness it got, to update it).
pub fn forget() {
    LAST.with(|c| *c.borrow_mut() = None);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;

    fn body() -> Function {
        func(
            ".L_x_0:
             MOV R0, 0x1 ;
             IADD3 R1, R0, 0x1, RZ ;
             STG.E [R4.64], R1 ;
             EXIT ;",
        )
    }

    fn same_sets(a: &Liveness, b: &Liveness, f: &Function) {
        for blk in 0..f.blocks.len() {
            assert_eq!(
                a.units_sorted(a.live_in(blk)),
                b.units_sorted(b.live_in(blk))
            );
            assert_eq!(
                a.units_sorted(a.live_out(blk)),
                b.units_sorted(b.live_out(blk))
            );
            for i in 0..f.blocks[blk].insts.len() {
                assert_eq!(
                    a.units_sorted(&a.live_after(blk, i)),
                    b.units_sorted(&b.live_after(blk, i))
                );
            }
        }
    }

    #[test]
    fn hits_only_on_an_equal_function() {
        let mut f = body();
        let a = liveness(&f);
        assert!(
            Rc::ptr_eq(&a, &liveness(&f.clone())),
            "equal function: cached"
        );
        // Change one operand: R0 no longer feeds R1, so R0 is dead after
        // the MOV; the cache must not answer.
        f.blocks[0].insts[1].operands[1] = f.blocks[0].insts[1].operands[3].clone();
        let b = liveness(&f);
        assert!(!Rc::ptr_eq(&a, &b));
        same_sets(&b, &Liveness::new(&f, &Cfg::new(&f)), &f);
        assert!(a.units_sorted(&a.live_after(0, 0)) != b.units_sorted(&b.live_after(0, 0)));
    }

    #[test]
    fn clean_marks_are_per_pass_and_per_function_content() {
        let f = body();
        let live = liveness(&f);
        assert!(!is_clean(&f, Pass::DeadCode), "not marked yet");
        mark_clean(&f, Pass::DeadCode);
        assert!(is_clean(&f, Pass::DeadCode));
        assert!(!is_clean(&f, Pass::GeneralOptimize), "another pass");
        assert!(
            Rc::ptr_eq(&live, &liveness(&f)),
            "marking keeps the liveness"
        );
        let mut g = f.clone();
        g.blocks[0].insts.remove(0);
        assert!(
            !is_clean(&g, Pass::DeadCode),
            "a different function is not clean"
        );
        let _ = liveness(&g);
        assert!(!is_clean(&f, Pass::DeadCode), "the entry now holds g");
    }

    #[test]
    fn unless_clean_skips_only_a_pass_that_found_nothing() {
        let mut f = body();
        let mut runs = 0;
        let mut nothing = |_: &mut Function| {
            runs += 1;
            0
        };
        assert_eq!(unless_clean(&mut f, Pass::Cse, &mut nothing), 0);
        assert_eq!(unless_clean(&mut f, Pass::Cse, &mut nothing), 0);
        assert_eq!(runs, 1, "the second call on an equal function is skipped");
        // A pass that rewrites is not remembered, and the rewrite (a new
        // function) is not known clean for the other pass either.
        let rewrite = |f: &mut Function| {
            f.blocks[0].insts.remove(0);
            1
        };
        assert_eq!(unless_clean(&mut f, Pass::Reassociate, rewrite), 1);
        assert!(!is_clean(&f, Pass::Reassociate));
        assert!(!is_clean(&f, Pass::Cse));
        let mut runs = 0;
        unless_clean(&mut f, Pass::Cse, |_| {
            runs += 1;
            0
        });
        assert_eq!(runs, 1, "the changed function runs the pass again");
    }

    #[test]
    fn compute_without_copy_leaves_the_entry_until_remembered() {
        let f = body();
        let old = liveness(&f);
        let mut g = f.clone();
        g.blocks[0].insts.remove(0);
        let Lookup::Live { live, cached, .. } = liveness_or_compute(&g, Pass::DeadCode) else {
            panic!("nothing is clean yet");
        };
        assert!(!cached);
        same_sets(&live, &Liveness::new(&g, &Cfg::new(&g)), &g);
        assert!(Rc::ptr_eq(&old, &liveness(&f)), "the entry still holds f");
        remember(&g, live.clone(), Pass::DeadCode);
        assert!(is_clean(&g, Pass::DeadCode));
        assert!(
            Rc::ptr_eq(&live, &liveness(&g)),
            "and now g, with its liveness"
        );
        assert!(matches!(
            liveness_or_compute(&g, Pass::DeadCode),
            Lookup::Clean(_)
        ));
        match liveness_or_compute(&g, Pass::Cse) {
            Lookup::Live {
                live: l, cached, ..
            } => assert!(cached && Rc::ptr_eq(&l, &live)),
            Lookup::Clean(_) => panic!("Cse was never marked"),
        }
    }

    /// `clone_from` (the entry's copy on a miss, reusing its vectors) gives
    /// an equal function whatever the shapes before.
    #[test]
    fn clone_from_copies_every_shape() {
        let f = body();
        let mut g = func(
            ".L_x_0:
             MOV R9, 0x1 ;
             .L_x_1:
             MOV R8, 0x2 ;
             .L_x_2:
             MOV R7, 0x3 ;
             EXIT ;",
        );
        g.clone_from(&f);
        assert_eq!(g, f);
        let mut h = Function::default();
        h.clone_from(&g);
        assert_eq!(h, f);
    }

    #[test]
    fn bypassed_computes_afresh_and_remembers_nothing() {
        let f = body();
        let cached = liveness(&f);
        mark_clean(&f, Pass::DeadCode);
        bypassed(|| {
            assert!(!Rc::ptr_eq(&cached, &liveness(&f)));
            assert!(!is_clean(&f, Pass::DeadCode));
            assert!(liveness_unless_clean(&f, Pass::DeadCode).is_some());
            mark_clean(&f, Pass::GeneralOptimize);
        });
        assert!(is_clean(&f, Pass::DeadCode), "the entry survives");
        assert!(
            !is_clean(&f, Pass::GeneralOptimize),
            "nothing remembered while bypassed"
        );
        assert!(Rc::ptr_eq(&cached, &liveness(&f)));
    }

    /// A lookup's answer, used by the recording calls while the entry is
    /// unchanged, leaves the cache as the comparing calls leave it: a miss
    /// replaces the entry with `f`, a hit keeps it.
    #[test]
    fn a_current_answer_records_as_a_comparison_would() {
        let f = body();
        let _ = liveness(&f);
        let mut g = f.clone();
        g.blocks[0].insts.remove(0);
        let Lookup::Live { live, cached, seen } = liveness_or_compute(&g, Pass::DeadCode) else {
            panic!("nothing is clean yet");
        };
        assert!(!cached && !seen.equal && seen.gen != 0, "a miss");
        let after = remember_seen(&g, live.clone(), Pass::DeadCode, seen);
        assert!(
            after.equal && after.gen != seen.gen,
            "the entry now holds g"
        );
        assert!(is_clean(&g, Pass::DeadCode) && !is_clean(&f, Pass::DeadCode));
        assert!(Rc::ptr_eq(&live, &liveness(&g)));
        // The answer after it still holds: no new content, a second pass
        // recorded.
        let again = mark_clean_seen(&g, Pass::GeneralOptimize, after);
        assert_eq!(again, after);
        assert!(is_clean(&g, Pass::GeneralOptimize));
        match liveness_or_compute(&g, Pass::DeadCode) {
            Lookup::Clean(s) => assert_eq!(s, after),
            Lookup::Live { .. } => panic!("DeadCode was marked"),
        }
    }

    /// An answer the entry has moved on from (another function looked up
    /// since) is not trusted: the recording call compares, and marks the
    /// function it is given, not the entry's.
    #[test]
    fn a_stale_answer_is_compared_again() {
        let f = body();
        let _ = liveness(&f);
        let Lookup::Live { seen, .. } = liveness_or_compute(&f, Pass::Cse) else {
            panic!("nothing is clean yet");
        };
        assert!(seen.equal);
        let mut g = f.clone();
        g.blocks[0].insts.remove(0);
        let _ = liveness(&g);
        let after = mark_clean_seen(&f, Pass::Cse, seen);
        assert_ne!(after.gen, seen.gen, "f replaced g in the entry");
        assert!(is_clean(&f, Pass::Cse));
        assert!(!is_clean(&g, Pass::Cse));
        // A stale miss (the entry was made for g meanwhile) is compared
        // too: g equal to the entry's function keeps its liveness.
        let Lookup::Live { seen, .. } = liveness_or_compute(&g, Pass::DeadCode) else {
            panic!("DeadCode is not clean for g");
        };
        assert!(!seen.equal);
        let live_g = liveness(&g);
        remember_seen(
            &g,
            Rc::new(Liveness::new(&g, &Cfg::new(&g))),
            Pass::DeadCode,
            seen,
        );
        assert!(
            Rc::ptr_eq(&live_g, &liveness(&g)),
            "the entry's liveness kept"
        );
        assert!(is_clean(&g, Pass::DeadCode));
    }

    /// A caller that changed the function after the lookup breaks the
    /// promise the answer stands on: debug builds (the tests) catch it.
    #[test]
    #[should_panic(expected = "f changed since it was seen")]
    fn a_changed_function_with_a_current_answer_is_caught() {
        let mut f = body();
        let _ = liveness(&f);
        let Lookup::Live { seen, .. } = liveness_or_compute(&f, Pass::DeadCode) else {
            panic!("nothing is clean yet");
        };
        f.blocks[0].insts.remove(0);
        mark_clean_seen(&f, Pass::DeadCode, seen);
    }

    /// A pass that found nothing hands its answer on: the liveness lookup
    /// for the unchanged function hits through it, and a stale one (the
    /// entry replaced since) compares.
    #[test]
    fn unless_clean_hands_its_answer_to_the_liveness_lookup() {
        let mut f = body();
        let (n, seen) = unless_clean_seen(&mut f, Pass::CopyProp, |_| 0);
        assert_eq!(n, 0);
        assert!(seen.equal && is_clean(&f, Pass::CopyProp));
        match liveness_or_compute_seen(&f, Pass::DeadCode, seen) {
            Lookup::Live {
                cached, seen: s, ..
            } => assert!(cached && s == seen),
            Lookup::Clean(_) => panic!("DeadCode was never marked"),
        }
        // Known clean: skipped, with the same answer.
        let (n, again) = unless_clean_seen(&mut f, Pass::CopyProp, |_| panic!("skipped"));
        assert_eq!((n, again), (0, seen));
        // A rewrite gives no answer.
        let (n, none) = unless_clean_seen(&mut f, Pass::Cse, |f| {
            f.blocks[0].insts.remove(0);
            1
        });
        assert_eq!((n, none), (1, Seen::NONE));
        // `seen` was for the function before the rewrite, and the entry
        // still holds that one: trusting it would be wrong, and debug
        // builds say so (next test); after another lookup it is stale.
        let g = body();
        let _ = liveness(&f);
        match liveness_or_compute_seen(&g, Pass::DeadCode, seen) {
            Lookup::Live {
                cached, seen: s, ..
            } => assert!(!cached && !s.equal),
            Lookup::Clean(_) => panic!("DeadCode was never marked for g"),
        }
    }

    #[test]
    #[should_panic(expected = "f changed since it was seen")]
    fn a_rewrite_after_the_answer_is_caught_by_the_lookup() {
        let mut f = body();
        let (_, seen) = unless_clean_seen(&mut f, Pass::CopyProp, |_| 0);
        f.blocks[0].insts.remove(0);
        let _ = liveness_or_compute_seen(&f, Pass::DeadCode, seen);
    }
}
