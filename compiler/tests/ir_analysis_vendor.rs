//! The IR analyses over every vendor listing of the corpus (ptxas 11.8,
//! sm_70..sm_90): the verifier accepts them; the only unreachable code is
//! ptxas's end padding; control flow is reducible; no register is read
//! before it is written, apart from the investigated exceptions below; and
//! the only dead instructions are the ones ptxas emits on purpose.

mod common;

use ptxc::ir::cfg::{is_padding, Cfg};
use ptxc::ir::defuse::DefUse;
use ptxc::ir::dom::DomTree;
use ptxc::ir::liveness::Liveness;
use ptxc::ir::loops::LoopInfo;
use ptxc::ir::opcode::Op;
use ptxc::ir::regs::{self, RegUnit};
use ptxc::ir::remove::dead_instructions_with;
use ptxc::ir::sass_text::{parse_file, Pred, Reg, SassOperand};
use ptxc::ir::verify::{verify, verify_with, VerifyOptions};
use ptxc::ir::{from_sass, Function, Inst};
use ptxc::targets::{lookup_sm, SmInfo};

struct Listing {
    kernel: String,
    arch: &'static str,
    sm: &'static SmInfo,
    f: Function,
}

fn listings() -> Vec<Listing> {
    let mut out = Vec::new();
    for (kernel, arch, p, text) in common::vendor_listings() {
        let file = parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let sm = lookup_sm(&format!("sm_{arch}")).unwrap();
        for sf in &file.functions {
            let f = from_sass(sf, Some(sm)).unwrap();
            out.push(Listing {
                kernel: kernel.clone(),
                arch,
                sm,
                f,
            });
        }
    }
    assert!(out.len() >= 96);
    out
}

fn has_undecoded(f: &Function) -> bool {
    f.insts().any(|i| i.op == Op::UNDECODED)
}

#[test]
fn every_listing_verifies() {
    for l in listings() {
        let r = verify(&l.f, Some(l.sm));
        assert_eq!(r, Ok(()), "{} sm_{}", l.kernel, l.arch);
        // Vendor code is register-allocated: physical registers only.
        let phys = VerifyOptions {
            physical_only: true,
            ..Default::default()
        };
        assert_eq!(verify_with(&l.f, Some(l.sm), phys), Ok(()));
    }
}

/// ptxas ends every listing with `BRA self` and `NOP`s; nothing else is
/// unreachable, and that padding always is.
#[test]
fn only_the_end_padding_is_unreachable() {
    for l in listings() {
        let cfg = Cfg::new(&l.f);
        let n = l.f.blocks.len();
        for b in 0..n {
            if !cfg.reachable[b] {
                assert!(is_padding(&l.f, b), "{} sm_{}: block {b}", l.kernel, l.arch);
            }
        }
        // The padding: a lone `BRA self`, possibly followed by NOPs.
        let last_code = (0..n)
            .rev()
            .find(|&b| !l.f.blocks[b].insts.iter().all(|i| i.op == Op::NOP));
        let pad = last_code.unwrap();
        assert!(
            is_padding(&l.f, pad) && !cfg.reachable[pad],
            "{} sm_{}",
            l.kernel,
            l.arch
        );
        assert!(!cfg.falls_off_end);
    }
}

/// Every retreating edge of the reverse postorder is a back edge whose
/// target dominates its source: ptxas's control flow is reducible, and
/// every loop has one header.
#[test]
fn control_flow_is_reducible_and_entries_dominate() {
    let mut loops = 0;
    let mut calls = 0;
    for l in listings() {
        let cfg = Cfg::new(&l.f);
        let dom = DomTree::new(&cfg);
        let pos = cfg.rpo_index();
        for &b in &cfg.rpo {
            for &s in &cfg.succs[b] {
                if pos[s] <= pos[b] {
                    assert!(
                        dom.dominates(s, b),
                        "{} sm_{}: {b} -> {s}",
                        l.kernel,
                        l.arch
                    );
                }
            }
        }
        // Each procedure's entry dominates its blocks that no other
        // procedure shares.
        for p in &cfg.procs {
            for &b in &p.blocks {
                if cfg.procs_of(b).count() == 1 {
                    assert!(dom.dominates(p.entry, b), "{} sm_{}", l.kernel, l.arch);
                }
            }
        }
        let li = LoopInfo::new(&cfg, &dom);
        for lp in &li.loops {
            assert!(lp.blocks.iter().all(|&b| dom.dominates(lp.header, b)));
        }
        loops += li.loops.len();
        calls += cfg.calls.len();
    }
    assert!(loops > 50 && calls > 50, "{loops} loops, {calls} calls");
}

