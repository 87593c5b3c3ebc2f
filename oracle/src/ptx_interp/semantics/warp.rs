//! Warp-level PTX instructions as pure functions over the 32 lanes of a warp:
//! `shfl.sync`, `vote.sync`, `activemask`, `match.sync`, `redux.sync` and the
//! reductions of `bar.red` / `barrier.red`.
//!
//! Inputs are per-lane arrays indexed by `%laneid` plus lane masks (bit `i`
//! = lane `i`). Two masks appear:
//!
//! * `membermask`: the instruction's operand;
//! * `participating`: the lanes that execute the instruction together, i.e.
//!   the non-exited lanes that arrived at it (the interpreter knows which).
//!
//! The ISA defines vote/match/redux over "all non-exited threads in
//! membermask". Functions that take only a `membermask` (`match_*`,
//! `redux*`) expect the caller to pass `membermask & non_exited`; the
//! `vote_*` functions take both masks and intersect them here.
//!
//! Sources (PTX ISA, docs.nvidia.com/cuda/parallel-thread-execution):
//! #data-movement-and-conversion-instructions-shfl-sync,
//! #parallel-synchronization-and-communication-instructions-vote-sync,
//! #parallel-synchronization-and-communication-instructions-match-sync,
//! #parallel-synchronization-and-communication-instructions-redux-sync,
//! #parallel-synchronization-and-communication-instructions-activemask,
//! #parallel-synchronization-and-communication-instructions-bar.
//!
//! Decisions the ISA leaves open (each repeated at its function):
//! * `shfl`: lanes outside `participating` keep their own value and get
//!   `p = false`; a lane whose source lane is outside `participating` is
//!   reported in the returned `reads_inactive` mask (ISA: "results are
//!   undefined if a thread sources a register from an inactive thread or a
//!   thread that is not in membermask") and is given the source lane's value
//!   anyway.
//! * `match.any`: lanes outside the member set get 0.
//! * `redux` over an empty member set returns the operation's identity (the
//!   ISA makes this undefined: the executing thread must be in membermask);
//!   the f32 form returns the canonical NaN.
//! * `redux.f32`: subnormal inputs are not flushed (the ISA names no `.ftz`).

use ptxc::float::FloatType;

/// Lanes per warp.
pub const WARP_SIZE: usize = 32;

/// Canonical f32 NaN (CUDA C++ Programming Guide, "Floating-Point
/// Standard"; the ISA's redux.sync text says "canonical NaN").
pub const F32_CANONICAL_NAN: u32 = 0x7fff_ffff;

#[inline]
fn lane_in(mask: u32, lane: usize) -> bool {
    (mask >> lane) & 1 == 1
}

// ---------------------------------------------------------------- shfl.sync

/// `.mode` of `shfl.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

/// Source lane of one thread of `shfl.sync.mode.b32 d|p, a, b, c, mask`:
/// returns `(j, p)` where `j` is the lane whose `a` is copied into `d`
/// (its own lane when `p` is false) and `p` the destination predicate.
///
/// ISA pseudo-code (#data-movement-and-conversion-instructions-shfl-sync):
/// ```text
/// bval = b[4:0]; cval = c[4:0]; segmask = c[12:8];
/// maxLane = (lane & segmask) | (cval & ~segmask);
/// minLane = lane & segmask;
/// up:   j = lane - bval;  pval = j >= maxLane
/// down: j = lane + bval;  pval = j <= maxLane
/// bfly: j = lane ^ bval;  pval = j <= maxLane
/// idx:  j = minLane | (bval & ~segmask);  pval = j <= maxLane
/// if (!pval) j = lane;
/// ```
/// Only the low five bits of `b` count ("an out of range value of b may
/// still result in a valid computed source lane index j"). `j` is computed
/// in `i64` so that `lane - bval` can go negative and `lane + bval` past 31.
pub fn shfl(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let lane = i64::from(lane & 0x1f);
    let bval = i64::from(b & 0x1f);
    let cval = i64::from(c & 0x1f);
    let seg = i64::from((c >> 8) & 0x1f);
    let not_seg = !seg & 0x1f;
    let max_lane = (lane & seg) | (cval & not_seg);
    let min_lane = lane & seg;
    let (j, pval) = match mode {
        ShflMode::Up => {
            let j = lane - bval;
            (j, j >= max_lane)
        }
        ShflMode::Down => {
            let j = lane + bval;
            (j, j <= max_lane)
        }
        ShflMode::Bfly => {
            let j = lane ^ bval;
            (j, j <= max_lane)
        }
        ShflMode::Idx => {
            let j = min_lane | (bval & not_seg);
            (j, j <= max_lane)
        }
    };
    if pval {
        // pval implies 0 <= j <= 31: up needs j >= maxLane >= 0, the other
        // modes j <= maxLane <= 31 with j >= 0.
        (j as u32, true)
    } else {
        (lane as u32, false)
    }
}

