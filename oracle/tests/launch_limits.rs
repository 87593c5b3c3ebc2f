//! What a launch may ask of the runners (oracle/src/launch/limits.rs), in
//! both the PTX interpreter and the SASS simulator:
//!
//! - a local frame up to 512 KiB per thread runs in both, and they agree
//!   (the simulator's local window used to be 16 KiB: a 100 KiB array
//!   faulted there while the interpreter completed, a false finding);
//! - an entry frame over 512 KiB, or calls that pass it, stop with a clear
//!   error instead of the interpreter allocating per thread until the host
//!   runs out;
//! - shared memory over the target's limit does not set up;
//! - module `.global` variables over 1 GiB do not set up (and are not
//!   allocated: a 1.5 GiB array is refused before any byte exists).

mod pair_run;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, Outcome, RunLimits};
use oracle::sim::SimInputs;
use pair_run::{agree_on_every_target, interp, out_spec, ARCHS};
use ptxc::driver::lower_target;
use ptxc::lower::LowerOptions;

const N: u32 = 32;

fn spec(dynamic_shared: u32) -> LaunchSpec {
    out_spec(N, N, dynamic_shared)
}

/// One thread: the kernels below write one word.
fn one(dynamic_shared: u32) -> LaunchSpec {
    out_spec(1, N, dynamic_shared)
}

/// A kernel with a `bytes`-byte local array, written and read at an
/// offset that depends on the thread (so that it stays in memory).
fn local_kernel(bytes: u32) -> String {
    format!(
        r#".version 7.8
.target sm_70
.address_size 64

.visible .entry k(.param .u64 out)
{{
	.local .align 8 .b8 buf[{bytes}];
	.reg .b32 %r<6>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 3000;
	mov.u64 %rd3, buf;
	add.u64 %rd4, %rd3, %rd2;
	add.u32 %r2, %r1, 77;
	st.local.u32 [%rd4], %r2;
	st.local.u32 [%rd3+{last}], %r1;
	ld.local.u32 %r3, [%rd4];
	ld.local.u32 %r4, [%rd3+{last}];
	add.u32 %r3, %r3, %r4;
	mul.wide.u32 %rd5, %r1, 4;
	add.u64 %rd6, %rd1, %rd5;
	st.global.u32 [%rd6], %r3;
	ret;
}}
"#,
        last = bytes - 4
    )
}

#[test]
fn a_100_kib_local_frame_runs_in_both_runners_and_they_agree() {
    let src = local_kernel(100 * 1024);
    let sp = spec(0);
    let want = interp(&src, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    let out = &want.outputs.get("out").unwrap().bits;
    for t in 0..N {
        assert_eq!(out[t as usize], u64::from(t + 77 + t), "thread {t}");
    }
    agree_on_every_target(&src, &sp, &want);
}

fn interp_setup_error(src: &str, sp: &LaunchSpec) -> String {
    let m = ptxc::ptx::parse_checked("t.ptx", src).unwrap_or_else(|e| panic!("{e}"));
    match ptx_interp::run(&m, src, sp, &RunLimits::default()) {
        Ok(r) => panic!("the interpreter set up and ran: {:?}", r.outcome),
        Err(e) => e.to_string(),
    }
}

/// The simulator's run of the -O0 lowering on `arch`: its setup error, or
/// its outcome.
fn sim(src: &str, sp: &LaunchSpec, arch: &str) -> Result<Outcome, String> {
    let m = ptxc::ptx::parse_checked("t.ptx", src).unwrap();
    let sm = ptxc::targets::lookup_sm(arch).unwrap();
    let ks = lower_target(&m, sm, &LowerOptions::default()).unwrap();
    let inputs = SimInputs::from_lowered(&ks[0]);
    oracle::sim::run(&ks[0].function, sm, sp, &inputs, &RunLimits::default())
        .map(|r| r.outcome)
        .map_err(|e| e.to_string())
}

#[test]
fn an_entry_frame_over_512_kib_does_not_run() {
    let src = local_kernel(512 * 1024 + 16);
    let e = interp_setup_error(&src, &spec(0));
    assert!(e.contains("524304 bytes") && e.contains("512 KiB"), "{e}");
    // The simulator's stack pointer starts 512 KiB up: the frame reaches
    // below local address 0, and the first access faults.
    for arch in ARCHS {
        match sim(&src, &spec(0), arch) {
            Ok(Outcome::Fault { message, .. }) => assert!(message.contains("local"), "{message}"),
            other => panic!("{arch}: {other:?}"),
        }
    }
    // Exactly 512 KiB (the frame is rounded to 16 bytes) still runs.
    let src = local_kernel(512 * 1024);
    let want = interp(&src, &spec(0));
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
}

#[test]
fn calls_whose_frames_pass_512_kib_fault_in_the_interpreter() {
    // Each level of f holds 100 KiB; the sixth nested call passes 512 KiB.
    let src = r#".version 7.8
.target sm_70
.address_size 64

.func (.reg .b32 r) f(.reg .b32 n)
{
	.local .align 4 .b8 buf[102400];
	.reg .b32 %r<4>;
	.reg .pred %p;
	st.local.u32 [buf], n;
	setp.eq.u32 %p, n, 0;
	@%p bra DONE;
	sub.u32 %r1, n, 1;
	call (%r2), f, (%r1);
DONE:
	ld.local.u32 r, [buf];
	ret;
}

.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, DEPTH;
	call (%r2), f, (%r1);
	st.global.u32 [%rd1], %r2;
	ret;
}
"#;
    let m_ok = src.replace("DEPTH", "3");
    let ok = interp(&m_ok, &one(0));
    assert_eq!(ok.outcome, Outcome::Completed, "{:?}", ok.outcome);
    let deep = src.replace("DEPTH", "8");
    match interp(&deep, &one(0)).outcome {
        Outcome::Fault { message, .. } => {
            assert!(
                message.contains("call stack overflow") && message.contains("512 KiB"),
                "{message}"
            )
        }
        other => panic!("{other:?}"),
    }
}

