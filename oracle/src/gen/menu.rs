//! The generator's instruction menu, derived from the ISA table: the
//! candidate forms of `menu_data.rs` (per `ptxc::ptx::isa::Opcode`, the
//! cross product of its modifier axes) filtered mechanically. Each
//! candidate becomes a one-instruction kernel under the generator's module
//! header; a form is on the menu when the front end's validator accepts it
//! and the PTX interpreter executes it. Whether ptxc lowers it on every
//! target of `gen --stats` (sm_70/80/90) is recorded beside it: the menu
//! emitter (`menu_emit.rs`) writes only forms that lower, so the lowering
//! rate stays what it is, and `ptxdiff coverage` lists the others.
//!
//! Derived once per process (`OnceLock`); the derivation is deterministic,
//! so the menu's order, and with it every generated program, is too.

use super::menu_data::{Opd, Template, Ty, TEMPLATES};
use super::shape::shape_key;
use crate::launch::LaunchSpec;
use crate::ptx_interp::{self, Outcome, RunLimits};
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::types::ScalarType;
use std::sync::OnceLock;

/// The module header of every generated program (`program.rs`
/// `module_text` writes the same one; a test keeps them equal).
pub const GEN_HEADER: &str = ".version 7.0\n.target sm_70\n.address_size 64\n";

/// The targets a menu form must lower on to be written (`gen --stats`'s).
const LOWER_ARCHS: &[&str] = &["sm_70", "sm_80", "sm_90"];

/// Register classes of the operands (the generator's `RC`, by index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    B16,
    B32,
    B64,
    F32,
    F64,
    Pred,
}

impl Class {
    /// The register class that holds a value of `t` (8-bit values live in
    /// 16-bit registers: PTX ISA 5.2.2, registers are at least 16 bits
    /// wide except predicates; half types in 16-bit registers, packed
    /// pairs in 32-bit ones).
    pub fn of(t: ScalarType) -> Class {
        if t == ScalarType::Pred {
            return Class::Pred;
        }
        match (t.bits(), t) {
            (0..=16, _) => Class::B16,
            (32, ScalarType::F32) => Class::F32,
            (32, _) => Class::B32,
            (_, ScalarType::F64) => Class::F64,
            _ => Class::B64,
        }
    }

    fn prefix(self) -> &'static str {
        ["%h", "%r", "%rd", "%f", "%fd", "%p"][self as usize]
    }

    fn decl(self) -> &'static str {
        [".b16", ".b32", ".b64", ".f32", ".f64", ".pred"][self as usize]
    }

    /// The bit-type suffix for `mov`/`or` on the class.
    pub fn bits_suffix(self) -> &'static str {
        ["b16", "b32", "b64", "f32", "f64", "pred"][self as usize]
    }
}

/// One operand of a form, resolved: its role and register class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    Dst(Class),
    Src(Class),
    NonZero(Class),
    Imm(u32),
    /// A source at most the mask (see `menu_data::Opd::Masked`).
    Masked(Class, u32),
}

/// One form on the menu.
#[derive(Clone, Debug)]
pub struct Form {
    /// The shape key (`shape.rs`), also the instruction's opcode text.
    pub key: String,
    pub op: Opcode,
    pub operands: Vec<Operand>,
    /// `Ok` when ptxc lowers it on sm_70, sm_80 and sm_90; else the first
    /// target's message.
    pub lowers: Result<(), String>,
}

/// Why a candidate is not on the menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    FrontEnd(String),
    Interpreter(String),
}

/// The derived menu: its forms in template order, and the refused
/// candidates with their reasons.
#[derive(Debug, Default)]
pub struct Menu {
    pub forms: Vec<Form>,
    pub refused: Vec<(String, Refusal)>,
}

impl Menu {
    /// The forms the menu emitter writes (those that lower everywhere).
    pub fn writable(&self) -> impl Iterator<Item = &Form> {
        self.forms.iter().filter(|f| f.lowers.is_ok())
    }

    pub fn find(&self, key: &str) -> Option<&Form> {
        self.forms.iter().find(|f| f.key == key)
    }
}

/// The menu (derived on first use).
pub fn menu() -> &'static Menu {
    static MENU: OnceLock<Menu> = OnceLock::new();
    MENU.get_or_init(derive)
}

/// The indices of [`menu`]'s writable forms (the emitter draws from these).
pub fn writable_indices() -> &'static [usize] {
    static W: OnceLock<Vec<usize>> = OnceLock::new();
    W.get_or_init(|| {
        let m = menu();
        (0..m.forms.len())
            .filter(|&i| m.forms[i].lowers.is_ok())
            .collect()
    })
}

