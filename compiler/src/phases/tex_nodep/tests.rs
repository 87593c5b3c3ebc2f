//! TexNodep: shared descriptors, coordinate copies, clustering, and the
//! stores a fetch must not cross.

use super::*;
use crate::ir::cfg::tests::func;

fn ops(f: &Function) -> Vec<&'static str> {
    f.insts().map(|i| i.op.info().name).collect()
}

#[test]
fn fetches_of_one_texture_share_its_descriptor_pair() {
    // The sm_90 lowering: each fetch loads the handle into a fresh pair.
    let mut f = func(
        ".L_x_0:
         ULDC %ur0, c[0x0][0x210] ;
         UMOV %ur1, URZ ;
         TLD.LZ RZ, %r10, %r2, %ur0, 0x0, 1D, 0x1 ;
         ULDC %ur2, c[0x0][0x210] ;
         UMOV %ur3, URZ ;
         TLD.LZ RZ, %r12, %r3, %ur2, 0x0, 1D, 0x1 ;
         ULDC %ur4, c[0x0][0x218] ;
         UMOV %ur5, URZ ;
         TLD.LZ RZ, %r14, %r3, %ur4, 0x0, 1D, 0x1 ;
         FADD %r16, %r10, %r12 ;
         FADD %r16, %r16, %r14 ;
         STG.E [%r8.64], %r16 ;
         EXIT ;",
    );
    // One shared pair, and the second fetch (no longer waiting for a
    // load) clusters up to the first.
    assert_eq!(tex_nodep(&mut f), 2);
    assert_eq!(
        ops(&f),
        ["ULDC", "UMOV", "TLD", "TLD", "ULDC", "UMOV", "TLD", "FADD", "FADD", "STG", "EXIT"]
    );
    let second = &f.blocks[0].insts[3];
    assert_eq!(second.op, Op::TLD);
    assert!(matches!(&second.operands[3], Operand::Reg(r) if r.reg == Reg::Uv(0)));
    crate::ir::verify(&f, None).unwrap();
}

#[test]
fn a_redefined_pair_is_not_shared() {
    let mut f = func(
        ".L_x_0:
         ULDC %ur0, c[0x0][0x210] ;
         UMOV %ur1, URZ ;
         TLD.LZ RZ, %r10, %r2, %ur0, 0x0, 1D, 0x1 ;
         UMOV %ur1, 0x1 ;
         ULDC %ur2, c[0x0][0x210] ;
         UMOV %ur3, URZ ;
         TLD.LZ RZ, %r12, %r3, %ur2, 0x0, 1D, 0x1 ;
         STG.E [%r8.64], %r10 ;
         STG.E [%r8.64+0x4], %r12 ;
         EXIT ;",
    );
    assert_eq!(tex_nodep(&mut f), 0);
}

#[test]
fn a_one_d_coordinate_copy_folds_into_the_fetch() {
    let mut f = func(
        ".L_x_0:
         IADD3 %r6, %r1, %r2, RZ ;
         MOV %r78, %r6 ;
         TLD.SCR.LZ RZ, %r80, %r78, 0x0, 0x58, 1D, 0x1 ;
         STG.E [%r8.64], %r80 ;
         EXIT ;",
    );
    assert_eq!(tex_nodep(&mut f), 1);
    assert_eq!(ops(&f), ["IADD3", "TLD", "STG", "EXIT"]);
    // A copy of an add-immediate: the copy folds (rewrite 2), then the add
    // into the texel offset (rewrite 4).
    let mut h = func(
        ".L_x_0:
         IADD3 %r6, %r1, 0x1, RZ ;
         MOV %r78, %r6 ;
         TLD.SCR.LZ RZ, %r80, %r78, 0x0, 0x58, 1D, 0x1 ;
         STG.E [%r8.64], %r80 ;
         EXIT ;",
    );
    assert_eq!(tex_nodep(&mut h), 2);
    assert_eq!(ops(&h), ["MOV", "TLD", "STG", "EXIT"]);
    // The copy's source redefined in between: no fold.
    let mut g = func(
        ".L_x_0:
         MOV %r78, %r6 ;
         IADD3 %r6, %r1, 0x1, RZ ;
         TLD.SCR.LZ RZ, %r80, %r78, 0x0, 0x58, 1D, 0x1 ;
         STG.E [%r8.64], %r80 ;
         STG.E [%r8.64+0x4], %r6 ;
         EXIT ;",
    );
    assert_eq!(tex_nodep(&mut g), 0);
}

