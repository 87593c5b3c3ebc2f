//! Texture fetches with a residency predicate (`tex... {..}|p, [..]`,
//! `tld4... {..}|p`; PTX ISA 9.7.10.3: "set to True if data from all
//! texels is resident in memory, False otherwise"): lowered by
//! `ptxc::lower` (compiler/src/lower/tex.rs: ptxas's predicate destination
//! `TEX.SCR.LL P0, ...`, negated into the PTX predicate) and run in the
//! SASS simulator against the PTX interpreter on every target; and
//! ptxas's own listings (oracle/tests/tex_resident_vendor/, `ptxas
//! -arch=sm_XX -O3` + `cuobjdump -sass`) in the simulator against the
//! interpreter.
//!
//! Forms: `tex.1d/.2d/.3d` with `.f32` coordinates (ptxas: `TEX.LL` at
//! level -32.0, the 1D one as 2D at y = 0), `tex.2d` with `.s32`
//! coordinates (`TLD.LZ`), `tex.a2d`, `tex.level.2d`, `tex.grad.2d`,
//! `tex.grad.a1d` (`TXD`), `tld4.r.2d`; texture sources: parameters (slot
//! / uniform handle) and a handle through local memory (sm_70 general
//! register, sm_75+ handle loop). Every launch texture is resident, so
//! each predicate is true (word 7 of a thread's output collects them:
//! 0x1ff), and the texels must be those the fetch without a predicate
//! reads (the interpreter's).
//!
//! Also: the kernel after the whole `-O3` phase plan; a separate sampler (`[t, s, {x, y}]`, `texmode_independent`)
//! faults in the interpreter and is refused by the lowering.

mod pair_run;
use oracle::commands::sim::run_sass;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, RunLimits};
use oracle::sim::SimInputs;
use pair_run::{both, same_outputs, ARCHS};

const N: usize = 64;
const LAYERS: u32 = 3;
const IN_WORDS: usize = 8;
const OUT_WORDS: usize = 40;

fn vendor_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tex_resident_vendor")
}

fn ptx() -> String {
    std::fs::read_to_string(vendor_dir().join("resident.ptx")).unwrap()
}

const XF: [f32; 16] = [
    -1.0, -0.5, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.6, 3.5, 4.0, 4.5, 5.0, 5.75, 6.5, 1.25,
];
const LOD: [f32; 8] = [0.0, 1.0, -3.0, 0.5, f32::NAN, f32::INFINITY, 100.0, -0.0];

fn inputs() -> Vec<u32> {
    let mut v = Vec::with_capacity(N * IN_WORDS);
    for t in 0..N {
        let x = XF[t % XF.len()];
        let y = XF[(t * 7 + 3) % XF.len()];
        let z = XF[(t * 5 + 1) % XF.len()];
        let lod = LOD[t % LOD.len()];
        let g1 = LOD[(t / 2) % LOD.len()] * 3.0;
        let g2 = XF[(t * 3) % XF.len()] - 2.0;
        let layer = (t as u32) % LAYERS;
        let ix = (t as i32 % 9) - 2;
        v.extend([x, y, z, lod, g1, g2].map(f32::to_bits));
        v.extend([layer, ix as u32]);
    }
    v
}

fn spec() -> LaunchSpec {
    let values: Vec<String> = inputs().iter().map(u32::to_string).collect();
    let text = format!(
        r#"{{
  "kernel": "resident", "grid": [1], "block": [{N}],
  "params": [{{"texture": "t1"}}, {{"texture": "t2"}}, {{"texture": "t3"}}, {{"texture": "t4"}},
             {{"texture": "t5"}}, {{"buffer": "cin"}}, {{"buffer": "out"}}],
  "buffers": {{
    "cin": {{"type": "u32", "len": {cl}, "init": {{"values": [{vals}]}}}},
    "out": {{"type": "u32", "len": {ol}, "init": "zeros"}}
  }},
  "textures": {{
    "t1": {{"type": "f32", "channels": 4, "dims": [5],
            "init": {{"random": {{"seed": 21, "min": -8.0, "max": 8.0}}}},
            "address_mode": ["clamp"], "filter": "linear"}},
    "t2": {{"type": "f32", "channels": 4, "dims": [6, 5],
            "init": {{"random": {{"seed": 22, "min": -2.0, "max": 2.0}}}},
            "address_mode": ["border", "clamp"], "filter": "point", "border_color": [7, -3, 1, 2]}},
    "t3": {{"type": "f32", "channels": 1, "dims": [4, 3, 2],
            "init": {{"random": {{"seed": 24, "min": -1.0, "max": 1.0}}}},
            "address_mode": ["mirror", "wrap", "clamp"], "filter": "linear", "normalized_coords": true}},
    "t4": {{"type": "f32", "channels": 4, "dims": [5], "layers": {LAYERS},
            "init": {{"random": {{"seed": 25, "min": -8.0, "max": 8.0}}}},
            "address_mode": ["clamp"], "filter": "linear"}},
    "t5": {{"type": "f32", "channels": 4, "dims": [4, 3], "layers": {LAYERS},
            "init": {{"random": {{"seed": 26, "min": -8.0, "max": 8.0}}}},
            "address_mode": ["border", "border"], "filter": "point", "border_color": [0.5, -2.0, 9.0, 1.0]}}
  }},
  "outputs": ["out"]
}}"#,
        cl = N * IN_WORDS,
        vals = values.join(", "),
        ol = N * OUT_WORDS,
    );
    LaunchSpec::from_json_str(&text, ".").unwrap()
}

