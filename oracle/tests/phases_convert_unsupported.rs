//! Phase 5 ConvertUnsupportedOps (compiler/src/phases/convert_unsupported.rs),
//! end to end: small PTX kernels whose lowering uses the opcodes the phase
//! expands, compiled by the PhaseManager pipeline (-O0 and -O3) for sm_70,
//! sm_75, sm_80, sm_86, sm_89 and sm_90; the printed listing is read back,
//! checked against the SM table, run in the simulator and compared bit for
//! bit with the PTX interpreter (the differential engine's judgement,
//! `oracle::diff::run::simulate`); the cvt kernel also through the driver
//! (`run_ptxc`), see [`check`].
//!
//! - `redux.sync` with every integer operation (add, min, max on u32 and
//!   s32; and, or, xor on b32): REDUX on sm_80+, the phase's SHFL
//!   expansion on sm_70/sm_75. Warps run with the whole warp, halves,
//!   alternate lanes, single lanes and random subsets as member sets (the
//!   lanes outside branch around the instruction), on random words and
//!   the 32-bit edge values.
//! - `cvt.{rn,rz,rm,rp}.f32.{s32,u32}`: I2FP on sm_86+, I2F before
//!   (the phase's rewrite), on 131,072 inputs: the 32-bit edge values
//!   (powers of two and their neighbours, the values around 2^24 and 2^31
//!   where rounding starts to matter) then seeded random words.
//!
//! Also: the phase fired exactly where the target lacks an opcode (the
//! driver's fired counts), and the phase orders that leave the phase out
//! or put a code phase before it are refused, naming `required` or
//! `target-code`.

mod seq_harness;

use oracle::diff::run::{listing_function, run_oracle, run_ptxc, simulate};
use oracle::diff::{Config, Program, Variant};
use oracle::ptx_interp::RunLimits;
use ptxc::ir::Op;
use seq_harness::*;

const CONV: u16 = ptxc::phases::table::CONVERT_UNSUPPORTED;

const ARCHS: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];

fn sm(name: &str) -> &'static ptxc::targets::SmInfo {
    ptxc::targets::lookup_sm(name).unwrap()
}

/// A buffer of u32 words.
fn words(name: &str, v: Vec<u64>) -> BufferSpec {
    BufferSpec {
        name: name.into(),
        ty: ElemType::U32,
        len: v.len() as u64,
        init: Init::Bits(v),
    }
}

fn zeros(name: &str, n: usize) -> BufferSpec {
    BufferSpec {
        name: name.into(),
        ty: ElemType::U32,
        len: n as u64,
        init: Init::Zeros,
    }
}

/// A launch of `n` threads in CTAs of 256 with buffers `ins` (read) and
/// `outs` (written, zeroed), passed in that order.
fn launch(n: usize, ins: Vec<BufferSpec>, outs: &[String]) -> LaunchSpec {
    let mut params = Vec::new();
    let mut buffers = ins;
    for o in outs {
        buffers.push(zeros(o, n));
    }
    for b in &buffers {
        params.push(ParamValue::Buffer {
            name: b.name.clone(),
            offset: 0,
        });
    }
    LaunchSpec {
        file: None,
        base_dir: ".".into(),
        ptx: None,
        kernel: "k".into(),
        grid_dims: vec![(n / 256) as u32],
        block_dims: vec![256],
        params,
        buffers,
        textures: vec![],
        surfaces: Vec::new(),
        outputs: Some(outs.to_vec()),
        dynamic_shared_bytes: 0,
        compare: CompareRule::default(),
    }
}

