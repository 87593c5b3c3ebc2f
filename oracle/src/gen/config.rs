//! `GenConfig`: what the generator may produce and how much of it, with its
//! explicit JSON form (`ptxdiff gen --gen-config FILE`, read and written in
//! `config_json.rs`). Every field has a default (the standard swarm
//! configuration); a JSON file names only what it changes.
//!
//! ```json
//! {
//!   "mode": "none",
//!   "swarm": true,
//!   "families": {"allow": [], "deny": ["tex"]},
//!   "types": {"allow": [], "deny": ["f16"]},
//!   "sizes": {"stmts": 24, "depth": 2, "loop_trip": 4, "dyn_insts": 260,
//!             "output_slots": 4, "input_len": 64, "funcs": 2, "fuel_per_thread": 4000},
//!   "probabilities": {"swarm_keep": 0.5, "update": 0.3, "immediate": 0.25,
//!                     "special": 0.35, "divergent": 0.6, "guard": 0.15},
//!   "grid": [[1], [2], [3], [2, 2]],
//!   "block": [[32], [64], [96], [8, 4], [16, 2, 2], [40], [48]]
//! }
//! ```
//! An empty `allow` list means every family (type); `deny` wins over
//! `allow`. `mode` is one of `none`, `nan_or_zero`, `tex_nodep`,
//! `hoist_invariants` ([`Bias`]).

use super::features::{Family, VType, TYPES};

/// A biased mode: programs shaped for one peephole's pattern (see `bias.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bias {
    #[default]
    None,
    NanOrZero,
    TexNodep,
    HoistInvariants,
}

/// The modes' JSON names.
pub const BIAS_NAMES: &[(Bias, &str)] = &[
    (Bias::None, "none"),
    (Bias::NanOrZero, "nan_or_zero"),
    (Bias::TexNodep, "tex_nodep"),
    (Bias::HoistInvariants, "hoist_invariants"),
];

impl Bias {
    pub fn name(self) -> &'static str {
        BIAS_NAMES
            .iter()
            .find(|b| b.0 == self)
            .map_or("none", |b| b.1)
    }

    pub fn from_name(s: &str) -> Option<Bias> {
        BIAS_NAMES.iter().find(|b| b.1 == s).map(|b| b.0)
    }
}

/// Allow and deny lists (empty `allow` = everything).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lists<T> {
    pub allow: Vec<T>,
    pub deny: Vec<T>,
}

impl<T> Default for Lists<T> {
    fn default() -> Self {
        Lists {
            allow: Vec::new(),
            deny: Vec::new(),
        }
    }
}

impl<T: PartialEq> Lists<T> {
    pub fn allows(&self, x: &T) -> bool {
        (self.allow.is_empty() || self.allow.contains(x)) && !self.deny.contains(x)
    }
}

/// Size bounds of one program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// Top-level statements, at most (at least a quarter of it).
    pub stmts: u32,
    /// Nesting depth of branches and loops.
    pub depth: u32,
    /// Largest loop trip count.
    pub loop_trip: u32,
    /// Estimated instructions executed per thread, at most (the body stops
    /// growing at this bound; the prologue and epilogue come on top).
    pub dyn_insts: u32,
    /// 8-byte output slots per thread (at least 2: two checksums).
    pub output_slots: u32,
    /// Elements of each input buffer (a power of two: indices are masked).
    pub input_len: u32,
    /// Device functions per module, at most.
    pub funcs: u32,
    /// Interpreter fuel per thread when the stats run a program.
    pub fuel_per_thread: u64,
}

impl Default for Sizes {
    fn default() -> Self {
        Sizes {
            stmts: 24,
            depth: 2,
            loop_trip: 4,
            dyn_insts: 260,
            output_slots: 4,
            input_len: 64,
            funcs: 2,
            fuel_per_thread: 4000,
        }
    }
}

/// Probabilities of the generator's choices.
#[derive(Clone, Debug, PartialEq)]
pub struct Probabilities {
    /// Swarm: each allowed family and type is kept with this probability.
    pub swarm_keep: f64,
    /// An arithmetic statement overwrites an existing register instead of
    /// defining a new one.
    pub update: f64,
    /// An operand is an immediate instead of a register.
    pub immediate: f64,
    /// A float input buffer or constant is a special value (with `special`).
    pub special: f64,
    /// A branch or loop condition depends on the thread (divergence).
    pub divergent: f64,
    /// An instruction is guarded by a predicate (with `pred`).
    pub guard: f64,
}

impl Default for Probabilities {
    fn default() -> Self {
        Probabilities {
            swarm_keep: 0.5,
            update: 0.3,
            immediate: 0.25,
            special: 0.35,
            divergent: 0.6,
            guard: 0.15,
        }
    }
}

