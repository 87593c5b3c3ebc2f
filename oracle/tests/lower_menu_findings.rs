//! Two ptxc miscompilations the generator's `menu` family found
//! (issue 29), each run on every target at -O0 and -O3 against values from
//! host arithmetic and the interpreter:
//!
//! - `cvt` from an unsigned narrow type held in a wider register
//!   (`cvt.s32.u8 %r, %h` with `%h = 0xc5f0`) kept the register's upper
//!   bits: the source is chopped to the instruction type's size (PTX ISA
//!   5.4.4.1, "Operand Size Exceeding Instruction-Type Size"), so the
//!   result is `0xf0`. Signed sources were already sign-extended from the
//!   type's width (`SGXT`); unsigned ones now get a `LOP3` mask
//!   (compiler/src/lower/cvt.rs).
//! - `slct` with 64-bit data (`slct.f64.f32`, `slct.u64.s32`) selected only
//!   the low word and left the high word of the destination unwritten
//!   (compiler/src/lower/cmp.rs).
//! - `cnot.b64` tested and wrote only the low word (the high word of the
//!   result was never written; a source whose low word is zero read as
//!   zero) (compiler/src/lower/int.rs).
//! - `min/max.f64` of two NaNs (`max.f64 %fd2, %fd1, %fd1` with a signalling
//!   NaN) returned the first NaN unquieted; the rule is the first, quieted
//!   (docs/SEMANTICS.md "Min and max"), and ptxas 11.8's own sequence sets
//!   the quiet bit (`@P1 LOP3.LUT R, R, 0x80000, RZ, 0xfc` after
//!   `DSETP.MAX.AND P0, P1`) (compiler/src/lower/float.rs).
//! - `add/sub/mul/fma.ftz.f16` dropped the flush (`HFMA2.SAT` where ptxas
//!   11.8 writes `HFMA2.FTZ.SAT`, measured on sm_70/80/90), so subnormal
//!   halves were kept (compiler/src/lower/float.rs).
//! - `cvt.sat.f16.f16` (and `cvt.rni.sat.f16.f16`) lost the clamp and the
//!   bare `cvt.f16.f16` was a copy (compiler/src/lower/cvt.rs); the
//!   interpreter made bare `cvt.f32.f32`/`cvt.f64.f64` NaNs canonical where
//!   ptxas copies the bits.

mod pair_run;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, RunResult};
use pair_run::{interp, lowered, lowered_o3, same_outputs, ARCHS};

const CVT: &str = r#".version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 p_out, .param .u64 p_in)
{
	.reg .b16 %h<3>;
	.reg .b32 %r<40>;
	.reg .f32 %f<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd0, [p_out];
	ld.param.u64 %rd1, [p_in];
	ld.global.u32 %r19, [%rd1];
	cvt.u16.u32 %h2, %r19;
	cvt.s32.u8 %r33, %h2;
	st.global.u32 [%rd0], %r33;
	cvt.s32.s8 %r34, %h2;
	st.global.u32 [%rd0+4], %r34;
	cvt.u32.u8 %r35, %r19;
	st.global.u32 [%rd0+8], %r35;
	cvt.rn.f32.u8 %f1, %h2;
	st.global.f32 [%rd0+12], %f1;
	cvt.u64.u16 %rd2, %r19;
	st.global.u64 [%rd0+16], %rd2;
}
"#;

const SLCT: &str = r#".version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 p_out, .param .u64 p_in)
{
	.reg .b32 %r<8>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<12>;
	.reg .f64 %fd<6>;
	ld.param.u64 %rd0, [p_out];
	ld.param.u64 %rd1, [p_in];
	ld.global.f64 %fd1, [%rd1];
	ld.global.f64 %fd2, [%rd1+8];
	ld.global.u32 %r1, [%rd1+16];
	ld.global.f32 %f1, [%rd1+20];
	slct.f64.f32 %fd3, %fd1, %fd2, %f1;
	st.global.f64 [%rd0], %fd3;
	ld.global.u64 %rd6, [%rd1];
	ld.global.u64 %rd7, [%rd1+8];
	slct.u64.s32 %rd3, 0x123456789, %rd7, %r1;
	st.global.u64 [%rd0+8], %rd3;
	neg.f32 %f2, %f1;
	slct.b64.f32 %rd4, %rd6, 0xfedcba9876543210, %f2;
	st.global.u64 [%rd0+16], %rd4;
	slct.s64.s32 %rd5, %rd6, 0x7fffffff00000001, %r1;
	st.global.u64 [%rd0+24], %rd5;
}
"#;

