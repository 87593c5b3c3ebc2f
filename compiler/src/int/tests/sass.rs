//! The SASS readings of the shared integer rules. Expected values come from host arithmetic on
//! `u64`/`i64`/`u128` or from the PTX ISA text, never from the functions under test.

use crate::int::*;

const fn funnel(left: bool, hi_out: bool, wrap: bool, wide: bool, signed: bool) -> Funnel {
    Funnel {
        left,
        hi_out,
        wrap,
        wide,
        signed,
    }
}

#[test]
fn funnel_32_clamps_at_32() {
    // shf.l.clamp with n >= 32 gives `a` (PTX ISA 9.7.8.7: n = min(c, 32), "n = 32 gives a").
    let l = funnel(true, true, false, false, false);
    for n in [32, 33, 63, 64, 1000, u32::MAX] {
        assert_eq!(
            funnel_shift(0x1234_5678, 0x9abc_def0, n, l),
            0x1234_5678,
            "n = {n}"
        );
    }
    // shf.r.clamp with n >= 32 gives `b`.
    let r = funnel(false, false, false, false, false);
    for n in [32, 40, u32::MAX] {
        assert_eq!(
            funnel_shift(0x1234_5678, 0x9abc_def0, n, r),
            0x9abc_def0,
            "n = {n}"
        );
    }
    // .wrap takes n & 31: 33 shifts by 1.
    let lw = funnel(true, true, true, false, false);
    assert_eq!(funnel_shift(0x8000_0000, 0x0000_0001, 33, lw), 0x0000_0003);
}

#[test]
fn funnel_matches_host_shifts() {
    let xs = [
        0u64,
        1,
        0x8000_0000_0000_0000,
        0x0123_4567_89ab_cdef,
        u64::MAX,
        0xf000_0000_0000_000f,
    ];
    for &x in &xs {
        let (lo, hi) = (x as u32, (x >> 32) as u32);
        for s in 0..=70u32 {
            // 64-bit clamp: amounts past 64 act as 64 (all bits out, or all sign bits).
            let c = s.min(64);
            let shl = if c >= 64 { 0 } else { x << c };
            let shr = if c >= 64 { 0 } else { x >> c };
            let sar = ((x as i64) >> c.min(63)) as u64;
            let f = |left, hi_out, signed| {
                funnel_shift(lo, hi, s, funnel(left, hi_out, false, true, signed))
            };
            assert_eq!(f(true, false, false), shl as u32, "SHF.L.U64 {x:#x} {s}");
            assert_eq!(
                f(true, true, false),
                (shl >> 32) as u32,
                "SHF.L.U64.HI {x:#x} {s}"
            );
            assert_eq!(f(false, false, false), shr as u32, "SHF.R.U64 {x:#x} {s}");
            assert_eq!(
                f(false, true, false),
                (shr >> 32) as u32,
                "SHF.R.U64.HI {x:#x} {s}"
            );
            assert_eq!(f(false, false, true), sar as u32, "SHF.R.S64 {x:#x} {s}");
            assert_eq!(
                f(false, true, true),
                (sar >> 32) as u32,
                "SHF.R.S64.HI {x:#x} {s}"
            );
            // .W at width 64: the amount modulo 64.
            let w = funnel_shift(lo, hi, s, funnel(true, false, true, true, false));
            assert_eq!(w, (x << (s % 64)) as u32, "SHF.L.W.U64 {x:#x} {s}");
        }
    }
}

#[test]
fn shf_l_r_are_the_32_bit_funnel() {
    for (a, b) in [
        (0x1234_5678u32, 0x9abc_def0u32),
        (u32::MAX, 0),
        (0, u32::MAX),
    ] {
        let x = (u64::from(b) << 32) | u64::from(a);
        for c in 0..40u32 {
            let n = c.min(32);
            assert_eq!(shf_l(a, b, c, false), ((x << n) >> 32) as u32);
            assert_eq!(shf_r(a, b, c, false), (x >> n) as u32);
            assert_eq!(shf_l(a, b, c, true), ((x << (c & 31)) >> 32) as u32);
            assert_eq!(shf_r(a, b, c, true), (x >> (c & 31)) as u32);
        }
    }
}

#[test]
fn sum_with_carry_splits_at_the_width() {
    // IADD3: three 32-bit terms and two carry-ins give a carry of 0, 1 or 2.
    let m = u128::from(u32::MAX);
    assert_eq!(sum_with_carry(32, [1, 2, 3]), (6, 0));
    assert_eq!(sum_with_carry(32, [m, 1, 0]), (0, 1));
    // 3 * (2^32 - 1) + 2 = 3 * 2^32 - 1: the largest sum, carry 2.
    assert_eq!(
        sum_with_carry(32, [m, m, m, 1, 1]),
        (u64::from(u32::MAX), 2)
    );
    assert_eq!(sum_with_carry(32, [m, m, 2]), (0, 2));
    // `a - 0` read as a + (~0 + 1) = a + 2^32: the low word is a and the carry is 1 (NOT borrow).
    assert_eq!(sum_with_carry(32, [7, 1 << 32]), (7, 1));
    // Width 64 (IMAD.WIDE, add.cc.u64): the carry is bit 64.
    let m64 = u128::from(u64::MAX);
    assert_eq!(sum_with_carry(64, [m64, 1]), (0, 1));
    assert_eq!(sum_with_carry(64, [m64, m64, 1]), (u64::MAX, 1));
    // Narrow widths.
    assert_eq!(sum_with_carry(8, [0xff, 0x01]), (0, 1));
    assert_eq!(sum_with_carry(16, [0x8000, 0x8000, 0x8000]), (0x8000, 1));
}