/// The generator's configuration; `Default` is the standard swarm config.
#[derive(Clone, Debug, PartialEq)]
pub struct GenConfig {
    pub mode: Bias,
    pub swarm: bool,
    pub families: Lists<Family>,
    pub types: Lists<VType>,
    pub sizes: Sizes,
    pub probabilities: Probabilities,
    /// Grid shapes to choose from (1 to 3 dimensions).
    pub grids: Vec<Vec<u32>>,
    /// Block shapes to choose from (1 to 3 dimensions). Programs with warp
    /// operations choose among the shapes of whole warps only.
    pub blocks: Vec<Vec<u32>>,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            mode: Bias::None,
            swarm: true,
            families: Lists::default(),
            types: Lists::default(),
            sizes: Sizes::default(),
            probabilities: Probabilities::default(),
            grids: vec![vec![1], vec![2], vec![3], vec![2, 2]],
            blocks: vec![
                vec![32],
                vec![64],
                vec![96],
                vec![8, 4],
                vec![16, 2, 2],
                vec![40],
                vec![48],
            ],
        }
    }
}

/// `sizes` fields with their bounds (inclusive): the reader and
/// [`GenConfig::check`] both use this table.
pub const SIZE_BOUNDS: &[(&str, u64, u64)] = &[
    ("stmts", 1, 500),
    ("depth", 0, 4),
    ("loop_trip", 1, 64),
    ("dyn_insts", 20, 100_000),
    ("output_slots", 2, 16),
    ("input_len", 4, 4096),
    ("funcs", 0, 8),
    ("fuel_per_thread", 100, 10_000_000),
];

impl Sizes {
    pub(super) fn get(&self, name: &str) -> u64 {
        match name {
            "stmts" => self.stmts.into(),
            "depth" => self.depth.into(),
            "loop_trip" => self.loop_trip.into(),
            "dyn_insts" => self.dyn_insts.into(),
            "output_slots" => self.output_slots.into(),
            "input_len" => self.input_len.into(),
            "funcs" => self.funcs.into(),
            _ => self.fuel_per_thread,
        }
    }

    pub(super) fn set(&mut self, name: &str, v: u64) {
        let small = v as u32;
        match name {
            "stmts" => self.stmts = small,
            "depth" => self.depth = small,
            "loop_trip" => self.loop_trip = small,
            "dyn_insts" => self.dyn_insts = small,
            "output_slots" => self.output_slots = small,
            "input_len" => self.input_len = small,
            "funcs" => self.funcs = small,
            _ => self.fuel_per_thread = v,
        }
    }
}

/// Bounds checked on reading (and by [`GenConfig::check`]).
pub(super) const MAX_THREADS_PER_BLOCK: u64 = 1024;
pub(super) const MAX_BLOCKS: u64 = 64;

impl GenConfig {
    pub fn family_allowed(&self, f: Family) -> bool {
        self.families.allows(&f)
    }

    pub fn type_allowed(&self, t: VType) -> bool {
        self.types.allows(&t)
    }

    /// Checks the bounds a configuration built in code must also meet.
    pub fn check(&self) -> Result<(), String> {
        let s = &self.sizes;
        let bound = |name: &str, v: u64, lo: u64, hi: u64| {
            if v < lo || v > hi {
                Err(format!("sizes.{name}: {v} is outside {lo}..={hi}"))
            } else {
                Ok(())
            }
        };
        for &(name, lo, hi) in SIZE_BOUNDS {
            bound(name, s.get(name), lo, hi)?;
        }
        if !s.input_len.is_power_of_two() {
            return Err(format!(
                "sizes.input_len: {} is not a power of two",
                s.input_len
            ));
        }
        let p = &self.probabilities;
        for (name, v) in [
            ("swarm_keep", p.swarm_keep),
            ("update", p.update),
            ("immediate", p.immediate),
            ("special", p.special),
            ("divergent", p.divergent),
            ("guard", p.guard),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!("probabilities.{name}: {v} is outside [0, 1]"));
            }
        }
        for (name, shapes, max) in [
            ("grid", &self.grids, MAX_BLOCKS),
            ("block", &self.blocks, MAX_THREADS_PER_BLOCK),
        ] {
            if shapes.is_empty() {
                return Err(format!("{name}: no shapes"));
            }
            for sh in shapes {
                shape_ok(sh, max).map_err(|e| format!("{name}: {e}"))?;
            }
        }
        if !TYPES.iter().any(|t| self.type_allowed(t.0)) {
            return Err("types: every type is denied".into());
        }
        Ok(())
    }
}

pub(super) fn shape_ok(sh: &[u32], max: u64) -> Result<(), String> {
    if sh.is_empty() || sh.len() > 3 {
        return Err(format!("a shape has 1 to 3 dimensions, not {}", sh.len()));
    }
    if sh.contains(&0) {
        return Err("a dimension is 0".into());
    }
    let n: u64 = sh.iter().map(|&d| u64::from(d)).product();
    if n > max {
        return Err(format!("{sh:?} has {n} elements (at most {max})"));
    }
    Ok(())
}
