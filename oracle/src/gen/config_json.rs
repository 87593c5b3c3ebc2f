//! The JSON form of [`GenConfig`]: reading with `line:col: field: message`
//! errors (the launch spec's position-keeping JSON reader; unknown keys,
//! unknown family or type names and values out of range are refused) and
//! writing (every field, reads back equal).

use super::config::{
    shape_ok, Bias, GenConfig, Lists, Probabilities, Sizes, BIAS_NAMES, MAX_BLOCKS,
    MAX_THREADS_PER_BLOCK, SIZE_BOUNDS,
};
use super::features::{Family, VType, FAMILIES, TYPES};
use crate::launch::error::line_col;
use crate::launch::json::{self, Kind, Member, Value};

impl GenConfig {
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