/// Every thread's predicate word is 0x1ff, and the texels are mostly
/// nonzero (random textures), so a fetch that read nothing would show.
fn check_interp(out: &[u64]) {
    for t in 0..N {
        assert_eq!(out[t * OUT_WORDS + 7], 0x1ff, "thread {t}: predicates");
    }
    assert!(out.iter().filter(|&&w| w != 0).count() > N * 37 * 3 / 4);
}

#[test]
fn residency_predicates_match_the_interpreter_on_every_target() {
    let sp = spec();
    let src = ptx();
    // The same kernel with t2's handle through local memory (a register
    // that is no parameter: sm_70's general-register form, the handle loop).
    let reg = src
        .replace(
            ".reg .pred %p<12>;",
            ".reg .pred %p<12>;\n    .local .align 8 .b8 depot[8];",
        )
        .replace(
            "ld.param.u64 %rd2, [t2];",
            "ld.param.u64 %rd19, [t2];\n    st.local.u64 [depot], %rd19;\n    ld.local.u64 %rd2, [depot];",
        );
    assert_ne!(reg, src);
    for arch in ARCHS {
        for (what, s) in [("parameters", &src), ("register handle", &reg)] {
            let (want, got) = both(s, &sp, arch);
            check_interp(&want.outputs.get("out").unwrap().bits);
            same_outputs(&want, &got, &format!("{arch} {what}"));
        }
    }
}

#[test]
fn vendor_listings_match_the_interpreter() {
    let src = ptx();
    let m = ptxc::ptx::parse_checked("resident", &src).unwrap();
    let limits = RunLimits::default();
    let sp = spec();
    let want = ptx_interp::run(&m, &src, &sp, &limits).unwrap();
    check_interp(&want.outputs.get("out").unwrap().bits);
    for arch in ARCHS {
        let sass =
            std::fs::read_to_string(vendor_dir().join(format!("resident.{arch}.O3.sass"))).unwrap();
        let got = run_sass(
            &sp,
            &sass,
            "resident",
            arch,
            None,
            &SimInputs::default(),
            &limits,
        )
        .unwrap_or_else(|e| panic!("{arch}: {e}"));
        same_outputs(&want, &got, &format!("vendor {arch}"));
    }
}

#[test]
fn separate_samplers_fault_and_are_refused() {
    let src = r#".version 7.8
.target sm_80, texmode_independent
.address_size 64
.entry resident(.param .u64 t1, .param .u64 smp, .param .u64 out)
{
    .reg .f32 %f<8>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [t1];
    ld.param.u64 %rd2, [smp];
    ld.param.u64 %rd3, [out];
    mov.f32 %f5, 0f3F000000;
    tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd2, {%f5, %f5}];
    st.global.v4.f32 [%rd3], {%f1, %f2, %f3, %f4};
    ret;
}
"#;
    let text = r#"{"kernel": "resident", "grid": [1], "block": [1],
  "params": [{"texture": "t1"}, {"u64": 7}, {"buffer": "out"}],
  "buffers": {"out": {"type": "u32", "len": 4, "init": "zeros"}},
  "textures": {"t1": {"type": "f32", "channels": 4, "dims": [4, 4],
     "init": {"random": {"seed": 1, "min": -1.0, "max": 1.0}}, "address_mode": ["clamp", "clamp"], "filter": "point"}}}"#;
    let sp = LaunchSpec::from_json_str(text, ".").unwrap();
    let want = pair_run::interp(src, &sp);
    assert!(
        matches!(&want.outcome, oracle::ptx_interp::Outcome::Fault { message, .. } if message.contains("separate samplers")),
        "{:?}",
        want.outcome
    );
    for arch in ARCHS {
        let e = pair_run::lowered(src, &sp, arch).expect_err("refused");
        assert!(e.contains("separate sampler"), "{arch}: {e}");
    }
}

/// The same kernels after the whole `-O3` phase plan (scheduling, register
/// allocation: the fetch's predicate destination is a variable-latency
/// result like its registers), on every target.
#[test]
fn residency_predicates_after_the_full_pipeline() {
    let sp = spec();
    let src = ptx();
    let want = pair_run::interp(&src, &sp);
    check_interp(&want.outputs.get("out").unwrap().bits);
    for arch in ARCHS {
        let got = pair_run::lowered_o3(&src, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        same_outputs(&want, &got, &format!("{arch} -O3"));
    }
}
