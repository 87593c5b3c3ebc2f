//! Unit tests of ConvertUnsupportedOps (convert_unsupported.rs): the
//! rewrite on IR per target, its errors, and the phase in a pipeline.

use super::convert_unsupported::{convert, expands, ConvertUnsupportedOps, CONVERSIONS};
use super::loop_util::text;
use super::phase::{Phase, PhaseContext};
use crate::ir::cfg::tests::func;
use crate::ir::verify::{verify_with, VerifyOptions};
use crate::ir::{Function, Op};
use crate::targets::lookup_sm;

// The phases these tests name, by name.
const VERIFY: u16 = crate::phases::table::index_of("OriCheckInitialProgram");
const CONV: u16 = crate::phases::table::index_of("ConvertUnsupportedOps");
const EMIT: u16 = crate::phases::table::index_of("EmitSassListing");

/// The phase as the factory builds it for its row.
fn phase() -> ConvertUnsupportedOps {
    ConvertUnsupportedOps { index: CONV }
}

fn sm(name: &str) -> &'static crate::targets::SmInfo {
    lookup_sm(name).unwrap()
}

fn ops(f: &Function) -> Vec<Op> {
    f.insts().map(|i| i.op).collect()
}

fn count(f: &Function, op: Op, m: &str) -> usize {
    f.insts()
        .filter(|i| i.op == op && (m.is_empty() || i.has_mod(m)))
        .count()
}

/// The lowering's `redux.sync.min.s32 %r2, %r1, m` (warp_sync.rs).
const REDUX: &str = ".L_x_0:
     S2R %r1, SR_TID.X ;
     REDUX.MIN.S32 %ur0, %r1 ;
     IMAD.U32 %r2, RZ, RZ, %ur0 ;
     STS [%r1], %r2 ;
     EXIT ;";

#[test]
fn redux_on_sm_75_and_sm_70_becomes_shfl_code() {
    for target in ["sm_70", "sm_75"] {
        let mut f = func(REDUX);
        let n = convert(&mut f, sm(target)).unwrap();
        assert_eq!(n, 1, "{target}");
        let t = text(&f);
        assert_eq!(count(&f, Op::REDUX, ""), 0, "{target}:\n{t}");
        // The butterfly (five BFLY steps) and the member loop (one IDX).
        assert_eq!(count(&f, Op::SHFL, "BFLY"), 5, "{target}:\n{t}");
        assert_eq!(count(&f, Op::SHFL, "IDX"), 1, "{target}:\n{t}");
        assert_eq!(count(&f, Op::FLO, ""), 1, "{target}:\n{t}");
        assert_eq!(count(&f, Op::VOTE, "ANY"), 1, "{target}:\n{t}");
        // Signed min: IMNMX without .U32, PT selecting the minimum.
        assert_eq!(count(&f, Op::IMNMX, ""), 6, "{target}:\n{t}");
        assert_eq!(count(&f, Op::IMNMX, "U32"), 0, "{target}:\n{t}");
        // No uniform register is left: the reader reads a general one.
        assert!(!t.contains("%ur"), "{target}:\n{t}");
        assert!(t.contains("IMAD.U32 %r2, RZ, RZ, %r"), "{target}:\n{t}");
        // The result is valid target code (no before-conversion leniency).
        verify_with(&f, Some(sm(target)), VerifyOptions::default())
            .unwrap_or_else(|e| panic!("{target}: {e}\n{t}"));
        // The code before and after the REDUX is kept, in order.
        let o = ops(&f);
        assert_eq!(o[0], Op::S2R);
        assert_eq!(&o[o.len() - 3..], [Op::IMAD, Op::STS, Op::EXIT]);
    }
}