fn spec(out_words: u32, input: &[u32]) -> LaunchSpec {
    let bits: Vec<String> = input.iter().map(|w| format!("\"{w:#x}\"")).collect();
    let text = format!(
        r#"{{"kernel": "k", "grid": [1], "block": [1],
  "params": [{{"buffer": "out"}}, {{"buffer": "in"}}],
  "buffers": {{"out": {{"type": "u32", "len": {out_words}, "init": "zeros"}},
               "in": {{"type": "u32", "len": {}, "init": {{"bits": [{}]}}}}}},
  "outputs": ["out"]}}"#,
        input.len(),
        bits.join(", ")
    );
    LaunchSpec::from_json_str(&text, ".").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn words(got: &RunResult, what: &str) -> Vec<u64> {
    assert_eq!(got.outcome, Outcome::Completed, "{what}: {:?}", got.outcome);
    got.outputs.get("out").unwrap().bits.clone()
}

fn on_every_target(ptx: &str, sp: &LaunchSpec, want: &[u64]) {
    let i = interp(ptx, sp);
    assert_eq!(words(&i, "the interpreter"), want, "the interpreter");
    for arch in ARCHS {
        for (level, got) in [
            ("-O0", lowered(ptx, sp, arch)),
            ("-O3", lowered_o3(ptx, sp, arch)),
        ] {
            let what = format!("{level} on {arch}");
            let got = got.unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(words(&got, &what), want, "{what}");
            same_outputs(&i, &got, &what);
        }
    }
}

#[test]
fn cvt_from_a_narrow_unsigned_type_chops_a_wider_register() {
    let x: u32 = 0x1234_c5f0;
    let h = x & 0xffff; // cvt.u16.u32
    let wide = u64::from(x & 0xffff);
    let want = vec![
        u64::from(h & 0xff),                      // cvt.s32.u8
        u64::from((h as u8 as i8) as i32 as u32), // cvt.s32.s8
        u64::from(x & 0xff),                      // cvt.u32.u8
        u64::from(((h & 0xff) as f32).to_bits()), // cvt.rn.f32.u8
        wide & 0xffff_ffff,                       // cvt.u64.u16, low word
        wide >> 32,                               // high word
    ];
    on_every_target(CVT, &spec(6, &[x]), &want);
}

#[test]
fn slct_with_64_bit_data_selects_both_words() {
    let a = 2.75f64.to_bits() | 0x1111_1111; // low word made distinctive
    let b = (-2.0000000004656613f64).to_bits() | 0x2222_2222;
    let c: u32 = 0xffff_fffe; // -2 as s32: c < 0 selects b
    let f = 1.0f32; // f >= 0 selects a
    let input = [
        a as u32,
        (a >> 32) as u32,
        b as u32,
        (b >> 32) as u32,
        c,
        f.to_bits(),
    ];
    // slct's result as two u32 words, low first
    let split = |v: u64| [v & 0xffff_ffff, v >> 32];
    let want: Vec<u64> = [
        a,                     // slct.f64.f32: f >= 0 selects a
        b,                     // slct.u64.s32: c < 0 selects b
        0xfedc_ba98_7654_3210, // slct.b64.f32: -f < 0 selects the immediate
        0x7fff_ffff_0000_0001, // slct.s64.s32: c < 0 selects the immediate
    ]
    .into_iter()
    .flat_map(split)
    .collect();
    on_every_target(SLCT, &spec(8, &input), &want);
}

const HALF_FTZ: &str = r#".version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 p_out, .param .u64 p_in)
{
	.reg .b16 %h<4>;
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd0, [p_out];
	ld.param.u64 %rd1, [p_in];
	ld.global.b16 %h0, [%rd1];
	ld.global.b16 %h2, [%rd1+2];
	fma.rn.ftz.sat.f16 %h3, %h0, %h0, %h2;
	cvt.u32.u16 %r1, %h3;
	st.global.u32 [%rd0], %r1;
	fma.rn.ftz.f16 %h3, %h0, %h2, %h2;
	cvt.u32.u16 %r1, %h3;
	st.global.u32 [%rd0+4], %r1;
	add.ftz.f16 %h3, %h0, %h2;
	cvt.u32.u16 %r1, %h3;
	st.global.u32 [%rd0+8], %r1;
	sub.ftz.f16 %h3, %h2, %h0;
	cvt.u32.u16 %r1, %h3;
	st.global.u32 [%rd0+12], %r1;
	add.f16 %h3, %h0, %h2;
	cvt.u32.u16 %r1, %h3;
	st.global.u32 [%rd0+16], %r1;
}
"#;

