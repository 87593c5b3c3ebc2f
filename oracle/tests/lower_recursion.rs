//! Direct self-recursion (compiler/src/lower/recursion.rs: the caller
//! saves the registers live across a self-call to a stack area below R1,
//! a recursive function keeps its callers' convergence barrier with
//! `BMOV`) end to end: recursive kernels in the SASS simulator against
//! the PTX interpreter on sm_70, sm_75, sm_80, sm_86, sm_89 and sm_90,
//! lowered alone, after the -O3 phase plan, and through the driver at -O0
//! and -O3; ptxas 11.8's own listings of the same module
//! (tests/recursion_vendor/) in the simulator; and recursion deeper than
//! the thread's stack, which both runners stop with an error.
//!
//! The module (tests/recursion_vendor/recur.ptx): `fact` (one self-call,
//! `.param` parameter and return value), `fib` (two self-calls, `.reg`
//! parameter and return value), `walk` (a `.local` array per activation
//! read after the self-call through its address, 64-bit values, a
//! predicate and several values live across the call), `sumdown` (a
//! guarded self-call); per-thread inputs give divergent depths, and a
//! full-warp `shfl.sync` after the first call needs every lane back.
//! Also recursion through function pointers (tests/recursion_vendor/
//! pointer.ptx, compiler/src/lower/call_graph.rs) and warp-synchronous
//! instructions right after recursive calls.

mod pair_run;
mod seq_harness;

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, UbKind};
use pair_run::{agree, interp, lowered, lowered_o3, ARCHS};

const N: u32 = 32;

fn src() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recursion_vendor");
    std::fs::read_to_string(dir.join("recur.ptx")).unwrap()
}

fn spec(bias: u32) -> LaunchSpec {
    spec_words(bias, 6)
}

fn spec_words(bias: u32, words: u32) -> LaunchSpec {
    let text = format!(
        r#"{{"kernel": "k", "grid": [1], "block": [{N}], "params": [{{"buffer": "out"}}, {{"u32": {bias}}}],
  "buffers": {{"out": {{"type": "u32", "len": {len}, "init": "zeros"}}}}, "outputs": ["out"]}}"#,
        len = words * N
    );
    LaunchSpec::from_json_str(&text, ".").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn fact(n: u32) -> u32 {
    if (n as i32) <= 1 {
        1
    } else {
        fact(n - 1).wrapping_mul(n)
    }
}

fn fib(n: u32) -> u32 {
    if n < 2 {
        n
    } else {
        fib(n - 1) + fib(n - 2)
    }
}

fn walk(n: u32, acc: u64) -> u64 {
    if n == 0 {
        return acc;
    }
    let t2 = n.wrapping_mul(7);
    let inner = walk(
        n - 1,
        acc.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1),
    );
    let mut d = inner.wrapping_add(u64::from(n));
    d ^= u64::from(t2) * u64::from(t2);
    d = d.wrapping_add(acc);
    let t11 = if n & 1 == 1 { n ^ 0x5a5a } else { 3 };
    d.wrapping_add(u64::from(t11) << 17)
}

/// The six words thread `t` stores, from the PTX's meaning.
fn expected(t: u32, bias: u32) -> [u32; 6] {
    let w = walk(t & 15, u64::from(t) * 24);
    [
        fact(t + bias),
        fact(31 + bias),
        w as u32,
        (w >> 32) as u32,
        fib(t & 15),
        t * (t + 1) / 2,
    ]
}

fn check_interp(src: &str, bias: u32) -> oracle::ptx_interp::RunResult {
    let want = interp(src, &spec(bias));
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    // Not vacuous: the interpreter computes what the PTX means.
    let out = &want.outputs.get("out").unwrap().bits;
    for t in 0..N {
        let got: Vec<u64> = (0..6).map(|w| out[(6 * t + w) as usize]).collect();
        let exp: Vec<u64> = expected(t, bias).iter().map(|&x| u64::from(x)).collect();
        assert_eq!(got, exp, "interpreter, thread {t}, bias {bias}");
    }
    want
}

