//! The lowering of `redux.sync`, `match.sync`, `vote.sync.uni` and
//! `bar.red` (compiler/src/lower/warp_sync.rs, warp.rs; REDUX's expansion
//! on sm_70/sm_75 by phase 5, compiler/src/phases/convert_unsupported.rs,
//! applied with `lower_target`), executed: a
//! kernel gives each thread a value and its warp's member mask; the lanes
//! outside the mask branch around the instruction (divergence), the
//! members execute it; every thread stores its result. The PTX
//! interpreter and the simulator (running the lowered IR) must agree on
//! every output word.
//!
//! On sm_70 and sm_80 a launch has 4,096 warps (131,072 threads, so more
//! than 10^5 inputs for the 32- and 64-bit forms) in CTAs of 256 threads;
//! on sm_75 and sm_90 (the same two lowerings) 512 warps; on every target
//! also 512 warps in CTAs of 48 threads (every second warp has 16 lanes). Member
//! masks cycle per warp through: the whole warp, each half, alternate
//! lanes, one lane, two lanes, all but one lane, and random subsets.
//! Values: seeded random words, the 32-bit edge values, warps where all
//! lanes agree, and (match) small per-warp pools of values that differ
//! in one low or one high bit.
//!
//! Targets: sm_70 and sm_75, where `redux.sync` is expanded (no REDUX:
//! the butterfly for whole-warp member sets, the member loop otherwise),
//! sm_80 and sm_90 (REDUX). Besides the simulator's own check (an
//! instruction the target lacks faults), every lowered instruction is
//! checked against the SM table ([`all_available`]).

mod seq_harness;

use seq_harness::*;

/// The targets, each with the warps of its launches: the two lowerings
/// (the expansion on sm_70, REDUX on sm_80) get the large launch, sm_75
/// and sm_90 (the same lowerings, other prologues) a smaller one.
const ARCHS: [(&str, usize); 4] = [
    ("sm_70", 4096),
    ("sm_75", 512),
    ("sm_80", 4096),
    ("sm_90", 512),
];

/// One operation: `body` reads `%a` (of type `ty`), `%m` (the member
/// mask) and writes `%d` (u32); `%p`, `%q` are free predicates.
struct WOp {
    name: String,
    body: String,
}

fn wop(name: &str, body: &str) -> WOp {
    WOp {
        name: name.into(),
        body: body.into(),
    }
}

fn kernel(ty: &str, ops: &[WOp], skip: bool) -> String {
    let mut params = String::from(".param .u64 pa, .param .u64 pm");
    let mut decl = String::new();
    let mut body = String::new();
    let w = if ty == "b64" { 8 } else { 4 };
    for (k, o) in ops.iter().enumerate() {
        params.push_str(&format!(", .param .u64 pd{k}"));
        decl.push_str(&format!(".reg .u32 %d{k};\n"));
        let around = if skip {
            format!("@%out bra SKIP{k};\n")
        } else {
            String::new()
        };
        body.push_str(&format!(
            "mov.u32 %d{k}, 0;\n{around}{}\nSKIP{k}:\nld.param.u64 %rp, [pd{k}]; mad.wide.u32 %rp, %i, 4, %rp; st.global.u32 [%rp], %d{k};\n",
            o.body.replace("%d", &format!("%d{k}"))
        ));
    }
    format!(
        r#".version 7.8
.target sm_80
.address_size 64
.visible .entry k({params})
{{
.reg .u32 %i, %cx, %nx, %tx, %lane, %m, %bit;
.reg .{ty} %a;
.reg .u64 %rp;
.reg .pred %p, %q, %out;
{decl}mov.u32 %cx, %ctaid.x;
mov.u32 %nx, %ntid.x;
mov.u32 %tx, %tid.x;
mad.lo.u32 %i, %cx, %nx, %tx;
ld.param.u64 %rp, [pa]; mad.wide.u32 %rp, %i, {w}, %rp; ld.global.{ty} %a, [%rp];
ld.param.u64 %rp, [pm]; mad.wide.u32 %rp, %i, 4, %rp; ld.global.u32 %m, [%rp];
mov.u32 %lane, %laneid;
shr.b32 %bit, %m, %lane;
and.b32 %bit, %bit, 1;
setp.eq.u32 %out, %bit, 0;
{body}
ret;
}}
"#
    )
}

/// The lanes each warp of a launch with CTAs of `block` threads has.
fn warp_lanes(block: usize, warp: usize) -> u32 {
    let per_cta = block.div_ceil(32);
    let w = warp % per_cta;
    (block - 32 * w).min(32) as u32
}

/// The member mask of warp `w` with `lanes` lanes.
fn member_mask(w: usize, lanes: u32, rng: &mut Rng) -> u32 {
    let all = if lanes == 32 {
        u32::MAX
    } else {
        (1 << lanes) - 1
    };
    let m = match w % 9 {
        0 | 1 => all,
        2 => all & 0x0000_ffff,
        3 => all & 0xffff_0000,
        4 => all & 0x5555_5555,
        5 => 1 << (rng.next() % u64::from(lanes)),
        6 => (1 << (rng.next() % u64::from(lanes))) | 1 << (lanes - 1),
        7 => all & !(1 << (rng.next() % u64::from(lanes))),
        _ => all & rng.next() as u32,
    };
    if m == 0 {
        all
    } else {
        m
    }
}