#[test]
fn half_ftz_flushes_subnormal_operands() {
    // a = 2^-15 (0x0200) and c = 2^-24 (0x0001) are f16 subnormals: `.ftz`
    // reads both as +0 (PTX ISA 9.7.4, "Subnormal numbers"), so every
    // flushed result is +0; without `.ftz`, 2^-15 + 2^-24 is exact (0x0201).
    let (a, c) = (0x0200u32, 0x0001u32);
    let want = vec![0, 0, 0, 0, 0x0201];
    on_every_target(HALF_FTZ, &spec(5, &[a | c << 16]), &want);
}

const CNOT64: &str = r#".version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 p_out, .param .u64 p_in)
{
	.reg .b64 %rd<8>;
	ld.param.u64 %rd0, [p_out];
	ld.param.u64 %rd1, [p_in];
	ld.global.u64 %rd2, [%rd1];
	cnot.b64 %rd3, %rd2;
	st.global.u64 [%rd0], %rd3;
	ld.global.u64 %rd4, [%rd1+8];
	cnot.b64 %rd5, %rd4;
	st.global.u64 [%rd0+8], %rd5;
	cnot.b64 %rd6, 0;
	mad.lo.s64 %rd6, 0, 0, %rd6;
	st.global.u64 [%rd0+16], %rd6;
}
"#;

#[test]
fn cnot_b64_tests_and_writes_both_words() {
    // in[0] = 1 << 32 (low word zero, not zero as a whole), in[1] = 0:
    // cnot gives 0, then 1, and cnot(0) = 1 (PTX ISA 9.7.7.4)
    let input = [0, 1, 0, 0];
    let want = vec![0, 0, 1, 0, 1, 0];
    on_every_target(CNOT64, &spec(6, &input), &want);
}

const MINMAX_NAN64: &str = r#".version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 p_out, .param .u64 p_in)
{
	.reg .b64 %rd<4>;
	.reg .f64 %fd<8>;
	ld.param.u64 %rd0, [p_out];
	ld.param.u64 %rd1, [p_in];
	ld.global.f64 %fd1, [%rd1];
	ld.global.f64 %fd2, [%rd1+8];
	ld.global.f64 %fd3, [%rd1+16];
	max.f64 %fd4, %fd1, %fd1;
	st.global.f64 [%rd0], %fd4;
	max.f64 %fd4, %fd1, %fd2;
	st.global.f64 [%rd0+8], %fd4;
	min.f64 %fd4, %fd2, %fd1;
	st.global.f64 [%rd0+16], %fd4;
	max.f64 %fd4, %fd1, %fd3;
	st.global.f64 [%rd0+24], %fd4;
	min.f64 %fd4, %fd3, %fd2;
	st.global.f64 [%rd0+32], %fd4;
}
"#;

#[test]
fn minmax_f64_of_two_nans_is_the_first_quieted() {
    let snan_a: u64 = 0x7ff4_0000_0000_0001;
    let snan_b: u64 = 0xfff0_0000_0000_0002;
    let one = 1.0f64.to_bits();
    let quiet = 0x0008_0000_0000_0000;
    let words = |v: u64| [v as u32, (v >> 32) as u32];
    let input: Vec<u32> = [snan_a, snan_b, one].into_iter().flat_map(words).collect();
    let split = |v: u64| [v & 0xffff_ffff, v >> 32];
    let want: Vec<u64> = [
        snan_a | quiet, // max(a, a)
        snan_a | quiet, // max(a, b): the first NaN, quieted
        snan_b | quiet, // min(b, a)
        one,            // one NaN: the other operand
        one,
    ]
    .into_iter()
    .flat_map(split)
    .collect();
    on_every_target(MINMAX_NAN64, &spec(10, &input), &want);
}

