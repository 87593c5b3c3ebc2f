//! Formatted surface stores, `sust.p` (lowering: compiler/src/lower/surf.rs
//! `SUST.P`; simulation: oracle/src/sim/exec/surf.rs; the shared rule:
//! oracle/src/ptx_interp/semantics/surface_format.rs), against the PTX
//! interpreter on sm_70, sm_75, sm_80, sm_86, sm_89 and sm_90: the surfaces
//! (launch outputs) equal bit for bit, and where the interpreter stops
//! (a value the channel type does not hold exactly, a vector shorter than
//! the sample, a 64-bit channel, `.trap` out of bounds) the simulator stops
//! too.
//!
//! Domains: the geometries 1d, 2d, 3d, a1d, a2d; sample formats u8 x1/x4,
//! s8 x4, u16 x1, s16 x2, u32 x4, f16 x2, f32 x1/x4 with `.R`/`.RG`/RGBA
//! vectors (also longer than the sample: the extra words are ignored);
//! the modes `.clamp`, `.zero`, `.trap`; x (samples), y, z at the edges and
//! outside (not for `.trap`), layers 0 and the last, plus seeded random
//! in-range items; values drawn from what each channel type holds exactly.
//! The handle is a kernel parameter (slot / uniform forms) or chosen per
//! lane between two surfaces (register form, sm_90 handle loop).
//!
//! One test runs two kernels after the whole `-O3` phase plan. The
//! vendor test runs ptxas 11.8's own listings of `sust_p`
//! (oracle/tests/surfp_vendor/, `ptxas -arch=sm_XX -O3` + `cuobjdump -sass`)
//! in the simulator against the interpreter.

mod pair_run;
mod seq_harness;
mod surf_common;
use oracle::commands::sim::run_sass;
use oracle::launch::{f16_bits_to_f64, LaunchSpec};
use oracle::ptx_interp::{Outcome, RunLimits};
use oracle::sim::SimInputs;
use pair_run::{agree, case, finish, interp, lowered, ARCHS};
use seq_harness::Rng;
use surf_common::bits_json;

/// Samples per row, rows, depth, layers.
const W: i64 = 4;
const H: i64 = 3;
const D: i64 = 2;
const L: i64 = 2;

/// The geometries: PTX name, coordinate vector, dimensions, layered.
const GEOMS: [(&str, &str, usize, bool); 5] = [
    ("1d", "{%r10}", 1, false),
    ("2d", "{%r10, %r11}", 2, false),
    ("3d", "{%r10, %r11, %r12, %r13}", 3, false),
    ("a1d", "{%r10, %r11}", 1, true),
    ("a2d", "{%r10, %r11, %r12, %r13}", 2, true),
];

/// Sample formats (channel type, channels) with the vector length stored.
const FORMATS: [(&str, u32, usize); 10] = [
    ("u8", 1, 1),
    ("u8", 4, 4),
    ("s8", 4, 4),
    ("u16", 1, 1),
    ("s16", 2, 2),
    ("s16", 2, 4),
    ("u32", 4, 4),
    ("f16", 2, 2),
    ("f32", 1, 2),
    ("f32", 4, 4),
];

/// Items `[c0, c1, c2, 0]` in the PTX coordinate order (the layer first
/// when layered; x in samples); `inside`: in bounds only.
fn items(dims: usize, layered: bool, inside: bool, seed: u64) -> Vec<[i32; 4]> {
    let mut xs = vec![0, 1, W - 1];
    let mut ys = vec![0, H - 1];
    let mut zs = vec![0, D - 1];
    if !inside {
        xs.extend([-1, W, 1000, i32::MIN as i64]);
        ys.extend([-1, H]);
        zs.extend([-1, D, 77]);
    }
    if dims < 2 {
        ys = vec![0];
    }
    if dims < 3 {
        zs = vec![0];
    }
    let layers: Vec<i64> = if layered { vec![0, L - 1] } else { vec![0] };
    let mut out = Vec::new();
    let mut push = |l: i64, x: i64, y: i64, z: i64| {
        let c = [x as i32, y as i32, z as i32];
        if layered {
            out.push([l as i32, c[0], c[1], 0]);
        } else {
            out.push([c[0], c[1], c[2], 0]);
        }
    };
    for &l in &layers {
        for &x in &xs {
            for &y in &ys {
                for &z in &zs {
                    push(l, x, y, z);
                }
            }
        }
    }
    let mut rng = Rng(seed);
    for _ in 0..8 {
        let r = |rng: &mut Rng, n: i64| (rng.next() % n as u64) as i64;
        let (l, x, y, z) = (
            r(&mut rng, L),
            r(&mut rng, W),
            r(&mut rng, H),
            r(&mut rng, D),
        );
        push(
            if layered { l } else { 0 },
            x,
            if dims > 1 { y } else { 0 },
            if dims > 2 { z } else { 0 },
        );
    }
    out
}

