//! The packed-half atomic adds on shared and generic memory
//! (compiler/src/lower/atom_spin.rs: ptxas's `ATOMS.CAST.SPIN` loops and
//! the generic `ATOM` with its `QSPC` fallbacks), executed in the
//! simulator against the PTX interpreter (the `seq_harness` runner) on
//! every target of the SM table; ptxas 11.8's own listings of the same
//! kernels (oracle/tests/atom_spin_vendor) in the simulator against the
//! interpreter; and the ptxc driver's listings (-O0, -O3: allocated,
//! scheduled, control codes checked) against the interpreter.
//!
//! Thread `i` adds its `b[i]` to the 32-bit word of its slot: the group of
//! `k` consecutive threads (inside one warp) starting at `i - i % k`, whose
//! word is `m[i - i % k]`. Modes: `shared` (the word staged in `.shared`
//! through a 32-bit address), `generic` over global (`m` itself), over
//! shared (`cvta.shared`) and over local (`cvta.local` of a per-thread
//! `.local` word, `k` = 1). With `k` > 1 the lanes of a group contend: the
//! spin loop retries, the hardware `ATOM` and `ATOMS.CAST.SPIN` serialize
//! them in lane order as the interpreter runs threads in thread order, so
//! the returned old values agree too. Outputs: `m` and the old values `d`.
//! A last kernel has all threads of a block `red` on one `.shared`
//! variable word (`[sm]`) with values whose sums are exact (any order).
//!
//! Domains: all pairs of f16/bf16 edge values (±0, subnormals, ±inf, NaNs,
//! the largest finite values, ...) in the low halves and a rotated pairing
//! in the high halves, and seeded random words.

mod seq_harness;

use seq_harness::*;

const ALL: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];

/// Random words per run.
const NRANDOM: usize = 4096;

const F16_EDGES: &[u64] = &[
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00,
    0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x4248, 0x3c01, 0x1400, 0x7800,
];

const BF16_EDGES: &[u64] = &[
    0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x3f80, 0xbf80, 0x7f7f, 0xff7f, 0x7f80, 0xff80,
    0x7fc0, 0xffc0, 0x7f81, 0x4049, 0x3f81, 0x3b80, 0x0100, 0x7f00,
];

/// Where the word lives.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Shared,
    GenericGlobal,
    GenericShared,
    GenericLocal,
}

const MODES: [Mode; 4] = [
    Mode::Shared,
    Mode::GenericGlobal,
    Mode::GenericShared,
    Mode::GenericLocal,
];

/// The instruction: `atom` (old value into `%d`) or `red`, of type `t`,
/// on the address `addr`.
fn inst(form: &str, t: &str, mode: Mode, addr: &str) -> String {
    let sp = if mode == Mode::Shared { ".shared" } else { "" };
    if form == "atom" {
        format!("atom{sp}.add.noftz.{t} %d, [{addr}], %b;")
    } else {
        format!("red{sp}.add.noftz.{t} [{addr}], %b;")
    }
}

