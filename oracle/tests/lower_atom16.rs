//! The 16-bit and packed-half atomics of compiler/src/lower/atom16.rs,
//! executed in the simulator against the PTX interpreter (the
//! `seq_harness` runner) on every target of the SM table.
//!
//! Each thread `i` applies one atomic to element `i` of a 16-bit buffer
//! `m` (global, shared or generic), so each half-word receives exactly one
//! operation and the result is deterministic; threads `2k` and `2k+1`
//! share a 32-bit word, so the CAS loop must retry when the neighbour's
//! half changed under it (the simulator runs a warp's CAS lanes one after
//! the other). Outputs: the returned old values `d` and the final `m`.
//!
//! Domains: all pairs of the f16/bf16 edge values (memory value, operand;
//! cas: the compare value equal to the memory value for every other
//! element), plus [`RANDOM`] seeded random inputs, on every target where
//! the form lowers; the others must refuse naming the target.

mod seq_harness;

use seq_harness::*;

const ALL: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];

const F16_EDGES: &[u64] = &[
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00,
    0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x4248, 0x3c01, 0x1400, 0x7800,
];

const BF16_EDGES: &[u64] = &[
    0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x3f80, 0xbf80, 0x7f7f, 0xff7f, 0x7f80, 0xff80,
    0x7fc0, 0xffc0, 0x7f81, 0x4049, 0x3f81, 0x3b80, 0x0100, 0x7f00,
];

/// The kernel: `body` reads `%b`, `%c`, the address `[%ma]` (`%ma` a
/// `.u64`, or `.u32` for shared) and writes `%d` (b16); `%v` holds the
/// memory element (shared: staged through `sm`).
fn kernel(space: &str, body: &str) -> String {
    kernel_w(space, body, 16)
}

/// [`kernel`] with `bits`-wide elements (16, or 32 for the packed forms).
fn kernel_w(space: &str, body: &str, bits: u32) -> String {
    let (stage_in, stage_out) = match space {
        "shared" => (
            "mov.u32 %sa, sm; mad.lo.u32 %sa, %tx, W, %sa; st.shared.bB [%sa], %v; bar.sync 0;",
            "bar.sync 0; ld.shared.bB %v, [%sa]; st.global.bB [%pm], %v;",
        ),
        _ => ("", ""),
    };
    let body = if space == "shared" {
        body.replace("[%ma]", "[%sa]")
    } else {
        body.replace("[%ma]", "[%pm]")
    };
    let text = format!(
        r#".version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u32 pn, .param .u64 pm_, .param .u64 pb_, .param .u64 pc_, .param .u64 pd_)
{{
.shared .align 4 .bB sm[256];
.reg .u32 %i, %n, %cx, %nx, %tx, %sa;
.reg .u64 %pm, %pb, %pc, %pd;
.reg .bB %v, %b, %c, %d;
.reg .pred %ex;
mov.u32 %cx, %ctaid.x;
mov.u32 %nx, %ntid.x;
mov.u32 %tx, %tid.x;
mad.lo.u32 %i, %cx, %nx, %tx;
ld.param.u32 %n, [pn];
ld.param.u64 %pm, [pm_]; mad.wide.u32 %pm, %i, W, %pm;
ld.param.u64 %pb, [pb_]; mad.wide.u32 %pb, %i, W, %pb;
ld.param.u64 %pc, [pc_]; mad.wide.u32 %pc, %i, W, %pc;
ld.param.u64 %pd, [pd_]; mad.wide.u32 %pd, %i, W, %pd;
ld.global.bB %v, [%pm]; ld.global.bB %b, [%pb]; ld.global.bB %c, [%pc];
mov.bB %d, 0;
{stage_in}
{body}
{stage_out}
st.global.bB [%pd], %d;
ret;
}}
"#
    );
    text.replace(" W,", &format!(" {},", bits / 8))
        .replace(".bB", &format!(".b{bits}"))
}

