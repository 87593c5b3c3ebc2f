//! Surface arrays (`suld.b.a1d/.a2d`, `sust.b.a1d/.a2d`; lowering in
//! compiler/src/lower/surf.rs, simulation in oracle/src/sim/exec/surf.rs)
//! against the PTX interpreter on sm_70, sm_75, sm_80, sm_86, sm_89 and
//! sm_90: outputs (buffers and surfaces) equal bit for bit, and where the
//! interpreter faults (a layer outside the array, in every mode; `.trap`
//! out of bounds) the simulator faults too.
//!
//! Domains: every `.bN x vK` shape up to 16 bytes, the modes `.clamp`,
//! `.zero`, `.trap`; layers 0 and the last, x (bytes) and y at the edges
//! and outside (not for `.trap`), plus seeded random in-range items; the
//! handle a kernel parameter (slot / uniform forms) or chosen per lane
//! between two surfaces (register form, sm_90 handle loop). `sured.b` has
//! no array geometry: the lowering refuses it as ptxas does.
//!
//! The last test runs ptxas 11.8's own listings of surf_array2
//! (oracle/tests/surf_vendor/surf_array2.sm_XX.sass) in the simulator
//! against the interpreter.

mod pair_run;
mod seq_harness;
mod surf_common;
use oracle::commands::sim::run_sass;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, RunLimits};
use oracle::sim::SimInputs;
use pair_run::{agree, case, finish, interp, lowered, ARCHS};
use seq_harness::Rng;
use surf_common::{bits_json, SHAPES};

/// Row of W u32 elements (32 bytes: a multiple of every access size), H
/// rows, L layers.
const W: i64 = 8;
const H: i64 = 3;
const L: i64 = 3;

/// Items `[index, x_bytes, y, 0]` for an access of `size` bytes on a
/// geometry of `g` dimensions; `inside`: x and y in bounds only.
fn items(g: usize, size: i64, inside: bool, seed: u64) -> Vec<[i32; 4]> {
    let row = W * 4;
    let mut xs = vec![0, size, row - size];
    let mut ys = vec![0, H - 1];
    if !inside {
        xs.extend([-size, row, 4 * row, i32::MIN as i64]);
        ys.extend([-1, H, 1000]);
    }
    if g == 1 {
        ys = vec![0];
    }
    let mut out = Vec::new();
    for layer in [0, L - 1] {
        for &x in &xs {
            for &y in &ys {
                out.push([layer as i32, x as i32, y as i32, 0]);
            }
        }
    }
    let mut rng = Rng(seed);
    for _ in 0..16 {
        let layer = (rng.next() % L as u64) as i32;
        let x = ((rng.next() % (row / size) as u64) as i64 * size) as i32;
        let y = if g == 2 {
            (rng.next() % H as u64) as i32
        } else {
            0
        };
        out.push([layer, x, y, 0]);
    }
    out
}

/// Surfaces `sa`, `sb` (u32, `L` layers of W or W x H, random), the item
/// buffer, values (u64 per element), outputs (u64 per element), the count;
/// `threads` lanes share the items (1 for stores: clamped items may meet,
/// and two lanes storing to one place race).
fn launch(g: usize, items: &[[i32; 4]], n_elems: usize, threads: usize, seed: u64) -> LaunchSpec {
    let mut rng = Rng(seed);
    let dims = if g == 1 { vec![W] } else { vec![W, H] };
    let cells: i64 = dims.iter().product::<i64>() * L;
    let sa: Vec<u64> = (0..cells).map(|_| rng.next() & 0xffff_ffff).collect();
    let sb: Vec<u64> = (0..cells).map(|_| rng.next() & 0xffff_ffff).collect();
    let crd: Vec<u64> = items
        .iter()
        .flatten()
        .map(|&c| u64::from(c as u32))
        .collect();
    let nv = items.len() * n_elems;
    let vals: Vec<u64> = (0..nv).map(|_| rng.next()).collect();
    let dims_s: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
    let json = format!(
        r#"{{"kernel": "k", "grid": [1], "block": [{threads}],
  "params": [{{"surface": "sa"}}, {{"surface": "sb"}}, {{"buffer": "crd"}}, {{"buffer": "val"}}, {{"buffer": "out"}}, {{"u32": {n}}}],
  "buffers": {{"crd": {{"type": "u32", "len": {nc}, "init": {{"bits": {crd}}}}},
    "val": {{"type": "u64", "len": {nv}, "init": {{"bits": {vals}}}}},
    "out": {{"type": "u64", "len": {nv}}}}},
  "surfaces": {{"sa": {{"type": "u32", "dims": [{dims}], "layers": {L}, "init": {{"bits": {sa}}}}},
    "sb": {{"type": "u32", "dims": [{dims}], "layers": {L}, "init": {{"bits": {sb}}}}}}}}}"#,
        n = items.len(),
        nc = crd.len(),
        crd = bits_json(&crd, 32),
        vals = bits_json(&vals, 64),
        dims = dims_s.join(", "),
        sa = bits_json(&sa, 32),
        sb = bits_json(&sb, 32),
    );
    LaunchSpec::from_json_str(&json, std::path::Path::new("."))
        .unwrap_or_else(|e| panic!("{e}\n{json}"))
}

