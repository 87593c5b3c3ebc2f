//! The menu emitter (family `menu`): one statement is one register-only
//! form drawn from the menu's writable forms (`menu.rs`) whose types the
//! program has enabled, with its operands from the pool of defined values.
//! A type-group bucket the program can write is drawn first, weighted by
//! its size and by the groups it needs, then a form of the bucket
//! (`allowed_forms`), so that every form is drawn about equally often
//! across programs and `ptxdiff coverage` reaches all of them.
//!
//! Defined by construction, from the form's operand constraints:
//! - a [`Operand::NonZero`] source (integer `div`/`rem` divisors) is
//!   `or.bN t, v, 1` of a pooled value (PTX ISA 9.7.1.8: division by zero
//!   is unspecified);
//! - a [`Operand::Masked`] source (`fns`'s base) is `and.bN t, v, mask`;
//! - every other source is any defined value: the menu's forms are exactly
//!   those whose other operands the ISA defines for all inputs (shift
//!   amounts and bit-field positions clamp, floats take every encoding).
//!
//! 16-bit and predicate sources are usually derived from pooled 32-bit
//! values (`cvt.u16.u32`, `setp`), so their values are computed ones that
//! an optimizer cannot fold.

use super::emit::{Gen, Reg, RC};
use super::features::VType;
use super::menu::{self, Class, Operand};

fn rc_of(c: Class) -> RC {
    match c {
        Class::B16 => RC::B16,
        Class::B32 => RC::B32,
        Class::B64 => RC::B64,
        Class::F32 => RC::F32,
        Class::F64 => RC::F64,
        Class::Pred => RC::Pred,
    }
}

/// Type groups a form may need (bits of a `u8`): a program writes a form
/// only when each group it needs has a type enabled (swarm selection and
/// `types` deny lists reach the menu): f64 values, f32 values, 16-bit
/// registers (`%h`, which the generator otherwise uses for f16 only, and
/// every half type: denying `f16` removes every `%h`), 64-bit integers.
const G_F64: u8 = 1;
const G_F32: u8 = 2;
const G_F16: u8 = 4;
const G_I64: u8 = 8;

fn class_group(c: Class) -> u8 {
    match c {
        Class::F64 => G_F64,
        Class::F32 => G_F32,
        Class::B16 => G_F16,
        Class::B64 => G_I64,
        Class::B32 | Class::Pred => 0,
    }
}

fn type_group(t: &str) -> u8 {
    match t {
        "f64" => G_F64,
        "f32" => G_F32,
        "f16" | "f16x2" | "bf16" | "bf16x2" => G_F16,
        "u64" | "s64" | "b64" => G_I64,
        _ => 0,
    }
}

/// The groups one form needs.
fn form_groups(f: &menu::Form) -> u8 {
    let ops = f.operands.iter().map(|o| match *o {
        Operand::Dst(c) | Operand::Src(c) | Operand::NonZero(c) | Operand::Masked(c, _) => {
            class_group(c)
        }
        Operand::Imm(_) => 0,
    });
    let types = f.key.split('.').map(type_group);
    ops.chain(types).fold(0, |a, b| a | b)
}

/// The groups a bucket's forms need, and the forms (indices into the menu).
type Bucket = (u8, Vec<usize>);

/// The writable forms (indices into the menu) whose groups `enabled`
/// covers, in buckets by the exact groups they need, computed once per
/// combination. The emitter draws a bucket first, then a form in it: a
/// form that needs two rarely enabled groups at once (`cvt.rmi.u16.f64`
/// needs f64 and 16-bit registers) would otherwise share its few programs
/// with the hundreds of forms every program can write, and go unwritten
/// in 10,000 programs.
fn allowed_forms(enabled: u8) -> &'static [Bucket] {
    use std::sync::OnceLock;
    static BY_GROUPS: [OnceLock<Vec<Bucket>>; 16] = [const { OnceLock::new() }; 16];
    BY_GROUPS[usize::from(enabled & 15)].get_or_init(|| {
        let m = menu::menu();
        let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); 16];
        for &i in menu::writable_indices() {
            let g = form_groups(&m.forms[i]);
            if g & !enabled == 0 {
                buckets[usize::from(g)].push(i);
            }
        }
        (0u8..)
            .zip(buckets)
            .filter(|(_, b)| !b.is_empty())
            .collect()
    })
}