/// A source word the channel type `ty` holds exactly (read as `.u32`,
/// `.s32` or `.f32` by the format's kind, semantics/surface_format.rs).
fn exact_word(ty: &str, rng: &mut Rng) -> u32 {
    let r = rng.next();
    match ty {
        "u8" => (r & 0xff) as u32,
        "s8" => r as u8 as i8 as i32 as u32,
        "u16" => (r & 0xffff) as u32,
        "s16" => r as u16 as i16 as i32 as u32,
        "f16" => {
            let mut h = r as u16;
            if h & 0x7c00 == 0x7c00 && h & 0x3ff != 0 {
                h &= 0xfc00; // a NaN pattern: take the infinity
            }
            (f16_bits_to_f64(h) as f32).to_bits()
        }
        _ => r as u32,
    }
}

fn type_bits(ty: &str) -> u32 {
    ty[1..].parse().unwrap()
}

/// Surfaces `sa`, `sb` of `ty` x `channels` (random contents), the item
/// buffer, `n` value words per item (`words` when given, else exact ones).
fn launch(
    g: (usize, bool),
    fmt: (&str, u32),
    items: &[[i32; 4]],
    n: usize,
    words: Option<&[u32]>,
    seed: u64,
) -> LaunchSpec {
    let (dims, layered) = g;
    let (ty, ch) = fmt;
    let mut rng = Rng(seed);
    let dv: Vec<i64> = [W, H, D][..dims].to_vec();
    let cells = dv.iter().product::<i64>() * if layered { L } else { 1 } * i64::from(ch);
    let tb = type_bits(ty);
    let m = if tb == 64 { u64::MAX } else { (1u64 << tb) - 1 };
    let sa: Vec<u64> = (0..cells).map(|_| rng.next() & m).collect();
    let sb: Vec<u64> = (0..cells).map(|_| rng.next() & m).collect();
    let crd: Vec<u64> = items
        .iter()
        .flatten()
        .map(|&c| u64::from(c as u32))
        .collect();
    let vals: Vec<u64> = match words {
        Some(w) => w.iter().map(|&x| u64::from(x)).collect(),
        None => (0..items.len() * n)
            .map(|k| {
                // words past the sample's channels are ignored: any bits
                if k % n < ch as usize {
                    u64::from(exact_word(ty, &mut rng))
                } else {
                    rng.next() & 0xffff_ffff
                }
            })
            .collect(),
    };
    let dims_s: Vec<String> = dv.iter().map(|d| d.to_string()).collect();
    let layers = if layered {
        format!(r#", "layers": {L}"#)
    } else {
        String::new()
    };
    let json = format!(
        r#"{{"kernel": "k", "grid": [1], "block": [1],
  "params": [{{"surface": "sa"}}, {{"surface": "sb"}}, {{"buffer": "crd"}}, {{"buffer": "val"}}, {{"buffer": "out"}}, {{"u32": {ni}}}],
  "buffers": {{"crd": {{"type": "u32", "len": {nc}, "init": {{"bits": {crd}}}}},
    "val": {{"type": "u32", "len": {nv}, "init": {{"bits": {vals}}}}},
    "out": {{"type": "u32", "len": 1}}}},
  "surfaces": {{"sa": {{"type": "{ty}", "channels": {ch}, "dims": [{dims}]{layers}, "init": {{"bits": {sa}}}}},
    "sb": {{"type": "{ty}", "channels": {ch}, "dims": [{dims}]{layers}, "init": {{"bits": {sb}}}}}}}}}"#,
        ni = items.len(),
        nc = crd.len(),
        crd = bits_json(&crd, 32),
        nv = vals.len().max(1),
        vals = if vals.is_empty() {
            "[\"0x0\"]".to_string()
        } else {
            bits_json(&vals, 32)
        },
        dims = dims_s.join(", "),
        sa = bits_json(&sa, tb),
        sb = bits_json(&sb, tb),
    );
    LaunchSpec::from_json_str(&json, std::path::Path::new("."))
        .unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// The kernel: the lane walks the items; item i stores `val[i*n..i*n+n]`
