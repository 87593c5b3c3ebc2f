//! The nvopt pass manager, after cicc's pipeline assembler (docs/MODEL.md, NvOpt pipelines).
//!
//! - [`PassManager::add_pass`] is cicc's AddPass (docs/MODEL.md, AddPass): it
//!   appends a pass instance unless the same instance is already in the
//!   list, in which case it only updates the recorded flags; it records
//!   per pass whether it is a function pass (flag bit 0) and a barrier
//!   (bit 1: every earlier pass must have finished on the whole module).
//! - Pipelines are data: [`TIER0`] is the Tier 0 sub-pipeline
//!   and [`TIER_N`] the Tier 1/2/3 sub-pipeline
//!   (docs/MODEL.md, Tiers and optimization levels), each row a pass of ours with cicc's gate. Only
//!   passes nvopt implements appear; each row names its position in the
//!   cicc's list. `nvopt<O0>` runs no pass (cicc's O0 adds only
//!   analyses); `nvopt<O1|O2|O3>` run Tier 0 then Tier 1, 2 or 3 (tier 1
//!   skips the `tier != 1` rows, tier 3 adds the `tier == 3` rows and the
//!   feature escalation, recorded in [`Pipeline::features`]), then the
//!   language path's post-optimization rows ([`Lang`]: [`PATH_PTX`],
//!   [`PATH_MID`], [`PATH_DEFAULT`]; the fast-compile levels and O0 keep
//!   their own lists).
//! - Knobs (`-opt "-no-dce -do-licm=0"`) use cicc's names and its
//!   getBoolOption rule: a value whose first character, lowercased, is
//!   `1` or `t` is true, any other value false; a knob given without a
//!   value is true; an absent knob keeps its default.

use super::ir::Function;
use super::passes::{self, Pass};
use rustc_hash::FxHashMap;

/// A pass in a pipeline: its name, its parameters (printed in `<...>`),
/// and which instance it is (two rows of a table naming the same pass
/// at different positions are different instances; a row added twice is
/// one instance).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PassRef {
    pub name: &'static str,
    pub params: Vec<String>,
    pub instance: u32,
}

/// AddPass flags (docs/MODEL.md, AddPass: bit 0 function pass, bit 1 barrier).
pub const FUNCTION_PASS: u8 = 1;
pub const BARRIER: u8 = 2;

#[derive(Default, Debug)]
pub struct PassManager {
    pub passes: Vec<(PassRef, u8)>,
    index: FxHashMap<PassRef, usize>,
}

impl PassManager {
    /// AddPass: appends `p` with `flags` (| BARRIER when `barrier`), or
    /// when the same instance is already listed only updates its flags.
    /// Returns whether it was appended.
    pub fn add_pass(&mut self, p: PassRef, function_pass: bool, barrier: bool) -> bool {
        let flags = (u8::from(function_pass) * FUNCTION_PASS) | (u8::from(barrier) * BARRIER);
        if let Some(&k) = self.index.get(&p) {
            self.passes[k].1 = flags;
            return false;
        }
        self.index.insert(p.clone(), self.passes.len());
        self.passes.push((p, flags));
        true
    }

    /// The pipeline text: names with parameters, comma-separated.
    pub fn text(&self) -> String {
        self.passes
            .iter()
            .map(|(p, _)| {
                if p.params.is_empty() {
                    p.name.to_string()
                } else {
                    format!("{}<{}>", p.name, p.params.join(";"))
                }
            })
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// When a table row is added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    Always,
    /// `tier != 1` in the Tier 1/2/3 sub-pipeline.
    TierNot1,
    /// `tier == 3`.
    Tier3,
}

/// One row of a sub-pipeline table.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub pass: &'static str,
    pub gate: Gate,
    /// The knob that disables the row when true (`no-dce`), or with a
    /// leading `+` the knob that must be true (`+do-licm`, default true),
    /// or with a leading `^` a knob that must be given true (default
    /// false).
    pub knob: Option<&'static str>,
    /// Position in cicc's list (documentation and instance identity).
    pub seed_pos: u32,
    /// The pass parameters (`memory-space-opt<first-time;warnings>`).
    pub params: &'static [&'static str],
}

const fn row(pass: &'static str, gate: Gate, knob: Option<&'static str>, seed_pos: u32) -> Row {
    row_p(pass, &[], gate, knob, seed_pos)
}

