//! `tex.level` and `tex.grad` end to end: lowered by `ptxc::lower`
//! (compiler/src/lower/tex_lod.rs: `TEX.LL` with the level, `TXD` with the
//! gradients) and run in the SASS simulator against the PTX interpreter
//! on every target; and ptxas's own listings
//! (oracle/tests/tex_lod_vendor/) in the simulator against the
//! interpreter.
//!
//! Both runners pick the mip level with one rule
//! (`semantics::texture::mip_level`: a launch spec texture has one level),
//! so what these runs check is that the coordinates, the array index and
//! the texture reach the fetch through ptxas's register groups while the
//! level and the gradients take their own registers: a lowering that put
//! a level or a gradient where a coordinate belongs reads another texel.
//! Geometries: .1d (fetched as 2D at y = 0), .2d, .3d, .a1d, .a2d; texture
//! sources: a parameter (slot / uniform handle), a handle through local
//! memory (sm_70 general register, sm_75+ handle loop), and a per-lane
//! choice of two textures (the handle loop with two handles). Also
//! `tex.grad.3d` (TEX.LL at -32.0, a DECISION in tex_lod.rs).

mod pair_run;
use oracle::commands::sim::run_sass;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, RunLimits};
use oracle::sim::SimInputs;
use pair_run::{both, same_outputs, ARCHS};

/// Threads: two warps.
const N: usize = 64;
const LAYERS: u32 = 3;
/// Words of input and of output per thread.
const IN_WORDS: usize = 8;
const OUT_WORDS: usize = 32;

const PTX: &str = r#"
.version 7.8
.target sm_80
.address_size 64
.visible .entry t(.param .u64 t1, .param .u64 t2, .param .u64 t2b, .param .u64 t3,
                  .param .u64 t4, .param .u64 t5, .param .u64 cin, .param .u64 out)
{
    .local .align 8 .b8 depot[16];
    .reg .u32 %r<40>;
    .reg .u64 %rd<20>;
    .reg .f32 %f<80>;
    .reg .pred %p<4>;
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd10, [cin];
    mul.wide.u32 %rd11, %r1, 32;
    add.s64 %rd12, %rd10, %rd11;
    // x, y, z, level
    ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd12];
    // two gradients, the array index, the texture choice
    ld.global.v2.f32 {%f5, %f6}, [%rd12+16];
    ld.global.v2.u32 {%r2, %r3}, [%rd12+24];
    ld.param.u64 %rd1, [t1];
    ld.param.u64 %rd2, [t2];
    ld.param.u64 %rd3, [t2b];
    ld.param.u64 %rd4, [t3];
    ld.param.u64 %rd5, [t4];
    ld.param.u64 %rd6, [t5];
    // t2 and t5 through local memory: handles in registers
    st.local.u64 [depot], %rd2;
    ld.local.u64 %rd7, [depot];
    st.local.u64 [depot+8], %rd6;
    ld.local.u64 %rd8, [depot+8];
    // t2 or t2b per lane
    setp.ne.u32 %p1, %r3, 0;
    selp.b64 %rd9, %rd2, %rd3, %p1;
    tex.level.1d.v4.f32.f32 {%f10, %f11, %f12, %f13}, [%rd1, {%f1}], %f4;
    tex.grad.1d.v4.f32.f32 {%f14, %f15, %f16, %f17}, [%rd1, {%f1}], {%f5}, {%f6};
    tex.level.2d.v4.f32.f32 {%f18, %f19, _, _}, [%rd7, {%f1, %f2}], %f4;
    tex.grad.2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd9, {%f1, %f2}], {%f5, %f6}, {%f6, %f4};
    tex.level.3d.v4.f32.f32 {%f24, _, _, _}, [%rd4, {%f1, %f2, %f3, %f3}], %f4;
    tex.grad.a1d.v4.f32.f32 {%f25, %f26, %f27, %f28}, [%rd5, {%r2, %f1}], {%f5}, {%f6};
    tex.grad.a2d.v4.f32.f32 {%f29, %f30, %f31, %f32}, [%rd6, {%r2, %f1, %f2, %f2}], {%f5, %f6}, {%f4, %f5};
    tex.grad.a2d.v4.f32.f32 {%f33, %f34, %f35, %f36}, [%rd8, {%r2, %f2, %f1, %f1}], {%f6, %f4}, {%f5, %f5};
    ld.param.u64 %rd13, [out];
    mul.wide.u32 %rd14, %r1, 128;
    add.s64 %rd15, %rd13, %rd14;
    st.global.v4.f32 [%rd15], {%f10, %f11, %f12, %f13};
    st.global.v4.f32 [%rd15+16], {%f14, %f15, %f16, %f17};
    st.global.v2.f32 [%rd15+32], {%f18, %f19};
    st.global.v4.f32 [%rd15+48], {%f20, %f21, %f22, %f23};
    st.global.f32 [%rd15+64], %f24;
    st.global.v4.f32 [%rd15+80], {%f25, %f26, %f27, %f28};
    st.global.v4.f32 [%rd15+96], {%f29, %f30, %f31, %f32};
    st.global.v4.f32 [%rd15+112], {%f33, %f34, %f35, %f36};
    ret;
}
"#;