#[test]
fn recursive_functions_match_the_interpreter_on_every_target() {
    let src = src();
    for bias in [0, 5] {
        let sp = spec(bias);
        let want = check_interp(&src, bias);
        for arch in ARCHS {
            let o0 = lowered(&src, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
            if let Some(d) = agree(&want, &o0, false) {
                panic!("lowered, {arch}, bias {bias}: {d}");
            }
            let o3 = lowered_o3(&src, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
            if let Some(d) = agree(&want, &o3, false) {
                panic!("-O3 phases, {arch}, bias {bias}: {d}");
            }
        }
    }
}

/// recur.ptx's functions under a kernel that runs warp-synchronous
/// instructions right after calls that recursed to per-lane depths
/// (corpus/regressions/recursion_then_shfl): `shfl.sync.idx` of `fact(tid &
/// 7)` from lane 3, `shfl.sync.bfly` of `fib(tid & 15)` with the partner
/// lane, and a `vote.sync.ballot` after `sumdown(tid)`. Every lane must be
/// back from its activations first: each activation's `BSYNC` releases
/// its own lanes only (oracle/src/sim/exec/control.rs); the rule before
/// (every waiter on the barrier released, lanes outside it passing)
/// deadlocked here.
fn warp_sync_after_recursion_src() -> String {
    let src = src();
    let funcs = &src[..src.find(".visible .entry k").expect("recur.ptx's kernel")];
    format!(
        r#"{funcs}.visible .entry k(.param .u64 out, .param .u32 bias)
{{
	.reg .b32 %r<16>;
	.reg .b64 %rd<4>;
	.reg .pred %q;
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 7;
	{{
	.param .b32 a0;
	.param .b32 r0;
	st.param.b32 [a0], %r2;
	call (r0), fact, (a0);
	ld.param.b32 %r3, [r0];
	}}
	shfl.sync.idx.b32 %r4, %r3, 3, 31, -1;
	add.u32 %r4, %r4, %r3;
	and.b32 %r5, %r1, 15;
	call (%r6), fib, (%r5);
	shfl.sync.bfly.b32 %r7, %r6, 1, 31, -1;
	call (%r8), sumdown, (%r1);
	setp.gt.u32 %q, %r8, 100;
	vote.sync.ballot.b32 %r9, %q, -1;
	ld.param.u64 %rd1, [out];
	mul.wide.u32 %rd2, %r1, 12;
	add.s64 %rd1, %rd1, %rd2;
	st.global.u32 [%rd1], %r4;
	st.global.u32 [%rd1+4], %r7;
	st.global.u32 [%rd1+8], %r9;
	ret;
}}
"#
    )
}

#[test]
fn warp_sync_after_divergent_depth_recursion() {
    let src = warp_sync_after_recursion_src();
    let sp = spec_words(0, 3);
    let ballot = (0..N)
        .filter(|t| t * (t + 1) / 2 > 100)
        .fold(0u32, |m, t| m | 1 << t);
    assert_eq!(ballot, 0xffff_c000, "t(t+1)/2 > 100 from t = 14");
    let want = interp(&src, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    let out = &want.outputs.get("out").unwrap().bits;
    for t in 0..N {
        let exp = [fact(t & 7) + fact(3), fib((t ^ 1) & 15), ballot];
        for (w, x) in exp.iter().enumerate() {
            assert_eq!(
                out[(3 * t) as usize + w],
                u64::from(*x),
                "thread {t} word {w}"
            );
        }
    }
    every_target_agrees("recur", &src, &sp, &want, |_, _, _| {});
}

/// `src` lowered, through the -O3 phases, and compiled by the ptxc driver
/// at -O0 and -O3 (`messages` checks each compile's messages), on every
/// target, against the interpreter's `want`.
fn every_target_agrees(
    name: &str,
    src: &str,
    sp: &LaunchSpec,
    want: &oracle::ptx_interp::RunResult,
    messages: impl Fn(&str, &str, &[ptxc::driver::Message]),
) {
    let m = ptxc::ptx::parse_checked(name, src).unwrap();
    for arch in ARCHS {
        for (what, got) in [
            ("lowered", lowered(src, sp, arch)),
            ("-O3 phases", lowered_o3(src, sp, arch)),
        ] {
            let got = got.unwrap_or_else(|e| panic!("{what} {arch}: {e}"));
            if let Some(d) = agree(want, &got, false) {
                panic!("{what} {arch}: {d}");
            }
        }
        for opt in ["-O0", "-O3"] {
            let opts = ptxc::cli::parse_args(&[opt.to_string(), format!("-arch={arch}")])
                .unwrap()
                .unwrap();
            let out = ptxc::driver::compile(&format!("{name}.ptx"), src, &opts.driver, None);
            messages(arch, opt, &out.messages);
            let sass = out
                .result
                .unwrap_or_else(|e| panic!("{arch} {opt}: {e}"))
                .sass;
            seq_harness::vendor_agrees(&m, src, &sass, name, arch, sp, |_| opt.to_string());
        }
    }
}

fn pointer_src() -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recursion_vendor");
    std::fs::read_to_string(dir.join("pointer.ptx")).unwrap()
}

fn even(n: u32, acc: u32) -> u32 {
    if n == 0 {
        acc.wrapping_add(7)
    } else {
        odd(n - 1, acc ^ n).wrapping_mul(3).wrapping_add(n)
    }
}

fn odd(n: u32, acc: u32) -> u32 {
    if n == 0 {
        acc.wrapping_mul(5)
    } else {
        even(n - 1, acc.wrapping_add(n)) ^ n.wrapping_mul(n)
    }
}

fn fibp(n: u32) -> u64 {
    if n < 2 {
        u64::from(n)
    } else {
        fibp(n - 1) + fibp(n - 2) + (u64::from(n) << 32)
    }
}

fn sel(n: u32) -> u32 {
    if n == 0 {
        return 1;
    }
    let r = if n & 1 == 1 { sel(n - 1) } else { n }; // addone(n - 1)
    r.wrapping_mul(3).wrapping_add(n)
}

/// The seven words thread `t` of pointer.ptx stores.
fn pointer_expected(t: u32) -> [u32; 7] {
    let f = fibp(t & 15);
    let ballot = (0..N)
        .filter(|&u| sel(u & 7) & 1 == 1)
        .fold(0, |m, u| m | 1 << u);
    [
        fact(t & 7),
        fact(5),
        even(t & 15, t),
        f as u32,
        (f >> 32) as u32,
        sel(t & 7),
        ballot,
    ]
}

/// Recursion through function pointers (tests/recursion_vendor/pointer.ptx;
/// compiler/src/lower/call_graph.rs): `pfact` calls itself through its
/// own address; `even` -> pointer -> `odd` -> direct -> `even`; `fibp`
/// makes two calls through its address (`.reg` class, 64-bit result, the
/// pointer live across the first); `sel` calls, per lane, itself or a leaf
/// through one pointer; the kernel reaches `fibp` through a pointer. Per-
/// lane depths, with a `shfl.sync` and a `vote.sync` after the calls. On
/// every target, lowered and after the -O3 phase plan, against values
/// computed here; through the driver at -O0 and -O3 with ptxas 11.8's
/// stack warning; and ptxas's sm_90 listing of the same module (sm_70 and
/// sm_80 listings use `BRA.CONV` in the `shfl.sync` fallback, which the
/// simulator does not model).
#[test]
fn recursion_through_function_pointers_matches_host_values() {
    let src = pointer_src();
    let sp = spec_words(0, 7);
    let want = interp(&src, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    let out = &want.outputs.get("out").unwrap().bits;
    for t in 0..N {
        for (w, x) in pointer_expected(t).iter().enumerate() {
            assert_eq!(
                out[(7 * t) as usize + w],
                u64::from(*x),
                "thread {t} word {w}"
            );
        }
    }
    every_target_agrees("pointer", &src, &sp, &want, |arch, opt, msgs| {
        assert!(
            msgs.iter().any(|msg| msg
                .text
                .contains("Stack size for entry function 'k' cannot be statically determined")),
            "{arch} {opt}: no stack-size warning"
        );
    });
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recursion_vendor");
    let sass = std::fs::read_to_string(dir.join("pointer.sm_90.O3.sass")).unwrap();
    assert!(sass.contains("CALL.REL.NOINC R") && sass.contains("BMOV.32.CLEAR"));
    let got = oracle::commands::sim::run_sass(
        &sp,
        &sass,
        "pointer",
        "sm_90",
        Some("k"),
        &oracle::sim::SimInputs::default(),
        &oracle::ptx_interp::RunLimits::default(),
    )
    .unwrap();
    if let Some(d) = agree(&want, &got, false) {
        panic!("vendor pointer.sm_90.O3.sass: {d}");
    }
}

/// The driver at -O0 and -O3 (register allocation, scheduling, the
/// listing printed and parsed back): the listing runs in the simulator
/// and agrees with the interpreter; it warns, as ptxas 11.8 does, that
/// the stack size is not static.
#[test]
fn driver_listings_match_the_interpreter() {
    let src = src();
    let m = ptxc::ptx::parse_checked("recur", &src).unwrap();
    check_interp(&src, 3);
    for arch in ARCHS {
        for opt in ["-O0", "-O3"] {
            let opts = ptxc::cli::parse_args(&[opt.to_string(), format!("-arch={arch}")])
                .unwrap()
                .unwrap();
            let out = ptxc::driver::compile("recur.ptx", &src, &opts.driver, None);
            let warned = out.messages.iter().any(|msg| {
                msg.text
                    .contains("Stack size for entry function 'k' cannot be statically determined")
            });
            assert!(warned, "{arch} {opt}: no stack-size warning");
            let sass = out
                .result
                .unwrap_or_else(|e| panic!("{arch} {opt}: {e}"))
                .sass;
            assert!(
                sass.contains("BMOV.32.CLEAR"),
                "{arch} {opt}: no barrier save"
            );
            seq_harness::vendor_agrees(&m, &src, &sass, "recur", arch, &spec(3), |_| {
                opt.to_string()
            });
        }
    }
}

/// ptxas 11.8's listings of `small.ptx` (recur.ptx without `walk`, whose
/// listing saves a predicate with `P2R R0, PR, RZ, 0x1`, an operand the
/// simulator's parser does not know; README.md) run in the simulator and
/// agree with the interpreter, as does our lowering of the same module.
///
/// ptxas's callee-saved convention stores registers the kernel never wrote
/// on entry to a recursive function (`STL [R1+0x4], R17` in `fact`) and
/// loads them back before `RET`: the simulator marks such a local word
/// undefined instead of stopping (oracle/src/sim/memory.rs), and the
/// divergent recursion depths need each `BSYNC B6` to release its own
/// activation only (exec/control.rs). Pinned: the listings still save an
/// `R16`+ register the kernel never writes, so the rule is exercised.
#[test]
fn vendor_listings_run_in_the_simulator() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/recursion_vendor");
    let src = std::fs::read_to_string(dir.join("small.ptx")).unwrap();
    let sp = spec_words(2, 4);
    let want = interp(&src, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    let out = &want.outputs.get("out").unwrap().bits;
    for t in 0..N {
        let e = expected(t, 2);
        let exp = [e[0], e[1], e[4], e[5]];
        for (w, x) in exp.iter().enumerate() {
            assert_eq!(
                out[4 * t as usize + w],
                u64::from(*x),
                "thread {t} word {w}"
            );
        }
    }
    for arch in ARCHS {
        let sass = std::fs::read_to_string(dir.join(format!("small.{arch}.O3.sass"))).unwrap();
        assert!(
            sass.contains("BMOV.32.CLEAR") && sass.contains("STL [R1+0x4], R17"),
            "{arch}: not the recursive listing with a callee-saved store"
        );
        let got = oracle::commands::sim::run_sass(
            &sp,
            &sass,
            "small",
            arch,
            Some("k"),
            &oracle::sim::SimInputs::default(),
            &oracle::ptx_interp::RunLimits::default(),
        )
        .unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &got, false) {
            panic!("vendor small.{arch}.O3.sass: {d}");
        }
        let ours = lowered_o3(&src, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &ours, false) {
            panic!("small.ptx -O3 phases on {arch}: {d}");
        }
    }
}

/// Recursion deeper than the stack: the interpreter stops at its call
/// depth limit (UB `CallDepth`), the simulator faults on the first access
/// below the thread's local window; neither completes with a wrong answer.
#[test]
fn too_deep_recursion_is_an_error_in_both_runners() {
    let src = src();
    let sp = spec(100_000);
    let want = interp(&src, &sp);
    assert!(
        matches!(
            want.outcome,
            Outcome::Ub {
                kind: UbKind::CallDepth,
                ..
            }
        ),
        "{:?}",
        want.outcome
    );
    for arch in ARCHS {
        for (what, got) in [
            ("lowered", lowered(&src, &sp, arch)),
            ("-O3", lowered_o3(&src, &sp, arch)),
        ] {
            let got = got.unwrap_or_else(|e| panic!("{arch}: {e}"));
            match &got.outcome {
                Outcome::Fault { message, .. } => {
                    assert!(message.contains("local"), "{what} {arch}: {message}")
                }
                o => panic!("{what} {arch}: {o:?}"),
            }
        }
    }
}