/// A row with pass parameters.
const fn row_p(
    pass: &'static str,
    params: &'static [&'static str],
    gate: Gate,
    knob: Option<&'static str>,
    seed_pos: u32,
) -> Row {
    Row {
        pass,
        gate,
        knob,
        seed_pos,
        params,
    }
}

/// Pre-optimization (the pipeline assembler's phase 2, before the tiers), the rows
/// nvopt implements: the extra DeadArgElim trigger (NVVMPassOptions slot
/// 149, unnamed in cicc's description, off by default: `-opt -extra-deadargelim`)
/// and the AlwaysInliner (`!no-inline-b`; cicc also tests slot 19,
/// `no-inline-a`, whose listed default would disable it, so nvopt reads
/// only `no-inline-b`). `seed_pos` is the order in that listing.
pub const PRE: &[Row] = &[
    row("deadargelim", Gate::Always, Some("^extra-deadargelim"), 2),
    row("always-inline", Gate::Always, Some("no-inline-b"), 8),
];

/// Tier 0, the rows nvopt implements, in cicc's order;
/// `seed_pos` is the row number in cicc's Tier 0 table.
pub const TIER0: &[Row] = &[
    row("ipconstprop", Gate::Always, Some("no-ipconst"), 4),
    row("gvn", Gate::Always, None, 5),
    row("sccp", Gate::Always, Some("no-sccp"), 8),
    row("sink", Gate::Always, Some("no-sink"), 12),
    row(
        "loop-index-split",
        Gate::Always,
        Some("no-loopindexsplit"),
        14,
    ),
    row("instcombine", Gate::Always, Some("no-instsimplify"), 17),
    row("loop-simplify", Gate::Always, Some("no-loopsimplify"), 20),
    row("adce", Gate::Always, Some("no-adce-a"), 21),
    row("licm", Gate::Always, Some("+do-licm"), 22),
    row("loop-unroll", Gate::Always, Some("no-loopunroll"), 23),
    row("instcombine", Gate::Always, Some("no-instcombine"), 24),
    row("sroa", Gate::Always, Some("no-sroa"), 25),
    row("early-cse", Gate::Always, Some("no-earlycse"), 26),
    row("simplifycfg", Gate::Always, Some("no-simplifycfg"), 28),
    row("remat", Gate::Always, Some("+do-remat"), 29),
    row("dse", Gate::Always, Some("no-dse"), 30),
    row("dce", Gate::Always, Some("no-dce"), 31),
];

/// Tier 1/2/3, the rows nvopt implements, in order;
/// `seed_pos` counts cicc's listing of that sub-pipeline from 1. Row 17
/// (LICM gated by the late-optimization mode, off by default) is left
/// out with that mode.
pub const TIER_N: &[Row] = &[
    row("ipconstprop", Gate::Always, Some("no-ipconst"), 7),
    row("sccp", Gate::Always, Some("no-sccp"), 10),
    row("simplifycfg", Gate::TierNot1, Some("no-simplifycfg"), 14),
    row(
        "loop-index-split",
        Gate::TierNot1,
        Some("no-loopindexsplit"),
        15,
    ),
    row("early-cse", Gate::Always, None, 18),
    row("sink", Gate::TierNot1, Some("no-sink"), 19),
    row("inline", Gate::Always, Some("no-inline-c"), 26),
    row("instcombine", Gate::Always, Some("no-instsimplify"), 27),
    // SROA after InstCombine (the mid listing's "InstCombine, EarlyCSE, SROA").
    row("sroa", Gate::Always, Some("no-sroa"), 28),
    row("loop-simplify", Gate::Always, Some("no-loopsimplify"), 30),
    row("adce", Gate::Always, Some("no-adce-a"), 31),
    row("licm", Gate::Always, Some("+do-licm"), 32),
    // MemorySpaceOpt's first run after LICM (the mid listing's "LICM ->
    // NVVMLowerBarriers -> MemorySpaceOpt", guarded by opts[1760], the
    // `do-ip-msp` knob).
    row_p(
        "memory-space-opt",
        MSO_FIRST,
        Gate::Always,
        Some("+do-ip-msp"),
        33,
    ),
    row("loop-unroll", Gate::Always, Some("no-loopunroll"), 34),
    row("instcombine", Gate::Always, Some("no-instcombine"), 35),
    row("early-cse", Gate::Always, Some("no-earlycse"), 36),
    row("simplifycfg", Gate::Always, Some("no-simplifycfg"), 42),
    // DSE after SimplifyCFG (the mid listing's "SimplifyCFG -> DSE").
    row("dse", Gate::Always, Some("no-dse"), 43),
    row("licm", Gate::Always, Some("+do-licm"), 44),
    row("remat", Gate::Always, Some("+do-remat"), 45),
    row("dce", Gate::Always, Some("no-dce"), 49),
    // The second MemorySpaceOpt (opts[2680], `no-memspaceopt-b`), late.
    row_p(
        "memory-space-opt",
        &["second-time", "warnings"],
        Gate::Always,
        Some("no-memspaceopt-b"),
        50,
    ),
    row("adce", Gate::Always, Some("no-adce-c"), 57),
    row("sinking2", Gate::Always, Some("no-sinking2"), 67),
    row("reassociate", Gate::Always, Some("no-reassoc"), 69),
];

