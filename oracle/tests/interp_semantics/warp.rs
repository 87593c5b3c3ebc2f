//! Warp-synchronous instructions through the scheduler: shfl, vote, match,
//! redux, activemask.

use super::harness::*;

/// Source lane and validity of shfl.sync, transcribed from the ISA pseudo-code:
/// bval = b[4:0], cval = c[4:0], segmask = c[12:8],
/// maxLane = (lane & segmask) | (cval & ~segmask), minLane = lane & segmask;
/// up: j = lane - bval, p = j >= maxLane; down: j = lane + bval, p = j <= maxLane;
/// bfly: j = lane ^ bval, p = j <= maxLane; idx: j = minLane | (bval & ~segmask), p = j <= maxLane;
/// if !p, j = lane.
fn shfl_ref(mode: &str, lane: i64, b: u32, c: u32) -> (usize, bool) {
    let bval = i64::from(b & 31);
    let cval = i64::from(c & 31);
    let seg = i64::from((c >> 8) & 31);
    let max_lane = (lane & seg) | (cval & !seg);
    let min_lane = lane & seg;
    let (j, p) = match mode {
        "up" => (lane - bval, lane - bval >= max_lane),
        "down" => (lane + bval, lane + bval <= max_lane),
        "bfly" => (lane ^ bval, (lane ^ bval) <= max_lane),
        "idx" => {
            let j = min_lane | (bval & !seg);
            (j, j <= max_lane)
        }
        _ => unreachable!(),
    };
    (if p { j as usize } else { lane as usize }, p)
}

/// Value each thread shuffles: v(tid) = tid * 1000 + 7.
fn v(tid: u64) -> u64 {
    tid * 1000 + 7
}

/// Prologue for warp kernels: %v = v(tid), %lane = %laneid, %g = &out[tid].
const WDECL: &str =
    "\t.reg .b32 %v, %lane, %bb, %cc, %d, %pp, %m;\n\t.reg .b64 %g;\n\t.reg .pred %p, %q;";
const WPRO: &str = "\tmad.lo.u32 %v, %tx, 1000, 7;\n\tmov.u32 %lane, %laneid;\n\tmul.wide.u32 %t64, %tx, 8;\n\tadd.s64 %g, %out, %t64;\n";

