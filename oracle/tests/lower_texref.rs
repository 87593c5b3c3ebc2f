//! Module-level `.texref` / `.surfref` references end to end: the lowering
//! (compiler/src/lower/res_ref.rs: one bank-0 word per reference after the
//! parameters, named in the parameter-handle forms) in the SASS simulator,
//! whose run writes each word from the launch's texture / surface of the
//! same name (oracle/src/sim/cbank.rs `RefWord`), against the PTX
//! interpreter, on sm_70, sm_75, sm_80, sm_86, sm_89 and sm_90.
//!
//! Domains: three texrefs (1d `.s32`, 2d `.f32` linear normalized, 3d
//! `.f32` border) and three surfrefs (2d read, 1d written, 1d reduced),
//! declared in an order unlike their first uses; `tex`, `tld4`, `txq`,
//! `suld.b`, `sust.b`, `sured.b`, `suq`; `mov.u64` of a texref used as a
//! register handle; a texref and a surfref the launch does not bind (both
//! runners fault). Then ptxas 11.8's own listings (oracle/tests/
//! texref_vendor/, with the relocation words of `cuobjdump -elf` given to
//! the simulator as the banks file's `refs`, which
//! scripts/build-kernels.sh writes) against the interpreter.

mod pair_run;
use oracle::commands::sim::run_sass;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, RunLimits};
use oracle::sim::SimInputs;
use pair_run::{agree, case, finish, interp, lowered, ARCHS};

const N: usize = 32;
/// Output words per thread.
const OUT: usize = 24;

/// The kernel. Thread t: `tA` at x = t - 3 (clamped), `tB` at
/// ((t+0.3)/9, (t mod 5 + 0.5)/5) (normalized, linear), `tC` at texel
/// (t mod 5, t/5 mod 4, t mod 3) and through `mov.u64` of `tC`, tld4 on
/// `tB`, the dimensions; `sA` read at (4*(t mod 8), t/8), `sB` written at
/// x = 4t, `sC` reduced (add) at x = 4*(t mod 4).
const PTX: &str = r#".version 7.8
.target sm_80
.address_size 64
.global .surfref sC;
.global .texref tC;
.global .texref unused;
.global .surfref sB;
.global .texref tB;
.global .samplerref smp;
.global .surfref sA;
.global .texref tA;
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .u64 %rd<12>; .reg .u32 %r<60>; .reg .f32 %f<40>; .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 96;
  add.u64 %rd3, %rd1, %rd2;
  and.b32 %r40, %r1, 7; shl.b32 %r40, %r40, 2; shr.u32 %r41, %r1, 3;
  suld.b.2d.b32.clamp %r2, [sA, {%r40, %r41}];
  st.global.u32 [%rd3], %r2;
  sub.s32 %r3, %r1, 3;
  tex.1d.v4.s32.s32 {%r4, %r5, %r6, %r7}, [tA, {%r3}];
  st.global.v4.u32 [%rd3+16], {%r4, %r5, %r6, %r7};
  cvt.rn.f32.u32 %f1, %r1; add.f32 %f1, %f1, 0f3E99999A; div.rn.f32 %f1, %f1, 0f41100000;
  rem.u32 %r8, %r1, 5; cvt.rn.f32.u32 %f2, %r8; add.f32 %f2, %f2, 0f3F000000; div.rn.f32 %f2, %f2, 0f40A00000;
  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [tB, {%f1, %f2}];
  st.global.v4.f32 [%rd3+32], {%f3, %f4, %f5, %f6};
  tld4.r.2d.v4.f32.f32 {%f7, %f8, %f9, %f10}, [tB, {%f1, %f2}];
  st.global.v4.f32 [%rd3+48], {%f7, %f8, %f9, %f10};
  shr.u32 %r9, %r1, 2; rem.u32 %r9, %r9, 4; rem.u32 %r10, %r1, 3;
  cvt.rn.f32.u32 %f11, %r8; add.f32 %f11, %f11, 0f3F000000;
  cvt.rn.f32.u32 %f12, %r9; add.f32 %f12, %f12, 0f3F000000;
  cvt.rn.f32.u32 %f13, %r10; add.f32 %f13, %f13, 0f3F000000;
  tex.3d.v4.f32.f32 {%f14, %f15, _, _}, [tC, {%f11, %f12, %f13, %f13}];
  mov.u64 %rd4, tC;
  tex.3d.v4.f32.f32 {%f16, %f17, _, _}, [%rd4, {%f12, %f11, %f13, %f13}];
  st.global.v4.f32 [%rd3+64], {%f14, %f15, %f16, %f17};
  txq.width.b32 %r11, [tB];
  txq.height.b32 %r12, [tB];
  txq.depth.b32 %r13, [tC];
  suq.width.b32 %r14, [sA];
  suq.height.b32 %r15, [sA];
  add.u32 %r16, %r11, %r12; mad.lo.u32 %r16, %r16, 10, %r13; mad.lo.u32 %r16, %r16, 10, %r14; mad.lo.u32 %r16, %r16, 10, %r15;
  st.global.u32 [%rd3+80], %r16;
  shl.b32 %r17, %r1, 2;
  mul.lo.u32 %r18, %r1, 2654435761;
  sust.b.1d.b32.zero [sB, {%r17}], %r18;
  and.b32 %r19, %r1, 3; shl.b32 %r19, %r19, 2;
  sured.b.add.1d.u32.clamp [sC, {%r19}], %r1;
  ret;
}
"#;