/// A kernel: thread `i` loads `a[i]` into `%a` (and `m[i]` into `%m` with
/// `mask`), runs `body` with results `%d0..`, stores each to its buffer.
/// With `mask`, the lanes whose bit of `%m` is clear skip `body`, and
/// the module says `.target sm_80` (the PTX ISA's first target for
/// `redux.sync`; the driver's `-arch` picks the compile target, as
/// ptxas's does for code generation), else `.target sm_70`.
fn kernel(nout: usize, mask: bool, body: &str) -> String {
    let target = if mask { "sm_80" } else { "sm_70" };
    let mut params = String::from(".param .u64 pa");
    if mask {
        params.push_str(", .param .u64 pm");
    }
    let mut store = String::new();
    for k in 0..nout {
        params.push_str(&format!(", .param .u64 pd{k}"));
        store.push_str(&format!(
            "ld.param.u64 %rd1, [pd{k}];\ncvta.to.global.u64 %rd1, %rd1;\nadd.s64 %rd1, %rd1, %rd0;\nst.global.u32 [%rd1], %d{k};\n"
        ));
    }
    let load_m = if mask {
        "ld.param.u64 %rd1, [pm];\ncvta.to.global.u64 %rd1, %rd1;\nadd.s64 %rd1, %rd1, %rd0;\nld.global.u32 %m, [%rd1];\nmov.u32 %lane, %laneid;\nshr.b32 %t, %m, %lane;\nand.b32 %t, %t, 1;\nsetp.eq.u32 %out, %t, 0;\n@%out bra SKIP;\n"
    } else {
        ""
    };
    format!(
        ".version 7.8\n.target {target}\n.address_size 64\n\
         .visible .entry k({params})\n{{\n\
         .reg .b32 %a, %m, %lane, %t, %i, %n, %c;\n.reg .b32 %d<{nout}>;\n.reg .f32 %f<{nout}>;\n\
         .reg .b64 %rd<2>;\n.reg .pred %out;\n\
         mov.u32 %i, %tid.x;\nmov.u32 %n, %ntid.x;\nmov.u32 %c, %ctaid.x;\nmad.lo.u32 %i, %c, %n, %i;\n\
         mul.wide.u32 %rd0, %i, 4;\n\
         ld.param.u64 %rd1, [pa];\ncvta.to.global.u64 %rd1, %rd1;\nadd.s64 %rd1, %rd1, %rd0;\nld.global.u32 %a, [%rd1];\n\
         {}\
         {load_m}{body}\nSKIP:\n{store}ret;\n}}\n",
        (0..nout)
            .map(|k| format!("mov.u32 %d{k}, 0;\n"))
            .collect::<String>()
    )
}

/// Compiles `ptx` for every target at -O0 and -O3 and requires the
/// simulator's outputs to equal the interpreter's; returns, per target,
/// the opcodes of the -O3 listing and phase 5's fired count there.
///
/// The compile is the driver's PhaseManager pipeline on the lowered
/// kernel (`ptxc::phases::run_budgeted` with the default plan of the -O
/// level, the driver's steps after lowering), its printed listing
/// (EmitSassListing) read back for the target and simulated. With
/// `driver`, also the driver itself (`run_ptxc`): `redux.sync` cannot go
/// through it below sm_80, whose PTX validator refuses the instruction
/// there as ptxas does ("requires .target sm_80"), so the expansion is
/// reached through the pipeline only.
fn check(
    name: &str,
    ptx: &str,
    spec: LaunchSpec,
    driver: bool,
) -> Vec<(&'static str, Vec<Op>, u64)> {
    let p = Program::new(name, ptx, spec);
    let limits = RunLimits::default();
    let oracle = run_oracle(&p, &limits).unwrap_or_else(|v| panic!("{name}: {}", v.line()));
    let mut out = Vec::new();
    for arch in ARCHS {
        let sm = sm(arch);
        let kern = ptxc::lower::lower_module(&oracle.module, sm, &Default::default())
            .unwrap_or_else(|e| panic!("{name} {arch}: {e}"))
            .into_iter()
            .find(|k| k.name == "k")
            .unwrap();
        let inputs = oracle::sim::SimInputs::from_lowered(&kern);
        for opt in [0, 3] {
            let what = format!("{name} {arch} -O{opt}");
            let plan = ptxc::phases::PhaseOptions::default().plan(opt).unwrap();
            let phased = ptxc::phases::run(&plan, kern.function.clone(), Some(sm))
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let text = ptxc::ir::sass_text::print_function(phased.cx.listing.as_ref().unwrap());
            let f = listing_function(&text, &kern.name, sm)
                .unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
            for i in f.insts() {
                assert!(i.lacking(sm).is_none(), "{what}: {} in the listing", i.op);
            }
            let v = simulate(&f, sm, &p, &oracle, &inputs, &limits);
            assert!(!v.is_failure(), "{what}: {}", v.line());
            if driver {
                let r = run_ptxc(
                    &p,
                    &oracle,
                    &Config::ptxc(sm, opt, Variant::Default),
                    &limits,
                );
                assert!(
                    !r.verdict.is_failure(),
                    "{what} (driver): {}",
                    r.verdict.line()
                );
                assert_eq!(r.fired.get(&CONV), phased.cx.fired.get(&CONV), "{what}");
            }
            if opt == 3 {
                out.push((
                    sm.name,
                    f.insts().map(|i| i.op).collect(),
                    phased.cx.fired.get(&CONV).copied().unwrap_or(0),
                ));
            }
        }
    }
    out
}

