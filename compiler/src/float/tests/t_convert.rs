//! cvt: tables whose expected values are derived in the comments from the
//! PTX ISA and exact arithmetic, exhaustive half-precision widening, and
//! sampled narrowing against the exact reference and the host.

use std::cmp::Ordering::Equal;

use super::super::convert::{cvt_f2i, cvt_float, cvt_i2f, cvt_round_int, CvtMods, IntType};
use super::super::packed::cvt_pack;
use super::super::{FloatType, Rounding};
use super::reference::{self, decode_round, value};
use super::{interesting, Rng};

const F16: FloatType = FloatType::F16;
const BF16: FloatType = FloatType::Bf16;
const F32: FloatType = FloatType::F32;
const F64: FloatType = FloatType::F64;
const RN: Rounding = Rounding::Rn;
const RZ: Rounding = Rounding::Rz;
const RM: Rounding = Rounding::Rm;
const RP: Rounding = Rounding::Rp;
const ALL_RND: [Rounding; 4] = [RN, RZ, RM, RP];

use IntType::*;

/// Expected results in the order (rni, rzi, rmi, rpi) / (rn, rz, rm, rp).
type Four = [u64; 4];

fn f2i_row(src: FloatType, x: u64, dst: IntType, ftz: bool, exp: Four, what: &str) {
    for (i, rnd) in ALL_RND.iter().enumerate() {
        let got = cvt_f2i(src, x, dst, *rnd, ftz);
        assert_eq!(
            got, exp[i],
            "{what}: cvt.{rnd:?}.{dst:?}.{src:?}({x:#x}) ftz={ftz} = {got:#x}"
        );
    }
}

fn all(v: u64) -> Four {
    [v, v, v, v]
}

#[test]
fn float_to_int_ties_and_signs() {
    // f32 2.5 = 0x40200000: nearest-even 2, toward zero 2, floor 2, ceil 3
    f2i_row(F32, 0x4020_0000, S32, false, [2, 2, 2, 3], "2.5");
    // -2.5: even -2, trunc -2, floor -3, ceil -2
    f2i_row(
        F32,
        0xc020_0000,
        S32,
        false,
        [
            (-2i32) as u32 as u64,
            (-2i32) as u32 as u64,
            (-3i32) as u32 as u64,
            (-2i32) as u32 as u64,
        ],
        "-2.5",
    );
    // 3.5 -> 4 (even), -3.5 -> -4 (even)
    f2i_row(F32, 0x4060_0000, S32, false, [4, 3, 3, 4], "3.5");
    f2i_row(
        F32,
        0xc060_0000,
        S32,
        false,
        [
            (-4i32) as u32 as u64,
            (-3i32) as u32 as u64,
            (-4i32) as u32 as u64,
            (-3i32) as u32 as u64,
        ],
        "-3.5",
    );
    // 0.5 -> 0 (even), ceil 1; -0.5 -> 0 (even), floor -1
    f2i_row(F32, 0x3f00_0000, S32, false, [0, 0, 0, 1], "0.5");
    f2i_row(F32, 0xbf00_0000, S32, false, [0, 0, 0xffff_ffff, 0], "-0.5");
    // 1.5 -> 2; 0.49999997 (0x3effffff) -> 0 under rni
    f2i_row(F32, 0x3fc0_0000, S32, false, [2, 1, 1, 2], "1.5");
    f2i_row(F32, 0x3eff_ffff, S32, false, [0, 0, 0, 1], "0.49999997");
    // -0.0 -> 0 in every mode
    f2i_row(F32, 0x8000_0000, S32, false, all(0), "-0");
    f2i_row(F32, 0x8000_0000, U64, false, all(0), "-0 u64");
    // smallest subnormal: ceil 1 without .ftz, 0 with .ftz (input flushed)
    f2i_row(F32, 0x0000_0001, S32, false, [0, 0, 0, 1], "min subnormal");
    f2i_row(F32, 0x0000_0001, S32, true, all(0), "min subnormal ftz");
    f2i_row(
        F32,
        0x8000_0001,
        S32,
        false,
        [0, 0, 0xffff_ffff, 0],
        "-min subnormal",
    );
    f2i_row(F32, 0x8000_0001, S32, true, all(0), "-min subnormal ftz");
    // .ftz only applies to f32 sources: f64 subnormal still ceils to 1
    f2i_row(
        F64,
        0x0000_0000_0000_0001,
        S32,
        true,
        [0, 0, 0, 1],
        "f64 subnormal ftz",
    );
    // f64 ties: 2.5 -> 2, -0.5 -> 0 / -1
    f2i_row(
        F64,
        0x4004_0000_0000_0000,
        S64,
        false,
        [2, 2, 2, 3],
        "f64 2.5",
    );
    f2i_row(
        F64,
        0xbfe0_0000_0000_0000,
        S64,
        false,
        [0, 0, u64::MAX, 0],
        "f64 -0.5",
    );
    // f16 2.5 = 0x4100, -1.5 = 0xbe00
    f2i_row(F16, 0x4100, S16, false, [2, 2, 2, 3], "f16 2.5");
    f2i_row(
        F16,
        0xbe00,
        S16,
        false,
        [0xfffe, 0xffff, 0xfffe, 0xffff],
        "f16 -1.5",
    );
    // bf16 -2.5 = 0xc020 -> s8
    f2i_row(
        BF16,
        0xc020,
        S8,
        false,
        [0xfe, 0xfe, 0xfd, 0xfe],
        "bf16 -2.5",
    );
}

