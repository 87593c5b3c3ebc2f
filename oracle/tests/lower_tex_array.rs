//! Array textures end to end: `tex.a1d`, `tex.a2d` (`.s32` and `.f32`
//! coordinates, `.level`), `tld4.a2d` lowered by `ptxc::lower`
//! (compiler/src/lower/tex_array.rs) and run in the SASS simulator, against
//! the PTX interpreter on the same launch, on every target; and ptxas's own
//! listings (oracle/tests/tex_array_vendor/) in the simulator against the
//! interpreter.
//!
//! The texture sources covered: a parameter (slot form on sm_70..sm_89, a
//! uniform handle on sm_90), a handle through local memory (sm_70: the
//! general-register form, sm_75+: the handle loop with one handle), and a
//! per-lane choice between two textures (the handle loop with two
//! handles). Coordinates run past both edges of every dimension
//! (clamp, border, and wrap with normalized coordinates), layers cover
//! every layer, and an index past the last layer (the last layer + 1,
//! 0xffffffff = `.s32` -1, and 0x10000, which ptxas's clamp makes 0xffff)
//! must fault in both runners.

mod pair_run;
use oracle::commands::sim::run_sass;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, Outcome, RunLimits};
use oracle::sim::SimInputs;
use pair_run::{both, same_outputs, ARCHS};

/// Threads: two warps.
const N: usize = 64;
/// Layers of every texture.
const LAYERS: u32 = 3;
/// Words of output per thread.
const OUT_WORDS: usize = 28;

const PTX: &str = r#"
.version 7.8
.target sm_80
.address_size 64
.visible .entry t(.param .u64 t1, .param .u64 t2, .param .u64 t3, .param .u64 t4,
                  .param .u64 cin, .param .u64 out)
{
    .local .align 8 .b8 depot[8];
    .reg .u32 %r<40>;
    .reg .u64 %rd<20>;
    .reg .f32 %f<40>;
    .reg .pred %p<4>;
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd10, [cin];
    mul.wide.u32 %rd11, %r1, 32;
    add.s64 %rd12, %rd10, %rd11;
    // index, x and y as integers, x as f32 bits
    ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd12];
    // y as f32 bits, level as f32 bits, texture choice, index for t3/t4
    ld.global.v4.u32 {%r6, %r7, %r8, %r9}, [%rd12+16];
    mov.b32 %f1, %r5;
    mov.b32 %f2, %r6;
    mov.b32 %f3, %r7;
    ld.param.u64 %rd1, [t1];
    ld.param.u64 %rd2, [t2];
    ld.param.u64 %rd3, [t3];
    ld.param.u64 %rd4, [t4];
    // t2 through local memory: a handle in a register
    st.local.u64 [depot], %rd2;
    ld.local.u64 %rd5, [depot];
    // t3 or t4 per lane
    setp.ne.u32 %p1, %r8, 0;
    selp.b64 %rd6, %rd3, %rd4, %p1;
    tex.a1d.v4.f32.s32 {%f10, %f11, %f12, %f13}, [%rd1, {%r2, %r3}];
    tex.a1d.v4.f32.f32 {%f14, %f15, _, _}, [%rd1, {%r2, %f1}];
    tex.a2d.v4.s32.s32 {%r10, %r11, %r12, %r13}, [%rd5, {%r2, %r3, %r4, %r4}];
    tex.a2d.v4.u32.f32 {%r14, %r15, %r16, %r17}, [%rd5, {%r2, %f1, %f2, %f2}];
    tld4.r.a2d.v4.f32.f32 {%f16, %f17, %f18, %f19}, [%rd6, {%r9, %f1, %f2, %f2}];
    tex.level.a2d.v4.f32.f32 {%f20, %f21, %f22, %f23}, [%rd3, {%r9, %f1, %f2, %f2}], %f3;
    tex.a2d.v4.f32.f32 {%f24, %f25, %f26, %f27}, [%rd6, {%r9, %f1, %f2, %f2}];
    tld4.a.a2d.v4.f32.f32 {%f28, %f29, %f30, %f31}, [%rd3, {%r9, %f1, %f2, %f2}];
    ld.param.u64 %rd13, [out];
    mul.wide.u32 %rd14, %r1, 112;
    add.s64 %rd15, %rd13, %rd14;
    st.global.v4.f32 [%rd15], {%f10, %f11, %f12, %f13};
    st.global.v2.f32 [%rd15+16], {%f14, %f15};
    st.global.v2.u32 [%rd15+24], {%r10, %r11};
    st.global.v4.u32 [%rd15+32], {%r12, %r13, %r14, %r15};
    st.global.v2.u32 [%rd15+48], {%r16, %r17};
    st.global.v2.f32 [%rd15+56], {%f16, %f17};
    st.global.v4.f32 [%rd15+64], {%f18, %f19, %f20, %f21};
    st.global.v4.f32 [%rd15+80], {%f22, %f23, %f24, %f25};
    st.global.v4.f32 [%rd15+96], {%f26, %f27, %f28, %f31};
    ret;
}
"#;

