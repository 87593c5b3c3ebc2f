//! The targeted peephole kernels of `corpus/peephole/` (nan_zero_gemm,
//! hoist_loop, tex_multi, tex_offsets, tex_offsets_2d): their `NAME.expected.json` (written by `ptxdiff
//! interp`) checked against an independent host computation of what the
//! kernel computes, and each kernel compiled by ptxc through the full -O3
//! pipeline (the peepholes included) and run in the SM simulator for
//! sm_70, sm_80 and sm_90 (`ptxdiff check`), matching it.

use oracle::commands::check::check;
use oracle::launch::{init_bits, ElemType, LaunchSpec, OutputSet};
use oracle::ptx_interp::RunLimits;
use std::path::{Path, PathBuf};

const KERNELS: [&str; 5] = [
    "nan_zero_gemm",
    "hoist_loop",
    "tex_multi",
    "tex_offsets",
    "tex_offsets_2d",
];

fn spec_path(k: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../corpus/peephole/{k}/{k}.launch.json"))
}

fn buffer(spec: &LaunchSpec, name: &str) -> Vec<f32> {
    let b = spec.buffers.iter().find(|b| b.name == name).unwrap();
    init_bits(&b.init, b.ty, b.len)
        .into_iter()
        .map(|x| f32::from_bits(x as u32))
        .collect()
}

fn texture(spec: &LaunchSpec, name: &str) -> Vec<f32> {
    let t = spec.textures.iter().find(|t| t.name == name).unwrap();
    let n: u32 = t.dims.iter().product();
    init_bits(&t.init, ElemType::F32, u64::from(n))
        .into_iter()
        .map(|x| f32::from_bits(x as u32))
        .collect()
}

/// The expected file's `out`, against the host's values: bit for bit,
/// except that any NaN stands for the GPU's canonical NaN (the host's NaN
/// payloads differ).
fn assert_out(k: &str, host: &[f32]) {
    let p = spec_path(k).with_file_name(format!("{k}.expected.json"));
    let exp = OutputSet::from_file(&p).unwrap();
    let bits = &exp.get("out").unwrap().bits;
    assert_eq!(bits.len(), host.len(), "{k}");
    for (i, (&e, h)) in bits.iter().zip(host).enumerate() {
        let e = e as u32;
        if h.is_nan() {
            assert_eq!(e, 0x7fff_ffff, "{k} out[{i}]: the canonical NaN");
        } else {
            assert_eq!(e, h.to_bits(), "{k} out[{i}]: {} vs {h}", f32::from_bits(e));
        }
    }
}

#[test]
fn nan_zero_gemm_expected_matches_the_host() {
    let spec = LaunchSpec::from_file(spec_path("nan_zero_gemm")).unwrap();
    let (a, b) = (buffer(&spec, "a"), buffer(&spec, "b"));
    let mut out = vec![0f32; 256];
    for t in 0..32 {
        let (mut acc0, mut acc1, mut pad, mut kf) = (0f32, 0f32, 0f32, 0f32);
        for k in 0..8 {
            let (x, y) = (a[k * 32 + t], b[k * 32 + t]);
            kf = k as f32;
            acc0 = x.mul_add(y, acc0);
            acc1 = x.mul_add(x, acc1);
            acc0 = y.mul_add(y, acc0);
            pad = kf.mul_add(0.0, pad);
            acc1 = kf.mul_add(y, acc1);
        }
        let nan = 0f32 * f32::INFINITY;
        // max(NaN, x) = x (PTX max.f32).
        let m = if nan.is_nan() { pad } else { nan.max(pad) };
        out[t * 8..t * 8 + 8].copy_from_slice(&[acc0, acc1, pad, nan, m, kf - 0.0, acc0 + 0.0, kf]);
    }
    assert_out("nan_zero_gemm", &out);
}

#[test]
fn hoist_loop_expected_matches_the_host() {
    let spec = LaunchSpec::from_file(spec_path("hoist_loop")).unwrap();
    let (input, extra) = (buffer(&spec, "in"), buffer(&spec, "extra"));
    let (stride, trips, scale) = (6, 6, 0.75f32);
    let out: Vec<f32> = (0..64)
        .map(|t| {
            let mut acc = 0f32;
            for k in 0..trips {
                acc = input[t * stride + k].mul_add(scale, acc);
                if k == 3 {
                    acc += extra[0];
                }
            }
            acc
        })
        .collect();
    assert_out("hoist_loop", &out);
}