#[test]
fn each_redux_operation_folds_with_its_own_step() {
    for (mods, step, lut_or_mod) in [
        ("SUM", Op::IADD3, ""),
        ("MAX", Op::IMNMX, "U32"),
        ("OR", Op::LOP3, "LUT"),
        ("XOR", Op::LOP3, "LUT"),
    ] {
        let mut f = func(&REDUX.replace("MIN.S32", mods));
        convert(&mut f, sm("sm_75")).unwrap();
        // One step per butterfly round and one in the member loop.
        let steps = f
            .insts()
            .filter(|i| i.op == step && (lut_or_mod.is_empty() || i.has_mod(lut_or_mod)))
            .count();
        let want = if step == Op::LOP3 { 6 + 1 } else { 6 };
        assert_eq!(steps, want, "{mods}:\n{}", text(&f));
    }
    // AND (REDUX's default, no modifier): the member loop starts at -1.
    let mut f = func(&REDUX.replace("REDUX.MIN.S32", "REDUX"));
    convert(&mut f, sm("sm_70")).unwrap();
    assert!(text(&f).contains("MOV %r"), "{}", text(&f));
    assert!(
        f.insts()
            .any(|i| i.op == Op::MOV && i.operands[1] == crate::ir::Operand::Imm(-1)),
        "{}",
        text(&f)
    );
}

#[test]
fn a_guarded_redux_is_branched_around() {
    let mut f = func(
        ".L_x_0:
         ISETP.NE.AND %p0, PT, %r1, RZ, PT ;
         @%p0 REDUX.SUM %ur0, %r1 ;
         @%p0 IMAD.U32 %r2, RZ, RZ, %ur0 ;
         STS [%r1], %r2 ;
         EXIT ;",
    );
    convert(&mut f, sm("sm_75")).unwrap();
    let first = &f.blocks[0].insts;
    let bra = first.last().unwrap();
    assert_eq!(bra.op, Op::BRA, "{}", text(&f));
    let g = bra.guard.expect("a guarded branch");
    assert!(g.negated, "{}", text(&f));
    // The reader keeps its guard.
    assert!(
        text(&f).contains("@%p0 IMAD.U32 %r2, RZ, RZ, %r"),
        "{}",
        text(&f)
    );
    verify_with(&f, Some(sm("sm_75")), VerifyOptions::default()).unwrap();
}

#[test]
fn a_redux_ending_its_block_leaves_no_empty_block() {
    let mut f = func(
        ".L_x_0:
         REDUX.XOR %ur0, %r1 ;
         .L_x_1:
         IMAD.U32 %r2, RZ, RZ, %ur0 ;
         EXIT ;",
    );
    convert(&mut f, sm("sm_70")).unwrap();
    assert!(f.blocks.iter().all(|b| !b.insts.is_empty()));
    verify_with(&f, Some(sm("sm_70")), VerifyOptions::default())
        .unwrap_or_else(|e| panic!("{e}\n{}", text(&f)));
}

#[test]
fn i2fp_on_sm_80_becomes_i2f() {
    let mut f = func(
        ".L_x_0:
         I2FP.F32.S32 %r1, %r0 ;
         I2FP.F32.U32 %r2, %r0 ;
         I2FP.F32.S32.RZ %r3, %r0 ;
         @%p0 I2FP.F32.U32.RP %r4, %r0 ;
         EXIT ;",
    );
    for target in ["sm_70", "sm_75", "sm_80"] {
        let mut g = f.clone();
        assert_eq!(convert(&mut g, sm(target)).unwrap(), 4);
        let t = text(&g);
        for want in [
            "I2F %r1, %r0 ;",
            "I2F.U32 %r2, %r0 ;",
            "I2F.RZ %r3, %r0 ;",
            "@%p0 I2F.U32.RP %r4, %r0 ;",
        ] {
            assert!(t.contains(want), "{target}: {want}\n{t}");
        }
        assert_eq!(count(&g, Op::I2FP, ""), 0);
        verify_with(&g, Some(sm(target)), VerifyOptions::default()).unwrap();
    }
    // sm_86 has I2FP: kept.
    let before = f.clone();
    assert_eq!(convert(&mut f, sm("sm_86")).unwrap(), 0);
    assert_eq!(f, before);
}

#[test]
fn nothing_changes_on_sm_90() {
    for body in [REDUX, ".L_x_0:\n I2FP.F32.S32 %r1, %r0 ;\n EXIT ;"] {
        let mut f = func(body);
        let before = f.clone();
        assert_eq!(convert(&mut f, sm("sm_90")).unwrap(), 0);
        assert_eq!(f, before);
    }
    // REDUX stays on sm_80 (it has REDUX but not I2FP).
    let mut f = func(REDUX);
    let before = f.clone();
    assert_eq!(convert(&mut f, sm("sm_80")).unwrap(), 0);
    assert_eq!(f, before);
}

