//! `GenConfig`: what the generator may produce and how much of it, with its
//! explicit JSON form (`ptxdiff gen --gen-config FILE`). Every field has a
//! default (the standard swarm configuration); a JSON file names only what
//! it changes. Unknown keys, unknown family or type names, and values out
//! of range are errors with `line:col` and the field path, read with the
//! launch spec's position-keeping JSON reader.
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

use super::features::{Family, VType, FAMILIES, TYPES};
use crate::launch::error::line_col;
use crate::launch::json::{self, Kind, Member, Value};

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
    fn get(&self, name: &str) -> u64 {
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

    fn set(&mut self, name: &str, v: u64) {
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
const MAX_THREADS_PER_BLOCK: u64 = 1024;
const MAX_BLOCKS: u64 = 64;

impl GenConfig {
    pub fn family_allowed(&self, f: Family) -> bool {
        self.families.allows(&f)
    }

    pub fn type_allowed(&self, t: VType) -> bool {
        self.types.allows(&t)
    }

    /// Reads the JSON form; missing fields keep their defaults.
    pub fn from_json(text: &str) -> Result<GenConfig, String> {
        let r = Reader { text };
        let v = json::parse(text).map_err(|e| r.msg(e.pos, "", &e.message))?;
        let mut cfg = GenConfig::default();
        let top = r.object(&v, "")?;
        r.only(
            top,
            "",
            &[
                "mode",
                "swarm",
                "families",
                "types",
                "sizes",
                "probabilities",
                "grid",
                "block",
            ],
        )?;
        for m in top {
            let f = m.key.as_str();
            let v = &m.value;
            match f {
                "mode" => {
                    let s = r.string(v, f)?;
                    cfg.mode = Bias::from_name(s).ok_or_else(|| {
                        let names: Vec<&str> = BIAS_NAMES.iter().map(|b| b.1).collect();
                        r.msg(
                            v.pos,
                            f,
                            &format!("unknown mode '{s}' (one of {})", names.join(", ")),
                        )
                    })?;
                }
                "swarm" => cfg.swarm = r.boolean(v, f)?,
                "families" => {
                    cfg.families = r.lists(v, f, &|s| Family::from_name(s), &|| {
                        FAMILIES.iter().map(|x| x.1).collect()
                    })?
                }
                "types" => {
                    cfg.types = r.lists(v, f, &|s| VType::from_name(s), &|| {
                        TYPES.iter().map(|x| x.1).collect()
                    })?
                }
                "sizes" => r.sizes(v, &mut cfg.sizes)?,
                "probabilities" => r.probs(v, &mut cfg.probabilities)?,
                "grid" => cfg.grids = r.shapes(v, f, MAX_BLOCKS)?,
                "block" => cfg.blocks = r.shapes(v, f, MAX_THREADS_PER_BLOCK)?,
                _ => unreachable!("checked by only()"),
            }
        }
        // Whole-config rules (every type denied) have no single position.
        cfg.check()
            .map_err(|e| format!("{}: {e}", r.pos_text(v.pos)))?;
        Ok(cfg)
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

    /// The JSON form (every field written; reads back equal).
    pub fn to_json(&self) -> String {
        let list = |v: Vec<&str>| {
            let items: Vec<String> = v.iter().map(|s| json::quote(s)).collect();
            format!("[{}]", items.join(", "))
        };
        let shapes = |v: &[Vec<u32>]| {
            let items: Vec<String> = v
                .iter()
                .map(|d| {
                    let ds: Vec<String> = d.iter().map(u32::to_string).collect();
                    format!("[{}]", ds.join(", "))
                })
                .collect();
            format!("[{}]", items.join(", "))
        };
        let s = &self.sizes;
        let p = &self.probabilities;
        let fam = |v: &[Family]| list(v.iter().map(|f| f.name()).collect());
        let ty = |v: &[VType]| list(v.iter().map(|t| t.name()).collect());
        format!(
            "{{\n  \"mode\": {},\n  \"swarm\": {},\n  \"families\": {{\"allow\": {}, \"deny\": {}}},\n  \"types\": {{\"allow\": {}, \"deny\": {}}},\n  \"sizes\": {{\"stmts\": {}, \"depth\": {}, \"loop_trip\": {}, \"dyn_insts\": {}, \"output_slots\": {}, \"input_len\": {}, \"funcs\": {}, \"fuel_per_thread\": {}}},\n  \"probabilities\": {{\"swarm_keep\": {}, \"update\": {}, \"immediate\": {}, \"special\": {}, \"divergent\": {}, \"guard\": {}}},\n  \"grid\": {},\n  \"block\": {}\n}}\n",
            json::quote(self.mode.name()),
            self.swarm,
            fam(&self.families.allow),
            fam(&self.families.deny),
            ty(&self.types.allow),
            ty(&self.types.deny),
            s.stmts,
            s.depth,
            s.loop_trip,
            s.dyn_insts,
            s.output_slots,
            s.input_len,
            s.funcs,
            s.fuel_per_thread,
            json::f64_text(p.swarm_keep),
            json::f64_text(p.update),
            json::f64_text(p.immediate),
            json::f64_text(p.special),
            json::f64_text(p.divergent),
            json::f64_text(p.guard),
            shapes(&self.grids),
            shapes(&self.blocks),
        )
    }
}

fn shape_ok(sh: &[u32], max: u64) -> Result<(), String> {
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

/// JSON reading with `line:col: field: message` errors.
struct Reader<'a> {
    text: &'a str,
}

impl Reader<'_> {
    fn pos_text(&self, pos: usize) -> String {
        let (l, c) = line_col(self.text, pos);
        format!("{l}:{c}")
    }

    fn msg(&self, pos: usize, field: &str, m: &str) -> String {
        if field.is_empty() {
            format!("{}: {m}", self.pos_text(pos))
        } else {
            format!("{}: {field}: {m}", self.pos_text(pos))
        }
    }

    fn object<'v>(&self, v: &'v Value, f: &str) -> Result<&'v [Member], String> {
        match &v.kind {
            Kind::Object(m) => Ok(m),
            k => Err(self.msg(
                v.pos,
                f,
                &format!("expected an object, found {}", k.describe()),
            )),
        }
    }

    fn only(&self, ms: &[Member], f: &str, keys: &[&str]) -> Result<(), String> {
        for m in ms {
            if !keys.contains(&m.key.as_str()) {
                return Err(self.msg(
                    m.key_pos,
                    f,
                    &format!(
                        "unknown key '{}' (expected one of {})",
                        m.key,
                        keys.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    fn string<'v>(&self, v: &'v Value, f: &str) -> Result<&'v str, String> {
        match &v.kind {
            Kind::String(s) => Ok(s),
            k => Err(self.msg(
                v.pos,
                f,
                &format!("expected a string, found {}", k.describe()),
            )),
        }
    }

    fn boolean(&self, v: &Value, f: &str) -> Result<bool, String> {
        match &v.kind {
            Kind::Bool(b) => Ok(*b),
            k => Err(self.msg(
                v.pos,
                f,
                &format!("expected a boolean, found {}", k.describe()),
            )),
        }
    }

    fn array<'v>(&self, v: &'v Value, f: &str) -> Result<&'v [Value], String> {
        match &v.kind {
            Kind::Array(a) => Ok(a),
            k => Err(self.msg(
                v.pos,
                f,
                &format!("expected an array, found {}", k.describe()),
            )),
        }
    }

    fn uint(&self, v: &Value, f: &str, max: u64) -> Result<u64, String> {
        let bad = |why: &str| self.msg(v.pos, f, why);
        match &v.kind {
            Kind::Number(t) => {
                let n = json::number_to_i128(t).map_err(|_| bad("expected an integer"))?;
                if n < 0 || n > i128::from(max) {
                    Err(bad(&format!("{n} is outside 0..={max}")))
                } else {
                    Ok(n as u64)
                }
            }
            k => Err(bad(&format!("expected an integer, found {}", k.describe()))),
        }
    }

    fn prob(&self, v: &Value, f: &str) -> Result<f64, String> {
        let bad = |why: &str| self.msg(v.pos, f, why);
        match &v.kind {
            Kind::Number(t) => {
                let x = json::number_to_f64(t).map_err(bad)?;
                if (0.0..=1.0).contains(&x) {
                    Ok(x)
                } else {
                    Err(bad(&format!("{x} is outside [0, 1]")))
                }
            }
            k => Err(bad(&format!("expected a number, found {}", k.describe()))),
        }
    }

    fn lists<T: Copy>(
        &self,
        v: &Value,
        f: &str,
        by_name: &dyn Fn(&str) -> Option<T>,
        names: &dyn Fn() -> Vec<&'static str>,
    ) -> Result<Lists<T>, String> {
        let ms = self.object(v, f)?;
        self.only(ms, f, &["allow", "deny"])?;
        let mut out = Lists {
            allow: vec![],
            deny: vec![],
        };
        for m in ms {
            let field = format!("{f}.{}", m.key);
            let mut items = Vec::new();
            for (i, it) in self.array(&m.value, &field)?.iter().enumerate() {
                let fi = format!("{field}[{i}]");
                let s = self.string(it, &fi)?;
                let x = by_name(s).ok_or_else(|| {
                    self.msg(
                        it.pos,
                        &fi,
                        &format!("unknown name '{s}' (one of {})", names().join(", ")),
                    )
                })?;
                items.push(x);
            }
            if m.key == "allow" {
                out.allow = items;
            } else {
                out.deny = items;
            }
        }
        Ok(out)
    }

    fn sizes(&self, v: &Value, s: &mut Sizes) -> Result<(), String> {
        let ms = self.object(v, "sizes")?;
        let keys: Vec<&str> = SIZE_BOUNDS.iter().map(|b| b.0).collect();
        self.only(ms, "sizes", &keys)?;
        for m in ms {
            let f = format!("sizes.{}", m.key);
            let &(name, lo, hi) = SIZE_BOUNDS
                .iter()
                .find(|b| b.0 == m.key)
                .expect("checked by only()");
            let n = self.uint(&m.value, &f, hi)?;
            if n < lo {
                return Err(self.msg(m.value.pos, &f, &format!("{n} is outside {lo}..={hi}")));
            }
            if name == "input_len" && !n.is_power_of_two() {
                return Err(self.msg(m.value.pos, &f, &format!("{n} is not a power of two")));
            }
            s.set(name, n);
        }
        Ok(())
    }

    fn probs(&self, v: &Value, p: &mut Probabilities) -> Result<(), String> {
        let ms = self.object(v, "probabilities")?;
        let keys = [
            "swarm_keep",
            "update",
            "immediate",
            "special",
            "divergent",
            "guard",
        ];
        self.only(ms, "probabilities", &keys)?;
        for m in ms {
            let f = format!("probabilities.{}", m.key);
            let x = self.prob(&m.value, &f)?;
            match m.key.as_str() {
                "swarm_keep" => p.swarm_keep = x,
                "update" => p.update = x,
                "immediate" => p.immediate = x,
                "special" => p.special = x,
                "divergent" => p.divergent = x,
                _ => p.guard = x,
            }
        }
        Ok(())
    }

    fn shapes(&self, v: &Value, f: &str, max: u64) -> Result<Vec<Vec<u32>>, String> {
        let mut out = Vec::new();
        for (i, sv) in self.array(v, f)?.iter().enumerate() {
            let fi = format!("{f}[{i}]");
            let dims = self
                .array(sv, &fi)?
                .iter()
                .map(|d| self.uint(d, &fi, u64::from(u32::MAX)).map(|n| n as u32))
                .collect::<Result<Vec<u32>, String>>()?;
            shape_ok(&dims, max).map_err(|e| self.msg(sv.pos, &fi, &e))?;
            out.push(dims);
        }
        if out.is_empty() {
            return Err(self.msg(v.pos, f, "no shapes"));
        }
        Ok(out)
    }
}
