//! Vector registers (`.reg .v4 .b32 %v;`, PTX ISA 5.2.4 / 6.4.2) end to
//! end: the lowering (compiler/src/lower/regs.rs: each component is a
//! register of the element type) in the SASS simulator, on sm_70, sm_75,
//! sm_80, sm_86, sm_89 and sm_90, at -O0 and after the whole -O3 phase
//! plan.
//!
//! `components`: components (`.x/.y/.z/.w` and `.r/.g/.b/.a`) of `.b32`,
//! `.f32`, `.b64` and `.b16` vectors as sources and destinations of
//! arithmetic, `mov`, `cvt`, `setp`/`selp`, scalar loads and stores,
//! live across a call (ptxas 11.8 refuses components inside call
//! argument lists: "Parsing error near '.z'"); checked against the PTX interpreter and against
//! values computed here from the PTX's meaning.
//!
//! `whole_vectors`: a whole vector register as the vector operand of
//! `ld.v4`/`st.v4`/`ld.v2.b64`: checked against the PTX's meaning and the
//! interpreter, which reads a whole vector register there as the list of
//! its components (oracle/src/ptx_interp/decode.rs; it used to read the
//! first component alone), as the vendor does (ptxas 11.8, sm_80:
//! `st.global.v4.b32 [%rd2], %v` is `STG.E.128 [R2.64], R4` of the four
//! component registers); ranges of vector registers (`%u<2>`) do not
//! overlap.

mod pair_run;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, RunResult};
use pair_run::{agree_on_every_target, interp, lowered, lowered_o3, out_spec, ARCHS};

const N: u32 = 32;

const COMPONENTS: &str = r#".version 7.8
.target sm_70
.address_size 64

.func (.reg .b32 r) twice (.reg .b32 a)
{
	shl.b32 r, a, 1;
	ret;
}

.visible .entry k(.param .u64 out)
{
	.reg .v4 .b32 %v;
	.reg .v4 .f32 %f;
	.reg .v2 .b64 %w;
	.reg .v2 .b16 %h;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 48;
	add.u64 %rd2, %rd2, %rd3;
	mov.b32 %v.x, %r1;
	add.s32 %v.y, %v.x, 10;
	mul.lo.s32 %v.b, %v.g, 3;
	xor.b32 %v.a, %v.r, %v.z;
	cvt.rn.f32.u32 %f.x, %v.y;
	mul.f32 %f.y, %f.x, 0f3F000000;
	add.f32 %f.w, %f.y, %f.x;
	cvt.u64.u32 %w.x, %v.w;
	shl.b64 %w.y, %w.x, 33;
	add.s64 %w.y, %w.y, %w.x;
	cvt.u16.u32 %h.x, %v.y;
	mul.lo.u16 %h.y, %h.x, 1000;
	setp.lt.u32 %p1, %v.x, 13;
	selp.b32 %r2, %v.y, %v.w, %p1;
	st.global.b32 [%rd2], %v.x;
	st.global.b32 [%rd2+4], %v.y;
	st.global.b32 [%rd2+8], %v.z;
	st.global.b32 [%rd2+12], %v.w;
	st.global.f32 [%rd2+16], %f.w;
	st.global.b64 [%rd2+24], %w.y;
	ld.global.b32 %v.z, [%rd2+4];
	mov.b32 %r5, %v.z;
	call (%r4), twice, (%r5);
	mov.b32 %v.w, %r4;
	st.global.b32 [%rd2+32], %v.w;
	cvt.u32.u16 %r3, %h.y;
	st.global.b32 [%rd2+36], %r3;
	st.global.b32 [%rd2+40], %r2;
	st.global.b16 [%rd2+44], %h.x;
	ret;
}
"#;

fn spec(words_per_thread: u32) -> LaunchSpec {
    out_spec(N, words_per_thread * N, 0)
}

