//! `.func` parameters and return values in the `.reg` state space (PTX ISA
//! 7.1: `.func (.reg .b32 r) f (.reg .b32 a)`, used directly as operands)
//! end to end: the lowering (compiler/src/lower/call.rs: a `.reg`
//! parameter is the callee's register of its type) in the SASS simulator
//! against the PTX interpreter, on sm_70, sm_75, sm_80, sm_86, sm_89 and
//! sm_90, at -O0 and after the whole -O3 phase plan. ptxas 11.8 accepts the
//! kernel (it passes them in R registers, a `.pred` as a 0/-1 word).
//!
//! Domains: `.b32`, `.b64`, `.f32`, `.pred` and `.u16` parameters,
//! `.b64`, `.b32`/`.f32` (two) and `.pred` return values, register and
//! immediate arguments (a 64-bit and an f32 immediate, typed by their
//! parameters), and `.reg` mixed with a `.param` parameter.

mod pair_run;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::Outcome;
use pair_run::{agree, case, finish, interp, ARCHS};

const N: u32 = 32;

const PTX: &str = r#".version 7.8
.target sm_70
.address_size 64

.func (.reg .b64 r) mix (.reg .b32 a, .reg .b64 b, .reg .f32 c, .reg .pred q)
{
	.reg .b32 %t<3>;
	.reg .b64 %d<3>;
	cvt.rzi.s32.f32 %t1, c;
	add.s32 %t2, %t1, a;
	cvt.s64.s32 %d1, %t2;
	add.s64 %d2, %d1, b;
	selp.b64 r, %d2, b, q;
	ret;
}

.func (.reg .b32 pr, .reg .f32 fr) pm (.reg .b32 a, .param .b32 pb, .reg .f32 c)
{
	.reg .b32 %t<3>;
	ld.param.b32 %t1, [pb];
	mul.lo.s32 %t2, %t1, a;
	mov.b32 pr, %t2;
	add.f32 fr, c, 0f3F000000;
	ret;
}

.func (.reg .pred odd) isodd (.reg .u16 h)
{
	.reg .b16 %s;
	and.b16 %s, h, 1;
	setp.ne.u16 odd, %s, 0;
	ret;
}

.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.reg .f32 %f<4>;
	.reg .pred %p<3>;
	.reg .b16 %h<2>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	cvt.u64.u32 %rd3, %r1;
	shl.b64 %rd3, %rd3, 33;
	cvt.rn.f32.u32 %f1, %r1;
	setp.lt.u32 %p1, %r1, 13;
	call (%rd4), mix, (%r1, %rd3, %f1, %p1);
	call (%rd5), mix, (7, 0x100000000, 2.5, %p1);
	{
	.param .b32 pa;
	st.param.b32 [pa], 3;
	call (%r2, %f2), pm, (%r1, pa, %f1);
	}
	cvt.u16.u32 %h1, %r1;
	call (%p2), isodd, (%h1);
	selp.b32 %r3, 100, 200, %p2;
	mul.wide.u32 %rd6, %r1, 32;
	add.u64 %rd2, %rd2, %rd6;
	st.global.u64 [%rd2], %rd4;
	st.global.u64 [%rd2+8], %rd5;
	st.global.u32 [%rd2+16], %r2;
	st.global.f32 [%rd2+20], %f2;
	st.global.u32 [%rd2+24], %r3;
	ret;
}
"#;

fn spec() -> LaunchSpec {
    let text = format!(
        r#"{{"kernel": "k", "grid": [1], "block": [{N}], "params": [{{"buffer": "out"}}],
  "buffers": {{"out": {{"type": "u32", "len": {len}}}}}}}"#,
        len = 8 * N
    );
    LaunchSpec::from_json_str(&text, ".").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The words thread `t` stores, from the PTX's meaning (not from a runner).
fn expected(t: u32) -> [u32; 7] {
    let t64 = u64::from(t);
    let lt13 = t < 13;
    let mix1 = if lt13 {
        2 * t64 + (t64 << 33)
    } else {
        t64 << 33
    };
    let mix2: u64 = if lt13 { 9 + (1 << 32) } else { 1 << 32 };
    [
        mix1 as u32,
        (mix1 >> 32) as u32,
        mix2 as u32,
        (mix2 >> 32) as u32,
        3 * t,
        (t as f32 + 0.5).to_bits(),
        if t % 2 == 1 { 100 } else { 200 },
    ]
}

#[test]
fn reg_parameters_match_the_interpreter_on_every_target() {
    let sp = spec();
    let want = interp(PTX, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    // Not vacuous: the interpreter computes what the PTX means.
    let out = &want.outputs.get("out").unwrap().bits;
    for t in 0..N {
        let got: Vec<u64> = (0..7).map(|w| out[(8 * t + w) as usize]).collect();
        let exp: Vec<u64> = expected(t).iter().map(|&x| u64::from(x)).collect();
        assert_eq!(got, exp, "interpreter, thread {t}");
    }
    let mut fails = Vec::new();
    case(PTX, &sp, false, ".reg parameters", &mut fails);
    finish(fails, ARCHS.len());
}

/// The same kernel after the whole `-O3` phase plan: the parameter
/// registers survive scheduling and register allocation across the calls.
#[test]
fn reg_parameters_after_the_full_pipeline() {
    let sp = spec();
    let want = interp(PTX, &sp);
    for arch in ARCHS {
        let got = pair_run::lowered_o3(PTX, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &got, false) {
            panic!("-O3 on {arch}: {d}");
        }
    }
}