impl Gen<'_, '_, '_> {
    /// The type groups this program's enabled types cover.
    fn type_groups(&self) -> u8 {
        let has = |t: VType| self.fs.has_type(t);
        let mut g = 0;
        if has(VType::F64) {
            g |= G_F64;
        }
        if has(VType::F32) {
            g |= G_F32;
        }
        if has(VType::F16) {
            g |= G_F16;
        }
        if has(VType::U64) || has(VType::S64) {
            g |= G_I64;
        }
        g
    }

    /// One statement: a drawn menu form.
    pub fn menu_stmt(&mut self) {
        // Carry chains are two to four instructions, not one form
        // (`carry.rs`).
        if self.src.chance(0.04) {
            return self.carry_chain_stmt();
        }
        let buckets = allowed_forms(self.type_groups());
        if buckets.is_empty() {
            return;
        }
        // A bucket with weight its size times three per type group it needs
        // (each group is enabled in a third to a half of the programs,
        // measured by `ptxdiff coverage`), then a form
        // of it: about uniform over all forms across programs.
        let weights: Vec<u32> = buckets
            .iter()
            .map(|(g, b)| b.len() as u32 * 3u32.pow(g.count_ones()))
            .collect();
        let w = &buckets[self.src.weighted(&weights).expect("non-empty buckets")].1;
        let form = w[self.src.below(w.len() as u32) as usize];
        let form = &menu::menu().forms[form];
        let mut args = Vec::with_capacity(form.operands.len());
        let mut dst = None;
        for o in &form.operands {
            match *o {
                Operand::Dst(_) => args.push(String::new()),
                Operand::Src(c) => {
                    let r = self.menu_src(rc_of(c));
                    args.push(r.to_string());
                }
                Operand::NonZero(c) => {
                    let v = self.menu_src(rc_of(c));
                    let g = self.fresh(rc_of(c));
                    self.ins(format!("or.{} {g}, {v}, 1", c.bits_suffix()));
                    args.push(g.to_string());
                }
                Operand::Imm(n) => args.push(self.src.below(n).to_string()),
                Operand::Masked(c, m) => {
                    let v = self.menu_src(rc_of(c));
                    let g = self.fresh(rc_of(c));
                    self.ins(format!("and.{} {g}, {v}, {m}", c.bits_suffix()));
                    args.push(g.to_string());
                }
            }
        }
        // The destination last, so that an update may overwrite a source.
        for (k, o) in form.operands.iter().enumerate() {
            if let Operand::Dst(c) = *o {
                let d = self.dest(rc_of(c));
                args[k] = d.0.to_string();
                dst = Some(d);
            }
        }
        let text = format!("{} {}", form.key, args.join(", "));
        match dst {
            Some(d) => self.ins_def(d, text),
            None => self.ins(text),
        }
    }

    /// A defined register of the class for a menu source.
    fn menu_src(&mut self, rc: RC) -> Reg {
        match rc {
            RC::B16 if !self.has_value(RC::B16) || self.src.chance(0.5) => {
                let v = self.reg_of(VType::U32);
                let h = self.fresh(RC::B16);
                self.ins(format!("cvt.u16.u32 {h}, {v}"));
                self.define(h);
                h
            }
            RC::Pred if !self.has_value(RC::Pred) || self.src.chance(0.5) => {
                let a = self.reg_of(VType::U32);
                let b = self.reg_of(VType::U32);
                let p = self.fresh(RC::Pred);
                let cmp = self.src.pick(&["lt.u32", "ge.s32", "ne.b32", "le.u32"]);
                self.ins(format!("setp.{cmp} {p}, {a}, {b}"));
                self.define(p);
                p
            }
            RC::B16 | RC::Pred => self.pick_reg(rc).expect("checked above"),
            RC::B32 => self.reg_of(VType::U32),
            RC::B64 => self.reg_of(VType::U64),
            RC::F32 => self.reg_of(VType::F32),
            RC::F64 => self.reg_of(VType::F64),
        }
    }
}