/// MemorySpaceOpt's first-run parameters (cicc's pipeline text).
const MSO_FIRST: &[&str] = &["first-time", "warnings"];

/// The language path (docs/MODEL.md, Language paths: phase 1 and phase 4 of the pipeline
/// assembler: NVVMPassOptions slot 181, the language string at a4[3648]).
/// cicc names no option for the slot; nvopt reads it from the `lang`
/// knob (`-opt "-lang=mid"`). `ptx` and `mid` select their paths; any
/// other string, `idn` and the default empty string included, the
/// default path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Ptx,
    Mid,
    Default,
}

impl Lang {
    pub fn of(knobs: &Knobs) -> Lang {
        match knobs.value("lang").as_deref() {
            Some("ptx") => Lang::Ptx,
            Some("mid") => Lang::Mid,
            _ => Lang::Default,
        }
    }

    /// The path's post-optimization rows (phase 4).
    pub fn rows(self) -> &'static [Row] {
        match self {
            Lang::Ptx => PATH_PTX,
            Lang::Mid => PATH_MID,
            Lang::Default => PATH_DEFAULT,
        }
    }
}

// The language paths' rows nvopt implements, in cicc's order;
// `seed_pos` counts cicc's listing of the path from 1. A CGSCC
// pipeline row is the inliner when its fifth argument is 1
// (cicc's "LLVM standard pipeline #4 (inlining)"); the others, and
// the passes nvopt does not model (NVVMReflect, NVVMIntrinsicLowering,
// MemCpyOpt, ConstantMerge, FunctionAttrs, TailCallElim, CVP, ...), are
// left out. The gates are cicc's NVVMPassOptions slots by name.

/// Path A, "ptx": light cleanup of already-lowered code.
pub const PATH_PTX: &[Row] = &[
    row("nvvm-peephole-optimizer", Gate::Always, None, 1),
    row("dce", Gate::Always, Some("no-dce"), 7),
    row_p(
        "memory-space-opt",
        MSO_FIRST,
        Gate::Always,
        Some("+do-ip-msp"),
        10,
    ),
];

/// Path B, "mid": the full path for standard CUDA compilation.
pub const PATH_MID: &[Row] = &[
    row("sroa", Gate::Always, None, 4),
    row("nvvm-peephole-optimizer", Gate::Always, None, 5),
    row("loop-simplify", Gate::Always, Some("no-loopsimplify"), 7),
    row("gvn", Gate::Always, None, 8),
    row("simplifycfg", Gate::Always, None, 10),
    row("instcombine", Gate::Always, None, 11),
    row("deadargelim", Gate::Always, None, 14),
    row("dce", Gate::Always, Some("no-dce"), 16),
    row("licm", Gate::Always, Some("+do-licm"), 18),
    row_p(
        "memory-space-opt",
        MSO_FIRST,
        Gate::Always,
        Some("+do-ip-msp"),
        20,
    ),
    row("reassociate", Gate::Always, Some("no-reassoc"), 21),
    row("inline", Gate::Always, None, 22),
    row("adce", Gate::Always, Some("no-adce-c"), 24),
    row("instcombine", Gate::Always, Some("no-instsimplify"), 25),
    row("deadargelim", Gate::Always, None, 26),
    row("deadargelim", Gate::Always, None, 28),
    row("sink", Gate::Always, None, 30),
    row("simplifycfg", Gate::Always, Some("no-simplifycfg"), 31),
    row("dse", Gate::Always, Some("no-dse"), 32),
    row("sinking2", Gate::Always, Some("no-sinking2"), 33),
    row("early-cse", Gate::Always, None, 35),
    row("inline", Gate::Always, None, 37),
    row("ipconstprop", Gate::Always, Some("no-ipconst"), 39),
    row("licm", Gate::Always, Some("+do-licm"), 40),
    row("remat", Gate::Always, Some("+do-remat"), 43),
];