fn spec() -> LaunchSpec {
    let text = format!(
        r#"{{
  "kernel": "k", "grid": [1], "block": [{N}],
  "params": [{{"buffer": "out"}}, {{"u32": {N}}}],
  "buffers": {{"out": {{"type": "u32", "len": {ol}}}}},
  "textures": {{
    "tA": {{"type": "s32", "channels": 4, "dims": [8], "init": {{"random": {{"seed": 21}}}},
            "address_mode": ["clamp"], "filter": "point"}},
    "tB": {{"type": "f32", "channels": 4, "dims": [6, 5], "init": {{"random": {{"seed": 22, "min": -4.0, "max": 4.0}}}},
            "address_mode": ["wrap", "mirror"], "filter": "linear", "normalized_coords": true}},
    "tC": {{"type": "f32", "channels": 2, "dims": [5, 4, 3], "init": {{"random": {{"seed": 23, "min": -1.0, "max": 1.0}}}},
            "address_mode": ["border", "border", "clamp"], "filter": "point",
            "border_color": [0.25, -2.0, 0, 0]}}
  }},
  "surfaces": {{
    "sA": {{"type": "u32", "dims": [8, 4], "init": {{"iota": {{"start": 100, "step": 7}}}}}},
    "sB": {{"type": "u32", "dims": [{N}]}},
    "sC": {{"type": "u32", "dims": [4], "init": {{"iota": {{"start": 1, "step": 1}}}}}}
  }}
}}"#,
        ol = N * OUT,
    );
    LaunchSpec::from_json_str(&text, ".").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn texrefs_and_surfrefs_match_the_interpreter_on_every_target() {
    let sp = spec();
    let want = interp(PTX, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    // Not vacuous: each reference answered with its own resource.
    let out = &want.outputs.get("out").unwrap().bits;
    assert!(out.iter().filter(|&&w| w != 0).count() > N * OUT / 2);
    // txq/suq: (6 + 5) * 10 + 3, * 10 + 8, * 10 + 4.
    assert_eq!(out[20], 11_384);
    // sC: 1..4 plus the sum of the lanes t with t mod 4 == k.
    let sc = &want
        .outputs
        .get("sC")
        .expect("surface sC is an output")
        .bits;
    assert_eq!(sc[0], 1 + (0..N as u64).step_by(4).sum::<u64>());
    let mut fails = Vec::new();
    case(PTX, &sp, false, "texref kernel", &mut fails);
    finish(fails, ARCHS.len());
}

/// A reference the launch does not bind: the interpreter's handle 0, the
/// simulator's unbound word; both runners stop at the access.
#[test]
fn an_unbound_reference_faults_in_both_runners() {
    let sp = spec();
    let mut fails = Vec::new();
    for (from, to) in [
        ("[tA, {%r3}]", "[unused, {%r3}]"),
        ("[sB, {%r17}]", "[sZ, {%r17}]"),
    ] {
        let src = PTX.replace(from, to).replace(
            ".global .surfref sA;",
            ".global .surfref sA;\n.global .surfref sZ;",
        );
        assert_ne!(src, PTX);
        case(&src, &sp, true, to, &mut fails);
    }
    finish(fails, 2 * ARCHS.len());
}

/// The words the simulator needs for a vendor listing, from the
/// relocation section `cuobjdump -elf` prints (NAME.sm_XX.rel.txt): a
/// banks file `refs` list.
fn banks_from_rel(rel: &str) -> SimInputs {
    let mut func = String::new();
    let mut refs = Vec::new();
    for l in rel.lines() {
        if let Some(s) = l.strip_prefix(".section .rel.nv.constant0.") {
            func = s.split_whitespace().next().unwrap().to_string();
        } else if let Some(s) = l.strip_prefix(".section .rela.nv.constant0.") {
            func = s.split_whitespace().next().unwrap().to_string();
        } else {
            let f: Vec<&str> = l.split_whitespace().collect();
            let off = u32::from_str_radix(f[0].trim_start_matches("0x"), 16).unwrap();
            refs.push(format!(
                r#"{{"function": "{func}", "offset": {off}, "symbol": "{}", "kind": "{}"}}"#,
                f[1], f[2]
            ));
        }
    }
    assert!(!refs.is_empty(), "no relocation words in\n{rel}");
    SimInputs::from_banks_json(&format!(r#"{{"refs": [{}]}}"#, refs.join(", "))).unwrap()
}

fn vendor(name: &str, arch: &str) -> (String, String, SimInputs) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/texref_vendor");
    let read = |f: String| std::fs::read_to_string(dir.join(f)).unwrap();
    let src = read(format!("{name}.ptx"));
    let sass = read(format!("{name}.{arch}.sass"));
    let inputs = banks_from_rel(&read(format!("{name}.{arch}.rel.txt")));
    // scripts/build-kernels.sh's banks file of the same cubin (its `refs`)
    // says the same.
    let file = SimInputs::from_banks_file(&dir.join(format!("{name}.{arch}.banks.json"))).unwrap();
    assert_eq!(file, inputs, "{name}.{arch}.banks.json");
    (src, sass, inputs)
}

fn mix_spec(kernel: &str) -> LaunchSpec {
    let text = format!(
        r#"{{"kernel": "{kernel}", "grid": [1], "block": [1],
  "params": [{{"buffer": "out"}}, {{"u32": 1}}],
  "buffers": {{"out": {{"type": "u32", "len": 1}}}},
  "textures": {{
    "texA": {{"type": "s32", "channels": 1, "dims": [4], "init": {{"values": [70000, 2, 3, 4]}}, "address_mode": ["clamp"], "filter": "point"}},
    "texB": {{"type": "f32", "channels": 4, "dims": [2, 2], "init": {{"values": [900, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]}}, "address_mode": ["clamp", "clamp"], "filter": "point"}}
  }},
  "surfaces": {{
    "surfA": {{"type": "u32", "dims": [3], "init": {{"values": [5, 6, 7]}}}},
    "surfB": {{"type": "u32", "dims": [2, 2], "init": {{"values": [40000000, 2, 3, 4]}}}}
  }}
}}"#
    );
    LaunchSpec::from_json_str(&text, ".").unwrap()
}