/// The launch: `m`, `b`, `c` initialised, `d` zeros; outputs `m` and `d`.
/// Element counts are multiples of the block size (no bounds check in the
/// kernel: every thread reaches `bar.sync`).
fn spec_w(m: &[u64], b: &[u64], c: &[u64], ty: ElemType) -> LaunchSpec {
    let n = m.len();
    assert_eq!(n % BLOCK as usize, 0);
    let buf = |name: &str, v: Option<&[u64]>| BufferSpec {
        name: name.into(),
        ty,
        len: n as u64,
        init: match v {
            Some(v) => Init::Bits(v.to_vec()),
            None => Init::Zeros,
        },
    };
    let mut params = vec![ParamValue::Scalar {
        ty: ElemType::U32,
        value: oracle::launch::Scalar::Int(n as i128),
    }];
    for name in ["m", "b", "c", "d"] {
        params.push(ParamValue::Buffer {
            name: name.into(),
            offset: 0,
        });
    }
    LaunchSpec {
        file: None,
        base_dir: ".".into(),
        ptx: None,
        kernel: "k".into(),
        grid_dims: vec![(n as u32) / BLOCK],
        block_dims: vec![BLOCK],
        params,
        buffers: vec![
            buf("m", Some(m)),
            buf("b", Some(b)),
            buf("c", Some(c)),
            buf("d", None),
        ],
        textures: vec![],
        surfaces: Vec::new(),
        outputs: Some(vec!["m".into(), "d".into()]),
        dynamic_shared_bytes: 0,
        compare: CompareRule::default(),
    }
}

/// Pads to a multiple of the block with copies of the first elements.
fn pad(v: &mut Vec<u64>) {
    let n = v.len().next_multiple_of(BLOCK as usize);
    for k in v.len()..n {
        v.push(v[k % v.len().max(1)]);
    }
}

/// Edge inputs (all pairs, cas compare equal for even elements) and random
/// ones.
fn domains(e: &[u64], seed: u64) -> Vec<[Vec<u64>; 3]> {
    let p = pairs(e, e);
    let (mut m, mut b) = (p[0].clone(), p[1].clone());
    pad(&mut m);
    pad(&mut b);
    let c: Vec<u64> = (0..m.len()).map(|j| e[(j * 7) % e.len()]).collect();
    // cas: b = m on even elements.
    let bc: Vec<u64> = b
        .iter()
        .enumerate()
        .map(|(j, &x)| if j % 2 == 0 { m[j] } else { x })
        .collect();
    let mut rng = Rng(seed);
    let n = RANDOM.next_multiple_of(BLOCK as usize);
    let rm: Vec<u64> = (0..n).map(|_| rng.word(16)).collect();
    let rb: Vec<u64> = (0..n)
        .map(|j| if j % 3 == 0 { rm[j] } else { rng.word(16) })
        .collect();
    let rc: Vec<u64> = (0..n).map(|_| rng.word(16)).collect();
    vec![[m.clone(), b, c.clone()], [m, bc, c], [rm, rb, rc]]
}

fn check_on(src: &str, d: &[Vec<u64>; 3], arch: &str, what: &str) {
    let ty = if src.contains(".reg .b32 %v") {
        ElemType::U32
    } else {
        ElemType::U16
    };
    let sp = spec_w(&d[0], &d[1], &d[2], ty);
    match differences(src, &sp, arch) {
        Err(e) => panic!("{what} on {arch}: {e}"),
        Ok(x) if x.is_empty() => {}
        Ok(x) => {
            let show: Vec<String> = x
                .iter()
                .take(6)
                .map(|(buf, k, want, got)| {
                    format!(
                        "{buf}[{k}] (m {:#x}, b {:#x}, c {:#x}): interpreter {want:#x}, lowered {got:#x}",
                        d[0][*k], d[1][*k], d[2][*k]
                    )
                })
                .collect();
            panic!(
                "{what} on {arch}: {} differences:\n  {}",
                x.len(),
                show.join("\n  ")
            );
        }
    }
}

const SPACES: [&str; 3] = ["global", "shared", ""];

