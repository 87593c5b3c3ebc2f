//! Indirect calls through call prototypes (PTX ISA 9.7.12.4: `mov.u64
//! %fp, f; call (r), %fp, (a), proto;`) end to end: the lowering
//! (compiler/src/lower/call_indirect.rs: the function's code address,
//! `CALL.REL.NOINC %fp 0x0`, the signature class's shared registers) in
//! the SASS simulator against the PTX interpreter, on sm_70, sm_75,
//! sm_80, sm_86, sm_89 and sm_90, at -O0 and after the whole -O3 phase
//! plan. ptxas 11.8 accepts the kernel.
//!
//! The kernel never observes a function address as a number (the two
//! runners' values differ by DECISION, call_indirect.rs): it only selects
//! and calls through them. Domains: per-lane (divergent) targets of one
//! `.param` class, a member also called directly, a member that calls
//! another member of its own class (its parameters and return address
//! survive the inner call), a `.reg` class with a 64-bit parameter and an
//! immediate argument, and an indirect call from inside a `.func`; and a
//! callee with `.local` data (calling another with `.local` data) reached
//! only through a pointer, whose frames the kernel's stack depth
//! (regalloc/frame.rs) must count.

mod pair_run;
use oracle::commands::sim::run_sass;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, RunLimits};
use oracle::sim::SimInputs;
use pair_run::{agree, interp, lowered, lowered_o3, ARCHS};

const N: u32 = 32;

const PTX: &str = r#".version 7.8
.target sm_70
.address_size 64

.func (.param .b32 r) addone (.param .b32 a)
{
	.reg .b32 %t<3>;
	ld.param.b32 %t1, [a];
	add.s32 %t2, %t1, 1;
	st.param.b32 [r], %t2;
	ret;
}

.func (.param .b32 r) twice (.param .b32 a)
{
	.reg .b32 %t<3>;
	ld.param.b32 %t1, [a];
	shl.b32 %t2, %t1, 1;
	st.param.b32 [r], %t2;
	ret;
}

.func (.param .b32 r) both (.param .b32 a)
{
	.reg .b32 %t<5>;
	ld.param.b32 %t1, [a];
	{
	.param .b32 pa;
	.param .b32 pr;
	st.param.b32 [pa], %t1;
	call (pr), twice, (pa);
	ld.param.b32 %t2, [pr];
	}
	add.s32 %t3, %t2, %t1;
	mul.lo.s32 %t4, %t3, 100;
	st.param.b32 [r], %t4;
	ret;
}

.func (.reg .b32 q) big (.reg .b64 x, .reg .b32 y)
{
	.reg .b64 %e<2>;
	.reg .pred %c;
	cvt.u64.u32 %e1, y;
	setp.gt.u64 %c, x, %e1;
	selp.u32 q, 1, 2, %c;
	ret;
}

.func (.reg .b32 q) small (.reg .b64 x, .reg .b32 y)
{
	.reg .b64 %e<2>;
	.reg .pred %c;
	cvt.u64.u32 %e1, y;
	setp.lt.u64 %c, x, %e1;
	selp.u32 q, 1, 2, %c;
	ret;
}

.func (.reg .b32 r) apply (.reg .b64 fp, .reg .b32 v)
{
	.param .b32 pa;
	.param .b32 pr;
	st.param.b32 [pa], v;
	pproto: .callprototype (.param .b32 _) _ (.param .b32 _);
	call (pr), fp, (pa), pproto;
	ld.param.b32 r, [pr];
	ret;
}

.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd6, %r1, 16;
	add.u64 %rd2, %rd2, %rd6;
	mov.u64 %rd3, addone;
	mov.u64 %rd4, twice;
	mov.u64 %rd5, both;
	and.b32 %r2, %r1, 3;
	setp.eq.u32 %p1, %r2, 0;
	setp.eq.u32 %p2, %r2, 1;
	selp.b64 %rd7, %rd3, %rd4, %p1;
	selp.b64 %rd7, %rd5, %rd7, %p2;
	{
	.param .b32 pa;
	.param .b32 pr;
	st.param.b32 [pa], %r1;
	proto: .callprototype (.param .b32 _) _ (.param .b32 _);
	call (pr), %rd7, (pa), proto;
	ld.param.b32 %r3, [pr];
	}
	{
	.param .b32 pa;
	.param .b32 pr;
	st.param.b32 [pa], %r3;
	call (pr), addone, (pa);
	ld.param.b32 %r4, [pr];
	}
	mov.u64 %rd8, big;
	mov.u64 %rd9, small;
	setp.lt.u32 %p3, %r1, 16;
	selp.b64 %rd10, %rd8, %rd9, %p3;
	cvt.u64.u32 %rd11, %r1;
	shl.b64 %rd11, %rd11, 31;
	rproto: .callprototype (.reg .b32 _) _ (.reg .b64 _, .reg .b32 _);
	call (%r5), %rd10, (%rd11, 0x40000000), rproto;
	call (%r6), apply, (%rd7, %r4);
	st.global.u32 [%rd2], %r3;
	st.global.u32 [%rd2+4], %r4;
	st.global.u32 [%rd2+8], %r5;
	st.global.u32 [%rd2+12], %r6;
	ret;
}
"#;

