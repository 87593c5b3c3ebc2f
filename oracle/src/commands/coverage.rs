//! `ptxdiff coverage [--count N] [--seed S] [--arch sm_XX] [--gen-config F]
//! [--real DIR...]`: how much of the instruction menu (gen/menu.rs) the
//! generator writes, and which shapes of real PTX it never writes.
//!
//! Generates N programs (default 10,000; seeds S.. , default 0), takes the
//! shape key (gen/shape.rs) of every instruction, and prints the menu forms
//! generated at least once against the menu's writable forms (those ptxc
//! lowers on sm_70/80/90), the writable forms never generated and the menu
//! forms ptxc does not lower. With `--real`, every `.ptx` file under the
//! directories is parsed (a time limit per file; a file that fails is
//! reported, never fatal) and the shapes never generated are printed most
//! frequent first, each with why: not generated in this run (a menu form),
//! refused by the front end (validator, for `--arch`), or not on the menu
//! (with the family that should write it).

use crate::gen::menu::{self, Refusal};
use crate::gen::shape::{for_each_instruction, shape_key};
use crate::gen::{generate, GenConfig};
use ptxc::ptx::isa::{Family as IsaFamily, Opcode};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// The time one real file may take to read and parse.
const FILE_LIMIT: Duration = Duration::from_secs(20);

#[derive(Clone, Debug, PartialEq)]
pub struct CoverageArgs {
    pub count: u64,
    pub seed: u64,
    pub arch: String,
    pub config: Option<PathBuf>,
    pub real: Vec<PathBuf>,
}

pub fn parse_args(args: &[String]) -> Result<CoverageArgs, String> {
    let mut c = CoverageArgs {
        count: 10_000,
        seed: 0,
        arch: "sm_70".into(),
        config: None,
        real: Vec::new(),
    };
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        let mut val = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match a.as_str() {
            "--count" => c.count = super::number("--count", &val("--count")?)?,
            "--seed" => c.seed = super::number("--seed", &val("--seed")?)?,
            "--arch" => {
                let v = val("--arch")?;
                if ptxc::targets::lookup_sm(&v).is_none() {
                    return Err(format!("--arch: unknown target '{v}'"));
                }
                c.arch = v;
            }
            "--gen-config" | "--config" => c.config = Some(val(a)?.into()),
            "--real" => {
                c.real.push(val("--real")?.into());
                while let Some(d) = it.next_if(|s| !s.starts_with("--")) {
                    c.real.push(d.into());
                }
            }
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(c)
}

/// Why a real shape was never generated.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Why {
    /// On the menu and writable: this run did not draw it.
    NotDrawn,
    /// On the menu; ptxc does not lower it, so the emitter never writes it.
    NotLowered(String),
    /// The front end refuses it (as a menu candidate, or in its file).
    FrontEnd(String),
    /// The interpreter does not execute it.
    Interpreter(String),
    /// Not on the register-only menu: the family that should write it.
    OffMenu(&'static str),
}

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Why::NotDrawn => write!(f, "menu form, not drawn in this run"),
            Why::NotLowered(m) => write!(f, "menu form ptxc does not lower: {m}"),
            Why::FrontEnd(m) => write!(f, "refused by the front end: {m}"),
            Why::Interpreter(m) => write!(f, "not executed by the interpreter: {m}"),
            Why::OffMenu(who) => write!(f, "not on the register-only menu; written by: {who}"),
        }
    }
}

/// One real shape never generated.
#[derive(Clone, Debug, PartialEq)]
pub struct Missing {
    pub shape: String,
    pub count: u64,
    pub why: Why,
}

/// The `--real` figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RealCoverage {
    pub files: usize,
    pub instructions: u64,
    pub shapes: usize,
    pub missing: Vec<Missing>,
    pub bad_files: Vec<(PathBuf, String)>,
}

impl RealCoverage {
    pub fn missing_instructions(&self) -> u64 {
        self.missing.iter().map(|m| m.count).sum()
    }
}