fn derive() -> Menu {
    let mut menu = Menu::default();
    let mut seen = std::collections::HashSet::new();
    for t in TEMPLATES {
        let mut cands = Vec::new();
        for mods in cross(t.axes) {
            let Some(operands) = resolve(t, &mods) else {
                continue;
            };
            let text = std::iter::once(t.op.name())
                .chain(mods.iter().copied().filter(|m| !m.is_empty()))
                .collect::<Vec<_>>()
                .join(".");
            if seen.insert(text.clone()) {
                cands.push((text, operands));
            }
        }
        for ((text, operands), verdict) in cands.iter().zip(probe_all(&cands)) {
            match verdict {
                Ok(lowers) => menu.forms.push(Form {
                    key: text.clone(),
                    op: t.op,
                    operands: operands.clone(),
                    lowers,
                }),
                Err(r) => menu.refused.push((text.clone(), r)),
            }
        }
    }
    menu
}

type Verdict = Result<Result<(), String>, Refusal>;

/// Candidates run and lowered together (a failure costs a few runs of at
/// most this many).
const CHUNK: usize = 48;

/// The verdicts of a template's candidates, probed together: one kernel
/// holds them all (front end), then the accepted ones run and lower as one
/// kernel, halved until each failure is pinned on one candidate. The same
/// verdicts as probing each alone, in far fewer runs.
fn probe_all(cands: &[(String, Vec<Operand>)]) -> Vec<Verdict> {
    let mut out: Vec<Option<Verdict>> = vec![None; cands.len()];
    let all: Vec<usize> = (0..cands.len()).collect();
    for (k, e) in front_end(cands, &all) {
        out[k] = Some(Err(Refusal::FrontEnd(e)));
    }
    let accepted: Vec<usize> = all.iter().copied().filter(|&k| out[k].is_none()).collect();
    let run = |set: &[usize]| {
        let src = batch_kernel(cands, set);
        let (m, _) = ptxc::ptx::parse_and_validate(&src);
        run_probe(&m, &src)
    };
    for (k, r) in accepted.chunks(CHUNK).flat_map(|c| bisect(c, &run)) {
        if let Err(e) = r {
            out[k] = Some(Err(Refusal::Interpreter(e)));
        }
    }
    let executed: Vec<usize> = all.iter().copied().filter(|&k| out[k].is_none()).collect();
    let lower = |set: &[usize]| lowers(&batch_kernel(cands, set));
    for (k, r) in executed.chunks(CHUNK).flat_map(|c| bisect(c, &lower)) {
        out[k] = Some(Ok(r));
    }
    out.into_iter()
        .map(|v| v.expect("every candidate judged"))
        .collect()
}

/// `check` on the whole set; where it fails, on each half, down to single
/// items: every item's own verdict.
fn bisect(
    set: &[usize],
    check: &dyn Fn(&[usize]) -> Result<(), String>,
) -> Vec<(usize, Result<(), String>)> {
    if set.is_empty() {
        return Vec::new();
    }
    match check(set) {
        Ok(()) => set.iter().map(|&k| (k, Ok(()))).collect(),
        Err(e) if set.len() == 1 => vec![(set[0], Err(e))],
        Err(_) => {
            let (a, b) = set.split_at(set.len() / 2);
            let mut v = bisect(a, check);
            v.extend(bisect(b, check));
            v
        }
    }
}

/// The candidates of `set` the front end refuses, with its message: an
/// error on the candidate's line, or a parsed shape other than its text.
fn front_end(cands: &[(String, Vec<Operand>)], set: &[usize]) -> Vec<(usize, String)> {
    let src = batch_kernel(cands, set);
    let first = first_candidate_line(&src);
    let newlines: Vec<usize> = src.match_indices('\n').map(|(i, _)| i).collect();
    let line_of = |lo: u32| newlines.partition_point(|&n| n < lo as usize);
    let (m, diags) = ptxc::ptx::parse_and_validate(&src);
    let mut bad: std::collections::BTreeMap<usize, String> = Default::default();
    for d in diags.iter().filter(|d| d.is_error()) {
        let l = line_of(d.span.lo);
        if l < first || l >= first + set.len() {
            if set.len() == 1 {
                return vec![(set[0], d.message.clone())];
            }
            // Not pinned on one candidate: judge each alone.
            return set
                .iter()
                .filter_map(|&k| front_end(cands, &[k]).into_iter().next())
                .collect();
        }
        bad.entry(set[l - first])
            .or_insert_with(|| d.message.clone());
    }
    super::shape::for_each_instruction(&m, &mut |i| {
        let l = line_of(i.span.lo);
        if l >= first && l < first + set.len() {
            let k = set[l - first];
            let key = shape_key(i);
            if key != cands[k].0 {
                bad.entry(k).or_insert(format!("parsed as '{key}'"));
            }
        }
    });
    bad.into_iter().collect()
}

/// The 0-based line of a batch kernel's first candidate.
fn first_candidate_line(src: &str) -> usize {
    src.lines()
        .position(|l| l == CAND_MARK)
        .map_or(usize::MAX / 2, |p| p + 1)
}

/// The cross product of the axes, in order.
fn cross(axes: &[&'static [&'static str]]) -> Vec<Vec<&'static str>> {
    let mut out = vec![Vec::new()];
    for axis in axes {
        out = out
            .into_iter()
            .flat_map(|pre| {
                axis.iter().map(move |&m| {
                    let mut v = pre.clone();
                    v.push(m);
                    v
                })
            })
            .collect();
    }
    out
}

