//! Generic-address atomics whose hardware `ATOM` does not act on every
//! space (compiler/src/ir/atom_reach.rs, measured on ptxas 11.8; lowered
//! by compiler/src/lower/atom_generic.rs: the guarded `ATOM`, `QSPC` and
//! the shared `ATOMS.CAST.SPIN[.64]` loop or the local `LD`/`ST`), and for
//! contrast forms that ptxas leaves plain; executed in the simulator
//! against the PTX interpreter (`seq_harness`) on every target; ptxas
//! 11.8's own listings of the same kernels (oracle/tests/atom_generic_vendor)
//! in the simulator against the interpreter; a ptxas listing with its
//! fallback cut off, which proves the simulator's rule matters; and the
//! ptxc driver's listings at -O0/-O3.
//!
//! Thread `i` applies its `b[i]` (and `c[i]` for `cas`) to the word of its
//! slot: the group of `k` consecutive threads (inside one warp) starting at
//! `i - i % k`, whose word is `m[i - i % k]`. Modes: generic addresses of
//! global memory (`m` itself), of shared memory (`cvta.shared`) and of
//! local memory (`cvta.local` of a per-thread `.local` word, `k` = 1).
//! With `k` > 1 the lanes of a group contend; the hardware `ATOM` and the
//! `ATOMS.CAST.SPIN` loop serialize them in lane order as the interpreter
//! runs threads in thread order, so the old values agree too. Outputs: `m`
//! and the old values `d`.
//!
//! Domains: pairs of edge values of the type (integers: every 8th of
//! seq_harness's edges; f32/f64: all, ±0, subnormals, infinities, NaNs,
//! ...), for `cas` with `b` = the word on even elements so that swaps
//! happen; and seeded random words.

mod seq_harness;

use seq_harness::*;

const ALL: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];

/// Random words per run.
const NRANDOM: usize = 1024;

/// The forms ptxas guards (atom_reach.rs table), then plain ones.
const GUARDED: [(&str, &str); 12] = [
    ("add", "u64"),
    ("min", "u64"),
    ("min", "s64"),
    ("max", "u64"),
    ("max", "s64"),
    ("and", "b64"),
    ("or", "b64"),
    ("xor", "b64"),
    ("exch", "b64"),
    ("cas", "b64"),
    ("add", "f32"),
    ("add", "f64"),
];

const PLAIN: [(&str, &str); 5] = [
    ("add", "u32"),
    ("max", "s32"),
    ("inc", "u32"),
    ("exch", "b32"),
    ("cas", "b32"),
];

/// Where the word lives: generic addresses of global, shared or local
/// memory (printed `GenericGlobal`, ...: the vendor kernels' names), or
/// a `.shared` address (`atom.shared`, whose forms `ATOMS` lacks are
/// ptxas's `ATOMS.CAST.SPIN` loop alone).
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Global,
    Shared,
    Local,
    SharedSpace,
}

impl std::fmt::Debug for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self {
            Mode::Global => "GenericGlobal",
            Mode::Shared => "GenericShared",
            Mode::Local => "GenericLocal",
            Mode::SharedSpace => "SharedSpace",
        };
        f.write_str(s)
    }
}

const MODES: [Mode; 4] = [Mode::Global, Mode::Shared, Mode::Local, Mode::SharedSpace];

fn width(t: &str) -> u32 {
    bits_of(t) / 8
}

fn inst(form: &str, op: &str, t: &str, addr: &str) -> String {
    match (form, op) {
        ("atom", "cas") => format!("atom.cas.{t} %d, [{addr}], %b, %c;"),
        ("atom", _) => format!("atom.{op}.{t} %d, [{addr}], %b;"),
        _ => format!("red.{op}.{t} [{addr}], %b;"),
    }
}