#[test]
fn shfl_sync_all_modes_and_widths() {
    let _c = rows_of("shfl_sync_all_modes_and_widths");
    let mut errs = Vec::new();
    // (mode, b as PTX operand or "lane-based", c). Widths 8 and 16 use
    // c = ((32 - width) << 8) | 0x1f, and 0 instead of 0x1f for .up.
    let w = |width: u32, up: bool| ((32 - width) << 8) | if up { 0 } else { 0x1f };
    let mut cfgs: Vec<(&str, String, u32)> = Vec::new();
    for width in [32u32, 16, 8] {
        for b in ["1", "2", "5", "16", "33"] {
            cfgs.push(("down", b.into(), w(width, false)));
            cfgs.push(("up", b.into(), w(width, true)));
        }
        for b in ["1", "8", "16", "31"] {
            cfgs.push(("bfly", b.into(), w(width, false)));
        }
        for b in ["0", "3", "13", "31", "37", "LANE_REV", "LANE_MIX"] {
            cfgs.push(("idx", b.into(), w(width, false)));
        }
    }
    for (mode, b, c) in &cfgs {
        // b: an immediate, or a per-lane register: LANE_REV = 31 - lane, LANE_MIX = lane * 7 + 3.
        let bset = match b.as_str() {
            "LANE_REV" => "\tsub.u32 %bb, 31, %lane;\n".to_string(),
            "LANE_MIX" => "\tmad.lo.u32 %bb, %lane, 7, 3;\n".to_string(),
            imm => format!("\tmov.u32 %bb, {imm};\n"),
        };
        // c from a register for half the configs, an immediate for the rest.
        let body = format!(
            "{WPRO}{bset}\tmov.u32 %cc, {c};\n\tshfl.sync.{mode}.b32 %d|%p, %v, %bb, %cc, 0xffffffff;\n\tshfl.sync.{mode}.b32 %m, %v, %bb, {c}, -1;\n\
             \tselp.u32 %pp, 1, 0, %p;\n\tsetp.ne.u32 %q, %m, %d;\n\t@%q mov.u32 %pp, 99;\n\tst.global.v2.u32 [%g], {{%d, %pp}};"
        );
        let got = run_ok(WDECL, &body, vec![], 64, [1, 1, 1], [64, 1, 1]);
        for tid in 0..64u64 {
            let lane = (tid % 32) as i64;
            let bv: u32 = match b.as_str() {
                "LANE_REV" => 31 - lane as u32,
                "LANE_MIX" => (lane as u32) * 7 + 3,
                imm => imm.parse().unwrap(),
            };
            let (src, p) = shfl_ref(mode, lane, bv, *c);
            let want = v(tid - tid % 32 + src as u64) | (u64::from(p) << 32);
            count(1);
            if got[tid as usize] != want {
                errs.push(format!(
                    "shfl.sync.{mode} b={b} c=0x{c:x} tid {tid}: expected 0x{want:x} got 0x{:x}",
                    got[tid as usize]
                ));
            }
        }
    }
    // Hand-checked spot values (width 8, c = 0x181f): down 1 in lane 7 is
    // invalid (segment end) and reads itself; lane 6 reads lane 7.
    let body = format!("{WPRO}\tshfl.sync.down.b32 %d|%p, %v, 1, 0x181f, 0xffffffff;\n\tselp.u32 %pp, 1, 0, %p;\n\tst.global.v2.u32 [%g], {{%d, %pp}};");
    let got = run_ok(WDECL, &body, vec![], 32, [1, 1, 1], [32, 1, 1]);
    check_eq(got[7], v(7), "width 8 down: lane 7 keeps its value");
    check_eq(got[6], v(7) | 1 << 32, "width 8 down: lane 6 reads lane 7");
    check_eq(got[8], v(9) | 1 << 32, "width 8 down: lane 8 reads lane 9");
    // up 1 with width 16 (c = 0x1000): lane 16 keeps its value, lane 17 reads 16.
    let body = format!("{WPRO}\tshfl.sync.up.b32 %d|%p, %v, 1, 0x1000, 0xffffffff;\n\tselp.u32 %pp, 1, 0, %p;\n\tst.global.v2.u32 [%g], {{%d, %pp}};");
    let got = run_ok(WDECL, &body, vec![], 32, [1, 1, 1], [32, 1, 1]);
    check_eq(got[16], v(16), "width 16 up: lane 16 keeps its value");
    check_eq(
        got[17],
        v(16) | 1 << 32,
        "width 16 up: lane 17 reads lane 16",
    );
    check_eq(got[0], v(0), "width 16 up: lane 0 keeps its value");
    if !errs.is_empty() {
        panic!("{} shfl mismatches:\n{}", errs.len(), errs.join("\n"));
    }
}

#[test]
fn shfl_with_partial_member_mask() {
    let _c = rows_of("shfl_with_partial_member_mask");
    // Lanes 0..15 shuffle among themselves with member mask 0xffff (idx 15 - lane);
    // lanes 16..31 take another path.
    let body = format!(
        "{WPRO}\tsetp.lt.u32 %p, %lane, 16;\n\t@!%p bra OTHER;\n\tsub.u32 %bb, 15, %lane;\n\tshfl.sync.idx.b32 %d, %v, %bb, 0x1f, 0x0000ffff;\n\tbra DONE;\n\
         OTHER:\n\tmov.u32 %d, 5;\nDONE:\n\tst.global.u32 [%g], %d;"
    );
    let got = run_ok(WDECL, &body, vec![], 32, [1, 1, 1], [32, 1, 1]);
    for l in 0..32u64 {
        check_eq(
            got[l as usize],
            if l < 16 { v(15 - l) } else { 5 },
            &format!("lane {l}"),
        );
    }
}

