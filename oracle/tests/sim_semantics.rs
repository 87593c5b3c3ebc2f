//! Semantics of the SM simulator on small hand-written SASS kernels. Each
//! expected value is computed independently: host arithmetic, or a hand
//! derivation in the comment next to it.
//!
//! Harness: a kernel gets `out` (u32, 64 per thread) and `inp` (u32, one per
//! thread) and starts with a prologue that leaves `tid` in R0, `&out[64 *
//! tid]` in R2:R3 and `inp[tid]` in R6. Body lines may define labels
//! (`name:`) and use them as `%name` (the label's address in hex).

#![allow(clippy::needless_range_loop)]

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, RunLimits, RunResult, UbKind};
use oracle::sim::{self, SimInputs};
use std::collections::HashMap;

const PROLOGUE: [&str; 8] = [
    "S2R R0, SR_TID.X",
    "IMAD.SHL.U32 R1, R0, 0x40, RZ",
    "IMAD.MOV.U32 R2, RZ, RZ, c[0x0][0x160]",
    "IMAD.MOV.U32 R3, RZ, RZ, c[0x0][0x164]",
    "IMAD.WIDE.U32 R2, R1, 0x4, R2",
    "IMAD.MOV.U32 R4, RZ, RZ, c[0x0][0x168]",
    "IMAD.MOV.U32 R5, RZ, RZ, c[0x0][0x16c]",
    "IMAD.WIDE.U32 R4, R0, 0x4, R4",
];

/// The listing text of prologue + `LDG.E R6, [R4.64]` + body.
fn listing(body: &[&str], arch: &str) -> String {
    let mut lines: Vec<String> = PROLOGUE.iter().map(|s| s.to_string()).collect();
    lines.push("LDG.E R6, [R4.64]".into());
    let mut labels = HashMap::new();
    for l in body {
        if let Some(name) = l.strip_suffix(':') {
            labels.insert(name.to_string(), lines.len());
        } else {
            lines.push(l.to_string());
        }
    }
    let mut out = format!("\n\tcode for {arch}\n\t\tFunction : k\n");
    for (i, l) in lines.iter().enumerate() {
        let mut l = l.clone();
        let mut names: Vec<&String> = labels.keys().collect();
        names.sort_by_key(|n| std::cmp::Reverse(n.len()));
        for n in names {
            l = l.replace(&format!("%{n}"), &format!("{:#x}", labels[n] * 16));
        }
        out.push_str(&format!(
            "        /*{:04x}*/                   {l} ;\n",
            i * 16
        ));
    }
    out
}

fn spec(threads: u32, inp: &[u32]) -> LaunchSpec {
    let vals: Vec<String> = (0..threads as usize)
        .map(|i| inp.get(i).copied().unwrap_or(0).to_string())
        .collect();
    LaunchSpec::from_json_str(
        &format!(
            r#"{{"kernel": "k", "grid": [1], "block": [{threads}],
              "params": [{{"buffer": "out"}}, {{"buffer": "inp"}}],
              "buffers": {{"out": {{"type": "u32", "len": {}, "init": "zeros"}},
                           "inp": {{"type": "u32", "len": {threads}, "init": {{"values": [{}]}}}}}}}}"#,
            64 * threads,
            vals.join(", ")
        ),
        "",
    )
    .unwrap()
}