/// with `sust.p.GEOM{.vN}.b32.MODE` to `sa` (or, `divergent`, to `sb` for
/// odd items).
fn kernel(geom: &str, c: &str, n: usize, mode: &str, divergent: bool) -> String {
    let handle = if divergent { "%rd6" } else { "%rd1" };
    let mut body = String::new();
    for k in 0..n {
        body.push_str(&format!(
            "mad.lo.u32 %r5, %r2, {n}, {k}; mul.wide.u32 %rd9, %r5, 4; add.s64 %rd10, %rd4, %rd9; ld.global.u32 %r{}, [%rd10];\n",
            20 + k
        ));
    }
    let data: Vec<String> = (0..n).map(|k| format!("%r{}", 20 + k)).collect();
    let vec = if n == 1 {
        String::new()
    } else {
        format!(".v{n}")
    };
    body.push_str(&format!(
        "sust.p.{geom}{vec}.b32.{mode} [{handle}, {c}], {{{}}};\n",
        data.join(", ")
    ));
    let pick = if divergent {
        "and.b32 %r4, %r2, 1; setp.eq.u32 %p1, %r4, 1; selp.b64 %rd6, %rd2, %rd1, %p1;\n"
    } else {
        ""
    };
    surf_common::loop_kernel(pick, &body)
}

#[test]
fn sust_p_every_geometry_format_and_mode() {
    let mut fails = Vec::new();
    let mut total = 0;
    for (gi, &(geom, c, dims, layered)) in GEOMS.iter().enumerate() {
        for (fi, &(ty, ch, n)) in FORMATS.iter().enumerate() {
            // every format with .clamp; .zero and .trap on a rotating pair
            let mut modes = vec!["clamp"];
            if (fi + gi) % 5 == 0 {
                modes.push("zero");
            }
            if (fi + gi) % 5 == 1 {
                modes.push("trap");
            }
            for mode in modes {
                let seed = (gi * 31 + fi * 7) as u64;
                let it = items(dims, layered, mode == "trap", seed);
                let spec = launch((dims, layered), (ty, ch), &it, n, None, seed + 1);
                let src = kernel(geom, c, n, mode, false);
                let what = format!("sust.p.{geom} {ty}x{ch} v{n} .{mode}");
                case(&src, &spec, false, &what, &mut fails);
                total += ARCHS.len();
            }
        }
    }
    finish(fails, total);
}

#[test]
fn sust_p_with_divergent_handles() {
    let mut fails = Vec::new();
    let mut total = 0;
    for &(geom, c, dims, layered) in &GEOMS {
        for (ty, ch, n) in [("u8", 4, 4), ("f16", 2, 2), ("u32", 1, 1)] {
            let it = items(dims, layered, false, 9);
            let spec = launch((dims, layered), (ty, ch), &it, n, None, 10);
            let src = kernel(geom, c, n, "clamp", true);
            case(
                &src,
                &spec,
                false,
                &format!("divergent sust.p.{geom} {ty}x{ch}"),
                &mut fails,
            );
            total += ARCHS.len();
        }
    }
    finish(fails, total);
}

