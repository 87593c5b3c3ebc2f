//! Configurations and matrices. A [`Config`] is one way to compile a
//! program: the compiler (ptxc or NVIDIA's ptxas), the target, the -O
//! level, a phase-order [`Variant`] and a `--maxrregcount`. A [`Matrix`]
//! is a list of them; the named presets are built from the tables (the SM
//! table's simulated targets, the phase table's optional phases), so they
//! grow as phases become real.
//!
//! | preset | what |
//! |---|---|
//! | `smoke` | sm_80 -O3, the default order |
//! | `fuzz` | the slice the fuzz target runs per program: the oldest target at -O3 in the default order, the newest at -O3 in a seeded valid reorder |
//! | `default` | every target at -O0 and -O3; on sm_80 -O3: three seeded reorders, each optional phase disabled, two ORI shuffles, NvOpt 0 and 5, `--maxrregcount 24`; the vendor on sm_80; `nvopt<O3>` checked in the interpreter and followed by ptxc sm_80 -O3 |
//! | `full` | every target x -O0..-O3 x (no limit, `--maxrregcount 24`); every target at -O3 x (six reorders, each optional phase disabled, the ORI shuffles, NvOpt 0, 1, 2, 4, 5); the vendor on every target; every `nvopt<>` level checked in the interpreter and followed by ptxc sm_80 -O3 |
//!
//! The nvopt configurations ([`super::nvopt`]): `nvopt-O3+ptxc sm_80 -O3
//! default` runs `nvopt<O3>` on the PTX, then ptxc, and judges the
//! simulated listing against the oracle of the original PTX;
//! `nvopt-O3+interp sm_80 -O0 default` is the PTX-only check, the
//! interpreter on nvopt's output against the oracle (its target and level
//! fields are placeholders that keep the label format).
//!
//! The vendor configurations are added only when ptxas is installed
//! ([`super::vendor::available`]).

use std::sync::Mutex;

use ptxc::nvopt::pipeline::Level;
use ptxc::phases::table::{self, Rule, PHASES};
use ptxc::phases::PhaseOptions;
use ptxc::targets::{SmInfo, SM_TABLE};
use rustc_hash::FxHashMap;

/// Which compiler a configuration runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compiler {
    Ptxc,
    /// NVIDIA's ptxas, its cuobjdump listing simulated.
    Vendor,
    /// `nvopt<LEVEL>` on the PTX, then ptxc.
    NvoptPtxc(Level),
    /// `nvopt<LEVEL>` on the PTX, run in the PTX interpreter.
    NvoptInterp(Level),
}

impl Compiler {
    /// `ptxc`, `vendor`, `nvopt-O3+ptxc`, `nvopt-O3+interp`.
    pub fn label(self) -> String {
        match self {
            Compiler::Ptxc => "ptxc".into(),
            Compiler::Vendor => "vendor".into(),
            Compiler::NvoptPtxc(l) => format!("nvopt-{}+ptxc", l.name()),
            Compiler::NvoptInterp(l) => format!("nvopt-{}+interp", l.name()),
        }
    }

    pub fn parse(s: &str) -> Option<Compiler> {
        match s {
            "ptxc" => return Some(Compiler::Ptxc),
            "vendor" => return Some(Compiler::Vendor),
            _ => {}
        }
        let rest = s.strip_prefix("nvopt-")?;
        if let Some(l) = rest.strip_suffix("+ptxc") {
            return Level::from_name(l).map(Compiler::NvoptPtxc);
        }
        Level::from_name(rest.strip_suffix("+interp")?).map(Compiler::NvoptInterp)
    }

    /// The nvopt level, for the nvopt configurations.
    pub fn nvopt(self) -> Option<Level> {
        match self {
            Compiler::NvoptPtxc(l) | Compiler::NvoptInterp(l) => Some(l),
            _ => None,
        }
    }
}

/// A phase-order variant (ptxc only).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// The table's default order.
    Default,
    /// `random_valid_order(seed)`: a permutation that keeps every constraint.
    Reorder(u64),
    /// The default order without this (optional) phase.
    Disable(u16),
    /// `--knob` strings (ORI shuffles, NvOpt levels).
    Knobs(String),
}

impl Variant {
    /// `default`, `reorder:7`, `disable:OriPerformLiveDeadFirst`,
    /// `knob:NvOptLevel=0`.
    pub fn label(&self) -> String {
        match self {
            Variant::Default => "default".into(),
            Variant::Reorder(s) => format!("reorder:{s}"),
            Variant::Disable(i) => format!("disable:{}", table::name_of(*i)),
            Variant::Knobs(k) => format!("knob:{k}"),
        }
    }

