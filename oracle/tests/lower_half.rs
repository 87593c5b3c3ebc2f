//! The half-precision lowerings of compiler/src/lower/half.rs (bf16/bf16x2
//! fma/min/max/setp/neg/abs, min/max `.xorsign.abs` on the half types and
//! f32, min/max on f16, setp.f16x2, ex2/tanh on f16/f16x2), executed in the
//! simulator against the PTX interpreter with the `seq_harness` runner on
//! every target of the SM table: every output word must agree bit for bit.
//! Targets where the lowering refuses (ptxas 11.8 refuses them too) are
//! checked to refuse with the target named.
//!
//! Domains:
//! - unary (`ex2`/`tanh` on f16 and bf16): every 16-bit pattern; f16x2: every
//!   pattern in the low half, and (as a second word order) every pattern in
//!   the high half, the other half a different pattern.
//! - binary and ternary: all pairs of the edge values (±0, ±min subnormal,
//!   ±max subnormal, ±min normal, ±1, ±max finite, ±inf, quiet and
//!   signalling NaNs of both signs, a few ordinary values; the third
//!   operand cycling through them), in each half for the packed forms,
//!   plus [`RANDOM`] seeded random words on every target.

mod seq_harness;

use seq_harness::*;

const ALL: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];

/// bf16 edge values.
const BF16_EDGES: &[u64] = &[
    0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x807f, 0x0080, 0x8080, 0x3f80, 0xbf80, 0x7f7f, 0xff7f,
    0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0xff81, 0x7fff, 0x4049, 0xc0a0, 0x3f81, 0x3b80, 0x0100,
];

/// f16 edge values.
const F16_EDGES: &[u64] = &[
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x3c00, 0xbc00, 0x7bff, 0xfbff,
    0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfc01, 0x7fff, 0x4248, 0xc500, 0x3c01, 0x1400, 0x0800,
];

/// Edge pairs (and a cycling third operand) of 16-bit values; `packed`
/// puts the pairs in both halves (the high half a rotated pairing).
fn edge_inputs(e: &[u64], n: usize, packed: bool) -> Vec<Vec<u64>> {
    let mut p = pairs(e, e);
    if n == 3 {
        let c = (0..p[0].len()).map(|j| e[(j * 7) % e.len()]).collect();
        p.push(c);
    }
    if packed {
        let len = p[0].len();
        let q: Vec<Vec<u64>> = p.clone();
        for (k, v) in p.iter_mut().enumerate() {
            for (j, x) in v.iter_mut().enumerate() {
                *x |= q[k][(j * 5 + 3 * k + 1) % len] << 16;
            }
        }
    }
    p
}

/// `RANDOM` random operand vectors of `bits` bits (`Rng::word` shapes,
/// and for 32 bits two independent 16-bit shaped halves half the time).
fn random_inputs(n: usize, bits: u32, seed: u64) -> Vec<Vec<u64>> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            (0..RANDOM)
                .map(|j| {
                    if bits == 32 && j % 2 == 1 {
                        rng.word(16) | rng.word(16) << 16
                    } else {
                        rng.word(bits)
                    }
                })
                .collect()
        })
        .collect()
}

/// Asserts that lowering the group's kernel for `arch` fails naming the
/// target and `needs`.
fn refused(g: &[Op], arch: &str, needs: &str) {
    let src = kernel(g);
    let m = ptxc::ptx::parse_checked("seq", &src).expect("parses");
    let sm = ptxc::targets::lookup_sm(arch).unwrap();
    match ptxc::driver::lower_target(&m, sm, &ptxc::lower::LowerOptions::default()) {
        Ok(_) => panic!("{} lowered on {arch}; expected a refusal", g[0].name),
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.contains(needs) && msg.contains(arch),
                "{arch}: {msg:?} should name {arch} and {needs:?}"
            );
        }
    }
}

/// Runs the group on edges and random inputs for `archs`; refused on the
/// other targets with `needs` in the message.
fn run_on(g: &[Op], e: &[u64], bits: u32, archs: &[&str], needs: &str, seed: u64) {
    let n = g[0].ins.len();
    let ex = edge_inputs(e, n, bits == 32);
    let rnd = random_inputs(n, bits, seed);
    for arch in ALL {
        if archs.contains(&arch) {
            check(g, &ex, &[arch]);
            check(g, &rnd, &[arch]);
        } else {
            refused(g, arch, needs);
        }
    }
}