/// A kernel: threads stride over the items; item i's coordinates are
/// `crd[4i..4i+4]` (index, x, y), its values `val[i*n + k]`, its loaded
/// values go to `out[i*n + k]`. `store`: sust (else suld); `divergent`:
/// odd items use `sb`, the others `sa`.
fn kernel(store: bool, g: usize, bits: u32, n: usize, mode: &str, divergent: bool) -> String {
    let geom = ["a1d", "a2d"][g - 1];
    let c = ["{%r10, %r11}", "{%r10, %r11, %r12, %r13}"][g - 1];
    let handle = if divergent { "%rd6" } else { "%rd1" };
    let rc = match bits {
        8 | 16 => "%h",
        32 => "%r",
        _ => "%rd",
    };
    let elem = |k: usize| format!("{rc}{}", 20 + k);
    let data = if n == 1 {
        elem(0)
    } else {
        format!("{{{}}}", (0..n).map(elem).collect::<Vec<_>>().join(", "))
    };
    let vec = if n == 1 {
        String::new()
    } else {
        format!(".v{n}")
    };
    let ld_ty = match bits {
        8 => "u8",
        16 => "u16",
        32 => "u32",
        _ => "u64",
    };
    let addr = |k: usize, base: &str| {
        format!("mad.lo.u32 %r5, %r2, {n}, {k}; mul.wide.u32 %rd9, %r5, 8; add.s64 %rd10, {base}, %rd9;\n")
    };
    let mut body = String::new();
    if store {
        for k in 0..n {
            body.push_str(&addr(k, "%rd4"));
            body.push_str(&format!("ld.global.{ld_ty} {}, [%rd10];\n", elem(k)));
        }
        body.push_str(&format!(
            "sust.b.{geom}{vec}.b{bits}.{mode} [{handle}, {c}], {data};\n"
        ));
    } else {
        body.push_str(&format!(
            "suld.b.{geom}{vec}.b{bits}.{mode} {data}, [{handle}, {c}];\n"
        ));
        for k in 0..n {
            body.push_str(&addr(k, "%rd5"));
            let cvt = match bits {
                8 | 16 => format!("cvt.u64.u16 %rd11, {};", elem(k)),
                32 => format!("cvt.u64.u32 %rd11, {};", elem(k)),
                _ => format!("mov.b64 %rd11, {};", elem(k)),
            };
            body.push_str(&format!("{cvt} st.global.u64 [%rd10], %rd11;\n"));
        }
    }
    let pick = if divergent {
        "and.b32 %r4, %r2, 1; setp.eq.u32 %p1, %r4, 1; selp.b64 %rd6, %rd2, %rd1, %p1;\n"
    } else {
        ""
    };
    surf_common::loop_kernel(pick, &body)
}

fn every_shape_and_mode(store: bool, divergent: bool) {
    let mut fails = Vec::new();
    let mut total = 0;
    for g in 1..=2 {
        for (bits, n) in SHAPES {
            let size = i64::from(bits / 8) * n as i64;
            for mode in ["clamp", "zero", "trap"] {
                let it = items(g, size, mode == "trap", 5 + g as u64 * 13 + size as u64);
                let threads = if store { 1 } else { 32 };
                let spec = launch(g, &it, n, threads, 40 + bits as u64 + n as u64);
                let src = kernel(store, g, bits, n, mode, divergent);
                let op = if store { "sust" } else { "suld" };
                let what = format!("{op}.b.a{g}d.v{n}.b{bits}.{mode} (divergent: {divergent})");
                case(&src, &spec, false, &what, &mut fails);
                total += ARCHS.len();
            }
        }
    }
    finish(fails, total);
}

#[test]
fn suld_arrays_every_shape_and_mode() {
    every_shape_and_mode(false, false);
}

#[test]
fn sust_arrays_every_shape_and_mode() {
    every_shape_and_mode(true, false);
}