#[test]
fn float_to_int_range_edges() {
    // 2^31 (0x4f000000): s32 clamps to 0x7fffffff, u32 exact 0x80000000
    f2i_row(F32, 0x4f00_0000, S32, false, all(0x7fff_ffff), "2^31 s32");
    f2i_row(F32, 0x4f00_0000, U32, false, all(0x8000_0000), "2^31 u32");
    // largest f32 below 2^31: 2147483520 = 0x7fffff80 exactly
    f2i_row(F32, 0x4eff_ffff, S32, false, all(0x7fff_ff80), "2^31-128");
    // -2^31 exact; one ulp below (-2147483904) clamps to MININT
    f2i_row(F32, 0xcf00_0000, S32, false, all(0x8000_0000), "-2^31");
    f2i_row(F32, 0xcf00_0001, S32, false, all(0x8000_0000), "-2^31-256");
    f2i_row(F32, 0xcf00_0000, U32, false, all(0), "-2^31 u32");
    // 2^32 (0x4f800000) -> u32 clamps; 4294967040 (0x4f7fffff) exact
    f2i_row(F32, 0x4f80_0000, U32, false, all(0xffff_ffff), "2^32 u32");
    f2i_row(
        F32,
        0x4f7f_ffff,
        U32,
        false,
        all(0xffff_ff00),
        "2^32-256 u32",
    );
    f2i_row(F32, 0x4f80_0000, S64, false, all(1 << 32), "2^32 s64");
    // 2^63 (0x5f000000): s64 clamps, u64 exact
    f2i_row(
        F32,
        0x5f00_0000,
        S64,
        false,
        all(0x7fff_ffff_ffff_ffff),
        "2^63 s64",
    );
    f2i_row(
        F32,
        0x5f00_0000,
        U64,
        false,
        all(0x8000_0000_0000_0000),
        "2^63 u64",
    );
    f2i_row(
        F32,
        0x5eff_ffff,
        S64,
        false,
        all(0x7fff_ff80_0000_0000),
        "2^63-2^39",
    );
    f2i_row(
        F32,
        0xdf00_0000,
        S64,
        false,
        all(0x8000_0000_0000_0000),
        "-2^63",
    );
    f2i_row(
        F32,
        0xdf00_0001,
        S64,
        false,
        all(0x8000_0000_0000_0000),
        "-2^63-2^40",
    );
    // 2^64 (0x5f800000) clamps u64; 2^64 - 2^40 (0x5f7fffff) exact
    f2i_row(F32, 0x5f80_0000, U64, false, all(u64::MAX), "2^64 u64");
    f2i_row(
        F32,
        0x5f7f_ffff,
        U64,
        false,
        all(0xffff_ff00_0000_0000),
        "2^64-2^40 u64",
    );
    // f64 2^64 - 2^11 (0x43efffffffffffff) exact in u64; 2^64 clamps
    f2i_row(
        F64,
        0x43ef_ffff_ffff_ffff,
        U64,
        false,
        all(0xffff_ffff_ffff_f800),
        "f64 2^64-2^11",
    );
    f2i_row(
        F64,
        0x43f0_0000_0000_0000,
        U64,
        false,
        all(u64::MAX),
        "f64 2^64",
    );
    // f64 2147483647.5 (0x41dfffffffe00000): tie -> even 2^31 -> clamp;
    // trunc/floor 0x7fffffff; ceil 2^31 -> clamp
    f2i_row(
        F64,
        0x41df_ffff_ffe0_0000,
        S32,
        false,
        all(0x7fff_ffff),
        "2^31-0.5",
    );
    // f64 -2147483648.5 (0xc1e0000000100000): tie -> even -2^31; trunc and
    // ceil -2^31; floor -2^31-1 clamps to -2^31
    f2i_row(
        F64,
        0xc1e0_0000_0010_0000,
        S32,
        false,
        all(0x8000_0000),
        "-2^31-0.5",
    );
    // f64 4294967295.5 (0x41effffffff00000) -> u32: tie -> even 2^32 -> clamp
    f2i_row(
        F64,
        0x41ef_ffff_fff0_0000,
        U32,
        false,
        all(0xffff_ffff),
        "2^32-0.5 u32",
    );
    // f64 4294967294.5 (0x41efffffffd00000): rni -> 4294967294 (even),
    // rzi/rmi 4294967294, rpi 4294967295
    f2i_row(
        F64,
        0x41ef_ffff_ffd0_0000,
        U32,
        false,
        [0xffff_fffe, 0xffff_fffe, 0xffff_fffe, 0xffff_ffff],
        "2^32-1.5 u32",
    );
    // narrow types: 300.75 -> u8 clamps to 255; -1 -> u8 0
    f2i_row(F32, 0x4396_6000, U8, false, all(0xff), "300.75 u8");
    f2i_row(F32, 0xbf80_0000, U8, false, all(0), "-1 u8");
    // 127.5 -> s8: rni 128 clamps to 127; -128.5: rni tie -> -128 (even);
    // rmi -129 clamps to -128
    f2i_row(
        F32,
        0x42ff_0000,
        S8,
        false,
        [0x7f, 0x7f, 0x7f, 0x7f],
        "127.5 s8",
    );
    f2i_row(F32, 0xc301_0000, S8, false, all(0x80), "-128.5 s8");
    // 65535.5 -> u16: rni tie -> even 65536 -> clamp; rzi 65535
    f2i_row(F32, 0x477f_ff80, U16, false, all(0xffff), "65535.5 u16");
    // f16 65504 (0x7bff) -> s16 clamps to 32767, u16 exact 0xffe0
    f2i_row(F16, 0x7bff, S16, false, all(0x7fff), "f16 max s16");
    f2i_row(F16, 0x7bff, U16, false, all(0xffe0), "f16 max u16");
    // bf16 max (0x7f7f, ~3.39e38) -> s64 / u64 clamp
    f2i_row(
        BF16,
        0x7f7f,
        S64,
        false,
        all(0x7fff_ffff_ffff_ffff),
        "bf16 max s64",
    );
    f2i_row(BF16, 0xff7f, U64, false, all(0), "bf16 -max u64");
}