const SM80: [&str; 4] = ["sm_80", "sm_86", "sm_89", "sm_90"];

#[test]
fn bf16_fma() {
    let mut g = vec![];
    for relu in ["", ".relu"] {
        g.push(op(
            &format!("fma.rn{relu}.bf16"),
            &["b16", "b16", "b16"],
            "b16",
            &format!("fma.rn{relu}.bf16 %d, %a, %b, %c;"),
        ));
    }
    run_on(&g, BF16_EDGES, 16, &SM80, "requires sm_80", 11);
    let mut g = vec![];
    for relu in ["", ".relu"] {
        g.push(op(
            &format!("fma.rn{relu}.bf16x2"),
            &["b32", "b32", "b32"],
            "b32",
            &format!("fma.rn{relu}.bf16x2 %d, %a, %b, %c;"),
        ));
    }
    run_on(&g, BF16_EDGES, 32, &SM80, "requires sm_80", 12);
}

#[test]
fn bf16_min_max() {
    for (t, bits, seed) in [("bf16", 16, 21), ("bf16x2", 32, 22)] {
        let rt = if bits == 16 { "b16" } else { "b32" };
        let mut g = vec![];
        for o in ["min", "max"] {
            for nan in ["", ".NaN"] {
                g.push(op(
                    &format!("{o}{nan}.{t}"),
                    &[rt, rt],
                    rt,
                    &format!("{o}{nan}.{t} %d, %a, %b;"),
                ));
            }
        }
        run_on(&g, BF16_EDGES, bits, &SM80, "requires sm_80", seed);
    }
}

/// `min`/`max{.ftz}{.NaN}.f16x2` (`HMNMX2`, sm_80+; ptxas refuses below).
#[test]
fn f16x2_min_max() {
    let mut g = vec![];
    for o in ["min", "max"] {
        for m in ["", ".NaN", ".ftz", ".ftz.NaN"] {
            g.push(op(
                &format!("{o}{m}.f16x2"),
                &["b32", "b32"],
                "b32",
                &format!("{o}{m}.f16x2 %d, %a, %b;"),
            ));
        }
    }
    run_on(&g, F16_EDGES, 32, &SM80, "requires sm_80", 41);
}

/// `neg`/`abs` on bf16/bf16x2 (`HFMA2.BF16_V2 d, -RZ.H0_H0, RZ.H0_H0,
/// -a`/`|a|`, ptxas 11.8's sequence) on every 16-bit pattern (bf16) and
/// every pattern in each half (bf16x2), sm_80+; on sm_70/sm_75 ptxas 11.8
/// refuses them ("Feature '.bf16' requires .target sm_80 or higher") and
/// so does the lowering.
#[test]
fn bf16_neg_abs_exhaustive() {
    let all16: Vec<Vec<u64>> = vec![(0..65536).collect()];
    let x2 = exhaustive_x2();
    for (t, rt, inputs) in [("bf16", "b16", &all16), ("bf16x2", "b32", &x2)] {
        let g: Vec<Op> = ["neg", "abs"]
            .iter()
            .map(|o| op(&format!("{o}.{t}"), &[rt], rt, &format!("{o}.{t} %d, %a;")))
            .collect();
        for arch in ALL {
            if SM80.contains(&arch) {
                check(&g, inputs, &[arch]);
            } else {
                refused(&g, arch, "requires sm_80 or higher (ptxas 11.8");
            }
        }
    }
}