/// The body for an atom form in `space` ("" = generic).
fn body(space: &str, form: &str) -> String {
    let sp = if space.is_empty() {
        String::new()
    } else {
        format!(".{space}")
    };
    match form {
        "add.f16" => format!("atom{sp}.add.noftz.f16 %d, [%ma], %b;"),
        "add.bf16" => format!("atom{sp}.add.noftz.bf16 %d, [%ma], %b;"),
        "red.add.f16" => format!("red{sp}.add.noftz.f16 [%ma], %b;"),
        "cas.b16" => format!("atom{sp}.cas.b16 %d, [%ma], %b, %c;"),
        _ => unreachable!(),
    }
}

/// ptxas 11.8 refuses `atom.exch.b16`, and so does the front end (the
/// lowering never sees it).
#[test]
fn exch_b16_is_refused_by_the_front_end() {
    let src = kernel("global", "atom.global.exch.b16 %d, [%ma], %b;");
    let e = ptxc::ptx::parse_checked("atom16", &src).expect_err("exch.b16 refused");
    assert!(e.to_string().contains(".b16"), "{e}");
}

#[test]
fn atom_add_f16() {
    let ds = domains(F16_EDGES, 41);
    for space in SPACES {
        for form in ["add.f16", "red.add.f16"] {
            let src = kernel(space, &body(space, form));
            for arch in ALL {
                for d in [&ds[0], &ds[2]] {
                    check_on(&src, d, arch, &format!("{form} {space}"));
                }
            }
        }
    }
}

#[test]
fn atom_add_bf16() {
    let ds = domains(BF16_EDGES, 42);
    for space in SPACES {
        let src = kernel(space, &body(space, "add.bf16"));
        for d in [&ds[0], &ds[2]] {
            check_on(&src, d, "sm_90", &format!("add.bf16 {space}"));
        }
        for arch in &ALL[..5] {
            lowering_refuses(&src, arch, "requires sm_90");
        }
    }
}

#[test]
fn atom_cas_b16() {
    let ds = domains(F16_EDGES, 43);
    for space in SPACES {
        for form in ["cas.b16"] {
            let src = kernel(space, &body(space, form));
            for arch in ALL {
                for d in &ds {
                    check_on(&src, d, arch, &format!("{form} {space}"));
                }
            }
        }
    }
}

/// Packed inputs: every pair of edges in the low halves, a rotated
/// pairing in the high halves; and random words.
fn domains_x2(e: &[u64], seed: u64) -> Vec<[Vec<u64>; 3]> {
    let p = pairs(e, e);
    let len = p[0].len();
    let word = |v: &Vec<u64>, j: usize, k: usize| v[j] | v[(j * 5 + k + 1) % len] << 16;
    let mut m: Vec<u64> = (0..len).map(|j| word(&p[0], j, 0)).collect();
    let mut b: Vec<u64> = (0..len).map(|j| word(&p[1], j, 1)).collect();
    pad(&mut m);
    pad(&mut b);
    let c = vec![0; m.len()];
    let mut rng = Rng(seed);
    let n = RANDOM.next_multiple_of(BLOCK as usize);
    let mut r = || -> Vec<u64> { (0..n).map(|_| rng.word(16) | rng.word(16) << 16).collect() };
    let (rm, rb) = (r(), r());
    vec![[m, b, c], [rm, rb, vec![0; n]]]
}

/// `atom`/`red` `.global.add.noftz.f16x2` on every target, `.bf16x2` on
/// sm_90 (refused before, as by ptxas); shared and generic: lower_atom_spin.rs.
#[test]
fn atom_add_x2() {
    for (t, e, seed, archs) in [
        ("f16x2", F16_EDGES, 44, &ALL[..]),
        ("bf16x2", BF16_EDGES, 45, &ALL[5..]),
    ] {
        let ds = domains_x2(e, seed);
        for form in ["atom", "red"] {
            let body = if form == "atom" {
                format!("atom.global.add.noftz.{t} %d, [%ma], %b;")
            } else {
                format!("red.global.add.noftz.{t} [%ma], %b;")
            };
            let src = kernel_w("global", &body, 32);
            for arch in ALL {
                if archs.contains(&arch) {
                    for d in &ds {
                        check_on(&src, d, arch, &format!("{form}.add.{t}"));
                    }
                } else {
                    lowering_refuses(&src, arch, "requires sm_90");
                }
            }
        }
    }
}