/// `shfl.sync` for the whole warp. `values[l]`, `b[l]`, `c[l]` are lane
/// `l`'s operands `a`, `b`, `c`; `participating` is the set of lanes that
/// execute the instruction (and are in `membermask`).
///
/// Returns `(d, p, reads_inactive)`:
/// * `d[l]`: `values[j]` for the source lane `j` of [`shfl`];
/// * `p[l]`: the destination predicate;
/// * `reads_inactive`: lanes `l` (participating) whose valid source lane
///   `j` is not participating. The ISA: "results are undefined if a thread
///   sources a register from an inactive thread or a thread that is not in
///   membermask" — the interpreter should report these as UB. `d[l]` still
///   holds `values[j]` for them.
///
/// Lanes outside `participating` do not execute: `d[l] = values[l]`,
/// `p[l] = false`, and they never appear in `reads_inactive`.
pub fn shfl_warp(
    mode: ShflMode,
    values: &[u32; 32],
    b: &[u32; 32],
    c: &[u32; 32],
    participating: u32,
) -> ([u32; 32], [bool; 32], u32) {
    let mut d = *values;
    let mut p = [false; 32];
    let mut reads_inactive = 0u32;
    for lane in 0..WARP_SIZE {
        if !lane_in(participating, lane) {
            continue;
        }
        let (j, valid) = shfl(mode, lane as u32, b[lane], c[lane]);
        let j = j as usize;
        d[lane] = values[j];
        p[lane] = valid;
        if !lane_in(participating, j) {
            reads_inactive |= 1 << lane;
        }
    }
    (d, p, reads_inactive)
}

/// The `c` operand CUDA's `__shfl*_sync(..., width)` passes (clang's
/// `__clang_cuda_intrinsics.h`): `((32 - width) << 8) | 0x1f` for
/// idx/down/bfly and `(32 - width) << 8` for up. `width` must be a power
/// of two in 1..=32.
pub fn cuda_width_to_c(mode: ShflMode, width: u32) -> u32 {
    let clamp = if mode == ShflMode::Up { 0 } else { 0x1f };
    ((32u32.wrapping_sub(width) & 0x1f) << 8) | clamp
}

// ---------------------------------------------------------------- vote.sync

/// `vote.sync.all.pred`: "True if source predicate is True for all
/// non-exited threads in membermask" (#...-vote-sync). The lanes counted
/// are `membermask & participating`; an empty set gives true.
pub fn vote_all(preds: &[bool; 32], membermask: u32, participating: u32) -> bool {
    let set = membermask & participating;
    (0..WARP_SIZE).all(|l| !lane_in(set, l) || preds[l])
}

/// `vote.sync.any.pred`: "True if source predicate is True for some thread
/// in membermask". Counted lanes: `membermask & participating` (an exited
/// thread has no predicate); an empty set gives false.
pub fn vote_any(preds: &[bool; 32], membermask: u32, participating: u32) -> bool {
    let set = membermask & participating;
    (0..WARP_SIZE).any(|l| lane_in(set, l) && preds[l])
}

/// `vote.sync.uni.pred`: "True if source predicate has the same value in
/// all non-exited threads in membermask". An empty set gives true.
pub fn vote_uni(preds: &[bool; 32], membermask: u32, participating: u32) -> bool {
    vote_all(preds, membermask, participating) || !vote_any(preds, membermask, participating)
}

/// `vote.sync.ballot.b32`: bit `l` is lane `l`'s predicate for lanes in
/// `membermask & participating`, 0 elsewhere ("A thread not specified in
/// membermask will contribute a 0"; an exited thread has no predicate to
/// contribute).
pub fn ballot(preds: &[bool; 32], membermask: u32, participating: u32) -> u32 {
    let set = membermask & participating;
    (0..WARP_SIZE)
        .filter(|&l| lane_in(set, l) && preds[l])
        .fold(0u32, |m, l| m | (1 << l))
}

/// `activemask.b32 d`: "An active thread will contribute 1 for its entry in
/// the result and exited or inactive or predicated-off thread will
/// contribute 0" (#...-activemask). `participating` is the set of lanes
/// executing this `activemask` with a true guard predicate.
pub fn activemask(participating: u32) -> u32 {
    participating
}

// --------------------------------------------------------------- match.sync

/// `match.any.sync.b32/.b64 d, a, membermask`: for each lane in `members`,
/// "d is set to mask of non-exited threads in membermask that have same
/// value of operand a" (#...-match-sync). `members` must already be
/// `membermask & non_exited`. `.b32` operands are passed zero-extended.
/// Lanes outside `members` get 0 (their result is undefined in the ISA:
/// "The behavior of match.sync is undefined if the executing thread is not
/// in the membermask").
pub fn match_any(values: &[u64; 32], members: u32) -> [u32; 32] {
    let mut out = [0u32; 32];
    for l in 0..WARP_SIZE {
        if !lane_in(members, l) {
            continue;
        }
        out[l] = (0..WARP_SIZE)
            .filter(|&k| lane_in(members, k) && values[k] == values[l])
            .fold(0u32, |m, k| m | (1 << k));
    }
    out
}

/// `match.all.sync.b32/.b64 d|p, a, membermask`: "d is set to mask
/// corresponding to non-exited threads in membermask if all non-exited
/// threads in membermask have same value of operand a; otherwise d is set
/// to 0. ... p is set to true if all ... have same value". Returns `(d, p)`
/// (the same for every member lane). `members` = `membermask & non_exited`;
/// an empty set gives `(0, true)`.
pub fn match_all(values: &[u64; 32], members: u32) -> (u32, bool) {
    let mut it = values
        .iter()
        .enumerate()
        .filter(|&(l, _)| lane_in(members, l))
        .map(|(_, &v)| v);
    match it.next() {
        Some(first) if it.any(|v| v != first) => (0, false),
        _ => (members, true),
    }
}

