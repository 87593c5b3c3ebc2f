//! `%r<N>` register ranges (PTX ISA "Parameterized Variable Names") in
//! both runners: the lowering binds and the interpreter gives slots to the
//! members the module names, not all N (compiler/src/lower/regs.rs,
//! oracle/src/ptx_interp/decode.rs, `Interner::numbered`). A kernel that
//! declares two billion registers and uses three used to ask for 72 GB
//! and abort; here it compiles and runs on every target, at -O0 and -O3,
//! and computes what the PTX means. Ranges in inner scopes shadow only
//! their own members; an uninitialized member of a vector range is named
//! by its component in the interpreter's verdict.

mod pair_run;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, RunResult, UbKind};
use pair_run::{agree_on_every_target, interp, lowered, out_spec, ARCHS};

const N: u32 = 32;

/// Huge ranges of 32-bit, 64-bit and four-wide vector registers (the
/// vector range's slot count, 4 x 1,500,000,000, does not fit in 32 bits),
/// and an inner scope whose `%r<3>` shadows `%r0..%r2` but not `%r7`.
const HUGE: &str = r#".version 7.8
.target sm_70
.address_size 64

.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<2000000000>;
	.reg .b64 %rd<2000000000>;
	.reg .v4 .b32 %v<1500000000>;
	.reg .pred %p<4000000000>;
	ld.param.u64 %rd1999999999, [out];
	cvta.to.global.u64 %rd1, %rd1999999999;
	mov.u32 %r1999999998, %tid.x;
	mul.wide.u32 %rd7, %r1999999998, 16;
	add.u64 %rd1, %rd1, %rd7;
	add.s32 %r7, %r1999999998, 5;
	mov.b32 %v1499999999.y, %r7;
	mul.lo.s32 %v1499999999.w, %r7, 3;
	setp.lt.u32 %p3999999999, %r1999999998, 9;
	{
		.reg .b32 %r<3>;
		mov.u32 %r0, 1000;
		add.s32 %r1, %r0, %r7;
		selp.b32 %r2, %r1, %v1499999999.w, %p3999999999;
		st.global.b32 [%rd1+8], %r2;
	}
	st.global.b32 [%rd1], %v1499999999.y;
	st.global.b32 [%rd1+4], %v1499999999.w;
	st.global.b32 [%rd1+12], %r1999999998;
	ret;
}
"#;

fn spec(words_per_thread: u32) -> LaunchSpec {
    out_spec(N, words_per_thread * N, 0)
}

/// The four words thread `t` stores in `HUGE`, from the PTX's meaning.
fn huge_expected(t: u32) -> [u32; 4] {
    let r7 = t + 5;
    let w = r7 * 3;
    let inner = if t < 9 { 1000 + r7 } else { w };
    [r7, w, inner, t]
}

fn check(what: &str, got: &RunResult) {
    assert_eq!(got.outcome, Outcome::Completed, "{what}: {:?}", got.outcome);
    let out = &got.outputs.get("out").unwrap().bits;
    for t in 0..N {
        let w: Vec<u64> = (0..4).map(|k| out[(4 * t + k) as usize]).collect();
        let e: Vec<u64> = huge_expected(t).iter().map(|&x| u64::from(x)).collect();
        assert_eq!(w, e, "{what}, thread {t}");
    }
}

#[test]
fn huge_ranges_bind_only_the_named_members_in_both_runners() {
    let sp = spec(4);
    let want = interp(HUGE, &sp);
    check("interpreter", &want);
    for arch in ARCHS {
        let o0 = lowered(HUGE, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        check(&format!("-O0 on {arch}"), &o0);
    }
    agree_on_every_target(HUGE, &sp, &want);
}

/// `ptxc` itself (the driver's whole -O3 pipeline and the listing) on the
/// huge declarations.
#[test]
fn the_compiler_driver_compiles_huge_ranges() {
    let opts = ptxc::cli::parse_args(&["-O3".to_string(), "-arch=sm_80".to_string()])
        .unwrap()
        .unwrap();
    let listing = ptxc::driver::compile("huge.ptx", HUGE, &opts.driver, None)
        .result
        .unwrap_or_else(|e| panic!("{e}"))
        .sass;
    assert_eq!(listing.matches("STG.E").count(), 4, "{listing}");
}

/// An uninitialized member of a vector range read by the interpreter: the
/// verdict names the register by its component, not by a made-up number
/// (the slots of `%u1` used to be named `%u4`..`%u7`).
#[test]
fn an_uninitialized_vector_range_member_is_named_by_its_component() {
    let src = r#".version 7.8
.target sm_70
.address_size 64

.visible .entry k(.param .u64 out)
{
	.reg .v4 .b32 %u<2>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	mov.b32 %u1.x, 1;
	st.global.b32 [%rd1], %u1.y;
	ret;
}
"#;
    let got = interp(src, &spec(1));
    match got.outcome {
        Outcome::Ub {
            kind: UbKind::UninitializedRegister(name),
            ..
        } => assert_eq!(name, "%u1.y"),
        other => panic!("expected an uninitialized-register verdict, got {other:?}"),
    }
}