#[test]
fn vote_ballot_all_any_uni() {
    let _c = rows_of("vote_ballot_all_any_uni");
    // Ballot of lane parity: odd lanes -> 0xaaaaaaaa in both warps.
    let body = format!("{WPRO}\tand.b32 %m, %lane, 1;\n\tsetp.eq.u32 %p, %m, 1;\n\tvote.sync.ballot.b32 %d, %p, 0xffffffff;\n\tst.global.u32 [%g], %d;");
    let got = run_ok(WDECL, &body, vec![], 64, [1, 1, 1], [64, 1, 1]);
    for t in 0..64 {
        check_eq(got[t], 0xaaaa_aaaa, &format!("ballot parity tid {t}"));
    }
    // Predicate tid < 40 over 64 threads: warp 0 all true, warp 1 lanes 0..7.
    let body = format!(
        "{WPRO}\tsetp.lt.u32 %p, %tx, 40;\n\tvote.sync.ballot.b32 %d, %p, 0xffffffff;\n\tvote.sync.all.pred %q, %p, 0xffffffff;\n\tselp.u32 %m, 1, 0, %q;\n\
         \tvote.sync.any.pred %q, %p, 0xffffffff;\n\tselp.u32 %pp, 2, 0, %q;\n\tor.b32 %m, %m, %pp;\n\tvote.sync.uni.pred %q, %p, 0xffffffff;\n\tselp.u32 %pp, 4, 0, %q;\n\tor.b32 %m, %m, %pp;\n\
         \tvote.sync.all.pred %q, !%p, 0xffffffff;\n\tselp.u32 %pp, 8, 0, %q;\n\tor.b32 %m, %m, %pp;\n\tst.global.v2.u32 [%g], {{%d, %m}};"
    );
    let got = run_ok(WDECL, &body, vec![], 64, [1, 1, 1], [64, 1, 1]);
    for t in 0..64 {
        let want = if t < 32 {
            0xffff_ffff | (0b0111u64 << 32)
        } else {
            0xff | (0b0010u64 << 32)
        };
        check_eq(got[t], want, &format!("vote tid {t}"));
    }
    // Lanes outside the member mask contribute 0: lanes 0..15 vote with mask
    // 0xffff on the parity predicate -> 0x0000aaaa; lanes 16..31 skip it.
    let body = format!(
        "{WPRO}\tand.b32 %m, %lane, 1;\n\tsetp.eq.u32 %p, %m, 1;\n\tsetp.lt.u32 %q, %lane, 16;\n\tmov.u32 %d, 0;\n\t@%q vote.sync.ballot.b32 %d, %p, 0x0000ffff;\n\tst.global.u32 [%g], %d;"
    );
    let got = run_ok(WDECL, &body, vec![], 32, [1, 1, 1], [32, 1, 1]);
    for l in 0..32 {
        check_eq(
            got[l],
            if l < 16 { 0xaaaa } else { 0 },
            &format!("partial ballot lane {l}"),
        );
    }
}

