//! Tests of the PTX-level rules of `ptxc::int`. Every expected value comes from the PTX ISA text
//! (examples, tables, pseudocode transliterated literally below as reference models), from
//! reasoning written next to the vector, or from independent host arithmetic (Rust's native
//! wrapping/checked/saturating operations on i8..i64/u8..u64, i128/u128 products, `count_ones`, `leading_zeros`,
//! `reverse_bits`, `rotate_left`) -- never from the functions under test.

use crate::int::*;
use quickcheck::{QuickCheck, Testable};

const U8: IntTy = IntTy::U8;
const U16: IntTy = IntTy::U16;
const U32: IntTy = IntTy::U32;
const U64: IntTy = IntTy::U64;
const S8: IntTy = IntTy::S8;
const S16: IntTy = IntTy::S16;
const S32: IntTy = IntTy::S32;
const S64: IntTy = IntTy::S64;
const B16: IntTy = IntTy::B16;
const B32: IntTy = IntTy::B32;
const B64: IntTy = IntTy::B64;

const NF: u64 = 0xffff_ffff; // "not found" of bfind (a .u32 destination)
const IMIN64: u64 = 0x8000_0000_0000_0000;
const IMAX64: u64 = 0x7fff_ffff_ffff_ffff;

fn qc<A: Testable>(f: A) {
    QuickCheck::new().tests(3000).quickcheck(f)
}

/// Check a table of `(inputs, expected)` rows, reporting the failing row.
macro_rules! table {
    ($f:expr, [$( ($($arg:expr),*) => $want:expr ),* $(,)?]) => {{
        let mut row = 0usize;
        $(
            let got = $f($($arg),*);
            assert_eq!(got, $want, "row {} : {}({})", row, stringify!($f), stringify!($($arg),*));
            row += 1;
        )*
        let _ = row;
    }};
}

// ------------------------------------------------------------------------------------------
// sext / trunc
// ------------------------------------------------------------------------------------------

#[test]
fn sext_trunc_vectors() {
    table!(sext, [
        (8, 0x80) => 0xffff_ffff_ffff_ff80,
        (8, 0x7f) => 0x7f,
        (16, 0x1_8000) => 0xffff_ffff_ffff_8000, // bit 16 is above the width: ignored
        (32, 0xffff_ffff) => u64::MAX,
        (32, 0xdead_0000_7fff_ffff) => 0x7fff_ffff,
        (64, IMIN64) => IMIN64,
        (1, 1) => u64::MAX,
        (0, 5) => 0,
    ]);
    table!(trunc, [
        (8, 0x1ff) => 0xff,
        (32, u64::MAX) => 0xffff_ffff,
        (64, 0x1234_5678_9abc_def0) => 0x1234_5678_9abc_def0,
        (0, 0x1234) => 0,
        (24, 0xff12_3456) => 0x12_3456,
    ]);
}

#[test]
fn sext_trunc_props() {
    qc((|x: u64| {
        sext(8, x) == x as i8 as i64 as u64
            && sext(16, x) == x as i16 as i64 as u64
            && sext(32, x) == x as i32 as i64 as u64
            && sext(64, x) == x
            && trunc(8, x) == u64::from(x as u8)
            && trunc(16, x) == u64::from(x as u16)
            && trunc(32, x) == u64::from(x as u32)
    }) as fn(u64) -> bool);
}

// ------------------------------------------------------------------------------------------
// add / sub / saturation / packed
// ------------------------------------------------------------------------------------------

#[test]
fn add_sub_vectors() {
    table!(add, [
        (U32, 0xffff_ffff, 1) => 0,
        (S32, 0x7fff_ffff, 1) => 0x8000_0000, // signed overflow wraps
        (U16, 0xffff, 0xffff) => 0xfffe,
        (U64, u64::MAX, 2) => 1,
        (U8, 0x1_00ff, 1) => 0,            // upper input bits ignored
        (S16, 0xffff_8000, 0xffff) => 0x7fff, // -32768 + -1 wraps to 32767
        (S32, 0xffff_fffe, 1) => 0xffff_ffff, // result zero-extended, not sign-extended
    ]);
    table!(sub, [
        (U32, 0, 1) => 0xffff_ffff,
        (S32, 0x8000_0000, 1) => 0x7fff_ffff,
        (U64, 0, u64::MAX) => 1,
        (U16, 5, 7) => 0xfffe,
        (S64, IMIN64, 1) => IMAX64,
    ]);
}

#[test]
fn add_sub_props() {
    qc((|a: u64, b: u64| {
        add(U8, a, b) == u64::from((a as u8).wrapping_add(b as u8))
            && add(S16, a, b) == u64::from((a as i16).wrapping_add(b as i16) as u16)
            && add(U32, a, b) == u64::from((a as u32).wrapping_add(b as u32))
            && add(S32, a, b) == u64::from((a as i32).wrapping_add(b as i32) as u32)
            && add(U64, a, b) == a.wrapping_add(b)
            && sub(U16, a, b) == u64::from((a as u16).wrapping_sub(b as u16))
            && sub(S32, a, b) == u64::from((a as i32).wrapping_sub(b as i32) as u32)
            && sub(S64, a, b) == (a as i64).wrapping_sub(b as i64) as u64
    }) as fn(u64, u64) -> bool);
}

#[test]
fn add_sub_sat_vectors() {
    table!(add_sat_s32, [
        (0x7fff_ffff, 1) => 0x7fff_ffff,
        (0x8000_0000, 0xffff_ffff) => 0x8000_0000, // INT_MIN + -1
        (0x7fff_ffff, 0x7fff_ffff) => 0x7fff_ffff,
        (0x8000_0000, 0x8000_0000) => 0x8000_0000,
        (5, 0xffff_fffd) => 2,                     // 5 + -3
        (0xffff_ffff, 1) => 0,
        (0xffff_ffff_ffff_fffe, 0) => 0xffff_fffe, // -2, zero-extended result
    ]);
    table!(sub_sat_s32, [
        (0x8000_0000, 1) => 0x8000_0000,
        (0x7fff_ffff, 0xffff_ffff) => 0x7fff_ffff, // MAX - (-1)
        (0, 0x8000_0000) => 0x7fff_ffff,           // 0 - MIN = 2^31, clamped
        (0xffff_ffff, 0x8000_0000) => 0x7fff_ffff, // -1 - MIN = 2^31 - 1 exactly
        (3, 5) => 0xffff_fffe,
    ]);
    // add.sat.u32 (PTX 9.2): clamps to [0, 2^32-1].
    table!(add_sat, [
        (U32, 0xffff_ffff, 1) => 0xffff_ffff,
        (U32, 0x8000_0000, 0x7fff_ffff) => 0xffff_ffff,
        (U32, 2, 3) => 5,
    ]);
}

#[test]
fn add_sub_sat_props() {
    qc((|a: u64, b: u64| {
        add_sat_s32(a, b) == u64::from((a as i32).saturating_add(b as i32) as u32)
            && sub_sat_s32(a, b) == u64::from((a as i32).saturating_sub(b as i32) as u32)
            && add_sat(U32, a, b) == u64::from((a as u32).saturating_add(b as u32))
            && add_sat(S16, a, b) == u64::from((a as i16).saturating_add(b as i16) as u16)
            && sub_sat(S64, a, b) == (a as i64).saturating_sub(b as i64) as u64
    }) as fn(u64, u64) -> bool);
}

#[test]
fn packed_add_sub_vectors() {
    // Lanes never carry into each other: 0x0001+0xffff and 0xffff+0x0001 both wrap to 0.
    assert_eq!(add_16x2(false, false, 0xffff_0001, 0x0001_ffff), 0);
    // s16x2.sat: high 0x7fff+1 -> 0x7fff, low -32768 + -1 -> -32768.
    assert_eq!(add_16x2(true, true, 0x7fff_8000, 0x0001_ffff), 0x7fff_8000);
    // u16x2.sat: high 0xffff+1 -> 0xffff, low 1+2 = 3.
    assert_eq!(add_16x2(false, true, 0xffff_0001, 0x0001_0002), 0xffff_0003);
    // u8x4 wrap: 04+01, 03+01, 02+01, 01+ff -> 05 04 03 00.
    assert_eq!(add_8x4(false, false, 0x0102_0304, 0xff01_0101), 0x0003_0405);
    // s8x4.sat: b0 -128+1=-127 (81), b1 127-1=126 (7e), b2 -128-1 -> -128 (80), b3 127+1 -> 127.
    assert_eq!(add_8x4(true, true, 0x7f80_7f80, 0x01ff_ff01), 0x7f80_7e81);
    // u8x4.sat: f0+01=f1, f0+0f=ff, f0+10 -> ff, f0+20 -> ff.
    assert_eq!(add_8x4(false, true, 0xf0f0_f0f0, 0x2010_0f01), 0xffff_fff1);
    // u8x4 sub.sat: 03-05 -> 0, 05-03 = 2, 10-20 -> 0, 00-01 -> 0.
    assert_eq!(sub_8x4(false, true, 0x0010_0503, 0x0120_0305), 0x0000_0200);
    // u8x4 sub wrap: fe, 02, f0, ff.
    assert_eq!(sub_8x4(false, false, 0x0010_0503, 0x0120_0305), 0xfff0_02fe);
    // s8x4 sub.sat: 0-(-128) -> 127, 0-1 = -1, 127-(-1) -> 127, -128-1 -> -128.
    assert_eq!(sub_8x4(true, true, 0x807f_0000, 0x01ff_0180), 0x807f_ff7f);
    // neg.s8x4: -1 -> 1, 127 -> -127 (81), 1 -> -1 (ff), -128 -> -128.
    assert_eq!(neg_s8x4(0x8001_7fff), 0x80ff_8101);
}

