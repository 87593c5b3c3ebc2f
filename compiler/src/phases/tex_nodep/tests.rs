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
         IADD3 %r6, %r1, 0x1, RZ ;
         MOV %r78, %r6 ;
         TLD.SCR.LZ RZ, %r80, %r78, 0x0, 0x58, 1D, 0x1 ;
         STG.E [%r8.64], %r80 ;
         EXIT ;",
    );
    assert_eq!(tex_nodep(&mut f), 1);
    assert_eq!(ops(&f), ["IADD3", "TLD", "STG", "EXIT"]);
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
    assert_eq!(tex_nodep(&mut f), 0);
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
