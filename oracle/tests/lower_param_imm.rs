//! Immediates passed to `.param` parameters of a `.func` (PTX ISA
//! 9.7.12.4: "Arguments may be registers, immediate constants, or
//! variables in .param space"; ptxas 11.8 accepts `call (pr), add3, (7,
//! 0x300000005, 2.5)` and folds the sum to `UMOV UR6, 0xbc6`, 3014) lowered by
//! ptxc (compiler/src/lower/call.rs: the immediate's bits at the
//! parameter's type in the parameter's words) and run in the simulator on
//! every target at -O0 and -O3.
//!
//! Checked against the PTX's meaning (ptxas's folded value) and against
//! the interpreter, which passes arguments to parameters by position
//! (oracle/src/ptx_interp/exec/call.rs; it used to pass immediates only to
//! `.reg` parameters and leave a `.param` parameter 0).

mod pair_run;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, RunResult};
use pair_run::{interp, lowered, lowered_o3, same_outputs, ARCHS};

const N: u32 = 32;

const PTX: &str = r#".version 7.8
.target sm_70
.address_size 64
.func (.param .b32 r) add3 (.param .b32 a, .param .b64 b, .param .f32 c)
{
	.reg .b32 %t<4>;
	.reg .b64 %d<2>;
	.reg .f32 %f<2>;
	ld.param.b32 %t1, [a];
	ld.param.b64 %d1, [b];
	ld.param.f32 %f1, [c];
	cvt.u32.u64 %t2, %d1;
	shr.u64 %d1, %d1, 32;
	cvt.u32.u64 %t3, %d1;
	mul.lo.s32 %t3, %t3, 1000;
	add.s32 %t1, %t1, %t2;
	add.s32 %t1, %t1, %t3;
	cvt.rzi.s32.f32 %t3, %f1;
	add.s32 %t1, %t1, %t3;
	st.param.b32 [r], %t1;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.u64 %rd2, %rd2, %rd3;
	{
	.param .b32 pr;
	call (pr), add3, (7, 0x300000005, 2.5);
	ld.param.b32 %r2, [pr];
	}
	add.s32 %r2, %r2, %r1;
	st.global.u32 [%rd2], %r2;
	ret;
}
"#;

fn spec() -> LaunchSpec {
    let text = format!(
        r#"{{"kernel": "k", "grid": [1], "block": [{N}], "params": [{{"buffer": "out"}}],
  "buffers": {{"out": {{"type": "u32", "len": {N}, "init": "zeros"}}}}, "outputs": ["out"]}}"#
    );
    LaunchSpec::from_json_str(&text, ".").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn check(what: &str, got: &RunResult) {
    assert_eq!(got.outcome, Outcome::Completed, "{what}: {:?}", got.outcome);
    let out = &got.outputs.get("out").unwrap().bits;
    for t in 0..N {
        // 7 + low word 5 + 1000 x high word 3 + trunc(2.5) + tid.
        assert_eq!(
            out[t as usize],
            u64::from(7 + 5 + 3000 + 2 + t),
            "{what}, thread {t}"
        );
    }
}

#[test]
fn immediates_for_param_parameters_on_every_target() {
    let sp = spec();
    let want = interp(PTX, &sp);
    check("the interpreter", &want);
    for arch in ARCHS {
        let o0 = lowered(PTX, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        check(&format!("-O0 on {arch}"), &o0);
        same_outputs(&want, &o0, &format!("-O0 on {arch}"));
        let o3 = lowered_o3(PTX, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        check(&format!("-O3 on {arch}"), &o3);
        same_outputs(&want, &o3, &format!("-O3 on {arch}"));
    }
}
