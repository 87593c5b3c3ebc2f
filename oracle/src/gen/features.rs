//! The feature families and value types the generator knows (one table
//! each: the names in `GenConfig` JSON, in `GenProgram::features` and in the
//! coverage counts all come from here), and swarm selection: each program
//! enables a random subset of the families and types its configuration
//! allows (Groce et al., "Swarm testing", ISSTA 2012: leaving features out
//! of a test lets the remaining ones interact more deeply).

use super::config::GenConfig;
use super::source::Src;

/// A family of generated constructs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    Int,
    Int64,
    Float,
    Special,
    Sfu,
    Cvt,
    Pred,
    Branch,
    Loop,
    Gemm,
    Local,
    Const,
    Shared,
    Atomic,
    Warp,
    Tex,
    Call,
    Menu,
    Alias,
}

/// `(family, name, what it generates)`: the one table of families.
pub const FAMILIES: &[(Family, &str, &str)] = &[
    (
        Family::Int,
        "int",
        "32-bit integer arithmetic, logic, shifts, bit operations, guarded div/rem",
    ),
    (
        Family::Int64,
        "int64",
        "64-bit integer arithmetic, mul.wide, 64-bit shifts and logic",
    ),
    (
        Family::Float,
        "float",
        "add/sub/mul/fma (every rounding or none, .ftz, .sat)/min/max/neg/abs/copysign/setp/selp on the enabled float types",
    ),
    (
        Family::Special,
        "special",
        "NaN, +-0, infinities and subnormals as inputs and constants",
    ),
    (
        Family::Sfu,
        "sfu",
        "div/sqrt/rcp in every rounding (.rn/.rz/.rm/.rp, .ftz) and the .approx functions (.ftz)",
    ),
    (
        Family::Cvt,
        "cvt",
        "conversions between integer and float types, widening and narrowing",
    ),
    (
        Family::Pred,
        "pred",
        "setp, predicate logic, selp and guarded instructions",
    ),
    (Family::Branch, "branch", "divergent if/else regions"),
    (
        Family::Loop,
        "loop",
        "counted loops (nested, uniform or thread-dependent trip counts)",
    ),
    (
        Family::Gemm,
        "gemm",
        "GEMM-like inner loops: fma accumulation over input rows",
    ),
    (
        Family::Local,
        "local",
        "per-thread .local arrays with computed in-bounds indices",
    ),
    (
        Family::Const,
        "const",
        "loads from .const arrays and scalar kernel parameters",
    ),
    (
        Family::Shared,
        "shared",
        "shared-memory phases separated by bar.sync",
    ),
    (
        Family::Atomic,
        "atomic",
        "red on shared accumulators, atom on thread-private slots (32/64-bit, float, scopes, generic)",
    ),
    (
        Family::Warp,
        "warp",
        "shfl.sync, vote.sync and bar.red.popc on converged warps",
    ),
    (
        Family::Tex,
        "tex",
        "tex.1d/tex.2d fetches from a texture object parameter",
    ),
    (
        Family::Call,
        "call",
        "calls of generated .func device functions",
    ),
    (
        Family::Menu,
        "menu",
        "any register-only form of the ISA-derived menu (gen/menu.rs), drawn uniformly",
    ),
    (
        Family::Alias,
        "alias",
        "aliasing pointers (two parameters over one buffer, generic and specific, offsets that meet), store-then-reload in every space, isspacep",
    ),
];

/// A value type the builders use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VType {
    U32,
    S32,
    U64,
    S64,
    F16,
    F32,
    F64,
}

/// The one table of types: `(type, name)`.
pub const TYPES: &[(VType, &str)] = &[
    (VType::U32, "u32"),
    (VType::S32, "s32"),
    (VType::U64, "u64"),
    (VType::S64, "s64"),
    (VType::F16, "f16"),
    (VType::F32, "f32"),
    (VType::F64, "f64"),
];

impl Family {
    pub fn name(self) -> &'static str {
        FAMILIES.iter().find(|f| f.0 == self).map_or("?", |f| f.1)
    }

    pub fn from_name(s: &str) -> Option<Family> {
        FAMILIES.iter().find(|f| f.1 == s).map(|f| f.0)
    }
}

impl VType {
    pub fn name(self) -> &'static str {
        TYPES.iter().find(|t| t.0 == self).map_or("?", |t| t.1)
    }

    pub fn from_name(s: &str) -> Option<VType> {
        TYPES.iter().find(|t| t.1 == s).map(|t| t.0)
    }

    pub fn is_float(self) -> bool {
        matches!(self, VType::F16 | VType::F32 | VType::F64)
    }
}

/// What one program may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureSet {
    families: Vec<Family>,
    types: Vec<VType>,
}

impl FeatureSet {
    pub fn has(&self, f: Family) -> bool {
        self.families.contains(&f)
    }

    pub fn has_type(&self, t: VType) -> bool {
        self.types.contains(&t)
    }

    pub fn types(&self) -> &[VType] {
        &self.types
    }

    pub fn float_types(&self) -> Vec<VType> {
        self.types
            .iter()
            .copied()
            .filter(|t| t.is_float())
            .collect()
    }

    /// Adds a family (biased modes force the ones their pattern needs,
    /// unless the configuration denies them).
    pub fn force(&mut self, f: Family, cfg: &GenConfig) {
        if cfg.family_allowed(f) && !self.has(f) {
            self.families.push(f);
            self.families.sort();
        }
    }

    pub fn force_type(&mut self, t: VType, cfg: &GenConfig) {
        if cfg.type_allowed(t) && !self.has_type(t) {
            self.types.push(t);
            self.types.sort();
        }
    }

    /// Drops a family (a program whose block shapes cannot host it).
    pub fn remove(&mut self, f: Family) {
        self.families.retain(|&x| x != f);
    }

    /// The names for `GenProgram::features`: families, then types.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.families.iter().map(|f| f.name()).collect();
        v.extend(self.types.iter().map(|t| t.name()));
        v
    }

    /// The allowed families and types; with swarm on, each one is kept with
    /// probability `swarm_keep` (at least one type always stays: the
    /// program needs values).
    pub fn choose(cfg: &GenConfig, src: &mut Src<'_, '_>) -> FeatureSet {
        let swarm = cfg.swarm;
        let keep = cfg.probabilities.swarm_keep;
        let families = FAMILIES
            .iter()
            .map(|f| f.0)
            .filter(|&f| cfg.family_allowed(f))
            .filter(|_| !swarm || src.chance(keep))
            .collect();
        let allowed: Vec<VType> = TYPES
            .iter()
            .map(|t| t.0)
            .filter(|&t| cfg.type_allowed(t))
            .collect();
        let mut types: Vec<VType> = allowed
            .iter()
            .copied()
            .filter(|_| !swarm || src.chance(keep))
            .collect();
        if types.is_empty() {
            // u32 (or the first allowed type): addresses and indices need
            // 32-bit integers in any case.
            if let Some(&t) = allowed.first() {
                types.push(t);
            }
        }
        FeatureSet { families, types }
    }
}
