//! HoistInvariants: what leaves the loop and what must stay.

use super::*;
use crate::ir::cfg::tests::func;

/// A counted loop (header 1 = body) with a preheader (block 0) and the
/// body text given.
fn looped(body: &str) -> Function {
    func(&format!(
        ".L_x_0:
         MOV %r5, 0x4 ;
         MOV %r20, c[0x0][0x160] ;
         MOV %r21, c[0x0][0x164] ;
         .L_x_1:
         {body}
         IADD3 %r5, %r5, -0x1, RZ ;
         ISETP.NE.AND %p0, PT, %r5, RZ, PT ;
         @%p0 BRA .L_x_1 ;
         .L_x_2:
         EXIT ;"
    ))
}

fn ops(f: &Function, b: usize) -> Vec<&'static str> {
    f.blocks[b].insts.iter().map(|i| i.op.info().name).collect()
}

#[test]
fn invariant_address_math_and_constant_loads_leave_the_loop() {
    let mut f = looped(
        "IMAD.WIDE %r30, %r7, 0x4, %r20 ;
         LDC %r9, c[0x0][0x170] ;
         LDG.E %r10, [%r30.64] ;
         IADD3 %r11, %r10, %r9, RZ ;
         STG.E [%r30.64], %r11 ;",
    );
    assert_eq!(hoist(&mut f), 2);
    assert_eq!(ops(&f, 0), ["MOV", "MOV", "MOV", "IMAD", "LDC"]);
    assert_eq!(ops(&f, 1)[..3], ["LDG", "IADD3", "STG"]);
    crate::ir::verify(&f, None).unwrap();
}

#[test]
fn a_value_read_before_its_definition_in_the_loop_stays() {
    // %r12 is read (from the previous trip or from before the loop) before
    // the invariant-looking IADD3 redefines it: live into the header.
    let mut f = func(
        ".L_x_0:
         MOV %r5, 0x4 ;
         MOV %r12, 0x0 ;
         .L_x_1:
         STG.E [%r30.64], %r12 ;
         IADD3 %r12, %r7, 0x1, RZ ;
         IADD3 %r5, %r5, -0x1, RZ ;
         ISETP.NE.AND %p0, PT, %r5, RZ, PT ;
         @%p0 BRA .L_x_1 ;
         .L_x_2:
         EXIT ;",
    );
    assert_eq!(hoist(&mut f), 0);
}

#[test]
fn a_global_load_never_crosses_a_possibly_aliasing_store() {
    // A GEMM-like loop (four carried FFMAs, loads): LDG.CONSTANT may be
    // hoisted, but not while the loop stores to global memory.
    let gemm = |store: &str| {
        looped(&format!(
            "LDG.E.CONSTANT %r2, [%r20.64] ;
             LDS %r3, [%r6] ;
             FFMA %r40, %r2, %r3, %r40 ;
             FFMA %r40, %r2, %r3, %r40 ;
             FFMA %r40, %r2, %r3, %r40 ;
             FFMA %r40, %r2, %r3, %r40 ;
             {store}"
        ))
    };
    let mut f = gemm("");
    assert_eq!(hoist(&mut f), 1);
    assert_eq!(ops(&f, 0).last(), Some(&"LDG"));
    let mut g = gemm("STG.E [%r22.64], %r40 ;");
    assert_eq!(hoist(&mut g), 0);
    // Outside a GEMM loop no global load is hoisted.
    let mut h = looped("LDG.E.CONSTANT %r2, [%r20.64] ;\nSTS [%r6], %r2 ;");
    assert_eq!(hoist(&mut h), 0);
}

#[test]
fn a_load_under_a_guard_or_branch_stays() {
    // The LDC is guarded; the second sits in a block that not every trip
    // runs (it does not dominate the latch).
    let mut f = func(
        ".L_x_0:
         MOV %r5, 0x4 ;
         .L_x_1:
         ISETP.EQ.AND %p1, PT, %r5, 0x2, PT ;
         @%p1 LDC %r9, c[0x0][%r7] ;
         @!%p1 BRA .L_x_3 ;
         .L_x_2:
         LDC %r10, c[0x0][%r7] ;
         STS [%r6], %r10 ;
         .L_x_3:
         STS [%r6+0x4], %r9 ;
         IADD3 %r5, %r5, -0x1, RZ ;
         ISETP.NE.AND %p0, PT, %r5, RZ, PT ;
         @%p0 BRA .L_x_1 ;
         .L_x_4:
         EXIT ;",
    );
    assert_eq!(hoist(&mut f), 0);
}