#[test]
fn packed_props() {
    qc((|a: u32, b: u32| {
        let (al, ah, bl, bh) = (a as u16, (a >> 16) as u16, b as u16, (b >> 16) as u16);
        let join = |l: u16, h: u16| u32::from(l) | (u32::from(h) << 16);
        let ok16 = add_16x2(false, false, a, b) == join(al.wrapping_add(bl), ah.wrapping_add(bh))
            && add_16x2(true, true, a, b)
                == join(
                    (al as i16).saturating_add(bl as i16) as u16,
                    (ah as i16).saturating_add(bh as i16) as u16,
                )
            && min_16x2(true, false, a, b)
                == join(
                    (al as i16).min(bl as i16) as u16,
                    (ah as i16).min(bh as i16) as u16,
                )
            && max_16x2(false, false, a, b) == join(al.max(bl), ah.max(bh))
            && max_16x2(true, true, a, b)
                == join(
                    (al as i16).max(bl as i16).max(0) as u16,
                    (ah as i16).max(bh as i16).max(0) as u16,
                );
        let ab = a.to_le_bytes();
        let bb = b.to_le_bytes();
        let mut s8 = [0u8; 4];
        let mut u8s = [0u8; 4];
        for i in 0..4 {
            s8[i] = (ab[i] as i8).saturating_sub(bb[i] as i8) as u8;
            u8s[i] = ab[i].saturating_add(bb[i]);
        }
        ok16 && sub_8x4(true, true, a, b) == u32::from_le_bytes(s8)
            && add_8x4(false, true, a, b) == u32::from_le_bytes(u8s)
    }) as fn(u32, u32) -> bool);
}

// ------------------------------------------------------------------------------------------
// Carry chains (9.7.2)
// ------------------------------------------------------------------------------------------

#[test]
fn carry_vectors() {
    table!(add_cc, [
        (U32, 0xffff_ffff, 1, false) => (0, true),
        (U32, 0xffff_ffff, 0, true) => (0, true),
        (U32, 0xffff_ffff, 0xffff_ffff, true) => (0xffff_ffff, true),
        (U32, 1, 2, false) => (3, false),
        (U32, 1, 2, true) => (4, false),
        (U32, 0x7fff_ffff, 1, false) => (0x8000_0000, false), // signed overflow is not carry
        (S32, 0x7fff_ffff, 1, false) => (0x8000_0000, false), // same for signed types
        (S32, 0xffff_ffff, 1, false) => (0, true),             // -1 + 1: unsigned carry out
        (U64, u64::MAX, 1, false) => (0, true),
        (U64, u64::MAX, u64::MAX, true) => (u64::MAX, true),
    ]);
    // sub.cc (carry_in = true) and subc (carry_in = CF), CF = NOT borrow.
    table!(sub_cc, [
        (U32, 0, 1, true) => (0xffff_ffff, false), // 0 - 1 borrows: CF = 0
        (U32, 5, 3, true) => (2, true),
        (U32, 3, 3, true) => (0, true),
        (U32, 5, 3, false) => (1, true),            // subc with borrow-in: 5 - 3 - 1
        (U32, 3, 3, false) => (0xffff_ffff, false), // 3 - 3 - 1 = -1 borrows
        (U32, 0, 0xffff_ffff, false) => (0, false), // 0 - 0xffffffff - 1 = -2^32: borrows
        (U32, 0xffff_ffff, 0xffff_ffff, false) => (0xffff_ffff, false),
        (U64, 0, 1, true) => (u64::MAX, false),
        (S32, 0x8000_0000, 1, true) => (0x7fff_ffff, true), // unsigned 2^31 >= 1
    ]);
}

#[test]
fn carry_not_borrow_convention() {
    // docs/SEMANTICS.md: after `sub.cc 0-1`, `addc 0,0` gives 0.
    let (d, cf) = sub_cc(U32, 0, 1, true);
    assert_eq!(d, 0xffff_ffff);
    assert_eq!(add_cc(U32, 0, 0, cf), (0, false));
    // And after a sub.cc that does not borrow, addc 0,0 gives 1.
    let (_, cf) = sub_cc(U32, 1, 0, true);
    assert_eq!(add_cc(U32, 0, 0, cf).0, 1);
    // ZLUDA's hardware-checked host model of subc: borrow_in = !CF, d = a - (b + borrow_in),
    // CF_out = !(borrow).
    qc((|a: u32, b: u32, cf: bool| {
        let borrow_in = u32::from(!cf);
        let (rhs, o2) = b.overflowing_add(borrow_in);
        let (want, o1) = a.overflowing_sub(rhs);
        sub_cc(U32, u64::from(a), u64::from(b), cf) == (u64::from(want), !(o1 || o2))
    }) as fn(u32, u32, bool) -> bool);
}

#[test]
fn carry_chain_props() {
    // 128-bit add/sub from four 32-bit limbs (the ISA's add.cc/addc.cc/addc and
    // sub.cc/subc.cc/subc examples) against u128 arithmetic.
    qc((|x: u128, y: u128| {
        let limb = |v: u128, i: u32| ((v >> (32 * i)) as u32) as u64;
        let mut sum = 0u128;
        let mut diff = 0u128;
        let mut cf = false;
        let mut sf = true; // sub.cc == subc with CF = 1
        for i in 0..4 {
            let (d, c) = add_cc(U32, limb(x, i), limb(y, i), cf);
            cf = c;
            sum |= u128::from(d) << (32 * i);
            let (d, c) = sub_cc(U32, limb(x, i), limb(y, i), sf);
            sf = c;
            diff |= u128::from(d) << (32 * i);
        }
        let (want_sum, carry) = x.overflowing_add(y);
        let (want_diff, borrow) = x.overflowing_sub(y);
        sum == want_sum && cf == carry && diff == want_diff && sf != borrow // CF = NOT borrow
    }) as fn(u128, u128) -> bool);
    // The same with two 64-bit limbs.
    qc((|x: u128, y: u128| {
        let (l, c) = add_cc(U64, x as u64, y as u64, false);
        let (h, c2) = add_cc(U64, (x >> 64) as u64, (y >> 64) as u64, c);
        let (want, carry) = x.overflowing_add(y);
        (u128::from(h) << 64 | u128::from(l)) == want && c2 == carry
    }) as fn(u128, u128) -> bool);
}

#[test]
fn madc_isa_example_128bit_product() {
    // ISA 9.7.2.6 example: [r3,r2,r1,r0] = [r5,r4] * [r7,r6].
    fn run(x: u64, y: u64) -> u128 {
        let (r4, r5, r6, r7) = (x & NF, x >> 32, y & NF, y >> 32);
        let r0 = mul_lo(U32, r4, r6); // mul.lo.u32 r0,r4,r6
        let r1 = mul_hi(U32, r4, r6); // mul.hi.u32 r1,r4,r6
        let (r1, cf) = mad_cc(U32, false, r5, r6, r1, false); // mad.lo.cc.u32 r1,r5,r6,r1
        let (r2, _) = mad_cc(U32, true, r5, r6, 0, cf); // madc.hi.u32 r2,r5,r6,0
        let (r1, cf) = mad_cc(U32, false, r4, r7, r1, false); // mad.lo.cc.u32 r1,r4,r7,r1
        let (r2, cf) = mad_cc(U32, true, r4, r7, r2, cf); // madc.hi.cc.u32 r2,r4,r7,r2
        let (r3, _) = add_cc(U32, 0, 0, cf); // addc.u32 r3,0,0
        let (r2, cf) = mad_cc(U32, false, r5, r7, r2, false); // mad.lo.cc.u32 r2,r5,r7,r2
        let (r3, _) = mad_cc(U32, true, r5, r7, r3, cf); // madc.hi.u32 r3,r5,r7,r3
        u128::from(r0) | u128::from(r1) << 32 | u128::from(r2) << 64 | u128::from(r3) << 96
    }
    for (x, y) in [
        (u64::MAX, u64::MAX),
        (0, u64::MAX),
        (1 << 63, 3),
        (0xffff_ffff, 0x1_0000_0001),
    ] {
        assert_eq!(run(x, y), u128::from(x) * u128::from(y), "{x:#x} * {y:#x}");
    }
    qc((|x: u64, y: u64| run(x, y) == u128::from(x) * u128::from(y)) as fn(u64, u64) -> bool);
}

#[test]
fn mad_cc_vectors() {
    table!(mad_cc, [
        // lo(0xffffffff^2) = 1, + 0xffffffff = 2^32: carry
        (U32, false, 0xffff_ffff, 0xffff_ffff, 0xffff_ffff, false) => (0, true),
        // hi(0xffffffff^2) = 0xfffffffe, + 1 + CF = 2^32
        (U32, true, 0xffff_ffff, 0xffff_ffff, 1, true) => (0, true),
        // signed hi(-1 * 1) = 0xffffffff, + 1 carries out of the unsigned word
        (S32, true, 0xffff_ffff, 1, 1, false) => (0, true),
        (U32, false, 3, 4, 5, true) => (18, false),
        (U64, true, u64::MAX, u64::MAX, 1, false) => (u64::MAX, false),
    ]);
}

// ------------------------------------------------------------------------------------------
// mul / mad
// ------------------------------------------------------------------------------------------

#[test]
fn mul_vectors() {
    table!(mul_lo, [
        (U32, 0xffff_ffff, 0xffff_ffff) => 1,
        (S16, 0xffff, 0x8000) => 0x8000, // (-1)(-32768) = 32768: low 16 bits 0x8000
        (S64, IMIN64, u64::MAX) => IMIN64, // MIN * -1 wraps
        (U8, 0x10, 0x10) => 0,
    ]);
    table!(mul_hi, [
        (U32, 0xffff_ffff, 0xffff_ffff) => 0xffff_fffe, // 2^64 - 2^33 + 1
        (S32, 0xffff_ffff, 0xffff_ffff) => 0,           // (-1)(-1) = 1
        (S32, 0x8000_0000, 0x8000_0000) => 0x4000_0000, // 2^62
        (S32, 0x8000_0000, 0x7fff_ffff) => 0xc000_0000, // -2^62 + 2^31 = 0xC0000000_80000000
        (S32, 0xffff_ffff, 2) => 0xffff_ffff,           // -2: high word all ones
        (U32, 0xffff_ffff, 2) => 1,
        (S16, 0xffff, 0x8000) => 0,                     // 32768 = 0x0000_8000
        (U16, 0xffff, 0x8000) => 0x7fff,                // 0x7fff_8000
        (U64, u64::MAX, u64::MAX) => u64::MAX - 1,
        (S64, IMIN64, IMIN64) => 0x4000_0000_0000_0000, // 2^126
        (S64, IMIN64, u64::MAX) => 0,                   // 2^63
        (S64, u64::MAX, 1) => u64::MAX,                 // -1
    ]);
    table!(mul_wide, [
        (S16, 0xffff, 0x8000) => 0x8000,
        (U16, 0xffff, 0xffff) => 0xfffe_0001,
        (S16, 0x8000, 0x7fff) => 0xc000_8000, // -2^15 * (2^15 - 1) = -1073709056
        (S32, 0x8000_0000, 0x8000_0000) => 0x4000_0000_0000_0000,
        (S32, 0xffff_ffff, 5) => 0xffff_ffff_ffff_fffb,
        (U32, 0xffff_ffff, 5) => 0x4_ffff_fffb,
    ]);
}