/// The kernel (see the module doc); `.target` sm_90, rewritten per target
/// for ptxas.
fn kernel(form: &str, t: &str, mode: Mode) -> String {
    let (setup, addr, teardown) = match mode {
        Mode::GenericGlobal => ("", "%pw", ""),
        Mode::Shared | Mode::GenericShared => (
            "mov.u32 %sa, sm; shl.b32 %v, %tx, 2; shl.b32 %w, %k, 2; neg.s32 %w, %w;\n\
             and.b32 %v, %v, %w; add.u32 %sa, %sa, %v;\n\
             @%isl ld.global.b32 %v, [%pw]; @%isl st.shared.b32 [%sa], %v; bar.sync 0;\n\
             cvt.u64.u32 %la, %sa; cvta.shared.u64 %ga, %la;",
            if mode == Mode::Shared { "%sa" } else { "%ga" },
            "bar.sync 0; @%isl ld.shared.b32 %v, [%sa]; @%isl st.global.b32 [%pw], %v;",
        ),
        Mode::GenericLocal => (
            "ld.global.b32 %v, [%pw]; st.local.b32 [lv], %v; mov.u64 %la, lv; cvta.local.u64 %ga, %la;",
            "%ga",
            "ld.local.b32 %v, [lv]; st.global.b32 [%pw], %v;",
        ),
    };
    let body = inst(form, t, mode, addr);
    format!(
        r#".version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u32 pk, .param .u64 pm_, .param .u64 pb_, .param .u64 pd_)
{{
.shared .align 4 .b32 sm[256];
.local .align 4 .b32 lv[1];
.reg .u32 %i, %k, %cx, %nx, %tx, %slot, %lead, %sa;
.reg .b32 %v, %w, %b, %d;
.reg .u64 %pm, %pw, %pb, %pd, %la, %ga;
.reg .pred %isl;
mov.u32 %cx, %ctaid.x;
mov.u32 %nx, %ntid.x;
mov.u32 %tx, %tid.x;
mad.lo.u32 %i, %cx, %nx, %tx;
ld.param.u32 %k, [pk];
rem.u32 %slot, %tx, %k;
sub.u32 %lead, %i, %slot;
setp.eq.u32 %isl, %slot, 0;
ld.param.u64 %pm, [pm_]; mad.wide.u32 %pw, %lead, 4, %pm;
ld.param.u64 %pb, [pb_]; mad.wide.u32 %pb, %i, 4, %pb;
ld.param.u64 %pd, [pd_]; mad.wide.u32 %pd, %i, 4, %pd;
ld.global.b32 %b, [%pb];
mov.b32 %d, 0;
{setup}
{body}
{teardown}
st.global.b32 [%pd], %d;
ret;
}}
"#
    )
}

/// The cross-warp kernel: every thread of a block adds `b[i]` to the
/// block's word, `.shared` variable `sm` (an absolute address).
fn kernel_block(t: &str) -> String {
    format!(
        r#".version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u32 pk, .param .u64 pm_, .param .u64 pb_, .param .u64 pd_)
{{
.shared .align 4 .b32 sm[4];
.reg .u32 %i, %cx, %nx, %tx;
.reg .b32 %v, %b;
.reg .u64 %pm, %pb;
.reg .pred %isl;
mov.u32 %cx, %ctaid.x;
mov.u32 %nx, %ntid.x;
mov.u32 %tx, %tid.x;
mad.lo.u32 %i, %cx, %nx, %tx;
setp.eq.u32 %isl, %tx, 0;
ld.param.u64 %pm, [pm_]; mad.wide.u32 %pm, %i, 4, %pm;
ld.param.u64 %pb, [pb_]; mad.wide.u32 %pb, %i, 4, %pb;
ld.global.b32 %b, [%pb];
@%isl ld.global.b32 %v, [%pm]; @%isl st.shared.b32 [sm+4], %v; bar.sync 0;
red.shared.add.noftz.{t} [sm+4], %b;
bar.sync 0; @%isl ld.shared.b32 %v, [sm+4]; @%isl st.global.b32 [%pm], %v;
ret;
}}
"#
    )
}

