//! What the driver is asked to do: the options of one compilation (docs/MODEL.md, Compilation driver,
//! phases 1 and 21), the cache-mode resolution of phase 16 and the reserved
//! register range of phase 20.

use crate::ptx::modifiers::Mod;
use crate::targets::SmInfo;
use std::path::PathBuf;

/// A PTX cache operator given to `--def-load-cache`, `--force-load-cache`,
/// `--def-store-cache` or `--force-store-cache` (ptxas `-dlcm=ca` ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CacheOp {
    Ca,
    Cg,
    Cs,
    Lu,
    Cv,
    Wb,
    Wt,
}

impl CacheOp {
    /// The operators ptxas 11.8 accepts for loads (`-dlcm`/`-flcm`):
    /// `ca cg cs lu cv`; `wb`/`wt` give "Invalid default cache modifier on
    /// load specified".
    pub const LOAD: &'static [CacheOp] = &[
        CacheOp::Ca,
        CacheOp::Cg,
        CacheOp::Cs,
        CacheOp::Lu,
        CacheOp::Cv,
    ];
    /// For stores (`-dscm`/`-fscm`): `wb cg cs wt` (measured the same way).
    pub const STORE: &'static [CacheOp] = &[CacheOp::Wb, CacheOp::Cg, CacheOp::Cs, CacheOp::Wt];

    pub fn name(self) -> &'static str {
        match self {
            CacheOp::Ca => "ca",
            CacheOp::Cg => "cg",
            CacheOp::Cs => "cs",
            CacheOp::Lu => "lu",
            CacheOp::Cv => "cv",
            CacheOp::Wb => "wb",
            CacheOp::Wt => "wt",
        }
    }

    pub fn parse(s: &str) -> Option<CacheOp> {
        [
            CacheOp::Ca,
            CacheOp::Cg,
            CacheOp::Cs,
            CacheOp::Lu,
            CacheOp::Cv,
            CacheOp::Wb,
            CacheOp::Wt,
        ]
        .into_iter()
        .find(|c| c.name() == s)
    }

    /// The PTX modifier (`.ca`, ...).
    pub fn to_mod(self) -> Mod {
        match self {
            CacheOp::Ca => Mod::Ca,
            CacheOp::Cg => Mod::Cg,
            CacheOp::Cs => Mod::Cs,
            CacheOp::Lu => Mod::Lu,
            CacheOp::Cv => Mod::Cv,
            CacheOp::Wb => Mod::Wb,
            CacheOp::Wt => Mod::Wt,
        }
    }
}

/// A function's resolved cache mode for loads or stores (ptxas's driver phase 16:
/// mode 2 forced, mode 1 default, mode 0 left to the callee analysis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CacheMode {
    /// Mode 0: every access keeps the operator it was written with.
    Auto,
    /// Mode 1: accesses written without an operator get this one.
    Default(CacheOp),
    /// Mode 2: every access gets this one, replacing what was written.
    Forced(CacheOp),
}

impl CacheMode {
    /// Phase 16: the forcing option overrides everything, else the default
    /// option, else mode 0.
    pub fn resolve(default: Option<CacheOp>, force: Option<CacheOp>) -> CacheMode {
        match (force, default) {
            (Some(f), _) => CacheMode::Forced(f),
            (None, Some(d)) => CacheMode::Default(d),
            (None, None) => CacheMode::Auto,
        }
    }

    /// ptxas's mode number.
    pub fn number(self) -> u8 {
        match self {
            CacheMode::Auto => 0,
            CacheMode::Default(_) => 1,
            CacheMode::Forced(_) => 2,
        }
    }
}

impl std::fmt::Display for CacheMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CacheMode::Auto => f.write_str("auto"),
            CacheMode::Default(c) => write!(f, "default:{}", c.name()),
            CacheMode::Forced(c) => write!(f, "forced:{}", c.name()),
        }
    }
}

/// The driver's named phases, for timing, cancellation and internal-error
/// reports (`internal compiler error in lower: ...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    Parse,
    Validate,
    Checks,
    Lower,
    Verify,
    Phases,
    Resources,
    Emit,
    Finalize,
}

impl Phase {
    pub const ALL: &'static [Phase] = &[
        Phase::Parse,
        Phase::Validate,
        Phase::Checks,
        Phase::Lower,
        Phase::Verify,
        Phase::Phases,
        Phase::Resources,
        Phase::Emit,
        Phase::Finalize,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Parse => "parse",
            Phase::Validate => "validate",
            Phase::Checks => "checks",
            Phase::Lower => "lower",
            Phase::Verify => "verify",
            Phase::Phases => "phases",
            Phase::Resources => "resources",
            Phase::Emit => "emit",
            Phase::Finalize => "finalize",
        }
    }

    pub fn parse(s: &str) -> Option<Phase> {
        Phase::ALL.iter().copied().find(|p| p.name() == s)
    }
}