#[test]
fn add_cc_is_the_carry_of_the_sum() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..2000 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (a, b, c) = (x as u32, (x >> 32) as u32, x >> 63 == 1);
        let (s, k1) = a.overflowing_add(b);
        let (s, k2) = s.overflowing_add(u32::from(c));
        assert_eq!(
            add_cc(IntTy::U32, a.into(), b.into(), c),
            (u64::from(s), k1 || k2)
        );
        let (d, borrow) = a.overflowing_sub(b);
        assert_eq!(
            sub_cc(IntTy::U32, a.into(), b.into(), true),
            (u64::from(d), !borrow)
        );
    }
}

#[test]
fn lop3_truth_table_constants() {
    // PTX ISA 9.7.8.6: ta = 0xF0, tb = 0xCC, tc = 0xAA; so those LUTs return a, b, c.
    let (a, b, c) = (0x0123_4567, 0x89ab_cdef, 0xdead_beef);
    assert_eq!(lop3(a, b, c, 0xf0), a);
    assert_eq!(lop3(a, b, c, 0xcc), b);
    assert_eq!(lop3(a, b, c, 0xaa), c);
    assert_eq!(lop3(a, b, c, 0xf0 & 0xcc), a & b);
    assert_eq!(lop3(a, b, c, 0xf0 ^ 0xcc ^ 0xaa), a ^ b ^ c);
    assert_eq!(lop3(a, b, c, !0xf0), !a);
    assert_eq!(lop3(a, b, c, 0x00), 0);
    assert_eq!(lop3(a, b, c, 0xff), u32::MAX);
}

#[test]
fn prmt_modes_in_sass_order() {
    // PRMT's mode numbers (0 = none, then F4E B4E RC8 ECL ECR RC16) are PrmtMode::ALL's order.
    use PrmtMode::*;
    assert_eq!(PrmtMode::ALL, [Default, F4e, B4e, Rc8, Ecl, Ecr, Rc16]);
    // The ISA table, row by row, c[1:0] = 1 (destination bytes 3 2 1 0 of {b, a}).
    let (a, b) = (0x3322_1100, 0x7766_5544); // byte i holds 0x11 * i
    let want = [
        0x3322_1100,
        0x4433_2211,
        0x6677_0011,
        0x1111_1111,
        0x3322_1111,
        0x1111_1100,
        0x3322_3322,
    ];
    for (mode, want) in PrmtMode::ALL.into_iter().zip(want) {
        let c = if mode == Default { 0x3210 } else { 1 };
        assert_eq!(prmt(a, b, c, mode), want, "{mode:?}");
    }
}

#[test]
fn flo_is_bfind_on_32_bits() {
    // FLO.U32 / FLO.S32 (`.SH`: the shift amount): PTX bfind (9.7.1.16).
    let u = IntTy::U32;
    let s = IntTy::S32;
    assert_eq!(bfind(u, 0, false), 0xffff_ffff);
    assert_eq!(bfind(u, 0, true), 0xffff_ffff);
    assert_eq!(bfind(s, u64::from(u32::MAX), false), 0xffff_ffff); // -1: no non-sign bit
    for k in 0..32u32 {
        let v = u64::from(1u32 << k);
        assert_eq!(bfind(u, v, false), u64::from(k));
        assert_eq!(bfind(u, v, true), u64::from(31 - k));
        // A negative value finds its most significant 0: !(1 << k) has it at k (k < 31).
        if k < 31 {
            assert_eq!(bfind(s, u64::from(!(1u32 << k)), false), u64::from(k));
        }
    }
}

#[test]
fn sgxt_and_bmsk_edges() {
    // SGXT is szext (9.7.1.21): `.W` is `.wrap`, no `.W` is `.clamp`.
    assert_eq!(szext(true, 0x0000_0080, 8, true), 0xffff_ff80);
    assert_eq!(szext(false, 0xffff_ff80, 8, true), 0x80);
    assert_eq!(szext(true, 0x1234_5678, 0, true), 0);
    assert_eq!(szext(true, 0x8234_5678, 32, true), 0x8234_5678); // clamp: n >= 32 keeps a
    assert_eq!(szext(true, 0x8234_5678, 40, true), 0x8234_5678);
    assert_eq!(szext(true, 0x0000_0080, 40, false), 0xffff_ff80); // wrap: 40 & 31 = 8
    assert_eq!(szext(true, 0x8234_5678, 32, false), 0); // wrap: 32 & 31 = 0
                                                        // BMSK is bmsk (9.7.1.22).
    assert_eq!(bmsk(4, 8, true), 0x0000_0ff0);
    assert_eq!(bmsk(28, 8, true), 0xf000_0000); // cut at bit 31
    assert_eq!(bmsk(32, 8, true), 0); // clamp: position 32 gives 0
    assert_eq!(bmsk(4, 32, true), 0xffff_fff0); // clamp: width >= 32 runs to bit 31
    assert_eq!(bmsk(36, 8, false), 0x0000_0ff0); // wrap: 36 & 31 = 4
    assert_eq!(bmsk(4, 32, false), 0); // wrap: width 32 & 31 = 0
}

#[test]
fn bfe_sign_fill() {
    // PTX ISA 9.7.1.19: a signed field is filled with its top bit.
    assert_eq!(bfe(IntTy::S32, 0x0000_0f00, 8, 4), 0xffff_ffff);
    assert_eq!(bfe(IntTy::S32, 0x0000_0700, 8, 4), 0x7);
    assert_eq!(bfe(IntTy::U32, 0x0000_0f00, 8, 4), 0xf);
    // A field running past the msb takes a[msb] as its sign.
    assert_eq!(bfe(IntTy::S32, 0x8000_0000, 28, 8), 0xffff_fff8);
}