#[test]
fn fetches_cluster_but_never_cross_an_aliasing_store() {
    let text = |store: &str| {
        format!(
            ".L_x_0:
             TLD.SCR.LZ RZ, %r10, %r2, 0x0, 0x58, 1D, 0x1 ;
             FADD %r12, %r10, 1 ;
             LDG.E %r13, [%r8.64] ;
             {store}
             TLD.SCR.LZ RZ, %r14, %r3, 0x0, 0x58, 1D, 0x1 ;
             FADD %r16, %r14, %r12 ;
             STG.E [%r8.64], %r16 ;
             EXIT ;"
        )
    };
    // A shared-memory store cannot alias texture memory: the fetch moves
    // up to the first one.
    let mut f = func(&text("STS [%r6], %r13 ;"));
    assert_eq!(tex_nodep(&mut f), 1);
    assert_eq!(ops(&f)[..3], ["TLD", "TLD", "FADD"]);
    // A global store may: the fetch stays below it.
    let mut g = func(&text("STG.E [%r9.64], %r13 ;"));
    assert_eq!(tex_nodep(&mut g), 0);
    assert_eq!(g, func(&text("STG.E [%r9.64], %r13 ;")));
    // A barrier (other threads' stores) too.
    let mut h = func(&text("BAR.SYNC.DEFER_BLOCKING 0x0 ;"));
    assert_eq!(tex_nodep(&mut h), 0);
}

#[test]
fn a_fetch_does_not_move_above_its_coordinate() {
    let mut f = func(
        ".L_x_0:
         TLD.SCR.LZ RZ, %r10, %r2, 0x0, 0x58, 1D, 0x1 ;
         IADD3 %r3, %r10, 0x1, RZ ;
         TLD.SCR.LZ RZ, %r14, %r3, 0x0, 0x58, 1D, 0x1 ;
         STG.E [%r8.64], %r14 ;
         EXIT ;",
    );
    // The add folds into the second fetch's texel offset (one rewrite),
    // which still reads the first fetch's result (%r10) and stays below it.
    assert_eq!(tex_nodep(&mut f), 1);
    assert_eq!(ops(&f), ["TLD", "MOV", "TLD", "STG", "EXIT"]);
    let second = &f.blocks[0].insts[2];
    assert!(matches!(&second.operands[2], Operand::Reg(r) if r.reg == Reg::V(10)));
    // With the sum read again later there is no fold, and nothing moves.
    let mut g = func(
        ".L_x_0:
         TLD.SCR.LZ RZ, %r10, %r2, 0x0, 0x58, 1D, 0x1 ;
         IADD3 %r3, %r10, 0x1, RZ ;
         TLD.SCR.LZ RZ, %r14, %r3, 0x0, 0x58, 1D, 0x1 ;
         STG.E [%r8.64], %r14 ;
         STG.E [%r8.64+0x4], %r3 ;
         EXIT ;",
    );
    assert_eq!(tex_nodep(&mut g), 0);
}