/// The command's figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coverage {
    pub programs: u64,
    /// Every generated shape with its instruction count.
    pub generated: BTreeMap<String, u64>,
    pub menu_forms: usize,
    pub writable: usize,
    /// Writable menu forms generated at least once.
    pub hit: usize,
    /// Writable forms never generated.
    pub never: Vec<String>,
    /// Menu forms ptxc does not lower (never written), with the reason.
    pub unlowered: Vec<(String, String)>,
    pub real: Option<RealCoverage>,
}

/// Runs the command; `print` receives the report lines.
pub fn coverage(args: &CoverageArgs, print: &mut dyn FnMut(&str)) -> Result<Coverage, String> {
    let cfg = match &args.config {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read '{}': {e}", p.display()))?;
            GenConfig::from_json(&text).map_err(|e| format!("{}:{e}", p.display()))?
        }
        None => GenConfig::default(),
    };
    let c = measure(args, &cfg)?;
    print(&c.render());
    Ok(c)
}

/// The figures without printing.
pub fn measure(args: &CoverageArgs, cfg: &GenConfig) -> Result<Coverage, String> {
    let generated = generated_shapes(args.seed, args.count, cfg);
    let m = menu::menu();
    let mut c = Coverage {
        programs: args.count,
        menu_forms: m.forms.len(),
        ..Coverage::default()
    };
    for f in &m.forms {
        match &f.lowers {
            Ok(()) => {
                c.writable += 1;
                if generated.contains_key(&f.key) {
                    c.hit += 1;
                } else {
                    c.never.push(f.key.clone());
                }
            }
            Err(e) => c.unlowered.push((f.key.clone(), e.clone())),
        }
    }
    c.generated = generated;
    if !args.real.is_empty() {
        let sm = ptxc::targets::lookup_sm(&args.arch)
            .ok_or_else(|| format!("unknown target '{}'", args.arch))?;
        c.real = Some(real_coverage(&args.real, sm, &c.generated));
    }
    Ok(c)
}

/// Shapes (with counts) of the programs of seeds `seed..seed+count`, over
/// the machine's cores (each program is independent; the sum is too).
fn generated_shapes(seed: u64, count: u64, cfg: &GenConfig) -> BTreeMap<String, u64> {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let jobs = jobs.clamp(1, count.max(1));
    let parts: Vec<BTreeMap<String, u64>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..jobs)
            .map(|j| {
                s.spawn(move || {
                    let mut out = BTreeMap::new();
                    let mut k = j;
                    while k < count {
                        let p = generate(seed.wrapping_add(k), cfg);
                        let (m, _) = ptxc::ptx::parser::parse(&p.ptx);
                        for_each_instruction(&m, &mut |i| {
                            *out.entry(shape_key(i)).or_insert(0) += 1;
                        });
                        k += jobs;
                    }
                    out
                })
            })
            .collect();
        hs.into_iter()
            .map(|h| h.join().expect("no panic"))
            .collect()
    });
    let mut all = BTreeMap::new();
    for p in parts {
        for (k, v) in p {
            *all.entry(k).or_insert(0) += v;
        }
    }
    all
}

/// Every `.ptx` file under the directories, sorted.
fn ptx_files(dirs: &[PathBuf], bad: &mut Vec<(PathBuf, String)>) -> Vec<PathBuf> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>, bad: &mut Vec<(PathBuf, String)>) {
        let rd = match std::fs::read_dir(d) {
            Ok(rd) => rd,
            Err(e) => {
                bad.push((d.to_path_buf(), e.to_string()));
                return;
            }
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out, bad);
            } else if p.extension().is_some_and(|x| x == "ptx") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    for d in dirs {
        if d.is_file() {
            out.push(d.clone());
        } else {
            walk(d, &mut out, bad);
        }
    }
    out.sort();
    out
}

/// One real file's shapes: (shape, instruction count, the front end's
/// first error on an instruction of that shape).
type FileShapes = Vec<(String, u64, Option<String>)>;