#[test]
fn mul_props() {
    qc((|a: u64, b: u64| {
        let (sa32, sb32) = (i64::from(a as i32), i64::from(b as i32));
        let (ua32, ub32) = (u64::from(a as u32), u64::from(b as u32));
        let (sa16, sb16) = (i32::from(a as i16), i32::from(b as i16));
        let p128s = i128::from(a as i64) * i128::from(b as i64);
        let p128u = u128::from(a) * u128::from(b);
        mul_lo(S32, a, b) == u64::from((a as i32).wrapping_mul(b as i32) as u32)
            && mul_hi(S32, a, b) == u64::from(((sa32 * sb32) >> 32) as u32)
            && mul_hi(U32, a, b) == (ua32 * ub32) >> 32
            && mul_wide(S32, a, b) == (sa32 * sb32) as u64
            && mul_wide(U32, a, b) == ua32 * ub32
            && mul_wide(S16, a, b) == u64::from((sa16 * sb16) as u32)
            && mul_hi(S16, a, b) == u64::from(((sa16 * sb16) >> 16) as u16)
            && mul_hi(S64, a, b) == (p128s >> 64) as u64
            && mul_hi(U64, a, b) == (p128u >> 64) as u64
            && mul_lo(U64, a, b) == a.wrapping_mul(b)
    }) as fn(u64, u64) -> bool);
}

#[test]
fn mad_vectors() {
    table!(mad_lo, [
        (U32, 0xffff_ffff, 0xffff_ffff, 0xffff_ffff) => 0, // 1 + 0xffffffff wraps
        (S16, 0xffff, 0xffff, 0x7fff) => 0x8000,          // 1 + 32767 wraps to -32768
    ]);
    table!(mad_hi, [
        (U32, 0xffff_ffff, 0xffff_ffff, 2) => 0,                   // 0xfffffffe + 2
        (S32, 0x8000_0000, 0x8000_0000, 0xc000_0000) => 0,         // 2^30 + -2^30
    ]);
    table!(mad_wide, [
        (S32, 0xffff_ffff, 0xffff_ffff, u64::MAX) => 0,            // 1 + (-1)
        (U16, 0xffff, 0xffff, 0x1_ffff) => 0,                      // 0xfffe0001 + 0x1ffff = 2^32
        (U32, 0xffff_ffff, 0xffff_ffff, 0x1_0000_0000) => 0xffff_ffff_0000_0001, // 0xfffffffe_00000001 + 2^32
        (U32, 0xffff_ffff, 0xffff_ffff, 0x1_ffff_ffff) => 0, // 0xfffffffe_00000001 + 0x1_ffffffff = 2^64
    ]);
    table!(mad_hi_sat_s32, [
        (0x7fff_ffff, 0x7fff_ffff, 0x7fff_ffff) => 0x7fff_ffff, // 0x3fffffff + MAX saturates
        (0x8000_0000, 0x7fff_ffff, 0x8000_0000) => 0x8000_0000, // -2^30 + MIN saturates
        (0xffff_ffff, 0xffff_ffff, 5) => 5,                     // hi(1) = 0
        (2, 3, 0xffff_ffff) => 0xffff_ffff,                     // 0 + -1
        (0x8000_0000, 0x8000_0000, 0x4000_0000) => 0x7fff_ffff, // 2^30 + 2^30 = 2^31
    ]);
}

#[test]
fn mad_props() {
    qc((|a: u64, b: u64, c: u64| {
        let p = i64::from(a as i32) * i64::from(b as i32);
        mad_lo(U32, a, b, c) == u64::from((a as u32).wrapping_mul(b as u32).wrapping_add(c as u32))
            && mad_hi(S32, a, b, c) == u64::from(((p >> 32) as i32).wrapping_add(c as i32) as u32)
            && mad_hi_sat_s32(a, b, c)
                == u64::from(((p >> 32) as i32).saturating_add(c as i32) as u32)
            && mad_wide(S32, a, b, c) == (p as u64).wrapping_add(c)
            && mad_wide(U16, a, b, c)
                == u64::from((u32::from(a as u16) * u32::from(b as u16)).wrapping_add(c as u32))
    }) as fn(u64, u64, u64) -> bool);
}

// ------------------------------------------------------------------------------------------
// mul24 / mad24
// ------------------------------------------------------------------------------------------

#[test]
fn mul24_vectors() {
    // (2^24-1)^2 = 2^48 - 2^25 + 1 = 0xFFFF_FE00_0001: bits 31..0 and 47..16.
    assert_eq!(mul24_lo(U32, 0x00ff_ffff, 0x00ff_ffff), 0xfe00_0001);
    assert_eq!(mul24_hi(U32, 0x00ff_ffff, 0x00ff_ffff), 0xffff_fe00);
    // Bits 31:24 of the sources are not part of the 24-bit operands.
    assert_eq!(mul24_lo(U32, 0xff00_0002, 3), 6);
    assert_eq!(mul24_hi(U32, 0xff00_0002, 3), 0);
    // Signed: 0xffffff is -1 as a 24-bit value.
    assert_eq!(mul24_lo(S32, 0x00ff_ffff, 0x00ff_ffff), 1);
    assert_eq!(mul24_hi(S32, 0x00ff_ffff, 0x00ff_ffff), 0);
    // (-2^23)^2 = 2^46: bits 47..16 = 2^30, low word 0.
    assert_eq!(mul24_hi(S32, 0x0080_0000, 0x0080_0000), 0x4000_0000);
    assert_eq!(mul24_lo(S32, 0x0080_0000, 0x0080_0000), 0);
    // -2^23 * (2^23-1) = -2^46 + 2^23: >> 16 = -2^30 + 2^7; mod 2^32 = 2^23.
    assert_eq!(mul24_hi(S32, 0x0080_0000, 0x007f_ffff), 0xc000_0080);
    assert_eq!(mul24_lo(S32, 0x0080_0000, 0x007f_ffff), 0x0080_0000);
    // 2^16 * 2^16 = 2^32: bits 47..16 = 2^16.
    assert_eq!(mul24_hi(U32, 0x0001_0000, 0x0001_0000), 0x0001_0000);
    assert_eq!(mul24_hi(U32, 0x12_3456, 0x100), 0x1234); // 0x1234_5600 >> 16
    assert_eq!(mul24_lo(U32, 0x12_3456, 0x100), 0x1234_5600);
    // mad24
    assert_eq!(mad24_lo(U32, 0x00ff_ffff, 0x00ff_ffff, 0x01ff_ffff), 0); // 0xfe000001 + 0x1ffffff
    assert_eq!(mad24_hi(S32, 0x0080_0000, 0x0080_0000, 0xc000_0000), 0);
    assert_eq!(
        mad24_hi_sat_s32(0x0080_0000, 0x0080_0000, 0x4000_0000),
        0x7fff_ffff
    );
    assert_eq!(
        mad24_hi_sat_s32(0x0080_0000, 0x007f_ffff, 0x8000_0000),
        0x8000_0000
    );
    assert_eq!(mad24_hi_sat_s32(0x100, 0x100, 1), 2); // 0x10000 >> 16 = 1, + 1
}

#[test]
fn mul24_props() {
    qc((|a: u32, b: u32, c: u32| {
        let (sa, sb) = (
            i64::from((a << 8) as i32 >> 8),
            i64::from((b << 8) as i32 >> 8),
        );
        let (ua, ub) = (u64::from(a & 0xff_ffff), u64::from(b & 0xff_ffff));
        let (ps, pu) = (sa * sb, ua * ub);
        let (a, b, c64) = (u64::from(a), u64::from(b), u64::from(c));
        mul24_lo(S32, a, b) == u64::from(ps as u32)
            && mul24_hi(S32, a, b) == u64::from((ps >> 16) as u32)
            && mul24_lo(U32, a, b) == u64::from(pu as u32)
            && mul24_hi(U32, a, b) == u64::from((pu >> 16) as u32)
            && mad24_hi(U32, a, b, c64) == u64::from(((pu >> 16) as u32).wrapping_add(c))
            && mad24_hi_sat_s32(a, b, c64)
                == u64::from(((ps >> 16) as i32).saturating_add(c as i32) as u32)
    }) as fn(u32, u32, u32) -> bool);
}

// ------------------------------------------------------------------------------------------
// sad / div / rem / abs / neg / min / max
// ------------------------------------------------------------------------------------------

#[test]
fn sad_vectors() {
    table!(sad, [
        (U32, 3, 10, 100) => 107,
        (U32, 10, 3, 100) => 107,
        (S32, 0xffff_fffd, 4, 0) => 7,                // |-3 - 4|
        (U32, 0xffff_fffd, 4, 0) => 0xffff_fff9,      // unsigned 4294967293 - 4
        (S32, 0x7fff_ffff, 0x8000_0000, 0) => 0xffff_ffff, // 2^32 - 1
        (S32, 0x7fff_ffff, 0x8000_0000, 1) => 0,      // wraps
        (U16, 0, 0xffff, 1) => 0,
        (S16, 0x8000, 0x7fff, 0) => 0xffff,
        (S64, IMIN64, IMAX64, 0) => u64::MAX,
    ]);
}

#[test]
fn sad_props() {
    qc((|a: u64, b: u64, c: u64| {
        sad(S32, a, b, c) == u64::from((a as i32).abs_diff(b as i32).wrapping_add(c as u32))
            && sad(U32, a, b, c) == u64::from((a as u32).abs_diff(b as u32).wrapping_add(c as u32))
            && sad(S64, a, b, c) == (a as i64).abs_diff(b as i64).wrapping_add(c)
            && sad(U8, a, b, c) == u64::from((a as u8).abs_diff(b as u8).wrapping_add(c as u8))
    }) as fn(u64, u64, u64) -> bool);
}