#[test]
fn float_to_int_nan_and_inf() {
    // ISA cvt Integer Notes: NaN -> 0 if the source is not .f64 and the
    // destination is not .s64/.u64, otherwise 1 << (BitWidth(dst) - 1).
    let nan32 = 0x7fc0_0000;
    f2i_row(F32, nan32, S32, false, all(0), "f32 NaN s32");
    f2i_row(F32, 0xffff_ffff, U32, false, all(0), "f32 -NaN u32");
    f2i_row(F32, 0x7f80_0001, S16, false, all(0), "f32 sNaN s16");
    f2i_row(F32, nan32, S64, false, all(1 << 63), "f32 NaN s64");
    f2i_row(F32, nan32, U64, false, all(1 << 63), "f32 NaN u64");
    f2i_row(F32, nan32, U64, true, all(1 << 63), "f32 NaN u64 ftz");
    let nan64 = 0x7ff8_0000_0000_0000;
    f2i_row(F64, nan64, S32, false, all(0x8000_0000), "f64 NaN s32");
    f2i_row(F64, nan64, U32, false, all(0x8000_0000), "f64 NaN u32");
    f2i_row(F64, nan64, S64, false, all(1 << 63), "f64 NaN s64");
    f2i_row(
        F64,
        0xfff0_0000_0000_0001,
        U16,
        false,
        all(0x8000),
        "f64 NaN u16",
    );
    f2i_row(F64, nan64, U8, false, all(0x80), "f64 NaN u8");
    f2i_row(F64, nan64, S8, false, all(0x80), "f64 NaN s8");
    f2i_row(F16, 0x7e00, S32, false, all(0), "f16 NaN s32");
    f2i_row(F16, 0x7e00, S64, false, all(1 << 63), "f16 NaN s64");
    f2i_row(BF16, 0x7fc0, U32, false, all(0), "bf16 NaN u32");
    f2i_row(BF16, 0x7fc0, U64, false, all(1 << 63), "bf16 NaN u64");
    // infinities clamp
    f2i_row(F32, 0x7f80_0000, S32, false, all(0x7fff_ffff), "+inf s32");
    f2i_row(F32, 0xff80_0000, S32, false, all(0x8000_0000), "-inf s32");
    f2i_row(F32, 0x7f80_0000, U64, false, all(u64::MAX), "+inf u64");
    f2i_row(F32, 0xff80_0000, U64, false, all(0), "-inf u64");
    f2i_row(F64, 0x7ff0_0000_0000_0000, S8, false, all(0x7f), "+inf s8");
    f2i_row(F64, 0xfff0_0000_0000_0000, S8, false, all(0x80), "-inf s8");
    f2i_row(F16, 0xfc00, S64, false, all(1 << 63), "f16 -inf s64");
}

fn i2f_row(src: IntType, v: u64, dst: FloatType, exp: Four, what: &str) {
    for (i, rnd) in ALL_RND.iter().enumerate() {
        let got = cvt_i2f(src, v, dst, *rnd, false);
        assert_eq!(
            got, exp[i],
            "{what}: cvt.{rnd:?}.{dst:?}.{src:?}({v:#x}) = {got:#x}"
        );
    }
}