/// The launch: `m`, `b` initialised, `d` zeros, `k` threads a word;
/// outputs `m` and `d`.
fn spec(k: u32, m: &[u64], b: &[u64]) -> LaunchSpec {
    let n = m.len();
    assert_eq!(n % BLOCK as usize, 0);
    let buf = |name: &str, v: Option<&[u64]>| BufferSpec {
        name: name.into(),
        ty: ElemType::U32,
        len: n as u64,
        init: match v {
            Some(v) => Init::Bits(v.to_vec()),
            None => Init::Zeros,
        },
    };
    let mut params = vec![ParamValue::Scalar {
        ty: ElemType::U32,
        value: oracle::launch::Scalar::Int(i128::from(k)),
    }];
    for name in ["m", "b", "d"] {
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
        buffers: vec![buf("m", Some(m)), buf("b", Some(b)), buf("d", None)],
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

/// Packed inputs (m, b): every pair of edges in the low halves, a rotated
/// pairing in the high halves; and random words.
fn domains(e: &[u64], seed: u64) -> [(Vec<u64>, Vec<u64>); 2] {
    let p = pairs(e, e);
    let len = p[0].len();
    let word = |v: &Vec<u64>, j: usize, k: usize| v[j] | v[(j * 5 + k + 1) % len] << 16;
    let mut m: Vec<u64> = (0..len).map(|j| word(&p[0], j, 0)).collect();
    let mut b: Vec<u64> = (0..len).map(|j| word(&p[1], j, 1)).collect();
    pad(&mut m);
    pad(&mut b);
    [(m, b), random_words(seed, NRANDOM)]
}

/// `n` seeded random packed pairs (m, b), padded to whole blocks.
fn random_words(seed: u64, n: usize) -> (Vec<u64>, Vec<u64>) {
    let mut rng = Rng(seed);
    let mut r = || -> Vec<u64> { (0..n).map(|_| rng.word(16) | rng.word(16) << 16).collect() };
    let (mut m, mut b) = (r(), r());
    pad(&mut m);
    pad(&mut b);
    (m, b)
}

fn check_on(src: &str, sp: &LaunchSpec, arch: &str, what: &str) {
    let (m, b) = match (&sp.buffers[0].init, &sp.buffers[1].init) {
        (Init::Bits(m), Init::Bits(b)) => (m, b),
        _ => unreachable!(),
    };
    match differences(src, sp, arch) {
        Err(e) => panic!("{what} on {arch}: {e}"),
        Ok(x) if x.is_empty() => {}
        Ok(x) => {
            let show: Vec<String> = x
                .iter()
                .take(6)
                .map(|(buf, k, want, got)| {
                    format!(
                        "{buf}[{k}] (m {:#x}, b {:#x}): interpreter {want:#x}, lowered {got:#x}",
                        m[*k], b[*k]
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

/// Every mode, form and contention on `archs`; the other targets refuse.
fn run_type(t: &str, edges: &[u64], seed: u64, archs: &[&str]) {
    let ds = domains(edges, seed);
    for mode in MODES {
        for form in ["atom", "red"] {
            let src = kernel(form, t, mode);
            for arch in ALL {
                if !archs.contains(&arch) {
                    lowering_refuses(&src, arch, "requires sm_90");
                    continue;
                }
                let ks: &[u32] = if mode == Mode::GenericLocal {
                    &[1]
                } else {
                    &[1, 4, 32]
                };
                for &k in ks {
                    for (m, b) in &ds {
                        let what = format!("{form}.{t} {mode:?} k={k}");
                        check_on(&src, &spec(k, m, b), arch, &what);
                    }
                }
            }
        }
    }
}

/// [`RANDOM`] (10^5, the issue's count for 32-bit sequences) random
/// packed words per mode and form, one thread a word (`k` = 1), each on
/// one of `archs` in turn; `run_type` covers every target and contention
/// with fewer words.
fn run_type_random(t: &str, seed: u64, archs: &[&str]) {
    let (m, b) = random_words(seed, RANDOM);
    for (n, mode) in MODES.into_iter().enumerate() {
        for (j, form) in ["atom", "red"].into_iter().enumerate() {
            let arch = archs[(2 * n + j) % archs.len()];
            let what = format!("{form}.{t} {mode:?} k=1, {RANDOM} random words");
            check_on(&kernel(form, t, mode), &spec(1, &m, &b), arch, &what);
        }
    }
}

#[test]
fn adds_on_random_words() {
    run_type_random("f16x2", 64, &ALL);
    run_type_random("bf16x2", 65, &ALL[5..]);
}

#[test]
fn add_f16x2_shared_and_generic() {
    run_type("f16x2", F16_EDGES, 61, &ALL);
}

/// ptxas 11.8: "Instruction 'atom.add.bf16x2.shared' requires .target
/// sm_90 or higher" (the same for global and generic).
#[test]
fn add_bf16x2_shared_and_generic() {
    run_type("bf16x2", BF16_EDGES, 62, &ALL[5..]);
}

/// All 256 threads of a block `red` on one `.shared` word, across warps:
/// halves from {0, ±0.5, ±1, ±2} (bf16: {0, ±1}) keep every partial sum
/// exact, so the final word does not depend on the order.
#[test]
fn red_one_shared_word_per_block() {
    for (t, vals, archs) in [
        (
            "f16x2",
            &[0x0000u64, 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000][..],
            &ALL[..],
        ),
        ("bf16x2", &[0x0000, 0x3f80, 0xbf80][..], &ALL[5..]),
    ] {
        let mut rng = Rng(63);
        let n = 4 * BLOCK as usize;
        let mut half = || vals[(rng.next() % vals.len() as u64) as usize];
        let b: Vec<u64> = (0..n).map(|_| half() | half() << 16).collect();
        let m: Vec<u64> = (0..n).map(|_| half() | half() << 16).collect();
        let src = kernel_block(t);
        for arch in archs {
            check_on(
                &src,
                &spec(1, &m, &b),
                arch,
                &format!("red.shared.{t} [sm+4]"),
            );
        }
    }
}

// ---- ptxas's listings ------------------------------------------------------

/// One launch: kernel name, its source (as kernel `k`), `k`, (m, b).
type Launch = (String, String, u32, (Vec<u64>, Vec<u64>));

/// One module of the distinct kernels of `launches` for `arch`.
fn module_of(arch: &str, launches: &[Launch]) -> String {
    let mut out = String::new();
    let mut seen = std::collections::BTreeSet::new();
    for (name, text, _, _) in launches {
        if !seen.insert(name.clone()) {
            continue;
        }
        let text = text.replace(".target sm_90", &format!(".target {arch}"));
        let at = text.find(".visible .entry").unwrap();
        if out.is_empty() {
            out.push_str(&text[..at]);
        }
        out.push_str(&text[at..].replace(".entry k(", &format!(".entry {name}(")));
    }
    out
}

/// The vendor module's kernels for `arch`: (name, source of kernel `k`,
/// k, inputs). Generic atomics over shared memory run on sm_90 too, where
/// ptxas's `cvta.shared` adds `SR_SWINLO/HI` to the 0x400-based shared
/// address and its fallback masks the generic address to 24 bits (the
/// simulator's window holds shared addresses as they are). Generic over
/// local is left out everywhere: ptxas adds with `IADD3` there
/// (atom_spin.rs), which the interpreter does not.
fn vendor_kernels(arch: &str) -> Vec<Launch> {
    let sm: u32 = arch[3..].parse().unwrap();
    let mut v = Vec::new();
    let mut types = vec![("f16x2", F16_EDGES)];
    if sm >= 90 {
        types.push(("bf16x2", BF16_EDGES));
    }
    for (t, e) in types {
        let ds = domains(e, 71);
        for mode in [Mode::Shared, Mode::GenericGlobal, Mode::GenericShared] {
            for form in ["atom", "red"] {
                let name = format!("{form}_{t}_{mode:?}");
                v.push((name.clone(), kernel(form, t, mode), 1, ds[0].clone()));
                v.push((name, kernel(form, t, mode), 32, ds[1].clone()));
            }
        }
    }
    v
}

fn vendor_module(arch: &str) -> String {
    module_of(arch, &vendor_kernels(arch))
}

fn vendor_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/atom_spin_vendor")
}

/// ptxas 11.8's SASS for the same kernels (oracle/tests/atom_spin_vendor,
/// `spin.sm_XX.*`), run in the simulator against the interpreter, with and
/// without contention. With `ATOM_SPIN_VENDOR_WRITE=1` the modules are
/// (re)written instead.
#[test]
fn vendor_listings_match_the_interpreter() {
    let dir = vendor_dir();
    let write = std::env::var_os("ATOM_SPIN_VENDOR_WRITE").is_some();
    let mut ran = 0;
    for arch in ALL {
        let src = vendor_module(arch);
        let path = dir.join(format!("spin.{arch}.ptx"));
        if write {
            std::fs::write(&path, &src).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            committed, src,
            "{path:?} is stale: rerun with ATOM_SPIN_VENDOR_WRITE=1 and ptxas"
        );
        let sass = std::fs::read_to_string(dir.join(format!("spin.{arch}.O3.sass"))).unwrap();
        let m = ptxc::ptx::parse_checked("spin", &src).unwrap();
        for (name, _, k, (mm, b)) in vendor_kernels(arch) {
            let mut sp = spec(k, &mm, &b);
            sp.kernel = name;
            vendor_agrees(&m, &src, &sass, "spin", arch, &sp, |j| {
                format!("k {k}, m {:#x}, b {:#x}", mm[j], b[j])
            });
            ran += 1;
        }
    }
    // f16x2: 3 modes x 2 forms x 2 launches on 6 targets; bf16x2 on sm_90.
    assert!(write || ran == 6 * 12 + 12, "ran {ran}");
}

/// The listings convert to IR for their target (opcode table: modifiers,
/// operand shapes, availability) and print back to ptxas's text: the
/// parser/printer round trip of `ATOMS.CAST.SPIN`, `QSPC.E.S`, the generic
/// `ATOM.E.ADD.F16x2`/`.BF16x2` with a predicate destination and
/// `HFMA2.MMA R, R, 1, 1, R`.
#[test]
fn vendor_listings_round_trip_through_the_ir() {
    let mut seen = std::collections::BTreeSet::new();
    for arch in ALL {
        let text = std::fs::read_to_string(vendor_dir().join(format!("spin.{arch}.O3.sass")))
            .expect("listing");
        let file = ptxc::ir::sass_text::parse_file(&text).expect("parses");
        let sm = ptxc::targets::lookup_sm(arch).unwrap();
        for f in &file.functions {
            let ir = ptxc::ir::from_sass(f, Some(sm)).unwrap_or_else(|e| panic!("{arch}: {e}"));
            let back = ptxc::ir::to_sass(&ir, false).unwrap();
            assert_eq!(back.insts.len(), f.insts.len(), "{arch} {}", f.name);
            for (a, b) in back.insts.iter().zip(&f.insts) {
                assert_eq!(a.to_string(), b.to_string(), "{arch} {}", f.name);
                let s = a.to_string();
                for key in [
                    "ATOMS.CAST.SPIN",
                    "QSPC.E.S",
                    "ATOM.E.ADD.F16x2",
                    "HFMA2.MMA",
                ] {
                    if s.contains(key) {
                        seen.insert(key);
                    }
                }
            }
        }
    }
    assert_eq!(seen.len(), 4, "forms seen: {seen:?}");
}

// ---- the whole pipeline ----------------------------------------------------

/// Every kernel of this file's matrix (both types on sm_90, every mode and
/// form) compiled by the ptxc driver at -O0 and -O3 (register allocation,
/// scheduling, control codes: the simulator checks them), run against the
/// interpreter with and without contention.
#[test]
fn compiled_listings_match_the_interpreter() {
    let mut ran = 0;
    for arch in ALL {
        let mut types = vec![("f16x2", F16_EDGES)];
        if arch == "sm_90" {
            types.push(("bf16x2", BF16_EDGES));
        }
        let mut kernels: Vec<Launch> = Vec::new();
        for (t, e) in types {
            let ds = domains(e, 81);
            for mode in MODES {
                for form in ["atom", "red"] {
                    let name = format!("{form}_{t}_{mode:?}");
                    let ks: &[u32] = if mode == Mode::GenericLocal {
                        &[1]
                    } else {
                        &[1, 32]
                    };
                    for (j, &k) in ks.iter().enumerate() {
                        kernels.push((name.clone(), kernel(form, t, mode), k, ds[j].clone()));
                    }
                }
            }
        }
        let src = module_of(arch, &kernels);
        let m = ptxc::ptx::parse_checked("spin", &src).unwrap();
        for opt in ["-O0", "-O3"] {
            let opts = ptxc::cli::parse_args(&[opt.to_string(), format!("-arch={arch}")])
                .unwrap()
                .unwrap();
            let sass = ptxc::driver::compile("spin.ptx", &src, &opts.driver, None)
                .result
                .unwrap_or_else(|e| panic!("{arch} {opt}: {e}"))
                .sass;
            for (name, _, k, (mm, b)) in &kernels {
                let mut sp = spec(*k, mm, b);
                sp.kernel = name.clone();
                vendor_agrees(&m, &src, &sass, "spin", arch, &sp, |j| {
                    format!("{opt}, k {k}, m {:#x}, b {:#x}", mm[j], b[j])
                });
                ran += 1;
            }
        }
    }
    // 14 launches per type and target, two levels, 7 type-target pairs
    // (bf16x2 on sm_90 only).
    assert_eq!(ran, 14 * 2 * 7, "ran {ran}");
}

/// A guarded atomic (`@!%isl`: every thread but the group's first) is
/// branched around as a whole (lower/mod.rs `instruction`): the loop and
/// the generic fallbacks run for the other threads only.
#[test]
fn guarded_forms() {
    let ds = domains(F16_EDGES, 91);
    for mode in MODES {
        let k = if mode == Mode::GenericLocal { 1 } else { 4 };
        for form in ["atom", "red"] {
            let src = kernel(form, "f16x2", mode);
            let addr = match mode {
                Mode::Shared => "%sa",
                Mode::GenericGlobal => "%pw",
                _ => "%ga",
            };
            let body = inst(form, "f16x2", mode, addr);
            let guarded = src.replace(&body, &format!("@!%isl {body}"));
            assert_ne!(guarded, src);
            for arch in ["sm_70", "sm_90"] {
                for (m, b) in &ds {
                    let what = format!("@!%isl {form} {mode:?} k={k}");
                    check_on(&guarded, &spec(k, m, b), arch, &what);
                }
            }
        }
    }
}

/// [`kernel`] with `.address_size 32` (`.target sm_80`; refused from
/// sm_90 on): 32-bit generic addresses (no `.E`; the interpreter's 32-bit
/// windows, whose bases the runners put in the same bank-0 words).
fn kernel32(form: &str, t: &str, mode: Mode) -> String {
    let s = kernel(form, t, mode)
        .replace(".target sm_90", ".target sm_80")
        .replace(".address_size 64", ".address_size 32")
        .replace(".param .u64", ".param .u32")
        .replace(".reg .u64", ".reg .u32")
        .replace("ld.param.u64", "ld.param.u32")
        .replace("mad.wide.u32", "mad.lo.u32")
        .replace("cvt.u64.u32 %la, %sa;", "mov.u32 %la, %sa;")
        .replace("cvta.shared.u64", "cvta.shared.u32")
        .replace("mov.u64 %la, lv;", "mov.u32 %la, lv;")
        .replace("cvta.local.u64", "cvta.local.u32");
    assert!(!s.contains("u64"), "{s}");
    s
}

#[test]
fn add_f16x2_with_32_bit_addresses() {
    let ds = domains(F16_EDGES, 92);
    for mode in MODES {
        let k = if mode == Mode::GenericLocal { 1 } else { 4 };
        for form in ["atom", "red"] {
            let src = kernel32(form, "f16x2", mode);
            for arch in ["sm_70", "sm_80", "sm_89"] {
                for (m, b) in &ds {
                    let what = format!("-m32 {form}.f16x2 {mode:?} k={k}");
                    check_on(&src, &spec(k, m, b), arch, &what);
                }
            }
        }
    }
}