/// f32 coordinates around the edges of sizes 4..6 (unnormalized) and of
/// [0, 1] (normalized), texel centres and between them.
const XF: [f32; 16] = [
    -1.0, -0.5, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.6, 3.5, 4.0, 4.5, 5.0, 5.75, 6.5, 1.25,
];

/// The per-thread inputs: `bad` puts `index` at lane `bad.0` (both index
/// words).
fn inputs(bad: Option<(usize, u32)>) -> Vec<u32> {
    let mut v = Vec::with_capacity(N * 8);
    for t in 0..N {
        let mut layer = (t as u32) % LAYERS;
        let mut layer2 = (t as u32 / 3) % LAYERS;
        if let Some((lane, ix)) = bad {
            if lane == t {
                layer = ix;
                layer2 = ix;
            }
        }
        // x from -2 to 6 (every edge of widths 4 and 5), y from -2 to 4
        let xi = (t as i32 * 5) % 9 - 2;
        let yi = (t as i32 * 3) % 7 - 2;
        let xf = XF[t % XF.len()];
        let yf = XF[(t * 7 + 3) % XF.len()];
        let lod = [0.0f32, 1.0, -3.0, 0.5][t % 4];
        let sel = u32::from(t % 3 != 0);
        v.extend([
            layer,
            xi as u32,
            yi as u32,
            xf.to_bits(),
            yf.to_bits(),
            lod.to_bits(),
            sel,
            layer2,
        ]);
    }
    v
}