    pub fn parse(s: &str) -> Result<Variant, String> {
        if s == "default" {
            return Ok(Variant::Default);
        }
        if let Some(n) = s.strip_prefix("reorder:") {
            return n
                .parse()
                .map(Variant::Reorder)
                .map_err(|_| format!("variant '{s}': the seed is not a number"));
        }
        if let Some(n) = s.strip_prefix("disable:") {
            return ptxc::phases::order::parse_phase(n)
                .map(Variant::Disable)
                .map_err(|e| format!("variant '{s}': {e}"));
        }
        if let Some(k) = s.strip_prefix("knob:") {
            return Ok(Variant::Knobs(k.to_string()));
        }
        Err(format!(
            "unknown variant '{s}' (default, reorder:SEED, disable:PHASE, knob:K=V)"
        ))
    }
}

/// One compilation setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub compiler: Compiler,
    pub arch: &'static SmInfo,
    pub opt_level: u8,
    pub variant: Variant,
    pub maxrregcount: Option<u32>,
}

impl Config {
    pub fn ptxc(arch: &'static SmInfo, opt_level: u8, variant: Variant) -> Config {
        Config {
            compiler: Compiler::Ptxc,
            arch,
            opt_level,
            variant,
            maxrregcount: None,
        }
    }

    pub fn vendor(arch: &'static SmInfo, opt_level: u8) -> Config {
        Config {
            compiler: Compiler::Vendor,
            arch,
            opt_level,
            variant: Variant::Default,
            maxrregcount: None,
        }
    }

    /// `nvopt<level>` then ptxc on `arch` at `opt_level`.
    pub fn nvopt_ptxc(arch: &'static SmInfo, opt_level: u8, level: Level) -> Config {
        Config {
            compiler: Compiler::NvoptPtxc(level),
            ..Config::ptxc(arch, opt_level, Variant::Default)
        }
    }

    /// `nvopt<level>` checked in the interpreter (target and -O level are
    /// placeholders: sm_80, -O0).
    pub fn nvopt_interp(level: Level) -> Config {
        Config {
            compiler: Compiler::NvoptInterp(level),
            ..Config::ptxc(sm("sm_80"), 0, Variant::Default)
        }
    }

    /// The ptxc configuration an `nvopt-*+ptxc` one compiles with.
    pub fn as_ptxc(&self) -> Config {
        Config {
            compiler: Compiler::Ptxc,
            ..self.clone()
        }
    }

    /// `ptxc sm_80 -O3 reorder:7 maxrreg=24`; `vendor sm_80 -O3`. Unique
    /// within a matrix, and parsed back by [`Config::parse`].
    pub fn label(&self) -> String {
        let mut s = format!(
            "{} {} -O{} {}",
            self.compiler.label(),
            self.arch.name,
            self.opt_level,
            self.variant.label()
        );
        if let Some(n) = self.maxrregcount {
            s.push_str(&format!(" maxrreg={n}"));
        }
        s
    }

    pub fn parse(s: &str) -> Result<Config, String> {
        let w: Vec<&str> = s.split(' ').collect();
        if !(4..=5).contains(&w.len()) {
            return Err(format!(
                "configuration '{s}': expected 'COMPILER sm_XX -ON VARIANT [maxrreg=N]'"
            ));
        }
        let compiler = Compiler::parse(w[0])
            .ok_or_else(|| format!("configuration '{s}': unknown compiler '{}'", w[0]))?;
        let arch = ptxc::targets::lookup_sm(w[1])
            .ok_or_else(|| format!("configuration '{s}': unknown target '{}'", w[1]))?;
        let opt_level = w[2]
            .strip_prefix("-O")
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|n| *n <= 3)
            .ok_or_else(|| format!("configuration '{s}': bad level '{}'", w[2]))?;
        let variant = Variant::parse(w[3])?;
        let maxrregcount = match w.get(4) {
            None => None,
            Some(m) => Some(
                m.strip_prefix("maxrreg=")
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| format!("configuration '{s}': bad '{m}'"))?,
            ),
        };
        Ok(Config {
            compiler,
            arch,
            opt_level,
            variant,
            maxrregcount,
        })
    }

    /// The PhaseManager options this configuration gives ptxc.
    pub fn phase_options(&self) -> PhaseOptions {
        let mut o = PhaseOptions::default();
        match &self.variant {
            Variant::Default => {}
            Variant::Reorder(seed) => o.order = Some(reorder_text(*seed)),
            Variant::Disable(i) => o.disabled = vec![i.to_string()],
            Variant::Knobs(k) => o.knobs = vec![k.clone()],
        }
        o
    }

    /// The checked pipeline (what the driver runs for this configuration).
    pub fn plan(&self) -> Result<ptxc::phases::Plan, String> {
        self.phase_options().plan(self.opt_level)
    }

    /// ptxc's driver options: this configuration, the spec's kernel only.
    pub fn driver_options(&self, kernel: &str) -> ptxc::driver::DriverOptions {
        ptxc::driver::DriverOptions {
            arch: Some(self.arch),
            opt_level: self.opt_level,
            entries: vec![kernel.to_string()],
            maxrregcount: self.maxrregcount,
            phases: self.phase_options(),
            ..Default::default()
        }
    }

    /// The same configuration in the default phase order (the baseline an
    /// order-dependent failure is measured against).
    pub fn with_default_order(&self) -> Config {
        Config {
            variant: Variant::Default,
            ..self.clone()
        }
    }
}