#[test]
fn int_to_float_table() {
    // 2^24 + 1 = 16777217: halfway between 16777216 (0x4b800000, even) and
    // 16777218 (0x4b800001): rn/rz/rm -> 16777216, rp -> 16777218
    i2f_row(
        S32,
        16_777_217,
        F32,
        [0x4b80_0000, 0x4b80_0000, 0x4b80_0000, 0x4b80_0001],
        "2^24+1",
    );
    i2f_row(
        U32,
        16_777_217,
        F32,
        [0x4b80_0000, 0x4b80_0000, 0x4b80_0000, 0x4b80_0001],
        "u 2^24+1",
    );
    // -(2^24+1): rn/rz/rp -> -16777216, rm -> -16777218
    i2f_row(
        S32,
        (-16_777_217i32) as u32 as u64,
        F32,
        [0xcb80_0000, 0xcb80_0000, 0xcb80_0001, 0xcb80_0000],
        "-(2^24+1)",
    );
    // 2^24 + 3: halfway between 2^24+2 (odd significand 0x4b800001) and
    // 2^24+4 (even, 0x4b800002): rn -> 0x4b800002
    i2f_row(
        S32,
        16_777_219,
        F32,
        [0x4b80_0002, 0x4b80_0001, 0x4b80_0001, 0x4b80_0002],
        "2^24+3",
    );
    // 2^53 + 1 -> f64: tie, even is 2^53 (0x4340000000000000); rp 2^53+2
    i2f_row(
        S64,
        (1u64 << 53) + 1,
        F64,
        [
            0x4340_0000_0000_0000,
            0x4340_0000_0000_0000,
            0x4340_0000_0000_0000,
            0x4340_0000_0000_0001,
        ],
        "2^53+1",
    );
    // 2^53 + 1 -> f32: far below the half ulp (2^29): rn/rz/rm 2^53
    // (0x5a000000), rp 2^53 + 2^30 (0x5a000001)
    i2f_row(
        U64,
        (1u64 << 53) + 1,
        F32,
        [0x5a00_0000, 0x5a00_0000, 0x5a00_0000, 0x5a00_0001],
        "2^53+1 f32",
    );
    // u64::MAX = 2^64 - 1 -> f32: rn/rp 2^64 (0x5f800000), rz/rm 2^64-2^40
    i2f_row(
        U64,
        u64::MAX,
        F32,
        [0x5f80_0000, 0x5f7f_ffff, 0x5f7f_ffff, 0x5f80_0000],
        "u64 max f32",
    );
    // -> f64: rn/rp 2^64 (0x43f0000000000000), rz/rm 2^64-2^11
    i2f_row(
        U64,
        u64::MAX,
        F64,
        [
            0x43f0_0000_0000_0000,
            0x43ef_ffff_ffff_ffff,
            0x43ef_ffff_ffff_ffff,
            0x43f0_0000_0000_0000,
        ],
        "u64 max f64",
    );
    // as s64 the same bits are -1
    i2f_row(S64, u64::MAX, F32, all(0xbf80_0000), "s64 -1");
    // i64::MIN = -2^63: exact in every format
    i2f_row(S64, 1 << 63, F32, all(0xdf00_0000), "i64 min f32");
    i2f_row(S64, 1 << 63, F64, all(0xc3e0_0000_0000_0000), "i64 min f64");
    i2f_row(
        S64,
        1 << 63,
        F16,
        [0xfc00, 0xfbff, 0xfc00, 0xfbff],
        "i64 min f16 overflows",
    );
    // i64::MIN + 1 = -(2^63 - 1) -> f32: rn/rm -2^63, rz/rp -(2^63 - 2^39)
    i2f_row(
        S64,
        (1 << 63) + 1,
        F32,
        [0xdf00_0000, 0xdeff_ffff, 0xdf00_0000, 0xdeff_ffff],
        "i64 min+1 f32",
    );
    // u32::MAX -> f32: rn/rp 2^32, rz/rm 2^32 - 256
    i2f_row(
        U32,
        0xffff_ffff,
        F32,
        [0x4f80_0000, 0x4f7f_ffff, 0x4f7f_ffff, 0x4f80_0000],
        "u32 max",
    );
    // the same bits as s32 are -1
    i2f_row(S32, 0xffff_ffff, F32, all(0xbf80_0000), "s32 -1");
    // s8 -128 -> f16 exact 0xd800; u16 65535 -> f16: above 65520 so rn
    // overflows to inf, rz/rm give 65504 (0x7bff), rp inf
    i2f_row(S8, 0x80, F16, all(0xd800), "s8 min f16");
    i2f_row(
        U16,
        0xffff,
        F16,
        [0x7c00, 0x7bff, 0x7bff, 0x7c00],
        "u16 max f16",
    );
    // 65519 < 65520: rn -> 65504
    i2f_row(
        U16,
        65519,
        F16,
        [0x7bff, 0x7bff, 0x7bff, 0x7c00],
        "65519 f16",
    );
    // 257 -> bf16 (8-bit significand): tie, even is 256 (0x4380); rp 258
    i2f_row(S32, 257, BF16, [0x4380, 0x4380, 0x4380, 0x4381], "257 bf16");
    // zero is +0
    i2f_row(S32, 0, F32, all(0), "0");
    i2f_row(S64, 0, F64, all(0), "0 f64");
    // upper bits beyond the source width are ignored: s16 0x1_ffff = -1
    i2f_row(
        S16,
        0x1_ffff,
        F32,
        all(0xbf80_0000),
        "s16 ignores high bits",
    );
    // .sat clamps to [0, 1]
    assert_eq!(cvt_i2f(S32, 5, F32, RN, true), 0x3f80_0000);
    assert_eq!(cvt_i2f(S32, (-3i32) as u32 as u64, F32, RN, true), 0);
    assert_eq!(cvt_i2f(U8, 1, F16, RN, true), 0x3c00);
}

/// cvt int->float on random values against the host (RN: Rust's `as` is
/// correctly rounded to nearest even).
#[test]
fn int_to_float_rn_against_host() {
    let mut rng = Rng(21);
    for _ in 0..200_000 {
        let v = rng.next() >> rng.below(64);
        assert_eq!(cvt_i2f(U64, v, F32, RN, false), (v as f32).to_bits() as u64);
        assert_eq!(cvt_i2f(U64, v, F64, RN, false), (v as f64).to_bits());
        let s = v as i64;
        assert_eq!(cvt_i2f(S64, v, F32, RN, false), (s as f32).to_bits() as u64);
        assert_eq!(cvt_i2f(S64, v, F64, RN, false), (s as f64).to_bits());
        assert_eq!(
            cvt_i2f(S32, v, F32, RN, false),
            ((v as u32 as i32) as f32).to_bits() as u64
        );
    }
}