/// `min`/`max{.ftz}{.NaN}.xorsign.abs` on bf16, bf16x2, f16, f16x2 and f32
/// (`HMNMX2{.BF16_V2}...XORSIGN d, |a|, |b|` / `FMNMX...XORSIGN`, ptxas
/// 11.8's sequences, sm_86+): edge pairs and [`RANDOM`] random words on
/// sm_86, 89, 90; refused below (ptxas 11.8: "Modifier '.xorsign' requires
/// .target sm_86 or higher"; bf16 and f16x2 below sm_80 with their own
/// "requires sm_80").
#[test]
fn min_max_xorsign() {
    let f32_edges = edge_f32();
    for (t, _, edges, bits, seed) in XORSIGN_TYPES {
        let edges = if t == "f32" { &f32_edges[..] } else { edges };
        let g = xorsign_ops(t);
        let n = g[0].ins.len();
        let ex = xorsign_edges(t, edges);
        let rnd = random_inputs(n, bits, seed);
        let low = match t {
            "bf16" | "bf16x2" | "f16x2" => "sm_80",
            _ => "sm_86",
        };
        for arch in ALL {
            if arch >= "sm_86" {
                check(&g, &ex, &[arch]);
                check(&g, &rnd, &[arch]);
            } else if arch < low {
                refused(&g, arch, &format!("requires {low} or higher (ptxas 11.8"));
            } else {
                refused(&g, arch, "requires sm_86 or higher (ptxas 11.8");
            }
        }
    }
}

/// The types of `.xorsign.abs`: name, kernel name, edges (f32: `edge_f32`),
/// bits, random seed.
const XORSIGN_TYPES: [(&str, &str, &[u64], u32, u64); 5] = [
    ("bf16", "xorsign_bf16", BF16_EDGES, 16, 61),
    ("bf16x2", "xorsign_bf16x2", BF16_EDGES, 32, 62),
    ("f16", "xorsign_f16", F16_EDGES, 16, 63),
    ("f16x2", "xorsign_f16x2", F16_EDGES, 32, 64),
    ("f32", "xorsign_f32", &[], 32, 65),
];

/// `min`/`max{.ftz}{.NaN}.xorsign.abs.t` (`.ftz` where the type has it).
fn xorsign_ops(t: &str) -> Vec<Op> {
    let rt = if matches!(t, "bf16" | "f16") {
        "b16"
    } else {
        "b32"
    };
    let ftz = !t.starts_with("bf16");
    let mut g = vec![];
    for o in ["min", "max"] {
        for nan in ["", ".NaN"] {
            for z in if ftz { &["", ".ftz"][..] } else { &[""][..] } {
                let body = if t == "f32" {
                    format!("{{ .reg .f32 %x, %y, %z; mov.b32 %x, %a; mov.b32 %y, %b; {o}{z}{nan}.xorsign.abs.f32 %z, %x, %y; mov.b32 %d, %z; }}")
                } else {
                    format!("{o}{z}{nan}.xorsign.abs.{t} %d, %a, %b;")
                };
                g.push(op(
                    &format!("{o}{z}{nan}.xorsign.abs.{t}"),
                    &[rt, rt],
                    rt,
                    &body,
                ));
            }
        }
    }
    g
}

/// Edge pairs for [`xorsign_ops`] of `t` (in both halves for the packed
/// types).
fn xorsign_edges(t: &str, edges: &[u64]) -> Vec<Vec<u64>> {
    if t == "f32" {
        pairs(edges, edges)
    } else {
        edge_inputs(edges, 2, t.ends_with("x2"))
    }
}

/// `min`/`max{.ftz}{.NaN}.f16` (`HMNMX2 .H0_H0`, ptxas 11.8's sequence on
/// sm_80+; the f32 route below it, for the forms without `.ftz`/`.NaN`,
/// which are refused there as ptxas 11.8 refuses every `min.f16`).
#[test]
fn f16_min_max() {
    let mut g = vec![];
    for o in ["min", "max"] {
        for m in ["", ".NaN", ".ftz", ".ftz.NaN"] {
            g.push(op(
                &format!("{o}{m}.f16"),
                &["b16", "b16"],
                "b16",
                &format!("{o}{m}.f16 %d, %a, %b;"),
            ));
        }
    }
    let ex = edge_inputs(F16_EDGES, 2, false);
    let rnd = random_inputs(2, 16, 71);
    check(&g, &ex, &SM80);
    check(&g, &rnd, &SM80);
    let plain: Vec<Op> = g
        .iter()
        .filter(|o| o.name == "min.f16" || o.name == "max.f16")
        .map(|o| op(&o.name, &o.ins, o.out, &o.body))
        .collect();
    assert_eq!(plain.len(), 2);
    for o in g
        .iter()
        .filter(|o| o.name.contains(".ftz") || o.name.contains(".NaN"))
    {
        for arch in &ALL[..2] {
            refused(
                std::slice::from_ref(o),
                arch,
                "requires sm_80 or higher (ptxas 11.8",
            );
        }
    }
    check(&plain, &ex, &ALL[..2]);
    check(&plain, &rnd, &ALL[..2]);
}

