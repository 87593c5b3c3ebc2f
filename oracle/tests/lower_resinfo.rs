//! `istypep`, every lowered `txq` field and every lowered `suq` field end
//! to end: the kernels lowered by `ptxc::lower` (compiler/src/lower/
//! resinfo.rs, tex.rs, surf.rs) run in the SASS simulator, whose runner
//! builds the driver's information tables from the launch spec
//! (oracle/src/sim/resinfo.rs), against the PTX interpreter on the same
//! launch, on every target; and ptxas 11.8's own listings of a probe
//! kernel (oracle/tests/resinfo_vendor/, with their `R_CUDA_ABS32_32`
//! relocations of the table row sizes) in the simulator against the
//! interpreter.
//!
//! The textures differ in type, channel count, dimensions, address modes,
//! filter, normalized coordinates and layers; the surfaces in type,
//! channels, dimensions and layers. Handles come from kernel parameters
//! (the slot / table forms) and from a per-lane choice (a register handle:
//! each lane reads another row of the tables). `istypep` is asked of
//! texture and surface handles, a buffer address, a generic shared
//! address, 0 and a small integer.

use oracle::commands::sim::run_sass;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, Outcome, RunLimits, RunResult};
use oracle::sim::SimInputs;
use ptxc::lower::{lower_module, LowerOptions};

const ARCHS: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];

/// Threads: one warp and a half (the per-lane choice covers every texture
/// and surface in several lanes).
const N: usize = 48;

const TXQ: [&str; 13] = [
    "width",
    "height",
    "depth",
    "channel_data_type",
    "channel_order",
    "normalized_coords",
    "filter_mode",
    "addr_mode_0",
    "addr_mode_1",
    "addr_mode_2",
    "array_size",
    "num_mipmap_levels",
    "num_samples",
];
const SUQ: [&str; 6] = [
    "width",
    "height",
    "depth",
    "channel_data_type",
    "channel_order",
    "array_size",
];
/// Words per thread: txq of the chosen texture and of parameter t2, suq
/// of the chosen surface and of parameter s2, the istypep bits.
const WORDS: usize = 2 * TXQ.len() + 2 * SUQ.len() + 1;