#[test]
fn an_opcode_without_an_expansion_is_an_error_naming_it_and_the_target() {
    let mut f = func(
        ".L_x_0:
         F2FP.PACK_AB R0, R1, R2 ;
         EXIT ;",
    );
    assert!(!expands(Op::F2FP));
    let before = f.clone();
    let e = convert(&mut f, sm("sm_75")).unwrap_err();
    assert_eq!(
        e,
        "F2FP does not exist on sm_75 (from sm_80) and has no expansion"
    );
    assert_eq!(f, before, "a failed conversion leaves the function alone");
    // Through the phase: the error names the phase.
    let mut cx = PhaseContext::new(f, Some(sm("sm_75")));
    let e = phase().execute(&mut cx).unwrap_err();
    assert_eq!(e.phase, "ConvertUnsupportedOps");
    assert!(e.message.contains("F2FP") && e.message.contains("sm_75"));
}

#[test]
fn a_modifier_the_target_lacks_is_an_error_naming_it() {
    // HFMA2 exists on sm_75, its `.BF16_V2` form only from sm_80 (the
    // opcode table's modifier mark): no expansion replaces a modifier.
    let mut f = func(
        ".L_x_0:
         HFMA2.BF16_V2 R0, -RZ.H0_H0, RZ.H0_H0, -R1 ;
         EXIT ;",
    );
    let before = f.clone();
    assert_eq!(convert(&mut f, sm("sm_80")).unwrap(), 0);
    let e = convert(&mut f, sm("sm_75")).unwrap_err();
    assert_eq!(
        e,
        "HFMA2.BF16_V2 does not exist on sm_75 (from sm_80) and has no expansion"
    );
    assert_eq!(f, before);
}

#[test]
fn a_redux_result_that_cannot_move_to_a_general_register_is_refused() {
    // The uniform register written twice: one rename cannot serve both.
    let mut f = func(
        ".L_x_0:
         REDUX.SUM %ur0, %r1 ;
         IMAD.U32 %r2, RZ, RZ, %ur0 ;
         REDUX.OR %ur0, %r2 ;
         IMAD.U32 %r3, RZ, RZ, %ur0 ;
         EXIT ;",
    );
    let e = convert(&mut f, sm("sm_75")).unwrap_err();
    assert!(e.contains("%ur0") && e.contains("sm_75"), "{e}");
}

#[test]
fn the_conversions_are_exactly_the_opcodes_a_supported_target_lacks() {
    // Each listed opcode is missing somewhere in sm_70..sm_90 (else its
    // expansion would never run) and present on sm_90.
    for &(op, _) in CONVERSIONS {
        assert!(!op.available_on(sm("sm_70")), "{op}");
        assert!(op.available_on(sm("sm_90")), "{op}");
    }
}

#[test]
fn the_phase_runs_in_the_pipeline_and_counts_its_rewrites() {
    let plan = super::Plan {
        order: vec![VERIFY, CONV, EMIT],
        ..Default::default()
    };
    let f = func(REDUX);
    // Phase 0 accepts the REDUX on sm_70 (before the conversion) ...
    let out = super::run(&plan, f.clone(), Some(sm("sm_70"))).unwrap();
    assert_eq!(out.cx.fired.get(&CONV), Some(&1));
    assert_eq!(count(&out.cx.function, Op::REDUX, ""), 0);
    // ... and an order without phase 5 is refused by the plan check.
    let e = super::PhaseOptions {
        order: Some("0,157".into()),
        ..Default::default()
    }
    .plan(3)
    .unwrap_err();
    assert!(
        e.contains("`required`") && e.contains("ConvertUnsupportedOps"),
        "{e}"
    );
    // No target: nothing to convert.
    let mut cx = PhaseContext::new(f.clone(), None);
    phase().execute(&mut cx).unwrap();
    assert_eq!(cx.function, f);
}

#[test]
fn conversions_are_the_opcode_tables_expanded_list() {
    let ops: Vec<Op> = CONVERSIONS.iter().map(|&(op, _)| op).collect();
    assert_eq!(ops, crate::ir::opcode::EXPANDED_WHERE_MISSING);
}