/// `add`/`sub`/`mul.rn.bf16{x2}` (`HADD2`/`HMUL2.BF16_V2`): sm_90 only, as
/// in ptxas 11.8; edges and random inputs on sm_90, refusals below.
#[test]
fn bf16_add_sub_mul() {
    for (t, bits, seed) in [("bf16", 16, 51), ("bf16x2", 32, 52)] {
        let rt = if bits == 16 { "b16" } else { "b32" };
        let g: Vec<Op> = ["add.rn", "sub.rn", "mul.rn", "add", "mul"]
            .iter()
            .map(|o| {
                op(
                    &format!("{o}.{t}"),
                    &[rt, rt],
                    rt,
                    &format!("{o}.{t} %d, %a, %b;"),
                )
            })
            .collect();
        // The front end wants `.target sm_90` for these.
        let src = kernel(&g).replace(".target sm_80", ".target sm_90");
        let inputs = [
            edge_inputs(BF16_EDGES, 2, bits == 32),
            random_inputs(2, bits, seed),
        ];
        for ins in &inputs {
            let d = differences(&src, &spec(&g, ins), "sm_90").expect("runs");
            assert!(
                d.is_empty(),
                "{t}: {} differences, first {:x?}",
                d.len(),
                d[0]
            );
        }
        let m = ptxc::ptx::parse_checked("seq", &src).expect("parses");
        for arch in &ALL[..5] {
            let sm = ptxc::targets::lookup_sm(arch).unwrap();
            let e = ptxc::driver::lower_target(&m, sm, &ptxc::lower::LowerOptions::default())
                .expect_err("refused")
                .to_string();
            assert!(
                e.contains("requires sm_90") && e.contains(arch),
                "{arch}: {e}"
            );
        }
    }
}

const CMPS: [&str; 14] = [
    "eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
];

/// `setp` ops writing both predicates (p | q << 1) and, with `.and`/`.xor`
/// forms, combining with a predicate from the third operand's low bit.
fn setp_ops(t: &str, rt: &'static str, ftz: bool) -> Vec<Op> {
    let f = if ftz { ".ftz" } else { "" };
    let mut g = vec![];
    for c in CMPS {
        g.push(op(
            &format!("setp.{c}{f}.{t}"),
            &[rt, rt, "b32"],
            "u32",
            &format!(
                "setp.{c}{f}.{t} %p|%q, %a, %b; selp.u32 %d, 1, 0, %p; @%q add.u32 %d, %d, 2;"
            ),
        ));
    }
    for (bop, c) in [("and", "lt"), ("or", "geu"), ("xor", "ne")] {
        g.push(op(
            &format!("setp.{c}.{bop}{f}.{t}"),
            &[rt, rt, "b32"],
            "u32",
            &format!(
                "and.b32 %d, %c, 1; setp.ne.u32 %ex, %d, 0; setp.{c}.{bop}{f}.{t} %p|%q, %a, %b, !%ex; selp.u32 %d, 1, 0, %p; @%q add.u32 %d, %d, 2;"
            ),
        ));
    }
    g
}