/// Path C, the default (bitcode not marked "ptx" or "mid").
pub const PATH_DEFAULT: &[Row] = &[
    row("nvvm-peephole-optimizer", Gate::Always, None, 5),
    row("instcombine", Gate::Always, Some("no-instsimplify"), 7),
    row("ipconstprop", Gate::Always, Some("no-ipconst"), 9),
    row("remat", Gate::Always, Some("+do-remat"), 12),
    row("gvn", Gate::Always, None, 14),
    row("sccp", Gate::Always, Some("no-sccp"), 15),
    row("dce", Gate::Always, Some("no-dce"), 16),
    row("deadargelim", Gate::Always, None, 18),
    row("loop-unroll", Gate::Always, None, 21),
    row("instcombine", Gate::Always, Some("no-instcombine"), 22),
    row("early-cse", Gate::Always, None, 25),
    row("instcombine", Gate::Always, None, 27),
    row("sink", Gate::Always, None, 28),
    row("loop-simplify", Gate::Always, Some("no-loopsimplify"), 30),
    row("licm", Gate::Always, Some("+do-licm"), 31),
    row("simplifycfg", Gate::Always, Some("no-simplifycfg"), 32),
    row_p(
        "memory-space-opt",
        MSO_FIRST,
        Gate::Always,
        Some("+do-ip-msp"),
        36,
    ),
    row("reassociate", Gate::Always, Some("no-reassoc"), 37),
    row(
        "loop-index-split",
        Gate::Always,
        Some("no-loopindexsplit"),
        39,
    ),
    row("deadargelim", Gate::Always, None, 40),
    row("sinking2", Gate::Always, Some("no-sinking2"), 41),
    row("inline", Gate::Always, None, 45),
];

/// The `-opt` knobs.
#[derive(Clone, Debug, Default)]
pub struct Knobs {
    values: FxHashMap<String, Option<String>>,
}

impl Knobs {
    /// Parses `-opt` text: whitespace-separated `-name` or `-name=value`.
    pub fn parse(text: &str) -> Result<Knobs, String> {
        let mut k = Knobs::default();
        k.add(text)?;
        Ok(k)
    }

    pub fn add(&mut self, text: &str) -> Result<(), String> {
        for w in text.split_whitespace() {
            let Some(w) = w.strip_prefix('-') else {
                return Err(format!("-opt: expected '-name[=value]', got '{w}'"));
            };
            let (name, value) = match w.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (w, None),
            };
            if name.is_empty() {
                return Err("-opt: empty option name".into());
            }
            // Knobs that become pass parameters take an unsigned integer.
            if passes::KNOB_PARAMS.iter().any(|(_, k, _)| *k == name)
                && value.as_deref().is_none_or(|v| v.parse::<u64>().is_err())
            {
                return Err(format!("-opt: '-{name}' needs an unsigned integer value"));
            }
            self.values.insert(name.to_string(), value);
        }
        Ok(())
    }

    /// A knob's value as given (`None` when absent or given without one).
    pub fn value(&self, name: &str) -> Option<String> {
        self.values.get(name).cloned().flatten()
    }

    /// getBoolOption: absent -> `default`; no value -> true; else the
    /// first character, lowercased, is '1' or 't'.
    pub fn bool(&self, name: &str, default: bool) -> bool {
        match self.values.get(name) {
            None => default,
            Some(None) => true,
            Some(Some(v)) => matches!(
                v.chars().next().map(|c| c.to_ascii_lowercase()),
                Some('1') | Some('t')
            ),
        }
    }
}

/// A named pipeline level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    O0,
    O1,
    O2,
    O3,
    Ofcmax,
    Ofcmid,
    Ofcmin,
}