#[test]
fn physical_registers_after_allocation_work_the_same() {
    // The sm_90 shape after register allocation: the second pair UR6:UR7
    // reloads what UR4:UR5 hold; UR4 is then redefined, so the third fetch
    // keeps its own pair.
    let mut f = func(
        ".L_x_0:
         ULDC UR4, c[0x0][0x210] ;
         UMOV UR5, URZ ;
         TLD.LZ RZ, R10, R2, UR4, 0x0, 1D, 0x1 ;
         ULDC UR6, c[0x0][0x210] ;
         UMOV UR7, URZ ;
         TLD.LZ RZ, R12, R3, UR6, 0x0, 1D, 0x1 ;
         ULDC UR4, c[0x0][0x218] ;
         ULDC UR8, c[0x0][0x210] ;
         UMOV UR9, URZ ;
         TLD.LZ RZ, R14, R3, UR8, 0x0, 1D, 0x1 ;
         FADD R16, R10, R12 ;
         FADD R16, R16, R14 ;
         STG.E [R8.64], R16 ;
         STG.E [R8.64+0x4], UR4 ;
         EXIT ;",
    );
    let n = tex_nodep(&mut f);
    let fetches: Vec<Reg> = f
        .insts()
        .filter(|i| is_fetch(i))
        .map(|i| match &i.operands[3] {
            Operand::Reg(r) => r.reg,
            o => panic!("{o:?}"),
        })
        .collect();
    assert_eq!(fetches, [Reg::Ur(4), Reg::Ur(4), Reg::Ur(8)]);
    // One shared pair; the second fetch clusters up to the first.
    assert_eq!(n, 2);
    crate::ir::verify(&f, None).unwrap();
}

/// The instruction with opcode `op` (the first one).
fn find(f: &Function, op: Op) -> Inst {
    f.insts().find(|i| i.op == op).unwrap().clone()
}

/// A 1D fetch at `x + imm` after `prefix`; `x` (%r1) stays live.
fn offset_kernel(prefix: &str, imm: &str, between: &str) -> String {
    format!(
        ".L_x_0:
         {prefix}IADD3 %r6, %r1, {imm}, RZ ;
         {between}
         TLD.SCR.LZ RZ, %r80, %r6, 0x0, 0x58, 1D, 0x1 ;
         STG.E [%r8.64], %r80 ;
         STG.E [%r8.64+0x4], %r1 ;
         EXIT ;"
    )
}

#[test]
fn an_add_immediate_coordinate_folds_into_texel_offsets() {
    for (imm, packed) in [("-0x3", 0xd), ("0x1", 0x1), ("0x7", 0x7), ("-0x8", 0x8)] {
        let mut f = func(&offset_kernel("", imm, ""));
        assert_eq!(tex_nodep(&mut f), 1, "{imm}");
        assert_eq!(ops(&f), ["MOV", "TLD", "STG", "STG", "EXIT"]);
        // `c` now holds the packed offset; the fetch reads x and it.
        let mov = find(&f, Op::MOV);
        assert_eq!(mov.operands[1], Operand::Imm(packed), "{imm}");
        let t = find(&f, Op::TLD);
        assert!(t.has_mod("AOFFI"));
        assert!(matches!(&t.operands[2], Operand::Reg(r) if r.reg == Reg::V(1)));
        assert!(matches!(&t.operands[3], Operand::Reg(r) if r.reg == Reg::V(6)));
        crate::ir::verify(&f, None).unwrap();
    }
    // A 32-bit immediate spelled unsigned (-3) folds alike.
    let mut f = func(&offset_kernel("", "0xfffffffd", ""));
    assert_eq!(tex_nodep(&mut f), 1);
    assert_eq!(find(&f, Op::MOV).operands[1], Operand::Imm(0xd));
}