/// `random_valid_order(seed)` as a `--phase-order` list, computed once per
/// seed and process (every compilation of the configuration asks).
fn reorder_text(seed: u64) -> String {
    static CACHE: Mutex<Option<FxHashMap<u64, String>>> = Mutex::new(None);
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .get_or_insert_with(Default::default)
        .entry(seed)
        .or_insert_with(|| {
            ptxc::phases::order::random_valid_order(seed)
                .iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .clone()
}

/// The targets the matrices cover: every non-`a` SM-table row the
/// simulator runs (those with a measured constant-bank layout: sm_70, 75,
/// 80, 86, 89, 90).
pub fn simulated_archs() -> Vec<&'static SmInfo> {
    SM_TABLE
        .iter()
        .filter(|s| s.cbank.is_some() && !s.arch_specific)
        .collect()
}

/// The phases of the default order the constraints do not require and
/// that do something (implemented rows): each gives a `disable:` variant.
/// The control-code phases (the rows with the `control-codes` constraint:
/// AssignScoreboards, ComputeStallCounts, SetReuseFlags) are not
/// variants: without them the listing's control codes are incomplete by
/// construction and the simulator's hazard check fails every program,
/// which says nothing about the compiler.
pub fn optional_phases() -> Vec<u16> {
    table::DEFAULT_ORDER
        .iter()
        .copied()
        .filter(|&i| {
            let row = &PHASES[usize::from(i)];
            row.implemented()
                && !row
                    .constraints
                    .iter()
                    .any(|c| c.rule == Rule::Required || c.name == "control-codes")
        })
        .collect()
}

/// The ORI shuffle knob strings of the matrices (ptxas's shuffle mode, docs/MODEL.md, ORI sequence,
/// with repetitions, swaps and the OriPerformLiveDead/OriCopyProp
/// injections).
pub const ORI_SHUFFLES: [&str; 2] = [
    "ori=shuffle,reps=2,swap1=3,swap2=5,dce1=2,cpy1=1",
    "ori=shuffle,reps=4,swap3=7,swap4=1,dce2=4,cpy2=3",
];

/// The `nvopt<>` levels of the `default` matrix.
pub const NVOPT_DEFAULT: [Level; 1] = [Level::O3];

/// A named list of configurations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    pub name: String,
    pub configs: Vec<Config>,
}

/// The preset names, for messages.
pub const PRESETS: [&str; 4] = ["smoke", "fuzz", "default", "full"];

fn sm(name: &str) -> &'static SmInfo {
    ptxc::targets::lookup_sm(name).expect("a target of the SM table")
}

impl Matrix {
    pub fn new(name: impl Into<String>, configs: Vec<Config>) -> Matrix {
        Matrix {
            name: name.into(),
            configs,
        }
    }