// --------------------------------------------------------------- redux.sync

/// `.op` of the integer `redux.sync` forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduxOp {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
}

/// `redux.sync.op.{u32,s32,b32} dst, src, membermask` (#...-redux-sync):
/// the reduction of `values` over the lanes of `members`
/// (= `membermask & non_exited`). "For the .add operation result is
/// truncated to 32 bits" (wrapping add; signedness irrelevant). `signed`
/// selects `.s32` for min/max and is ignored by the other ops.
///
/// An empty member set (undefined in the ISA) gives the identity: 0 for
/// add/or/xor/max.u32, all ones for and/min.u32, `i32::MAX` for min.s32,
/// `i32::MIN` for max.s32.
pub fn redux(op: ReduxOp, signed: bool, values: &[u32; 32], members: u32) -> u32 {
    let it = (0..WARP_SIZE)
        .filter(|&l| lane_in(members, l))
        .map(|l| values[l]);
    match (op, signed) {
        (ReduxOp::Add, _) => it.fold(0u32, u32::wrapping_add),
        (ReduxOp::And, _) => it.fold(u32::MAX, |a, v| a & v),
        (ReduxOp::Or, _) => it.fold(0, |a, v| a | v),
        (ReduxOp::Xor, _) => it.fold(0, |a, v| a ^ v),
        (ReduxOp::Min, false) => it.fold(u32::MAX, u32::min),
        (ReduxOp::Max, false) => it.fold(0, u32::max),
        (ReduxOp::Min, true) => it.map(|v| v as i32).fold(i32::MAX, i32::min) as u32,
        (ReduxOp::Max, true) => it.map(|v| v as i32).fold(i32::MIN, i32::max) as u32,
    }
}

/// `.op` of `redux.sync.op{.abs}{.NaN}.f32` (PTX ISA 8.6, sm_100a).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduxFOp {
    Min,
    Max,
}

/// `redux.sync.{min,max}{.abs}{.NaN}.f32 dst, src, membermask` over the
/// lanes of `members` (= `membermask & non_exited`); values are f32 bits.
///
/// ISA (#...-redux-sync), quoted:
/// * "For .f32 instruction type, if the input value is 0.0 then +0.0 > -0.0."
/// * "If .abs qualifier is specified, then the absolute value of the input
///   is considered for the reduction operation." (The result is that
///   absolute value: sign bit cleared.)
/// * "If the .NaN qualifier is specified, then the result of the reduction
///   operation is canonical NaN if the input to the reduction operation
///   from any participating thread is NaN."
/// * "In the absence of .NaN qualifier, only non-NaN values are considered
///   for the reduction operation and the result will be canonical NaN when
///   all inputs are NaNs."
///
/// Decisions: subnormals are neither flushed nor altered (no `.ftz` exists
/// for this form); the result is the bit pattern of the selected input;
/// an empty member set gives the canonical NaN (vacuously "all inputs are
/// NaNs").
pub fn redux_f32(op: ReduxFOp, abs: bool, nan: bool, values: &[u32; 32], members: u32) -> u32 {
    let mut best: Option<u32> = None;
    for (l, &x) in values.iter().enumerate() {
        if !lane_in(members, l) {
            continue;
        }
        let v = if abs { x & 0x7fff_ffff } else { x };
        if FloatType::F32.is_nan(u64::from(v)) {
            if nan {
                return F32_CANONICAL_NAN;
            }
            continue;
        }
        best = Some(match best {
            None => v,
            Some(b) => {
                let take_v = match op {
                    ReduxFOp::Min => f32_total_key(v) < f32_total_key(b),
                    ReduxFOp::Max => f32_total_key(v) > f32_total_key(b),
                };
                if take_v {
                    v
                } else {
                    b
                }
            }
        });
    }
    best.unwrap_or(F32_CANONICAL_NAN)
}

/// A key whose integer order is the numeric order of non-NaN f32 values
/// with -0.0 < +0.0.
#[inline]
fn f32_total_key(bits: u32) -> i64 {
    let mag = i64::from(bits & 0x7fff_ffff);
    if bits & 0x8000_0000 != 0 {
        -mag - 1
    } else {
        mag
    }
}

// ----------------------------------------------------------------- bar.red

/// `bar.red.popc.u32` contribution of one warp: the number of lanes in
/// `participating` whose predicate (already complemented for `!c`) is true.
/// "The result of .popc is the number of threads with a True predicate"
/// (#...-bar). A CTA-wide result is the sum over the CTA's warps.
pub fn bar_red_popc(preds: &[bool; 32], participating: u32) -> u32 {
    (0..WARP_SIZE)
        .filter(|&l| lane_in(participating, l) && preds[l])
        .count() as u32
}

/// `bar.red.and.pred` over one warp: true if every participating lane's
/// predicate is true ("all-threads-True"); empty set true. CTA-wide: AND
/// over the warps.
pub fn bar_red_and(preds: &[bool; 32], participating: u32) -> bool {
    (0..WARP_SIZE).all(|l| !lane_in(participating, l) || preds[l])
}