/// Coordinates around the edges of sizes 3..6 (unnormalized) and of
/// [0, 1] (normalized), texel centres and between them.
const XF: [f32; 16] = [
    -1.0, -0.5, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.6, 3.5, 4.0, 4.5, 5.0, 5.75, 6.5, 1.25,
];

/// Levels and gradients: ordinary, negative, huge, NaN, infinite.
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
        let sel = u32::from(t % 3 != 0);
        v.extend([x, y, z, lod, g1, g2].map(f32::to_bits));
        v.extend([layer, sel]);
    }
    v
}

fn spec(cin: &[u32]) -> LaunchSpec {
    let values: Vec<String> = cin.iter().map(u32::to_string).collect();
    let text = format!(
        r#"{{
  "kernel": "t", "grid": [1], "block": [{N}],
  "params": [{{"texture": "t1"}}, {{"texture": "t2"}}, {{"texture": "t2b"}}, {{"texture": "t3"}},
             {{"texture": "t4"}}, {{"texture": "t5"}}, {{"buffer": "cin"}}, {{"buffer": "out"}}],
  "buffers": {{
    "cin": {{"type": "u32", "len": {cl}, "init": {{"values": [{vals}]}}}},
    "out": {{"type": "u32", "len": {ol}, "init": "zeros"}}
  }},
  "textures": {{
    "t1": {{"type": "f32", "channels": 4, "dims": [5],
            "init": {{"random": {{"seed": 21, "min": -8.0, "max": 8.0}}}},
            "address_mode": ["border"], "filter": "linear", "border_color": [1, 2, 3, 4]}},
    "t2": {{"type": "f32", "channels": 2, "dims": [6, 5],
            "init": {{"random": {{"seed": 22, "min": -2.0, "max": 2.0}}}},
            "address_mode": ["border", "clamp"], "filter": "point", "border_color": [7, -3, 0, 0]}},
    "t2b": {{"type": "f32", "channels": 4, "dims": [3, 4],
            "init": {{"random": {{"seed": 23, "min": -4.0, "max": 4.0}}}},
            "address_mode": ["wrap", "mirror"], "filter": "linear", "normalized_coords": true}},
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
        cl = cin.len(),
        vals = values.join(", "),
        ol = N * OUT_WORDS,
    );
    LaunchSpec::from_json_str(&text, ".").unwrap()
}

#[test]
fn level_and_gradient_fetches_match_the_interpreter_on_every_target() {
    let sp = spec(&inputs());
    for arch in ARCHS {
        let (want, got) = both(PTX, &sp, arch);
        same_outputs(&want, &got, arch);
        // Not vacuous: random textures give mostly nonzero texels, t1's
        // border colour (1.0 in channel r) and t5's (9.0 in channel b)
        // show up.
        let out = &want.outputs.get("out").unwrap().bits;
        // 27 words written per thread (of 32)
        assert!(out.iter().filter(|&&w| w != 0).count() > N * 27 * 3 / 4);
        assert!((0..N).any(|t| out[t * OUT_WORDS] == u64::from(1.0f32.to_bits())));
        assert!((0..N).any(|t| out[t * OUT_WORDS + 26] == u64::from(9.0f32.to_bits())));
    }
}

/// `tex.grad.3d` (compiler/src/lower/tex_lod.rs DECISION: `TEX.LL` at
/// level -32.0; the launch textures have one level, which both runners
/// read whatever the gradients) on the 3D texture t3, from its parameter
/// and through local memory (a register handle), with gradients that are
/// ordinary, huge, infinite and NaN: the texels equal the interpreter's.
#[test]
fn grad_3d_matches_the_interpreter_on_every_target() {
    let start = PTX.find("    tex.level.1d").unwrap();
    let end = PTX.find("    ld.param.u64 %rd13, [out];").unwrap();
    let body = "    st.local.u64 [depot], %rd4;\n    ld.local.u64 %rd16, [depot];\n\
    tex.grad.3d.v4.f32.f32 {%f10, %f11, %f12, %f13}, [%rd4, {%f1, %f2, %f3, %f3}], {%f5, %f6, %f4, %f4}, {%f6, %f4, %f5, %f5};\n\
    tex.grad.3d.v4.f32.f32 {%f14, %f15, %f16, %f17}, [%rd16, {%f3, %f1, %f2, %f2}], {%f4, %f4, %f6, %f6}, {%f5, %f5, %f5, %f5};\n\
    mov.f32 %f18, 0f00000000; mov.f32 %f19, 0f00000000; mov.f32 %f20, 0f00000000; mov.f32 %f21, 0f00000000;\n\
    mov.f32 %f22, 0f00000000; mov.f32 %f23, 0f00000000; mov.f32 %f24, 0f00000000;\n\
    mov.f32 %f25, 0f00000000; mov.f32 %f26, 0f00000000; mov.f32 %f27, 0f00000000; mov.f32 %f28, 0f00000000;\n\
    mov.f32 %f29, 0f00000000; mov.f32 %f30, 0f00000000; mov.f32 %f31, 0f00000000; mov.f32 %f32, 0f00000000;\n\
    mov.f32 %f33, 0f00000000; mov.f32 %f34, 0f00000000; mov.f32 %f35, 0f00000000; mov.f32 %f36, 0f00000000;\n";
    let src = format!("{}{body}{}", &PTX[..start], &PTX[end..]);
    let sp = spec(&inputs());
    for arch in ARCHS {
        let (want, got) = both(&src, &sp, arch);
        same_outputs(&want, &got, arch);
        let out = &want.outputs.get("out").unwrap().bits;
        // t3 is 1 channel: words 0 and 4 of each thread hold its texels,
        // mostly nonzero (random contents, linear filtering).
        let texels = (0..N).flat_map(|t| [out[t * OUT_WORDS], out[t * OUT_WORDS + 4]]);
        assert!(texels.filter(|&w| w != 0).count() > N * 3 / 2, "{arch}");
    }
}

// ---- ptxas's listings --------------------------------------------------------

fn vendor_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tex_lod_vendor")
}

fn vendor_spec(tex: &str, scalars: &str) -> LaunchSpec {
    let text = format!(
        r#"{{
  "kernel": "lod", "grid": [1], "block": [1],
  "params": [{{"texture": "t"}}, {{"texture": "a"}}, {{"buffer": "out"}}, {scalars}],
  "buffers": {{"out": {{"type": "u32", "len": 32, "init": "zeros"}}}},
  "textures": {{
    "t": {tex},
    "a": {{"type": "f32", "channels": 4, "dims": [5, 4], "layers": {LAYERS},
           "init": {{"random": {{"seed": 5, "min": -2.0, "max": 2.0}}}},
           "address_mode": ["border", "clamp"], "filter": "linear", "border_color": [1, 2, 3, 4]}}
  }},
  "outputs": ["out"]
}}"#
    );
    LaunchSpec::from_json_str(&text, ".").unwrap()
}