fn file_shapes(path: &Path, sm: &'static ptxc::targets::SmInfo) -> Result<FileShapes, String> {
    let src = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let (m, syntax) = ptxc::ptx::parser::parse(&src);
    if let Some(d) = syntax.iter().find(|d| d.is_error()) {
        return Err(format!("does not parse: {}", d.message));
    }
    let diags = ptxc::ptx::validate::validate_for(&m, Some(sm));
    let mut counts: BTreeMap<String, (u64, Option<String>)> = BTreeMap::new();
    for_each_instruction(&m, &mut |i| {
        let e = counts.entry(shape_key(i)).or_insert((0, None));
        e.0 += 1;
        if e.1.is_none() {
            e.1 = diags
                .iter()
                .find(|d| d.is_error() && d.span.lo >= i.span.lo && d.span.lo < i.span.hi)
                .map(|d| d.message.clone());
        }
    });
    Ok(counts.into_iter().map(|(k, (n, e))| (k, n, e)).collect())
}

/// [`file_shapes`] on a thread with [`FILE_LIMIT`]: a file that takes
/// longer is reported and its thread left to finish alone.
fn file_shapes_limited(
    path: &Path,
    sm: &'static ptxc::targets::SmInfo,
) -> Result<FileShapes, String> {
    let (tx, rx) = mpsc::channel();
    let p = path.to_path_buf();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(|| file_shapes(&p, sm))
            .unwrap_or_else(|_| Err("the front end panicked".to_string()));
        let _ = tx.send(r);
    });
    rx.recv_timeout(FILE_LIMIT)
        .unwrap_or_else(|_| Err(format!("took longer than {} s", FILE_LIMIT.as_secs())))
}

fn real_coverage(
    dirs: &[PathBuf],
    sm: &'static ptxc::targets::SmInfo,
    generated: &BTreeMap<String, u64>,
) -> RealCoverage {
    let mut r = RealCoverage::default();
    let files = ptx_files(dirs, &mut r.bad_files);
    let mut counts: BTreeMap<String, (u64, Option<String>)> = BTreeMap::new();
    for f in &files {
        match file_shapes_limited(f, sm) {
            Ok(shapes) => {
                r.files += 1;
                for (k, n, e) in shapes {
                    let c = counts.entry(k).or_insert((0, None));
                    c.0 += n;
                    if c.1.is_none() {
                        c.1 = e;
                    }
                }
            }
            Err(e) => r.bad_files.push((f.clone(), e)),
        }
    }
    r.instructions = counts.values().map(|c| c.0).sum();
    r.shapes = counts.len();
    let m = menu::menu();
    for (shape, (count, err)) in counts {
        if generated.contains_key(&shape) {
            continue;
        }
        let why = if let Some(f) = m.find(&shape) {
            match &f.lowers {
                Ok(()) => Why::NotDrawn,
                Err(e) => Why::NotLowered(e.clone()),
            }
        } else if let Some(e) = err {
            Why::FrontEnd(e)
        } else if let Some((_, refusal)) = m.refused.iter().find(|(k, _)| *k == shape) {
            match refusal {
                Refusal::FrontEnd(e) => Why::FrontEnd(e.clone()),
                Refusal::Interpreter(e) => Why::Interpreter(e.clone()),
            }
        } else {
            Why::OffMenu(owner(&shape))
        };
        r.missing.push(Missing { shape, count, why });
    }
    r.missing
        .sort_by(|a, b| b.count.cmp(&a.count).then(a.shape.cmp(&b.shape)));
    r
}