fn ptx() -> String {
    let mut body = String::new();
    let mut k = 0;
    let mut out = |body: &mut String, line: String| {
        body.push_str(&format!(
            "    {line}\n    st.global.u32 [%rd30+{}], %r9;\n",
            4 * k
        ));
        k += 1;
    };
    for f in TXQ {
        out(&mut body, format!("txq.{f}.b32 %r9, [%rd20];"));
        out(&mut body, format!("txq.{f}.b32 %r9, [%rd2];"));
    }
    for f in SUQ {
        out(&mut body, format!("suq.{f}.b32 %r9, [%rd21];"));
        out(&mut body, format!("suq.{f}.b32 %r9, [%rd6];"));
    }
    // istypep: bit 3*v + kind for value v (chosen texture, chosen surface,
    // the out buffer's address, a generic shared address, 0, tid + 5) and
    // kind (texref, samplerref, surfref).
    body.push_str("    mov.u32 %r10, 0;\n");
    for (v, reg) in ["%rd20", "%rd21", "%rd8", "%rd22", "%rd23", "%rd24"]
        .iter()
        .enumerate()
    {
        for (kk, kind) in ["texref", "samplerref", "surfref"].iter().enumerate() {
            body.push_str(&format!(
                "    istypep.{kind} %p3, {reg};\n    selp.u32 %r11, {}, 0, %p3;\n    or.b32 %r10, %r10, %r11;\n",
                1u32 << (3 * v + kk)
            ));
        }
    }
    body.push_str(&format!("    st.global.u32 [%rd30+{}], %r10;\n", 4 * k));
    format!(
        r#"
.version 7.8
.target sm_80
.address_size 64
.visible .entry q(.param .u64 t1, .param .u64 t2, .param .u64 t3, .param .u64 t4,
                  .param .u64 s1, .param .u64 s2, .param .u64 s3, .param .u64 out)
{{
    .shared .align 4 .b32 sh[4];
    .reg .u32 %r<20>;
    .reg .u64 %rd<40>;
    .reg .pred %p<4>;
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd1, [t1];
    ld.param.u64 %rd2, [t2];
    ld.param.u64 %rd3, [t3];
    ld.param.u64 %rd4, [t4];
    ld.param.u64 %rd5, [s1];
    ld.param.u64 %rd6, [s2];
    ld.param.u64 %rd7, [s3];
    ld.param.u64 %rd8, [out];
    // the chosen texture: t1..t4 by tid % 4
    and.b32 %r2, %r1, 1;
    setp.ne.u32 %p1, %r2, 0;
    and.b32 %r3, %r1, 2;
    setp.ne.u32 %p2, %r3, 0;
    selp.b64 %rd10, %rd2, %rd1, %p1;
    selp.b64 %rd11, %rd4, %rd3, %p1;
    selp.b64 %rd20, %rd11, %rd10, %p2;
    // the chosen surface: s1..s3 by tid % 3
    rem.u32 %r4, %r1, 3;
    setp.eq.u32 %p1, %r4, 1;
    setp.eq.u32 %p2, %r4, 2;
    selp.b64 %rd12, %rd6, %rd5, %p1;
    selp.b64 %rd21, %rd7, %rd12, %p2;
    // not handles
    mov.u64 %rd13, sh;
    cvta.shared.u64 %rd22, %rd13;
    mov.u64 %rd23, 0;
    add.u32 %r5, %r1, 5;
    cvt.u64.u32 %rd24, %r5;
    cvta.to.global.u64 %rd25, %rd8;
    mul.wide.u32 %rd26, %r1, {bytes};
    add.s64 %rd30, %rd25, %rd26;
{body}    ret;
}}
"#,
        bytes = 4 * WORDS
    )
}

fn spec() -> LaunchSpec {
    let text = format!(
        r#"{{
  "kernel": "q", "grid": [1], "block": [{N}],
  "params": [{{"texture": "t1"}}, {{"texture": "t2"}}, {{"texture": "t3"}}, {{"texture": "t4"}},
             {{"surface": "s1"}}, {{"surface": "s2"}}, {{"surface": "s3"}}, {{"buffer": "out"}}],
  "buffers": {{"out": {{"type": "u32", "len": {ol}, "init": "zeros"}}}},
  "textures": {{
    "t1": {{"type": "f32", "channels": 2, "dims": [5], "layers": 3,
            "address_mode": ["clamp"], "filter": "point"}},
    "t2": {{"type": "s16", "channels": 4, "dims": [4, 3],
            "address_mode": ["border", "clamp"], "filter": "point"}},
    "t3": {{"type": "f16", "channels": 1, "dims": [6, 5, 2],
            "address_mode": ["wrap", "mirror", "border"], "filter": "linear",
            "normalized_coords": true}},
    "t4": {{"type": "u8", "channels": 4, "dims": [7, 2], "layers": 5,
            "address_mode": ["wrap", "mirror"], "filter": "point"}}
  }},
  "surfaces": {{
    "s1": {{"type": "u32", "dims": [8, 4]}},
    "s2": {{"type": "s8", "channels": 4, "dims": [3, 2, 5]}},
    "s3": {{"type": "f32", "channels": 2, "dims": [6], "layers": 4}}
  }}
}}"#,
        ol = N * WORDS,
    );
    LaunchSpec::from_json_str(&text, std::path::Path::new(".")).unwrap()
}

fn same_outputs(want: &RunResult, got: &RunResult, what: &str) {
    assert_eq!(want.outcome, Outcome::Completed, "{what}: interpreter");
    assert_eq!(got.outcome, Outcome::Completed, "{what}: simulator");
    let w = &want.outputs.get("out").unwrap().bits;
    let g = &got.outputs.get("out").unwrap().bits;
    let diffs: Vec<String> = w
        .iter()
        .zip(g)
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(k, (x, y))| {
            format!(
                "thread {} word {}: interpreter {x:#x}, simulator {y:#x}",
                k / WORDS,
                k % WORDS
            )
        })
        .take(8)
        .collect();
    assert!(diffs.is_empty(), "{what}: {diffs:?}");
}

