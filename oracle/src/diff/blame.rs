//! Blame: which stage of ptxc made a failing configuration fail.
//!
//! The walk ([`blame`]) lowers the program for the configuration's target
//! (as the driver does), then dispatches the configuration's phase order
//! one phase at a time through the same PhaseManager the driver uses (the
//! production dispatch, unchanged). After every phase that changed the IR,
//! the IR runs in the simulator (virtual registers run directly, so every
//! prefix is executable) and is judged against the oracle exactly as the
//! listing is; until phase 5 ConvertUnsupportedOps has run, the IR is
//! judged as that phase would leave it (the lowering's REDUX/I2FP are not
//! run on a target that lacks them). The blamed stage is the first one
//! whose verdict is a failure: `lower` (the lowered IR, converted for the
//! target, already departs), a phase, or
//! `listing` (every phase's IR agrees but the printed and re-read listing
//! does not). The key opcode is the first instruction the blamed stage
//! changed (or the unavailable opcode of an availability failure, or the
//! instruction a control-code phase's departure points at).
//!
//! The control codes come in three phases (AssignScoreboards,
//! ComputeStallCounts, SetReuseFlags), each writing its own fields; the IR
//! after one of them is judged with the fields of those still to run
//! filled in conservatively ([`super::codes`]), so a wrong scoreboard or
//! stall count is blamed on the phase that set it.
//!
//! For an order-dependent failure (a `reorder:` configuration that fails
//! where the default order passes), [`order_pair`] names the two phases
//! whose relative order matters: the default order is turned into the
//! failing one by adjacent swaps (bubble sort on the failing order's
//! positions: each swap puts one pair into the failing order's relative
//! order, so every intermediate order keeps the pairwise constraints both
//! ends keep), and a binary search over that sequence finds a swap that
//! turns a passing order into a failing one.

use ptxc::ir::Function;
use ptxc::lower::{LowerOptions, LoweredKernel, ModulePlan};
use ptxc::phases::{table, DispatchOptions, PhaseContext, PhaseManager};

use super::codes;
use super::matrix::{Compiler, Config, Variant};
use super::run::{simulate, unavailable_opcode, OracleRun};
use super::verdict::{Verdict, VerdictKind};
use super::Program;
use crate::ptx_interp::RunLimits;
use crate::sim::SimInputs;

/// One phase of the walk that changed the IR, and how its IR fared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlameStep {
    pub index: u16,
    pub verdict: VerdictKind,
}

/// The blamed stage and the evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blame {
    /// `lower`, a phase name, `listing` (every phase's IR agrees; the
    /// printed listing does not), `frontend` (a compile error), or
    /// `vendor`.
    pub stage: String,
    /// The phase index, when the stage is a phase.
    pub index: Option<u16>,
    /// The verdict of the blamed stage's output.
    pub departure: Option<Verdict>,
    pub key_opcode: Option<String>,
    /// For an order-dependent failure: (a, b) with `a` before `b` in the
    /// passing order and after it in the failing one.
    pub order_pair: Option<(u16, u16)>,
    /// The phases that changed the IR, in order, up to the blamed one.
    pub steps: Vec<BlameStep>,
    /// Where a stage outside the phase table sits, for the blame line
    /// (an nvopt pass: `pass 4 of nvopt<O3>, after sroa`); `index` is then
    /// `None`.
    pub context: Option<String>,
}

impl Blame {
    /// A blame of `stage` with no evidence yet.
    pub fn at(stage: impl Into<String>) -> Blame {
        Blame {
            stage: stage.into(),
            index: None,
            departure: None,
            key_opcode: None,
            order_pair: None,
            steps: Vec::new(),
            context: None,
        }
    }

    /// `OriPerformLiveDeadFirst (16), key opcode ISETP; order: A before B`.
    pub fn line(&self) -> String {
        let mut s = match self.index {
            Some(i) if self.stage == table::name_of(i) => format!("{} ({i})", self.stage),
            Some(i) => format!("{} (after {})", self.stage, table::name_of(i)),
            None => match &self.context {
                Some(c) => format!("{} ({c})", self.stage),
                None => self.stage.clone(),
            },
        };
        if let Some(op) = &self.key_opcode {
            s.push_str(&format!(", key opcode {op}"));
        }
        if let Some((a, b)) = self.order_pair {
            s.push_str(&format!(
                "; fails when {} runs before {}",
                table::name_of(b),
                table::name_of(a)
            ));
        }
        s
    }
}