fn spec() -> LaunchSpec {
    spec_words(4)
}

fn spec_words(words: u32) -> LaunchSpec {
    let text = format!(
        r#"{{"kernel": "k", "grid": [1], "block": [{N}], "params": [{{"buffer": "out"}}],
  "buffers": {{"out": {{"type": "u32", "len": {len}, "init": "zeros"}}}}, "outputs": ["out"]}}"#,
        len = words * N
    );
    LaunchSpec::from_json_str(&text, ".").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The words thread `t` stores, from the PTX's meaning.
fn expected(t: u32) -> [u32; 4] {
    let f = |x: u32| match t & 3 {
        0 => x + 1,
        1 => (2 * x + x) * 100,
        _ => 2 * x,
    };
    let r3 = f(t);
    let r4 = r3 + 1;
    let x = u64::from(t) << 31;
    let q = if t < 16 {
        x > 0x4000_0000
    } else {
        x < 0x4000_0000
    };
    [r3, r4, if q { 1 } else { 2 }, f(r4)]
}

#[test]
fn indirect_calls_match_the_interpreter_on_every_target() {
    let sp = spec();
    let want = interp(PTX, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    // Not vacuous: the interpreter computes what the PTX means.
    let out = &want.outputs.get("out").unwrap().bits;
    for t in 0..N {
        let got: Vec<u64> = (0..4).map(|w| out[(4 * t + w) as usize]).collect();
        let exp: Vec<u64> = expected(t).iter().map(|&x| u64::from(x)).collect();
        assert_eq!(got, exp, "interpreter, thread {t}");
    }
    for arch in ARCHS {
        let o0 = lowered(PTX, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &o0, false) {
            panic!("-O0 on {arch}: {d}");
        }
        let o3 = lowered_o3(PTX, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &o3, false) {
            panic!("-O3 on {arch}: {d}");
        }
    }
}

/// ptxas 11.8's own listings of a call through a function address
/// (tests/indirect_call_vendor/leaf.ptx: `MOV R6, 0xf0 ; @P0 MOV R6, 0x110
/// ; CALL.REL.NOINC R6 0x0`, per-lane targets) in the simulator against
/// the interpreter, and the lowering of the same kernel: the simulator's
/// `CALL R off` is the vendor's, on every target.
#[test]
fn vendor_indirect_call_listings_run_in_the_simulator() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/indirect_call_vendor");
    let src = std::fs::read_to_string(dir.join("leaf.ptx")).unwrap();
    let sp = spec_words(1);
    let want = interp(&src, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    // Not vacuous: lanes below 5 ran `addone`, the others `dbl`.
    let out = &want.outputs.get("out").unwrap().bits;
    for t in 0..N {
        let e = if t < 5 { t + 1 } else { 2 * t };
        assert_eq!(out[t as usize], u64::from(e), "interpreter, thread {t}");
    }
    for arch in ARCHS {
        let sass = std::fs::read_to_string(dir.join(format!("leaf.{arch}.sass"))).unwrap();
        assert!(
            sass.contains("CALL.REL.NOINC R6 0x0"),
            "{arch}: no call through a register"
        );
        let got = run_sass(
            &sp,
            &sass,
            "leaf",
            arch,
            None,
            &SimInputs::default(),
            &RunLimits::default(),
        )
        .unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &got, false) {
            panic!("vendor listing on {arch}: {d}");
        }
        let ours = lowered(&src, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &ours, false) {
            panic!("lowered leaf.ptx on {arch}: {d}");
        }
    }
}

/// A callee with `.local` data reached only through a function pointer,
/// which itself calls a function with `.local` data: the kernel's stack
/// (regalloc/frame.rs `stack_depth`) must cover the candidate's frame and
/// its callee's below the call site.
const LOCALS: &str = r#".version 7.8
.target sm_70
.address_size 64