#[test]
fn suld_and_sust_arrays_with_divergent_handles() {
    let mut fails = Vec::new();
    let mut total = 0;
    for store in [false, true] {
        for g in 1..=2 {
            for (bits, n) in [(32, 1), (16, 2), (64, 2)] {
                let size = i64::from(bits / 8) * n as i64;
                let it = items(g, size, false, 99 + g as u64);
                let spec = launch(g, &it, n, if store { 1 } else { 32 }, 7);
                let src = kernel(store, g, bits, n, "clamp", true);
                case(
                    &src,
                    &spec,
                    false,
                    &format!("a{g}d b{bits} v{n} store {store}"),
                    &mut fails,
                );
                total += ARCHS.len();
            }
        }
    }
    finish(fails, total);
}

/// A layer at or past the count (L, L + 7, 0xffffffff) stops both runners
/// in every mode (the interpreter's rule, semantics/surface.rs); so does
/// `.trap` on x or y out of bounds.
#[test]
fn layers_out_of_range_and_trap_fault_in_both_runners() {
    let mut fails = Vec::new();
    let mut total = 0;
    for store in [false, true] {
        for g in 1..=2 {
            for mode in ["clamp", "zero", "trap"] {
                for bad in [L as i32, L as i32 + 7, -1] {
                    let mut it = items(g, 4, true, 3);
                    it[5][0] = bad;
                    let spec = launch(g, &it, 1, if store { 1 } else { 32 }, 11);
                    let src = kernel(store, g, 32, 1, mode, false);
                    case(
                        &src,
                        &spec,
                        true,
                        &format!("layer {bad} a{g}d {mode} store {store}"),
                        &mut fails,
                    );
                    total += ARCHS.len();
                }
            }
            // .trap: x one row past the end, then y past the last row.
            for k in [1usize, 2] {
                if k == 2 && g == 1 {
                    continue;
                }
                let mut it = items(g, 4, true, 4);
                it[3][k] = if k == 1 { (W * 4) as i32 } else { H as i32 };
                let spec = launch(g, &it, 1, if store { 1 } else { 32 }, 12);
                let src = kernel(store, g, 32, 1, "trap", false);
                case(
                    &src,
                    &spec,
                    true,
                    &format!("trap coordinate {k} a{g}d"),
                    &mut fails,
                );
                total += ARCHS.len();
            }
        }
    }
    finish(fails, total);
}

/// The layer lands where the interpreter puts it: a store to layer 1 only
/// (the other layers keep their values) — the simulator's surface equals
/// the interpreter's, and differs from the initial contents in layer 1
/// alone.
#[test]
fn a_store_changes_its_layer_only() {
    let it: Vec<[i32; 4]> = (0..W as i32).map(|x| [1, 4 * x, 2, 0]).collect();
    let spec = launch(2, &it, 1, 8, 17);
    let src = kernel(true, 2, 32, 1, "trap", false);
    let want = interp(&src, &spec);
    for arch in ARCHS {
        let got = lowered(&src, &spec, arch).unwrap();
        if let Some(d) = agree(&want, &got, false) {
            panic!("{arch}: {d}");
        }
    }
    // Layer 1, row 2 of `sa` changed; layers 0 and 2 did not: compare with
    // a run that stores nothing (n = 0 items).
    let none = launch(2, &[], 1, 8, 17);
    let base = interp(&src, &none);
    let sa = &want
        .outputs
        .get("sa")
        .expect("surface sa is an output")
        .bits;
    let sa0 = &base.outputs.get("sa").unwrap().bits;
    let plane = (W * H) as usize;
    for (k, (a, b)) in sa.iter().zip(sa0).enumerate() {
        let (layer, row) = (k / plane, (k % plane) / W as usize);
        assert_eq!(
            a != b,
            layer == 1 && row == 2,
            "sa[{k}] (layer {layer}, row {row}): {a:#x} vs {b:#x}"
        );
    }
}

/// `sured.b` on an array: refused by the lowering (ptxas: "Illegal
/// modifier '.a1d' for instruction 'sured.b'"), a fault in the interpreter.
#[test]
fn sured_on_arrays_is_refused() {
    for (geom, c) in [("a1d", "{%r10, %r11}"), ("a2d", "{%r10, %r11, %r12, %r13}")] {
        let src = kernel(true, 1, 32, 1, "trap", false).replace(
            "sust.b.a1d.b32.trap [%rd1, {%r10, %r11}], %r20;",
            &format!("sured.b.add.{geom}.u32.trap [%rd1, {c}], %r20;"),
        );
        assert!(src.contains("sured"));
        let spec = launch(1, &items(1, 4, true, 1), 1, 1, 1);
        let want = interp(&src, &spec);
        assert!(
            matches!(&want.outcome, Outcome::Fault { message, .. } if message.contains("sured has no array geometry")),
            "{:?}",
            want.outcome
        );
        for arch in ARCHS {
            let e = lowered(&src, &spec, arch).expect_err("refused");
            assert!(e.contains("sured.b has no array geometry"), "{arch}: {e}");
        }
    }
}

