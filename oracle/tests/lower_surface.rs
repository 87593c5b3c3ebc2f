//! The lowering of the surface instructions (compiler/src/lower/surf.rs)
//! executed in the SASS simulator (oracle/src/sim/exec/surf.rs) against
//! the PTX interpreter, on sm_70, sm_75, sm_80, sm_86, sm_89 and sm_90:
//! every output (buffers and the surfaces themselves, which are launch
//! outputs) must agree bit for bit, and where the interpreter stops
//! (`.trap` out of bounds) the simulator must stop too.
//!
//! Domains: `suld.b` / `sust.b` on 1d, 2d and 3d surfaces for `.b8`,
//! `.b16`, `.b32`, `.b64` scalars and `.v2`/`.v4` vectors up to 16 bytes,
//! in the `.clamp`, `.zero` and `.trap` modes; `sured.b` for every
//! operation the lowering takes; `suq.width/height/depth`. The surfaces
//! hold seeded random words; the coordinates are the edges of each
//! dimension (first, last, just outside on both sides, far outside, the
//! most negative multiple of the access size) crossed with each other,
//! plus seeded random in-range ones. The handle is a kernel parameter (the
//! slot / uniform forms) or, in the "divergent" variants, one of two
//! surfaces chosen per lane (the register form below sm_90, the handle
//! loop on sm_90).
//!
//! The last test runs ptxas 11.8's own SASS of `surf_copy`
//! (oracle/tests/surf_vendor/, listings made with `ptxas -arch=sm_XX -O3`
//! and `cuobjdump -sass`) in the simulator against the interpreter.

mod pair_run;
mod seq_harness;
mod surf_common;
use oracle::commands::sim::run_sass;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, RunLimits};
use oracle::sim::SimInputs;
use pair_run::{agree, case, finish, interp, lowered, ARCHS};
use ptxc::lower::{lower_module, LowerOptions};
use seq_harness::Rng;
use surf_common::{bits_json, SHAPES};

/// Surface element width in u32 elements; rows are 32 bytes, a multiple
/// of every access size (so `.clamp` is defined at every size).
const W: i64 = 8;
const H: i64 = 3;
const D: i64 = 2;

fn dims_of(g: usize) -> Vec<i64> {
    [W, H, D][..g].to_vec()
}

/// Coordinate tuples `[x_bytes, y, z, 0]` for an access of `size` bytes;
/// `inside`: only in-bounds ones.
fn coords(g: usize, size: i64, inside: bool, seed: u64) -> Vec<[i32; 4]> {
    let row = W * 4;
    let xs_in = [0, size, row - size];
    let xs_out = [-size, row, 4 * row, -(1 << 20) * size, i32::MIN as i64];
    let edges =
        |n: i64| -> (Vec<i64>, Vec<i64>) { (vec![0, n - 1], vec![-1, n, 1000, i32::MIN as i64]) };
    let mut per_dim: Vec<Vec<i64>> = Vec::new();
    let mut xs: Vec<i64> = xs_in.to_vec();
    if !inside {
        xs.extend(xs_out);
    }
    per_dim.push(xs);
    for &n in &[H, D][..g - 1] {
        let (i, o) = edges(n);
        let mut v = i;
        if !inside {
            v.extend(o);
        }
        per_dim.push(v);
    }
    let mut out: Vec<[i32; 4]> = vec![[0; 4]];
    for (k, vals) in per_dim.iter().enumerate() {
        let mut next = Vec::new();
        for t in &out {
            for &v in vals {
                let mut u = *t;
                u[k] = v as i32;
                next.push(u);
            }
        }
        out = next;
    }
    let mut rng = Rng(seed);
    let dims = dims_of(g);
    for _ in 0..24 {
        let mut t = [0i32; 4];
        t[0] = ((rng.next() % (row / size) as u64) as i64 * size) as i32;
        for k in 1..g {
            t[k] = (rng.next() % dims[k] as u64) as i32;
        }
        out.push(t);
    }
    out
}

/// The launch: surfaces `sa`, `sb` (u32, dims by geometry, random), the
/// coordinate buffer, a value buffer (u64 per element), an output buffer
/// (u64 per element), the item count.
fn launch(g: usize, items: &[[i32; 4]], n_elems: usize, threads: usize, seed: u64) -> LaunchSpec {
    let mut rng = Rng(seed);
    let dims = dims_of(g);
    let cells: i64 = dims.iter().product();
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
  "surfaces": {{"sa": {{"type": "u32", "dims": [{dims}], "init": {{"bits": {sa}}}}},
    "sb": {{"type": "u32", "dims": [{dims}], "init": {{"bits": {sb}}}}}}}}}"#,
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