#[test]
fn queries_and_istypep_match_the_interpreter_on_every_target() {
    let src = ptx();
    let sp = spec();
    let limits = RunLimits::default();
    let m = ptxc::ptx::parse_checked("resinfo", &src).unwrap();
    let want = ptx_interp::run(&m, &src, &sp, &limits).unwrap();
    // The interpreter's answers are the PTX ISA's (checked here on their
    // own, so a table that repeats a wrong interpreter answer still fails).
    let out = &want.outputs.get("out").unwrap().bits;
    let at = |t: usize, k: usize| out[t * WORDS + k];
    let txq_chosen = |t: usize, f: &str| at(t, 2 * TXQ.iter().position(|x| *x == f).unwrap());
    let txq_t2 = |f: &str| at(0, 2 * TXQ.iter().position(|x| *x == f).unwrap() + 1);
    let suq_base = 2 * TXQ.len();
    let suq_chosen =
        |t: usize, f: &str| at(t, suq_base + 2 * SUQ.iter().position(|x| *x == f).unwrap());
    let suq_s2 = |f: &str| {
        at(
            0,
            suq_base + 2 * SUQ.iter().position(|x| *x == f).unwrap() + 1,
        )
    };
    // t2 (parameter): s16 x 4 (CL_SIGNED_INT16 0x10D8, CL_RGBA 0x10B5),
    // 4 x 3, border (4) / clamp (3), point (0), unnormalized, no layers.
    let t2: Vec<u64> = TXQ.iter().map(|f| txq_t2(f)).collect();
    assert_eq!(t2, [4, 3, 0, 0x10D8, 0x10B5, 0, 0, 4, 3, 0, 0, 0, 0]);
    // Lane 2 chose t3: f16 (CL_HALF_FLOAT 0x10DD), CL_R, 6 x 5 x 2, wrap,
    // mirror, border, linear, normalized.
    let t3: Vec<u64> = TXQ.iter().map(|f| txq_chosen(2, f)).collect();
    assert_eq!(t3, [6, 5, 2, 0x10DD, 0x10B0, 1, 1, 0, 1, 4, 0, 0, 0]);
    // Lane 3 chose t4: u8 x 4, 7 x 2, 5 layers; wrap and mirror on
    // unnormalized coordinates are clamp (3).
    let t4: Vec<u64> = TXQ.iter().map(|f| txq_chosen(3, f)).collect();
    assert_eq!(t4, [7, 2, 0, 0x10DA, 0x10B5, 0, 0, 3, 3, 0, 5, 0, 0]);
    // Lane 0 chose t1: f32 x 2 (CL_FLOAT 0x10DE, CL_RG 0x10B2), 3 layers.
    assert_eq!(
        [
            txq_chosen(0, "width"),
            txq_chosen(0, "channel_data_type"),
            txq_chosen(0, "channel_order"),
            txq_chosen(0, "array_size")
        ],
        [5, 0x10DE, 0x10B2, 3]
    );
    // s2 (parameter): s8 x 4 (CL_SIGNED_INT8 0x10D7), 3 x 2 x 5.
    let s2: Vec<u64> = SUQ.iter().map(|f| suq_s2(f)).collect();
    assert_eq!(s2, [3, 2, 5, 0x10D7, 0x10B5, 0]);
    // Lane 2 chose s3: f32 x 2, 6 wide, 4 layers; lane 0 s1: u32 8 x 4.
    let s3: Vec<u64> = SUQ.iter().map(|f| suq_chosen(2, f)).collect();
    assert_eq!(s3, [6, 0, 0, 0x10DE, 0x10B2, 4]);
    let s1: Vec<u64> = SUQ.iter().map(|f| suq_chosen(0, f)).collect();
    assert_eq!(s1, [8, 4, 0, 0x10DC, 0x10B0, 0]);
    // istypep: the texture is a texref (bit 0), the surface a surfref (bit
    // 5), nothing else is anything.
    for t in 0..N {
        assert_eq!(at(t, WORDS - 1), 0b100_001, "thread {t} istypep");
    }
    for arch in ARCHS {
        let sm = ptxc::targets::lookup_sm(arch).unwrap();
        let ks = lower_module(&m, sm, &LowerOptions::default())
            .unwrap_or_else(|e| panic!("{arch}: lower: {e}"));
        let k = ks.iter().find(|k| k.name == "q").unwrap();
        let got = oracle::sim::run(&k.function, sm, &sp, &SimInputs::from_lowered(k), &limits)
            .unwrap_or_else(|e| panic!("{arch}: sim setup: {e}"));
        same_outputs(&want, &got, arch);
    }
}