/// ptxas's texref_mix (texB, texA, surfB, surfA at 0x16c..0x178: the
/// slot forms, TXQ for txq and suq) on sm_70..sm_89, and texref_nq (the
/// same without the queries, which sm_90 answers from the driver's header
/// table) on sm_90 (`ULDC UR4, c[0x0][0x21c]`): each listing in the
/// simulator against the interpreter, and the compiler's lowering too. The
/// resources' values make every reference visible in the one output word
/// (a wrong binding changes it).
#[test]
fn vendor_texref_listings_run_in_the_simulator() {
    for arch in ARCHS {
        let name = if arch == "sm_90" {
            "texref_nq"
        } else {
            "texref_mix"
        };
        let (src, sass, inputs) = vendor(name, arch);
        let sp = mix_spec(name);
        let want = interp(&src, &sp);
        assert_eq!(
            want.outcome,
            Outcome::Completed,
            "{arch}: {:?}",
            want.outcome
        );
        let got = run_sass(&sp, &sass, name, arch, None, &inputs, &RunLimits::default())
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &got, false) {
            panic!("vendor {name} on {arch}: {d}");
        }
        let ours = lowered(&src, &sp, arch).unwrap();
        if let Some(d) = agree(&want, &ours, false) {
            panic!("lowered {name} on {arch}: {d}");
        }
    }
}