#[test]
fn texel_offsets_refuse_what_they_cannot_prove() {
    let refuses = |text: &str| {
        let mut f = func(text);
        let before = f.clone();
        tex_nodep(&mut f);
        assert!(!f.insts().any(|i| i.has_mod("AOFFI")), "folded:\n{text}");
        assert_eq!(f, before, "changed:\n{text}");
    };
    // Out of the signed 4-bit range.
    refuses(&offset_kernel("", "0x8", ""));
    refuses(&offset_kernel("", "-0x9", ""));
    // x redefined between the add and the fetch.
    refuses(&offset_kernel("", "0x1", "IADD3 %r1, %r1, 0x2, RZ ;"));
    // c read by something else between.
    refuses(&offset_kernel("", "0x1", "STG.E [%r8.64+0x8], %r6 ;"));
    // A guarded add (the old c survives where P0 is false).
    refuses(
        ".L_x_0:
         MOV %r6, %r2 ;
         @P0 IADD3 %r6, %r1, 0x1, RZ ;
         TLD.SCR.LZ RZ, %r80, %r6, 0x0, 0x58, 1D, 0x1 ;
         STG.E [%r8.64], %r80 ;
         STG.E [%r8.64+0x4], %r1 ;
         EXIT ;",
    );
    // c still live after the fetch.
    refuses(
        ".L_x_0:
         IADD3 %r6, %r1, 0x1, RZ ;
         TLD.SCR.LZ RZ, %r80, %r6, 0x0, 0x58, 1D, 0x1 ;
         STG.E [%r8.64], %r80 ;
         STG.E [%r8.64+0x4], %r6 ;
         EXIT ;",
    );
    // A carry out, or a register + register add.
    refuses(
        ".L_x_0:
         IADD3 %r6, P1, %r1, 0x1, RZ ;
         TLD.SCR.LZ RZ, %r80, %r6, 0x0, 0x58, 1D, 0x1 ;
         STG.E [%r8.64], %r80 ;
         EXIT ;",
    );
    refuses(
        ".L_x_0:
         IADD3 %r6, %r1, %r2, RZ ;
         TLD.SCR.LZ RZ, %r80, %r6, 0x0, 0x58, 1D, 0x1 ;
         STG.E [%r8.64], %r80 ;
         EXIT ;",
    );
    // The add in another block.
    refuses(
        ".L_x_0:
         IADD3 %r6, %r1, 0x1, RZ ;
        .L_x_1:
         TLD.SCR.LZ RZ, %r80, %r6, 0x0, 0x58, 1D, 0x1 ;
         STG.E [%r8.64], %r80 ;
         EXIT ;",
    );
}

#[test]
fn a_consecutive_pair_of_adds_folds_a_two_d_fetch() {
    let text = |src: &str| {
        format!(
            ".L_x_0:
             IADD3 R4, R2, -0x1, RZ ;
             IADD3 R5, {src}, 0x2, RZ ;
             TLD.LZ RZ, R8, R4, UR4, 0x0, 2D, 0x1 ;
             STG.E [R10.64], R8 ;
             STG.E [R10.64+0x4], R2 ;
             STG.E [R10.64+0x8], R3 ;
             STG.E [R10.64+0xc], R7 ;
             EXIT ;"
        )
    };
    let mut f = func(&text("R3"));
    assert_eq!(tex_nodep(&mut f), 1);
    // y's add is gone, x's became the packed offsets (-1, +2).
    assert_eq!(ops(&f), ["MOV", "TLD", "STG", "STG", "STG", "STG", "EXIT"]);
    assert_eq!(find(&f, Op::MOV).operands[1], Operand::Imm(0x2f));
    let t = find(&f, Op::TLD);
    assert!(matches!(&t.operands[2], Operand::Reg(r) if r.reg == Reg::R(2)));
    assert!(matches!(&t.operands[3], Operand::Reg(r) if r.reg == Reg::R(4)));
    crate::ir::verify(&f, None).unwrap();
    // The sources are no consecutive pair: no fold.
    let mut g = func(&text("R7"));
    assert_eq!(tex_nodep(&mut g), 0);
}

#[test]
fn a_fetch_that_overwrites_its_coordinate_still_folds() {
    // The sm_90 shape: the fetch's result lands in the coordinate register
    // (read afterwards: the fetch's value, not the sum).
    let mut f = func(
        ".L_x_0:
         IADD3 R12, R2, 0x1, RZ ;
         TLD.LZ R20, R12, R12, UR4, 0x0, 1D, 0xf ;
         STG.E [R10.64], R12 ;
         STG.E [R10.64+0x4], R2 ;
         EXIT ;",
    );
    assert_eq!(tex_nodep(&mut f), 1);
    let t = find(&f, Op::TLD);
    assert!(matches!(&t.operands[2], Operand::Reg(r) if r.reg == Reg::R(2)));
    assert!(matches!(&t.operands[3], Operand::Reg(r) if r.reg == Reg::R(12)));
    assert!(matches!(&t.operands[4], Operand::Reg(r) if r.reg == Reg::Ur(4)));
    crate::ir::verify(&f, None).unwrap();
}