/// ptxas 11.8's listings of resinfo_probe (every table field and istypep
/// on parameter handles) in the simulator, with the listing's relocations
/// of `.nv.unified.texrefDescSize` / `.nv.surfrefDescSize`
/// (NAME.sm_XX.banks.json, from `cuobjdump -elf`), against the interpreter;
/// two launches with different textures and surfaces bound.
#[test]
fn vendor_probe_runs_in_the_simulator() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/resinfo_vendor");
    let src = std::fs::read_to_string(dir.join("resinfo_probe.ptx")).unwrap();
    let m = ptxc::ptx::parse_checked("resinfo_probe", &src).unwrap();
    let launches = [
        r#"{"kernel": "resinfo_probe", "grid": [1], "block": [1],
            "params": [{"texture": "b"}, {"surface": "z"}, {"buffer": "o"}],
            "buffers": {"o": {"type": "u32", "len": 20}},
            "textures": {"a": {"type": "u8", "dims": [3]},
                         "b": {"type": "f32", "channels": 4, "dims": [9, 7], "layers": 6,
                               "address_mode": ["wrap", "border"], "filter": "linear",
                               "normalized_coords": true}},
            "surfaces": {"y": {"type": "u16", "dims": [2]},
                         "z": {"type": "s32", "channels": 2, "dims": [4, 3, 2]}}}"#,
        r#"{"kernel": "resinfo_probe", "grid": [1], "block": [1],
            "params": [{"texture": "a"}, {"surface": "y"}, {"buffer": "o"}],
            "buffers": {"o": {"type": "u32", "len": 20}},
            "textures": {"a": {"type": "s8", "channels": 2, "dims": [3, 4, 5],
                               "address_mode": ["mirror", "clamp", "wrap"]},
                         "b": {"type": "f32", "dims": [9]}},
            "surfaces": {"y": {"type": "u16", "dims": [2], "layers": 7},
                         "z": {"type": "s32", "dims": [4]}}}"#,
    ];
    for (n, json) in launches.iter().enumerate() {
        let spec = LaunchSpec::from_json_str(json, std::path::Path::new(".")).unwrap();
        let want = ptx_interp::run(&m, &src, &spec, &RunLimits::default()).unwrap();
        assert_eq!(want.outcome, Outcome::Completed, "launch {n}");
        let w = &want.outputs.get("o").unwrap().bits;
        // Not vacuous: channel types are OpenCL values, istypep: texref of
        // t (bit 0) and surfref of s (bit 5).
        assert!((0x10D7..=0x10DE).contains(&w[3]), "launch {n}: {w:?}");
        assert_eq!(w[19], 0b100_001, "launch {n}");
        for arch in ARCHS {
            let text =
                std::fs::read_to_string(dir.join(format!("resinfo_probe.{arch}.sass"))).unwrap();
            let inputs =
                SimInputs::from_banks_file(&dir.join(format!("resinfo_probe.{arch}.banks.json")))
                    .unwrap();
            assert!(!inputs.relocs.is_empty(), "{arch}: relocations");
            let got = run_sass(
                &spec,
                &text,
                "resinfo_probe",
                arch,
                None,
                &inputs,
                &RunLimits::default(),
            )
            .unwrap_or_else(|e| panic!("launch {n} on {arch}: {e}"));
            assert_eq!(got.outcome, Outcome::Completed, "launch {n} on {arch}");
            assert_eq!(
                &got.outputs.get("o").unwrap().bits,
                w,
                "vendor resinfo_probe, launch {n} on {arch}"
            );
        }
    }
}