/// Lowers the program's kernel for `cfg`'s target, as the driver does.
pub fn lower(p: &Program, oracle: &OracleRun, cfg: &Config) -> Result<LoweredKernel, String> {
    let m = &oracle.module;
    let f = m
        .function(&p.spec.kernel)
        .ok_or_else(|| format!("no kernel '{}'", p.spec.kernel))?;
    ModulePlan::new(m, cfg.arch)
        .and_then(|plan| plan.lower_entry(m, &LowerOptions::default(), f))
        .map_err(|e| e.msg)
}

/// The driver's register budget for the kernel under `cfg`.
fn register_budget(p: &Program, cfg: &Config) -> Option<ptxc::regalloc::RegBudget> {
    let report = ptxc::driver::compile(&p.name, &p.ptx, &cfg.driver_options(&p.spec.kernel), None);
    let out = report.result.ok()?;
    let f = out.functions.iter().find(|f| f.name == p.spec.kernel)?;
    Some(ptxc::regalloc::RegBudget::of(f.config.budget()))
}

/// `f` as phase 5 ConvertUnsupportedOps leaves it for the target: the IR
/// before that phase holds opcodes the target may lack (REDUX, I2FP),
/// which the simulator must not run there. Where the conversion fails, `f`
/// as it is (the availability check then names the opcode).
fn as_target_code(f: &Function, cfg: &Config) -> Function {
    let mut g = f.clone();
    match ptxc::phases::convert_unsupported::convert(&mut g, cfg.arch) {
        Ok(_) => g,
        Err(_) => f.clone(),
    }
}

/// Availability first (the listing check), then the simulator.
fn judge(
    f: &Function,
    p: &Program,
    oracle: &OracleRun,
    cfg: &Config,
    inputs: &SimInputs,
    limits: &RunLimits,
) -> Verdict {
    if let Some(l) = unavailable_opcode(f, cfg.arch) {
        return Verdict {
            opcode: Some(l.op().name().to_string()),
            ..Verdict::new(
                VerdictKind::Availability,
                format!("{} is not available on {}", l.spelled(), cfg.arch.name),
            )
        };
    }
    simulate(f, cfg.arch, p, oracle, inputs, limits)
}