impl Level {
    pub const ALL: [Level; 7] = [
        Level::O0,
        Level::O1,
        Level::O2,
        Level::O3,
        Level::Ofcmax,
        Level::Ofcmid,
        Level::Ofcmin,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Level::O0 => "O0",
            Level::O1 => "O1",
            Level::O2 => "O2",
            Level::O3 => "O3",
            Level::Ofcmax => "Ofcmax",
            Level::Ofcmid => "Ofcmid",
            Level::Ofcmin => "Ofcmin",
        }
    }

    pub fn from_name(s: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == s)
    }
}

/// The error for `-Ofast-compile=` with another level (cicc's; docs/MODEL.md, Fast-compile levels).
pub const FAST_COMPILE_LEVEL_ERROR: &str =
    "-Ofast-compile called with unsupported level, only supports 0, min, mid, or max";

/// The error for combining `-O#` with `--passes=` (cicc's).
pub const PASSES_WITH_O_ERROR: &str = "Cannot specify -O#/-Ofast-compile=<min,mid,max> and --passes=/--foo-pass, use -passes='default<O#>,other-pass' or -passes='default<Ofcmax>,other-pass'";

/// `-Ofast-compile=LEVEL`: `0` means no fast-compile level (None).
pub fn fast_compile_level(s: &str) -> Result<Option<Level>, String> {
    match s {
        "0" => Ok(None),
        "max" => Ok(Some(Level::Ofcmax)),
        "mid" => Ok(Some(Level::Ofcmid)),
        "min" => Ok(Some(Level::Ofcmin)),
        _ => Err(FAST_COMPILE_LEVEL_ERROR.to_string()),
    }
}

/// An assembled pipeline.
pub struct Pipeline {
    pub pm: PassManager,
    /// cicc's feature register after assembly (tier 3 escalates 0 to
    /// 6: barrier and memory-space optimization; recorded, no pass of
    /// nvopt reads it yet).
    pub features: u32,
}

fn add_rows(pm: &mut PassManager, rows: &[Row], tier: u32, knobs: &Knobs, table: u32) {
    for r in rows {
        let on = match r.gate {
            Gate::Always => true,
            Gate::TierNot1 => tier != 1,
            Gate::Tier3 => tier == 3,
        };
        let enabled = match r.knob {
            None => true,
            Some(k) => match (k.strip_prefix('+'), k.strip_prefix('^')) {
                (Some(k), _) => knobs.bool(k, true),
                (_, Some(k)) => knobs.bool(k, false),
                _ => !knobs.bool(k, false),
            },
        };
        if on && enabled {
            // A module pass: flags 0 plus the barrier bit (docs/MODEL.md, AddPass).
            let module = passes::is_module_pass(r.pass);
            pm.add_pass(
                PassRef {
                    name: r.pass,
                    params: r
                        .params
                        .iter()
                        .map(|p| p.to_string())
                        .chain(passes::knob_params(r.pass, &|k| knobs.value(k)))
                        .collect(),
                    instance: table * 1000 + r.seed_pos,
                },
                !module,
                module,
            );
        }
    }
}

/// The fast-compile pipelines (docs/MODEL.md, Fast-compile levels: cicc's description gives their size, not their
/// lists): `Ofcmax` only cleans up (dce) and sinks (Sinking2, cicc's
/// "Sinking2(fast) + minimal canonicalization"), `Ofcmid` adds constant
/// propagation and CFG cleanup, `Ofcmin` adds EarlyCSE and LICM.
/// MemorySpaceOpt: cicc's description says Ofcmax forces `-memory-space-opt=0`
/// (never in OFCMAX) and Ofcmid runs it (so Ofcmin too).
const OFCMAX: &[Row] = &[
    row("dce", Gate::Always, Some("no-dce"), 1),
    row("sinking2", Gate::Always, Some("no-sinking2"), 2),
];
const OFCMID: &[Row] = &[
    row_p(
        "memory-space-opt",
        MSO_FIRST,
        Gate::Always,
        Some("+do-ip-msp"),
        0,
    ),
    row("sccp", Gate::Always, Some("no-sccp"), 1),
    row("instcombine", Gate::Always, Some("no-instcombine"), 2),
    row("simplifycfg", Gate::Always, Some("no-simplifycfg"), 3),
    row("dce", Gate::Always, Some("no-dce"), 4),
];
const OFCMIN: &[Row] = &[
    row_p(
        "memory-space-opt",
        MSO_FIRST,
        Gate::Always,
        Some("+do-ip-msp"),
        0,
    ),
    row("sccp", Gate::Always, Some("no-sccp"), 1),
    row("instcombine", Gate::Always, Some("no-instcombine"), 2),
    row("early-cse", Gate::Always, Some("no-earlycse"), 3),
    row("licm", Gate::Always, Some("+do-licm"), 4),
    row("simplifycfg", Gate::Always, Some("no-simplifycfg"), 5),
    row("dce", Gate::Always, Some("no-dce"), 6),
];