/// Registers live at a kernel's entry would be read before written.
/// ptxas writes every register before reading it, so the set is empty —
/// except for these investigated cases, which are facts of the vendor
/// code (or limits of a sound analysis), not analysis bugs:
///
/// - `half_arith` (sm_70..sm_80): `PRMT R14, R5, 0x7610, R14` packs a half
///   into the low 16 bits of R14 and keeps its upper 16 bits, which nothing
///   wrote: they are don't-care bits of an `f16x2` whose high half is
///   never read. The PRMT reads R14 before any write.
/// - `libdevice_math` (all SMs): a small local array promoted to R14..R18
///   (R10 too on sm_90) is filled in a loop, element `i` written under
///   `ISETP.EQ` on the loop index, and read after the loop under other
///   such predicates. That every element was written is a fact about the
///   loop's trip count, beyond any dataflow analysis.
/// - `sort_scan` sm_70: R11 is live after the last of five calls to one
///   shuffle helper; callees are analysed context-insensitively (the live
///   sets after all call sites of a callee are joined into its returns),
///   so R11 flows back through the first call, which precedes its
///   definition.
/// - listings with `UNDECODED` slots (sm_90 opcodes cuobjdump 11.8 prints
///   without text): such a slot may read every register, so everything
///   not written before it is live.
#[test]
fn nothing_is_read_before_written() {
    let exceptions: &[(&str, &str, &[RegUnit])] = &[
        ("half_arith", "70", &[RegUnit::R(14)]),
        ("half_arith", "75", &[RegUnit::R(14)]),
        ("half_arith", "80", &[RegUnit::R(12)]),
        ("sort_scan", "70", &[RegUnit::R(11)]),
    ];
    let mut checked = 0;
    for l in listings() {
        if has_undecoded(&l.f) {
            assert_eq!(l.arch, "90");
            continue;
        }
        let cfg = Cfg::new(&l.f);
        let live = Liveness::new(&l.f, &cfg);
        let at_entry = live.units_sorted(live.live_in(0));
        if l.kernel == "libdevice_math" {
            // The promoted array: general registers, each written under a
            // guard (the element stores of the fill loop).
            for u in &at_entry {
                assert!(matches!(u, RegUnit::R(_)), "{u}");
                let writes: Vec<&Inst> =
                    l.f.insts().filter(|i| regs::defs(i).contains(u)).collect();
                assert!(writes.iter().any(|i| i.guard.is_some()), "{u}");
            }
            continue;
        }
        let allowed: &[RegUnit] = exceptions
            .iter()
            .find(|(k, a, _)| *k == l.kernel && *a == l.arch)
            .map_or(&[], |e| e.2);
        assert_eq!(at_entry, allowed, "{} sm_{}", l.kernel, l.arch);
        if let (true, Some(&u)) = (l.kernel == "half_arith", allowed.first()) {
            // The first reader is a PRMT that also writes the register.
            let first = l.f.insts().find(|i| regs::uses(i).contains(&u)).unwrap();
            assert!(first.op == Op::PRMT && regs::defs(first).contains(&u));
        }
        checked += 1;
    }
    assert!(checked >= 80, "{checked}");
}

/// The def-use chains agree with liveness: a register that is read but
/// never written in reachable code is live at the entry.
#[test]
fn source_only_units_are_live_at_entry() {
    for l in listings() {
        if has_undecoded(&l.f) {
            continue;
        }
        let cfg = Cfg::new(&l.f);
        let live = Liveness::new(&l.f, &cfg);
        let du = DefUse::new(&l.f, Some(&live));
        for (u, info) in &du.units {
            let reachable_use = info.uses.iter().any(|&(b, _)| cfg.reachable[b]);
            if info.source_only && reachable_use {
                assert!(live.is_live_in(0, *u), "{} sm_{}: {u}", l.kernel, l.arch);
            }
            if let Some((b, i)) = info.single_def {
                assert!(regs::defs(&l.f.blocks[b].insts[i]).contains(u));
            }
        }
    }
}

/// The dead instructions of vendor code are only ones ptxas emits on
/// purpose:
/// - the stack-pointer set-up `R1 <- c[0x0][0x28]` at address 0, emitted
///   whether or not the kernel uses a stack;
/// - instructions guarded by `@!PT`, which never execute
///   (`@!PT SHFL.IDX PT, RZ, RZ, RZ, RZ`, `@!PT LDC RZ, c[0x0][RZ]`);
/// - `ULDC.64 URn, c[0x0][D]` of the SM's global-memory descriptor `D`
///   (sm_80+): the `LDG`/`STG`/`ATOMG` that use it name it in their
///   encoding, but cuobjdump 11.8 does not print the `desc[URn]` operand.
#[test]
fn dead_instructions_are_deliberate() {
    let mut seen = [0usize; 3];
    for l in listings() {
        if has_undecoded(&l.f) {
            continue;
        }
        let cfg = Cfg::new(&l.f);
        let live = Liveness::new(&l.f, &cfg);
        for (b, i) in dead_instructions_with(&l.f, &live) {
            let inst = &l.f.blocks[b].insts[i];
            let cbank = |o: &SassOperand| match o {
                SassOperand::Const(c) if c.bank == 0 && c.reg.is_none() => c.offset,
                _ => None,
            };
            let stack = (b, i) == (0, 0)
                && matches!(inst.dsts(), [SassOperand::Reg(r)] if r.reg == Reg::R(1))
                && inst.srcs().iter().any(|o| cbank(o) == Some(0x28));
            let never = inst.guard.is_some_and(|g| g.pred == Pred::Pt && g.negated);
            let desc = inst.op == Op::ULDC
                && inst.has_mod("64")
                && l.sm
                    .cbank
                    .and_then(|c| c.global_descriptor)
                    .is_some_and(|d| inst.srcs().iter().any(|o| cbank(o) == Some(i64::from(d))));
            assert!(
                stack || never || desc,
                "{} sm_{}: dead {:?} {:?} at block {b} inst {i}",
                l.kernel,
                l.arch,
                inst.op,
                inst.operands
            );
            seen[if stack {
                0
            } else if never {
                1
            } else {
                2
            }] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}