/// The fields with no faithful table content are refused by the lowering,
/// naming the instruction: `suq.memory_layout` everywhere,
/// `txq.force_unnormalized_coords` on sm_90 (where its word is the width's).
#[test]
fn unanswerable_fields_are_refused() {
    for (inst, want, archs) in [
        (
            "txq.force_unnormalized_coords.b32 %r1, [%rd1];",
            "txq.force_unnormalized_coords is not lowered on sm_90",
            &ARCHS[5..],
        ),
        (
            "suq.memory_layout.b32 %r1, [%rd1];",
            "suq.memory_layout is not lowered",
            &ARCHS[..],
        ),
    ] {
        let src = format!(
            ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 h)\n{{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [h];\n{inst}\nret;\n}}\n"
        );
        let m = ptxc::ptx::parse_checked("r", &src).unwrap();
        for &arch in archs {
            let sm = ptxc::targets::lookup_sm(arch).unwrap();
            match lower_module(&m, sm, &LowerOptions::default()) {
                Ok(_) => panic!("{inst} lowered on {arch}"),
                Err(e) => assert!(e.to_string().contains(want), "{arch}: {e}"),
            }
        }
    }
}

/// `txq.force_unnormalized_coords` below sm_90 (compiler/src/lower/
/// resinfo.rs DECISION): ptxas's load of word 0 of the texture's row,
/// which this project's rows for those targets hold (the interpreter's
/// answer, 0: no unified-mode texture forces unnormalized coordinates),
/// beside `txq.width` of the same texture (TXQ there, not the table).
#[test]
fn force_unnormalized_coords_below_sm_90() {
    let src = ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry q(.param .u64 t1, .param .u64 t2, .param .u64 t3, .param .u64 t4, .param .u64 s1, .param .u64 s2, .param .u64 s3, .param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\nld.param.u64 %rd1, [t2];\nld.param.u64 %rd2, [t3];\nld.param.u64 %rd3, [out];\n\
txq.force_unnormalized_coords.b32 %r1, [%rd1];\ntxq.width.b32 %r2, [%rd1];\ntxq.force_unnormalized_coords.b32 %r3, [%rd2];\ntxq.normalized_coords.b32 %r4, [%rd2];\n\
mov.u32 %r5, %tid.x;\nsetp.ne.u32 %p1, %r5, 0;\n@%p1 bra DONE;\nst.global.v4.u32 [%rd3], {%r1, %r2, %r3, %r4};\nDONE:\nret;\n}\n";
    let sp = spec();
    let limits = RunLimits::default();
    let m = ptxc::ptx::parse_checked("fu", src).unwrap();
    let want = ptx_interp::run(&m, src, &sp, &limits).unwrap();
    assert_eq!(want.outcome, Outcome::Completed);
    // t2: 4 wide; t3 normalized; neither forces unnormalized coordinates.
    assert_eq!(&want.outputs.get("out").unwrap().bits[..4], &[0, 4, 0, 1]);
    for arch in &ARCHS[..5] {
        let sm = ptxc::targets::lookup_sm(arch).unwrap();
        let ks = lower_module(&m, sm, &LowerOptions::default())
            .unwrap_or_else(|e| panic!("{arch}: lower: {e}"));
        let k = &ks[0];
        assert!(
            k.function.insts().any(|i| i.op == ptxc::ir::Op::LDG),
            "{arch}: a table load"
        );
        let got = oracle::sim::run(&k.function, sm, &sp, &SimInputs::from_lowered(k), &limits)
            .unwrap_or_else(|e| panic!("{arch}: sim setup: {e}"));
        same_outputs(&want, &got, arch);
    }
}