/// Assembles `nvopt<LEVEL>`.
pub fn build(level: Level, knobs: &Knobs) -> Pipeline {
    let mut pm = PassManager::default();
    let mut features = 0;
    let tier = match level {
        Level::O0 => None,
        Level::O1 => Some(1),
        Level::O2 => Some(2),
        Level::O3 => Some(3),
        Level::Ofcmax => {
            add_rows(&mut pm, OFCMAX, 0, knobs, 10);
            None
        }
        Level::Ofcmid => {
            add_rows(&mut pm, OFCMID, 0, knobs, 11);
            None
        }
        Level::Ofcmin => {
            add_rows(&mut pm, OFCMIN, 0, knobs, 12);
            None
        }
    };
    if let Some(t) = tier {
        add_rows(&mut pm, PRE, t, knobs, 2);
        add_rows(&mut pm, TIER0, t, knobs, 0);
        add_rows(&mut pm, TIER_N, t, knobs, 1);
        let lang = Lang::of(knobs);
        add_rows(&mut pm, lang.rows(), t, knobs, 20 + lang as u32);
        if t == 3 && features == 0 {
            features = 6;
        }
    }
    Pipeline { pm, features }
}

/// Parses `--passes=LIST`: comma-separated pass names, or `nvopt<O#>` /
/// `default<O#>` for a whole pipeline. Unknown names and parameters on a
/// pass that takes none are errors.
pub fn parse_passes(list: &str, knobs: &Knobs) -> Result<Pipeline, String> {
    let mut pm = PassManager::default();
    let mut features = 0;
    for (k, item) in list.split(',').enumerate() {
        let item = item.trim();
        if item.is_empty() {
            return Err(format!("--passes: empty pass name in '{list}'"));
        }
        let (name, params) = match item.split_once('<') {
            Some((n, rest)) => {
                let Some(p) = rest.strip_suffix('>') else {
                    return Err(format!("--passes: unterminated parameters in '{item}'"));
                };
                (n, Some(p))
            }
            None => (item, None),
        };
        if name == "nvopt" || name == "default" {
            let level = params
                .and_then(Level::from_name)
                .ok_or_else(|| format!("--passes: unknown pipeline '{item}'"))?;
            let sub = build(level, knobs);
            features |= sub.features;
            for (p, flags) in sub.pm.passes {
                let p = PassRef {
                    instance: p.instance + (k as u32 + 1) * 100_000,
                    ..p
                };
                pm.add_pass(p, flags & FUNCTION_PASS != 0, flags & BARRIER != 0);
            }
            continue;
        }
        let Some(&known) = passes::NAMES.iter().find(|&&n| n == name) else {
            return Err(format!("--passes: unknown pass '{name}'"));
        };
        let params = match params {
            Some(p) => passes::parse_params(known, p)?,
            None => vec![],
        };
        let module = passes::is_module_pass(known);
        pm.add_pass(
            PassRef {
                name: known,
                params,
                instance: 9_000_000 + k as u32,
            },
            !module,
            module,
        );
    }
    Ok(Pipeline { pm, features })
}

impl Pipeline {
    /// Runs every function pass in order on one function (module passes
    /// need the module: [`super::two_phase::run`] runs those).
    pub fn run(&self, f: &mut Function) {
        let passes: Vec<Box<dyn Pass>> = self
            .pm
            .passes
            .iter()
            .filter(|(_, flags)| flags & FUNCTION_PASS != 0)
            .map(|(p, _)| {
                passes::create(p.name, &p.params).expect("pipelines name implemented passes")
            })
            .collect();
        for p in &passes {
            p.run(f);
        }
    }
}
