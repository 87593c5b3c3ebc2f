//! The harness of the lowering's sequence tests (`lower_sequences.rs`,
//! `lower_int_misc.rs`; `lower_warp_sync.rs` uses its runner
//! [`differences`] and inputs with a kernel of its own): a PTX kernel
//! applies operations to input buffers (one element per thread), runs
//! in the PTX interpreter and, lowered by `ptxc::lower::lower_target`
//! (the lowering, then phase 5 ConvertUnsupportedOps for the target), in
//! the SM simulator on the same launch; every output word must agree bit for
//! bit. Input generation (edge values, exhaustive 8/16-bit domains,
//! seeded random words) lives here too; the domains are described in
//! `lower_sequences.rs`.
#![allow(dead_code)]

pub use oracle::launch::{BufferSpec, CompareRule, ElemType, Init, LaunchSpec, ParamValue};
use oracle::ptx_interp::{self, Outcome, RunLimits};
use oracle::sim::SimInputs;
use ptxc::driver::lower_target;
use ptxc::lower::LowerOptions;

/// Random inputs per 32/64-bit operation (on top of the edge values).
pub const RANDOM: usize = 100_000;

/// A small deterministic generator (splitmix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value of `bits` bits: uniform, small, near a power of two, or a
    /// float-shaped pattern.
    pub fn word(&mut self, bits: u32) -> u64 {
        let m = mask(bits);
        let r = self.next();
        let v = match r % 8 {
            0 => self.next() % 64,
            1 => (self.next() % 64).wrapping_neg(),
            2 => {
                let k = self.next() % u64::from(bits);
                (1u64 << k).wrapping_add((self.next() % 5).wrapping_sub(2))
            }
            3 => {
                let k = self.next() % u64::from(bits);
                (1u64 << k).wrapping_neg()
            }
            _ => self.next(),
        };
        v & m
    }
}

pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Integer edge values of a width.
pub fn edge_int(bits: u32) -> Vec<u64> {
    let m = mask(bits);
    let mut v = vec![0, 1, m, 2, m - 1, 3, 7, 10];
    let min = 1u64 << (bits - 1);
    v.extend([min, min - 1, min + 1, min.wrapping_neg() & m]);
    for k in 1..bits {
        let p = 1u64 << k;
        v.extend([p, p - 1, p + 1, p.wrapping_neg() & m]);
    }
    v.iter_mut().for_each(|x| *x &= m);
    v.sort_unstable();
    v.dedup();
    v
}

pub fn edge_f32() -> Vec<u64> {
    let mut v: Vec<u32> = vec![
        0,
        0x8000_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0000,
        0x7f80_0001,
        0x7fbf_ffff,
        0x0000_0001,
        0x8000_0001,
        0x007f_ffff,
        0x807f_ffff,
        0x0080_0000,
        0x8080_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x3f00_0000,
        0x3fc0_0000,
        0x4000_0000,
        0xc040_0000,
        0x4f00_0000,
        0xcf00_0000,
        0x5f00_0000,
        0xdf00_0000,
        0x4f80_0000,
        0x5f80_0000,
        0x3eaa_aaab,
        0x3f7f_ffff,
        0x3f80_0001,
        0x4b00_0000,
        0x4b7f_ffff,
        0x3effffff,
        0x3f3f_ffff,
        0x4020_0000,
        0x1e80_0000,
        0x6000_0000,
        0x2000_0000,
        0x0040_0000,
        0x4effffff,
        0xceffffff,
        0x477f_e000,
        0x4780_0000,
    ];
    v.sort_unstable();
    v.dedup();
    v.into_iter().map(u64::from).collect()
}