/// ptxas's texref_order (declared A B C D S T, first used T C D B A C S;
/// words C D B A T S from 0x168, texref_order.sm_80.rel.txt) on sm_80 in
/// the simulator against the interpreter: each texture and surface holds
/// a distinct value, so a word bound to the wrong one shows in the sum.
#[test]
fn vendor_texref_order_runs_in_the_simulator() {
    let (src, sass, inputs) = vendor("texref_order", "sm_80");
    let tex = |n: &str, v: u32| {
        format!(
            r#""{n}": {{"type": "s32", "channels": 1, "dims": [2], "init": {{"values": [{v}, {v}]}}, "address_mode": ["clamp"], "filter": "point"}}"#
        )
    };
    let text = format!(
        r#"{{"kernel": "texref_order", "grid": [1], "block": [1],
  "params": [{{"buffer": "out"}}],
  "buffers": {{"out": {{"type": "u32", "len": 1}}}},
  "textures": {{ {}, {}, {}, {} }},
  "surfaces": {{
    "S": {{"type": "u32", "dims": [3], "init": {{"values": [100000000, 0, 0]}}}},
    "T": {{"type": "u32", "dims": [5], "init": "zeros"}}
  }}
}}"#,
        tex("A", 1),
        tex("B", 10),
        tex("C", 100),
        tex("D", 1000)
    );
    let sp = LaunchSpec::from_json_str(&text, ".").unwrap();
    let want = interp(&src, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    // D + B + A + C + txq.width(C) + S[0] + suq.width(T)
    assert_eq!(want.outputs.get("out").unwrap().bits[0], 100_001_118);
    let got = run_sass(
        &sp,
        &sass,
        "texref_order",
        "sm_80",
        None,
        &inputs,
        &RunLimits::default(),
    )
    .unwrap();
    if let Some(d) = agree(&want, &got, false) {
        panic!("vendor texref_order: {d}");
    }
    for arch in ARCHS {
        let ours = lowered(&src, &sp, arch).unwrap();
        if let Some(d) = agree(&want, &ours, false) {
            panic!("lowered texref_order on {arch}: {d}");
        }
    }
}

/// A `.func` naming references: the callee's uses take the kernel's
/// words (res_ref.rs: the functions' uses count after the kernel's).
#[test]
fn references_in_a_called_function() {
    let src = r#".version 7.8
.target sm_80
.address_size 64
.global .texref tA;
.global .surfref sB;
.func (.param .b32 r) fetch(.param .b32 x)
{
  .reg .b32 %q<8>;
  ld.param.b32 %q6, [x];
  tex.1d.v4.s32.s32 {%q1, %q2, %q3, %q4}, [tA, {%q6}];
  shl.b32 %q5, %q6, 2;
  sust.b.1d.b32.trap [sB, {%q5}], %q1;
  add.s32 %q7, %q1, %q2;
  st.param.b32 [r], %q7;
  ret;
}
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .u64 %rd<6>; .reg .u32 %r<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  {
  .param .b32 a; .param .b32 b;
  st.param.b32 [a], %r1;
  call (b), fetch, (a);
  ld.param.b32 %r2, [b];
  }
  mul.wide.u32 %rd2, %r1, 4; add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
"#;
    let sp = LaunchSpec::from_json_str(
        &format!(
            r#"{{"kernel": "k", "grid": [1], "block": [{N}],
  "params": [{{"buffer": "out"}}, {{"u32": {N}}}],
  "buffers": {{"out": {{"type": "u32", "len": {N}}}}},
  "textures": {{"tA": {{"type": "s32", "channels": 4, "dims": [8], "init": {{"random": {{"seed": 3}}}}, "address_mode": ["clamp"], "filter": "point"}}}},
  "surfaces": {{"sB": {{"type": "u32", "dims": [{N}]}}}}}}"#
        ),
        ".",
    )
    .unwrap();
    let want = interp(src, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    assert!(want.outputs.get("sB").unwrap().bits.iter().any(|&b| b != 0));
    let mut fails = Vec::new();
    case(src, &sp, false, "texref in a .func", &mut fails);
    finish(fails, ARCHS.len());
}