#[test]
fn setp_bf16_f16x2() {
    // Single-destination scalar form too.
    let single = op(
        "setp.lt.bf16 (one destination)",
        &["b16", "b16", "b32"],
        "u32",
        "setp.lt.bf16 %p, %a, %b; selp.u32 %d, 1, 0, %p;",
    );
    type Case = (&'static str, &'static str, bool, &'static [u64], u32, u64);
    let cases: [Case; 4] = [
        ("bf16", "b16", false, BF16_EDGES, 16, 31),
        ("bf16x2", "b32", false, BF16_EDGES, 32, 32),
        ("f16x2", "b32", false, F16_EDGES, 32, 33),
        ("f16x2", "b32", true, F16_EDGES, 32, 34),
    ];
    for (t, rt, ftz, e, bits, seed) in cases {
        let mut g = setp_ops(t, rt, ftz);
        if t == "bf16" {
            g.push(op(&single.name, &single.ins, single.out, &single.body));
        } else {
            // One destination: the low halves.
            g.push(op(
                &format!("setp.geu.{t} (one destination)"),
                &[rt, rt, "b32"],
                "u32",
                &format!("setp.geu.{t} %p, %a, %b; selp.u32 %d, 1, 0, %p;"),
            ));
        }
        for chunk in g.chunks(9) {
            let ex = edge_inputs(e, 3, bits == 32);
            let rnd = random_inputs(3, bits, seed);
            check(chunk, &ex, &ALL);
            check(chunk, &rnd, &ALL);
        }
    }
}

/// f16x2 inputs: every pattern in the low half, then every pattern in
/// the high half (the other half a permutation of the patterns).
fn exhaustive_x2() -> Vec<Vec<u64>> {
    let lo: Vec<u64> = (0..65536u64)
        .map(|x| x | ((x * 40503 + 7) & 0xffff) << 16)
        .collect();
    let hi: Vec<u64> = (0..65536u64)
        .map(|x| x << 16 | ((x * 30011 + 3) & 0xffff))
        .collect();
    vec![lo.into_iter().chain(hi).collect()]
}

#[test]
fn ex2_tanh_f16() {
    let all16: Vec<Vec<u64>> = vec![(0..65536).collect()];
    let ex2 = [
        op("ex2.approx.f16", &["b16"], "b16", "ex2.approx.f16 %d, %a;"),
        op(
            "ex2.approx.f16x2",
            &["b32"],
            "b32",
            "ex2.approx.f16x2 %d, %a;",
        ),
    ];
    let tanh = [
        op(
            "tanh.approx.f16",
            &["b16"],
            "b16",
            "tanh.approx.f16 %d, %a;",
        ),
        op(
            "tanh.approx.f16x2",
            &["b32"],
            "b32",
            "tanh.approx.f16x2 %d, %a;",
        ),
    ];
    let x2 = exhaustive_x2();
    // ex2: every target (sm_70 through f32).
    check(&ex2[..1], &all16, &ALL);
    check(&ex2[1..], &x2, &ALL);
    // tanh: sm_75 and later; sm_70 has no MUFU.TANH.
    check(&tanh[..1], &all16, &ALL[1..]);
    check(&tanh[1..], &x2, &ALL[1..]);
    refused(&tanh[..1], "sm_70", "requires sm_75");
    refused(&tanh[1..], "sm_70", "requires sm_75");
}

/// `ex2.approx.ftz.bf16`/`tanh.approx.bf16` (and x2): sm_90 only, as in
/// ptxas 11.8; every 16-bit pattern.
#[test]
fn ex2_tanh_bf16() {
    let all16: Vec<Vec<u64>> = vec![(0..65536).collect()];
    let x2 = exhaustive_x2();
    let scalar = [
        op(
            "ex2.approx.ftz.bf16",
            &["b16"],
            "b16",
            "ex2.approx.ftz.bf16 %d, %a;",
        ),
        op(
            "tanh.approx.bf16",
            &["b16"],
            "b16",
            "tanh.approx.bf16 %d, %a;",
        ),
    ];
    let packed = [
        op(
            "ex2.approx.ftz.bf16x2",
            &["b32"],
            "b32",
            "ex2.approx.ftz.bf16x2 %d, %a;",
        ),
        op(
            "tanh.approx.bf16x2",
            &["b32"],
            "b32",
            "tanh.approx.bf16x2 %d, %a;",
        ),
    ];
    // The front end wants `.target sm_90` for these (the harness kernel
    // says sm_80).
    let on90 = |g: &[Op], inputs: &[Vec<u64>]| {
        let src = kernel(g).replace(".target sm_80", ".target sm_90");
        let d = differences(&src, &spec(g, inputs), "sm_90").expect("runs");
        assert!(
            d.is_empty(),
            "{}: {} differences, first {:x?}",
            g[0].name,
            d.len(),
            d[0]
        );
        src
    };
    let srcs = [on90(&scalar, &all16), on90(&packed, &x2)];
    for src in srcs {
        let m = ptxc::ptx::parse_checked("seq", &src).expect("parses");
        for arch in &ALL[..5] {
            let sm = ptxc::targets::lookup_sm(arch).unwrap();
            let e = ptxc::driver::lower_target(&m, sm, &ptxc::lower::LowerOptions::default())
                .expect_err("refused")
                .to_string();
            assert!(
                e.contains("requires sm_90") && e.contains(arch),
                "{arch}: {e}"
            );
        }
    }
}

// ---- ptxas's listings ------------------------------------------------------

/// A vendor kernel: its name, operations and inputs.
type VendorKernel = (&'static str, Vec<Op>, Vec<Vec<u64>>);

/// The kernels of the vendor module for `arch` (those ptxas 11.8 accepts
/// there) with their inputs.
fn vendor_kernels(arch: &str) -> Vec<VendorKernel> {
    let sm: u32 = arch[3..].parse().unwrap();
    let mut v = vec![];
    let x2 = exhaustive_x2();
    let all16: Vec<Vec<u64>> = vec![(0..65536).collect()];
    let mut setp = setp_ops("f16x2", "b32", false);
    setp.truncate(6);
    setp.extend(setp_ops("f16x2", "b32", true).into_iter().skip(14));
    v.push(("setp_f16x2", setp, edge_inputs(F16_EDGES, 3, true)));
    if sm >= 75 {
        let u = |t: &str, rt: &'static str| {
            vec![
                op(
                    &format!("ex2.{t}"),
                    &[rt],
                    rt,
                    &format!("ex2.approx.{t} %d, %a;"),
                ),
                op(
                    &format!("tanh.{t}"),
                    &[rt],
                    rt,
                    &format!("tanh.approx.{t} %d, %a;"),
                ),
            ]
        };
        v.push(("sfu_f16", u("f16", "b16"), all16.clone()));
        v.push(("sfu_f16x2", u("f16x2", "b32"), x2.clone()));
    }
    if sm >= 80 {
        for (name, t, rt, bits) in [
            ("bf16_arith", "bf16", "b16", 16),
            ("bf16x2_arith", "bf16x2", "b32", 32),
        ] {
            let g = vec![
                op(
                    "fma",
                    &[rt, rt, rt],
                    rt,
                    &format!("fma.rn.{t} %d, %a, %b, %c;"),
                ),
                op(
                    "fma.relu",
                    &[rt, rt, rt],
                    rt,
                    &format!("fma.rn.relu.{t} %d, %a, %b, %c;"),
                ),
                op("min", &[rt, rt, rt], rt, &format!("min.{t} %d, %a, %b;")),
                op("max", &[rt, rt, rt], rt, &format!("max.{t} %d, %a, %b;")),
                op(
                    "min.NaN",
                    &[rt, rt, rt],
                    rt,
                    &format!("min.NaN.{t} %d, %a, %b;"),
                ),
                op(
                    "max.NaN",
                    &[rt, rt, rt],
                    rt,
                    &format!("max.NaN.{t} %d, %a, %b;"),
                ),
            ];
            v.push((name, g, edge_inputs(BF16_EDGES, 3, bits == 32)));
        }
    }
    if sm >= 80 {
        let negabs = |t: &str, rt: &'static str| -> Vec<Op> {
            ["neg", "abs"]
                .iter()
                .map(|o| op(&format!("{o}.{t}"), &[rt], rt, &format!("{o}.{t} %d, %a;")))
                .collect()
        };
        v.push(("negabs_bf16", negabs("bf16", "b16"), all16.clone()));
        v.push(("negabs_bf16x2", negabs("bf16x2", "b32"), x2.clone()));
    }
    if sm >= 86 {
        let f32_edges = edge_f32();
        for (t, name, edges, _, _) in XORSIGN_TYPES {
            let edges = if t == "f32" { &f32_edges[..] } else { edges };
            v.push((name, xorsign_ops(t), xorsign_edges(t, edges)));
        }
    }
    if sm >= 90 {
        // ptxas 11.8 refuses `p|q` on scalar bf16 ("Predicate output not
        // allowed for instruction 'setp'"): one destination here.
        let mut s: Vec<Op> = CMPS
            .iter()
            .map(|c| {
                op(
                    &format!("setp.{c}.bf16"),
                    &["b16", "b16", "b32"],
                    "u32",
                    &format!("setp.{c}.bf16 %p, %a, %b; selp.u32 %d, 1, 0, %p;"),
                )
            })
            .collect();
        s.push(op(
            "setp.gt.or.bf16",
            &["b16", "b16", "b32"],
            "u32",
            "and.b32 %d, %c, 1; setp.ne.u32 %ex, %d, 0; setp.gt.or.bf16 %p, %a, %b, %ex; selp.u32 %d, 1, 0, %p;",
        ));
        v.push(("setp_bf16", s, edge_inputs(BF16_EDGES, 3, false)));
        let mut s = setp_ops("bf16x2", "b32", false);
        s.drain(..6);
        v.push(("setp_bf16x2", s, edge_inputs(BF16_EDGES, 3, true)));
        let u = |t: &str, rt: &'static str| {
            vec![
                op(
                    &format!("ex2.{t}"),
                    &[rt],
                    rt,
                    &format!("ex2.approx.ftz.{t} %d, %a;"),
                ),
                op(
                    &format!("tanh.{t}"),
                    &[rt],
                    rt,
                    &format!("tanh.approx.{t} %d, %a;"),
                ),
            ]
        };
        v.push(("sfu_bf16", u("bf16", "b16"), all16));
        v.push(("sfu_bf16x2", u("bf16x2", "b32"), x2));
    }
    v
}