.func (.param .b32 r) inner (.param .b32 a)
{
	.local .align 4 .b8 arr[32];
	.reg .b32 %t<6>;
	.reg .b64 %q<4>;
	ld.param.b32 %t1, [a];
	mov.u64 %q1, arr;
	and.b32 %t2, %t1, 7;
	mul.wide.u32 %q2, %t2, 4;
	add.u64 %q3, %q1, %q2;
	st.local.u32 [arr], 5;
	st.local.u32 [%q3], %t1;
	ld.local.u32 %t3, [arr];
	add.s32 %t4, %t3, %t1;
	st.param.b32 [r], %t4;
	ret;
}

.func (.param .b32 r) withlocal (.param .b32 a)
{
	.local .align 8 .b8 buf[64];
	.reg .b32 %t<8>;
	.reg .b64 %q<4>;
	ld.param.b32 %t1, [a];
	mov.u64 %q1, buf;
	and.b32 %t2, %t1, 15;
	mul.wide.u32 %q2, %t2, 4;
	add.u64 %q3, %q1, %q2;
	st.local.u32 [buf+60], 1000;
	st.local.u32 [%q3], %t1;
	{
	.param .b32 pa;
	.param .b32 pr;
	st.param.b32 [pa], %t1;
	call (pr), inner, (pa);
	ld.param.b32 %t3, [pr];
	}
	ld.local.u32 %t4, [buf+60];
	ld.local.u32 %t5, [%q3];
	add.s32 %t6, %t3, %t4;
	add.s32 %t7, %t6, %t5;
	st.param.b32 [r], %t7;
	ret;
}

.func (.param .b32 r) plain (.param .b32 a)
{
	.reg .b32 %t<3>;
	ld.param.b32 %t1, [a];
	add.s32 %t2, %t1, 7;
	st.param.b32 [r], %t2;
	ret;
}

.visible .entry k(.param .u64 out)
{
	.local .align 4 .b8 mine[16];
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd6, %r1, 4;
	add.u64 %rd2, %rd2, %rd6;
	st.local.u32 [mine+12], %r1;
	mov.u64 %rd3, withlocal;
	mov.u64 %rd4, plain;
	setp.lt.u32 %p1, %r1, 20;
	selp.b64 %rd5, %rd3, %rd4, %p1;
	{
	.param .b32 pa;
	.param .b32 pr;
	st.param.b32 [pa], %r1;
	proto: .callprototype (.param .b32 _) _ (.param .b32 _);
	call (pr), %rd5, (pa), proto;
	ld.param.b32 %r2, [pr];
	}
	ld.local.u32 %r3, [mine+12];
	add.s32 %r4, %r2, %r3;
	st.global.u32 [%rd2], %r4;
	ret;
}
"#;

#[test]
fn a_callee_with_locals_through_a_pointer_gets_its_frame() {
    let sp = spec_words(1);
    let want = interp(LOCALS, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    // Not vacuous: lanes below 20 ran `withlocal`, the others `plain` (t +
    // 7); the kernel adds t. Each local store at index t lands on the
    // word read back when the index hits it (arr[0], buf[15]).
    let out = &want.outputs.get("out").unwrap().bits;
    for t in 0..N {
        let inner = if t & 7 == 0 { t } else { 5 } + t;
        let buf60 = if t & 15 == 15 { t } else { 1000 };
        let e = if t < 20 { inner + buf60 + t } else { t + 7 } + t;
        assert_eq!(out[t as usize], u64::from(e), "interpreter, thread {t}");
    }
    let m = ptxc::ptx::parse_checked("t", LOCALS).unwrap();
    for arch in ARCHS {
        let sm = ptxc::targets::lookup_sm(arch).unwrap();
        let ks = ptxc::lower::lower_module(&m, sm, &ptxc::lower::LowerOptions::default())
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let k = ks.iter().find(|k| k.name == "k").unwrap();
        // The frames of the PTX: kernel 16 bytes, withlocal 64, inner 32
        // (each a multiple of 16), all on one chain through the pointer
        // (without the candidates of the register call: 16).
        let depth = ptxc::regalloc::stack_depth(&k.function).unwrap();
        assert_eq!(
            depth,
            16 + 64 + 32,
            "{arch}: the stack depth of the lowered code"
        );
        let o0 = lowered(LOCALS, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &o0, false) {
            panic!("-O0 on {arch}: {d}");
        }
        let o3 = lowered_o3(LOCALS, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &o3, false) {
            panic!("-O3 on {arch}: {d}");
        }
    }
}