/// The kernel (module doc); `.target sm_90`, rewritten per target.
fn kernel(form: &str, op: &str, t: &str, mode: Mode) -> String {
    let w = width(t);
    let rt = if w == 8 { "b64" } else { "b32" };
    let (setup, teardown) = match mode {
        Mode::Global => (String::new(), String::new()),
        Mode::Shared | Mode::SharedSpace => (
            format!(
                "mov.u32 %sa, sm; mul.lo.u32 %x, %tx, {w}; mul.lo.u32 %y, %k, {w}; neg.s32 %y, %y;\n\
                 and.b32 %x, %x, %y; add.u32 %sa, %sa, %x;\n\
                 @%isl ld.global.{rt} %v, [%pw]; @%isl st.shared.{rt} [%sa], %v; bar.sync 0;\n\
                 cvt.u64.u32 %la, %sa; cvta.shared.u64 %ga, %la;"
            ),
            format!("bar.sync 0; @%isl ld.shared.{rt} %v, [%sa]; @%isl st.global.{rt} [%pw], %v;"),
        ),
        Mode::Local => (
            format!(
                "ld.global.{rt} %v, [%pw]; st.local.{rt} [lv], %v; mov.u64 %la, lv; cvta.local.u64 %ga, %la;"
            ),
            format!("ld.local.{rt} %v, [lv]; st.global.{rt} [%pw], %v;"),
        ),
    };
    let body = match mode {
        Mode::Global => inst(form, op, t, "%pw"),
        Mode::SharedSpace => inst(form, op, t, "%sa").replacen(form, &format!("{form}.shared"), 1),
        _ => inst(form, op, t, "%ga"),
    };
    format!(
        r#".version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u32 pk, .param .u64 pm_, .param .u64 pb_, .param .u64 pc_, .param .u64 pd_)
{{
.shared .align 8 .{rt} sm[256];
.local .align 8 .{rt} lv[1];
.reg .u32 %i, %k, %cx, %nx, %tx, %slot, %lead, %sa, %x, %y;
.reg .{rt} %v, %b, %c, %d;
.reg .u64 %pm, %pw, %pb, %pc, %pd, %la, %ga;
.reg .pred %isl;
mov.u32 %cx, %ctaid.x;
mov.u32 %nx, %ntid.x;
mov.u32 %tx, %tid.x;
mad.lo.u32 %i, %cx, %nx, %tx;
ld.param.u32 %k, [pk];
sub.u32 %x, %k, 1; and.b32 %slot, %tx, %x;
sub.u32 %lead, %i, %slot;
setp.eq.u32 %isl, %slot, 0;
ld.param.u64 %pm, [pm_]; mad.wide.u32 %pw, %lead, {w}, %pm;
ld.param.u64 %pb, [pb_]; mad.wide.u32 %pb, %i, {w}, %pb;
ld.param.u64 %pc, [pc_]; mad.wide.u32 %pc, %i, {w}, %pc;
ld.param.u64 %pd, [pd_]; mad.wide.u32 %pd, %i, {w}, %pd;
ld.global.{rt} %b, [%pb];
ld.global.{rt} %c, [%pc];
mov.{rt} %d, 0;
{setup}
{body}
{teardown}
st.global.{rt} [%pd], %d;
ret;
}}
"#
    )
}

/// (m, b, c) inputs.
type Inputs = (Vec<u64>, Vec<u64>, Vec<u64>);