/// The member mask of warp `w` (all 32 lanes present).
fn member_mask(w: usize, rng: &mut Rng) -> u32 {
    let m = match w % 8 {
        0 | 1 => u32::MAX,
        2 => 0x0000_ffff,
        3 => 0xffff_0000,
        4 => 0x5555_5555,
        5 => 1 << (rng.next() % 32),
        6 => !(1 << (rng.next() % 32)),
        _ => rng.next() as u32,
    };
    if m == 0 {
        u32::MAX
    } else {
        m
    }
}

#[test]
fn redux_sync_every_operation_on_every_target() {
    let ops = [
        "add.u32", "add.s32", "min.u32", "min.s32", "max.u32", "max.s32", "and.b32", "or.b32",
        "xor.b32",
    ];
    let body: String = ops
        .iter()
        .enumerate()
        .map(|(k, o)| format!("redux.sync.{o} %d{k}, %a, %m;\n"))
        .collect();
    let src = kernel(ops.len(), true, &body);
    // 512 warps: random words, edge values in every third warp, one value
    // per warp in every seventh (or fifth).
    let edges = edge_int(32);
    let mut rng = Rng(0xc0_5eed);
    let (mut a, mut m) = (Vec::new(), Vec::new());
    for w in 0..512 {
        let mm = member_mask(w, &mut rng);
        // Every lane the same value: in every fifth warp one of the
        // extremes (the identities of signed/unsigned min and max, and),
        // so that a wrong start value of the member loop shows.
        let same = if w % 5 == 1 {
            [0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0][(w / 5) % 4]
        } else {
            rng.next() & 0xffff_ffff
        };
        for _ in 0..32 {
            a.push(match w % 7 {
                3 => same,
                _ if w % 5 == 1 => same,
                _ if w % 3 == 0 => edges[(rng.next() % edges.len() as u64) as usize],
                _ => rng.next() & 0xffff_ffff,
            });
            m.push(u64::from(mm));
        }
    }
    let n = a.len();
    let outs: Vec<String> = (0..ops.len()).map(|k| format!("d{k}")).collect();
    let spec = launch(n, vec![words("a", a), words("m", m)], &outs);
    for (arch, listing, fired) in check("redux", &src, spec, false) {
        let has_redux = Op::REDUX.available_on(sm(arch));
        // One REDUX per operation where the target has it, none (the
        // expansion: SHFL, FLO) where it does not.
        let reduxes = listing.iter().filter(|&&o| o == Op::REDUX).count();
        if has_redux {
            assert_eq!(reduxes, ops.len(), "{arch}");
            assert_eq!(fired, 0, "{arch}: nothing to convert");
        } else {
            assert_eq!(reduxes, 0, "{arch}");
            assert!(
                listing.contains(&Op::SHFL) && listing.contains(&Op::FLO),
                "{arch}"
            );
            assert_eq!(fired, ops.len() as u64, "{arch}: one conversion per REDUX");
        }
    }
}