/// The texref kernel after the whole `-O3` phase plan: the words survive
/// scheduling and register allocation, and the schedule passes the
/// simulator's scoreboard check.
#[test]
fn texrefs_after_the_full_pipeline() {
    let sp = spec();
    let want = interp(PTX, &sp);
    for arch in ARCHS {
        let got = pair_run::lowered_o3(PTX, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &got, false) {
            panic!("-O3 on {arch}: {d}");
        }
    }
}

/// `mov.u64 %rd, NAME` of a `.texref`/`.surfref`: an opaque value (PTX
/// ISA), which the interpreter makes the launch's handle of the resource
/// (`TEXTURE_HANDLE_BASE | i`, `SURFACE_HANDLE_BASE | i`) and the lowering
/// the reference's word with the kind's high word (res_ref.rs
/// `RefKind::handle_high_word`): the stored values agree on every target,
/// at -O0 (lowering) and -O3, and `istypep` classifies them. ptxas 11.8's
/// listings (texref_vendor/texref_value.*) agree on sm_90 and, below,
/// differ exactly by bit 31 of a texref's low word, which ptxas sets.
#[test]
fn the_value_of_a_reference_is_its_handle() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/texref_vendor");
    let read = |f: String| std::fs::read_to_string(dir.join(f)).unwrap();
    let src = read("texref_value.ptx".into());
    let tex = |n: &str| {
        format!(
            r#""{n}": {{"type": "s32", "channels": 1, "dims": [2], "init": "zeros", "address_mode": ["clamp"], "filter": "point"}}"#
        )
    };
    let text = format!(
        r#"{{"kernel": "texref_value", "grid": [1], "block": [1],
  "params": [{{"buffer": "out"}}],
  "buffers": {{"out": {{"type": "u32", "len": 9}}}},
  "textures": {{ {}, {}, {} }},
  "surfaces": {{
    "sA": {{"type": "u32", "dims": [3], "init": "zeros"}},
    "sB": {{"type": "u32", "dims": [3], "init": "zeros"}}
  }}
}}"#,
        tex("tA"),
        tex("tB"),
        tex("tC")
    );
    let sp = LaunchSpec::from_json_str(&text, ".").unwrap();
    let want = interp(&src, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    let out = &want.outputs.get("out").unwrap().bits;
    let word = |k: usize| out[2 * k] | out[2 * k + 1] << 32;
    assert_eq!(word(0), sp.texture_handle("tC").unwrap());
    assert_eq!(word(1), sp.texture_handle("tA").unwrap());
    assert_eq!(word(2), sp.surface_handle("sB").unwrap());
    assert_eq!(word(3), sp.surface_handle("sA").unwrap());
    assert_ne!(word(0), word(1), "distinct textures, distinct values");
    // istypep: texref(tC) 1, surfref(tC) 0, texref(sB) 0, surfref(sB) 8.
    assert_eq!(out[8], 9);
    let mut fails = Vec::new();
    case(&src, &sp, false, "mov of a reference", &mut fails);
    finish(fails, ARCHS.len());
    for arch in ARCHS {
        let got = pair_run::lowered_o3(&src, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &got, false) {
            panic!("-O3 on {arch}: {d}");
        }
    }
    for arch in ["sm_70", "sm_80", "sm_90"] {
        let sass = read(format!("texref_value.{arch}.sass"));
        let inputs = banks_from_rel(&read(format!("texref_value.{arch}.rel.txt")));
        let vsrc = src.replace(".target sm_80", &format!(".target {arch}"));
        let got = run_sass(
            &sp,
            &sass,
            "texref_value",
            arch,
            None,
            &inputs,
            &RunLimits::default(),
        )
        .unwrap_or_else(|e| panic!("{arch}: {e}"));
        assert_eq!(got.outcome, Outcome::Completed, "{arch}: {:?}", got.outcome);
        let mut expect = interp(&vsrc, &sp).outputs.get("out").unwrap().bits.clone();
        if arch != "sm_90" {
            expect[0] |= 0x8000_0000;
            expect[2] |= 0x8000_0000;
        }
        assert_eq!(
            got.outputs.get("out").unwrap().bits,
            expect,
            "ptxas on {arch}"
        );
    }
}