/// The PTX register class and load/store spelling of a `.bN` element.
fn reg_of(bits: u32) -> (&'static str, &'static str) {
    match bits {
        8 | 16 => ("%h", "b16"),
        32 => ("%r", "b32"),
        _ => ("%rd", "b64"),
    }
}

/// What one kernel does with the item's coordinates.
#[derive(Clone, Copy, Debug)]
enum Access {
    Ld,
    St,
    /// sured: operation and type
    Red(&'static str, &'static str),
}

/// A kernel: threads stride over the items; item i's coordinates are
/// `crd[4i..4i+4]`, its values `val[i*n + k]`, its loaded values go to
/// `out[i*n + k]`.
fn kernel(acc: Access, g: usize, bits: u32, n: usize, mode: &str, divergent: bool) -> String {
    kernel_g(acc, g, bits, n, mode, divergent, false)
}

/// [`kernel`]; `guarded`: the surface instruction runs under `@%p3`
/// (odd items only); loaded elements start at 0.
fn kernel_g(
    acc: Access,
    g: usize,
    bits: u32,
    n: usize,
    mode: &str,
    divergent: bool,
    guarded: bool,
) -> String {
    let gd = if guarded { "@%p3 " } else { "" };
    let geom = ["1d", "2d", "3d"][g - 1];
    let c = ["{%r10}", "{%r10, %r11}", "{%r10, %r11, %r12, %r13}"][g - 1];
    let handle = if divergent { "%rd6" } else { "%rd1" };
    let (rc, _) = reg_of(bits);
    let elem = |k: usize| format!("{rc}{}", 20 + k);
    let data = if n == 1 {
        elem(0)
    } else {
        format!("{{{}}}", (0..n).map(elem).collect::<Vec<_>>().join(", "))
    };
    let vec = match n {
        1 => String::new(),
        k => format!(".v{k}"),
    };
    let ld_ty = match bits {
        8 => "u8",
        16 => "u16",
        32 => "u32",
        _ => "u64",
    };
    let mut body = String::new();
    // value addresses: val + (i*n + k)*8
    let addr = |k: usize, base: &str| {
        format!("mad.lo.u32 %r5, %r2, {n}, {k}; mul.wide.u32 %rd9, %r5, 8; add.s64 %rd10, {base}, %rd9;\n")
    };
    match acc {
        Access::Ld => {
            if guarded {
                let z = match bits {
                    64 => "mov.b64",
                    32 => "mov.b32",
                    _ => "mov.b16",
                };
                for k in 0..n {
                    body.push_str(&format!("{z} {}, 0;\n", elem(k)));
                }
            }
            body.push_str(&format!(
                "{gd}suld.b.{geom}{vec}.b{bits}.{mode} {data}, [{handle}, {c}];\n"
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
        Access::St => {
            for k in 0..n {
                body.push_str(&addr(k, "%rd4"));
                body.push_str(&format!("ld.global.{ld_ty} {}, [%rd10];\n", elem(k)));
            }
            body.push_str(&format!(
                "{gd}sust.b.{geom}{vec}.b{bits}.{mode} [{handle}, {c}], {data};\n"
            ));
        }
        Access::Red(op, ty) => {
            body.push_str(&addr(0, "%rd4"));
            body.push_str(&format!("ld.global.{ld_ty} {}, [%rd10];\n", elem(0)));
            body.push_str(&format!(
                "{gd}sured.b.{op}.{geom}.{ty}.{mode} [{handle}, {c}], {};\n",
                elem(0)
            ));
        }
    }
    let mut pick = String::from(if divergent {
        "and.b32 %r4, %r2, 1; setp.eq.u32 %p1, %r4, 1; selp.b64 %rd6, %rd2, %rd1, %p1;\n"
    } else {
        ""
    });
    if guarded {
        // Odd items, crossed with the handle choice (tid & 1) by bit 1.
        pick.push_str("and.b32 %r6, %r2, 2; setp.eq.u32 %p3, %r6, 2;\n");
    }
    surf_common::loop_kernel(&pick, &body)
}

/// Every shape of `SHAPES` in every mode on 1d/2d/3d surfaces, lowered
/// and simulated against the interpreter; `threads` lanes share the items,
/// `seeds(g, size, bits, n)` gives the coordinate and data seeds.
fn all_shapes_modes_and_geometries(
    acc: Access,
    name: &str,
    threads: usize,
    seeds: impl Fn(u64, u64, u64, u64) -> (u64, u64),
) {
    let mut fails = Vec::new();
    let mut total = 0;
    for g in 1..=3 {
        for (bits, n) in SHAPES {
            let size = i64::from(bits / 8) * n as i64;
            let (coord_seed, data_seed) = seeds(g as u64, size as u64, bits as u64, n as u64);
            for mode in ["clamp", "zero", "trap"] {
                let inside = mode == "trap";
                let items = coords(g, size, inside, coord_seed);
                let spec = launch(g, &items, n, threads, data_seed);
                let src = kernel(acc, g, bits, n, mode, false);
                let what = format!("{name}.b.{g}d.v{n}.b{bits}.{mode}");
                case(&src, &spec, false, &what, &mut fails);
                total += 1;
            }
        }
    }
    finish(fails, total * ARCHS.len());
}

#[test]
fn suld_all_shapes_modes_and_geometries() {
    all_shapes_modes_and_geometries(Access::Ld, "suld", 64, |g, size, bits, n| {
        (7 + g * 31 + size, 100 + bits + n)
    });
}

#[test]
fn suld_and_sust_trap_out_of_bounds_stop_both_runners() {
    let mut fails = Vec::new();
    let mut total = 0;
    for g in 1..=3 {
        for (acc, name) in [(Access::Ld, "suld"), (Access::St, "sust")] {
            // One in-bounds item, then one just past the row's end.
            let items = vec![[0, 0, 0, 0], [(W * 4) as i32, 0, 0, 0]];
            let spec = launch(g, &items, 1, 1, 5);
            let src = kernel(acc, g, 32, 1, "trap", false);
            case(
                &src,
                &spec,
                true,
                &format!("{name}.{g}d.trap out of bounds"),
                &mut fails,
            );
            total += 1;
        }
    }
    finish(fails, total * ARCHS.len());
}

#[test]
fn sust_all_shapes_modes_and_geometries() {
    // One thread walks every item in order (out-of-bounds stores land on,
    // or are dropped at, edge locations that other items also write: one
    // thread keeps that race-free).
    all_shapes_modes_and_geometries(Access::St, "sust", 1, |g, size, bits, n| {
        (11 + g * 7 + size, 300 + bits + n)
    });
}

/// Distinct in-bounds locations, one per lane, the lanes choosing between
/// two surfaces (the register form and the sm_90 handle loop), with and
/// without a guard predicate that differs from the handle choice.
#[test]
fn sust_and_suld_with_divergent_handles() {
    let mut fails = Vec::new();
    let mut total = 0;
    for g in 1..=3 {
        for (bits, n) in [(32, 1), (32, 4), (8, 2), (64, 1)] {
            let size = i64::from(bits / 8) * n as i64;
            let dims = dims_of(g);
            let mut items = Vec::new();
            let per_row = (W * 4) / size;
            'all: for z in 0..*dims.get(2).unwrap_or(&1) {
                for y in 0..*dims.get(1).unwrap_or(&1) {
                    for x in 0..per_row {
                        items.push([(x * size) as i32, y as i32, z as i32, 0]);
                        if items.len() == 48 {
                            break 'all;
                        }
                    }
                }
            }
            let spec = launch(g, &items, n, items.len(), 40 + size as u64);
            for acc in [Access::St, Access::Ld] {
                let src = kernel(acc, g, bits, n, "trap", true);
                case(
                    &src,
                    &spec,
                    false,
                    &format!("{acc:?} divergent {g}d v{n}.b{bits}"),
                    &mut fails,
                );
                total += 1;
            }
        }
    }
    finish(fails, total * ARCHS.len());
}

#[test]
fn sured_operations_modes_and_geometries() {
    let ops: [(&str, &str, u32); 9] = [
        ("add", "u32", 32),
        ("add", "s32", 32),
        ("add", "u64", 64),
        ("min", "u32", 32),
        ("min", "s32", 32),
        ("max", "u32", 32),
        ("max", "s32", 32),
        ("and", "b32", 32),
        ("or", "b32", 32),
    ];
    let mut fails = Vec::new();
    let mut total = 0;
    for g in 1..=3 {
        for (op, ty, bits) in ops {
            for mode in ["clamp", "zero", "trap"] {
                for divergent in [false, true] {
                    let size = i64::from(bits / 8);
                    let inside = mode == "trap";
                    let items = coords(g, size, inside, 3 + g as u64 + size as u64);
                    let spec = launch(g, &items, 1, 64, 500 + total as u64);
                    let src = kernel(Access::Red(op, ty), g, bits, 1, mode, divergent);
                    let what = format!("sured.b.{op}.{g}d.{ty}.{mode} divergent={divergent}");
                    case(&src, &spec, false, &what, &mut fails);
                    total += 1;
                }
            }
        }
    }
    finish(fails, total * ARCHS.len());
}

#[test]
fn suq_width_height_depth() {
    let mut fails = Vec::new();
    let mut total = 0;
    for g in 1..=3 {
        for divergent in [false, true] {
            let handle = if divergent { "%rd6" } else { "%rd1" };
            let pick = if divergent {
                "and.b32 %r4, %r2, 1; setp.eq.u32 %p1, %r4, 1; selp.b64 %rd6, %rd2, %rd1, %p1;"
            } else {
                ""
            };
            let src = format!(
                r#".version 7.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 sa, .param .u64 sb, .param .u64 crd, .param .u64 val, .param .u64 out, .param .u32 n)
{{
.reg .b32 %r<20>; .reg .b64 %rd<20>; .reg .pred %p<2>;
ld.param.u64 %rd1, [sa]; ld.param.u64 %rd2, [sb]; ld.param.u64 %rd5, [out];
mov.u32 %r2, %tid.x;
{pick}
suq.width.b32 %r5, [{handle}];
suq.height.b32 %r6, [{handle}];
suq.depth.b32 %r7, [{handle}];
mul.lo.u32 %r8, %r2, 3;
mul.wide.u32 %rd7, %r8, 8; add.s64 %rd8, %rd5, %rd7;
cvt.u64.u32 %rd9, %r5; st.global.u64 [%rd8], %rd9;
cvt.u64.u32 %rd9, %r6; st.global.u64 [%rd8+8], %rd9;
cvt.u64.u32 %rd9, %r7; st.global.u64 [%rd8+16], %rd9;
ret;
}}
"#
            );
            let items = vec![[0; 4]; 4];
            let spec = launch(g, &items, 3, 4, 9);
            let want = interp(&src, &spec);
            // The interpreter's own answer: the surface's dimensions, 0
            // past them (the rule in semantics/surface.rs, PTX ISA 9.7.11.4).
            let out = want.outputs.get("out").unwrap();
            let dims = dims_of(g);
            for t in 0..4 {
                for k in 0..3 {
                    let e = dims.get(k).map_or(0, |&d| d as u64);
                    assert_eq!(out.bits[t * 3 + k], e, "interpreter suq {g}d");
                }
            }
            for arch in ARCHS {
                match lowered(&src, &spec, arch) {
                    Err(e) => fails.push(format!("suq {g}d on {arch}: {e}")),
                    Ok(got) => {
                        if let Some(d) = agree(&want, &got, false) {
                            fails.push(format!("suq {g}d divergent={divergent} on {arch}: {d}"));
                        }
                    }
                }
                total += 1;
            }
        }
    }
    finish(fails, total);
}

/// What the lowering refuses, with a message naming the instruction.
#[test]
fn refusals_name_the_instruction() {
    let cases = [
        (
            "suld.b.1d.v4.b64.trap {%rd20, %rd21, %rd22, %rd23}, [%rd1, {%r10}];",
            "16 bytes",
        ),
        (
            "sured.b.add.a1d.u32.trap [%rd1, {%r10, %r11}], %r20;",
            "sured.b has no array geometry",
        ),
        ("sured.b.max.1d.u64.trap [%rd1, {%r10}], %rd20;", "sured.b"),
        ("suq.memory_layout.b32 %r20, [%rd1];", "suq.memory_layout"),
    ];
    for (inst, want) in cases {
        let src = format!(
            r#".version 7.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 sa)
{{
.reg .b32 %r<40>; .reg .b64 %rd<40>;
ld.param.u64 %rd1, [sa];
mov.u32 %r10, 0; mov.u32 %r11, 0;
{inst}
ret;
}}
"#
        );
        let m =
            ptxc::ptx::parse_checked("surf", &src).unwrap_or_else(|e| panic!("parse {inst}: {e}"));
        for arch in ["sm_70", "sm_90"] {
            let sm = ptxc::targets::lookup_sm(arch).unwrap();
            let e = match lower_module(&m, sm, &LowerOptions::default()) {
                Ok(_) => panic!("{inst} was lowered on {arch}"),
                Err(e) => e.to_string(),
            };
            assert!(e.contains(want), "{inst} on {arch}: {e}");
        }
    }
}

/// ptxas 11.8's SASS of surf_copy (slot form; TXQ for suq) in the
/// simulator against the interpreter. On sm_90 ptxas reads suq's answer
/// from the driver's surface information table (`LDC.64 R2,
/// c[0x0][0x100]` + `LDG.E.CONSTANT`, the row size a relocation:
/// surf_copy.sm_90.banks.json), which the simulator builds
/// (oracle/src/sim/resinfo.rs); the kernel without suq (surf_copy_nq) runs
/// there too.
#[test]
fn vendor_surf_copy_runs_in_the_simulator() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/surf_vendor");
    let src = std::fs::read_to_string(dir.join("surf_copy.ptx")).unwrap();
    let json = r#"{"kernel": "surf_copy", "grid": [1], "block": [8, 4],
      "params": [{"surface": "src"}, {"surface": "dst"}, {"surface": "acc"}, {"buffer": "out"}],
      "buffers": {"out": {"type": "u32", "len": 32}},
      "surfaces": {"src": {"type": "u32", "dims": [8, 4], "init": {"iota": {"start": 1000, "step": 77}}},
                   "dst": {"type": "u32", "dims": [8, 4]},
                   "acc": {"type": "u32", "dims": [2], "init": {"iota": {"start": 5, "step": 1}}}}}"#;
    let spec = LaunchSpec::from_json_str(json, std::path::Path::new(".")).unwrap();
    let want = interp(&src, &spec);
    assert_eq!(want.outcome, Outcome::Completed);
    // The interpreter's outputs are not trivial: dst received src + the
    // clamped pair's first word, acc the sums.
    assert!(want
        .outputs
        .get("dst")
        .unwrap()
        .bits
        .iter()
        .any(|&b| b != 0));
    for arch in ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"] {
        let text = std::fs::read_to_string(dir.join(format!("surf_copy.{arch}.sass"))).unwrap();
        let inputs =
            SimInputs::from_banks_file(&dir.join(format!("surf_copy.{arch}.banks.json"))).unwrap();
        let got = run_sass(
            &spec,
            &text,
            "surf_copy",
            arch,
            None,
            &inputs,
            &RunLimits::default(),
        )
        .unwrap_or_else(|e| panic!("{arch}: {e}"));
        if let Some(d) = agree(&want, &got, false) {
            panic!("vendor surf_copy on {arch}: {d}");
        }
        // And the compiler's lowering of the same kernel.
        let ours = lowered(&src, &spec, arch).unwrap();
        if let Some(d) = agree(&want, &ours, false) {
            panic!("lowered surf_copy on {arch}: {d}");
        }
    }
    // sm_90: surf_copy_nq, the same kernel with suq's answers as constants
    // (ULDC of the handle's low word + `SULD ..., UR4, 0x0`).
    let src = std::fs::read_to_string(dir.join("surf_copy_nq.ptx")).unwrap();
    let json = json.replace("\"surf_copy\"", "\"surf_copy_nq\"");
    let spec = LaunchSpec::from_json_str(&json, std::path::Path::new(".")).unwrap();
    let want_nq = interp(&src, &spec);
    // The constants are the dimensions suq gave: the outputs agree.
    assert_eq!(want_nq.outputs, want.outputs);
    let text = std::fs::read_to_string(dir.join("surf_copy_nq.sm_90.sass")).unwrap();
    let got = run_sass(
        &spec,
        &text,
        "surf_copy_nq",
        "sm_90",
        None,
        &SimInputs::default(),
        &RunLimits::default(),
    )
    .unwrap_or_else(|e| panic!("sm_90: {e}"));
    if let Some(d) = agree(&want_nq, &got, false) {
        panic!("vendor surf_copy_nq on sm_90: {d}");
    }
}