pub fn edge_f64() -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        0x8000_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0xfff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
        0x0000_0000_0000_0001,
        0x8000_0000_0000_0001,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0xffef_ffff_ffff_ffff,
        0x3fe0_0000_0000_0000,
        0x3ff8_0000_0000_0000,
        0x4000_0000_0000_0000,
        0xc008_0000_0000_0000,
        0x41e0_0000_0000_0000,
        0xc1e0_0000_0000_0000,
        0x43e0_0000_0000_0000,
        0xc3e0_0000_0000_0000,
        0x41f0_0000_0000_0000,
        0x43f0_0000_0000_0000,
        0x3fd5_5555_5555_5555,
        0x3fef_ffff_ffff_ffff,
        0x3ff0_0000_0000_0001,
        0x4330_0000_0000_0000,
        0x3fdf_ffff_ffff_ffff,
        0x0008_0000_0000_0000,
        0x2000_0000_0000_0000,
        0x6000_0000_0000_0000,
        0x47ef_ffff_e000_0000,
        0x4170_0000_0000_0000,
        0x41df_ffff_ffc0_0000,
    ];
    v.sort_unstable();
    v.dedup();
    v
}

/// The structured sets of 16-bit values a binary 16-bit operation's other
/// operand ranges over: the second operand for every first one, and the
/// first for every second one.
pub fn edge16() -> (Vec<u64>, Vec<u64>) {
    (
        vec![
            0, 1, 2, 3, 7, 0x00ff, 0x1234, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff,
        ],
        vec![0, 1, 0x7fff, 0x8000, 0xffff, 0x5555],
    )
}

pub fn elem(t: &str) -> ElemType {
    match t {
        "u8" | "b8" => ElemType::U8,
        "s8" => ElemType::S8,
        "u16" | "b16" => ElemType::U16,
        "s16" => ElemType::S16,
        "f16" => ElemType::F16,
        "u32" | "b32" => ElemType::U32,
        "s32" => ElemType::S32,
        "f32" => ElemType::F32,
        "u64" | "b64" => ElemType::U64,
        "s64" => ElemType::S64,
        "f64" => ElemType::F64,
        _ => panic!("type {t}"),
    }
}

pub fn bits_of(t: &str) -> u32 {
    match elem(t) {
        ElemType::U8 | ElemType::S8 => 8,
        ElemType::U16 | ElemType::S16 | ElemType::F16 => 16,
        ElemType::U32 | ElemType::S32 | ElemType::F32 => 32,
        _ => 64,
    }
}

/// The PTX register declaration type for a buffer element type: 8-bit
/// values travel in 16-bit registers.
pub fn reg_ty(t: &str) -> &str {
    match t {
        "u8" | "b8" => "u16",
        "s8" => "s16",
        t => t,
    }
}

/// One operation: `body` reads `%a`, `%b`, `%c` (of the input types) and
/// writes `%d` (of the output type); `%p`, `%q` are free predicates and
/// `%t0..%t3` free registers of each width.
pub struct Op {
    pub name: String,
    pub ins: Vec<&'static str>,
    pub out: &'static str,
    pub body: String,
}

pub fn op(name: &str, ins: &[&'static str], out: &'static str, body: &str) -> Op {
    Op {
        name: name.to_string(),
        ins: ins.to_vec(),
        out,
        body: body.to_string(),
    }
}

/// One kernel for a group of operations over the same inputs: output
/// buffer `dK` receives operation K's `%d`.
/// The module's `.target`: sm_80, or sm_86 when an operation needs it
/// (`.xorsign.abs`: PTX ISA 9.7.3.10, sm_86; the validator refuses it for
/// an sm_80 module). The lowering's target is chosen separately.
pub fn kernel_target(g: &[Op]) -> &'static str {
    // `set`/`setp` on bf16 need a module for sm_90 (ptxas 11.8: "Feature
    // 'setp.bf16' requires .target sm_90 or higher"); the lowering is
    // still checked on every target of the group.
    let bf16_compare = |b: &str| {
        b.split(';')
            .any(|i| i.trim_start().starts_with("set") && i.contains(".bf16"))
    };
    if g.iter().any(|o| bf16_compare(&o.body)) {
        "sm_90"
    } else if g.iter().any(|o| o.body.contains(".xorsign")) {
        "sm_86"
    } else {
        "sm_80"
    }
}