/// The operands' classes for one modifier choice; `None` when a type the
/// operands need is missing or has no wide form.
fn resolve(t: &Template, mods: &[&str]) -> Option<Vec<Operand>> {
    let types: Vec<ScalarType> = mods
        .iter()
        .filter_map(|m| ScalarType::from_name(m))
        .collect();
    let ty = |r: Ty| -> Option<Class> {
        Some(Class::of(match r {
            Ty::First => *types.first()?,
            Ty::Last => *types.last()?,
            Ty::Wide => types.last()?.widened()?,
            Ty::Pred => ScalarType::Pred,
            Ty::U32 => ScalarType::U32,
            Ty::B32 => ScalarType::B32,
        }))
    };
    t.opds
        .iter()
        .map(|o| {
            Some(match *o {
                Opd::Dst(r) => Operand::Dst(ty(r)?),
                Opd::Src(r) => Operand::Src(ty(r)?),
                Opd::NonZero(r) => Operand::NonZero(ty(r)?),
                Opd::Imm(n) => Operand::Imm(n),
                Opd::Masked(r, m) => Operand::Masked(ty(r)?, m),
            })
        })
        .collect()
}

/// The line before a batch kernel's candidates.
const CAND_MARK: &str = "\t// candidates";

/// A kernel that writes every source register (non-zero values), then
/// holds the candidates of `set`, one a line, then `ret`.
pub fn batch_kernel(cands: &[(String, Vec<Operand>)], set: &[usize]) -> String {
    const CLASSES: [Class; 6] = [
        Class::B16,
        Class::B32,
        Class::B64,
        Class::F32,
        Class::F64,
        Class::Pred,
    ];
    let decls: String = CLASSES
        .iter()
        .map(|c| format!("\t.reg {} {}<8>;\n", c.decl(), c.prefix()))
        .collect();
    let mut s = format!("{GEN_HEADER}\n.visible .entry k()\n{{\n{decls}\tmov.u32 %r7, 1;\n");
    for c in CLASSES {
        for k in 1..6 {
            let r = format!("{}{k}", c.prefix());
            let init = match c {
                Class::B16 => format!("mov.b16 {r}, 0x3e0{k};"),
                Class::B32 => format!("mov.b32 {r}, 0x3fc0000{k};"),
                Class::B64 => format!("mov.b64 {r}, 0x3ff800000000000{k};"),
                Class::F32 => format!("mov.f32 {r}, 0f3FC0000{k};"),
                Class::F64 => format!("mov.f64 {r}, 0d3FF800000000000{k};"),
                Class::Pred => format!("setp.ne.u32 {r}, %r7, {};", k % 2),
            };
            s.push_str(&format!("\t{init}\n"));
        }
    }
    s.push_str(CAND_MARK);
    s.push('\n');
    for &i in set {
        let (text, operands) = &cands[i];
        let args: Vec<String> = operands
            .iter()
            .enumerate()
            .map(|(k, o)| match *o {
                Operand::Dst(c) => format!("{}0", c.prefix()),
                Operand::Src(c) | Operand::NonZero(c) => format!("{}{}", c.prefix(), k.min(5)),
                Operand::Imm(n) => (n / 3).to_string(),
                Operand::Masked(_, m) => (m / 3).to_string(),
            })
            .collect();
        s.push_str(&format!("\t{text} {};\n", args.join(", ")));
    }
    s.push_str("\tret;\n}\n");
    s
}

/// Runs a probe kernel on one thread: `Err` with the reason when the
/// interpreter does not complete it.
pub fn run_probe(m: &ptxc::ptx::Module, src: &str) -> Result<(), String> {
    static SPEC: OnceLock<LaunchSpec> = OnceLock::new();
    let spec = SPEC.get_or_init(|| {
        LaunchSpec::from_json_str(
            r#"{"kernel":"k","grid":[1,1,1],"block":[1,1,1],"params":[],"buffers":{}}"#,
            ".",
        )
        .expect("the probe launch spec is valid")
    });
    let limits = RunLimits {
        fuel: 10_000,
        wall: std::time::Duration::from_secs(5),
        ..RunLimits::default()
    };
    let r = ptx_interp::run(m, src, spec, &limits).map_err(|e| e.to_string())?;
    match r.outcome {
        Outcome::Completed => Ok(()),
        other => Err(format!("{other:?}")),
    }
}

fn lowers(src: &str) -> Result<(), String> {
    for a in LOWER_ARCHS {
        let sm = ptxc::targets::lookup_sm(a).expect("a known target");
        if let Err(e) =
            ptxc::lower::lower_source("menu.ptx", src, sm, &ptxc::lower::LowerOptions::default())
        {
            let first = e.lines().next().unwrap_or("").to_string();
            return Err(format!("{a}: {first}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