/// One module of the kernels (the harness kernel `k` renamed), `.target`
/// set to `arch`.
fn vendor_module(arch: &str) -> String {
    let mut out = String::new();
    for (k, (name, g, _)) in vendor_kernels(arch).iter().enumerate() {
        let text = kernel(g).replace(".target sm_80", &format!(".target {arch}"));
        let at = text.find(".visible .entry").unwrap();
        if k == 0 {
            out.push_str(&text[..at]);
        }
        out.push_str(&text[at..].replace(".entry k(", &format!(".entry {name}(")));
    }
    out
}

fn vendor_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/half_vendor")
}

/// ptxas 11.8's SASS for the same operations (oracle/tests/half_vendor,
/// README there), run in the simulator against the interpreter. With
/// `HALF_VENDOR_WRITE=1` the modules are (re)written instead.
#[test]
fn vendor_listings_match_the_interpreter() {
    let write = std::env::var_os("HALF_VENDOR_WRITE").is_some();
    let mut ran = 0;
    for arch in ALL {
        let src = vendor_module(arch);
        let path = vendor_dir().join(format!("half.{arch}.ptx"));
        if write {
            std::fs::write(&path, &src).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            committed, src,
            "{path:?} is stale: rerun with HALF_VENDOR_WRITE=1 and ptxas"
        );
        let sass =
            std::fs::read_to_string(vendor_dir().join(format!("half.{arch}.O3.sass"))).unwrap();
        let m = ptxc::ptx::parse_checked("half", &src).unwrap();
        for (name, g, inputs) in vendor_kernels(arch) {
            let mut sp = spec(&g, &inputs);
            sp.kernel = name.into();
            vendor_agrees(&m, &src, &sass, "half", arch, &sp, |k| {
                format!(
                    "inputs {:x?}",
                    inputs.iter().map(|v| v[k]).collect::<Vec<_>>()
                )
            });
            ran += 1;
        }
    }
    // Per target: setp_f16x2; the f16 SFU pair from sm_75; bf16 arith and
    // neg/abs pairs from sm_80; five xorsign kernels from sm_86; four bf16
    // kernels on sm_90.
    assert!(
        write || ran == 1 + 3 * 5 + 2 * 4 + 2 * 4 + 5 * 3 + 4,
        "ran {ran}"
    );
}