/// The options of one compilation. `Default` is ptxas's defaults, except
/// the target: the module's `.target` when `arch` is `None`.
#[derive(Clone, Debug)]
pub struct DriverOptions {
    /// `-arch=sm_XX` / `--gpu-name sm_XX`.
    pub arch: Option<&'static SmInfo>,
    /// `-O0`..`-O3` (ptxas default 3). Recorded in each function's
    /// configuration; there is no optimizing phase yet.
    pub opt_level: u8,
    /// `-e NAME` (repeatable, or comma-separated as ptxas allows).
    pub entries: Vec<String>,
    /// `-E REGEX` (ptxc's own, repeatable): entries whose name the regular
    /// expression matches (anywhere: anchor with `^...$`).
    pub entry_regexes: Vec<String>,
    /// `--maxrregcount N`.
    pub maxrregcount: Option<u32>,
    /// `--threads N`: 0 compiles functions one after another on the calling
    /// thread (driver phase 23a, docs/MODEL.md, Compilation driver), N >= 1 on a pool of N threads (23b).
    pub threads: usize,
    /// `-v`: the ptxas-style `info` lines.
    pub verbose: bool,
    /// `--def-load-cache`, `--force-load-cache`, `--def-store-cache`,
    /// `--force-store-cache` (phase 1; resolved per function in phase 16).
    pub def_load_cache: Option<CacheOp>,
    pub force_load_cache: Option<CacheOp>,
    pub def_store_cache: Option<CacheOp>,
    pub force_store_cache: Option<CacheOp>,
    /// `-m 32|64` / `--machine` (phase 12).
    pub machine: Option<u32>,
    /// `-c` / `--compile-only`: enables phase 24's call-graph budget check.
    pub compile_only: bool,
    /// `--fast-compile` and `--extensible-whole-program` (`-ewp`): recorded,
    /// and dropped with a warning for modules compiled without ABI (phase 9).
    pub fast_compile: bool,
    pub extensible_whole_program: bool,
    /// `--legacy-bar-warp-wide-behavior`: ignored with a warning for
    /// `.target sm_70` and later (phase 9).
    pub legacy_bar_warp_wide: bool,
    /// `--g-tensor-memory-access-check` (ptxc's spelling of ptxas's
    /// option): ignored with a warning before sm_100 (phase 9).
    pub g_tensor_memory_access_check: bool,
    /// Phase 20: the first general register the user reserves (raised to 4:
    /// R0..R3 are always reserved) and how many, from the top of the budget.
    pub first_reserved_rreg: u32,
    pub reserved_rreg_count: u32,
    /// `--timing`: per-phase times as info lines.
    pub timing: bool,
    /// Where an internal error saves the input (`-o`'s directory; default:
    /// the system temp directory).
    pub ice_dir: Option<PathBuf>,
    /// Testing hook: panic inside this phase (to exercise the
    /// internal-error path). Not a user option.
    pub inject_ice: Option<Phase>,
    /// The PhaseManager's options: `--phase-stats`, `--dump-ir-before`,
    /// `--dump-ir-after`, `--phase-order`, `--disable-phase`, `--knob`.
    pub phases: crate::phases::PhaseOptions,
}

impl Default for DriverOptions {
    fn default() -> Self {
        DriverOptions {
            arch: None,
            opt_level: 3,
            entries: Vec::new(),
            entry_regexes: Vec::new(),
            maxrregcount: None,
            threads: 0,
            verbose: false,
            def_load_cache: None,
            force_load_cache: None,
            def_store_cache: None,
            force_store_cache: None,
            machine: None,
            compile_only: false,
            fast_compile: false,
            extensible_whole_program: false,
            legacy_bar_warp_wide: false,
            g_tensor_memory_access_check: false,
            first_reserved_rreg: 0,
            reserved_rreg_count: 0,
            timing: false,
            ice_dir: None,
            inject_ice: None,
            phases: crate::phases::PhaseOptions::default(),
        }
    }
}

/// Phase 20's reserved range: `first = max(4, first)`, packed as ptxas
/// does, `(count << 16) | first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReservedRegs {
    pub first: u32,
    pub count: u32,
}

impl ReservedRegs {
    pub fn new(first: u32, count: u32) -> ReservedRegs {
        ReservedRegs {
            first: first.max(4),
            count,
        }
    }

    pub fn packed(self) -> u32 {
        (self.count << 16) | (self.first & 0xffff)
    }
}

/// One function's compile configuration (phase 21), a snapshot each
/// per-function compile reads (phase 14: workers never see later changes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionConfig {
    pub sm: &'static SmInfo,
    pub opt_level: u8,
    pub address_width: u32,
    pub load_cache: CacheMode,
    pub store_cache: CacheMode,
    pub reserved: ReservedRegs,
    /// The register budget before reserving: `.maxnreg`, else
    /// `--maxrregcount`, else the SM's maximum.
    pub max_registers: u32,
    pub fast_compile: bool,
    pub extensible_whole_program: bool,
}

impl FunctionConfig {
    /// Registers left for the function after phase 20's reservation.
    pub fn budget(&self) -> u32 {
        self.max_registers.saturating_sub(self.reserved.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_16_forcing_beats_the_default_which_beats_nothing() {
        use CacheOp::*;
        assert_eq!(CacheMode::resolve(None, None), CacheMode::Auto);
        assert_eq!(CacheMode::resolve(Some(Ca), None), CacheMode::Default(Ca));
        assert_eq!(
            CacheMode::resolve(Some(Ca), Some(Cg)),
            CacheMode::Forced(Cg)
        );
        assert_eq!(CacheMode::resolve(None, Some(Cs)).number(), 2);
        assert_eq!(CacheMode::resolve(Some(Lu), None).number(), 1);
        assert_eq!(CacheMode::Auto.number(), 0);
    }

    #[test]
    fn phase_20_reserves_at_least_r0_to_r3() {
        assert_eq!(ReservedRegs::new(0, 0).first, 4);
        assert_eq!(
            ReservedRegs::new(10, 3),
            ReservedRegs {
                first: 10,
                count: 3
            }
        );
        assert_eq!(ReservedRegs::new(2, 5).packed(), (5 << 16) | 4);
    }

    #[test]
    fn phase_names_round_trip() {
        for &p in Phase::ALL {
            assert_eq!(Phase::parse(p.name()), Some(p));
        }
        assert_eq!(Phase::parse("nope"), None);
    }
}