/// cvt float->int with rzi against the host's saturating `as` (truncates,
/// saturates, NaN -> 0) for the cases where PTX agrees (NaN excluded for
/// 64-bit destinations).
#[test]
fn float_to_int_rzi_against_host() {
    let mut rng = Rng(22);
    for _ in 0..200_000 {
        let x = interesting(F32, &mut rng) as u32;
        let f = f32::from_bits(x);
        assert_eq!(
            cvt_f2i(F32, x as u64, S32, RZ, false),
            (f as i32) as u32 as u64,
            "{f:e}"
        );
        assert_eq!(
            cvt_f2i(F32, x as u64, U32, RZ, false),
            (f as u32) as u64,
            "{f:e}"
        );
        assert_eq!(
            cvt_f2i(F32, x as u64, U16, RZ, false),
            (f as u16) as u64,
            "{f:e}"
        );
        if !f.is_nan() {
            assert_eq!(
                cvt_f2i(F32, x as u64, S64, RZ, false),
                (f as i64) as u64,
                "{f:e}"
            );
            assert_eq!(cvt_f2i(F32, x as u64, U64, RZ, false), f as u64, "{f:e}");
        }
        let g = f64::from_bits(interesting(F64, &mut rng));
        if !g.is_nan() {
            assert_eq!(
                cvt_f2i(F64, g.to_bits(), S32, RZ, false),
                (g as i32) as u32 as u64,
                "{g:e}"
            );
            assert_eq!(cvt_f2i(F64, g.to_bits(), U64, RZ, false), g as u64, "{g:e}");
        }
        // floor/ceil/round-even via the host's f64 rounding then saturation
        let h = f as f64;
        if !h.is_nan() {
            assert_eq!(
                cvt_f2i(F32, x as u64, S64, RM, false),
                (h.floor() as i64) as u64
            );
            assert_eq!(
                cvt_f2i(F32, x as u64, S64, RP, false),
                (h.ceil() as i64) as u64
            );
            let even = {
                let r = h.round();
                if (r - h).abs() == 0.5 && r % 2.0 != 0.0 {
                    r - (r - h).signum() * 1.0
                } else {
                    r
                }
            };
            assert_eq!(
                cvt_f2i(F32, x as u64, S64, RN, false),
                (even as i64) as u64,
                "{h:e}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// float <-> float
// ---------------------------------------------------------------------------

fn ff_row(src: FloatType, dst: FloatType, x: u64, m: CvtMods, exp: Four, what: &str) {
    for (i, rnd) in ALL_RND.iter().enumerate() {
        let got = cvt_float(src, dst, x, *rnd, m);
        assert_eq!(
            got, exp[i],
            "{what}: cvt.{rnd:?}.{dst:?}.{src:?}({x:#x}) = {got:#x}"
        );
    }
}

#[test]
fn float_narrowing_table() {
    let n = CvtMods::NONE;
    // 1/3 in f64 (0x3fd5555555555555) -> f32: 0x3eaaaaaa + 0.666.. ulp:
    // rn/rp up (0x3eaaaaab), rz/rm down
    ff_row(
        F64,
        F32,
        0x3fd5_5555_5555_5555,
        n,
        [0x3eaa_aaab, 0x3eaa_aaaa, 0x3eaa_aaaa, 0x3eaa_aaab],
        "1/3",
    );
    ff_row(
        F64,
        F32,
        0xbfd5_5555_5555_5555,
        n,
        [0xbeaa_aaab, 0xbeaa_aaaa, 0xbeaa_aaab, 0xbeaa_aaaa],
        "-1/3",
    );
    // 3.5e38 > f32 max: rn/rp inf, rz/rm max; negative mirrored
    ff_row(
        F64,
        F32,
        3.5e38f64.to_bits(),
        n,
        [0x7f80_0000, 0x7f7f_ffff, 0x7f7f_ffff, 0x7f80_0000],
        "3.5e38",
    );
    ff_row(
        F64,
        F32,
        (-3.5e38f64).to_bits(),
        n,
        [0xff80_0000, 0xff7f_ffff, 0xff80_0000, 0xff7f_ffff],
        "-3.5e38",
    );
    // 1e-46 < 2^-150 (half the smallest subnormal): rn 0, rp 2^-149
    ff_row(F64, F32, 1e-46f64.to_bits(), n, [0, 0, 0, 1], "1e-46");
    ff_row(
        F64,
        F32,
        (-1e-46f64).to_bits(),
        n,
        [0x8000_0000, 0x8000_0000, 0x8000_0001, 0x8000_0000],
        "-1e-46",
    );
    // exactly 2^-150: a tie between 0 (even) and 2^-149
    ff_row(F64, F32, 0x3690_0000_0000_0000, n, [0, 0, 0, 1], "2^-150");
    // 3 * 2^-151 = 0.75 ulp: rn up
    ff_row(F64, F32, 0x3698_0000_0000_0000, n, [1, 0, 0, 1], "0.75 ulp");
    // f32 65520 = (65504 + 65536)/2 -> f16: tie, even is 2^16 -> overflow:
    // rn inf, rz/rm 65504, rp inf
    ff_row(
        F32,
        F16,
        0x477f_f000,
        n,
        [0x7c00, 0x7bff, 0x7bff, 0x7c00],
        "65520",
    );
    // f32 65519.996 (0x477fefff) below the tie: rn 65504
    ff_row(
        F32,
        F16,
        0x477f_efff,
        n,
        [0x7bff, 0x7bff, 0x7bff, 0x7c00],
        "65519.996",
    );
    // 2^-25 -> f16: half the smallest subnormal 2^-24: tie -> 0, rp 0x0001
    ff_row(F32, F16, 0x3300_0000, n, [0, 0, 0, 1], "2^-25");
    // 3 * 2^-26 = 0.75 ulp -> rn 0x0001
    ff_row(F32, F16, 0x3340_0000, n, [1, 0, 0, 1], "3*2^-26");
    // f16 max subnormal boundary: 2^-14 - 2^-25 -> tie between 0x03ff
    // (odd) and 0x0400 (even): rn 0x0400
    ff_row(
        F32,
        F16,
        0x387f_e000,
        n,
        [0x0400, 0x03ff, 0x03ff, 0x0400],
        "2^-14-2^-25",
    );
    // f32 -> bf16: 1 + 2^-8 (0x3f808000) tie -> 0x3f80 (even); 1 + 3*2^-8
    // (0x3f818000) tie -> 0x3f82 (even)
    ff_row(
        F32,
        BF16,
        0x3f80_8000,
        n,
        [0x3f80, 0x3f80, 0x3f80, 0x3f81],
        "1+2^-8 bf16",
    );
    ff_row(
        F32,
        BF16,
        0x3f81_8000,
        n,
        [0x3f82, 0x3f81, 0x3f81, 0x3f82],
        "1+3*2^-8 bf16",
    );
    ff_row(
        F32,
        BF16,
        0xbf80_8001,
        n,
        [0xbf81, 0xbf80, 0xbf81, 0xbf80],
        "-(1+2^-8+) bf16",
    );
    // f32 max -> bf16: 0x7f7fffff is above bf16's max 0x7f7f by more than
    // half an ulp: rn/rp inf, rz/rm 0x7f7f
    ff_row(
        F32,
        BF16,
        0x7f7f_ffff,
        n,
        [0x7f80, 0x7f7f, 0x7f7f, 0x7f80],
        "f32 max bf16",
    );
    // f32 subnormal -> bf16 subnormal (same exponent range): 0x00400000
    // = 2^-127 exactly 0x0040
    ff_row(F32, BF16, 0x0040_0000, n, all(0x0040), "subnormal bf16");
    // f64 -> f16: 1e-8 is below 2^-25: rn 0, rp 0x0001
    ff_row(F64, F16, 1e-8f64.to_bits(), n, [0, 0, 0, 1], "1e-8 f16");
    // f64 -> bf16 of 1.0 + tiny
    ff_row(
        F64,
        BF16,
        0x3ff0_0000_0000_0001,
        n,
        [0x3f80, 0x3f80, 0x3f80, 0x3f81],
        "1+ bf16",
    );
    // specials: zeros keep their sign, infinities stay, NaN canonical
    ff_row(F64, F32, 0x8000_0000_0000_0000, n, all(0x8000_0000), "-0");
    ff_row(F64, F16, 0xfff0_0000_0000_0000, n, all(0xfc00), "-inf");
    ff_row(
        F64,
        F32,
        0x7ff0_0000_0000_0001,
        n,
        all(0x7fff_ffff),
        "sNaN -> canonical",
    );
    // a NaN whose payload lives only in the low bits must not become inf
    ff_row(
        F32,
        BF16,
        0x7f80_0001,
        n,
        all(0x7fff),
        "sNaN low payload -> bf16",
    );
    ff_row(F32, F16, 0xff80_0001, n, all(0x7fff), "-sNaN -> f16");
}

#[test]
fn float_modifiers_table() {
    let ftz = CvtMods::FTZ;
    let sat = CvtMods::SAT;
    // .ftz on an f32 result: f64 1e-40 is an f32 subnormal -> +0
    ff_row(F64, F32, 1e-40f64.to_bits(), ftz, all(0), "1e-40 ftz");
    ff_row(
        F64,
        F32,
        (-1e-40f64).to_bits(),
        ftz,
        all(0x8000_0000),
        "-1e-40 ftz",
    );
    // .ftz on an f32 source: subnormal -> f64 zero
    ff_row(F32, F64, 0x0000_0001, ftz, all(0), "sub -> f64 ftz");
    ff_row(
        F32,
        F64,
        0x8000_0001,
        ftz,
        all(0x8000_0000_0000_0000),
        "-sub -> f64 ftz",
    );
    // without .ftz the widening is exact: 2^-149 = 0x36a0000000000000
    ff_row(
        F32,
        F64,
        0x0000_0001,
        CvtMods::NONE,
        all(0x36a0_0000_0000_0000),
        "sub -> f64",
    );
    // cvt.ftz.f16.f32 does not flush the f32 input (hardware erratum):
    // 2^-149 under rp -> smallest f16 subnormal
    ff_row(
        F32,
        F16,
        0x0000_0001,
        ftz,
        [0, 0, 0, 1],
        "f16.f32 ftz erratum",
    );
    // ... but bf16.f32 follows the ISA text (input flushed)
    ff_row(F32, BF16, 0x0040_0000, ftz, all(0), "bf16.f32 ftz");
    // .sat: clamp to [0, 1], NaN -> +0, -0 -> +0
    ff_row(F32, F16, 0x4000_0000, sat, all(0x3c00), "2.0 sat f16");
    ff_row(F32, F16, 0x7fc0_0000, sat, all(0), "NaN sat");
    ff_row(F32, F16, 0x8000_0000, sat, all(0), "-0 sat");
    ff_row(F32, F16, 0x3f00_0000, sat, all(0x3800), "0.5 sat");
    ff_row(F64, F32, 0xbff0_0000_0000_0000, sat, all(0), "-1 sat");
    ff_row(
        F32,
        F32,
        0x7f80_0000,
        sat,
        all(0x3f80_0000),
        "f32.f32 inf sat",
    );
    // .relu: negative -> +0, NaN -> canonical
    let relu = CvtMods {
        relu: true,
        ..CvtMods::NONE
    };
    ff_row(F32, F16, 0xbf80_0000, relu, all(0), "-1 relu");
    ff_row(F32, F16, 0x3f80_0000, relu, all(0x3c00), "1 relu");
    ff_row(F32, BF16, 0xffc0_0001, relu, all(0x7fff), "NaN relu");
    // .satfinite: overflow and infinities -> +-MAX_NORM, NaN stays NaN
    let sf = CvtMods {
        satfinite: true,
        ..CvtMods::NONE
    };
    ff_row(F32, F16, 0x4788_b800, sf, all(0x7bff), "70000 satfinite");
    ff_row(F32, F16, 0xff80_0000, sf, all(0xfbff), "-inf satfinite");
    ff_row(
        F32,
        BF16,
        0x7f80_0000,
        sf,
        all(0x7f7f),
        "inf satfinite bf16",
    );
    ff_row(
        F32,
        BF16,
        0x7fc0_0000,
        sf,
        all(0x7fff),
        "NaN satfinite bf16",
    );
    // cvt.rn.f16x2.f32 d, a, b: a -> upper half, b -> lower half
    assert_eq!(
        cvt_pack(F16, 0x3f80_0000, 0x4000_0000, RN, CvtMods::NONE),
        0x3c00_4000
    );
    assert_eq!(
        cvt_pack(BF16, 0xc000_0000, 0x3f80_0000, RZ, CvtMods::NONE),
        0xc000_3f80
    );
}

/// Widening is exact: every f16 and bf16 value converts to f32 and f64
/// with the same rational value; NaNs become the f32 canonical NaN, or keep
/// the payload (shifted up, quieted) in f64.
#[test]
fn exhaustive_half_widening() {
    for (ty, f) in [(F16, reference::F16), (BF16, reference::BF16)] {
        for x in 0..=0xffffu64 {
            for rnd in [RN, RZ] {
                let w32 = cvt_float(ty, F32, x, rnd, CvtMods::NONE);
                let w64 = cvt_float(ty, F64, x, rnd, CvtMods::NONE);
                if f.is_nan(x) {
                    assert_eq!(w32, 0x7fff_ffff, "{ty:?} NaN {x:#x}");
                    let sign = (x >> 15) << 63;
                    let frac = (x & ((1 << f.m) - 1)) << (52 - f.m);
                    assert_eq!(
                        w64,
                        sign | 0x7ff0_0000_0000_0000 | frac | (1 << 51),
                        "{ty:?} NaN {x:#x} -> f64"
                    );
                } else if !f.is_finite(x) {
                    assert_eq!(
                        w32,
                        if x >> 15 == 1 {
                            0xff80_0000
                        } else {
                            0x7f80_0000
                        }
                    );
                    assert_eq!(
                        w64,
                        if x >> 15 == 1 {
                            0xfff0_0000_0000_0000
                        } else {
                            0x7ff0_0000_0000_0000
                        }
                    );
                } else {
                    let v = value(f, x);
                    assert_eq!(
                        value(reference::F32, w32).cmp(&v),
                        Equal,
                        "{ty:?} {x:#x} -> f32"
                    );
                    assert_eq!(
                        value(reference::F64, w64).cmp(&v),
                        Equal,
                        "{ty:?} {x:#x} -> f64"
                    );
                    assert_eq!(w32 >> 31, x >> 15, "sign of {x:#x}");
                }
                if ty == BF16 && !f.is_nan(x) {
                    // bf16 is the upper half of an f32
                    assert_eq!(w32, x << 16);
                }
            }
            // round trip back is exact in every mode
            if !f.is_nan(x) {
                let w = cvt_float(ty, F32, x, RN, CvtMods::NONE);
                for rnd in ALL_RND {
                    assert_eq!(
                        cvt_float(F32, ty, w, rnd, CvtMods::NONE),
                        x,
                        "{ty:?} round trip {x:#x}"
                    );
                }
            }
        }
    }
}

/// Narrowing to f16/bf16/f32 in every mode on sampled inputs against the
/// exact reference, and f64->f32 RN against the host's `as`.
#[test]
fn sampled_narrowing_against_reference() {
    let mut rng = Rng(23);
    for i in 0..40_000 {
        let (src, dst) = match i % 4 {
            0 => (F32, F16),
            1 => (F32, BF16),
            2 => (F64, F32),
            _ => (F64, F16),
        };
        let x = interesting(src, &mut rng);
        let fs = super::fmt(src);
        if !fs.is_finite(x) {
            continue;
        }
        let q = value(fs, x);
        for rnd in ALL_RND {
            let got = cvt_float(src, dst, x, rnd, CvtMods::NONE);
            let exp = if q.is_zero() {
                (x >> (super::width(src) - 1)) << (super::width(dst) - 1)
            } else {
                decode_round(super::fmt(dst), &q, rnd)
            };
            assert_eq!(got, exp, "{src:?}->{dst:?} {rnd:?} {x:#x}");
        }
    }
    for _ in 0..500_000 {
        let x = f64::from_bits(interesting(F64, &mut rng));
        let got = cvt_float(F64, F32, x.to_bits(), RN, CvtMods::NONE);
        let host = x as f32;
        if host.is_nan() {
            assert_eq!(got, 0x7fff_ffff);
        } else {
            assert_eq!(got, host.to_bits() as u64, "{x:e}");
        }
        let y = f32::from_bits(interesting(F32, &mut rng) as u32);
        let got = cvt_float(F32, F64, y.to_bits() as u64, RZ, CvtMods::NONE);
        if !y.is_nan() {
            assert_eq!(got, (y as f64).to_bits(), "{y:e}");
        }
    }
}

// ---------------------------------------------------------------------------
// round to integral in floating point (cvt.rni.f32.f32 etc.)
// ---------------------------------------------------------------------------

fn ri_row(ty: FloatType, x: u64, ftz: bool, exp: Four, what: &str) {
    for (i, rnd) in ALL_RND.iter().enumerate() {
        let got = cvt_round_int(ty, x, *rnd, ftz, false);
        assert_eq!(
            got, exp[i],
            "{what}: cvt.{rnd:?}i.{ty:?}({x:#x}) = {got:#x}"
        );
    }
}

#[test]
fn round_to_integral_table() {
    // 2.5: even 2.0, trunc 2.0, floor 2.0, ceil 3.0
    ri_row(
        F32,
        0x4020_0000,
        false,
        [0x4000_0000, 0x4000_0000, 0x4000_0000, 0x4040_0000],
        "2.5",
    );
    // -0.5: the sign is kept: rni -0, rzi -0, rmi -1, rpi -0
    ri_row(
        F32,
        0xbf00_0000,
        false,
        [0x8000_0000, 0x8000_0000, 0xbf80_0000, 0x8000_0000],
        "-0.5",
    );
    // 0.5: +0, +0, +0, 1.0
    ri_row(F32, 0x3f00_0000, false, [0, 0, 0, 0x3f80_0000], "0.5");
    // -0.7 (0xbf333333): rni -1, rzi -0, rmi -1, rpi -0
    ri_row(
        F32,
        0xbf33_3333,
        false,
        [0xbf80_0000, 0x8000_0000, 0xbf80_0000, 0x8000_0000],
        "-0.7",
    );
    // 8388607.5 (0x4affffff): tie -> 8388608 (even, 0x4b000000); rzi/rmi
    // 8388607 (0x4afffffe); rpi 8388608
    ri_row(
        F32,
        0x4aff_ffff,
        false,
        [0x4b00_0000, 0x4aff_fffe, 0x4aff_fffe, 0x4b00_0000],
        "2^23-0.5",
    );
    // values >= 2^23 are integers already
    ri_row(F32, 0x4b00_0001, false, all(0x4b00_0001), "2^23+1");
    ri_row(F32, 0x7f7f_ffff, false, all(0x7f7f_ffff), "max");
    // subnormal: rpi 1.0, rmi +0; with .ftz flushed to +0 everywhere;
    // negative subnormal: rmi -1.0, otherwise -0
    ri_row(F32, 0x0000_0001, false, [0, 0, 0, 0x3f80_0000], "subnormal");
    ri_row(F32, 0x0000_0001, true, all(0), "subnormal ftz");
    ri_row(
        F32,
        0x8000_0001,
        false,
        [0x8000_0000, 0x8000_0000, 0xbf80_0000, 0x8000_0000],
        "-subnormal",
    );
    // specials
    ri_row(F32, 0x7f80_0000, false, all(0x7f80_0000), "inf");
    ri_row(F32, 0x8000_0000, false, all(0x8000_0000), "-0");
    ri_row(F32, 0x7f80_0001, false, all(0x7fff_ffff), "NaN canonical");
    ri_row(
        F64,
        0x7ff0_0000_0000_0001,
        false,
        all(0x7ff8_0000_0000_0001),
        "f64 NaN quieted",
    );
    // f64 2^52 - 0.5 (0x432fffffffffffff): tie -> 2^52 (0x4330000000000000)
    ri_row(
        F64,
        0x432f_ffff_ffff_ffff,
        false,
        [
            0x4330_0000_0000_0000,
            0x432f_ffff_ffff_fffe,
            0x432f_ffff_ffff_fffe,
            0x4330_0000_0000_0000,
        ],
        "f64 2^52-0.5",
    );
    // f16 1.5 (0x3e00): 2.0, 1.0, 1.0, 2.0; f16 0.5 (0x3800): 0, 0, 0, 1
    ri_row(
        F16,
        0x3e00,
        false,
        [0x4000, 0x3c00, 0x3c00, 0x4000],
        "f16 1.5",
    );
    ri_row(F16, 0x3800, false, [0, 0, 0, 0x3c00], "f16 0.5");
    // bf16 -1.5 (0xbfc0): -2, -1, -2, -1
    ri_row(
        BF16,
        0xbfc0,
        false,
        [0xc000, 0xbf80, 0xc000, 0xbf80],
        "bf16 -1.5",
    );
    // .sat on rounding: 1.5 -> 2 -> 1; -2.5 -> +0
    assert_eq!(
        cvt_round_int(F32, 0x3fc0_0000, RN, false, true),
        0x3f80_0000
    );
    assert_eq!(cvt_round_int(F32, 0xc020_0000, RN, false, true), 0);
}

/// Round-to-integral against the host's floor/ceil/trunc/round_ties_even
/// equivalents on random f64 and f32 values.
#[test]
fn round_to_integral_against_host() {
    let mut rng = Rng(24);
    for _ in 0..300_000 {
        let x = f64::from_bits(interesting(F64, &mut rng));
        if x.is_nan() {
            continue;
        }
        let b = x.to_bits();
        assert_eq!(
            cvt_round_int(F64, b, RZ, false, false),
            x.trunc().to_bits(),
            "{x:e}"
        );
        assert_eq!(
            cvt_round_int(F64, b, RM, false, false),
            x.floor().to_bits(),
            "{x:e}"
        );
        assert_eq!(
            cvt_round_int(F64, b, RP, false, false),
            x.ceil().to_bits(),
            "{x:e}"
        );
        let y = f32::from_bits(interesting(F32, &mut rng) as u32);
        if y.is_nan() {
            continue;
        }
        let c = y.to_bits() as u64;
        assert_eq!(
            cvt_round_int(F32, c, RZ, false, false),
            y.trunc().to_bits() as u64,
            "{y:e}"
        );
        assert_eq!(
            cvt_round_int(F32, c, RM, false, false),
            y.floor().to_bits() as u64,
            "{y:e}"
        );
        assert_eq!(
            cvt_round_int(F32, c, RP, false, false),
            y.ceil().to_bits() as u64,
            "{y:e}"
        );
    }
}