pub fn kernel(g: &[Op]) -> String {
    let ins = &g[0].ins;
    let mut params = String::from(".param .u32 pn");
    let mut loads = String::new();
    let mut decl = String::new();
    for (k, t) in ins.iter().enumerate() {
        let n = ["a", "b", "c"][k];
        params.push_str(&format!(", .param .u64 p{n}"));
        decl.push_str(&format!(".reg .{} %{n};\n", reg_ty(t)));
        let w = bits_of(t) / 8;
        loads.push_str(&format!(
            "ld.param.u64 %rp, [p{n}]; mad.wide.u32 %rp, %i, {w}, %rp; ld.global.{t} %{n}, [%rp];\n"
        ));
    }
    let mut body = String::new();
    for (k, o) in g.iter().enumerate() {
        params.push_str(&format!(", .param .u64 pd{k}"));
        decl.push_str(&format!(".reg .{} %d{k};\n", reg_ty(o.out)));
        let w = bits_of(o.out) / 8;
        body.push_str(&format!(
            "{}\nld.param.u64 %rp, [pd{k}]; mad.wide.u32 %rp, %i, {w}, %rp; st.global.{} [%rp], %d{k};\n",
            o.body.replace("%d", &format!("%d{k}")),
            o.out
        ));
    }
    let target = kernel_target(g);
    format!(
        r#".version 7.8
.target {target}
.address_size 64
.visible .entry k({params})
{{
.reg .u32 %i, %n, %cx, %nx, %tx;
.reg .u64 %rp;
.reg .pred %p, %q, %ex;
{decl}mov.u32 %cx, %ctaid.x;
mov.u32 %nx, %ntid.x;
mov.u32 %tx, %tid.x;
mad.lo.u32 %i, %cx, %nx, %tx;
ld.param.u32 %n, [pn];
setp.ge.u32 %ex, %i, %n;
@%ex bra DONE;
{loads}{body}
DONE:
ret;
}}
"#
    )
}

pub const BLOCK: u32 = 256;