fn run_with(body: &[&str], threads: u32, inp: &[u32], inputs: &SimInputs) -> RunResult {
    let text = listing(body, "sm_80");
    let sm = ptxc::targets::lookup_sm("sm_80").unwrap();
    let file = ptxc::ir::sass_text::parse_file(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let f = ptxc::ir::from_sass(&file.functions[0], Some(sm)).unwrap_or_else(|e| panic!("{e}"));
    let limits = RunLimits {
        fuel: 1_000_000,
        ..RunLimits::default()
    };
    sim::run(&f, sm, &spec(threads, inp), inputs, &limits).unwrap()
}

/// Runs and returns `out[64 * tid + k]` per thread.
fn run(body: &[&str], threads: u32, inp: &[u32]) -> Vec<Vec<u32>> {
    let r = run_with(body, threads, inp, &SimInputs::default());
    assert_eq!(r.outcome, Outcome::Completed, "{:?}", r.outcome);
    let out = &r.outputs.get("out").unwrap().bits;
    (0..threads as usize)
        .map(|t| out[64 * t..64 * t + 64].iter().map(|&x| x as u32).collect())
        .collect()
}

#[test]
fn iadd3_carry_chains() {
    let inp = [0, 1, 5, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff];
    let o = run(
        &[
            // 64-bit inp + 1
            "IADD3 R8, P0, R6, 0x1, RZ",
            "IADD3.X R9, RZ, RZ, RZ, P0, !PT",
            // 64-bit 0 - inp: the carry is NOT borrow
            "IADD3 R10, P1, RZ, -R6, RZ",
            "IADD3.X R11, RZ, ~RZ, RZ, P1, !PT",
            // 3 * inp with two carry-outs, consumed by one IADD3.X
            "IADD3 R12, P2, P3, R6, R6, R6",
            "IADD3.X R13, RZ, RZ, RZ, P2, P3",
            "STG.E.64 [R2.64], R8",
            "STG.E.64 [R2.64+0x8], R10",
            "STG.E.64 [R2.64+0x10], R12",
            "EXIT",
        ],
        6,
        &inp,
    );
    for (t, &x) in inp.iter().enumerate() {
        let x64 = u64::from(x);
        let add = x64 + 1;
        let neg = 0u64.wrapping_sub(x64);
        let tri = 3 * x64;
        assert_eq!(
            o[t][0..2],
            [add as u32, (add >> 32) as u32],
            "inp+1, {x:#x}"
        );
        assert_eq!(o[t][2..4], [neg as u32, (neg >> 32) as u32], "-inp, {x:#x}");
        assert_eq!(
            o[t][4..6],
            [tri as u32, (tri >> 32) as u32],
            "3*inp, {x:#x}"
        );
    }
}

#[test]
fn shf_clamps_and_wraps() {
    let inp = [0x8000_0001, 0x1234_5678, 0xffff_fff0];
    let o = run(
        &[
            "MOV R7, 0x20",
            "SHF.L.U32 R8, R6, R7, RZ",        // clamp to 32: 0
            "SHF.L.W.U32.HI R9, RZ, 0x24, R6", // wrap 36 & 31 = 4: hi of (R6:0) << 4
            "SHF.R.S32.HI R10, RZ, 0x28, R6",  // clamp 32: sign fill
            "SHF.R.U64 R11, R6, 0x24, R6",     // (R6:R6) >> 36, low word
            "SHF.L.U64.HI R12, R6, 0x40, R6",  // 64-bit shift by 64: 0
            "SHF.R.U32.HI R13, RZ, 0x3, R6",   // logical R6 >> 3
            "STG.E.128 [R2.64], R8",
            "STG.E.64 [R2.64+0x10], R12",
            "EXIT",
        ],
        3,
        &inp,
    );
    for (t, &x) in inp.iter().enumerate() {
        let pair = (u64::from(x) << 32) | u64::from(x);
        assert_eq!(
            o[t][..6],
            [
                0,
                x << 4,
                ((x as i32) >> 31) as u32,
                (pair >> 36) as u32,
                0,
                x >> 3
            ],
            "{x:#x}"
        );
    }
}

#[test]
fn prmt_modes() {
    let inp = [0x8182_0304, 0x11f2_3344];
    let o = run(
        &[
            "MOV R7, 0xa0b0c0d0",
            "PRMT R8, R6, 0x3210, RZ",   // identity
            "PRMT R9, R6, 0x123, RZ",    // bytes reversed
            "PRMT R10, R6, 0x8880, RZ",  // byte 0, then its sign three times
            "PRMT.F4E R11, R6, 0x1, R7", // bytes 1..4 of R7:R6
            "PRMT.RC8 R12, R6, 0x2, R7", // byte 2 replicated
            "PRMT R13, R6, 0x5140, R7",  // b0=R6.b0 b1=R7.b0 b2=R6.b1 b3=R7.b1
            "STG.E.128 [R2.64], R8",
            "STG.E.64 [R2.64+0x10], R12",
            "EXIT",
        ],
        2,
        &inp,
    );
    let b: u32 = 0xa0b0_c0d0;
    for (t, &x) in inp.iter().enumerate() {
        let pair = (u64::from(b) << 32) | u64::from(x);
        let byte = |v: u32, i: u32| (v >> (8 * i)) & 0xff;
        assert_eq!(
            o[t][..6],
            [
                x,
                x.swap_bytes(),
                (x as u8 as i8) as i32 as u32,
                (pair >> 8) as u32,
                byte(x, 2) * 0x0101_0101,
                byte(x, 0) | byte(b, 0) << 8 | byte(x, 1) << 16 | byte(b, 1) << 24,
            ],
            "{x:#x}"
        );
    }
}

#[test]
fn isetp_ex_compares_64_bit_values() {
    // Thread t compares x = (inp[t] : inp[t] ^ 1) against y = (0x5 : 0x80000000)
    // as 64-bit signed and unsigned values (hi : lo).
    let inp = [0, 5, 0x8000_0000, 0xffff_ffff, 4, 6];
    let o = run(
        &[
            "LOP3.LUT R7, R6, 0x1, RZ, 0x3c, !PT", // lo = inp ^ 1
            "MOV R8, 0x80000000",                  // y.lo
            "MOV R9, 0x5",                         // y.hi
            // signed x < y
            "ISETP.LT.U32.AND P0, PT, R7, R8, PT",
            "ISETP.LT.AND.EX P0, PT, R6, R9, PT, P0",
            // unsigned x >= y, and its complement in the second output
            "ISETP.GE.U32.AND P1, PT, R7, R8, PT",
            "ISETP.GE.U32.AND.EX P1, P2, R6, R9, PT, P1",
            // x == y
            "ISETP.EQ.U32.AND P3, PT, R7, R8, PT",
            "ISETP.EQ.AND.EX P3, PT, R6, R9, PT, P3",
            "SEL R10, RZ, 0x1, !P0",
            "SEL R11, RZ, 0x1, !P1",
            "SEL R12, RZ, 0x1, !P2",
            "SEL R13, RZ, 0x1, !P3",
            "STG.E.128 [R2.64], R10",
            "EXIT",
        ],
        6,
        &inp,
    );
    let y: u64 = (5 << 32) | 0x8000_0000;
    for (t, &h) in inp.iter().enumerate() {
        let x = (u64::from(h) << 32) | u64::from(h ^ 1);
        assert_eq!(
            o[t][..4],
            [
                u32::from((x as i64) < (y as i64)),
                u32::from(x >= y),
                u32::from(x < y),
                u32::from(x == y)
            ],
            "x = {x:#x}"
        );
    }
}

#[test]
fn lea_hi_and_imad_hi_signedness() {
    let inp = [0x8000_0000, 0xffff_fffe, 0x7fff_ffff, 3];
    let o = run(
        &[
            "MOV R7, 0x10",
            "LEA.HI R8, R6, R7, RZ, 0x4",   // R7 + (R6 >> 28)
            "LEA.HI.SX32 R9, R6, R7, 0x1c", // R7 + (sext(R6) << 28 >> 32)
            "LEA R10, R6, R7, 0x3",         // (R6 << 3) + R7
            "MOV R12, 0xfffffffd",          // -3
            "IMAD.HI R11, R6, R12, RZ",     // signed high word
            "IMAD.HI.U32 R12, R6, R12, RZ", // unsigned high word
            "IMAD.WIDE R14, R6, R6, RZ",    // signed 64-bit square
            "STG.E.128 [R2.64], R8",
            "STG.E [R2.64+0x10], R12",
            "STG.E.64 [R2.64+0x18], R14",
            "EXIT",
        ],
        4,
        &inp,
    );
    for (t, &x) in inp.iter().enumerate() {
        let sq = i64::from(x as i32) * i64::from(x as i32);
        assert_eq!(
            o[t][..5],
            [
                0x10 + (x >> 28),
                0x10u32.wrapping_add(((x as i32) >> 4) as u32),
                (x << 3).wrapping_add(0x10),
                ((i64::from(x as i32) * -3) >> 32) as u32,
                ((u64::from(x) * 0xffff_fffd) >> 32) as u32,
            ],
            "{x:#x}"
        );
        assert_eq!(o[t][6..8], [sq as u32, (sq as u64 >> 32) as u32], "{x:#x}");
    }
}

#[test]
fn shfl_clamps_segments_and_predicate() {
    let o = run(
        &[
            "SHFL.DOWN P0, R8, R0, 0x1, 0x1f", // lane+1, lane 31 keeps its own
            "SHFL.UP P1, R9, R0, 0x3, RZ",     // lane-3, lanes 0..2 keep their own
            "SHFL.BFLY PT, R10, R0, 0x4, 0x181f", // xor 4 within 8-lane segments
            "SHFL.IDX PT, R11, R0, 0x2, 0x181f", // lane 2 of the segment
            "SEL R12, RZ, 0x1, !P0",
            "SEL R13, RZ, 0x1, !P1",
            "STG.E.128 [R2.64], R8",
            "STG.E.64 [R2.64+0x10], R12",
            "EXIT",
        ],
        32,
        &[],
    );
    for l in 0..32u32 {
        let t = l as usize;
        let down = if l < 31 { l + 1 } else { l };
        let up = if l >= 3 { l - 3 } else { l };
        assert_eq!(
            o[t][..6],
            [
                down,
                up,
                l ^ 4,
                (l & 0x18) | 2,
                u32::from(l < 31),
                u32::from(l >= 3)
            ],
            "lane {l}"
        );
    }
}

#[test]
fn shfl_from_a_lane_that_is_not_executing_is_a_sync_error() {
    // Lanes < 5 branch away; the rest read lane 1 (one of the absent ones)
    // before the two groups reconverge: the lanes did not converge.
    let body = [
        "LOP3.LUT R7, R0, 0x1f, RZ, 0xc0, !PT",
        "ISETP.LT.U32.AND P0, PT, R7, 0x5, PT",
        "BSSY B0, %join",
        "@P0 BRA %taken",
        "SHFL.IDX PT, R8, R0, 0x1, 0x1f",
        "BRA %join_sync",
        "taken:",
        "join_sync:",
        "BSYNC B0",
        "join:",
        "STG.E [R2.64], R8",
        "EXIT",
    ];
    let r = run_with(&body, 32, &[], &SimInputs::default());
    let Outcome::Ub { kind, .. } = &r.outcome else {
        panic!("{:?}", r.outcome);
    };
    assert!(
        format!("{kind:?}").contains("reads lane 1, which is not executing"),
        "{kind:?}"
    );
    // After the BSYNC the same SHFL sees the whole warp.
    let mut joined = body.to_vec();
    joined.retain(|l| !l.starts_with("SHFL"));
    let at = joined.iter().position(|l| *l == "join:").unwrap() + 1;
    joined.insert(at, "SHFL.IDX PT, R8, R0, 0x1, 0x1f");
    let o = run(&joined, 32, &[]);
    assert!(o.iter().all(|t| t[0] == 1));
}

#[test]
fn vote_on_partial_and_divergent_masks_and_bssy_reconvergence() {
    // 40 threads: warp 1 has 8 lanes. Lanes < 5 of each warp take the branch.
    let o = run(
        &[
            "VOTE.ANY R8, PT, PT", // whole (partial) warp
            "LOP3.LUT R7, R0, 0x1f, RZ, 0xc0, !PT",
            "ISETP.LT.U32.AND P0, PT, R7, 0x5, PT",
            "BSSY B0, %join",
            "@P0 BRA %taken",
            "VOTE.ANY R9, PT, PT", // the lanes that did not branch
            "BRA %join_sync",
            "taken:",
            "VOTE.ANY R9, PT, PT", // the lanes that branched
            "join_sync:",
            "BSYNC B0",
            "join:",
            "VOTE.ANY R10, PT, PT", // reconverged
            "VOTE.ALL P1, P0",      // false unless every lane branched
            "SEL R11, RZ, 0x1, !P1",
            "STG.E.128 [R2.64], R8",
            "EXIT",
        ],
        40,
        &[],
    );
    for t in 0..40usize {
        let full = if t < 32 { u32::MAX } else { 0xff };
        let lane = t % 32;
        let side = if lane < 5 { 0x1f } else { full & !0x1f };
        assert_eq!(o[t][..4], [full, side, full, 0], "thread {t}");
    }
}

/// ptxas 11.8's recursive `fact` (corpus/regressions/recursion_then_shfl,
/// `-O3`; `R17`/`R2`, which it saves on entry, written first): each
/// activation keeps its callers' `B6` (`BMOV.32.CLEAR R2, B6` ... `BMOV.32
/// B6, R2`) around its own `BSSY B6` region; the `SHFL` after the call has
/// no `WARPSYNC`. Per-lane depths (`n = inp[tid]`, 0..=9): lanes of every
/// activation wait at, or reach together, the one `BSYNC B6` while `B6`
/// holds one activation's lanes. Only that activation may leave
/// (exec/control.rs), so every lane is back before the `SHFL`, which reads
/// lane 3's `fact(4) = 24` (a sync error if lane 3 were not executing).
#[test]
fn bsync_releases_only_its_participants_across_recursive_activations() {
    let fact = |n: u32| (1..=n.max(1)).product::<u32>();
    let inp: Vec<u32> = (0..32).map(|t| (t * 7 + 3) % 10).collect();
    let o = run(
        &[
            "IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]",
            "MOV R17, RZ",
            "MOV R4, R6",
            "MOV R20, %back",
            "MOV R21, RZ",
            "CALL.REL.NOINC %fact",
            "back:",
            "SHFL.IDX PT, R8, R4, 0x3, 0x1f",
            "MOV R9, R4",
            "STG.E.64 [R2.64], R8",
            "EXIT",
            "fact:",
            "IADD3 R1, R1, -0x10, RZ",
            "STL [R1+0xc], R21",
            "STL [R1+0x8], R20",
            "STL [R1+0x4], R17",
            "STL [R1], R2",
            "MOV R17, R4",
            "BMOV.32.CLEAR R2, B6",
            "ISETP.GT.AND P0, PT, R17, 0x1, PT",
            "BSSY B6, %done",
            "@!P0 BRA %base",
            "IADD3 R4, R17, -0x1, RZ",
            "MOV R21, RZ",
            "MOV R20, %inner",
            "CALL.REL.NOINC %fact",
            "inner:",
            "IMAD R4, R4, R17, RZ",
            "BRA %sync",
            "base:",
            "MOV R4, 0x1",
            "sync:",
            "BSYNC B6",
            "done:",
            "LDL R20, [R1+0x8]",
            "BMOV.32 B6, R2",
            "LDL R21, [R1+0xc]",
            "LDL R17, [R1+0x4]",
            "LDL R2, [R1]",
            "IADD3 R1, R1, 0x10, RZ",
            "RET.REL.NODEC R20 0x0",
        ],
        32,
        &inp,
    );
    for t in 0..32usize {
        assert_eq!(o[t][..2], [fact(inp[3]), fact(inp[t])], "thread {t}");
    }
}

/// Both arms of a divergent `if` open a `BSSY B0` region around a call
/// (ptxc's call bracket, lower/call.rs). The simulator runs the lowest pc
/// first, so the upper arm's `CALL` lets the lower arm's `BSSY B0` run
/// before the upper arm's `BSYNC B0` (as in ptxc's listing of the
/// `corpus/arch_matrix` seeds). `BSSY` adds its lanes, so the first arm stays
/// a member and both arms leave `B0` together (exec/control.rs); had it
/// replaced the mask, the first arm would wait at `BSYNC B0` forever. The
/// outer `B1` region then reconverges the warp: the vote sees all 32 lanes.
#[test]
fn sibling_bssy_regions_on_one_barrier_interleaved_at_a_call_complete() {
    let o = run(
        &[
            "ISETP.LT.U32.AND P0, PT, R0, 0x10, PT",
            "BSSY B1, %join",
            "@P0 BRA %low",
            "BSSY B0, %ret_high",
            "MOV R20, %ret_high",
            "MOV R21, RZ",
            "CALL.REL.NOINC %f",
            "ret_high:",
            "BSYNC B0",
            "IADD3 R8, R4, 0x100, RZ",
            "BRA %join_sync",
            "low:",
            "BSSY B0, %ret_low",
            "MOV R20, %ret_low",
            "MOV R21, RZ",
            "CALL.REL.NOINC %f",
            "ret_low:",
            "BSYNC B0",
            "IADD3 R8, R4, 0x200, RZ",
            "join_sync:",
            "BSYNC B1",
            "join:",
            "VOTE.ANY R9, PT, PT",
            "STG.E.64 [R2.64], R8",
            "EXIT",
            "f:",
            "IMAD R4, R6, 0x3, RZ",
            "RET.REL.NODEC R20 0x0",
        ],
        32,
        &(0..32).map(|t| t + 5).collect::<Vec<u32>>(),
    );
    for t in 0..32u32 {
        let arm = if t < 16 { 0x200 } else { 0x100 };
        assert_eq!(
            o[t as usize][..2],
            [3 * (t + 5) + arm, u32::MAX],
            "thread {t}"
        );
    }
}

/// A lane outside `B0` at `BSYNC B0` waits (exec/control.rs): the upper
/// half reaches `BSYNC B0` after `BMOV.32.CLEAR` emptied `B0` (as an outer
/// recursive activation's lanes do in ptxas's `fact`), while the lower half
/// runs its own `B0` region, whose resolution does not take the upper half
/// along; `BMOV.32 B0, R12` restores the whole warp, and the lower half's
/// arrival at the same `BSYNC B0` releases everyone together: the vote
/// after it sees all 32 lanes. Letting a non-member pass (the rule before
/// 2026-11-27) ran the vote on the upper half alone (`0xffff0000`).
#[test]
fn a_lane_outside_the_barrier_waits_at_bsync_until_a_restored_mask_includes_it() {
    let o = run(
        &[
            "MOV R8, RZ",
            "ISETP.LT.U32.AND P0, PT, R0, 0x10, PT",
            "BSSY B0, %done",
            "BMOV.32.CLEAR R12, B0",
            "@P0 BRA %low",
            "sync:",
            "BSYNC B0",
            "done:",
            "VOTE.ANY R9, PT, PT",
            "MOV R10, R12",
            "MOV R11, RZ",
            "STG.E.128 [R2.64], R8",
            "EXIT",
            "low:",
            "BSSY B0, %inner",
            "ISETP.EQ.U32.AND P1, PT, R0, 0x3, PT",
            "@P1 BRA %skip",
            "IADD3 R8, R0, 0x1, RZ",
            "skip:",
            "BSYNC B0",
            "inner:",
            "BMOV.32 B0, R12",
            "BRA %sync",
        ],
        32,
        &[],
    );
    for t in 0..32u32 {
        let r8 = if t < 16 && t != 3 { t + 1 } else { 0 };
        assert_eq!(o[t as usize][..3], [r8, u32::MAX, u32::MAX], "thread {t}");
    }
}

/// A resolved `BSYNC B0` releases its members from `B0`
/// (exec/control.rs), so a later region on `B0` opened by the lower half
/// alone waits for the lower half only. Had the warp-wide first region
/// left its lanes in `B0`, the lower half would wait at the second
/// `BSYNC B0` for the upper half, which waits at the `WARPSYNC` for the
/// lower half: a deadlock.
#[test]
fn a_resolved_bsync_region_releases_its_members_from_the_barrier() {
    let o = run(
        &[
            "MOV R8, R0",
            "MOV R9, RZ",
            "ISETP.LT.U32.AND P0, PT, R0, 0x10, PT",
            "BSSY B0, %r1",
            "@P0 BRA %first",
            "IADD3 R8, R0, 0x100, RZ",
            "first:",
            "BSYNC B0",
            "r1:",
            "@!P0 BRA %other",
            "BSSY B0, %r2",
            "ISETP.EQ.U32.AND P1, PT, R0, 0x3, PT",
            "@P1 BRA %second",
            "IADD3 R8, R8, 0x10, RZ",
            "second:",
            "BSYNC B0",
            "r2:",
            "VOTE.ANY R9, PT, PT",
            "other:",
            "WARPSYNC 0xffffffff",
            "VOTE.ANY R10, PT, PT",
            "MOV R11, RZ",
            "STG.E.128 [R2.64], R8",
            "EXIT",
        ],
        32,
        &[],
    );
    for t in 0..32u32 {
        let (r8, r9) = match t {
            3 => (3, 0xffff),
            0..=15 => (t + 0x10, 0xffff),
            _ => (t + 0x100, 0),
        };
        assert_eq!(o[t as usize][..3], [r8, r9, u32::MAX], "thread {t}");
    }
}

#[test]
fn bar_sync_across_divergent_paths_and_bar_red_popc() {
    // Threads < 16 and the rest reach different BAR.SYNC instructions of
    // barrier 0; both must have stored before anyone reads.
    let o = run(
        &[
            "IMAD.SHL.U32 R7, R0, 0x4, RZ",
            "IADD3 R8, R0, 0x64, RZ",
            "STS [R7], R8",
            "ISETP.LT.U32.AND P0, PT, R0, 0x10, PT",
            "BSSY B0, %join",
            "@P0 BRA %a",
            "BAR.SYNC 0x0",
            "BRA %sync",
            "a:",
            "NOP",
            "BAR.SYNC 0x0",
            "sync:",
            "BSYNC B0",
            "join:",
            "IADD3 R9, R0, 0x1, RZ",
            "LOP3.LUT R9, R9, 0x3f, RZ, 0xc0, !PT",
            "IMAD.SHL.U32 R9, R9, 0x4, RZ",
            "LDS R10, [R9]",
            "ISETP.LT.U32.AND P1, PT, R0, 0xa, PT",
            "BAR.RED.POPC 0x0, P1",
            "B2R.RESULT R11",
            "STG.E.64 [R2.64], R10",
            "EXIT",
        ],
        64,
        &[],
    );
    for t in 0..64u32 {
        assert_eq!(o[t as usize][..2], [((t + 1) % 64) + 100, 10], "thread {t}");
    }
}

#[test]
fn call_ret_and_brx_through_a_jump_table() {
    // Jump table in bank 2 (function offsets), as ptxas emits for a switch.
    let body = [
        "LOP3.LUT R7, R0, 0x3, RZ, 0xc0, !PT",
        "IMAD.SHL.U32 R7, R7, 0x4, RZ",
        "LDC R8, c[0x2][R7]",
        "BRX R8 -0xd0", // at 0xc0: target = R8 - 0xd0 + 0xd0 = R8
        "case0:",
        "MOV R9, 0xa",
        "BRA %done",
        "case1:",
        "MOV R9, 0xb",
        "BRA %done",
        "case2:",
        "MOV R9, 0xc",
        "BRA %done",
        "case3:",
        "MOV R9, 0xd",
        "done:",
        "MOV R20, %back",
        "CALL.REL.NOINC %fn",
        "back:",
        "STG.E.64 [R2.64], R9",
        "EXIT",
        "fn:",
        "IADD3 R10, R9, 0x100, RZ",
        "MOV R21, 0x0",
        "RET.REL.NODEC R20 0x0",
    ];
    // case labels: instructions after the 9-instruction prologue + 4.
    let case = |k: u32| (9 + 4 + 2 * k) * 16;
    let mut table = Vec::new();
    for k in 0..4 {
        table.extend(case(k).to_le_bytes());
    }
    let mut inputs = SimInputs::default();
    inputs.banks.insert(2, table);
    let r = run_with(&body, 8, &[], &inputs);
    assert_eq!(r.outcome, Outcome::Completed, "{:?}", r.outcome);
    let out = &r.outputs.get("out").unwrap().bits;
    for t in 0..8usize {
        let v = 0xa + (t as u64 % 4);
        assert_eq!(out[64 * t..64 * t + 2], [v, v + 0x100], "thread {t}");
    }
}

#[test]
fn reading_a_never_written_register_is_ub() {
    let r = run_with(
        &["IADD3 R8, R20, 0x1, RZ", "STG.E [R2.64], R8", "EXIT"],
        4,
        &[],
        &SimInputs::default(),
    );
    match r.outcome {
        Outcome::Ub {
            kind: UbKind::UninitializedRegister(reg),
            at,
        } => {
            assert_eq!(reg, "R20");
            assert_eq!(at.tid, [0, 0, 0]);
            assert_eq!(at.instruction, "/*0090*/ IADD3 R8, R20, 0x1, RZ");
        }
        o => panic!("{o:?}"),
    }
    // A predicate too, and only in the lanes that read it.
    let r = run_with(
        &[
            "ISETP.EQ.AND P1, PT, R0, 0x2, PT",
            "@P1 ISETP.EQ.AND P2, PT, R0, 0x2, PT",
            "@P1 SEL R8, RZ, 0x1, P2", // lane 2 wrote P2: fine
            "SEL R8, RZ, 0x1, P2",     // lane 0 did not
            "EXIT",
        ],
        4,
        &[],
        &SimInputs::default(),
    );
    match r.outcome {
        Outcome::Ub {
            kind: UbKind::UninitializedRegister(p),
            at,
        } => assert_eq!((p.as_str(), at.tid), ("P2", [0, 0, 0])),
        o => panic!("{o:?}"),
    }
}

/// A never-written register stored to local memory (ptxas's callee-saved
/// `STL [R1+0x4], R17`) is not an error; loading it back leaves the
/// destination never-written in those lanes, so reading it is (memory.rs).
/// A word written over it, or a store to global memory, behave as before.
#[test]
fn a_never_written_register_travels_through_local_memory() {
    let ub_at = |body: &[&str]| match run_with(body, 4, &[], &SimInputs::default()).outcome {
        Outcome::Ub {
            kind: UbKind::UninitializedRegister(reg),
            at,
        } => (reg, at.tid, at.instruction),
        o => panic!("{o:?}"),
    };
    let saved = [
        "IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]",
        "IADD3 R1, R1, -0x10, RZ",
        // R17 written in lane 2 only; R16 nowhere.
        "ISETP.EQ.AND P0, PT, R0, 0x2, PT",
        "@P0 MOV R17, 0x7",
        "STL.64 [R1], R16",
        "LDL.64 R8, [R1]",
    ];
    // Saved and restored without a use: completes.
    let mut body = saved.to_vec();
    body.extend(["STG.E [R2.64], R0", "EXIT"]);
    let o = run(&body, 4, &[]);
    assert_eq!(o[3][0], 3);
    // Lane 2's R9 is defined; lane 0's is not.
    let mut body = saved.to_vec();
    body.extend(["@P0 STG.E [R2.64], R9", "STG.E [R2.64], R9", "EXIT"]);
    let (reg, tid, inst) = ub_at(&body);
    assert_eq!((reg.as_str(), tid), ("R9", [0, 0, 0]), "{inst}");
    assert!(
        inst.contains("STG.E [R2.64], R9") && !inst.contains('@'),
        "{inst}"
    );
    // A defined word stored over the undefined one is defined again.
    let mut body = saved.to_vec();
    body.extend([
        "STL [R1], R0",
        "LDL R10, [R1]",
        "STG.E [R2.64], R10",
        "EXIT",
    ]);
    assert_eq!(run(&body, 4, &[])[1][0], 1);
    // To global memory the never-written store is the error it was.
    let (reg, _, inst) = ub_at(&["STG.E [R2.64], R16", "EXIT"]);
    assert_eq!(reg, "R16", "{inst}");
}

#[test]
fn misaligned_and_out_of_bounds_accesses() {
    let ub = |body: &[&str]| run_with(body, 2, &[], &SimInputs::default()).outcome;
    match ub(&["LDG.E R8, [R4.64+0x2]", "EXIT"]) {
        Outcome::Ub {
            kind: UbKind::Misaligned { size: 4, address },
            ..
        } => assert_eq!(address % 4, 2),
        o => panic!("{o:?}"),
    }
    match ub(&[
        "MOV R8, 0x0",
        "MOV R9, 0x0",
        "STG.E.64 [R4.64+0x4], R8",
        "EXIT",
    ]) {
        Outcome::Ub {
            kind: UbKind::Misaligned { size: 8, .. },
            ..
        } => {}
        o => panic!("{o:?}"),
    }
    match ub(&["STG.E [R4.64+0x100], R6", "EXIT"]) {
        // inp has 2 elements: 0x100 is in the guard gap
        Outcome::Fault { message, at } => {
            assert!(message.contains("outside every buffer"), "{message}");
            assert_eq!(at.tid, [0, 0, 0]);
        }
        o => panic!("{o:?}"),
    }
    let small = SimInputs {
        static_shared_bytes: Some(64),
        ..SimInputs::default()
    };
    let r = run_with(
        &["LDS R8, [0x3c]", "LDS R9, [0x40]", "EXIT"],
        1,
        &[],
        &small,
    );
    match r.outcome {
        Outcome::Fault { message, at } => {
            assert!(
                message.contains("shared access of 4 bytes at 0x40"),
                "{message}"
            );
            assert!(at.instruction.contains("LDS R9"), "{}", at.instruction);
        }
        o => panic!("{o:?}"),
    }
    match ub(&["LDL R8, [0x80000]", "EXIT"]) {
        Outcome::Fault { message, .. } => assert!(message.contains("local"), "{message}"),
        o => panic!("{o:?}"),
    }
}

#[test]
fn deadlock_timeout_and_missing_bank() {
    // A barrier expecting 64 threads in a 32-thread CTA never completes.
    match run_with(
        &["BAR.SYNC 0x0, 0x40", "EXIT"],
        32,
        &[],
        &SimInputs::default(),
    )
    .outcome
    {
        Outcome::Ub {
            kind: UbKind::Deadlock(m),
            ..
        } => assert!(m.contains("barrier 0"), "{m}"),
        o => panic!("{o:?}"),
    }
    // BSYNC waiting for a lane that waits at a WARPSYNC naming the first.
    match run_with(
        &[
            "ISETP.EQ.AND P0, PT, R0, RZ, PT",
            "BSSY B0, %j",
            "@P0 BRA %s",
            "WARPSYNC 0x1",
            "s:",
            "BSYNC B0",
            "j:",
            "EXIT",
        ],
        2,
        &[],
        &SimInputs::default(),
    )
    .outcome
    {
        Outcome::Ub {
            kind: UbKind::Deadlock(_),
            ..
        } => {}
        o => panic!("{o:?}"),
    }
    match run_with(&["spin:", "BRA %spin"], 4, &[], &SimInputs::default()).outcome {
        Outcome::Timeout { executed } => assert!(executed >= 1_000_000),
        o => panic!("{o:?}"),
    }
    match run_with(
        &["LDC R8, c[0x3][0x0]", "EXIT"],
        1,
        &[],
        &SimInputs::default(),
    )
    .outcome
    {
        Outcome::Fault { message, .. } => {
            assert!(message.contains("bank 3 is missing"), "{message}")
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn opcodes_the_target_lacks_and_unmodelled_forms_fault_when_run() {
    // I2FP exists from sm_86 on; on sm_80 the listing is refused by the IR
    // conversion, so build an IR function for sm_86 and run it on sm_80.
    let text = listing(
        &["I2FP.F32.S32 R8, R6", "STG.E [R2.64], R8", "EXIT"],
        "sm_86",
    );
    let file = ptxc::ir::sass_text::parse_file(&text).unwrap();
    let f = ptxc::ir::from_sass(&file.functions[0], None).unwrap();
    let sm = ptxc::targets::lookup_sm("sm_80").unwrap();
    let r = sim::run(
        &f,
        sm,
        &spec(1, &[7]),
        &SimInputs::default(),
        &RunLimits::default(),
    )
    .unwrap();
    match r.outcome {
        Outcome::Fault { message, at } => {
            assert!(message.contains("does not exist on sm_80"), "{message}");
            assert!(
                at.instruction.starts_with("/*0090*/ I2FP.F32.S32"),
                "{}",
                at.instruction
            );
        }
        o => panic!("{o:?}"),
    }
    // ... and on sm_86 it runs: 7 -> 7.0f
    let sm86 = ptxc::targets::lookup_sm("sm_86").unwrap();
    let r = sim::run(
        &f,
        sm86,
        &spec(1, &[7]),
        &SimInputs::default(),
        &RunLimits::default(),
    )
    .unwrap();
    assert_eq!(r.outcome, Outcome::Completed);
    assert_eq!(
        r.outputs.get("out").unwrap().bits[0],
        u64::from(7.0f32.to_bits())
    );
    // A guarded-off unmodelled instruction is harmless; executed, it faults.
    let o = run_with(
        &["@!PT TXQ R8, R6, 0x0, 0x0", "EXIT"],
        1,
        &[],
        &SimInputs::default(),
    );
    assert_eq!(o.outcome, Outcome::Completed);
}

#[test]
fn a_modifier_the_target_lacks_faults_when_run() {
    // HFMA2 exists on sm_75, `.BF16_V2` only from sm_80 (the opcode
    // table's modifier mark; ptxas 11.8 refuses `.bf16` below sm_80).
    let text = listing(
        &[
            "HFMA2.BF16_V2 R8, -RZ.H0_H0, RZ.H0_H0, -R6",
            "STG.E [R2.64], R8",
            "EXIT",
        ],
        "sm_80",
    );
    let file = ptxc::ir::sass_text::parse_file(&text).unwrap();
    let f = ptxc::ir::from_sass(&file.functions[0], None).unwrap();
    let sm75 = ptxc::targets::lookup_sm("sm_75").unwrap();
    assert!(
        ptxc::ir::from_sass(&file.functions[0], Some(sm75)).is_err(),
        "the SASS reader refuses it for sm_75 too"
    );
    let run = |sm| {
        sim::run(
            &f,
            sm,
            &spec(1, &[0x3f80_0007]),
            &SimInputs::default(),
            &RunLimits::default(),
        )
        .unwrap()
    };
    match run(sm75).outcome {
        Outcome::Fault { message, at } => {
            assert_eq!(
                message,
                "HFMA2.BF16_V2 does not exist on sm_75 (from sm_80)"
            );
            assert!(
                at.instruction.contains("HFMA2.BF16_V2"),
                "{}",
                at.instruction
            );
        }
        o => panic!("{o:?}"),
    }
    // On sm_80 it runs: both bf16 halves negated (1.0 and a subnormal).
    let r = run(ptxc::targets::lookup_sm("sm_80").unwrap());
    assert_eq!(r.outcome, Outcome::Completed);
    assert_eq!(r.outputs.get("out").unwrap().bits[0], 0xbf80_8007);
}

#[test]
fn virtual_registers_and_labels_of_the_compilers_ir() {
    // The IR before register allocation: %r registers, pairs included.
    let text = "\n\tcode for sm_80\n\t\tFunction : k\n\
        .L_x_0:\n\
        /*0000*/ S2R %r0, SR_TID.X ;\n\
        /*0010*/ IMAD.MOV.U32 %r10, RZ, RZ, c[0x0][0x160] ;\n\
        /*0020*/ IMAD.MOV.U32 %r11, RZ, RZ, c[0x0][0x164] ;\n\
        /*0030*/ IMAD.SHL.U32 %r1, %r0, 0x100, RZ ;\n\
        /*0040*/ IMAD.WIDE.U32 %r10, %r1, 0x1, %r10 ;\n\
        /*0050*/ ISETP.GE.U32.AND %p0, PT, %r0, 0x2, PT ;\n\
        /*0060*/ @%p0 BRA .L_x_1 ;\n\
        .L_x_2:\n\
        /*0070*/ IADD3 %r2, %r0, 0x7, RZ ;\n\
        /*0080*/ STG.E [%r10.64], %r2 ;\n\
        /*0090*/ EXIT ;\n\
        .L_x_1:\n\
        /*00a0*/ IADD3 %r2, %r0, 0x9, RZ ;\n\
        /*00b0*/ STG.E [%r10.64], %r2 ;\n\
        /*00c0*/ EXIT ;\n";
    let file = ptxc::ir::sass_text::parse_file(text).unwrap();
    let f = ptxc::ir::from_sass(&file.functions[0], None).unwrap();
    let sm = ptxc::targets::lookup_sm("sm_80").unwrap();
    let r = sim::run(
        &f,
        sm,
        &spec(4, &[]),
        &SimInputs::default(),
        &RunLimits::default(),
    )
    .unwrap();
    assert_eq!(r.outcome, Outcome::Completed, "{:?}", r.outcome);
    let out = &r.outputs.get("out").unwrap().bits;
    for t in 0..4usize {
        assert_eq!(
            out[64 * t],
            if t < 2 { t + 7 } else { t + 9 } as u64,
            "thread {t}"
        );
    }
}

#[test]
fn float_ops_and_fsel_sign_modifiers() {
    let inp = [0x3fc0_0000, 0xbf80_0000, 0x7f80_0000, 0x0000_0001]; // 1.5, -1, +inf, min subnormal
    let o = run(
        &[
            "FADD R8, R6, 0.5",
            "FMUL R9, R6, R6",
            "FFMA R10, R6, 2, -R6", // 2x - x = x (inf: NaN)
            "FSEL R11, -R6, |R6|, PT",
            "FMNMX R12, R6, RZ, PT", // min(x, +0)
            "FSETP.GT.AND P0, PT, R6, RZ, PT",
            "SEL R13, RZ, 0x1, !P0",
            "F2I.TRUNC.NTZ R14, R6",
            "I2F R15, R14",
            "STG.E.128 [R2.64], R8",
            "STG.E.128 [R2.64+0x10], R12",
            "EXIT",
        ],
        4,
        &inp,
    );
    for (t, &x) in inp.iter().enumerate() {
        let f = f32::from_bits(x);
        let nan_or = |v: f32| if v.is_nan() { 0x7fff_ffff } else { v.to_bits() };
        assert_eq!(o[t][0], nan_or(f + 0.5), "{f}");
        assert_eq!(o[t][1], nan_or(f * f), "{f}");
        assert_eq!(o[t][2], nan_or(f.mul_add(2.0, -f)), "{f}");
        assert_eq!(o[t][3], x ^ 0x8000_0000, "{f}");
        assert_eq!(o[t][4], if f < 0.0 { x } else { 0 }, "{f}");
        assert_eq!(o[t][5], u32::from(f > 0.0), "{f}");
        let i = if f.is_infinite() { i32::MAX } else { f as i32 };
        assert_eq!(o[t][6], i as u32, "{f}");
        assert_eq!(o[t][7], (i as f32).to_bits(), "{f}");
    }
}

/// Module `.global` variables: placed after the buffers, reached through
/// relocated `MOV` immediates (vendor SASS) or bank 4 (the compiler's IR),
/// initialised from `init`, writable, and faulting past their end.
#[test]
fn module_globals_relocations_and_bank_4() {
    use oracle::sim::reloc::{Reloc, RelocKind};
    use ptxc::targets::abi::GlobalVar;
    // The body starts after the prologue and the LDG: instruction 9.
    let at = |i: u32| 16 * (9 + i);
    let reloc = |i: u32, symbol: &str, kind| Reloc {
        function: Some("k".into()),
        offset: at(i),
        symbol: symbol.into(),
        kind,
        addend: None,
    };
    let inputs = SimInputs {
        globals: vec![
            GlobalVar {
                name: "t".into(),
                size: 12,
                align: 4,
                init: vec![1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0],
            },
            GlobalVar {
                name: "z".into(),
                size: 8,
                align: 8,
                init: vec![],
            },
        ],
        relocs: vec![
            reloc(0, "t", RelocKind::Abs32Lo32),
            reloc(1, "t", RelocKind::Abs32Hi32),
            // REL: the immediate already there (8) is the addend.
            reloc(2, "t", RelocKind::Abs32Lo32),
        ],
        ..SimInputs::default()
    };
    let body = [
        "MOV R8, 0x0",
        "MOV R9, 0x0",
        "IADD3 R16, R6, 0x8, RZ",
        "LDG.E R10, [R8.64+0x4]",
        "STG.E [R2.64], R10",
        "STG.E.64 [R2.64+0x8], R8",
        "LDC.64 R12, c[0x4][0x0]",
        "STG.E.64 [R2.64+0x10], R12",
        "LDC.64 R14, c[0x4][0x8]",
        "STG.E.64 [R2.64+0x18], R14",
        "STG.E [R2.64+0x20], R16",
        // z: zero-initialised, then written and read back.
        "LDG.E R17, [R14.64]",
        "STG.E [R2.64+0x24], R17",
        "STG.E [R14.64+0x4], R10",
        "LDG.E R18, [R14.64+0x4]",
        "STG.E [R2.64+0x28], R18",
        "EXIT",
    ];
    let r = run_with(&body, 1, &[0x100], &inputs);
    assert_eq!(r.outcome, Outcome::Completed, "{:?}", r.outcome);
    let out: Vec<u32> = r.outputs.get("out").unwrap().bits[..11]
        .iter()
        .map(|&x| x as u32)
        .collect();
    let t = u64::from(out[2]) | u64::from(out[3]) << 32;
    let z = u64::from(out[6]) | u64::from(out[7]) << 32;
    assert_eq!(out[0], 2, "t[1]");
    // Bank 4 agrees with the relocated address.
    assert_eq!(u64::from(out[4]) | u64::from(out[5]) << 32, t);
    // After the buffers (out: 256 bytes at 0x10000000, inp after its gap),
    // 256-aligned, each variable followed by a guard gap.
    assert!(t > 0x1000_0200 && t % 256 == 0, "{t:#x}");
    assert!(z >= t + 12 + 256 && z % 256 == 0, "{z:#x}");
    assert_eq!(out[8], 0x100 + (t as u32 + 8), "REL addend");
    assert_eq!(out[9], 0, "z starts at zero");
    assert_eq!(out[10], 2, "z[1] written and read back");
    // Past the variable's end: a fault, like a buffer's guard gap.
    let oob = [
        "MOV R8, 0x0",
        "MOV R9, 0x0",
        "LDG.E R10, [R8.64+0xc]",
        "EXIT",
    ];
    let two = SimInputs {
        relocs: inputs.relocs[..2].to_vec(),
        ..inputs.clone()
    };
    let r = run_with(&oob, 1, &[0], &two);
    match r.outcome {
        Outcome::Fault { message, .. } => {
            assert!(message.contains("outside every buffer"), "{message}")
        }
        o => panic!("{o:?}"),
    }
    // A relocation on an instruction without an immediate is refused.
    let bad = SimInputs {
        relocs: vec![reloc(0, "t", RelocKind::Abs32Lo32)],
        ..inputs.clone()
    };
    let text = ["EXIT"];
    let sm = ptxc::targets::lookup_sm("sm_80").unwrap();
    let l = listing(&text, "sm_80");
    let file = ptxc::ir::sass_text::parse_file(&l).unwrap();
    let f = ptxc::ir::from_sass(&file.functions[0], Some(sm)).unwrap();
    let e = sim::run(&f, sm, &spec(1, &[0]), &bad, &RunLimits::default()).unwrap_err();
    assert!(
        e.to_string()
            .contains("EXIT has no 32-bit immediate operand"),
        "{e}"
    );
    // Bank 4 belongs to the variables.
    let mut clash = inputs.clone();
    clash.banks.insert(4, vec![0; 8]);
    let e = sim::run(&f, sm, &spec(1, &[0]), &clash, &RunLimits::default()).unwrap_err();
    assert!(e.to_string().contains("bank 4"), "{e}");
}

#[test]
fn float_glue_decisions() {
    // The decisions of `sim/exec/float.rs` where the two former float
    // implementations had to be reconciled (see its module comment).
    let o = run(
        &[
            // HFMA2's trailing immediates are (high, low): the vendor idiom.
            "HFMA2.MMA R8, -RZ, RZ, 0, 4.76837158203125e-07",
            "HFMA2.MMA R9, -RZ, RZ, 1.875, 0",
            // F2I on NaN: .NTZ gives 0, otherwise 1 << (N-1).
            "MOV R7, 0x7fc00000",
            "F2I.TRUNC.NTZ R10, R7",
            "F2I.U32 R11, R7",
            "F2I.S64 R12, R7",
            // FCHK: a zero dividend takes the slow path (semantics::fchk).
            "MOV R14, 0x40400000",
            "FCHK P0, RZ, R14",
            "SEL R14, RZ, 0x1, !P0",
            // HSETP2: P from the low halves, Q from the high halves.
            "MOV R15, 0x3c00bc00",
            "HSETP2.GT.AND P1, P2, R15, RZ, PT",
            "SEL R15, RZ, 0x1, !P1",
            "SEL R16, RZ, 0x1, !P2",
            // F2FP.PACK_AB without a type: f16, a to the high half.
            "MOV R17, 0x3f800000",
            "F2FP.PACK_AB R17, R17, RZ",
            // A NaN operand passes DADD without its |.| modifier, quieted
            // (CUDA guide: f64 abs/neg pass NaNs through unchanged, and
            // ptxas lowers abs.f64 to exactly this DADD).
            "MOV R18, 0x0",
            "MOV R19, 0xfff40000",
            "DADD R20, -RZ, |R18|",
            // -x on a NaN through FSEL keeps the payload.
            "FSEL R22, -R7, RZ, PT",
            "STG.E.128 [R2.64], R8",
            "STG.E.128 [R2.64+0x10], R12",
            "STG.E.128 [R2.64+0x20], R16",
            "STG.E.64 [R2.64+0x30], R20",
            "STG.E [R2.64+0x38], R22",
            "EXIT",
        ],
        1,
        &[0],
    );
    let o = &o[0];
    assert_eq!(o[0], 8);
    assert_eq!(o[1], 0x3f80_0000);
    assert_eq!(o[2], 0);
    assert_eq!(o[3], 0x8000_0000);
    assert_eq!(o[4..6], [0, 0x8000_0000]);
    assert_eq!(o[6], 1, "FCHK(0, 3.0)");
    assert_eq!(o[7..9], [0, 1], "HSETP2 P (low), Q (high)");
    assert_eq!(o[9], 0x3c00_0000);
    assert_eq!(o[12..14], [0, 0xfffc_0000]);
    assert_eq!(o[14], 0xffc0_0000);
}

/// `SR_SWINLO/HI` hold the generic shared window, the bank-0 word ptxc's
/// `cvta.shared` reads (`c[0x0][0x18]`): a shared address plus the window
/// is the generic address of the same byte (ptxas 11.8's sm_90
/// `cvta.shared`; the sm_90 listings run in lower_atom_spin.rs and
/// lower_atom_generic.rs), and the window is aligned, so the low 24 bits of
/// a generic address are the shared address (ptxas's `QSPC` fallbacks).
#[test]
fn the_shared_window_registers_map_generic_to_shared_addresses() {
    let inp = [7, 0x1234_5678];
    let o = run(
        &[
            "S2R R8, SR_SWINLO",
            "S2R R9, SR_SWINHI",
            "IMAD.SHL.U32 R12, R0, 0x4, RZ",
            "STS [R12+0x40], R6",
            "BAR.SYNC 0x0",
            // Generic address of the neighbour's word: window + 0x40 + 4 * (1 - tid).
            "LOP3.LUT R13, R0, 0x1, RZ, 0x3c, !PT",
            "IMAD.SHL.U32 R13, R13, 0x4, RZ",
            "IADD3 R13, R13, 0x40, RZ",
            "IADD3 R10, P0, R8, R13, RZ",
            "IADD3.X R11, R9, RZ, RZ, P0, !PT",
            "LD.E R14, [R10.64]",
            "LOP3.LUT R15, R10, 0xffffff, RZ, 0xc0, !PT",
            "STG.E [R2.64], R14",
            "STG.E [R2.64+0x4], R15",
            "STG.E.64 [R2.64+0x8], R8",
            "MOV R16, c[0x0][0x18]",
            "MOV R17, c[0x0][0x1c]",
            "STG.E.64 [R2.64+0x10], R16",
            "EXIT",
        ],
        2,
        &inp,
    );
    for t in 0..2 {
        assert_eq!(o[t][0], inp[1 - t], "thread {t} reads its neighbour's word");
        assert_eq!(o[t][1], 0x40 + 4 * (1 - t as u32), "low 24 bits");
        assert_eq!(o[t][2..4], o[t][4..6], "SR_SWINLO/HI is c[0x0][0x18]");
        assert_ne!(o[t][2..4], [0, 0]);
    }
}

/// `BRA.CONV ~URZ` is `BRA.DIV ~URZ`'s complement: a group that holds
/// every live lane of the warp branches on `.CONV` and falls through on
/// `.DIV`; a divergent group does the opposite (ptxas 11.8 guards
/// `shfl.sync.idx` with `BRA.CONV ~URZ`; see exec/control.rs).
#[test]
fn bra_conv_branches_a_converged_group_and_bra_div_a_diverged_one() {
    let o = run(
        &[
            "MOV R8, 0x1",
            "MOV R9, 0x1",
            "MOV R10, 0x1",
            "MOV R11, 0x1",
            // Converged: .CONV taken (R8 stays 1), .DIV not (R9 = 2).
            "BRA.CONV ~URZ, %c1",
            "MOV R8, 0x2",
            "c1:",
            "BRA.DIV ~URZ, %d1",
            "MOV R9, 0x2",
            "d1:",
            // Diverged (lanes below 16 apart from the rest): .CONV falls
            // through (R10 = 3), .DIV is taken (R11 stays 1).
            "ISETP.LT.U32.AND P0, PT, R0, 0x10, PT",
            "BSSY B0, %join",
            "@P0 BRA %low",
            "BRA.CONV ~URZ, %c2",
            "MOV R10, 0x3",
            "c2:",
            "BRA.DIV ~URZ, %d2",
            "MOV R11, 0x3",
            "d2:",
            "BRA %done",
            "low:",
            "BRA.CONV ~URZ, %c3",
            "MOV R10, 0x3",
            "c3:",
            "BRA.DIV ~URZ, %d3",
            "MOV R11, 0x3",
            "d3:",
            "done:",
            "BSYNC B0",
            "join:",
            "STG.E.128 [R2.64], R8",
            "EXIT",
        ],
        32,
        &[],
    );
    for t in 0..32 {
        assert_eq!(o[t][..4], [1, 2, 3, 1], "thread {t}");
    }
}

/// A copy of a never-written register is not an error (ptxas copies
/// speculatively: `IMAD.U32 R21, RZ, RZ, UR13` of a value written under a
/// guard, read back only under the same condition; exec/logic.rs `mov`):
/// the copy is never-written where its source was, so a store of it
/// still fails, in the lanes that lacked the value.
#[test]
fn a_copy_passes_a_never_written_value_on() {
    let ub_at = |body: &[&str]| match run_with(body, 4, &[], &SimInputs::default()).outcome {
        Outcome::Ub {
            kind: UbKind::UninitializedRegister(reg),
            at,
        } => (reg, at.tid, at.instruction),
        o => panic!("{o:?}"),
    };
    let copies = [
        // R17 written in lane 2 only.
        "ISETP.EQ.AND P0, PT, R0, 0x2, PT",
        "@P0 MOV R17, 0x7",
        "IMAD.U32 R8, RZ, RZ, R17",
        "IMAD.MOV.U32 R9, RZ, RZ, R17",
        "MOV R10, R9",
        // A negated copy (ptxas's `IMAD.MOV d, RZ, RZ, -a`).
        "IMAD.MOV R11, RZ, RZ, -R10",
    ];
    // Read only where written: completes with the value.
    let mut body = copies.to_vec();
    body.extend([
        "@P0 STG.E.64 [R2.64], R8",
        "@P0 STG.E.64 [R2.64+0x8], R10",
        "EXIT",
    ]);
    let o = run(&body, 4, &[]);
    assert_eq!(o[2][..4], [7, 7, 7, 7u32.wrapping_neg()]);
    assert_eq!(o[1][..4], [0, 0, 0, 0]);
    // The negated copy stored where never written: the error names it.
    let mut body = copies.to_vec();
    body.extend(["STG.E [R2.64], R11", "EXIT"]);
    let (reg, tid, _) = ub_at(&body);
    assert_eq!((reg.as_str(), tid), ("R11", [0, 0, 0]));
    // Stored where it was never written: the error, at the store, lane 0.
    let mut body = copies.to_vec();
    body.extend(["STG.E [R2.64], R10", "EXIT"]);
    let (reg, tid, inst) = ub_at(&body);
    assert_eq!((reg.as_str(), tid), ("R10", [0, 0, 0]));
    assert!(inst.contains("STG.E [R2.64], R10"), "{inst}");
    // A copy over a written register makes it never-written there.
    let (reg, _, inst) = ub_at(&[
        "MOV R11, 0x1",
        "MOV R11, R20",
        "IADD3 R12, R11, 0x1, RZ",
        "EXIT",
    ]);
    assert_eq!(reg, "R11", "{inst}");
    // Arithmetic on a never-written register is still the error it was.
    let (reg, _, inst) = ub_at(&["IMAD R8, R20, 0x2, RZ", "EXIT"]);
    assert_eq!(reg, "R20", "{inst}");
}

/// `ISETP ... AND/OR` on a never-written register: where the combining
/// predicate decides the result (AND with false, OR with true) it is
/// written and exact; elsewhere the results are never-written, so a guard
/// on them fails (exec/int.rs `isetp`; ptxas's `@!P4 LOP3.LUT R18, ...;
/// ISETP.EQ.AND P1, PT, R18, RZ, !P4`).
#[test]
fn a_comparison_the_combining_predicate_decides_needs_no_value() {
    // R18 written where tid == 2 only (P4 false there).
    let setup = [
        "ISETP.NE.AND P4, PT, R0, 0x2, PT",
        "@!P4 MOV R18, RZ",
        "ISETP.EQ.AND P1, P2, R18, RZ, !P4",
        "ISETP.NE.OR P3, PT, R18, RZ, P4",
    ];
    let mut body = setup.to_vec();
    body.extend([
        "SEL R8, RZ, 0x1, !P1",
        "SEL R9, RZ, 0x1, !P2",
        "SEL R10, RZ, 0x1, !P3",
        "STG.E.64 [R2.64], R8",
        "STG.E [R2.64+0x8], R10",
        "EXIT",
    ]);
    let o = run(&body, 4, &[]);
    for t in 0..4 {
        // Lane 2: R18 == 0, so P1 = 1 and P2 = !1 & 1 = 0; P3 = (0 != 0) | 0 = 0.
        // Others: AND with false gives 0 and 0; OR with true gives 1.
        let want = if t == 2 { [1, 0, 0] } else { [0, 0, 1] };
        assert_eq!(o[t][..3], want, "thread {t}");
    }
    // Undecided (AND with true where R18 is missing): the predicate is
    // never-written there, and a guard on it is the error.
    let r = run_with(
        &[
            "ISETP.NE.AND P4, PT, R0, 0x2, PT",
            "@!P4 MOV R18, RZ",
            "ISETP.EQ.AND P1, PT, R18, RZ, PT",
            "@P1 MOV R8, 0x1",
            "EXIT",
        ],
        4,
        &[],
        &SimInputs::default(),
    );
    match r.outcome {
        Outcome::Ub {
            kind: UbKind::UninitializedRegister(p),
            at,
        } => assert_eq!((p.as_str(), at.tid), ("P1", [0, 0, 0])),
        o => panic!("{o:?}"),
    }
}