const SHARED: &str = r#".version 7.8
.target sm_70
.address_size 64

.extern .shared .align 4 .b8 dyn[];

.visible .entry k(.param .u64 out)
{
	.shared .align 4 .b8 stat[1024];
	.reg .b32 %r<4>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	st.shared.u32 [stat], %r1;
	st.shared.u32 [dyn], %r1;
	st.global.u32 [%rd1], %r1;
	ret;
}
"#;

#[test]
fn shared_memory_over_the_target_limit_does_not_set_up() {
    // Any target's most (sm_90, 227 KiB) is the interpreter's limit.
    let e = interp_setup_error(SHARED, &one(227 * 1024));
    assert!(
        e.contains("shared memory") && e.contains("any target"),
        "{e}"
    );
    let ok = interp(SHARED, &one(64 * 1024));
    assert_eq!(ok.outcome, Outcome::Completed, "{:?}", ok.outcome);
    // sm_75 gives a CTA 64 KiB; 1 KiB static and 63 KiB + 1 dynamic pass it.
    let e = sim(SHARED, &one(63 * 1024 + 1), "sm_75").unwrap_err();
    assert!(e.contains("sm_75") && e.contains("1024 static"), "{e}");
    assert!(sim(SHARED, &one(63 * 1024 + 1), "sm_80").is_ok());
}

#[test]
fn module_variables_over_1_gib_are_refused_before_they_exist() {
    let src = r#".version 7.8
.target sm_70
.address_size 64

.global .align 4 .b8 big[1610612736];

.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u64 %rd2, big;
	ld.global.u32 %r1, [%rd2+4096];
	st.global.u32 [%rd1], %r1;
	ret;
}
"#;
    let e = interp_setup_error(src, &one(0));
    assert!(e.contains("1610612736 bytes") && e.contains("1 GiB"), "{e}");
    // The compiler describes the variable without holding its bytes.
    let m = ptxc::ptx::parse_checked("t.ptx", src).unwrap();
    let sm = ptxc::targets::lookup_sm("sm_80").unwrap();
    let ks = lower_target(&m, sm, &LowerOptions::default()).unwrap();
    let g = &ks[0].globals;
    assert_eq!((g.len(), g[0].size, g[0].init.len()), (1, 1610612736, 0));
    let e = sim(src, &one(0), "sm_80").unwrap_err();
    assert!(e.contains("1 GiB"), "{e}");
}