/// ptxas 11.8's listings of surf_array2 (`suld.b.a1d.b32.trap`,
/// `sust.b.a1d.b32.clamp` on the 1D array `s1`, `suld.b.a2d.v2.b32.zero`,
/// `sust.b.a2d.v4.b16.trap` on the 2D array `s2`, both parameter handles:
/// the slot form below sm_90, `ULDC` + `UR4, 0x0` on sm_90) in the
/// simulator against the interpreter, and the compiler's lowering of the
/// same PTX; x, y and the layer are parameters, so each case also checks
/// where the layer goes (`[x, (y), layer]`). The last case's layer is
/// past the end: both runners fault.
#[test]
fn vendor_surf_array2_runs_in_the_simulator() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/surf_vendor");
    let src = std::fs::read_to_string(dir.join("surf_array2.ptx")).unwrap();
    let mut rng = Rng(5);
    let mut random = |n: i64| -> String {
        (0..n)
            .map(|_| format!("\"0x{:08x}\"", rng.next() & 0xffff_ffff))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (s1, s2) = (random(W * L), random(W * H * L));
    // (x bytes, y, layer): x 8-byte aligned for the .v2 load.
    for (x, y, layer, fault) in [
        (8u32, 1u32, 2u32, false),
        (16, 2, 0, false),
        (0, 0, 1, false),
        (24, 1, 1, false),
        (8, 1, L as u32, true),
    ] {
        let json = format!(
            r#"{{"kernel": "surf_array2", "grid": [1], "block": [1],
      "params": [{{"surface": "s1"}}, {{"buffer": "out"}}, {{"u32": {x}}}, {{"u32": {y}}}, {{"u32": {layer}}}, {{"surface": "s2"}}],
      "buffers": {{"out": {{"type": "u32", "len": 1}}}},
      "surfaces": {{"s1": {{"type": "u32", "dims": [{W}], "layers": {L}, "init": {{"bits": [{s1}]}}}},
                   "s2": {{"type": "u32", "dims": [{W}, {H}], "layers": {L}, "init": {{"bits": [{s2}]}}}}}}}}"#
        );
        let spec = LaunchSpec::from_json_str(&json, std::path::Path::new(".")).unwrap();
        let want = interp(&src, &spec);
        if !fault {
            assert_eq!(
                want.outcome,
                Outcome::Completed,
                "x {x} y {y} layer {layer}"
            );
            assert_ne!(want.outputs.get("out").unwrap().bits[0], 0);
        }
        for arch in ARCHS {
            let text =
                std::fs::read_to_string(dir.join(format!("surf_array2.{arch}.sass"))).unwrap();
            let got = run_sass(
                &spec,
                &text,
                "surf_array2",
                arch,
                None,
                &SimInputs::default(),
                &RunLimits::default(),
            )
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
            if let Some(d) = agree(&want, &got, fault) {
                panic!("vendor surf_array2 on {arch}, layer {layer}: {d}");
            }
            let ours = lowered(&src, &spec, arch).unwrap();
            if let Some(d) = agree(&want, &ours, fault) {
                panic!("lowered surf_array2 on {arch}, layer {layer}: {d}");
            }
        }
    }
}

/// Array accesses after the whole `-O3` phase plan: the coordinate groups
/// (two registers for `.1D_ARRAY`, three for `.2D_ARRAY`) hold through
/// register allocation; loads and stores keep their order.
#[test]
fn arrays_after_the_full_pipeline() {
    let mut fails = Vec::new();
    let mut total = 0;
    for g in 1..=2 {
        for (store, bits, n) in [(false, 32, 2), (true, 16, 4), (false, 64, 2), (true, 32, 1)] {
            let size = i64::from(bits / 8) * n as i64;
            let it = items(g, size, false, 71 + g as u64);
            let spec = launch(g, &it, n, if store { 1 } else { 32 }, 9);
            let src = kernel(store, g, bits, n, "clamp", g == 2);
            let want = interp(&src, &spec);
            for arch in ARCHS {
                total += 1;
                match pair_run::lowered_o3(&src, &spec, arch) {
                    Err(e) => fails.push(format!("a{g}d store {store} on {arch}: {e}")),
                    Ok(got) => {
                        if let Some(d) = agree(&want, &got, false) {
                            fails.push(format!("a{g}d store {store} b{bits} on {arch}: {d}"));
                        }
                    }
                }
            }
        }
    }
    finish(fails, total);
}