/// The launch: `k` threads a word; outputs `m` and `d`.
fn spec(t: &str, k: u32, (m, b, c): &Inputs) -> LaunchSpec {
    let n = m.len();
    assert_eq!(n % BLOCK as usize, 0);
    let ty = if width(t) == 8 {
        ElemType::U64
    } else {
        ElemType::U32
    };
    let buf = |name: &str, v: Option<&Vec<u64>>| BufferSpec {
        name: name.into(),
        ty,
        len: n as u64,
        init: match v {
            Some(v) => Init::Bits(v.clone()),
            None => Init::Zeros,
        },
    };
    let mut params = vec![ParamValue::Scalar {
        ty: ElemType::U32,
        value: oracle::launch::Scalar::Int(i128::from(k)),
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

fn pad(v: &mut Vec<u64>) {
    let n = v.len().next_multiple_of(BLOCK as usize);
    for k in v.len()..n {
        v.push(v[k % v.len().max(1)]);
    }
}

/// Edge pairs and random words (module doc).
fn domains(op: &str, t: &str, seed: u64) -> [Inputs; 2] {
    let e: Vec<u64> = match t {
        "f32" | "f64" => edges(t),
        _ => edges(t).into_iter().step_by(8).collect(),
    };
    let p = pairs(&e, &e);
    let (mut m, mut b) = (p[0].clone(), p[1].clone());
    let len = m.len();
    let mut c: Vec<u64> = (0..len).map(|j| b[(j * 5 + 1) % len]).collect();
    if op == "cas" {
        for j in (0..len).step_by(2) {
            b[j] = m[j];
        }
    }
    for v in [&mut m, &mut b, &mut c] {
        pad(v);
    }
    [(m, b, c), random_words(op, t, seed, NRANDOM)]
}

/// `n` seeded random words of `t` (for `cas`, `b` = the word on even
/// elements so that swaps happen), padded to whole blocks.
fn random_words(op: &str, t: &str, seed: u64, n: usize) -> Inputs {
    let mut rng = Rng(seed);
    let bits = bits_of(t);
    let mut r = || -> Vec<u64> { (0..n).map(|_| rng.word(bits)).collect() };
    let (mut m, mut b, c) = (r(), r(), r());
    if op == "cas" {
        for j in (0..n).step_by(2) {
            b[j] = m[j];
        }
    }
    for v in [&mut m, &mut b] {
        pad(v);
    }
    (m, b, c)
}

fn check_on(src: &str, sp: &LaunchSpec, arch: &str, what: &str, inp: &Inputs) {
    match differences(src, sp, arch) {
        Err(e) => panic!("{what} on {arch}: {e}"),
        Ok(x) if x.is_empty() => {}
        Ok(x) => {
            let show: Vec<String> = x
                .iter()
                .take(6)
                .map(|(buf, k, want, got)| {
                    format!(
                        "{buf}[{k}] (m {:#x}, b {:#x}, c {:#x}): interpreter {want:#x}, lowered {got:#x}",
                        inp.0[*k], inp.1[*k], inp.2[*k]
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

fn forms(op: &str) -> &'static [&'static str] {
    if op == "exch" || op == "cas" {
        &["atom"]
    } else {
        &["atom", "red"]
    }
}

fn run_forms(list: &[(&str, &str)], seed: u64) {
    for (j, &(op, t)) in list.iter().enumerate() {
        let ds = domains(op, t, seed + j as u64);
        for mode in MODES {
            for form in forms(op) {
                let src = kernel(form, op, t, mode);
                for arch in ALL {
                    let ks: &[u32] = if mode == Mode::Local {
                        &[1]
                    } else {
                        &[1, 4, 32]
                    };
                    for &k in ks {
                        for d in &ds {
                            let what = format!("{form}.{op}.{t} {mode:?} k={k}");
                            check_on(&src, &spec(t, k, d), arch, &what, d);
                        }
                    }
                }
            }
        }
    }
}

/// [`RANDOM`] (10^5, the issue's count for 32- and 64-bit sequences)
/// random words per form and mode, one thread a word (`k` = 1), each form
/// on one target in turn; `run_forms` covers every target and contention
/// with fewer words.
fn run_forms_random(list: &[(&str, &str)], seed: u64) {
    for (j, &(op, t)) in list.iter().enumerate() {
        let d = random_words(op, t, seed + j as u64, RANDOM);
        for (n, mode) in MODES.into_iter().enumerate() {
            let arch = ALL[(j + n) % ALL.len()];
            for form in forms(op) {
                let src = kernel(form, op, t, mode);
                let what = format!("{form}.{op}.{t} {mode:?} k=1, {RANDOM} random words");
                check_on(&src, &spec(t, 1, &d), arch, &what, &d);
            }
        }
    }
}

#[test]
fn guarded_forms_on_random_words() {
    run_forms_random(&GUARDED, 131);
}

#[test]
fn guarded_64_bit_integer_forms() {
    run_forms(&GUARDED[..10], 101);
}

#[test]
fn guarded_float_adds() {
    run_forms(&GUARDED[10..], 111);
}

#[test]
fn plain_forms() {
    run_forms(&PLAIN, 121);
}

/// The sm_80 lowering (before any phase) of `kernel(form, op, t, mode)`.
fn sm80_listing(form: &str, op: &str, t: &str, mode: Mode) -> String {
    let src = kernel(form, op, t, mode).replace(".target sm_90", ".target sm_80");
    let m = ptxc::ptx::parse_checked("g", &src).unwrap();
    let sm = ptxc::targets::lookup_sm("sm_80").unwrap();
    let ks = ptxc::driver::lower_target(&m, sm, &ptxc::lower::LowerOptions::default()).unwrap();
    ptxc::ir::to_sass(&ks[0].function, false)
        .unwrap()
        .insts
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The lowering follows ptxas's shape: guarded forms get the predicate
/// `ATOM`, and `QSPC` exactly where the reach is global only; plain forms
/// a `PT` `ATOM` and no `QSPC`; generic `red` is an `ATOM` with `RZ` (no
/// `RED`, which ptxas 11.8 writes for `red.global` only).
#[test]
fn lowered_shapes_follow_the_reach_rule() {
    let all: Vec<(&str, &str)> = GUARDED.iter().chain(&PLAIN).copied().collect();
    for (op, t) in all {
        for form in forms(op) {
            let text = sm80_listing(form, op, t, Mode::Global);
            let atom = text
                .lines()
                .find(|l| l.contains("ATOM.") && !l.contains("ATOMS"))
                .unwrap_or_else(|| panic!("{form}.{op}.{t}: no ATOM in\n{text}"));
            let guarded = GUARDED.contains(&(op, t));
            let qspc = guarded && op != "exch" && op != "cas";
            assert_eq!(!atom.contains(" PT,"), guarded, "{form}.{op}.{t}: {atom}");
            assert_eq!(text.contains("QSPC.E.S"), qspc, "{form}.{op}.{t}:\n{text}");
            // ptxas writes no generic `RED`: `red` is the `ATOM` with `RZ`.
            assert!(!text.contains("RED"), "{form}.{op}.{t}:\n{text}");
            if *form == "red" {
                assert!(atom.contains(", RZ, ["), "{form}.{op}.{t}: {atom}");
            }
            // `.shared`: ptxas's loop exactly where the generic form has
            // a shared fallback (ptxas 11.8 sm_80/sm_90: `atom.shared.add.u64`
            // is `LDS.64` + `ATOMS.CAST.SPIN.64`, `exch.b64` `ATOMS.EXCH.64`).
            let text = sm80_listing(form, op, t, Mode::SharedSpace);
            let atoms: Vec<&str> = text.lines().filter(|l| l.contains("ATOMS")).collect();
            let want = if qspc {
                "ATOMS.CAST.SPIN".to_string()
            } else {
                format!("ATOMS.{}", op.to_uppercase())
            };
            assert!(
                atoms.len() == 1 && atoms[0].contains(&want),
                "{form}.shared.{op}.{t}: want {want}:\n{text}"
            );
        }
    }
}

/// With `.address_size 32` the atomics carry no `.E` (ptxas 11.8, sm_80:
/// `ATOM.ADD.STRONG.GPU PT, R2, [UR4+-0x8], R2`, `ATOMG.ADD...`,
/// `ATOM.ADD.64.STRONG.GPU P0, ...` + `QSPC.S`), and run right.
#[test]
fn thirty_two_bit_addresses() {
    for (op, t) in [
        ("add", "u32"),
        ("add", "u64"),
        ("cas", "b64"),
        ("add", "f32"),
    ] {
        let ds = domains(op, t, 131);
        for mode in MODES {
            let s = kernel("atom", op, t, mode)
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
            let m = ptxc::ptx::parse_checked("g", &s).unwrap();
            let sm = ptxc::targets::lookup_sm("sm_80").unwrap();
            let ks =
                ptxc::driver::lower_target(&m, sm, &ptxc::lower::LowerOptions::default()).unwrap();
            for i in ks[0].function.blocks.iter().flat_map(|b| &b.insts) {
                let txt = format!("{:?}", i.mods);
                if matches!(
                    i.op,
                    ptxc::ir::Op::ATOM
                        | ptxc::ir::Op::ATOMG
                        | ptxc::ir::Op::RED
                        | ptxc::ir::Op::QSPC
                ) {
                    assert!(!i.mods.contains(&"E"), "{op}.{t} {mode:?}: {txt}");
                }
            }
            let k = if mode == Mode::Local { 1 } else { 4 };
            for d in &ds {
                check_on(
                    &s,
                    &spec(t, k, d),
                    "sm_80",
                    &format!("-m32 {op}.{t} {mode:?}"),
                    d,
                );
            }
        }
    }
}

// ---- ptxas's listings ------------------------------------------------------

/// One launch: kernel name, its source (as kernel `k`), type, `k`, inputs.
type Launch = (String, String, &'static str, u32, Inputs);

/// One module of the distinct kernels of `launches` for `arch`.
fn module_of(arch: &str, launches: &[Launch]) -> String {
    let mut out = String::new();
    let mut seen = std::collections::BTreeSet::new();
    for (name, text, ..) in launches {
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

/// The vendor module's kernels (the same on every target): every guarded
/// form as `atom` (and `red.add.u64`/`.f32`) on generic addresses of
/// global, shared and local memory and on `.shared` addresses (ptxas's
/// `ATOMS.EXCH.64`/`.CAS.64` there set no write scoreboard and rely on the
/// `BAR.SYNC` after them: `ptxc::pipe::model::drains_shared_memory`),
/// without (`k` 1, edges) and with (`k` 32, random)
/// contention. On sm_90 ptxas's `cvta.shared` adds `SR_SWINLO/HI` to the
/// 0x400-based shared address (the simulator models both words).
fn vendor_kernels() -> Vec<Launch> {
    let mut v = Vec::new();
    let mut list: Vec<(&str, &str, &str)> = GUARDED.iter().map(|&(o, t)| ("atom", o, t)).collect();
    list.push(("red", "add", "u64"));
    list.push(("red", "add", "f32"));
    for (form, op, t) in list {
        let mut ds = domains(op, t, 141);
        if t == "f64" {
            // Two NaNs: ptxas's fallback `DADD n, b, old` returns b's, the
            // interpreter old's (its policy, ptx_interp/semantics/atomic.rs;
            // the ISA names no NaN): such pairs are left out here, and
            // under contention (the word a chain of sums) NaN `b`s.
            let nan = |x: u64| x & !(1 << 63) > 0x7ff0_0000_0000_0000;
            for (n, d) in ds.iter_mut().enumerate() {
                for j in 0..d.0.len() {
                    if nan(d.1[j]) && (n == 1 || nan(d.0[j])) {
                        d.1[j] = 0;
                    }
                }
            }
        }
        for mode in MODES {
            let name = format!("{form}_{op}_{t}_{mode:?}");
            let src = kernel(form, op, t, mode);
            v.push((name.clone(), src.clone(), t, 1, ds[0].clone()));
            if mode != Mode::Local {
                v.push((name, src, t, 32, ds[1].clone()));
            }
        }
    }
    v
}

fn vendor_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/atom_generic_vendor")
}

fn vendor_sass(arch: &str) -> String {
    std::fs::read_to_string(vendor_dir().join(format!("generic.{arch}.O3.sass"))).unwrap()
}

/// The byte range of function `name`'s text in a cuobjdump listing.
fn function_span(sass: &str, name: &str) -> (usize, usize) {
    let start = sass.find(&format!("Function : {name}\n")).unwrap();
    let end = sass[start + 1..]
        .find("Function : ")
        .map_or(sass.len(), |e| start + 1 + e);
    (start, end)
}

/// ptxas 11.8's SASS for the kernels (oracle/tests/atom_generic_vendor,
/// `generic.sm_XX.*`) in the simulator against the interpreter. With
/// `ATOM_GENERIC_VENDOR_WRITE=1` the modules are (re)written instead.
#[test]
fn vendor_listings_match_the_interpreter() {
    let write = std::env::var_os("ATOM_GENERIC_VENDOR_WRITE").is_some();
    let mut ran = 0;
    for arch in ALL {
        let ks = vendor_kernels();
        let src = module_of(arch, &ks);
        let path = vendor_dir().join(format!("generic.{arch}.ptx"));
        if write {
            std::fs::write(&path, &src).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            committed, src,
            "{path:?} is stale: rerun with ATOM_GENERIC_VENDOR_WRITE=1 and ptxas"
        );
        let sass = vendor_sass(arch);
        let m = ptxc::ptx::parse_checked("generic", &src).unwrap();
        for (name, _, t, k, inp) in ks {
            let mut sp = spec(t, k, &inp);
            if k > 1 && (name.contains("_min_") || name.contains("_max_")) {
                // ptxas's shared loop lets a lane whose `b` leaves the word
                // as it is exit before the others store (its old value is
                // the word before theirs): a valid order, not the
                // interpreter's thread order; the final words agree.
                sp.outputs = Some(vec!["m".into()]);
            }
            sp.kernel = name;
            vendor_agrees(&m, &src, &sass, "generic", arch, &sp, |j| {
                format!(
                    "k {k}, m {:#x}, b {:#x}, c {:#x}",
                    inp.0[j], inp.1[j], inp.2[j]
                )
            });
            ran += 1;
        }
    }
    // 14 kernels x (global 2 + shared 2 + local 1 + `.shared` 2) launches
    // on 6 targets.
    assert!(write || ran == 14 * 7 * 6, "ran {ran}");
}

/// ptxas's listing of `atom.add.u64` on a generic shared address (sm_80)
/// with the fallback cut off (`@P0 BRA done` made unconditional): the word
/// is left as it was, which differs from the interpreter. So the guarded
/// `ATOM` does not act on shared memory in the simulator (atom_reach.rs)
/// and the intact listing (previous test) is right only through its
/// `QSPC`/`ATOMS.CAST.SPIN.64` fallback; likewise ptxc's former plain
/// `ATOM.E.ADD.64 PT, ...` would now fail. The local-memory listing of
/// `atom.exch.b64` (reach NotLocal) likewise.
#[test]
fn cut_fallback_is_wrong_under_the_rule() {
    let arch = "sm_80";
    let ks = vendor_kernels();
    let src = module_of(arch, &ks);
    let m = ptxc::ptx::parse_checked("generic", &src).unwrap();
    let sass = vendor_sass(arch);
    for (name, t) in [
        ("atom_add_u64_GenericShared", "u64"),
        ("atom_exch_b64_GenericLocal", "b64"),
    ] {
        // The function's text, then its first `@P0 BRA` (right after the ATOM).
        let (start, end) = function_span(&sass, name);
        let func = &sass[start..end];
        let atom = func.find("ATOM.E.").expect("the generic ATOM");
        let pd = func[atom..]
            .split_whitespace()
            .nth(1)
            .unwrap()
            .trim_end_matches(',');
        assert!(pd.starts_with('P') && pd != "PT", "{name}: {pd}");
        // `@P0 BRA done` made unconditional, or (ptxas's short local
        // fallback) the `@!P0` loads and stores made never-executing.
        let guard = format!("@{pd} BRA");
        let tail = match func[atom..].find(&guard) {
            Some(at) => {
                let at = atom + at;
                format!(
                    "{}{:>w$}{}",
                    &func[..at],
                    "BRA",
                    &func[at + guard.len()..],
                    w = guard.len()
                )
            }
            None => {
                let rest = func[atom..].replace(&format!("@!{pd} "), "@!PT ");
                assert_ne!(rest, func[atom..], "{name}: no fallback found");
                format!("{}{rest}", &func[..atom])
            }
        };
        let cut = format!("{}{tail}{}", &sass[..start], &sass[end..]);
        let inp = &ks.iter().find(|l| l.0 == name && l.3 == 1).unwrap().4;
        let mut sp = spec(t, 1, inp);
        sp.kernel = name.into();
        let limits = oracle::ptx_interp::RunLimits::default();
        let want = oracle::ptx_interp::run(&m, &src, &sp, &limits).unwrap();
        let run = |text: &str| {
            oracle::commands::sim::run_sass(
                &sp,
                text,
                "generic",
                arch,
                Some(name),
                &oracle::sim::SimInputs::default(),
                &limits,
            )
            .unwrap()
        };
        let whole = run(&sass);
        let got = run(&cut);
        let mo = |o: &oracle::launch::OutputSet| o.get("m").unwrap().bits.clone();
        let w = &want.outputs.buffers[0];
        assert_eq!(w.name, "m");
        assert_eq!(mo(&whole.outputs), w.bits, "{name}: the intact listing");
        // Cut: every word as it was (exch/add leave no word unchanged
        // for these inputs except where b is the identity).
        let mut same = 0;
        for (j, x) in mo(&got.outputs).iter().enumerate() {
            assert_eq!(*x, inp.0[j], "{name}: the cut listing changed m[{j}]");
            if w.bits[j] != inp.0[j] {
                same += 1;
            }
        }
        assert!(
            same > inp.0.len() / 2,
            "{name}: the interpreter changed {same} words"
        );
    }
}

/// ptxas's `ATOMS.EXCH.64`/`.CAS.64` on `.shared` set no write scoreboard:
/// the `BAR.SYNC` after them is the only thing between the `ATOMS` and the
/// `STG` of its result (`ptxc::pipe::model::drains_shared_memory`). The
/// intact listings pass (`vendor_listings_match_the_interpreter`); with
/// that barrier made a `NOP` the simulator reports the unwaited result, so
/// the rule is what lets them pass, and it holds only past a barrier.
#[test]
fn the_barrier_after_atoms_completes_it() {
    let ks = vendor_kernels();
    for arch in ALL {
        let sass = vendor_sass(arch);
        for (name, t) in [
            ("atom_exch_b64_SharedSpace", "b64"),
            ("atom_cas_b64_SharedSpace", "b64"),
        ] {
            let (start, end) = function_span(&sass, name);
            let func = &sass[start..end];
            let atoms = func.find("ATOMS.").expect("the ATOMS");
            let bar = atoms
                + func[atoms..]
                    .find("BAR.SYNC 0x0 ;")
                    .expect("a BAR.SYNC after it");
            let cut = format!(
                "{}{}{:<14}{}{}",
                &sass[..start],
                &func[..bar],
                "NOP ;",
                &func[bar + 14..],
                &sass[end..]
            );
            let inp = &ks.iter().find(|l| l.0 == name && l.3 == 1).unwrap().4;
            let mut sp = spec(t, 1, inp);
            sp.kernel = name.into();
            let got = oracle::commands::sim::run_sass(
                &sp,
                &cut,
                "generic",
                arch,
                Some(name),
                &oracle::sim::SimInputs::default(),
                &oracle::ptx_interp::RunLimits::default(),
            )
            .unwrap();
            match &got.outcome {
                oracle::ptx_interp::Outcome::Hazard { hazard, .. } => {
                    assert_eq!(hazard.kind, oracle::ptx_interp::HazardKind::NoScoreboard);
                    assert!(
                        hazard.producer.contains("ATOMS."),
                        "{arch} {name}: {hazard:?}"
                    );
                }
                o => panic!("{arch} {name}: without the barrier: {o:?}"),
            }
        }
    }
}

// ---- the whole pipeline ----------------------------------------------------

/// The vendor kernels compiled by the ptxc driver at -O0 and -O3
/// (register allocation, scheduling, control codes), against the
/// interpreter, on every target.
#[test]
fn compiled_listings_match_the_interpreter() {
    let mut ran = 0;
    for arch in ALL {
        let ks = vendor_kernels();
        // One module per kernel: the driver lays out the function-scoped
        // `.shared` arrays of a module's entries one after the other
        // (observed: the 26th kernel's `sm` at 0xc800, past sm_70's
        // window), so a module of all of them would not fit.
        for (name, _, t, k, inp) in &ks {
            let src = module_of(
                arch,
                &ks.iter()
                    .filter(|l| &l.0 == name)
                    .cloned()
                    .collect::<Vec<_>>(),
            );
            let m = ptxc::ptx::parse_checked("generic", &src).unwrap();
            for opt in ["-O0", "-O3"] {
                let opts = ptxc::cli::parse_args(&[opt.to_string(), format!("-arch={arch}")])
                    .unwrap()
                    .unwrap();
                let sass = ptxc::driver::compile("generic.ptx", &src, &opts.driver, None)
                    .result
                    .unwrap_or_else(|e| panic!("{arch} {opt}: {e}"))
                    .sass;
                let mut sp = spec(t, *k, inp);
                sp.kernel = name.clone();
                vendor_agrees(&m, &src, &sass, "generic", arch, &sp, |j| {
                    format!("{opt}, k {k}, m {:#x}, b {:#x}", inp.0[j], inp.1[j])
                });
                ran += 1;
            }
        }
    }
    assert_eq!(ran, 2 * 14 * 7 * 6, "ran {ran}");
}