#[test]
fn tex_multi_expected_matches_the_host() {
    let spec = LaunchSpec::from_file(spec_path("tex_multi")).unwrap();
    let (t, u) = (texture(&spec, "t"), texture(&spec, "u"));
    let n = 100i64;
    // Point sampling, clamped unnormalized integer coordinates.
    let at = |v: &[f32], i: i64| v[i.clamp(0, n - 1) as usize];
    let mut out = vec![0f32; 256];
    for i in 0..n {
        let f20 = at(&t, i - 1) * 0.25;
        let f21 = at(&t, i).mul_add(0.5, f20);
        let f22 = at(&t, i + 1).mul_add(0.25, f21);
        out[2 * i as usize + 1] = f21;
        out[2 * i as usize] = f22 + at(&u, i);
    }
    assert_out("tex_multi", &out);
}

fn ints(spec: &LaunchSpec, name: &str) -> Vec<i32> {
    let b = spec.buffers.iter().find(|b| b.name == name).unwrap();
    init_bits(&b.init, b.ty, b.len)
        .into_iter()
        .map(|x| x as u32 as i32)
        .collect()
}

#[test]
fn tex_offsets_expected_matches_the_host() {
    let spec = LaunchSpec::from_file(spec_path("tex_offsets")).unwrap();
    let (t, t2) = (texture(&spec, "t"), texture(&spec, "t2"));
    let (xs, ys) = (ints(&spec, "xs"), ints(&spec, "ys"));
    // PTX add.s32 wraps; t clamps; t2 (16 x 12, row-major) clamps x and
    // reads the border colour 0 outside y's range.
    let at = |i: i32| t[i64::from(i).clamp(0, 99) as usize];
    let at2 = |i: i32, j: i32| {
        if (0..12).contains(&j) {
            t2[j as usize * 16 + i64::from(i).clamp(0, 15) as usize]
        } else {
            0.0
        }
    };
    let mut out = Vec::new();
    for (&x, &y) in xs.iter().zip(&ys) {
        let add = |v: i32| x.wrapping_add(v);
        let row = [
            at(add(1)),
            at(add(-3)),
            at(add(7)),
            at(add(-8)),
            at(add(9)),
            at(y.wrapping_add(1)),
            at2(add(-3), y.wrapping_add(2)),
        ];
        out.extend(row.iter().map(|f| f.to_bits()));
        out.extend([x as u32, y as u32, 0]);
    }
    // The lanes at INT_MAX - 1 and beyond wrap: x+7 is texel 0, not 99.
    assert!(xs.contains(&(i32::MAX - 1)));
    let p = spec_path("tex_offsets").with_file_name("tex_offsets.expected.json");
    let exp = OutputSet::from_file(&p).unwrap();
    let bits: Vec<u32> = exp
        .get("out")
        .unwrap()
        .bits
        .iter()
        .map(|&b| b as u32)
        .collect();
    assert_eq!(bits, out);
}

#[test]
fn tex_offsets_2d_expected_matches_the_host() {
    let spec = LaunchSpec::from_file(spec_path("tex_offsets_2d")).unwrap();
    let t = texture(&spec, "t");
    let xy = ints(&spec, "xy");
    // 16 x 12, row-major; x clamps, y outside 0..12 reads the border 0.
    let at = |i: i32, j: i32| {
        if (0..12).contains(&j) {
            t[j as usize * 16 + i64::from(i).clamp(0, 15) as usize]
        } else {
            0.0
        }
    };
    let mut out = Vec::new();
    for p in xy.chunks(2) {
        let (x, y) = (p[0], p[1]);
        let shifted = at(x.wrapping_add(-1), y.wrapping_add(2));
        out.extend([shifted.to_bits(), at(x, y).to_bits(), x as u32, y as u32]);
    }
    // Some pairs wrap (INT_MIN - 1, INT_MAX + 2).
    assert!(xy.contains(&i32::MIN) && xy.contains(&(i32::MAX - 1)));
    let p = spec_path("tex_offsets_2d").with_file_name("tex_offsets_2d.expected.json");
    let exp = OutputSet::from_file(&p).unwrap();
    let bits: Vec<u32> = exp
        .get("out")
        .unwrap()
        .bits
        .iter()
        .map(|&b| b as u32)
        .collect();
    assert_eq!(bits, out);
}

#[test]
fn the_kernels_compiled_by_ptxc_match_in_the_simulator() {
    let limits = RunLimits::default();
    let mut bad = Vec::new();
    for k in KERNELS {
        for arch in ["sm_70", "sm_80", "sm_90"] {
            let v = check(
                &spec_path(k),
                Some(arch),
                &["-O3".to_string()],
                None,
                &limits,
            )
            .unwrap();
            if !v.passed() {
                bad.push(v.line);
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