const CVT_SAME: &str = r#".version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 p_out, .param .u64 p_in)
{
	.reg .b16 %h<8>;
	.reg .b32 %r<4>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<4>;
	.reg .f64 %fd<4>;
	ld.param.u64 %rd0, [p_out];
	ld.param.u64 %rd1, [p_in];
	ld.global.b16 %h1, [%rd1];
	ld.global.b16 %h2, [%rd1+2];
	ld.global.f32 %f1, [%rd1+4];
	ld.global.f64 %fd1, [%rd1+8];
	cvt.sat.f16.f16 %h3, %h1;
	cvt.sat.f16.f16 %h4, %h2;
	cvt.rni.sat.f16.f16 %h5, %h1;
	cvt.f16.f16 %h6, %h2;
	mov.b32 %r1, {%h3, %h4};
	mov.b32 %r2, {%h5, %h6};
	st.global.v2.u32 [%rd0], {%r1, %r2};
	cvt.f32.f32 %f2, %f1;
	st.global.f32 [%rd0+8], %f2;
	cvt.f64.f64 %fd2, %fd1;
	st.global.f64 [%rd0+16], %fd2;
}
"#;

/// Same-type float `cvt` (generator seed 36, found through
/// `cvt.rm.f16.f64` then `cvt.sat.f16.f16`): ptxc lowered
/// `cvt.sat.f16.f16` and `cvt.rni.sat.f16.f16` without the clamp and the
/// bare `cvt.f16.f16` as a copy; ptxas 11.8 (sm_80) writes `HADD2.SAT R0,
/// R2.H0_H0, -RZ.H0_H0` and `HADD2 R3, R2.H0_H0, -RZ.H0_H0` (a canonical
/// NaN). The interpreter made `cvt.f32.f32`/`cvt.f64.f64` NaNs canonical
/// (or quiet) where ptxas emits no instruction: the bits are copied.
/// Expected values from the ISA's `.sat` (clamp to [0, 1], NaN to +0) and
/// those listings.
#[test]
fn same_type_float_cvt_saturates_and_copies_as_ptxas() {
    // the f16 halves 1.5 (0x3e00) and a signalling NaN (0x7c01), the f32
    // sNaN 0x7f800001, the f64 sNaN 0x7ff0000000000001
    let input = [0x7c01_3e00, 0x7f80_0001, 0x0000_0001, 0x7ff0_0000];
    let want = vec![
        0x0000_3c00, // sat(1.5) = 1.0 | sat(NaN) = +0 << 16
        0x7fff_3c00, // rni(1.5) = 2.0 -> sat 1.0 | cvt.f16.f16(sNaN) = 0x7fff
        0x7f80_0001, // cvt.f32.f32: the sNaN's bits
        0,           // (pad)
        0x0000_0001, // cvt.f64.f64: the sNaN's bits, low word
        0x7ff0_0000, // high word
    ];
    on_every_target(CVT_SAME, &spec(6, &input), &want);
}

const CVT_SAT_NARROW: &str = r#".version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 p_out, .param .u64 p_in)
{
	.reg .b16 %h<8>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd0, [p_out];
	ld.param.u64 %rd1, [p_in];
	ld.global.u32 %r1, [%rd1];
	cvt.u16.u32 %h1, %r1;
	cvt.sat.s8.u8 %h2, %h1;
	cvt.s32.s8 %r2, %h2;
	cvt.sat.s8.u16 %h3, %h1;
	cvt.s32.s8 %r3, %h3;
	cvt.sat.u8.s8 %h4, %h1;
	cvt.u32.u8 %r4, %h4;
	st.global.v4.u32 [%rd0], {%r2, %r3, %r4, %r1};
}
"#;

/// `cvt.sat` from a narrow unsigned type held in a wider register clamped
/// the whole register (generator seed 54: `cvt.sat.s8.u8 %h8, %h7` with
/// `%h7 = 0x0100` gave 127, the source's low byte is 0): the source is
/// chopped to its type's width first (PTX ISA 5.4.4.1), as ptxas 11.8's
/// listing does (`PRMT R0, R4, 0x7770, RZ`).
#[test]
fn cvt_sat_from_a_narrow_unsigned_type_chops_first() {
    for x in [0x0000_0100u32, 0x0000_01c8, 0x0000_8005, 0x0000_ff7f] {
        let h = x & 0xffff;
        let sat_s8 = |v: i64| v.clamp(-128, 127) as i32 as u32;
        let want = vec![
            u64::from(sat_s8(i64::from(h & 0xff))), // cvt.sat.s8.u8
            u64::from(sat_s8(i64::from(h))),        // cvt.sat.s8.u16
            u64::from((i64::from(h as u8 as i8)).clamp(0, 255) as u32), // cvt.sat.u8.s8
            u64::from(x),
        ];
        on_every_target(CVT_SAT_NARROW, &spec(4, &[x]), &want);
    }
}