fn spec(cin: &[u32]) -> LaunchSpec {
    let values: Vec<String> = cin.iter().map(u32::to_string).collect();
    let text = format!(
        r#"{{
  "kernel": "t", "grid": [1], "block": [{N}],
  "params": [{{"texture": "t1"}}, {{"texture": "t2"}}, {{"texture": "t3"}}, {{"texture": "t4"}},
             {{"buffer": "cin"}}, {{"buffer": "out"}}],
  "buffers": {{
    "cin": {{"type": "u32", "len": {cl}, "init": {{"values": [{vals}]}}}},
    "out": {{"type": "u32", "len": {ol}, "init": "zeros"}}
  }},
  "textures": {{
    "t1": {{"type": "f32", "channels": 2, "dims": [5], "layers": {LAYERS},
            "init": {{"random": {{"seed": 11, "min": -8.0, "max": 8.0}}}},
            "address_mode": ["clamp"], "filter": "point"}},
    "t2": {{"type": "s32", "channels": 4, "dims": [4, 3], "layers": {LAYERS},
            "init": {{"random": {{"seed": 12}}}},
            "address_mode": ["border", "clamp"], "filter": "point",
            "border_color": [7, -3, 0, 1]}},
    "t3": {{"type": "f32", "channels": 1, "dims": [6, 5], "layers": {LAYERS},
            "init": {{"random": {{"seed": 13, "min": -1.0, "max": 1.0}}}},
            "address_mode": ["wrap", "mirror"], "filter": "linear", "normalized_coords": true}},
    "t4": {{"type": "f32", "channels": 4, "dims": [6, 5], "layers": {LAYERS},
            "init": {{"random": {{"seed": 14, "min": -4.0, "max": 4.0}}}},
            "address_mode": ["border", "border"], "filter": "point",
            "border_color": [0.5, -2.0, 9.0, 1.0]}}
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
fn array_fetches_match_the_interpreter_on_every_target() {
    let sp = spec(&inputs(None));
    for arch in ARCHS {
        let (want, got) = both(PTX, &sp, arch);
        same_outputs(&want, &got, arch);
        // The run is not vacuous: fetches of random textures are mostly
        // nonzero, and the border colour of t2 (7) shows up.
        let out = &want.outputs.get("out").unwrap().bits;
        assert!(out.iter().filter(|&&w| w != 0).count() > N * OUT_WORDS / 2);
        assert!(
            (0..N).any(|t| out[t * OUT_WORDS + 6] == 7),
            "{arch}: no border texel"
        );
    }
}

#[test]
fn an_index_past_the_last_layer_faults_in_both_runners() {
    for (lane, ix) in [(5, LAYERS), (37, u32::MAX), (20, 0x1_0000)] {
        let sp = spec(&inputs(Some((lane, ix))));
        for arch in ARCHS {
            let (want, got) = both(PTX, &sp, arch);
            for (who, r) in [("interpreter", &want), ("simulator", &got)] {
                match &r.outcome {
                    Outcome::Fault { message, .. } => assert!(
                        message.contains("array index") && message.contains("outside texture"),
                        "{arch} index {ix:#x}: {who}: {message}"
                    ),
                    o => panic!("{arch} index {ix:#x}: {who} should fault, got {o:?}"),
                }
            }
        }
    }
}

#[test]
fn a_plain_fetch_of_a_layered_texture_faults_in_both_runners() {
    let src = PTX.replace(
        "tex.a1d.v4.f32.s32 {%f10, %f11, %f12, %f13}, [%rd1, {%r2, %r3}];",
        "tex.1d.v4.f32.s32 {%f10, %f11, %f12, %f13}, [%rd1, {%r3}];",
    );
    assert_ne!(src, PTX);
    let sp = spec(&inputs(None));
    for arch in ["sm_70", "sm_90"] {
        let (want, got) = both(&src, &sp, arch);
        for (who, r) in [("interpreter", &want), ("simulator", &got)] {
            match &r.outcome {
                Outcome::Fault { message, .. } => {
                    assert!(message.contains("is layered"), "{arch}: {who}: {message}")
                }
                o => panic!("{arch}: {who} should fault, got {o:?}"),
            }
        }
    }
}

// ---- ptxas's listings --------------------------------------------------------

fn vendor_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tex_array_vendor")
}

/// One thread runs kernel `kernel` of tex_array.ptx with the scalar
/// parameters `scalars` (JSON, after the texture and the output) on
/// texture `tex`.
fn vendor_spec(kernel: &str, scalars: &str, tex: &str) -> LaunchSpec {
    let text = format!(
        r#"{{
  "kernel": "{kernel}", "grid": [1], "block": [1],
  "params": [{{"texture": "t"}}, {{"buffer": "out"}}, {scalars}],
  "buffers": {{"out": {{"type": "u32", "len": 4, "init": "zeros"}}}},
  "textures": {{"t": {tex}}},
  "outputs": ["out"]
}}"#
    );
    LaunchSpec::from_json_str(&text, ".").unwrap()
}

#[test]
fn vendor_listings_match_the_interpreter() {
    let src = std::fs::read_to_string(vendor_dir().join("tex_array.ptx")).unwrap();
    let m = ptxc::ptx::parse_checked("tex_array", &src).unwrap();
    let limits = RunLimits::default();
    let image = |ty: &str, dims: &str, modes: &str| {
        format!(
            r#"{{"type": "{ty}", "channels": 4, "dims": {dims}, "layers": {LAYERS}, "init": {{"random": {{"seed": 3, "min": -2.0, "max": 2.0}}}}, "address_mode": {modes}, "border_color": [1, 2, 3, 4]}}"#
        )
    };
    let f1 = image("f32", "[5]", r#"["clamp"]"#);
    let s1 = image("s32", "[5]", r#"["border"]"#);
    let f2 = image("f32", "[5, 4]", r#"["border", "clamp"]"#);
    let u2 = image("u32", "[5, 4]", r#"["clamp", "border"]"#);
    let cases: [(&str, &str, String); 12] = [
        ("a1d_f", &f1, r#"{"u32": 2}, {"f32": 2.5}"#.into()),
        ("a1d_f", &f1, r#"{"u32": 0}, {"f32": -1.0}"#.into()),
        ("a1d_s", &s1, r#"{"u32": 1}, {"u32": 4}"#.into()),
        ("a1d_s", &s1, r#"{"u32": 2}, {"u32": 7}"#.into()),
        (
            "a2d_f",
            &f2,
            r#"{"u32": 1}, {"f32": 2.5}, {"f32": 1.5}"#.into(),
        ),
        (
            "a2d_f",
            &f2,
            r#"{"u32": 2}, {"f32": 6.0}, {"f32": 3.5}"#.into(),
        ),
        ("a2d_s", &u2, r#"{"u32": 0}, {"u32": 3}, {"u32": 2}"#.into()),
        (
            "a2d_s",
            &u2,
            r#"{"u32": 2}, {"u32": 4294967295}, {"u32": 5}"#.into(),
        ),
        (
            "t4_a2d",
            &f2,
            r#"{"u32": 1}, {"f32": 2.5}, {"f32": 2.5}"#.into(),
        ),
        (
            "t4_a2d",
            &f2,
            r#"{"u32": 0}, {"f32": 0.5}, {"f32": 3.9}"#.into(),
        ),
        (
            "t4_a2d",
            &f2,
            r#"{"u32": 2}, {"f32": 4.75}, {"f32": -0.25}"#.into(),
        ),
        (
            "a2d_f",
            &f2,
            r#"{"u32": 0}, {"f32": -0.5}, {"f32": 4.0}"#.into(),
        ),
    ];
    let (mut ran, mut nonzero) = (0, 0);
    for arch in ARCHS {
        let sass = std::fs::read_to_string(vendor_dir().join(format!("tex_array.{arch}.O3.sass")))
            .unwrap();
        let sim = |sp: &LaunchSpec, kernel: &str| {
            run_sass(
                sp,
                &sass,
                "tex_array",
                arch,
                Some(kernel),
                &SimInputs::default(),
                &limits,
            )
            .unwrap_or_else(|e| panic!("{arch} {kernel}: {e}"))
        };
        for (kernel, tex, scalars) in &cases {
            let sp = vendor_spec(kernel, scalars, tex);
            let want = ptx_interp::run(&m, &src, &sp, &limits).unwrap();
            let got = sim(&sp, kernel);
            same_outputs(&want, &got, &format!("vendor {arch} {kernel} {scalars}"));
            if want
                .outputs
                .get("out")
                .unwrap()
                .bits
                .iter()
                .any(|&w| w != 0)
            {
                nonzero += 1;
            }
            ran += 1;
        }
        // Past the last layer (and 2^32 - 1, clamped to 0xffff by the
        // listing's SEL): the simulator faults as the interpreter does.
        for ix in [LAYERS, u32::MAX] {
            let sp = vendor_spec(
                "a2d_f",
                &format!(r#"{{"u32": {ix}}}, {{"f32": 1.0}}, {{"f32": 1.0}}"#),
                &f2,
            );
            let want = ptx_interp::run(&m, &src, &sp, &limits).unwrap();
            for (who, r) in [("interpreter", &want), ("simulator", &sim(&sp, "a2d_f"))] {
                assert!(
                    matches!(&r.outcome, Outcome::Fault { message, .. } if message.contains("outside texture")),
                    "{arch} {who}: {:?}",
                    r.outcome
                );
            }
        }
    }
    assert_eq!(ran, 72);
    // Every case reads something (the border cases the border colour).
    assert_eq!(nonzero, 72);
}