#[test]
fn vendor_listings_match_the_interpreter() {
    let src = std::fs::read_to_string(vendor_dir().join("lod.ptx")).unwrap();
    let m = ptxc::ptx::parse_checked("lod", &src).unwrap();
    let limits = RunLimits::default();
    // A 3D texture serves the .1d/.2d/.3d fetches: point sampling with
    // border/wrap modes, and linear filtering with clamp (where a 1D
    // fetch as 2D at y = 0 reads what the 1D fetch does, tex_lod.rs).
    let point = r#"{"type": "f32", "channels": 4, "dims": [5, 4, 3], "init": {"random": {"seed": 3, "min": -2.0, "max": 2.0}}, "address_mode": ["border", "clamp", "border"], "filter": "point", "border_color": [5, 6, 7, 8]}"#;
    let linear = r#"{"type": "f32", "channels": 4, "dims": [5, 4, 3], "init": {"random": {"seed": 4, "min": -2.0, "max": 2.0}}, "address_mode": ["clamp", "clamp", "clamp"], "filter": "linear"}"#;
    let scalars = [
        (2.5f32, 1.5f32, 0.5f32, 0.0f32, 1u32),
        (-0.5, 3.75, 2.25, 3.0, 0),
        (4.9, -1.0, 1.0, f32::NAN, 2),
        (0.25, 2.0, 5.0, -2.0, 1),
    ];
    let (mut ran, mut nonzero) = (0, 0);
    for arch in ARCHS {
        let sass =
            std::fs::read_to_string(vendor_dir().join(format!("lod.{arch}.O3.sass"))).unwrap();
        for tex in [point, linear] {
            for (x, y, z, l, ix) in scalars {
                let sc = format!(
                    r#"{{"f32": {x:?}}}, {{"f32": {y:?}}}, {{"f32": {z:?}}}, {{"type": "f32", "bits": "{:#x}"}}, {{"u32": {ix}}}"#,
                    l.to_bits()
                );
                let sp = vendor_spec(tex, &sc);
                let want = ptx_interp::run(&m, &src, &sp, &limits).unwrap();
                let got = run_sass(
                    &sp,
                    &sass,
                    "lod",
                    arch,
                    Some("lod"),
                    &SimInputs::default(),
                    &limits,
                )
                .unwrap_or_else(|e| panic!("{arch}: {e}"));
                same_outputs(&want, &got, &format!("vendor {arch} {sc}"));
                let out = &want.outputs.get("out").unwrap().bits;
                // words 20..23 (offset 0x50) are not written
                if out
                    .iter()
                    .enumerate()
                    .all(|(k, &w)| (20..24).contains(&k) || w != 0)
                {
                    nonzero += 1;
                }
                ran += 1;
            }
        }
    }
    assert_eq!(ran, 48);
    assert_eq!(nonzero, 48);
}
