//! The scalar optimization phases: the GeneralOptimize family (ptxas's
//! early peephole driver, docs/MODEL.md), branch optimization, copy propagation (forward,
//! global: OriCopyProp; backward: OriBackCopyPropagate), value numbering
//! (GvnCse, LateOriCommoning), reassociation and NOP removal.
//!
//! | file | job |
//! |---|---|
//! | `facts.rs` | the available-facts dataflow every rewrite stands on (sound without SSA) |
//! | `copies.rs` | copy and constant propagation |
//! | `fold.rs` | one-instruction rules: constant folding (integers exactly, floats bit-exactly), identities, strength reduction |
//! | `peephole.rs` | sweeps of the one-instruction rules, branch simplification, NOP removal |
//! | `cse.rs` | common-subexpression elimination (available expressions) |
//! | `reassociation.rs` | the reassociation rewrite: add and multiply-by-constant chains re-formed around their leaves |
//! | `backward_copies.rs` | the backward copy-propagation rewrite: a computed-then-copied value computed into the copy's destination |
//! | `general_optimize.rs` | GeneralOptimizeEarly/-/Mid/Mid2/Late/Late2 (13, 29, 37, 46, 58, 65) |
//! | `branch_opt.rs` | OriBranchOpt (15) |
//! | `copy_prop.rs` | OriCopyProp (144, the ORI manager's injected pass) |
//! | `back_copy_prop.rs` | OriBackCopyPropagate (83) |
//! | `gvn_cse.rs` | GvnCse (49) |
//! | `reassociate_and_common.rs` | OriReassociateAndCommon (50) |
//! | `late_commoning.rs` | LateOriCommoning (64) |
//! | `remove_nop.rs` | OriRemoveNopCode (107) |
//!
//! Every phase here is a no-op at `-O0` and at NvOpt level 0, records its
//! rewrites with [`PhaseContext::fire`](super::phase::PhaseContext::fire),
//! and works on virtual and physical registers alike (its analyses are per
//! register unit and never assume one definition per register), so it may
//! run before or after register allocation.

pub mod backward_copies;
pub mod copies;
pub mod cse;
pub mod facts;
pub mod fold;
pub mod peephole;
pub mod reassociation;

pub mod back_copy_prop;
pub mod branch_opt;
pub mod copy_prop;
pub mod general_optimize;
pub mod gvn_cse;
pub mod late_commoning;
pub mod reassociate_and_common;
pub mod remove_nop;

use super::phase::PhaseConfig;
use super::table::{Impl, Kind, PHASES};

/// Whether `imp` is one of this module's phases (the factory,
/// `phase::create`, builds them).
pub fn implements(imp: Impl) -> bool {
    matches!(
        imp,
        Impl::GeneralOptimize
            | Impl::OriBranchOpt
            | Impl::OriCopyProp
            | Impl::OriBackCopyPropagate
            | Impl::GvnCse
            | Impl::OriReassociateAndCommon
            | Impl::LateOriCommoning
            | Impl::OriRemoveNopCode
    )
}

/// The table rows this module implements, in index order.
pub fn indices() -> Vec<u16> {
    PHASES
        .iter()
        .filter(|r| matches!(r.kind, Kind::Real(imp) if implements(imp)))
        .map(|r| r.index)
        .collect()
}

/// How many rounds a fixed-point driver runs at the config's NvOpt level:
/// none at level 0 (and at `-O0`), one at level 1, otherwise until nothing
/// changes, capped (a safety net; every rewrite strictly simplifies, so the
/// cap is not reached on real code).
pub fn rounds(cfg: &PhaseConfig) -> usize {
    if cfg.opt_level == 0 {
        return 0;
    }
    match cfg.nvopt_level {
        0 => 0,
        1 => 1,
        _ => 32,
    }
}

/// Runs `step` until it reports nothing or `rounds` rounds ran; returns the
/// total it reported.
pub fn fixed_point(rounds: usize, mut step: impl FnMut() -> usize) -> usize {
    let mut total = 0;
    for _ in 0..rounds {
        let n = step();
        total += n;
        if n == 0 {
            break;
        }
    }
    total
}

#[cfg(test)]
pub(crate) mod test_util {
    use crate::ir::Function;

    /// A function from SASS text (virtual registers allowed).
    pub fn func(body: &str) -> Function {
        crate::ir::cfg::tests::func(body)
    }

    /// The function's instructions as text, one per line (labels as
    /// `.L_x_N:` lines).
    pub fn text(f: &Function) -> String {
        let s = crate::ir::to_sass(f, true).unwrap();
        let mut out = String::new();
        for i in &s.insts {
            if let Some(l) = i.label {
                out.push_str(&format!(".L_x_{l}:\n"));
            }
            let t = i.to_string();
            // Drop the address comment.
            let t = t.split("*/").last().unwrap_or(&t).trim().to_string();
            out.push_str(&t);
            out.push('\n');
        }
        out
    }

    /// Whitespace-normalized comparison text.
    pub fn norm(s: &str) -> String {
        s.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The phases these tests name, by name.
    const VERIFY: u16 = crate::phases::table::index_of("OriCheckInitialProgram");
    const CONV: u16 = crate::phases::table::index_of("ConvertUnsupportedOps");
    const GVN_CSE: u16 = crate::phases::table::index_of("GvnCse");
    const SCOREBOARDS: u16 = crate::phases::table::index_of("AssignScoreboards");
    const EMIT: u16 = crate::phases::table::index_of("EmitSassListing");

    #[test]
    fn no_ops_at_o0_and_nvopt_0_real_otherwise() {
        let mut cfg = PhaseConfig::default();
        let indices = indices();
        assert_eq!(indices.len(), 13);
        for &i in &indices {
            let p = crate::phases::phase::create(i, &cfg).unwrap();
            assert!(!p.is_no_op(), "{}", p.name());
            assert_eq!(p.index(), i);
        }
        cfg.opt_level = 0;
        for &i in &indices {
            assert!(crate::phases::phase::create(i, &cfg).unwrap().is_no_op());
        }
        cfg.opt_level = 3;
        cfg.nvopt_level = 0;
        for &i in &indices {
            assert!(crate::phases::phase::create(i, &cfg).unwrap().is_no_op());
        }
        cfg.nvopt_level = 1;
        assert_eq!(rounds(&cfg), 1);
    }

    #[test]
    fn they_run_before_the_control_codes() {
        let e = crate::phases::order::check_order(&[VERIFY, CONV, SCOREBOARDS, GVN_CSE, EMIT])
            .unwrap_err();
        // The control-code phases' own constraint (table.rs CODE_PHASES).
        assert!(e.to_string().contains("`control-codes`"), "{e}");
        crate::phases::order::check_order(&[VERIFY, CONV, GVN_CSE, SCOREBOARDS, EMIT]).unwrap();
    }
}