/// x counts samples, and the words convert to the channel type: a
/// hand-computed surface (not the rule's own output). A u8 x4 2d surface
/// of 4 x 3 samples: `{1, 2, 3, 0xff}` at x = 2, y = 1 lands in bytes
/// 4 * (1 * 4 + 2) = 24..28; `.v4` of f16 x2 at x = 3, y = 0 stores 1.5
/// and -0.25 (0x3e00, 0xb400) in elements 6, 7 and ignores the other two.
#[test]
fn sust_p_lands_on_the_sample_and_converts() {
    let it = [[2, 1, 0, 0]];
    let spec = launch((2, false), ("u8", 4), &it, 4, Some(&[1, 2, 3, 0xff]), 3);
    let src = kernel("2d", "{%r10, %r11}", 4, "trap", false);
    let base = interp(&src, &launch((2, false), ("u8", 4), &[], 4, Some(&[]), 3));
    let want = interp(&src, &spec);
    assert_eq!(want.outcome, Outcome::Completed);
    let sa = &want.outputs.get("sa").unwrap().bits;
    let sa0 = &base.outputs.get("sa").unwrap().bits;
    for k in 0..sa.len() {
        let expect = if (24..28).contains(&k) {
            [1, 2, 3, 0xff][k - 24]
        } else {
            sa0[k]
        };
        assert_eq!(sa[k], expect, "sa[{k}]");
    }
    let words = [1.5f32.to_bits(), (-0.25f32).to_bits(), 7, 9];
    let spec2 = launch((2, false), ("f16", 2), &[[3, 0, 0, 0]], 4, Some(&words), 4);
    let want2 = interp(&src, &spec2);
    assert_eq!(want2.outcome, Outcome::Completed);
    let s2 = &want2.outputs.get("sa").unwrap().bits;
    assert_eq!((s2[6], s2[7]), (0x3e00, 0xb400));
    for arch in ARCHS {
        for (sp, w) in [(&spec, &want), (&spec2, &want2)] {
            let got = lowered(&src, sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
            if let Some(d) = agree(w, &got, false) {
                panic!("{arch}: {d}");
            }
        }
    }
}

/// Where the ISA leaves the store undefined both runners stop, and the
/// interpreter says why.
#[test]
fn undefined_stores_fault_in_both_runners() {
    // (type, channels, vector length, words, mode, the interpreter's reason)
    type Case<'a> = (&'a str, u32, usize, [u32; 4], &'a str, &'a str);
    let cases: [Case; 6] = [
        ("u8", 1, 1, [256, 0, 0, 0], "clamp", "range"),
        ("s16", 2, 2, [0x7fff, 0xffff_7fff, 0, 0], "clamp", "range"),
        (
            "f16",
            2,
            2,
            [0.1f32.to_bits(), 0, 0, 0],
            "zero",
            "not exactly an f16",
        ),
        (
            "f16",
            1,
            1,
            [f32::NAN.to_bits(), 0, 0, 0],
            "zero",
            "not exactly an f16",
        ),
        ("u32", 4, 2, [1, 2, 0, 0], "clamp", "unpredictable"),
        (
            "u64",
            1,
            1,
            [1, 0, 0, 0],
            "clamp",
            "no surface sample format",
        ),
    ];
    let mut fails = Vec::new();
    for (ty, ch, n, w, mode, why) in cases {
        let spec = launch((1, false), (ty, ch), &[[1, 0, 0, 0]], n, Some(&w[..n]), 5);
        let src = kernel("1d", "{%r10}", n, mode, false);
        let want = interp(&src, &spec);
        assert!(
            matches!(&want.outcome, Outcome::Fault { message, .. } if message.contains(why)),
            "{ty}x{ch}: {:?}",
            want.outcome
        );
        case(&src, &spec, true, &format!("{ty}x{ch} {why}"), &mut fails);
    }
    // .trap out of bounds (x = W samples, y = -1).
    for (geom, c, dims, layered) in [GEOMS[0], GEOMS[1], GEOMS[4]] {
        for bad in [[W as i32, 0, 0, 0], [0, -1, 0, 0]] {
            if dims == 1 && bad[1] != 0 {
                continue;
            }
            let mut b = bad;
            if layered {
                b = [0, bad[0], bad[1], 0];
            }
            let spec = launch((dims, layered), ("u32", 1), &[b], 1, Some(&[5]), 6);
            let src = kernel(geom, c, 1, "trap", false);
            case(&src, &spec, true, &format!("trap {geom} {b:?}"), &mut fails);
        }
    }
    finish(fails, 0);
}