/// Per-thread values and masks for `threads` threads in CTAs of `block`;
/// `value(warp, lane, rng)` gives a thread's value.
fn inputs(
    block: usize,
    warps: usize,
    seed: u64,
    mut value: impl FnMut(usize, u32, &mut Rng) -> u64,
) -> (Vec<u64>, Vec<u64>) {
    let mut rng = Rng(seed);
    let (mut a, mut m) = (Vec::new(), Vec::new());
    let ctas = warps / block.div_ceil(32);
    for c in 0..ctas {
        for w in 0..block.div_ceil(32) {
            let warp = c * block.div_ceil(32) + w;
            let lanes = warp_lanes(block, w);
            let mm = member_mask(warp, lanes, &mut rng);
            for l in 0..lanes {
                a.push(value(warp, l, &mut rng));
                m.push(u64::from(mm));
            }
        }
    }
    (a, m)
}

fn spec(ty: &str, ops: &[WOp], block: usize, a: Vec<u64>, m: Vec<u64>) -> LaunchSpec {
    let n = a.len();
    let mut params = Vec::new();
    let aty = if ty == "b64" {
        ElemType::U64
    } else {
        ElemType::U32
    };
    let mut buffers = vec![
        BufferSpec {
            name: "a".into(),
            ty: aty,
            len: n as u64,
            init: Init::Bits(a),
        },
        BufferSpec {
            name: "m".into(),
            ty: ElemType::U32,
            len: n as u64,
            init: Init::Bits(m),
        },
    ];
    for b in ["a", "m"] {
        params.push(ParamValue::Buffer {
            name: b.into(),
            offset: 0,
        });
    }
    let mut outputs = Vec::new();
    for k in 0..ops.len() {
        let name = format!("d{k}");
        params.push(ParamValue::Buffer {
            name: name.clone(),
            offset: 0,
        });
        buffers.push(BufferSpec {
            name: name.clone(),
            ty: ElemType::U32,
            len: n as u64,
            init: Init::Zeros,
        });
        outputs.push(name);
    }
    LaunchSpec {
        file: None,
        base_dir: ".".into(),
        ptx: None,
        kernel: "k".into(),
        grid_dims: vec![(n / block) as u32],
        block_dims: vec![block as u32],
        params,
        buffers,
        textures: vec![],
        surfaces: Vec::new(),
        outputs: Some(outputs),
        dynamic_shared_bytes: 0,
        compare: CompareRule::default(),
    }
}

/// Every instruction of `src` lowered for `arch` and converted by phase 5
/// (`lower_target`) exists there (SM table).
fn all_available(src: &str, arch: &str) {
    let m = ptxc::ptx::parse_checked("warp", src).unwrap();
    let sm = ptxc::targets::lookup_sm(arch).unwrap();
    let ks = ptxc::driver::lower_target(&m, sm, &ptxc::lower::LowerOptions::default())
        .unwrap_or_else(|e| panic!("lower for {arch}: {e}"));
    for k in &ks {
        for i in k.function.insts() {
            assert!(i.lacking(sm).is_none(), "{} emitted for {arch}", i.op);
        }
    }
}

/// Runs `ops` over values of `ty` on every target, in CTAs of 256 and 48.
fn run_ops(
    ty: &str,
    ops: &[WOp],
    skip: bool,
    seed: u64,
    mut value: impl FnMut(usize, u32, &mut Rng) -> u64,
) {
    let src = kernel(ty, ops, skip);
    for (block, arch, warps) in ARCHS
        .iter()
        .map(|&(arch, w)| (256, arch, w))
        .chain(ARCHS.iter().map(|&(arch, _)| (48, arch, 512)))
    {
        let (a, m) = inputs(block, warps, seed ^ block as u64, &mut value);
        let m = if skip {
            m
        } else {
            vec![u64::from(u32::MAX); m.len()]
        };
        let sp = spec(ty, ops, block, a.clone(), m.clone());
        {
            all_available(&src, arch);
            let d = differences(&src, &sp, arch)
                .unwrap_or_else(|e| panic!("{} on {arch}: {e}", ops[0].name));
            if !d.is_empty() {
                let show: Vec<String> = d
                    .iter()
                    .take(6)
                    .map(|(b, k, want, got)| {
                        let o = &ops[b[1..].parse::<usize>().unwrap()].name;
                        format!(
                            "{o}: thread {k} (a {:#x}, mask {:#x}) interpreter {want:#x}, lowered {got:#x}",
                            a[*k], m[*k]
                        )
                    })
                    .collect();
                panic!(
                    "on {arch}, CTAs of {block}: {} outputs differ:\n  {}",
                    d.len(),
                    show.join("\n  ")
                );
            }
        }
    }
}