    /// A preset (see the module table); `vendor`: add the vendor
    /// configurations (when ptxas is installed).
    pub fn preset(name: &str, vendor: bool) -> Result<Matrix, String> {
        let archs = simulated_archs();
        let oldest = archs[0];
        let newest = archs[archs.len() - 1];
        let mut c = Vec::new();
        let o3_variants = |c: &mut Vec<Config>, arch, reorders: u64, nvopt: &[u8]| {
            for s in 1..=reorders {
                c.push(Config::ptxc(arch, 3, Variant::Reorder(s)));
            }
            for p in optional_phases() {
                c.push(Config::ptxc(arch, 3, Variant::Disable(p)));
            }
            for k in ORI_SHUFFLES {
                c.push(Config::ptxc(arch, 3, Variant::Knobs(k.into())));
            }
            for n in nvopt {
                c.push(Config::ptxc(
                    arch,
                    3,
                    Variant::Knobs(format!("NvOptLevel={n}")),
                ));
            }
        };
        match name {
            "smoke" => c.push(Config::ptxc(sm("sm_80"), 3, Variant::Default)),
            "fuzz" => {
                c.push(Config::ptxc(oldest, 3, Variant::Default));
                c.push(Config::ptxc(newest, 3, Variant::Reorder(1)));
            }
            "default" => {
                for &a in &archs {
                    for o in [0, 3] {
                        c.push(Config::ptxc(a, o, Variant::Default));
                    }
                }
                o3_variants(&mut c, sm("sm_80"), 3, &[0, 5]);
                c.push(Config {
                    maxrregcount: Some(ptxc::driver::MIN_MAXRREGCOUNT),
                    ..Config::ptxc(sm("sm_80"), 3, Variant::Default)
                });
                if vendor {
                    c.push(Config::vendor(sm("sm_80"), 3));
                }
                for l in NVOPT_DEFAULT {
                    c.push(Config::nvopt_interp(l));
                    c.push(Config::nvopt_ptxc(sm("sm_80"), 3, l));
                }
            }
            "full" => {
                for &a in &archs {
                    for o in 0..=3 {
                        for m in [None, Some(ptxc::driver::MIN_MAXRREGCOUNT)] {
                            c.push(Config {
                                maxrregcount: m,
                                ..Config::ptxc(a, o, Variant::Default)
                            });
                        }
                    }
                    o3_variants(&mut c, a, 6, &[0, 1, 2, 4, 5]);
                    if vendor {
                        c.push(Config::vendor(a, 3));
                    }
                }
                for l in Level::ALL {
                    c.push(Config::nvopt_interp(l));
                    c.push(Config::nvopt_ptxc(sm("sm_80"), 3, l));
                }
            }
            _ => {
                return Err(format!(
                    "unknown matrix '{name}' (one of {})",
                    PRESETS.join(", ")
                ))
            }
        }
        Ok(Matrix::new(name, c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_parse_back() {
        for name in PRESETS {
            let m = Matrix::preset(name, true).unwrap();
            let mut seen = std::collections::HashSet::new();
            for c in &m.configs {
                let l = c.label();
                assert!(seen.insert(l.clone()), "{name}: '{l}' twice");
                assert_eq!(Config::parse(&l).unwrap(), *c, "{l}");
                if c.compiler != Compiler::Vendor {
                    c.plan().unwrap_or_else(|e| panic!("{l}: {e}"));
                }
            }
        }
        assert!(Config::parse("ptxc sm_80 -O4 default").is_err());
        assert!(Config::parse("ptxc sm_99 -O3 default").is_err());
        assert!(Config::parse("gcc sm_80 -O3 default").is_err());
        assert!(Config::parse("ptxc sm_80 -O3 disable:NoSuch").is_err());
        assert!(Matrix::preset("huge", false).is_err());
    }

    #[test]
    fn presets_derive_from_the_tables() {
        let names: Vec<&str> = simulated_archs().iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"]
        );
        // The optional phases are exactly the implemented, not-required
        // rows of the default order.
        for i in optional_phases() {
            let row = &PHASES[usize::from(i)];
            assert!(row.implemented());
            let mut o = table::DEFAULT_ORDER.to_vec();
            ptxc::phases::order::disable(&mut o, i).unwrap();
        }
        // The control-code phases are never disabled (see optional_phases);
        // the other implemented late phases are.
        let opt = optional_phases();
        for name in ["AssignScoreboards", "ComputeStallCounts", "SetReuseFlags"] {
            assert!(!opt.contains(&table::lookup(name)), "{name}");
        }
        for name in ["ScheduleInstructions", "TexNodep", "GvnCse"] {
            assert!(opt.contains(&table::lookup(name)), "{name}");
        }
        let fuzz = Matrix::preset("fuzz", true).unwrap();
        let labels: Vec<String> = fuzz.configs.iter().map(Config::label).collect();
        assert_eq!(
            labels,
            ["ptxc sm_70 -O3 default", "ptxc sm_90 -O3 reorder:1"]
        );
        let d = Matrix::preset("default", false).unwrap();
        let expect =
            12 + 3 + optional_phases().len() + ORI_SHUFFLES.len() + 2 + 1 + 2 * NVOPT_DEFAULT.len();
        assert_eq!(d.configs.len(), expect);
        assert_eq!(
            Matrix::preset("default", true).unwrap().configs.len(),
            expect + 1
        );
        let f = Matrix::preset("full", false).unwrap();
        assert_eq!(
            f.configs.len(),
            6 * (8 + 6 + optional_phases().len() + ORI_SHUFFLES.len() + 5) + 2 * Level::ALL.len()
        );
        // The nvopt configurations: both kinds per level, labels parse back.
        let nv: Vec<String> = d
            .configs
            .iter()
            .filter(|c| c.compiler.nvopt().is_some())
            .map(Config::label)
            .collect();
        assert_eq!(
            nv,
            [
                "nvopt-O3+interp sm_80 -O0 default",
                "nvopt-O3+ptxc sm_80 -O3 default"
            ]
        );
        assert!(Config::parse("nvopt-O7+ptxc sm_80 -O3 default").is_err());
        assert!(Config::parse("nvopt-O3+gcc sm_80 -O3 default").is_err());
    }
}