pub fn spec(g: &[Op], inputs: &[Vec<u64>]) -> LaunchSpec {
    let n = inputs[0].len();
    let mut params = vec![ParamValue::Scalar {
        ty: ElemType::U32,
        value: oracle::launch::Scalar::Int(n as i128),
    }];
    let mut buffers = vec![];
    for (k, t) in g[0].ins.iter().enumerate() {
        let name = ["a", "b", "c"][k].to_string();
        params.push(ParamValue::Buffer {
            name: name.clone(),
            offset: 0,
        });
        buffers.push(BufferSpec {
            name,
            ty: elem(t),
            len: n as u64,
            init: Init::Bits(inputs[k].clone()),
        });
    }
    let mut outputs = vec![];
    for (k, o) in g.iter().enumerate() {
        let name = format!("d{k}");
        params.push(ParamValue::Buffer {
            name: name.clone(),
            offset: 0,
        });
        buffers.push(BufferSpec {
            name: name.clone(),
            ty: elem(o.out),
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
        grid_dims: vec![(n as u32).div_ceil(BLOCK)],
        block_dims: vec![BLOCK],
        params,
        buffers,
        textures: vec![],
        surfaces: Vec::new(),
        outputs: Some(outputs),
        dynamic_shared_bytes: 0,
        compare: CompareRule::default(),
    }
}

/// Runs `src` for `spec` in the interpreter and, lowered for `arch`, in
/// the simulator; the differing elements (index, interpreter, simulator).
pub type Diff = (String, usize, u64, u64);

pub fn differences(src: &str, spec: &LaunchSpec, arch: &str) -> Result<Vec<Diff>, String> {
    let limits = RunLimits::default();
    let m = ptxc::ptx::parse_checked("seq", src).map_err(|e| format!("parse: {e}"))?;
    let t0 = std::time::Instant::now();
    let want = ptx_interp::run(&m, src, spec, &limits).map_err(|e| format!("interp: {e:?}"))?;
    let t1 = t0.elapsed();
    if want.outcome != Outcome::Completed {
        return Err(format!("interpreter: {:?}", want.outcome));
    }
    let sm = ptxc::targets::lookup_sm(arch).unwrap();
    let ks = lower_target(&m, sm, &LowerOptions::default()).map_err(|e| format!("lower: {e}"))?;
    let kern = ks.iter().find(|k| k.name == spec.kernel).unwrap();
    let inputs = SimInputs::from_lowered(kern);
    let got = oracle::sim::run(&kern.function, sm, spec, &inputs, &limits)
        .map_err(|e| format!("sim setup: {e}"))?;
    if got.outcome != Outcome::Completed {
        return Err(format!("simulator: {:?}", got.outcome));
    }
    if std::env::var_os("SEQ_TIME").is_some() {
        eprintln!(
            "{arch} n={} interp {t1:?} total {:?}",
            spec.buffers[0].len,
            t0.elapsed()
        );
    }
    let mut out = Vec::new();
    for b in &want.outputs.buffers {
        let g = got.outputs.get(&b.name).expect("the same outputs");
        for (k, (x, y)) in b.bits.iter().zip(&g.bits).enumerate() {
            if x != y {
                out.push((b.name.clone(), k, *x, *y));
            }
        }
    }
    Ok(out)
}

/// Checks the group `g` on `inputs` (one vector per operand, equal
/// lengths) for each arch; panics with the first mismatches and their
/// inputs.
pub fn check(g: &[Op], inputs: &[Vec<u64>], archs: &[&str]) {
    let src = kernel(g);
    let sp = spec(g, inputs);
    let names: Vec<&str> = g.iter().map(|o| o.name.as_str()).collect();
    for arch in archs {
        match differences(&src, &sp, arch) {
            Err(e) => panic!("{names:?} on {arch}: {e}"),
            Ok(d) if d.is_empty() => {}
            Ok(d) => {
                let show: Vec<String> = d
                    .iter()
                    .take(8)
                    .map(|(buf, k, want, got)| {
                        let op = &g[buf[1..].parse::<usize>().unwrap()].name;
                        let ins: Vec<String> =
                            inputs.iter().map(|v| format!("{:#x}", v[*k])).collect();
                        format!(
                            "{op}({}) -> interpreter {want:#x}, lowered {got:#x}",
                            ins.join(", ")
                        )
                    })
                    .collect();
                panic!(
                    "on {arch}: {} of {} x {} outputs differ:\n  {}",
                    d.len(),
                    inputs[0].len(),
                    g.len(),
                    show.join("\n  ")
                );
            }
        }
    }
}

/// All pairs of two value lists, as two operand vectors.
pub fn pairs(a: &[u64], b: &[u64]) -> Vec<Vec<u64>> {
    let mut x = Vec::with_capacity(a.len() * b.len());
    let mut y = Vec::with_capacity(a.len() * b.len());
    for &p in a {
        for &q in b {
            x.push(p);
            y.push(q);
        }
    }
    vec![x, y]
}

pub fn edges(t: &str) -> Vec<u64> {
    match t {
        "f32" => edge_f32(),
        "f64" => edge_f64(),
        t => edge_int(bits_of(t)),
    }
}

/// Inputs for an operation over `ins`: exhaustive for 8 bits and unary 16
/// bits, structured for binary 16 bits, edges plus random otherwise.
/// Returns (edge inputs, random inputs).
pub fn inputs(ins: &[&str], seed: u64) -> (Vec<Vec<u64>>, Vec<Vec<u64>>) {
    let wmax = ins.iter().map(|t| bits_of(t)).max().unwrap();
    let n = ins.len();
    if wmax == 8 && n <= 2 {
        let all: Vec<u64> = (0..256).collect();
        let ex = if n == 1 { vec![all] } else { pairs(&all, &all) };
        return (ex, vec![]);
    }
    if wmax == 16 && n == 1 {
        return (vec![(0..65536).collect()], vec![]);
    }
    if wmax <= 16 && n == 2 {
        let all: Vec<u64> = (0..65536).collect();
        let (second, first) = edge16();
        let mut ex = pairs(&all, &second);
        let rev = pairs(&first, &all);
        ex[0].extend(&rev[0]);
        ex[1].extend(&rev[1]);
        return (ex, vec![]);
    }
    // Edge values: all pairs.
    let e: Vec<Vec<u64>> = ins.iter().map(|t| edges(t)).collect();
    let ex = match n {
        1 => vec![e[0].clone()],
        2 => pairs(&e[0], &e[1]),
        _ => {
            // Every pair of the first two operands' edges, the third
            // cycling through its edges.
            let mut p = pairs(&e[0], &e[1]);
            let c = (0..p[0].len()).map(|j| e[2][j % e[2].len()]).collect();
            p.push(c);
            p
        }
    };
    let mut rng = Rng(seed);
    let rnd = ins
        .iter()
        .map(|t| (0..RANDOM).map(|_| rng.word(bits_of(t))).collect())
        .collect();
    (ex, rnd)
}

/// Runs a group of operations over the same input types: edges on
/// sm_70/80/90, random on sm_80.
pub fn run(g: &[Op]) {
    let key = g.iter().map(|o| o.name.as_str()).collect::<String>();
    let seed = key.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let (ex, rnd) = inputs(&g[0].ins, seed);
    let archs: &[&str] = if ex[0].len() > 20_000 {
        &["sm_80"]
    } else {
        &["sm_70", "sm_80", "sm_90"]
    };
    check(g, &ex, archs);
    if !rnd.is_empty() {
        check(g, &rnd, &["sm_80"]);
    }
}

/// Runs operations in groups of the same input types (one launch per
/// group), at most 12 operations a launch.
pub fn run_all(ops: Vec<Op>) {
    let mut groups: Vec<Vec<Op>> = Vec::new();
    for o in ops {
        match groups
            .iter_mut()
            .find(|g| g[0].ins == o.ins && g.len() < 12)
        {
            Some(g) => g.push(o),
            None => groups.push(vec![o]),
        }
    }
    for g in &groups {
        run(g);
    }
}

/// Runs kernel `sp.kernel` of the PTX `src` (parsed: `m`) in the
/// interpreter and ptxas's listing `sass` of it in the simulator, and
/// panics at the first output word that differs; `inputs(k)` describes
/// word `k`'s inputs for the message.
pub fn vendor_agrees(
    m: &ptxc::ptx::ast::Module,
    src: &str,
    sass: &str,
    module: &str,
    arch: &str,
    sp: &LaunchSpec,
    inputs: impl Fn(usize) -> String,
) {
    let limits = RunLimits::default();
    let name = sp.kernel.as_str();
    let want = ptx_interp::run(m, src, sp, &limits).unwrap();
    let got = oracle::commands::sim::run_sass(
        sp,
        sass,
        module,
        arch,
        Some(name),
        &SimInputs::default(),
        &limits,
    )
    .unwrap_or_else(|e| panic!("{arch} {name}: {e}"));
    // A run stopped early (a fault, or a hazard of the control codes)
    // leaves partial outputs that may still agree.
    assert_eq!(
        want.outcome,
        Outcome::Completed,
        "{arch} {name}: interpreter"
    );
    assert_eq!(
        got.outcome,
        Outcome::Completed,
        "{arch} {name}: the listing"
    );
    for b in &want.outputs.buffers {
        let x = &got.outputs.get(&b.name).unwrap().bits;
        let bad: Vec<usize> = (0..b.bits.len()).filter(|&k| b.bits[k] != x[k]).collect();
        assert!(
            bad.is_empty(),
            "{arch} {name} {}: {} differ, first at {} ({}): interpreter {:#x}, ptxas {:#x}",
            b.name,
            bad.len(),
            bad[0],
            inputs(bad[0]),
            b.bits[bad[0]],
            x[bad[0]]
        );
    }
}

/// Requires ptxc's lowering to refuse the module `src` on `arch` with a
/// message naming the target and `needs`.
pub fn lowering_refuses(src: &str, arch: &str, needs: &str) {
    let m = ptxc::ptx::parse_checked("refused", src).expect("parses");
    let sm = ptxc::targets::lookup_sm(arch).unwrap();
    match ptxc::driver::lower_target(&m, sm, &ptxc::lower::LowerOptions::default()) {
        Ok(_) => panic!("lowered on {arch}; expected a refusal"),
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.contains(needs) && msg.contains(arch),
                "{arch}: {msg:?} should name {arch} and {needs:?}"
            );
        }
    }
}