#[test]
fn div_rem_vectors() {
    let m = |x: i32| u64::from(x as u32);
    table!(div, [
        (U32, 7, 2) => Some(3),
        (S32, m(-7), 2) => Some(m(-3)),   // truncates toward zero
        (S32, 7, m(-2)) => Some(m(-3)),
        (S32, m(-7), m(-2)) => Some(3),
        (S32, 0x8000_0000, m(-1)) => Some(0x8000_0000), // INT_MIN / -1 = INT_MIN (docs/SEMANTICS.md)
        (S64, IMIN64, u64::MAX) => Some(IMIN64),
        (S16, 0x8000, 0xffff) => Some(0x8000),
        (S8, 0x80, 0xff) => Some(0x80),
        (U32, 5, 0) => None,
        (S32, 5, 0x1_0000_0000) => None,   // upper bits ignored: divisor is 0
        (U32, 0xffff_ffff, 0xffff_ffff) => Some(1),
        (U64, u64::MAX, 2) => Some(IMAX64),
        (U16, 0xffff, 0xff) => Some(0x101),
        (S32, 0x8000_0000, 2) => Some(0xc000_0000),
        (S32, 0, m(-5)) => Some(0),
    ]);
    table!(rem, [
        (U32, 7, 2) => Some(1),
        (S32, m(-7), 2) => Some(m(-1)),   // sign follows the dividend
        (S32, 7, m(-2)) => Some(1),
        (S32, m(-7), m(-2)) => Some(m(-1)),
        (S32, 0x8000_0000, m(-1)) => Some(0), // INT_MIN rem -1 = 0 (docs/SEMANTICS.md)
        (S64, IMIN64, u64::MAX) => Some(0),
        (S32, 0x8000_0000, 3) => Some(m(-2)), // 2^31 = 3 * 715827882 + 2
        (U32, 5, 0) => None,
        (S64, 5, 0) => None,
        (U16, 0xffff, 0xff) => Some(0),
    ]);
}

#[test]
fn div_rem_props() {
    qc((|a: u64, b: u64| {
        let ok32 = div(S32, a, b)
            == (b as i32 != 0).then(|| u64::from((a as i32).wrapping_div(b as i32) as u32))
            && rem(S32, a, b)
                == (b as i32 != 0).then(|| u64::from((a as i32).wrapping_rem(b as i32) as u32))
            && div(U32, a, b) == (a as u32).checked_div(b as u32).map(u64::from)
            && rem(U32, a, b) == (a as u32).checked_rem(b as u32).map(u64::from);
        let ok64 = div(S64, a, b) == (b != 0).then(|| (a as i64).wrapping_div(b as i64) as u64)
            && rem(U64, a, b) == a.checked_rem(b)
            && div(S16, a, b)
                == (b as i16 != 0).then(|| u64::from((a as i16).wrapping_div(b as i16) as u16));
        ok32 && ok64
    }) as fn(u64, u64) -> bool);
    // Small divisors hit the interesting cases (-1, 1, 0) more often.
    qc((|a: u64, b: i8| {
        let b = b as i64 as u64;
        div(S32, a, b)
            == (b as i32 != 0).then(|| u64::from((a as i32).wrapping_div(b as i32) as u32))
            && rem(S64, a, b) == (b != 0).then(|| (a as i64).wrapping_rem(b as i64) as u64)
    }) as fn(u64, i8) -> bool);
}

#[test]
fn abs_neg_vectors() {
    table!(abs, [
        (S32, 0x8000_0000) => 0x8000_0000, // wraps
        (S32, 0xffff_ffff) => 1,
        (S32, 5) => 5,
        (S16, 0x8000) => 0x8000,
        (S16, 0xfffe) => 2,
        (S64, IMIN64) => IMIN64,
        (S64, (-9i64) as u64) => 9,
        (S8, 0x81) => 0x7f,
        (S32, 0x1_ffff_ffff) => 1, // upper bits ignored
    ]);
    table!(neg, [
        (S32, 1) => 0xffff_ffff,
        (S32, 0x8000_0000) => 0x8000_0000,
        (S32, 0) => 0,
        (S16, 0x0001_0001) => 0xffff,
        (S64, 1) => u64::MAX,
    ]);
    qc((|a: u64| {
        abs(S32, a) == u64::from((a as i32).wrapping_abs() as u32)
            && abs(S64, a) == (a as i64).wrapping_abs() as u64
            && abs(S16, a) == u64::from((a as i16).wrapping_abs() as u16)
            && neg(S32, a) == u64::from((a as i32).wrapping_neg() as u32)
            && neg(S8, a) == u64::from((a as i8).wrapping_neg() as u8)
    }) as fn(u64) -> bool);
}

#[test]
fn min_max_vectors() {
    table!(min, [
        (S32, 0xffff_ffff, 1) => 0xffff_ffff,
        (U32, 0xffff_ffff, 1) => 1,
        (S16, 0x8000, 0x7fff) => 0x8000,
        (U64, u64::MAX, 0) => 0,
        (S32, 0x1_0000_0005, 3) => 3,
    ]);
    table!(max, [
        (S32, 0xffff_ffff, 1) => 1,
        (U32, 0xffff_ffff, 1) => 0xffff_ffff,
        (S64, IMIN64, IMAX64) => IMAX64,
        (S32, 0x1_0000_0005, 3) => 5, // zero-extended result
        (U8, 0x80, 0x7f) => 0x80,
        (S8, 0x80, 0x7f) => 0x7f,
    ]);
    table!(min_relu_s32, [
        (0xffff_fffb, 3) => 0, // min = -5, clamped to 0
        (7, 3) => 3,
    ]);
    table!(max_relu_s32, [
        (0xffff_fffb, 0xffff_fff0) => 0, // max(-5, -16) = -5 -> 0
        (0xffff_fffb, 2) => 2,
    ]);
    table!(min_16x2, [
        (false, false, 0x0001_ffff, 0xffff_0002) => 0x0001_0002,
        (true, false, 0x0001_ffff, 0xffff_0002) => 0xffff_ffff, // min(1,-1), min(-1,2)
        (true, true, 0x0001_ffff, 0xffff_0002) => 0,             // .relu
        (true, false, 0x8000_7fff, 0x7fff_8000) => 0x8000_8000,
    ]);
    table!(max_16x2, [
        (false, false, 0x0001_ffff, 0xffff_0002) => 0xffff_ffff,
        (true, false, 0x0001_ffff, 0xffff_0002) => 0x0001_0002,
        (true, true, 0x8000_0005, 0xfff0_0003) => 0x0000_0005, // max(-32768,-16) -> 0
    ]);
}

#[test]
fn min_max_props() {
    qc((|a: u64, b: u64| {
        min(S32, a, b) == u64::from((a as i32).min(b as i32) as u32)
            && max(S32, a, b) == u64::from((a as i32).max(b as i32) as u32)
            && min(U32, a, b) == u64::from((a as u32).min(b as u32))
            && max(U16, a, b) == u64::from((a as u16).max(b as u16))
            && min(S64, a, b) == (a as i64).min(b as i64) as u64
            && max(U64, a, b) == a.max(b)
            && min(S8, a, b) == u64::from((a as i8).min(b as i8) as u8)
            && max_relu_s32(a, b) == u64::from((a as i32).max(b as i32).max(0) as u32)
            && min_relu_s32(a, b) == u64::from((a as i32).min(b as i32).max(0) as u32)
    }) as fn(u64, u64) -> bool);
}

// ------------------------------------------------------------------------------------------
// popc / clz / bfind / brev
// ------------------------------------------------------------------------------------------

#[test]
fn count_vectors() {
    table!(popc, [
        (B32, 0) => 0,
        (B32, 0xffff_ffff) => 32,
        (B64, u64::MAX) => 64,
        (B32, 0x1_0000_0001) => 1,
        (B32, 0x8000_0001) => 2,
    ]);
    table!(clz, [
        (B32, 0) => 32, // "between 0 and 32, inclusively"
        (B64, 0) => 64,
        (B32, 1) => 31,
        (B32, 0x8000_0000) => 0,
        (B64, 1) => 63,
        (B32, 0x1_0000_0000) => 32,
        (B32, 0x0001_0000) => 15,
        (B16, 1) => 15,
    ]);
    table!(bfind, [
        (U32, 0, false) => NF,
        (U32, 0, true) => NF,
        (U32, 1, false) => 0,
        (U32, 1, true) => 31,
        (U32, 0x8000_0000, false) => 31,
        (U32, 0x8000_0000, true) => 0,
        (S32, 0xffff_ffff, false) => NF, // -1: no non-sign bit
        (S32, 0xffff_ffff, true) => NF,
        (S32, 0xffff_fffe, false) => 0,  // ~(-2) = 1
        (S32, 0xffff_fffe, true) => 31,
        (S32, 0x8000_0000, false) => 30, // ~MIN = 0x7fffffff
        (S32, 0x8000_0000, true) => 1,
        (S32, 0x7fff_ffff, false) => 30,
        (S32, 1, false) => 0,
        (S32, 0, false) => NF,
        (U64, 1 << 40, false) => 40,
        (U64, 1 << 40, true) => 23,
        (S64, u64::MAX, false) => NF,
        (S64, IMIN64, false) => 62,
        (U32, 0x1_0000_0000, false) => NF, // upper bits ignored
    ]);
    table!(brev, [
        (B32, 1) => 0x8000_0000,
        (B32, 0xf0) => 0x0f00_0000,
        (B64, 1) => IMIN64,
        (B32, 0x1_0000_0000) => 0,
        (B32, 0x1234_5678) => 0x1e6a_2c48,
    ]);
}