// ---- ptxas's listings ------------------------------------------------------

/// The vendor module's kernels for `arch`: (name, source of kernel `k`,
/// inputs, element type).
fn vendor_kernels(arch: &str) -> Vec<(&'static str, String, [Vec<u64>; 3], ElemType)> {
    let sm: u32 = arch[3..].parse().unwrap();
    let f = domains(F16_EDGES, 51);
    let x2 = domains_x2(F16_EDGES, 52);
    let u16 = ElemType::U16;
    let mut v = vec![
        (
            "add_f16_global",
            kernel("global", &body("global", "add.f16")),
            f[0].clone(),
            u16,
        ),
        (
            "red_add_f16_global",
            kernel("global", &body("global", "red.add.f16")),
            f[0].clone(),
            u16,
        ),
        (
            "add_f16_shared",
            kernel("shared", &body("shared", "add.f16")),
            f[0].clone(),
            u16,
        ),
        (
            "cas_b16_global",
            kernel("global", &body("global", "cas.b16")),
            f[1].clone(),
            u16,
        ),
        (
            "cas_b16_shared",
            kernel("shared", &body("shared", "cas.b16")),
            f[1].clone(),
            u16,
        ),
        (
            "cas_b16_generic",
            kernel("", &body("", "cas.b16")),
            f[1].clone(),
            u16,
        ),
        (
            "add_f16x2_global",
            kernel_w("global", "atom.global.add.noftz.f16x2 %d, [%ma], %b;", 32),
            x2[0].clone(),
            ElemType::U32,
        ),
    ];
    if sm >= 90 {
        let b = domains(BF16_EDGES, 53);
        let bx2 = domains_x2(BF16_EDGES, 54);
        v.push((
            "add_bf16_global",
            kernel("global", &body("global", "add.bf16")),
            b[0].clone(),
            u16,
        ));
        v.push((
            "add_bf16x2_global",
            kernel_w("global", "atom.global.add.noftz.bf16x2 %d, [%ma], %b;", 32),
            bx2[0].clone(),
            ElemType::U32,
        ));
    }
    v
}

fn vendor_module(arch: &str) -> String {
    let mut out = String::new();
    for (k, (name, text, _, _)) in vendor_kernels(arch).iter().enumerate() {
        let text = text.replace(".target sm_90", &format!(".target {arch}"));
        let at = text.find(".visible .entry").unwrap();
        if k == 0 {
            out.push_str(&text[..at]);
        }
        out.push_str(&text[at..].replace(".entry k(", &format!(".entry {name}(")));
    }
    out
}

/// ptxas 11.8's SASS for the same atomics (oracle/tests/half_vendor,
/// `atom16.sm_XX.*`), run in the simulator against the interpreter. With
/// `HALF_VENDOR_WRITE=1` the modules are (re)written instead.
#[test]
fn vendor_listings_match_the_interpreter() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/half_vendor");
    let write = std::env::var_os("HALF_VENDOR_WRITE").is_some();
    let mut ran = 0;
    for arch in ALL {
        let src = vendor_module(arch);
        let path = dir.join(format!("atom16.{arch}.ptx"));
        if write {
            std::fs::write(&path, &src).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            committed, src,
            "{path:?} is stale: rerun with HALF_VENDOR_WRITE=1 and ptxas"
        );
        let sass = std::fs::read_to_string(dir.join(format!("atom16.{arch}.O3.sass"))).unwrap();
        let m = ptxc::ptx::parse_checked("atom16", &src).unwrap();
        for (name, _, d, ty) in vendor_kernels(arch) {
            let mut sp = spec_w(&d[0], &d[1], &d[2], ty);
            sp.kernel = name.into();
            vendor_agrees(&m, &src, &sass, "atom16", arch, &sp, |k| {
                format!("m {:#x}, b {:#x}, c {:#x}", d[0][k], d[1][k], d[2][k])
            });
            ran += 1;
        }
    }
    assert!(write || ran == 6 * 7 + 2, "ran {ran}");
}