/// The 32-bit values where int -> f32 rounding is decided: every power of
/// two with its neighbours (and their negations), 2^24 +- small offsets
/// (the last exactly representable run), halfway cases above 2^24 and
/// near 2^31 and 2^32.
fn cvt_edges() -> Vec<u64> {
    let mut v = edge_int(32);
    for base in [1u64 << 24, 1 << 25, 1 << 31, 0xffff_ff00] {
        for d in 0..=8u64 {
            v.push((base + d) & 0xffff_ffff);
            v.push(base.wrapping_sub(d) & 0xffff_ffff);
        }
    }
    // Halfway between two f32 values (ties to even go both ways).
    v.extend([
        0x0100_0001,
        0x0100_0003,
        0x7fff_ffc0,
        0x7fff_ff40,
        0xffff_ff80,
        0xffff_fe80,
        0x8000_0040,
        0x8000_00c0,
    ]);
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn cvt_f32_from_32_bit_integers_on_every_target() {
    let forms: Vec<String> = ["rn", "rz", "rm", "rp"]
        .iter()
        .flat_map(|r| ["s32", "u32"].map(|t| format!("cvt.{r}.f32.{t}")))
        .collect();
    let body: String = forms
        .iter()
        .enumerate()
        .map(|(k, c)| format!("{c} %f{k}, %a;\nmov.b32 %d{k}, %f{k};\n"))
        .collect();
    let src = kernel(forms.len(), false, &body);
    let n = 131_072;
    let mut a = cvt_edges();
    let edges = a.len();
    let mut rng = Rng(0x12f9);
    while a.len() < n {
        a.push(rng.next() & 0xffff_ffff);
    }
    assert!(n - edges >= 100_000);
    let outs: Vec<String> = (0..forms.len()).map(|k| format!("d{k}")).collect();
    let spec = launch(n, vec![words("a", a)], &outs);
    for (arch, listing, fired) in check("cvt", &src, spec, true) {
        let i2fp = listing.iter().filter(|&&o| o == Op::I2FP).count();
        let i2f = listing.iter().filter(|&&o| o == Op::I2F).count();
        if Op::I2FP.available_on(sm(arch)) {
            assert_eq!((i2fp, i2f, fired), (forms.len(), 0, 0), "{arch}");
        } else {
            assert_eq!(
                (i2fp, i2f, fired),
                (0, forms.len(), forms.len() as u64),
                "{arch}"
            );
        }
    }
}

#[test]
fn orders_without_the_conversion_first_are_refused() {
    let src = kernel(1, false, "cvt.rn.f32.s32 %f0, %a;\nmov.b32 %d0, %f0;");
    let spec = launch(256, vec![words("a", (0..256).collect())], &["d0".into()]);
    let p = Program::new("order", src, spec);
    let compile = |order: &str, disabled: &[&str]| {
        let mut opts = Config::ptxc(sm("sm_75"), 3, Variant::Default).driver_options("k");
        opts.phases.order = (!order.is_empty()).then(|| order.to_string());
        opts.phases.disabled = disabled.iter().map(|s| s.to_string()).collect();
        ptxc::driver::compile(&p.name, &p.ptx, &opts, None)
            .result
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    compile("0,5,157", &[]).unwrap();
    let e = compile("0,157", &[]).unwrap_err();
    assert!(
        e.contains("`required`") && e.contains("ConvertUnsupportedOps (5) is missing"),
        "{e}"
    );
    let e = compile("0,16,5,157", &[]).unwrap_err();
    assert!(
        e.contains("`target-code`") && e.contains("must run before OriPerformLiveDeadFirst (16)"),
        "{e}"
    );
    let e = compile("", &["ConvertUnsupportedOps"]).unwrap_err();
    assert!(e.contains("`required`"), "{e}");
    // Every random valid order keeps the conversion before the code phases.
    for seed in 0..20 {
        let o = ptxc::phases::order::random_valid_order(seed);
        let at = o
            .iter()
            .position(|&i| i == 5)
            .expect("phase 5 in the order");
        assert!(o[..at].iter().all(|&i| i < 5), "seed {seed}: {o:?}");
    }
}