#[test]
fn count_props() {
    qc((|a: u64| {
        let a32 = a as u32;
        let bfind_u32 = if a32 == 0 {
            NF
        } else {
            u64::from(31 - a32.leading_zeros())
        };
        let s = if (a32 as i32) < 0 { !a32 } else { a32 };
        let bfind_s32 = if s == 0 {
            NF
        } else {
            u64::from(31 - s.leading_zeros())
        };
        let s64 = if (a as i64) < 0 { !a } else { a };
        let bfind_s64_sh = if s64 == 0 {
            NF
        } else {
            u64::from(s64.leading_zeros())
        };
        popc(B32, a) == u64::from(a32.count_ones())
            && popc(B64, a) == u64::from(a.count_ones())
            && clz(B32, a) == u64::from(a32.leading_zeros())
            && clz(B64, a) == u64::from(a.leading_zeros())
            && clz(B16, a) == u64::from((a as u16).leading_zeros())
            && bfind(U32, a, false) == bfind_u32
            && bfind(S32, a, false) == bfind_s32
            && bfind(S64, a, true) == bfind_s64_sh
            && brev(B32, a) == u64::from(a32.reverse_bits())
            && brev(B64, a) == a.reverse_bits()
    }) as fn(u64) -> bool);
}

// ------------------------------------------------------------------------------------------
// fns
// ------------------------------------------------------------------------------------------

/// Literal transliteration of the ISA 9.7.1.17 pseudocode (base <= 31).
fn fns_ref(mask: u32, base: u32, offset: i32) -> u32 {
    let mut d = 0xffff_ffffu32;
    if offset == 0 {
        if (mask >> base) & 1 == 1 {
            d = base;
        }
    } else {
        let mut pos = i64::from(base);
        let mut count = i64::from(offset).abs() - 1;
        let inc = if offset > 0 { 1 } else { -1 };
        while (0..32).contains(&pos) {
            if (mask >> pos) & 1 == 1 {
                if count == 0 {
                    d = pos as u32;
                    break;
                } else {
                    count -= 1;
                }
            }
            pos += inc;
        }
    }
    d
}

#[test]
fn fns_vectors() {
    let nf = 0xffff_ffffu32;
    table!(fns, [
        // The ISA's own examples.
        (0xaaaa_aaaa, 3, 1) => 3,
        (0xaaaa_aaaa, 3, -1) => 3,
        (0xaaaa_aaaa, 2, 1) => 3,
        (0xaaaa_aaaa, 2, -1) => 1,
        // offset 0: mask[base] or not found.
        (0xaaaa_aaaa, 3, 0) => 3,
        (0xaaaa_aaaa, 2, 0) => nf,
        // counting upward from bit 0: odd bits 1, 3, ..., 31 (16 of them).
        (0xaaaa_aaaa, 0, 1) => 1,
        (0xaaaa_aaaa, 0, 2) => 3,
        (0xaaaa_aaaa, 0, 16) => 31,
        (0xaaaa_aaaa, 0, 17) => nf,
        // counting downward from bit 31: 31, 29, ..., 1.
        (0xaaaa_aaaa, 31, -16) => 1,
        (0xaaaa_aaaa, 31, -17) => nf,
        (0xaaaa_aaaa, 0, -1) => nf, // bit 0 clear, then pos = -1 ends the loop
        (0xffff_ffff, 31, 1) => 31,
        (0xffff_ffff, 31, 2) => nf,
        (0xffff_ffff, 0, -1) => 0,
        (0xffff_ffff, 0, -2) => nf,
        (0xffff_ffff, 0, 32) => 31,
        (0xffff_ffff, 31, -32) => 0,
        (0, 7, 1) => nf,
        (0, 7, 0) => nf,
        (0x8000_0001, 5, 1) => 31,
        (0x8000_0001, 5, -1) => 0,
        (0x8000_0001, 5, 2) => nf,
        (0xffff_ffff, 31, i32::MIN) => nf,
        (0xffff_ffff, 0, i32::MAX) => nf,
        (0xffff_ffff, 32, 1) => nf, // base > 31: undefined, reported via fns_base_is_ub
    ]);
    assert!(fns_base_is_ub(32));
    assert!(fns_base_is_ub(u32::MAX)); // base = -1 as .s32
    assert!(!fns_base_is_ub(31));
    assert!(!fns_base_is_ub(0));
}

#[test]
fn fns_props() {
    qc((|mask: u32, base: u32, off: i8| {
        let base = base % 32;
        let off = i32::from(off) % 40;
        fns(mask, base, off) == fns_ref(mask, base, off)
    }) as fn(u32, u32, i8) -> bool);
    qc((|mask: u32, base: u32, off: i32| {
        let base = base % 32;
        fns(mask, base, off) == fns_ref(mask, base, off)
    }) as fn(u32, u32, i32) -> bool);
}

// ------------------------------------------------------------------------------------------
// bfe / bfi
// ------------------------------------------------------------------------------------------

/// Literal transliteration of the ISA 9.7.1.19 pseudocode.
fn bfe_ref(t: IntTy, a: u64, b: u32, c: u32) -> u64 {
    let msb = t.bits - 1;
    let pos = b & 0xff;
    let len = c & 0xff;
    let abit = |i: u32| (a >> i) & 1;
    let sbit = if !t.signed || len == 0 {
        0
    } else {
        abit((pos + len - 1).min(msb))
    };
    let mut d = 0u64;
    for i in 0..=msb {
        let v = if i < len && pos + i <= msb {
            abit(pos + i)
        } else {
            sbit
        };
        d |= v << i;
    }
    d
}