/// The lowered code after the whole `-O3` phase plan (scheduling,
/// register allocation, the optimizations): surface stores, reductions and
/// loads of the same location must keep their order, and the allocated
/// register groups must hold. One thread walks in-bounds items: store a
/// value, load it back, add to it, load a pair; store those as a `.v2.b64`
/// to the 16-byte aligned location of the other surface and load it back as
/// a `.v4.b32` (quads, 3D coordinate groups); all loads go to `out`.
#[test]
fn full_pipeline_keeps_surface_order() {
    let mut fails = Vec::new();
    let mut total = 0;
    for g in 1..=3 {
        let geom = ["1d", "2d", "3d"][g - 1];
        let c = ["{%r10}", "{%r10, %r11}", "{%r10, %r11, %r12, %r13}"][g - 1];
        let src = format!(
            r#".version 7.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 sa, .param .u64 sb, .param .u64 crd, .param .u64 val, .param .u64 out, .param .u32 n)
{{
.reg .b32 %r<40>; .reg .b64 %rd<40>; .reg .pred %p<4>;
ld.param.u64 %rd1, [sa]; ld.param.u64 %rd2, [sb]; ld.param.u64 %rd3, [crd]; ld.param.u64 %rd4, [val]; ld.param.u64 %rd5, [out];
ld.param.u32 %r1, [n];
mov.u32 %r2, 0;
LOOP:
setp.ge.u32 %p2, %r2, %r1;
@%p2 bra DONE;
mul.wide.u32 %rd7, %r2, 16; add.s64 %rd8, %rd3, %rd7;
ld.global.v4.u32 {{%r10, %r11, %r12, %r13}}, [%rd8];
mul.wide.u32 %rd9, %r2, 8; add.s64 %rd10, %rd4, %rd9;
ld.global.u32 %r20, [%rd10];
sust.b.{geom}.b32.trap [%rd1, {c}], %r20;
suld.b.{geom}.b32.trap %r21, [%rd1, {c}];
sured.b.add.{geom}.u32.trap [%rd1, {c}], %r21;
suld.b.{geom}.v2.b32.clamp {{%r22, %r23}}, [%rd1, {c}];
and.b32 %r10, %r10, -16;
mov.b64 %rd20, {{%r21, %r22}};
mov.b64 %rd21, {{%r23, %r20}};
sust.b.{geom}.v2.b64.trap [%rd2, {c}], {{%rd20, %rd21}};
suld.b.{geom}.v4.b32.zero {{%r24, %r25, %r26, %r27}}, [%rd2, {c}];
mul.wide.u32 %rd11, %r2, 32; add.s64 %rd12, %rd5, %rd11;
st.global.u32 [%rd12], %r21;
st.global.v2.u32 [%rd12+8], {{%r22, %r23}};
st.global.v4.u32 [%rd12+16], {{%r24, %r25, %r26, %r27}};
add.u32 %r2, %r2, 1;
bra LOOP;
DONE:
ret;
}}
"#
        );
        // 8-byte aligned in-bounds coordinates (the .v2 load).
        let items: Vec<[i32; 4]> = coords(g, 8, true, 77 + g as u64);
        let spec = launch(g, &items, 4, 1, 21);
        let want = interp(&src, &spec);
        let m = ptxc::ptx::parse_checked("surf", &src).unwrap();
        for arch in ARCHS {
            total += 1;
            let sm = ptxc::targets::lookup_sm(arch).unwrap();
            let ks = lower_module(&m, sm, &LowerOptions::default()).unwrap();
            let kern = ks.into_iter().find(|x| x.name == "k").unwrap();
            let phased = ptxc::phases::run(
                &ptxc::phases::Plan::default(),
                kern.function.clone(),
                Some(sm),
            )
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
            let f = phased.cx.function;
            ptxc::ir::verify(&f, Some(sm)).unwrap_or_else(|e| panic!("{arch}: invalid IR: {e}"));
            let got = oracle::sim::run(
                &f,
                sm,
                &spec,
                &SimInputs::from_lowered(&kern),
                &RunLimits::default(),
            )
            .unwrap_or_else(|e| panic!("{arch}: setup: {e}"));
            if let Some(d) = agree(&want, &got, false) {
                fails.push(format!("{geom} -O3 on {arch}: {d}"));
            }
        }
    }
    finish(fails, total);
}