#[test]
fn match_and_redux() {
    let _c = rows_of("match_and_redux");
    // match.any.sync.b32 with v = lane / 4: groups of four lanes.
    let body = format!("{WPRO}\tshr.u32 %m, %lane, 2;\n\tmatch.any.sync.b32 %d, %m, 0xffffffff;\n\tst.global.u32 [%g], %d;");
    let got = run_ok(WDECL, &body, vec![], 64, [1, 1, 1], [64, 1, 1]);
    for t in 0..64u64 {
        let l = t % 32;
        check_eq(
            got[t as usize],
            0xf << (4 * (l / 4)),
            &format!("match.any lane {l}"),
        );
    }
    // match.any.sync.b64: values differ only in the high word (lane & 1) << 32.
    let body = format!("{WPRO}\t.reg .b64 %x;\n\tand.b32 %m, %lane, 1;\n\tmov.b64 %x, {{%cc, %m}};\n\tmatch.any.sync.b64 %d, %x, 0xffffffff;\n\tst.global.u32 [%g], %d;");
    let body = body
        .replace("{WPRO}", "")
        .replacen("\tmov.b64", "\tmov.u32 %cc, 5;\n\tmov.b64", 1);
    let got = run_ok(WDECL, &body, vec![], 32, [1, 1, 1], [32, 1, 1]);
    for l in 0..32 {
        check_eq(
            got[l],
            if l % 2 == 1 { 0xaaaa_aaaa } else { 0x5555_5555 },
            &format!("match.any.b64 lane {l}"),
        );
    }
    // match.all.sync.b32 %d|%p: all equal -> (mask, true); otherwise (0, false).
    let body = format!(
        "{WPRO}\tmov.u32 %m, 9;\n\tmatch.all.sync.b32 %d|%p, %m, 0xffffffff;\n\tselp.u32 %pp, 1, 0, %p;\n\tmatch.all.sync.b32 %cc|%q, %lane, 0xffffffff;\n\tselp.u32 %bb, 1, 0, %q;\n\
         \tshl.b32 %bb, %bb, 1;\n\tor.b32 %pp, %pp, %bb;\n\tst.global.v2.u32 [%g], {{%d, %pp}};\n\tst.global.u32 [%g+4], %pp;\n\tadd.u32 %d, %d, %cc;\n\tst.global.u32 [%g], %d;"
    );
    let got = run_ok(WDECL, &body, vec![], 32, [1, 1, 1], [32, 1, 1]);
    for l in 0..32 {
        check_eq(
            got[l],
            0xffff_ffff | (1 << 32),
            &format!("match.all lane {l}"),
        );
    }
    // redux.sync over a full warp.
    let cases: [(&str, &str, u64); 7] = [
        ("add.u32", "\tmov.u32 %m, %lane;", 496),
        ("min.s32", "\tsub.s32 %m, %lane, 16;", 0xffff_fff0),
        ("max.s32", "\tneg.s32 %m, %lane;", 0),
        ("max.u32", "\tmul.lo.u32 %m, %lane, 3;", 93),
        ("and.b32", "\tshl.b32 %m, 1, %lane;\n\tnot.b32 %m, %m;", 0),
        ("or.b32", "\tshl.b32 %m, 1, %lane;", 0xffff_ffff),
        (
            "xor.b32",
            "\tmov.u32 %m, %lane;\n\tor.b32 %m, %m, 0x100;",
            0,
        ),
    ];
    for (op, set, want) in cases {
        let body = format!(
            "{WPRO}{set}\n\tredux.sync.{op} %d, %m, 0xffffffff;\n\tst.global.u32 [%g], %d;"
        );
        let got = run_ok(WDECL, &body, vec![], 64, [1, 1, 1], [64, 1, 1]);
        for t in [0usize, 17, 31, 32, 63] {
            check_eq(got[t], want, &format!("redux.sync.{op} tid {t}"));
        }
    }
    // Partial member mask: lanes 0..15 add their lane ids -> 120.
    let body = format!("{WPRO}\tsetp.lt.u32 %p, %lane, 16;\n\tmov.u32 %d, 0;\n\t@%p redux.sync.add.u32 %d, %lane, 0x0000ffff;\n\tst.global.u32 [%g], %d;");
    let got = run_ok(WDECL, &body, vec![], 32, [1, 1, 1], [32, 1, 1]);
    for l in 0..32 {
        check_eq(
            got[l],
            if l < 16 { 120 } else { 0 },
            &format!("partial redux lane {l}"),
        );
    }
}

#[test]
fn activemask_reports_live_lanes() {
    let _c = rows_of("activemask_reports_live_lanes");
    let body = format!("{WPRO}\tactivemask.b32 %d;\n\tst.global.u32 [%g], %d;");
    let got = run_ok(WDECL, &body, vec![], 64, [1, 1, 1], [64, 1, 1]);
    for t in [0usize, 31, 32, 63] {
        check_eq(got[t], 0xffff_ffff, &format!("activemask tid {t}"));
    }
    // Odd lanes exit first: the even lanes see 0x55555555.
    let body = format!("{WPRO}\tand.b32 %m, %lane, 1;\n\tsetp.eq.u32 %p, %m, 1;\n\t@%p exit;\n\tactivemask.b32 %d;\n\tst.global.u32 [%g], %d;");
    let got = run_ok(WDECL, &body, vec![], 32, [1, 1, 1], [32, 1, 1]);
    for l in 0..32 {
        check_eq(
            got[l],
            if l % 2 == 0 { 0x5555_5555 } else { 0 },
            &format!("activemask after odd lanes exit, lane {l}"),
        );
    }
    // A 40-thread block: the second warp has 8 lanes.
    let body = format!("{WPRO}\tactivemask.b32 %d;\n\tst.global.u32 [%g], %d;");
    let got = run_ok(WDECL, &body, vec![], 40, [1, 1, 1], [40, 1, 1]);
    check_eq(got[0], 0xffff_ffff, "partial block, warp 0");
    check_eq(got[39], 0xff, "partial block, warp 1 has 8 lanes");
}