/// ptxas 11.8's listings of `sust_p` (surfp_vendor/sust_p.ptx: `.R.IGN` on
/// a 1d u8 surface, `.RG` clamp on a 2d f16 x2 one, RGBA `.TRAP` on a 3d
/// u32 x4, `.R.TRAP` on a 1d array of s16, `.RG.TRAP` on a 2d array of f32
/// x2; the handles are parameters: the slot form below sm_90, `ULDC` +
/// `UR, 0x0` on sm_90) in the simulator against the interpreter, and our
/// lowering of the same PTX. The last case stores 256 into the u8 channel:
/// both stop.
#[test]
fn vendor_sust_p_runs_in_the_simulator() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/surfp_vendor");
    let src = std::fs::read_to_string(dir.join("sust_p.ptx")).unwrap();
    let mut rng = Rng(21);
    let mut random = |n: i64, bits: u32| -> String {
        let m = (1u64 << bits) - 1;
        (0..n)
            .map(|_| format!("\"0x{:x}\"", rng.next() & m))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let s1 = random(W, 8);
    let s2 = random(W * H * 2, 16);
    let s3 = random(W * H * D * 4, 32);
    let a1 = random(W * L, 16);
    let a2 = random(W * H * L * 2, 32);
    let (f15, fm) = (1.5f32.to_bits(), (-0.25f32).to_bits());
    for (x, y, z, layer, v0, fault) in [
        (1u32, 2u32, 1u32, 1u32, 0x5au32, false),
        (0, 0, 0, 0, 0xff, false),
        (3, 1, 1, 1, 7, false),
        (2, 1, 0, 0, 256, true),
    ] {
        let json = format!(
            r#"{{"kernel": "sust_p", "grid": [1], "block": [1],
      "params": [{{"surface": "s1"}}, {{"surface": "s2"}}, {{"surface": "s3"}}, {{"surface": "a1"}}, {{"surface": "a2"}},
        {{"u32": {x}}}, {{"u32": {y}}}, {{"u32": {z}}}, {{"u32": {layer}}}, {{"u32": {v0}}}, {{"u32": 2}}, {{"u32": 3}}, {{"u32": 4}},
        {{"u32": {f15}}}, {{"u32": {fm}}}, {{"u32": 4294934529}}],
      "buffers": {{}},
      "surfaces": {{"s1": {{"type": "u8", "dims": [{W}], "init": {{"bits": [{s1}]}}}},
        "s2": {{"type": "f16", "channels": 2, "dims": [{W}, {H}], "init": {{"bits": [{s2}]}}}},
        "s3": {{"type": "u32", "channels": 4, "dims": [{W}, {H}, {D}], "init": {{"bits": [{s3}]}}}},
        "a1": {{"type": "s16", "dims": [{W}], "layers": {L}, "init": {{"bits": [{a1}]}}}},
        "a2": {{"type": "f32", "channels": 2, "dims": [{W}, {H}], "layers": {L}, "init": {{"bits": [{a2}]}}}}}}}}"#
        );
        let spec = LaunchSpec::from_json_str(&json, std::path::Path::new("."))
            .unwrap_or_else(|e| panic!("{e}\n{json}"));
        let want = interp(&src, &spec);
        if !fault {
            assert_eq!(want.outcome, Outcome::Completed, "x {x} y {y} z {z}");
            // s1 (u8, 1d): v0 at sample x; a1 (s16): -32767 at (layer, x).
            assert_eq!(
                want.outputs.get("s1").unwrap().bits[x as usize],
                u64::from(v0)
            );
            let a1_at = (layer as i64 * W) as usize + x as usize;
            assert_eq!(want.outputs.get("a1").unwrap().bits[a1_at], 0x8001);
        }
        for arch in ARCHS {
            let text = std::fs::read_to_string(dir.join(format!("sust_p.{arch}.sass"))).unwrap();
            let got = run_sass(
                &spec,
                &text,
                "sust_p",
                arch,
                None,
                &SimInputs::default(),
                &RunLimits::default(),
            )
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
            if let Some(d) = agree(&want, &got, fault) {
                panic!("vendor sust_p on {arch}, x {x}: {d}");
            }
            let ours = lowered(&src, &spec, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
            if let Some(d) = agree(&want, &ours, fault) {
                panic!("lowered sust_p on {arch}, x {x}: {d}");
            }
        }
    }
}

/// `sust.p` after the whole `-O3` phase plan, on every target (a u8 x4
/// 2d surface and an f16 x2 3d one, divergent handles).
#[test]
fn sust_p_after_the_full_pipeline() {
    for (g, fmt, n) in [(1usize, ("u8", 4u32), 4usize), (2, ("f16", 2), 2)] {
        let (geom, c, dims, layered) = GEOMS[g];
        let it = items(dims, layered, false, 12);
        let spec = launch((dims, layered), fmt, &it, n, None, 13);
        let src = kernel(geom, c, n, "clamp", true);
        let want = interp(&src, &spec);
        for arch in ARCHS {
            let got =
                pair_run::lowered_o3(&src, &spec, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
            if let Some(d) = agree(&want, &got, false) {
                panic!("{geom} on {arch} -O3: {d}");
            }
        }
    }
}