/// The opcode of the first instruction that differs between `before` and
/// `after` (inserted or rewritten; removed when nothing was put in its
/// place), after the common prefix and suffix.
pub fn first_difference(before: &Function, after: &Function) -> Option<String> {
    let a: Vec<_> = before.insts().collect();
    let b: Vec<_> = after.insts().collect();
    let pre = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..]
        .iter()
        .rev()
        .zip(b[pre..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let changed = &b[pre..b.len() - suf];
    let removed = &a[pre..a.len() - suf];
    changed
        .first()
        .or(removed.first())
        .map(|i| i.op.name().to_string())
}

/// Blames a failing configuration (see the module comment).
pub fn blame(
    p: &Program,
    oracle: &OracleRun,
    cfg: &Config,
    verdict: &Verdict,
    limits: &RunLimits,
) -> Blame {
    if cfg.compiler == Compiler::Vendor {
        return Blame {
            key_opcode: verdict.opcode.clone(),
            ..Blame::at("vendor")
        };
    }
    match verdict.kind {
        VerdictKind::CompileError => return Blame::at("frontend"),
        VerdictKind::Ice => {
            let stage = verdict.phase.clone().unwrap_or_else(|| "ice".into());
            return Blame {
                index: table::find(&stage),
                departure: Some(verdict.clone()),
                ..Blame::at(stage)
            };
        }
        _ => {}
    }
    let mut b = walk(p, oracle, cfg, limits);
    if matches!(cfg.variant, Variant::Reorder(_)) {
        b.order_pair = order_pair(p, oracle, cfg, limits);
    }
    b
}

/// The control-code phases that run after `idx` in `order` (those the
/// manager executes: not no-ops).
fn pending_code_phases(order: &[u16], idx: u16, m: &PhaseManager) -> Vec<u16> {
    order
        .iter()
        .skip_while(|&&i| i != idx)
        .skip(1)
        .copied()
        .filter(|i| table::CONTROL_CODE_PHASES.contains(i))
        .filter(|&i| m.phase(i).is_some_and(|ph| !ph.is_no_op()))
        .collect()
}

fn walk(p: &Program, oracle: &OracleRun, cfg: &Config, limits: &RunLimits) -> Blame {
    let kernel = match lower(p, oracle, cfg) {
        Ok(k) => k,
        Err(e) => {
            return Blame {
                departure: Some(Verdict::new(VerdictKind::CompileError, e)),
                ..Blame::at("lower")
            }
        }
    };
    let plan = match cfg.plan() {
        Ok(p) => p,
        Err(e) => {
            return Blame {
                departure: Some(Verdict::new(VerdictKind::CompileError, e)),
                ..Blame::at("frontend")
            }
        }
    };
    let inputs = SimInputs::from_lowered(&kernel);
    // Before phase 5 the IR holds the lowering's target-independent
    // opcodes: it is judged as phase 5 would leave it.
    let v0 = judge(
        &as_target_code(&kernel.function, cfg),
        p,
        oracle,
        cfg,
        &inputs,
        limits,
    );
    if v0.is_failure() {
        return Blame {
            key_opcode: v0.opcode.clone(),
            departure: Some(v0),
            ..Blame::at("lower")
        };
    }
    let m = PhaseManager::new(&plan.config);
    let mut cx = PhaseContext::new(kernel.function, Some(cfg.arch));
    // The register budget the driver gives AllocateRegisters (phases 20/21:
    // --maxrregcount, .maxnreg, reserved registers); without it a
    // configuration failing under register pressure would replay unspilled.
    cx.budget = register_budget(p, cfg);
    let mut steps = Vec::new();
    let mut converted = false;
    for &idx in &plan.order {
        if m.phase(idx).is_none_or(|ph| ph.is_no_op()) {
            continue;
        }
        let before = cx.function.clone();
        if let Err(e) = m.dispatch(&[idx], &mut cx, &DispatchOptions::default()) {
            return Blame {
                index: Some(idx),
                departure: Some(Verdict {
                    phase: Some(e.phase.to_string()),
                    ..Verdict::new(VerdictKind::Ice, e.to_string())
                }),
                steps,
                ..Blame::at(e.phase)
            };
        }
        converted |= idx == table::CONVERT_UNSUPPORTED;
        if cx.function == before {
            continue;
        }
        // The control codes of the phases still to run are filled in
        // conservatively (see diff/codes.rs), so a departure after a
        // control-code phase is that phase's own.
        let pending = pending_code_phases(&plan.order, idx, &m);
        let shown = codes::conservatively(&cx.function, &pending);
        let v = if converted {
            judge(&shown, p, oracle, cfg, &inputs, limits)
        } else {
            judge(
                &as_target_code(&shown, cfg),
                p,
                oracle,
                cfg,
                &inputs,
                limits,
            )
        };
        steps.push(BlameStep {
            index: idx,
            verdict: v.kind,
        });
        if v.is_failure() {
            // A control-code phase rewrites every instruction's codes: its
            // key is the instruction the departure points at.
            let key = if v.kind == VerdictKind::Availability || codes::fields_of(idx).is_some() {
                v.opcode.clone()
            } else {
                first_difference(&before, &cx.function).or(v.opcode.clone())
            };
            return Blame {
                index: Some(idx),
                key_opcode: key,
                departure: Some(v),
                steps,
                ..Blame::at(table::name_of(idx))
            };
        }
    }
    // Every phase's IR agrees with the oracle: what departs is the
    // printed listing read back (EmitSassListing's text, the printer, the
    // SASS parser).
    Blame {
        index: Some(table::EMIT),
        steps,
        ..Blame::at("listing")
    }
}

/// Whether `order` (with `cfg`'s phase configuration) compiles the
/// program to IR that agrees with the oracle.
fn order_passes(
    p: &Program,
    oracle: &OracleRun,
    cfg: &Config,
    kernel: &LoweredKernel,
    order: &[u16],
    limits: &RunLimits,
) -> Option<bool> {
    let plan = cfg.plan().ok()?;
    let m = PhaseManager::new(&plan.config);
    let mut cx = PhaseContext::new(kernel.function.clone(), Some(cfg.arch));
    if m.dispatch(order, &mut cx, &DispatchOptions::default())
        .is_err()
    {
        return Some(false);
    }
    let inputs = SimInputs::from_lowered(kernel);
    Some(!judge(&cx.function, p, oracle, cfg, &inputs, limits).is_failure())
}

/// The adjacent swaps (positions `j`, `j + 1`) that bubble-sort `from`
/// into `to`'s order; `None` when the two hold different phases.
pub fn swaps_between(from: &[u16], to: &[u16]) -> Option<Vec<usize>> {
    let mut pos = vec![usize::MAX; table::PHASE_COUNT];
    for (k, &x) in to.iter().enumerate() {
        pos[usize::from(x)] = k;
    }
    let (mut a, mut b) = (from.to_vec(), to.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    if a != b || a.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    let mut cur = from.to_vec();
    let mut swaps = Vec::new();
    loop {
        let mut any = false;
        for j in 0..cur.len().saturating_sub(1) {
            if pos[usize::from(cur[j])] > pos[usize::from(cur[j + 1])] {
                cur.swap(j, j + 1);
                swaps.push(j);
                any = true;
            }
        }
        if !any {
            return Some(swaps);
        }
    }
}

/// `from` after the first `k` swaps.
fn replay(from: &[u16], swaps: &[usize], k: usize) -> Vec<u16> {
    let mut o = from.to_vec();
    for &j in &swaps[..k] {
        o.swap(j, j + 1);
    }
    o
}

/// The pair of phases an order-dependent failure hinges on (see the module
/// comment); `None` when the default order fails too, or the reordered one
/// passes when run from the lowered IR.
pub fn order_pair(
    p: &Program,
    oracle: &OracleRun,
    cfg: &Config,
    limits: &RunLimits,
) -> Option<(u16, u16)> {
    let kernel = lower(p, oracle, cfg).ok()?;
    let good = cfg.with_default_order().plan().ok()?.order;
    let bad = cfg.plan().ok()?.order;
    let swaps = swaps_between(&good, &bad)?;
    let passes =
        |k: usize| order_passes(p, oracle, cfg, &kernel, &replay(&good, &swaps, k), limits);
    if !passes(0)? || passes(swaps.len())? {
        return None;
    }
    // Invariant: after `lo` swaps the order passes, after `hi` it fails.
    let (mut lo, mut hi) = (0, swaps.len());
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if passes(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let o = replay(&good, &swaps, lo);
    let j = swaps[lo];
    Some((o[j], o[j + 1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swaps_turn_one_order_into_the_other_one_pair_at_a_time() {
        let from = [1u16, 2, 3, 4];
        let to = [3u16, 1, 4, 2];
        let s = swaps_between(&from, &to).unwrap();
        assert_eq!(replay(&from, &s, s.len()), to);
        // Inversions: (1,3), (2,3), (2,4).
        assert_eq!(s.len(), 3);
        assert_eq!(swaps_between(&from, &[1, 2, 3]), None);
        assert_eq!(swaps_between(&[1, 1], &[1, 1]), None);
        // Every default-to-random sequence keeps the constraints.
        let good = table::DEFAULT_ORDER;
        let bad = ptxc::phases::order::random_valid_order(3);
        let s = swaps_between(good, &bad).unwrap();
        for k in [0, s.len() / 3, s.len() / 2, s.len() - 1, s.len()] {
            ptxc::phases::order::check_order(&replay(good, &s, k))
                .unwrap_or_else(|e| panic!("after {k} swaps: {e}"));
        }
    }
}