/// The 12 words thread `t` stores in `COMPONENTS`, from the PTX's meaning.
fn components_expected(t: u32) -> [u32; 12] {
    let y = t + 10;
    let z = 3 * y;
    let w = t ^ z;
    let fx = y as f32;
    let fw = fx * 0.5 + fx;
    let wx = u64::from(w);
    let wy = (wx << 33).wrapping_add(wx);
    let hx = y as u16;
    let hy = hx.wrapping_mul(1000);
    [
        t,
        y,
        z,
        w,
        fw.to_bits(),
        0,
        wy as u32,
        (wy >> 32) as u32,
        2 * y,
        u32::from(hy),
        if t < 13 { y } else { w },
        u32::from(hx),
    ]
}

fn check_against(what: &str, got: &RunResult, words: u32, want: impl Fn(u32) -> Vec<u32>) {
    assert_eq!(got.outcome, Outcome::Completed, "{what}: {:?}", got.outcome);
    let out = &got.outputs.get("out").unwrap().bits;
    for t in 0..N {
        let w: Vec<u64> = (0..words).map(|k| out[(words * t + k) as usize]).collect();
        let e: Vec<u64> = want(t).iter().map(|&x| u64::from(x)).collect();
        assert_eq!(w, e, "{what}, thread {t}");
    }
}

#[test]
fn components_match_the_interpreter_on_every_target() {
    let sp = spec(12);
    let want = interp(COMPONENTS, &sp);
    // Not vacuous: the interpreter computes what the PTX means.
    check_against("interpreter", &want, 12, |t| {
        components_expected(t).to_vec()
    });
    agree_on_every_target(COMPONENTS, &sp, &want);
}

const WHOLE: &str = r#".version 7.8
.target sm_70
.address_size 64

.visible .entry k(.param .u64 out)
{
	.reg .v4 .b32 %v;
	.reg .v4 .b32 %u<2>;
	.reg .v2 .b64 %w;
	.reg .b64 %rd<4>;
	.reg .b32 %r<4>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 64;
	add.u64 %rd2, %rd2, %rd3;
	mov.b32 %v.x, %r1;
	add.s32 %v.y, %r1, 100;
	mov.b32 %v.z, 7;
	mul.lo.s32 %v.w, %r1, %r1;
	st.global.v4.b32 [%rd2], %v;
	ld.global.v4.b32 %u1, [%rd2];
	add.s32 %u1.x, %u1.w, %u1.y;
	mov.b32 %u0.x, %u1.z;
	mov.b32 %u0.y, %u1.y;
	mov.b32 %u0.z, %u1.x;
	mov.b32 %u0.w, %u1.w;
	st.global.v4.b32 [%rd2+16], %u0;
	ld.global.v2.b64 %w, [%rd2];
	add.s64 %w.y, %w.y, %w.x;
	st.global.v2.b64 [%rd2+32], %w;
	st.global.v4.b32 [%rd2+48], %u1;
	ret;
}
"#;

/// The 16 words thread `t` stores in `WHOLE`, from the PTX's meaning.
fn whole_expected(t: u32) -> Vec<u32> {
    let v = [t, t + 100, 7, t.wrapping_mul(t)];
    let u1 = [v[3].wrapping_add(v[1]), v[1], v[2], v[3]];
    let u0 = [u1[2], u1[1], u1[0], u1[3]];
    let wx = u64::from(v[0]) | u64::from(v[1]) << 32;
    let wy = (u64::from(v[2]) | u64::from(v[3]) << 32).wrapping_add(wx);
    let mut out = Vec::new();
    out.extend_from_slice(&v);
    out.extend_from_slice(&u0);
    out.extend_from_slice(&[wx as u32, (wx >> 32) as u32, wy as u32, (wy >> 32) as u32]);
    out.extend_from_slice(&u1);
    out
}

#[test]
fn whole_vector_registers_load_and_store_every_component() {
    let sp = spec(16);
    let want = interp(WHOLE, &sp);
    check_against("interpreter", &want, 16, whole_expected);
    for arch in ARCHS {
        let o0 = lowered(WHOLE, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        check_against(&format!("-O0 on {arch}"), &o0, 16, whole_expected);
        let o3 = lowered_o3(WHOLE, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        check_against(&format!("-O3 on {arch}"), &o3, 16, whole_expected);
    }
}