/// `bar.red.or.pred` over one warp: true if some participating lane's
/// predicate is true ("any-thread-True"); empty set false. CTA-wide: OR
/// over the warps.
pub fn bar_red_or(preds: &[bool; 32], participating: u32) -> bool {
    (0..WARP_SIZE).any(|l| lane_in(participating, l) && preds[l])
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    // Independent references: the CUDA C++ Programming Guide's description
    // of __shfl*_sync with a `width` (section "Warp Shuffle Functions"),
    // written without the ISA's bit formulas.

    /// __shfl_sync: lane (lane/width)*width + srcLane mod width; always valid.
    fn ref_idx(lane: u32, src: u32, width: u32) -> (u32, bool) {
        ((lane / width) * width + src % width, true)
    }
    /// __shfl_up_sync: lane - delta unless that leaves the lane's group.
    fn ref_up(lane: u32, delta: u32, width: u32) -> (u32, bool) {
        if lane % width >= delta {
            (lane - delta, true)
        } else {
            (lane, false)
        }
    }
    /// __shfl_down_sync: lane + delta unless that leaves the lane's group.
    fn ref_down(lane: u32, delta: u32, width: u32) -> (u32, bool) {
        if lane % width + delta < width {
            (lane + delta, true)
        } else {
            (lane, false)
        }
    }
    /// __shfl_xor_sync: lane ^ mask; a lane may read earlier groups but
    /// reading a later group returns its own value.
    fn ref_xor(lane: u32, mask: u32, width: u32) -> (u32, bool) {
        let j = lane ^ mask;
        if j / width <= lane / width {
            (j, true)
        } else {
            (lane, false)
        }
    }

    fn check_mode(mode: ShflMode, width: u32) {
        let c = cuda_width_to_c(mode, width);
        for lane in 0..32 {
            for b in 0..32 {
                let want = match mode {
                    ShflMode::Idx => ref_idx(lane, b, width),
                    ShflMode::Up => ref_up(lane, b, width),
                    ShflMode::Down => ref_down(lane, b, width),
                    ShflMode::Bfly => ref_xor(lane, b, width),
                };
                assert_eq!(
                    shfl(mode, lane, b, c),
                    want,
                    "{mode:?} width {width} lane {lane} b {b} c {c:#x}"
                );
            }
        }
    }

    #[test]
    fn cuda_c_operand_encoding() {
        assert_eq!(cuda_width_to_c(ShflMode::Idx, 32), 0x1f);
        assert_eq!(cuda_width_to_c(ShflMode::Up, 32), 0);
        assert_eq!(cuda_width_to_c(ShflMode::Down, 16), 0x101f);
        assert_eq!(cuda_width_to_c(ShflMode::Bfly, 8), 0x181f);
        assert_eq!(cuda_width_to_c(ShflMode::Up, 4), 0x1c00);
        assert_eq!(cuda_width_to_c(ShflMode::Idx, 1), 0x1f1f);
    }

    #[test]
    fn idx_width_32() {
        check_mode(ShflMode::Idx, 32);
    }
    #[test]
    fn idx_width_16() {
        check_mode(ShflMode::Idx, 16);
    }
    #[test]
    fn idx_width_8() {
        check_mode(ShflMode::Idx, 8);
    }
    #[test]
    fn idx_width_4() {
        check_mode(ShflMode::Idx, 4);
    }
    #[test]
    fn idx_width_2_and_1() {
        check_mode(ShflMode::Idx, 2);
        check_mode(ShflMode::Idx, 1);
    }
    #[test]
    fn up_width_32() {
        check_mode(ShflMode::Up, 32);
    }
    #[test]
    fn up_width_16() {
        check_mode(ShflMode::Up, 16);
    }
    #[test]
    fn up_width_8() {
        check_mode(ShflMode::Up, 8);
    }
    #[test]
    fn up_width_4() {
        check_mode(ShflMode::Up, 4);
    }
    #[test]
    fn up_width_2_and_1() {
        check_mode(ShflMode::Up, 2);
        check_mode(ShflMode::Up, 1);
    }
    #[test]
    fn down_width_32() {
        check_mode(ShflMode::Down, 32);
    }
    #[test]
    fn down_width_16() {
        check_mode(ShflMode::Down, 16);
    }
    #[test]
    fn down_width_8() {
        check_mode(ShflMode::Down, 8);
    }
    #[test]
    fn down_width_4() {
        check_mode(ShflMode::Down, 4);
    }
    #[test]
    fn down_width_2_and_1() {
        check_mode(ShflMode::Down, 2);
        check_mode(ShflMode::Down, 1);
    }
    #[test]
    fn bfly_width_32() {
        check_mode(ShflMode::Bfly, 32);
    }
    #[test]
    fn bfly_width_16() {
        check_mode(ShflMode::Bfly, 16);
    }
    #[test]
    fn bfly_width_8() {
        check_mode(ShflMode::Bfly, 8);
    }
    #[test]
    fn bfly_width_4() {
        check_mode(ShflMode::Bfly, 4);
    }
    #[test]
    fn bfly_width_2_and_1() {
        check_mode(ShflMode::Bfly, 2);
        check_mode(ShflMode::Bfly, 1);
    }

    #[test]
    fn b_uses_only_low_five_bits() {
        // ISA: bval = b[4:0]; "an out of range value of b may still result
        // in a valid computed source lane index j".
        assert_eq!(shfl(ShflMode::Down, 3, 33, 0x1f), (4, true));
        assert_eq!(shfl(ShflMode::Up, 3, 0xffff_ffe1, 0), (2, true));
        assert_eq!(shfl(ShflMode::Idx, 0, 37, 0x1f), (5, true));
        assert_eq!(shfl(ShflMode::Bfly, 1, 0x20, 0x1f), (1, true));
        // b = -1 (0xffffffff) -> bval 31
        assert_eq!(shfl(ShflMode::Idx, 7, u32::MAX, 0x1f), (31, true));
        assert_eq!(shfl(ShflMode::Up, 31, u32::MAX, 0), (0, true));
        assert_eq!(shfl(ShflMode::Up, 30, u32::MAX, 0), (30, false));
    }

    #[test]
    fn up_negative_source_is_invalid() {
        // lane 2 - 5 = -3 < maxLane 0: own lane, p false
        assert_eq!(shfl(ShflMode::Up, 2, 5, 0), (2, false));
        assert_eq!(shfl(ShflMode::Up, 0, 1, 0), (0, false));
        assert_eq!(shfl(ShflMode::Up, 0, 0, 0), (0, true));
        assert_eq!(shfl(ShflMode::Up, 31, 31, 0), (0, true));
    }

    #[test]
    fn down_past_lane_31_is_invalid() {
        assert_eq!(shfl(ShflMode::Down, 31, 1, 0x1f), (31, false));
        assert_eq!(shfl(ShflMode::Down, 20, 31, 0x1f), (20, false));
        assert_eq!(shfl(ShflMode::Down, 0, 31, 0x1f), (31, true));
    }

    #[test]
    fn explicit_clamp_values() {
        // down with clamp 15 and no segments: lanes may read up to 15 only
        assert_eq!(shfl(ShflMode::Down, 10, 5, 0x0f), (15, true));
        assert_eq!(shfl(ShflMode::Down, 10, 6, 0x0f), (10, false));
        // lane 20 > clamp: maxLane = 15, even j = 20 fails
        assert_eq!(shfl(ShflMode::Down, 20, 0, 0x0f), (20, false));
        // up with clamp 4: j must be >= 4
        assert_eq!(shfl(ShflMode::Up, 9, 5, 0x04), (4, true));
        assert_eq!(shfl(ShflMode::Up, 9, 6, 0x04), (9, false));
        // idx with clamp 7: sources above 7 invalid
        assert_eq!(shfl(ShflMode::Idx, 3, 7, 0x07), (7, true));
        assert_eq!(shfl(ShflMode::Idx, 3, 8, 0x07), (3, false));
        // bfly with clamp 0: only lane 0 reachable
        assert_eq!(shfl(ShflMode::Bfly, 1, 1, 0), (0, true));
        assert_eq!(shfl(ShflMode::Bfly, 0, 1, 0), (0, false));
    }

    #[test]
    fn segmask_with_partial_clamp() {
        // segmask 0x18 (width 8), clamp 3: maxLane = (lane & 0x18) | 3
        let c = 0x1803;
        assert_eq!(shfl(ShflMode::Idx, 13, 2, c), (10, true));
        assert_eq!(shfl(ShflMode::Idx, 13, 5, c), (13, false));
        assert_eq!(shfl(ShflMode::Down, 9, 2, c), (11, true));
        assert_eq!(shfl(ShflMode::Down, 9, 3, c), (9, false));
    }

    #[test]
    fn lane_uses_low_five_bits() {
        assert_eq!(shfl(ShflMode::Idx, 32 + 5, 3, 0x1f), (3, true));
        assert_eq!(shfl(ShflMode::Up, 64 + 1, 1, 0), (0, true));
    }

    fn iota() -> [u32; 32] {
        std::array::from_fn(|i| 100 + i as u32)
    }

    #[test]
    fn warp_down_full() {
        let v = iota();
        let (d, p, bad) = shfl_warp(ShflMode::Down, &v, &[1; 32], &[0x1f; 32], u32::MAX);
        for l in 0..31 {
            assert_eq!(d[l], 101 + l as u32);
            assert!(p[l]);
        }
        assert_eq!(d[31], 131);
        assert!(!p[31]);
        assert_eq!(bad, 0);
    }

    #[test]
    fn warp_butterfly_reduction_step() {
        let v = iota();
        let (d, p, bad) = shfl_warp(ShflMode::Bfly, &v, &[16; 32], &[0x1f; 32], u32::MAX);
        for l in 0..32 {
            assert_eq!(d[l], 100 + (l as u32 ^ 16));
            assert!(p[l]);
        }
        assert_eq!(bad, 0);
    }

    #[test]
    fn warp_idx_broadcast_segmented() {
        // __shfl_sync(mask, v, 0, 8): every lane reads its group's lane 0
        let v = iota();
        let c = cuda_width_to_c(ShflMode::Idx, 8);
        let (d, p, _) = shfl_warp(ShflMode::Idx, &v, &[0; 32], &[c; 32], u32::MAX);
        for l in 0..32 {
            assert_eq!(d[l], 100 + (l as u32 & !7));
            assert!(p[l]);
        }
    }

    #[test]
    fn warp_reads_from_inactive_lane_flagged() {
        let v = iota();
        // lanes 0..16 participate; down by 8: lanes 8..16 read 16..24
        let part = 0x0000_ffff;
        let (d, p, bad) = shfl_warp(ShflMode::Down, &v, &[8; 32], &[0x1f; 32], part);
        assert_eq!(bad, 0x0000_ff00);
        assert_eq!(d[8], 116);
        assert!(p[8]);
        assert_eq!(d[0], 108);
        // non-participating lanes keep their value, p false, never flagged
        assert_eq!(d[20], 120);
        assert!(!p[20]);
    }

    #[test]
    fn warp_invalid_source_reads_own_lane_not_flagged() {
        let v = iota();
        // only lane 31 participates; down 1 is invalid there: own value
        let (d, p, bad) = shfl_warp(ShflMode::Down, &v, &[1; 32], &[0x1f; 32], 1 << 31);
        assert_eq!(d[31], 131);
        assert!(!p[31]);
        assert_eq!(bad, 0);
    }

    #[test]
    fn warp_per_lane_operands() {
        // each lane reads lane (31 - l): a reversal
        let v = iota();
        let b: [u32; 32] = std::array::from_fn(|l| 31 - l as u32);
        let (d, _, bad) = shfl_warp(ShflMode::Idx, &v, &b, &[0x1f; 32], u32::MAX);
        for (l, &x) in d.iter().enumerate() {
            assert_eq!(x, 131 - l as u32);
        }
        assert_eq!(bad, 0);
    }

    quickcheck! {
        fn prop_shfl_source_in_range(m: u8, lane: u32, b: u32, c: u32) -> bool {
            let mode = [ShflMode::Up, ShflMode::Down, ShflMode::Bfly, ShflMode::Idx][m as usize % 4];
            let (j, p) = shfl(mode, lane, b, c);
            j < 32 && (p || j == lane & 31)
        }
        fn prop_shfl_full_warp_idx_is_b(lane: u32, b: u32) -> bool {
            shfl(ShflMode::Idx, lane, b, 0x1f) == (b & 31, true)
        }
    }

    // ------------------------------------------------------------ vote

    fn preds_from(mask: u32) -> [bool; 32] {
        std::array::from_fn(|l| (mask >> l) & 1 == 1)
    }

    #[test]
    fn vote_all_full_warp() {
        assert!(vote_all(&[true; 32], u32::MAX, u32::MAX));
        assert!(!vote_all(&preds_from(!1), u32::MAX, u32::MAX));
    }

    #[test]
    fn vote_all_ignores_lanes_outside_membermask() {
        // lane 0 false, but not in membermask
        assert!(vote_all(&preds_from(!1), !1, u32::MAX));
        // lane 0 false and in membermask but exited (not participating)
        assert!(vote_all(&preds_from(!1), u32::MAX, !1));
    }

    #[test]
    fn vote_any_partial() {
        let p = preds_from(1 << 7);
        assert!(vote_any(&p, 0xff, u32::MAX));
        assert!(!vote_any(&p, 0x7f, u32::MAX));
        assert!(!vote_any(&p, 0xff, 0x7f));
        assert!(!vote_any(&[false; 32], u32::MAX, u32::MAX));
    }

    #[test]
    fn vote_uni_cases() {
        assert!(vote_uni(&[true; 32], u32::MAX, u32::MAX));
        assert!(vote_uni(&[false; 32], u32::MAX, u32::MAX));
        let p = preds_from(0x0000_ffff);
        assert!(!vote_uni(&p, u32::MAX, u32::MAX));
        assert!(vote_uni(&p, 0x0000_ffff, u32::MAX));
        assert!(vote_uni(&p, 0xffff_0000, u32::MAX));
        assert!(vote_uni(&p, 0x0001_ffff, 0x0000_ffff));
    }

    #[test]
    fn vote_empty_set() {
        let p = preds_from(0x1234_5678);
        assert!(vote_all(&p, 0, u32::MAX));
        assert!(!vote_any(&p, 0, u32::MAX));
        assert!(vote_uni(&p, 0, u32::MAX));
        assert_eq!(ballot(&p, 0, u32::MAX), 0);
    }

    #[test]
    fn ballot_masks() {
        let p = preds_from(0xdead_beef);
        assert_eq!(ballot(&p, u32::MAX, u32::MAX), 0xdead_beef);
        assert_eq!(ballot(&p, 0x0000_ffff, u32::MAX), 0x0000_beef);
        assert_eq!(ballot(&p, u32::MAX, 0xff00_00ff), 0xde00_00ef);
        assert_eq!(ballot(&p, 0x0f0f_0f0f, 0x00ff_ff00), 0x000d_0e00);
    }

    #[test]
    fn activemask_is_participating() {
        assert_eq!(activemask(0x8000_0001), 0x8000_0001);
        assert_eq!(activemask(0), 0);
    }

    quickcheck! {
        fn prop_ballot_is_and_of_masks(pm: u32, mm: u32, part: u32) -> bool {
            ballot(&preds_from(pm), mm, part) == pm & mm & part
        }
        fn prop_vote_all_any_via_ballot(pm: u32, mm: u32, part: u32) -> bool {
            let p = preds_from(pm);
            let set = mm & part;
            vote_all(&p, mm, part) == (pm & set == set)
                && vote_any(&p, mm, part) == (pm & set != 0)
        }
    }

    // ------------------------------------------------------------ match

    #[test]
    fn match_any_with_duplicates() {
        let mut v = [0u64; 32];
        for (l, x) in v.iter_mut().enumerate() {
            *x = (l % 3) as u64; // classes l = 0, 1, 2 mod 3
        }
        let d = match_any(&v, u32::MAX);
        let class = |r: usize| (0..32).filter(|l| l % 3 == r).fold(0u32, |m, l| m | 1 << l);
        for (l, &x) in d.iter().enumerate() {
            assert_eq!(x, class(l % 3), "lane {l}");
        }
    }

    #[test]
    fn match_any_respects_members() {
        let v = [7u64; 32];
        let d = match_any(&v, 0x0000_00f0);
        assert_eq!(d[4], 0xf0);
        assert_eq!(d[7], 0xf0);
        assert_eq!(d[0], 0);
        assert_eq!(d[31], 0);
    }

    #[test]
    fn match_any_compares_all_64_bits() {
        let mut v = [0u64; 32];
        v[1] = 1 << 40;
        v[2] = 1 << 40;
        v[3] = 1;
        let d = match_any(&v, 0xf);
        assert_eq!(d[0], 0b0001);
        assert_eq!(d[1], 0b0110);
        assert_eq!(d[2], 0b0110);
        assert_eq!(d[3], 0b1000);
    }

    #[test]
    fn match_all_cases() {
        let mut v = [5u64; 32];
        assert_eq!(match_all(&v, u32::MAX), (u32::MAX, true));
        v[9] = 6;
        assert_eq!(match_all(&v, u32::MAX), (0, false));
        // lane 9 outside the member set
        assert_eq!(match_all(&v, !(1 << 9)), (!(1 << 9), true));
        assert_eq!(match_all(&v, 1 << 9), (1 << 9, true));
        assert_eq!(match_all(&v, 0), (0, true));
    }

    // ------------------------------------------------------------ redux

    fn vals(f: impl Fn(usize) -> u32) -> [u32; 32] {
        std::array::from_fn(f)
    }

    #[test]
    fn redux_add_wraps() {
        let v = [0x8000_0000u32; 32];
        assert_eq!(redux(ReduxOp::Add, false, &v, u32::MAX), 0);
        assert_eq!(redux(ReduxOp::Add, true, &v, 0b111), 0x8000_0000);
        let v = vals(|l| l as u32);
        assert_eq!(redux(ReduxOp::Add, false, &v, u32::MAX), 496);
        assert_eq!(redux(ReduxOp::Add, true, &v, 0xff), 28);
    }

    #[test]
    fn redux_min_max_signed_vs_unsigned() {
        let mut v = [5u32; 32];
        v[3] = 0xffff_fffe; // -2 signed, huge unsigned
        v[4] = 1;
        assert_eq!(redux(ReduxOp::Min, false, &v, u32::MAX), 1);
        assert_eq!(redux(ReduxOp::Min, true, &v, u32::MAX), 0xffff_fffe);
        assert_eq!(redux(ReduxOp::Max, false, &v, u32::MAX), 0xffff_fffe);
        assert_eq!(redux(ReduxOp::Max, true, &v, u32::MAX), 5);
        // without lane 3
        assert_eq!(redux(ReduxOp::Min, true, &v, !(1 << 3)), 1);
        assert_eq!(redux(ReduxOp::Max, false, &v, !(1 << 3)), 5);
    }

    #[test]
    fn redux_int_min_extremes() {
        let mut v = [0u32; 32];
        v[0] = 0x8000_0000;
        v[1] = 0x7fff_ffff;
        assert_eq!(redux(ReduxOp::Min, true, &v, 3), 0x8000_0000);
        assert_eq!(redux(ReduxOp::Max, true, &v, 3), 0x7fff_ffff);
        assert_eq!(redux(ReduxOp::Min, false, &v, 3), 0x7fff_ffff);
        assert_eq!(redux(ReduxOp::Max, false, &v, 3), 0x8000_0000);
    }

    #[test]
    fn redux_bitwise() {
        let v = vals(|l| 1 << l);
        assert_eq!(redux(ReduxOp::Or, false, &v, 0x0000_0f0f), 0x0f0f);
        assert_eq!(redux(ReduxOp::And, false, &v, 0x3), 0);
        assert_eq!(redux(ReduxOp::Xor, false, &v, u32::MAX), u32::MAX);
        let v = [0xf0f0_f0f0u32; 32];
        assert_eq!(redux(ReduxOp::And, false, &v, u32::MAX), 0xf0f0_f0f0);
        assert_eq!(redux(ReduxOp::Xor, false, &v, 0b11), 0);
        assert_eq!(redux(ReduxOp::Xor, false, &v, 0b111), 0xf0f0_f0f0);
    }

    #[test]
    fn redux_empty_identities() {
        let v = [9u32; 32];
        assert_eq!(redux(ReduxOp::Add, false, &v, 0), 0);
        assert_eq!(redux(ReduxOp::And, false, &v, 0), u32::MAX);
        assert_eq!(redux(ReduxOp::Min, false, &v, 0), u32::MAX);
        assert_eq!(redux(ReduxOp::Min, true, &v, 0), 0x7fff_ffff);
        assert_eq!(redux(ReduxOp::Max, true, &v, 0), 0x8000_0000);
        assert_eq!(redux(ReduxOp::Max, false, &v, 0), 0);
    }

    quickcheck! {
        fn prop_redux_single_member_is_value(v: u32, lane: u8, op: u8, s: bool) -> bool {
            let ops = [ReduxOp::Add, ReduxOp::Min, ReduxOp::Max, ReduxOp::And, ReduxOp::Or, ReduxOp::Xor];
            let mut vs = [0xabcd_u32; 32];
            let l = lane as usize % 32;
            vs[l] = v;
            redux(ops[op as usize % 6], s, &vs, 1 << l) == v
        }
    }

    const F1: u32 = 0x3f80_0000; // 1.0
    const FM1: u32 = 0xbf80_0000; // -1.0
    const F2: u32 = 0x4000_0000; // 2.0
    const FM3: u32 = 0xc040_0000; // -3.0
    const PZ: u32 = 0;
    const NZ: u32 = 0x8000_0000;
    const QNAN: u32 = 0x7fc0_0001;
    const NEG_NAN: u32 = 0xffc0_0000;
    const INF: u32 = 0x7f80_0000;
    const NINF: u32 = 0xff80_0000;
    const SUB: u32 = 0x0000_0001; // smallest subnormal

    fn fv(list: &[u32]) -> ([u32; 32], u32) {
        let mut v = [0u32; 32];
        v[..list.len()].copy_from_slice(list);
        (v, (1u64 << list.len()).wrapping_sub(1) as u32)
    }

    #[test]
    fn redux_f32_min_max_plain() {
        let (v, m) = fv(&[F1, FM1, F2, FM3]);
        assert_eq!(redux_f32(ReduxFOp::Min, false, false, &v, m), FM3);
        assert_eq!(redux_f32(ReduxFOp::Max, false, false, &v, m), F2);
    }

    #[test]
    fn redux_f32_abs() {
        let (v, m) = fv(&[F1, FM1, F2, FM3]);
        assert_eq!(redux_f32(ReduxFOp::Min, true, false, &v, m), F1);
        assert_eq!(redux_f32(ReduxFOp::Max, true, false, &v, m), 0x4040_0000); // |-3|
    }

    #[test]
    fn redux_f32_signed_zeros() {
        // "+0.0 > -0.0"
        let (v, m) = fv(&[PZ, NZ]);
        assert_eq!(redux_f32(ReduxFOp::Min, false, false, &v, m), NZ);
        assert_eq!(redux_f32(ReduxFOp::Max, false, false, &v, m), PZ);
        // with .abs both are +0
        assert_eq!(redux_f32(ReduxFOp::Min, true, false, &v, m), PZ);
    }

    #[test]
    fn redux_f32_nan_ignored_without_nan_qualifier() {
        let (v, m) = fv(&[QNAN, F2, NEG_NAN, FM1]);
        assert_eq!(redux_f32(ReduxFOp::Min, false, false, &v, m), FM1);
        assert_eq!(redux_f32(ReduxFOp::Max, false, false, &v, m), F2);
    }

    #[test]
    fn redux_f32_nan_qualifier_propagates_canonical() {
        let (v, m) = fv(&[F1, NEG_NAN, F2]);
        assert_eq!(redux_f32(ReduxFOp::Min, false, true, &v, m), 0x7fff_ffff);
        assert_eq!(redux_f32(ReduxFOp::Max, true, true, &v, m), 0x7fff_ffff);
        // NaN only in a non-member lane: no effect
        assert_eq!(redux_f32(ReduxFOp::Max, false, true, &v, 0b101), F2);
    }

    #[test]
    fn redux_f32_all_nan_gives_canonical() {
        let (v, m) = fv(&[QNAN, NEG_NAN]);
        assert_eq!(redux_f32(ReduxFOp::Min, false, false, &v, m), 0x7fff_ffff);
        assert_eq!(redux_f32(ReduxFOp::Max, false, false, &v, 0), 0x7fff_ffff);
    }

    #[test]
    fn redux_f32_infinities_and_subnormals() {
        let (v, m) = fv(&[INF, NINF, SUB, SUB | NZ]);
        assert_eq!(redux_f32(ReduxFOp::Min, false, false, &v, m), NINF);
        assert_eq!(redux_f32(ReduxFOp::Max, false, false, &v, m), INF);
        // subnormals are kept (no flush): min over the two subnormals
        assert_eq!(redux_f32(ReduxFOp::Min, false, false, &v, 0b1100), SUB | NZ);
        assert_eq!(redux_f32(ReduxFOp::Max, false, false, &v, 0b1100), SUB);
        assert_eq!(redux_f32(ReduxFOp::Min, true, false, &v, m), SUB);
    }

    // ------------------------------------------------------------ bar.red

    #[test]
    fn bar_red_popc_counts_participants() {
        let p = preds_from(0xf0f0_f0f0);
        assert_eq!(bar_red_popc(&p, u32::MAX), 16);
        assert_eq!(bar_red_popc(&p, 0x0000_ffff), 8);
        assert_eq!(bar_red_popc(&p, 0x0f0f_0f0f), 0);
        assert_eq!(bar_red_popc(&[true; 32], 0), 0);
    }

    #[test]
    fn bar_red_and_or() {
        let p = preds_from(0xffff_0000);
        assert!(!bar_red_and(&p, u32::MAX));
        assert!(bar_red_and(&p, 0xffff_0000));
        assert!(bar_red_or(&p, u32::MAX));
        assert!(!bar_red_or(&p, 0x0000_ffff));
        assert!(bar_red_and(&p, 0));
        assert!(!bar_red_or(&p, 0));
    }
}