/// Random words, edge values in every fifth warp, one value per warp in
/// every seventh.
fn mixed32(edges: &[u64]) -> impl FnMut(usize, u32, &mut Rng) -> u64 + '_ {
    let mut same = 0;
    move |warp, lane, rng| {
        if warp % 7 == 3 {
            if lane == 0 {
                same = rng.word(32);
            }
            same
        } else if warp % 5 == 0 {
            edges[(rng.next() % edges.len() as u64) as usize]
        } else {
            rng.word(32)
        }
    }
}

#[test]
fn redux_sync() {
    let edges = edge_int(32);
    let mut ops = Vec::new();
    for (o, t) in [
        ("add", "u32"),
        ("add", "s32"),
        ("min", "u32"),
        ("min", "s32"),
        ("max", "u32"),
        ("max", "s32"),
        ("and", "b32"),
        ("or", "b32"),
        ("xor", "b32"),
    ] {
        ops.push(wop(
            &format!("redux.sync.{o}.{t}"),
            &format!("redux.sync.{o}.{t} %d, %a, %m;"),
        ));
    }
    // A guarded form (every executing lane's guard holds): on sm_70 the
    // expansion is branched around, on sm_80 REDUX is predicated.
    ops.push(wop(
        "@!%out redux.sync.max.s32",
        "@!%out redux.sync.max.s32 %d, %a, %m;",
    ));
    run_ops("b32", &ops, true, 0x5ed, mixed32(&edges));
}

#[test]
fn match_sync() {
    // Per warp a pool of 1..=3 values; neighbours differ in one bit.
    fn pooled(bits: u32) -> impl FnMut(usize, u32, &mut Rng) -> u64 {
        let mut pool = Vec::new();
        move |warp, lane, rng| {
            if lane == 0 {
                let x = rng.word(bits);
                let hi = if bits == 64 { 1u64 << 40 } else { 1 << 20 };
                pool = vec![x, x ^ 1, x ^ hi];
                pool.truncate(1 + warp % 3);
            }
            pool[(rng.next() % pool.len() as u64) as usize]
        }
    }
    for (ty, bits) in [("b32", 32), ("b64", 64)] {
        let ops = vec![
            wop(
                &format!("match.any.sync.{ty}"),
                &format!("match.any.sync.{ty} %d, %a, %m;"),
            ),
            wop(
                &format!("match.all.sync.{ty}"),
                &format!("match.all.sync.{ty} %d, %a, %m;"),
            ),
            wop(
                &format!("match.all.sync.{ty} |p"),
                &format!(
                    "match.all.sync.{ty} %bit|%p, %a, %m; selp.u32 %d, 1, 0, %p; add.u32 %d, %d, %bit;"
                ),
            ),
        ];
        run_ops(ty, &ops, true, 0x3a7 + u64::from(bits), pooled(bits));
    }
}

#[test]
fn vote_sync_uni() {
    let ops = vec![
        wop(
            "vote.sync.uni",
            "setp.ne.u32 %q, %a, 0; vote.sync.uni.pred %p, %q, %m; selp.u32 %d, 1, 0, %p;",
        ),
        wop(
            "vote.sync.uni !p",
            "setp.ne.u32 %q, %a, 0; vote.sync.uni.pred %p, !%q, %m; selp.u32 %d, 7, 3, %p;",
        ),
    ];
    // Predicates: random per lane, or the same in the whole warp (both
    // values), or all but one lane alike.
    let mut same = 0;
    let mut odd = 0;
    run_ops("b32", &ops, true, 0x0a1, move |warp, lane, rng| {
        if lane == 0 {
            same = rng.next() % 2;
            odd = (rng.next() % 32) as u32;
        }
        match warp % 4 {
            0 => rng.next() % 2,
            1 | 2 => same,
            _ => same ^ u64::from(lane == odd),
        }
    });
}

#[test]
fn bar_red() {
    let ops = vec![
        wop(
            "bar.red.popc",
            "setp.ne.u32 %q, %a, 0; bar.red.popc.u32 %d, 0, %q;",
        ),
        wop(
            "bar.red.and",
            "setp.ne.u32 %q, %a, 0; bar.red.and.pred %p, 1, %q; selp.u32 %d, 1, 0, %p;",
        ),
        wop(
            "bar.red.or",
            "setp.ne.u32 %q, %a, 0; bar.red.or.pred %p, 2, !%q; selp.u32 %d, 1, 0, %p;",
        ),
        wop(
            "barrier.red.or",
            "setp.ne.u32 %q, %a, 0; barrier.red.or.pred %p, 3, %q; selp.u32 %d, 1, 0, %p;",
        ),
    ];
    // Predicates: random per thread, or constant in every thread of a
    // warp (so whole CTAs agree in some launches), or one thread differs.
    let mut same = 0;
    run_ops("b32", &ops, false, 0xba7, move |warp, lane, rng| {
        if lane == 0 {
            same = u64::from(warp % 16 < 8);
        }
        match (warp / 16) % 3 {
            0 => rng.next() % 2,
            1 => same,
            _ => u64::from(lane == 5 && warp % 16 == 0) ^ same,
        }
    });
}