/// Literal transliteration of the ISA 9.7.1.20 pseudocode.
fn bfi_ref(t: IntTy, a: u64, b: u64, c: u32, d: u32) -> u64 {
    let msb = t.bits - 1;
    let pos = c & 0xff;
    let len = d & 0xff;
    let mut f = b & (u64::MAX >> (63 - msb));
    let mut i = 0;
    while i < len && pos + i <= msb {
        f = (f & !(1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
        i += 1;
    }
    f
}

#[test]
fn bfe_vectors() {
    table!(bfe, [
        (U32, 0x1234_5678, 8, 8) => 0x56,
        (U32, 0x1234_5678, 0, 32) => 0x1234_5678,
        (U32, 0x8765_4321, 28, 8) => 0x8,              // cut at the msb: bits 31..28
        (S32, 0x8765_4321, 28, 8) => 0xffff_fff8,      // sbit = a[min(35,31)] = 1
        (S32, 0x8765_4321, 28, 4) => 0xffff_fff8,      // sbit = a[31] = 1
        (S32, 0x8765_4321, 24, 4) => 0x7,              // sbit = a[27] = 0
        (S32, 0x0000_00f0, 4, 4) => 0xffff_ffff,       // 0xf sign-extended from bit 3
        (U32, 0xffff_ffff, 5, 0) => 0,                 // len 0
        (S32, 0xffff_ffff, 3, 0) => 0,                 // len 0: sbit = 0 too
        (S32, 0x8000_0000, 32, 1) => 0xffff_ffff,      // pos beyond msb: replicated a[31]
        (U32, 0x8000_0000, 32, 1) => 0,
        (S32, 0x7fff_ffff, 40, 5) => 0,
        (U32, 0x1234_5678, 0x108, 0x208) => 0x56,      // pos, len taken & 0xff
        (U32, 0x1234_5678, 8, 0x100) => 0,             // len & 0xff = 0
        (S32, 0x1234_5678, 255, 255) => 0,
        (S32, 0x9234_5678, 255, 255) => 0xffff_ffff,
        (S64, IMIN64, 63, 1) => u64::MAX,
        (U64, 0xdead_beef_0000_0000, 32, 32) => 0xdead_beef,
        (S64, 0xdead_beef_0000_0000, 32, 16) => 0xffff_ffff_ffff_beef,
        (S64, 0x0000_7fff_0000_0000, 32, 16) => 0x7fff,
        (S32, 0x0000_8000, 0, 16) => 0xffff_8000,
        (U32, 0x1_0000_00ff, 4, 8) => 0x0f,            // upper input bits ignored
        (S32, 0xffff_ffff, 31, 1) => 0xffff_ffff,
        (U32, 0xffff_ffff, 31, 1) => 1,
        (S32, 0x4000_0000, 30, 1) => 0xffff_ffff,      // field 1, sign a[30] = 1
        (S32, 0x4000_0000, 30, 2) => 1,                // field 01, sign a[31] = 0
        (U64, u64::MAX, 60, 10) => 0xf,
        (S64, 0x0800_0000_0000_0000, 59, 10) => 1,     // a[63] = 0
    ]);
}

#[test]
fn bfe_props() {
    qc((|a: u64, pos: u8, len: u8| {
        [U32, S32, U64, S64].iter().all(|&t| {
            bfe(t, a, u32::from(pos), u32::from(len))
                == bfe_ref(t, a, u32::from(pos), u32::from(len))
        })
    }) as fn(u64, u8, u8) -> bool);
    // Small positions/lengths (the interesting region), and full-range u32 operands.
    qc((|a: u64, pos: u32, len: u32| {
        let (p, l) = (pos % 70, len % 70);
        [U32, S32, U64, S64].iter().all(|&t| {
            bfe(t, a, p, l) == bfe_ref(t, a, p, l) && bfe(t, a, pos, len) == bfe_ref(t, a, pos, len)
        })
    }) as fn(u64, u32, u32) -> bool);
    // Bits of a above the type's width never matter.
    qc((|a: u64, p: u8, l: u8| {
        bfe(S32, a, u32::from(p), u32::from(l)) == bfe_ref(S32, a & NF, p.into(), l.into())
    }) as fn(u64, u8, u8) -> bool);
}

#[test]
fn bfi_vectors() {
    table!(bfi, [
        (B32, 0xff, 0, 8, 8) => 0x0000_ff00,
        (B32, 0xffff_ffff, 0x1234_5678, 8, 8) => 0x1234_ff78,
        (B32, 0xab, 0x1234_5678, 0, 0) => 0x1234_5678,   // len 0: result is b
        (B32, 0xab, 0x1234_5678, 32, 8) => 0x1234_5678,  // pos beyond msb: result is b
        (B32, 0xab, 0x1234_5678, 28, 8) => 0xb234_5678,  // only 4 bits fit
        (B32, 0, 0xffff_ffff, 4, 0x108) => 0xffff_f00f,  // len & 0xff = 8
        (B32, 0xf, 0, 0x104, 4) => 0xf0,                 // pos & 0xff = 4
        (B32, 0xdead_beef, 0, 0, 32) => 0xdead_beef,
        (B32, 0xdead_beef, 0, 0, 255) => 0xdead_beef,
        (B32, 0xdead_beef, 0x1234, 0, 256) => 0x1234,    // len & 0xff = 0
        (B64, 0xffff, 0, 56, 16) => 0xff00_0000_0000_0000,
        (B64, 1, 0, 63, 1) => IMIN64,
        (B64, 0, u64::MAX, 64, 1) => u64::MAX,
        (B32, 1, 0x1_0000_0000, 0, 1) => 1,              // result zero-extended
        (B32, 0x5, 0xffff_ffff, 31, 1) => 0xffff_ffff,   // bit 0 of a (1) into bit 31
        (B32, 0x4, 0xffff_ffff, 31, 1) => 0x7fff_ffff,   // bit 0 of a (0) into bit 31
    ]);
}

#[test]
fn bfi_props() {
    qc((|a: u64, b: u64, pos: u32, len: u32| {
        let (p, l) = (pos % 70, len % 70);
        [B32, B64].iter().all(|&t| {
            bfi(t, a, b, p, l) == bfi_ref(t, a, b, p, l)
                && bfi(t, a, b, pos, len) == bfi_ref(t, a, b, pos, len)
        })
    }) as fn(u64, u64, u32, u32) -> bool);
}

// ------------------------------------------------------------------------------------------
// bmsk / szext
// ------------------------------------------------------------------------------------------

/// Literal transliteration of the ISA 9.7.1.22 pseudocode (shifts done in u64 so that the
/// pseudocode's out-of-range shifts are well defined; they are masked by the overflow flags).
fn bmsk_ref(a: u32, b: u32, clamp: bool) -> u32 {
    let a1 = a & 0x1f;
    let mut mask0 = (!0u64 << a1) as u32;
    let b1 = b & 0x1f;
    let sum = a1 + b1;
    let mut mask1 = (!0u64 << sum) as u32;
    let sum_overflow = sum >= 32;
    let mut bit_position_overflow = false;
    let mut bit_width_overflow = false;
    if clamp {
        if a >= 32 {
            bit_position_overflow = true;
            mask0 = 0;
        }
        if b >= 32 {
            bit_width_overflow = true;
        }
    }
    if sum_overflow || bit_position_overflow || bit_width_overflow {
        mask1 = 0;
    } else if b1 == 0 {
        mask1 = !0;
    }
    mask0 & !mask1
}

/// Literal transliteration of the ISA 9.7.1.21 pseudocode.
fn szext_ref(signed: bool, a: u32, b: u32, clamp: bool) -> u32 {
    let b1 = b & 0x1f;
    let too_large = b >= 32 && clamp;
    let mask = if too_large { 0 } else { (!0u64 << b1) as u32 };
    let sign_pos = (b1.wrapping_sub(1)) & 0x1f;
    let sign_bit = if b1 == 0 || too_large || !signed {
        false
    } else {
        (a >> sign_pos) & 1 == 1
    };
    (a & !mask) | (if sign_bit { mask } else { 0 })
}

#[test]
fn bmsk_vectors() {
    table!(bmsk, [
        (1, 2, false) => 0x6, // ISA example: bmsk.wrap.b32 rd, 1, 2 -> 0x00000006
        (1, 2, true) => 0x6,
        (0, 0, true) => 0,
        (0, 32, true) => 0xffff_ffff, // clamp: width 32 allowed
        (0, 32, false) => 0,          // wrap: 32 & 31 = 0 -> 0
        (0, 31, false) => 0x7fff_ffff,
        (4, 4, false) => 0xf0,
        (28, 8, true) => 0xf000_0000, // cut at bit 31
        (32, 4, true) => 0,           // clamp: position >= 32 -> 0
        (32, 4, false) => 0xf,        // wrap: position 0
        (33, 1, false) => 0x2,
        (5, 100, true) => 0xffff_ffe0, // clamp: width >= 32 -> through bit 31
        (5, 100, false) => 0x1e0,      // wrap: width 100 & 31 = 4
        (31, 1, true) => 0x8000_0000,
        (31, 2, true) => 0x8000_0000,
        (u32::MAX, u32::MAX, true) => 0,
        (u32::MAX, u32::MAX, false) => 0x8000_0000, // a1 = 31, b1 = 31
        (3, 0, false) => 0,
        (3, 64, false) => 0,
    ]);
}

#[test]
fn szext_vectors() {
    table!(szext, [
        (false, 0xffff_ffff, 0, false) => 0, // ISA example: szext.wrap.u32 rd, 0xffffffff, 0
        (true, 0x80, 8, true) => 0xffff_ff80,
        (false, 0x80, 8, true) => 0x80,
        (true, 0x17f, 8, true) => 0x7f,
        (true, 0x1234_5678, 32, true) => 0x1234_5678, // clamp, N >= 32: a
        (true, 0x8234_5678, 40, true) => 0x8234_5678,
        (true, 0x8234_5678, 32, false) => 0,          // wrap: N = 0
        (true, 0x3, 33, false) => 0xffff_ffff,        // wrap: N = 1, bit 0 set
        (false, 0x3, 33, false) => 1,
        (true, 0xffff_ffff, 0, true) => 0,
        (true, 0x8000_0000, 31, true) => 0,           // bit 30 clear
        (true, 0x4000_0000, 31, true) => 0xc000_0000,
        (true, 1, 1, true) => 0xffff_ffff,
        (false, 0xffff_ffff, 16, false) => 0xffff,
        (true, 0x8000, 16, false) => 0xffff_8000,
    ]);
}

#[test]
fn bmsk_szext_props() {
    qc((|a: u32, b: u32, clamp: bool| {
        let (sa, sb) = (a % 70, b % 70);
        bmsk(a, b, clamp) == bmsk_ref(a, b, clamp) && bmsk(sa, sb, clamp) == bmsk_ref(sa, sb, clamp)
    }) as fn(u32, u32, bool) -> bool);
    // Semantic restatement for in-range operands: bits [a, min(a+b, 32)).
    qc((|a: u8, b: u8, clamp: bool| {
        let (a, b) = (u32::from(a % 32), u32::from(b % 32));
        let hi = (a + b).min(32);
        let want = ((1u64 << hi) - (1u64 << a)) as u32;
        bmsk(a, b, clamp) == want
    }) as fn(u8, u8, bool) -> bool);
    qc((|s: bool, a: u32, b: u32, clamp: bool| {
        let sb = b % 70;
        szext(s, a, b, clamp) == szext_ref(s, a, b, clamp)
            && szext(s, a, sb, clamp) == szext_ref(s, a, sb, clamp)
    }) as fn(bool, u32, u32, bool) -> bool);
    // For 1 <= N <= 31 szext is plain sign/zero extension from N bits.
    qc((|a: u32, n: u8| {
        let n = u32::from(n % 31) + 1;
        u64::from(szext(true, a, n, true)) == trunc(32, sext(n, u64::from(a)))
            && u64::from(szext(false, a, n, false)) == trunc(n, u64::from(a))
    }) as fn(u32, u8) -> bool);
}

// ------------------------------------------------------------------------------------------
// dp4a / dp2a
// ------------------------------------------------------------------------------------------

#[test]
fn dp_vectors() {
    table!(dp4a, [
        (false, false, 0x0102_0304, 0x0506_0708, 0) => 70, // 4*8 + 3*7 + 2*6 + 1*5
        (true, true, 0xffff_ffff, 0xffff_ffff, 0) => 4,     // 4 * (-1)(-1)
        (false, false, 0xffff_ffff, 0xffff_ffff, 0) => 260_100, // 4 * 255 * 255
        (true, false, 0xffff_ffff, 0xffff_ffff, 0) => (-1020i32) as u32, // 4 * (-1 * 255)
        (false, true, 0x8000_0000, 0x8000_0000, 0) => (-16384i32) as u32, // 128 * -128
        (true, true, 0x8080_8080, 0x8080_8080, 0) => 0x10000, // 4 * 16384
        (false, false, 1, 1, 0xffff_ffff) => 0,              // 32-bit wrap
        (true, true, 0xff, 1, 5) => 4,                       // -1 + 5
    ]);
    table!(dp2a, [
        (false, false, false, 0x0002_0003, 0x0807_0605, 0) => 27, // 3*5 + 2*6
        (true, false, false, 0x0002_0003, 0x0807_0605, 0) => 37,  // 3*7 + 2*8
        (false, true, true, 0xffff_8000, 0x0000_ff01, 10) => 0xffff_800b, // -32768*1 + (-1)(-1) + 10
        (true, false, true, 0xffff_ffff, 0x8080_0000, 0) => 0xff00_0100,  // 2 * 65535 * -128
    ]);
}

#[test]
fn dp_props() {
    qc((|sa: bool, sb: bool, a: u32, b: u32, c: u32| {
        let ab = a.to_le_bytes();
        let bb = b.to_le_bytes();
        let ext = |x: u8, s: bool| if s { i32::from(x as i8) } else { i32::from(x) };
        let mut d4 = c;
        for i in 0..4 {
            d4 = d4.wrapping_add((ext(ab[i], sa) * ext(bb[i], sb)) as u32);
        }
        let h = |i: u32| {
            let x = (a >> (16 * i)) as u16;
            if sa {
                i64::from(x as i16)
            } else {
                i64::from(x)
            }
        };
        let lo = i64::from(c) + h(0) * i64::from(ext(bb[0], sb)) + h(1) * i64::from(ext(bb[1], sb));
        let hi = i64::from(c) + h(0) * i64::from(ext(bb[2], sb)) + h(1) * i64::from(ext(bb[3], sb));
        dp4a(sa, sb, a, b, c) == d4
            && dp2a(false, sa, sb, a, b, c) == lo as u32
            && dp2a(true, sa, sb, a, b, c) == hi as u32
    }) as fn(bool, bool, u32, u32, u32) -> bool);
}

// ------------------------------------------------------------------------------------------
// Logic
// ------------------------------------------------------------------------------------------

#[test]
fn logic_vectors() {
    assert_eq!(and(B32, 0xff00_ff00, 0x0ff0_0ff0), 0x0f00_0f00);
    assert_eq!(or(B32, 0xff00_ff00, 0x0ff0_0ff0), 0xfff0_fff0);
    assert_eq!(xor(B32, 0xff00_ff00, 0x0ff0_0ff0), 0xf0f0_f0f0);
    assert_eq!(and(B16, 0xffff_ffff, 0xffff_ffff), 0xffff);
    assert_eq!(not(B32, 0), 0xffff_ffff);
    assert_eq!(not(B16, 0x1_0000), 0xffff);
    assert_eq!(not(B64, 0), u64::MAX);
    assert_eq!(cnot(B32, 0), 1);
    assert_eq!(cnot(B32, 5), 0);
    assert_eq!(cnot(B16, 0x1_0000), 1); // upper bits ignored
    assert_eq!(cnot(B64, IMIN64), 0);
}

#[test]
fn lop3_isa_definition_exhaustive() {
    // ISA: immLut = F(ta, tb, tc) with ta = 0xF0, tb = 0xCC, tc = 0xAA. Since lop3 applies F
    // bitwise, lop3(ta, tb, tc, immLut) must reproduce immLut in its low byte, for all 256 LUTs.
    for lut in 0..=255u8 {
        let r = lop3(0xF0, 0xCC, 0xAA, lut);
        assert_eq!(r & 0xff, u32::from(lut), "lut {lut:#04x}");
        assert_eq!(
            r >> 8,
            if lut & 1 == 1 { 0xff_ffff } else { 0 },
            "lut {lut:#04x}: zero bits"
        );
        let rep = |x: u32| x * 0x0101_0101;
        assert_eq!(
            lop3(rep(0xF0), rep(0xCC), rep(0xAA), lut),
            rep(u32::from(lut))
        );
    }
}

#[test]
fn lop3_common_luts() {
    // The ISA's worked examples: a&b&c = 0x80, a|b|c = 0xFE, a&b&~c = 0x40, (a&b|c)^a = 0x1A.
    qc((|a: u32, b: u32, c: u32| {
        lop3(a, b, c, 0x80) == a & b & c
            && lop3(a, b, c, 0xfe) == a | b | c
            && lop3(a, b, c, 0x40) == a & b & !c
            && lop3(a, b, c, 0x1a) == ((a & b) | c) ^ a
            && lop3(a, b, c, 0x96) == a ^ b ^ c
            && lop3(a, b, c, 0xe8) == (a & b) | (a & c) | (b & c)
            && lop3(a, b, c, 0xc0) == a & b
            && lop3(a, b, c, 0xf0) == a
            && lop3(a, b, c, 0xcc) == b
            && lop3(a, b, c, 0xaa) == c
            && lop3(a, b, c, 0x00) == 0
            && lop3(a, b, c, 0xff) == u32::MAX
            && lop3(a, b, c, 0x33) == !b // 0x33 = !0xcc = ~b
            && lop3(a, b, c, 0xe2) == (b & a) | (!b & c) // 0xe2 = (0xcc & 0xf0) | (!0xcc & 0xaa) = b ? a : c
            && lop3(a, b, c, 0xca) == (a & b) | (!a & c)
            && lop3(a, b, c, 0x3c) == a ^ b
    }) as fn(u32, u32, u32) -> bool);
    // Per-bit index rule: bit j = immLut[(a_j << 2) | (b_j << 1) | c_j].
    qc((|a: u32, b: u32, c: u32, lut: u8| {
        let d = lop3(a, b, c, lut);
        (0..32).all(|j| {
            let k = ((a >> j) & 1) << 2 | ((b >> j) & 1) << 1 | ((c >> j) & 1);
            (d >> j) & 1 == u32::from((lut >> k) & 1)
        })
    }) as fn(u32, u32, u32, u8) -> bool);
}

// ------------------------------------------------------------------------------------------
// Shifts
// ------------------------------------------------------------------------------------------

#[test]
fn shl_shr_vectors() {
    table!(shl, [
        (B32, 1, 0) => 1,
        (B32, 1, 31) => 0x8000_0000,
        (B32, 1, 32) => 0, // amounts >= width clamp to the width
        (B32, 1, 33) => 0,
        (B32, 1, 255) => 0,
        (B32, 1, 0xffff_ffff) => 0,
        (B32, 0x8000_0001, 1) => 2,
        (B16, 0xffff, 8) => 0xff00,
        (B16, 1, 15) => 0x8000,
        (B16, 1, 16) => 0,
        (B16, 1, 17) => 0,
        (B64, 1, 63) => IMIN64,
        (B64, 1, 64) => 0,
        (B64, 1, 65) => 0,
        (B64, 3, 62) => 0xc000_0000_0000_0000,
    ]);
    table!(shr, [
        (U32, 0x8000_0000, 0) => 0x8000_0000,
        (U32, 0x8000_0000, 31) => 1,
        (U32, 0x8000_0000, 32) => 0,
        (U32, 0x8000_0000, 33) => 0,
        (U32, 0x8000_0000, 0xffff_ffff) => 0,
        (S32, 0x8000_0000, 1) => 0xc000_0000,
        (S32, 0x8000_0000, 31) => 0xffff_ffff,
        (S32, 0x8000_0000, 32) => 0xffff_ffff, // clamped: all sign bits
        (S32, 0x8000_0000, 33) => 0xffff_ffff,
        (S32, 0x8000_0000, 255) => 0xffff_ffff,
        (S32, 0x8000_0000, 0xffff_ffff) => 0xffff_ffff,
        (S32, 0x7fff_ffff, 32) => 0,
        (S32, 0x7fff_ffff, 33) => 0,
        (S32, 0xffff_fff0, 4) => 0xffff_ffff,
        (S32, 0x1_7fff_ffff, 0) => 0x7fff_ffff, // upper bits ignored
        (S16, 0x8000, 15) => 0xffff,
        (S16, 0x8000, 16) => 0xffff,
        (U16, 0x8000, 15) => 1,
        (U16, 0x8000, 16) => 0,
        (S64, IMIN64, 63) => u64::MAX,
        (S64, IMIN64, 64) => u64::MAX,
        (S64, IMIN64, 65) => u64::MAX,
        (U64, IMIN64, 63) => 1,
        (U64, IMIN64, 64) => 0,
        (S8, 0x80, 7) => 0xff,
        (S8, 0x80, 8) => 0xff,
        (U8, 0x80, 7) => 1,
    ]);
}

#[test]
fn shl_shr_props() {
    qc((|a: u64, n: u32| {
        let small = n % 70;
        [n, small].iter().all(|&n| {
            shl(B32, a, n) == u64::from((a as u32).checked_shl(n).unwrap_or(0))
                && shl(B64, a, n) == a.checked_shl(n).unwrap_or(0)
                && shr(U32, a, n) == u64::from((a as u32).checked_shr(n).unwrap_or(0))
                && shr(S32, a, n) == u64::from(((a as i32) >> n.min(31)) as u32)
                && shr(S64, a, n) == ((a as i64) >> n.min(63)) as u64
                && shr(U16, a, n) == u64::from((a as u16).checked_shr(n).unwrap_or(0))
                && shr(S16, a, n) == u64::from(((a as i16) >> n.min(15)) as u16)
        })
    }) as fn(u64, u32) -> bool);
}

#[test]
fn shf_vectors() {
    let (a, b) = (0x89ab_cdef, 0x0123_4567);
    table!(shf_l, [
        (a, b, 0, false) => b,
        (a, b, 4, false) => 0x1234_5678,  // (b << 4) | (a >> 28)
        (a, b, 31, false) => 0xc4d5_e6f7, // (b << 31) | (a >> 1)
        (a, b, 32, false) => a,           // clamp: n = 32 -> a
        (a, b, 33, false) => a,           // clamp: min(33, 32)
        (a, b, 0xffff_ffff, false) => a,
        (a, b, 32, true) => b,            // wrap: 32 & 31 = 0
        (a, b, 33, true) => 0x0246_8acf,  // wrap: n = 1: (b << 1) | (a >> 31)
        (a, b, 64, true) => b,
        (a, b, 0xffff_ffff, true) => 0xc4d5_e6f7, // wrap: n = 31
    ]);
    table!(shf_r, [
        (a, b, 0, false) => a,
        (a, b, 4, false) => 0x789a_bcde,  // (b << 28) | (a >> 4)
        (a, b, 31, false) => 0x0246_8acf, // (b << 1) | (a >> 31)
        (a, b, 32, false) => b,
        (a, b, 33, false) => b,
        (a, b, 255, false) => b,
        (a, b, 32, true) => a,
        (a, b, 33, true) => 0xc4d5_e6f7,  // n = 1: (b << 31) | (a >> 1)
        (a, b, 255, true) => 0x0246_8acf, // n = 31
    ]);
}

#[test]
fn shf_props() {
    // ISA: "Use funnel shift to perform 32-bit left or right rotate by supplying the same value
    // for source arguments a and b."
    qc((|x: u32, n: u32| {
        shf_l(x, x, n, true) == x.rotate_left(n & 31)
            && shf_r(x, x, n, true) == x.rotate_right(n & 31)
            && shf_l(x, x, n % 32, false) == x.rotate_left(n % 32)
            && shf_r(x, x, n % 32, false) == x.rotate_right(n % 32)
    }) as fn(u32, u32) -> bool);
    // ISA's 128-bit shift examples (n < 32) against u128/i128 shifts.
    qc((|v: u128, n: u8| {
        let n = u32::from(n % 32);
        let r = |i: u32| (v >> (32 * i)) as u32;
        // [r7,r6,r5,r4] = [r3,r2,r1,r0] << n
        let l = [
            u64::from(r(0)) << n & NF,
            u64::from(shf_l(r(0), r(1), n, false)),
            u64::from(shf_l(r(1), r(2), n, false)),
            u64::from(shf_l(r(2), r(3), n, false)),
        ];
        // [r7,r6,r5,r4] = [r3,r2,r1,r0] >> n, arithmetic
        let rr = [
            shf_r(r(0), r(1), n, false),
            shf_r(r(1), r(2), n, false),
            shf_r(r(2), r(3), n, false),
            shr(S32, u64::from(r(3)), n) as u32,
        ];
        let join = |w: [u32; 4]| (0..4).fold(0u128, |acc, i| acc | u128::from(w[i]) << (32 * i));
        join(l.map(|x| x as u32)) == v << n && join(rr) == ((v as i128) >> n) as u128
    }) as fn(u128, u8) -> bool);
    // Clamp vs u64 concatenation for every amount.
    qc((|a: u32, b: u32, n: u32| {
        let v = u64::from(b) << 32 | u64::from(a);
        let c = n.min(32);
        shf_l(a, b, n, false) == (v.checked_shl(c).unwrap_or(0) >> 32) as u32
            && shf_r(a, b, n, false) == v.checked_shr(c).unwrap_or(0) as u32
    }) as fn(u32, u32, u32) -> bool);
}

// ------------------------------------------------------------------------------------------
// prmt
// ------------------------------------------------------------------------------------------

#[test]
fn prmt_default_vectors() {
    // {b, a}: b0..b3 = 11 22 33 44 (a), b4..b7 = 55 66 77 88 (b).
    let (a, b) = (0x4433_2211, 0x8877_6655);
    let p = |c: u32| prmt(a, b, c, PrmtMode::Default);
    assert_eq!(p(0x3210), 0x4433_2211); // identity
    assert_eq!(p(0x7654), 0x8877_6655); // all of b
    assert_eq!(p(0x0123), 0x1122_3344); // byte reverse
    assert_eq!(p(0x4567), 0x5566_7788);
    assert_eq!(p(0x0000), 0x1111_1111);
    assert_eq!(p(0x6420), 0x7755_3311);
    assert_eq!(p(0xffff_3210), 0x4433_2211); // c[31:16] ignored
                                             // Selector msb set: replicate the selected byte's sign.
    assert_eq!(p(0x8888), 0); // byte 0 = 0x11: sign 0
    assert_eq!(p(0xffff), 0xffff_ffff); // byte 7 = 0x88: sign 1
    assert_eq!(p(0xf7f7), 0xff88_ff88);
    assert_eq!(p(0x3b10), 0x4400_2211); // d2: byte 3 = 0x44, sign 0
                                        // a = 80 7f 01 ff (bytes 3..0): d0 <- sign(byte3)=ff, d1 <- sign(byte2)=00,
                                        // d2 <- sign(byte1)=00, d3 <- sign(byte0)=ff.
    assert_eq!(prmt(0x807f_01ff, 0, 0x89ab, PrmtMode::Default), 0xff00_00ff);
}

#[test]
fn prmt_mode_vectors() {
    use PrmtMode::*;
    let (a, b) = (0x4433_2211, 0x8877_6655);
    // Expected values read from the ISA table (destination bytes 3 2 1 0, source byte indices).
    table!(prmt, [
        (a, b, 0, F4e) => 0x4433_2211, // 3 2 1 0
        (a, b, 1, F4e) => 0x5544_3322, // 4 3 2 1
        (a, b, 2, F4e) => 0x6655_4433, // 5 4 3 2
        (a, b, 3, F4e) => 0x7766_5544, // 6 5 4 3
        (a, b, 0, B4e) => 0x6677_8811, // 5 6 7 0
        (a, b, 1, B4e) => 0x7788_1122, // 6 7 0 1
        (a, b, 2, B4e) => 0x8811_2233, // 7 0 1 2
        (a, b, 3, B4e) => 0x1122_3344, // 0 1 2 3
        (a, b, 0, Rc8) => 0x1111_1111,
        (a, b, 1, Rc8) => 0x2222_2222,
        (a, b, 2, Rc8) => 0x3333_3333,
        (a, b, 3, Rc8) => 0x4444_4444,
        (a, b, 0, Ecl) => 0x4433_2211, // 3 2 1 0
        (a, b, 1, Ecl) => 0x4433_2222, // 3 2 1 1
        (a, b, 2, Ecl) => 0x4433_3333, // 3 2 2 2
        (a, b, 3, Ecl) => 0x4444_4444, // 3 3 3 3
        (a, b, 0, Ecr) => 0x1111_1111, // 0 0 0 0
        (a, b, 1, Ecr) => 0x2222_2211, // 1 1 1 0
        (a, b, 2, Ecr) => 0x3333_2211, // 2 2 1 0
        (a, b, 3, Ecr) => 0x4433_2211, // 3 2 1 0
        (a, b, 0, Rc16) => 0x2211_2211, // 1 0 1 0
        (a, b, 1, Rc16) => 0x4433_4433, // 3 2 3 2
        (a, b, 2, Rc16) => 0x2211_2211,
        (a, b, 3, Rc16) => 0x4433_4433,
        // Only c[1:0] matters in the named modes, and they never sign-replicate.
        (a, b, 0xffff_fff4, F4e) => 0x4433_2211,
        (a, b, 0xffff_ffff, B4e) => 0x1122_3344,
        (0x8080_8080, 0x8080_8080, 0xc, Rc8) => 0x8080_8080,
        (a, b, 0x7, Rc16) => 0x4433_4433,
    ]);
}

#[test]
fn prmt_props() {
    // Default mode without sign bits equals a byte gather from the 64-bit {b, a}.
    qc((|a: u32, b: u32, c: u32| {
        let c = c & 0x7777;
        let src = (u64::from(b) << 32 | u64::from(a)).to_le_bytes();
        let want = u32::from_le_bytes([0, 1, 2, 3].map(|i| src[((c >> (4 * i)) & 7) as usize]));
        prmt(a, b, c, PrmtMode::Default) == want
    }) as fn(u32, u32, u32) -> bool);
    // f4e is the funnel shift right of {b, a} by 8 * c[1:0] bits.
    qc((|a: u32, b: u32, c: u32| {
        prmt(a, b, c, PrmtMode::F4e) == shf_r(a, b, 8 * (c & 3), false)
            && prmt(a, b, c, PrmtMode::Rc8) == (a >> (8 * (c & 3)) & 0xff) * 0x0101_0101
    }) as fn(u32, u32, u32) -> bool);
}

// ------------------------------------------------------------------------------------------
// Comparisons
// ------------------------------------------------------------------------------------------

#[test]
fn compare_vectors() {
    use IntCmp::*;
    table!(compare, [
        (S32, Lt, 0xffff_ffff, 0) => true,
        (U32, Lt, 0xffff_ffff, 0) => false,
        (S32, Lo, 0xffff_ffff, 0) => false, // lo is unsigned even for s32
        (S32, Hi, 0xffff_ffff, 0) => true,
        (U32, Hs, 5, 5) => true,
        (U32, Ls, 5, 5) => true,
        (U32, Lo, 5, 5) => false,
        (U32, Hi, 5, 5) => false,
        (S16, Gt, 0x7fff, 0x8000) => true,
        (S16, Ge, 0x8000, 0x8000) => true,
        (S16, Le, 0x8000, 0x7fff) => true,
        (S64, Le, IMIN64, IMAX64) => true,
        (S64, Ls, IMIN64, IMAX64) => false,
        (U64, Gt, u64::MAX, 0) => true,
        (S32, Eq, 0x1_0000_0005, 5) => true, // upper bits ignored
        (S32, Ne, 0x1_0000_0005, 5) => false,
        (U8, Lt, 0x100, 1) => true,
    ]);
}

#[test]
fn compare_props() {
    use IntCmp::*;
    qc((|a: u64, b: u64| {
        let (x, y) = (a as i32, b as i32);
        let (ux, uy) = (a as u32, b as u32);
        compare(S32, Lt, a, b) == (x < y)
            && compare(S32, Le, a, b) == (x <= y)
            && compare(S32, Gt, a, b) == (x > y)
            && compare(S32, Ge, a, b) == (x >= y)
            && compare(S32, Eq, a, b) == (x == y)
            && compare(S32, Ne, a, b) == (x != y)
            && compare(S32, Lo, a, b) == (ux < uy)
            && compare(S32, Ls, a, b) == (ux <= uy)
            && compare(S32, Hi, a, b) == (ux > uy)
            && compare(S32, Hs, a, b) == (ux >= uy)
            && compare(U32, Lt, a, b) == (ux < uy)
            && compare(S64, Lt, a, b) == ((a as i64) < (b as i64))
            && compare(U64, Ge, a, b) == (a >= b)
            && compare(S8, Gt, a, b) == ((a as i8) > (b as i8))
    }) as fn(u64, u64) -> bool);
}

// ------------------------------------------------------------------------------------------
// Robustness: no panic (debug overflow checks included) for any input, any width
// ------------------------------------------------------------------------------------------

#[test]
fn no_panic_any_input() {
    qc(
        (|bits: u32, signed: bool, a: u64, b: u64, c: u64, n: u32, m: u32, f: bool| {
            let bits = match bits % 8 {
                0 => 0,
                1 => 65,
                2 => u32::MAX,
                _ => bits % 70,
            };
            let t = IntTy::new(bits, signed);
            let _ = (
                add(t, a, b),
                sub(t, a, b),
                add_sat(t, a, b),
                sub_sat(t, a, b),
            );
            let _ = (
                add_cc(t, a, b, f),
                sub_cc(t, a, b, f),
                mad_cc(t, f, a, b, c, f),
            );
            let _ = (mul_lo(t, a, b), mul_hi(t, a, b), mul_wide(t, a, b));
            let _ = (mad_lo(t, a, b, c), mad_hi(t, a, b, c), mad_wide(t, a, b, c));
            let _ = (
                mul24_lo(t, a, b),
                mul24_hi(t, a, b),
                mad24_lo(t, a, b, c),
                mad24_hi(t, a, b, c),
            );
            let _ = (
                sad(t, a, b, c),
                div(t, a, b),
                rem(t, a, b),
                abs(t, a),
                neg(t, a),
            );
            let _ = (
                min(t, a, b),
                max(t, a, b),
                popc(t, a),
                clz(t, a),
                bfind(t, a, f),
                brev(t, a),
            );
            let _ = (
                bfe(t, a, n, m),
                bfi(t, a, b, n, m),
                shl(t, a, n),
                shr(t, a, n),
            );
            let _ = (
                and(t, a, b),
                or(t, a, b),
                xor(t, a, b),
                not(t, a),
                cnot(t, a),
            );
            let _ = (sext(bits, a), trunc(bits, a));
            let _ = (
                fns(a as u32, n, m as i32),
                bmsk(n, m, f),
                szext(f, a as u32, n, f),
            );
            let _ = (
                shf_l(a as u32, b as u32, n, f),
                shf_r(a as u32, b as u32, n, f),
            );
            let _ = prmt(a as u32, b as u32, n, PrmtMode::Default);
            let _ = compare(t, IntCmp::Lt, a, b);
            true
        }) as fn(u32, bool, u64, u64, u64, u32, u32, bool) -> bool,
    );
}