/// The family that should write a shape the register-only menu lacks.
fn owner(shape: &str) -> &'static str {
    let op = shape.split('.').next().and_then(Opcode::from_name);
    match op.map(|o| (o, o.family())) {
        Some((Opcode::Atom | Opcode::Red, _)) => "memory/atomic families (gen/memory.rs)",
        Some((Opcode::Bar | Opcode::Barrier, _)) => {
            "shared/warp families (gen/memory.rs, gen/warp.rs)"
        }
        Some((Opcode::Membar | Opcode::Fence, _)) => "memory families (gen/memory.rs)",
        Some((_, IsaFamily::Data))
            if !matches!(op, Some(Opcode::Mov | Opcode::Cvt | Opcode::Prmt)) =>
        {
            "memory families (gen/memory.rs)"
        }
        Some((_, IsaFamily::Control)) => "control families (gen/control.rs, gen/call.rs)",
        Some((_, IsaFamily::Sync)) => "warp family (gen/warp.rs)",
        Some((_, IsaFamily::Texture)) => "tex family (gen/tex.rs)",
        Some((_, IsaFamily::Misc)) => "none (no observable semantics)",
        Some(_) => "menu (a form outside menu_data.rs's axes or operands)",
        None => "unknown opcode",
    }
}

impl Coverage {
    /// Writable menu forms generated, as a percentage, rounded down to a
    /// tenth so that one form short never prints as 100.0.
    pub fn percent(&self) -> f64 {
        if self.writable == 0 {
            100.0
        } else {
            (1000.0 * self.hit as f64 / self.writable as f64).floor() / 10.0
        }
    }

    /// The report text.
    pub fn render(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let insts: u64 = self.generated.values().sum();
        let _ = writeln!(
            s,
            "coverage: {} programs, {} instructions, {} distinct shapes generated",
            self.programs,
            insts,
            self.generated.len()
        );
        let _ = writeln!(
            s,
            "menu: {}/{} writable forms generated ({:.1}%); {} forms on the menu, {} not written (ptxc does not lower them)",
            self.hit,
            self.writable,
            self.percent(),
            self.menu_forms,
            self.unlowered.len()
        );
        if !self.never.is_empty() {
            let _ = writeln!(s, "menu forms never generated ({}):", self.never.len());
            for k in &self.never {
                let _ = writeln!(s, "  {k}");
            }
        }
        if !self.unlowered.is_empty() {
            let _ = writeln!(
                s,
                "menu forms not written, ptxc does not lower them ({}):",
                self.unlowered.len()
            );
            for (k, e) in &self.unlowered {
                let _ = writeln!(s, "  {k}: {e}");
            }
        }
        if let Some(r) = &self.real {
            let pct = if r.instructions == 0 {
                0.0
            } else {
                100.0 * r.missing_instructions() as f64 / r.instructions as f64
            };
            let _ = writeln!(
                s,
                "real PTX: {} files, {} instructions, {} distinct shapes; {} shapes ({} instructions, {pct:.1}%) never generated:",
                r.files,
                r.instructions,
                r.shapes,
                r.missing.len(),
                r.missing_instructions()
            );
            for m in &r.missing {
                let _ = writeln!(s, "  {:>7}  {}  [{}]", m.count, m.shape, m.why);
            }
            for (p, e) in &r.bad_files {
                let _ = writeln!(s, "  bad file {}: {e}", p.display());
            }
        }
        s.trim_end().to_string()
    }
}

/// Opcodes of the ISA table that the menu has no form of, with the
/// generator's other families' share left to the caller.
pub fn opcodes_off_menu() -> BTreeSet<Opcode> {
    let m = menu::menu();
    Opcode::ALL
        .iter()
        .copied()
        .filter(|o| !m.forms.iter().any(|f| f.op == *o))
        .collect()
}

/// The nightly report's coverage section (markdown): the night's first
/// `count` programs (seeds from `seed`, at most 10,000) against the menu,
/// and the shapes of the real kernels under `real` when that directory
/// exists. Written as `coverage.md` and appended to `summary.md`.
pub fn nightly_section(seed: u64, count: u64, cfg: &GenConfig, real: &Path) -> String {
    let args = CoverageArgs {
        count: count.min(10_000),
        seed,
        arch: "sm_70".into(),
        config: None,
        real: if real.is_dir() {
            vec![real.to_path_buf()]
        } else {
            Vec::new()
        },
    };
    let body = match measure(&args, cfg) {
        Ok(c) => c.render(),
        Err(e) => format!("coverage failed: {e}"),
    };
    format!("## Generator coverage\n\n```text\n{body}\n```\n")
}