#[test]
fn outside_gemm_loops_the_count_is_limited() {
    let body: String = (0..PLAIN_LIMIT + 3)
        .map(|k| {
            format!(
                "IADD3 %r{}, %r7, 0x{k:x}, RZ ;\nSTS [%r6+0x{:x}], %r{} ;\n",
                100 + k,
                4 * k,
                100 + k
            )
        })
        .collect();
    let mut f = looped(&body);
    assert_eq!(hoist(&mut f), PLAIN_LIMIT);
}

#[test]
fn a_loop_with_a_call_is_left_alone() {
    // The callee redefines %r9: the MOV reading it is not invariant, though
    // nothing in the loop's own blocks writes %r9.
    let mut f = func(
        ".L_x_0:
         MOV %r5, 0x4 ;
         .L_x_1:
         CALL.REL.NOINC .L_x_3 ;
         MOV %r10, %r9 ;
         STS [%r6], %r10 ;
         IADD3 %r5, %r5, -0x1, RZ ;
         ISETP.NE.AND %p0, PT, %r5, RZ, PT ;
         @%p0 BRA .L_x_1 ;
         .L_x_2:
         EXIT ;
         .L_x_3:
         IADD3 %r9, %r5, 0x1, RZ ;
         RET.REL.NODEC %r20 0x0 ;",
    );
    assert_eq!(hoist(&mut f), 0);
}

#[test]
fn physical_registers_after_allocation_work_the_same() {
    // R9 is defined once in the loop and not live into the header: hoisted.
    // R12 is read at the loop top before its definition: stays.
    let mut f = func(
        ".L_x_0:
         MOV R5, 0x4 ;
         MOV R12, 0x0 ;
         .L_x_1:
         STS [R6], R12 ;
         LEA R9, R7, R20, 0x2 ;
         IADD3 R12, R7, 0x1, RZ ;
         STS [R9], R5 ;
         IADD3 R5, R5, -0x1, RZ ;
         ISETP.NE.AND P0, PT, R5, RZ, PT ;
         @P0 BRA .L_x_1 ;
         .L_x_2:
         EXIT ;",
    );
    assert_eq!(hoist(&mut f), 1);
    assert_eq!(ops(&f, 0), ["MOV", "MOV", "LEA"]);
}

#[test]
fn address_math_a_trip_may_skip_stays() {
    // The LEA sits in a block not every trip runs: hoisted, it would read
    // %r7 on lanes that never read it (the shared rule 5 of hoist.rs).
    let mut f = func(
        ".L_x_0:
         MOV %r5, 0x4 ;
         .L_x_1:
         ISETP.EQ.AND %p1, PT, %r5, 0x2, PT ;
         @!%p1 BRA .L_x_3 ;
         .L_x_2:
         LEA %r10, %r7, %r20, 0x2 ;
         STS [%r6], %r10 ;
         .L_x_3:
         IADD3 %r5, %r5, -0x1, RZ ;
         ISETP.NE.AND %p0, PT, %r5, RZ, PT ;
         @%p0 BRA .L_x_1 ;
         .L_x_4:
         EXIT ;",
    );
    assert_eq!(hoist(&mut f), 0);
    // The same instruction on the path every trip takes moves.
    let mut g = looped(
        "LEA %r10, %r7, %r20, 0x2 ;
         STS [%r6], %r10 ;",
    );
    assert_eq!(hoist(&mut g), 1);
    assert_eq!(ops(&g, 0).last(), Some(&"LEA"));
}

#[test]
fn r2ur_of_an_invariant_register_stays_in_the_loop() {
    // The texture handle loop (lower/tex.rs): each trip R2UR reads the
    // handle of the first lane still active, the lanes holding it fetch and
    // leave. R7 is invariant, but R2UR reads another lane's value (the
    // opcode table's WARP effect): hoisted, every trip would see the first
    // trip's handle and the loop would never end.
    let mut f = func(
        ".L_x_0:
         MOV R5, 0x4 ;
         .L_x_1:
         R2UR UR4, R7 ;
         ISETP.NE.U32.AND P1, PT, R7, UR4, PT ;
         @!P1 STS [R6], R5 ;
         @P1 BRA .L_x_1 ;
         .L_x_2:
         EXIT ;",
    );
    assert!(Op::R2UR.info().effects.contains(Effects::WARP));
    assert_eq!(hoist(&mut f), 0);
    assert_eq!(ops(&f, 1)[0], "R2UR");
}
