//! Atomics and reductions (PTX ISA 9.7.13.5).
//!
//! - global: `ATOMG.E.<op>[.type].STRONG.GPU PT, d, [a.64], b[, c]`
//!   (atomic_hist_max.sm_80 `ATOMG.E.CAS.STRONG.GPU PT, R, [R], R, R`);
//!   `red` and an `atom` whose result is unused: `RED.E.<op>.STRONG.GPU
//!   [a], b` (`REDG` on sm_90, as the vendor prints it); generic ones:
//!   `ATOM.E.<op> PT, RZ, [a], b` (ptxas: no generic `RED`);
//! - shared: `ATOMS.<op> d, [a], b[, c]`; generic: `ATOM.E.<op>`; the
//!   forms `ATOMS` lacks (64-bit add/min/max/and/or/xor, f32/f64 add:
//!   ir/atom_reach.rs `shared_has`) are ptxas's `ATOMS.CAST.SPIN` loop,
//!   atom_generic.rs;
//! - types: u32 none, s32 `.S32`, u64/b64 `.64`, s64 `.S64`, f32 `.F32.FTZ.RN`,
//!   f64 `.F64.RN`; f16x2/bf16x2 (global `add.noftz`) `.F16x2.RN`/`.BF16x2.RN`
//!   and the 16-bit types (a CAS loop): atom16.rs; f16x2/bf16x2 on shared
//!   and generic memory (ptxas's `ATOMS.CAST.SPIN` loops): atom_spin.rs;
//! - generic forms whose hardware `ATOM` does not act on every space
//!   (ir/atom_reach.rs: 64-bit add/min/max/and/or/xor/exch/cas, f32/f64
//!   add): ptxas's guarded `ATOM` and fallbacks, atom_generic.rs;
//! - `.E` only for 64-bit addresses (`.address_size 32`: none).

use crate::ir::atom_reach::{generic_reach, reach_type_mod, shared_has, Reach};
use crate::ir::sass_text::Reg;
use crate::ir::{Op, Operand};
use crate::ptx::ast::{self, AddrBase, Instruction, OperandKind};
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::atom16::Space16;
use super::builder::*;
use super::mem::{access_space, space_of, Space};
use super::regs::{Binding, Val};
use super::Cx;

impl Cx<'_> {
    pub(super) fn atom_addr(&mut self, o: &ast::Operand, wide: bool) -> R<Operand> {
        let OperandKind::Addr(a) = &o.kind else {
            return self.err("expected an address");
        };
        match a.base {
            AddrBase::Name(s) => match self.lookup(s) {
                Some(Binding::Reg { val: Val::D(v), .. }) => Ok(mem(Reg::V(v), wide, a.offset)),
                Some(Binding::Reg { val: Val::R(v), .. }) => Ok(mem(Reg::V(v), false, a.offset)),
                // A `.global` variable's name: its address pair (its low
                // word with `.address_size 32`), as `ld`/`st` address it.
                Some(g @ Binding::Global { .. }) => {
                    let v = self.global_addr(g)?.expect("a global binding");
                    Ok(mem(Reg::V(v), wide, a.offset))
                }
                Some(Binding::Shared { addr }) => Ok(Operand::Mem(crate::ir::sass_text::MemRef {
                    desc: None,
                    base: None,
                    index: None,
                    offset: Some(i64::from(addr) + a.offset),
                })),
                _ => self.err("unsupported atomic address"),
            },
            AddrBase::None => self.err("absolute atomic address"),
        }
    }

    pub fn lower_atom(&mut self, i: &Instruction) -> R {
        let ty = self.ty(i)?;
        let is_red = i.opcode == crate::ptx::isa::Opcode::Red;
        let op = [
            (Mod::Add, "ADD"),
            (Mod::Min, "MIN"),
            (Mod::Max, "MAX"),
            (Mod::Inc, "INC"),
            (Mod::Dec, "DEC"),
            (Mod::And, "AND"),
            (Mod::Or, "OR"),
            (Mod::Xor, "XOR"),
            (Mod::Exch, "EXCH"),
            (Mod::Cas, "CAS"),
        ]
        .iter()
        .find(|(m, _)| i.has(*m))
        .map(|(_, s)| *s)
        .ok_or_else(|| super::LowerError::new(i.span, "atom: unknown operation"))?;
        // A generic atomic on a variable's name acts on the variable in
        // its space (mem.rs `access_space`).
        let ai = usize::from(!is_red);
        let named = access_space(self, space_of(i), &i.operands[ai]);
        let shared = i.has(Mod::Shared) || i.has(Mod::SharedCta) || named == Space::Shared;
        let global = i.has(Mod::Global) || named == Space::Global;
        let sink = is_red || matches!(i.operands[0].kind, OperandKind::Sink);
        if matches!(ty, ScalarType::F16 | ScalarType::Bf16 | ScalarType::B16) {
            let space = if shared {
                Space16::Shared
            } else if global {
                Space16::Global
            } else {
                Space16::Generic
            };
            return self.lower_atom16(i, ty, op, space, sink);
        }
        let tymods: &[&str] = match ty {
            ScalarType::F16x2 | ScalarType::Bf16x2 => {
                let mods = self.atom_x2_mods(op, ty)?;
                // Shared, and generic (reach Global, ir/atom_reach.rs).
                if !global {
                    return self.lower_atom_spin(i, ty, shared, sink);
                }
                mods
            }
            ScalarType::S32 => &["S32"],
            ScalarType::U64 | ScalarType::B64 => &["64"],
            ScalarType::S64 => &["S64"],
            ScalarType::F32 => &["F32", "FTZ", "RN"],
            ScalarType::F64 => &["F64", "RN"],
            _ if ty.bits() == 32 => &[],
            _ => return self.err(format!("atom on {ty} is not lowered")),
        };
        let tymod = reach_type_mod(tymods.iter().copied());
        if shared && !shared_has(op, tymod) {
            return self.lower_atom_shared_loop(i, ty, op, sink);
        }
        let reach = generic_reach(op, tymod);
        if !shared && !global && reach != Reach::All {
            return self.lower_atom_generic(i, ty, (op, tymods), reach, sink);
        }
        let (ai, vi) = if is_red { (0, 1) } else { (1, 2) };
        // `.E` (and `.64` from sm_80) only on 64-bit addresses: ptxas 11.8
        // with `.address_size 32` (sm_80) prints `ATOM.ADD.STRONG.GPU PT, R2,
        // [UR4+-0x8], R2` and `ATOMG.ADD.STRONG.GPU ...`, no `.E`.
        let e = !shared && self.atom_addr_is64(&i.operands[ai]);
        let addr = self.atom_addr(&i.operands[ai], e && self.sm.sm >= 80)?;
        let val = |cx: &mut Self, o: &ast::Operand| -> R<Operand> {
            if ty.bits() == 64 {
                Ok(r(cx.src64_pair(o, ty)?))
            } else {
                cx.src32r(o, ty)
            }
        };
        let b = val(self, &i.operands[vi])?;
        let c = if op == "CAS" {
            Some(val(self, &i.operands[vi + 1])?)
        } else {
            None
        };
        if shared {
            let d = if sink { rz() } else { r(self.atom_dst(i, ty)?) };
            let mut mods = vec![op];
            mods.extend(tymods);
            let mut ops = vec![d, addr, b];
            ops.extend(c);
            return self.b.emit(Op::ATOMS, &mods, ops);
        }
        let mut mods = if e { vec!["E", op] } else { vec![op] };
        mods.extend(tymods);
        mods.extend(["STRONG", "GPU"]);
        // `RED` on global memory only: for a generic address whose old
        // value is unused ptxas 11.8 writes `ATOM.E.INC.STRONG.GPU PT, RZ,
        // [R2.64+0x8], R5` (sm_70/80/90; `red.global.inc`: `RED.E.INC`,
        // `REDG.E.INC` on sm_90).
        if sink && op != "CAS" && op != "EXCH" && global {
            let rop = if self.sm.sm >= 90 { Op::REDG } else { Op::RED };
            return self.b.emit(rop, &mods, [addr, b]);
        }
        let d = if sink { rz() } else { r(self.atom_dst(i, ty)?) };
        let opc = if global { Op::ATOMG } else { Op::ATOM };
        let mut ops = vec![pt(), d, addr, b];
        ops.extend(c);
        self.b.emit(opc, &mods, ops)
    }

    /// Whether the atomic's address operand is a 64-bit register.
    fn atom_addr_is64(&self, o: &ast::Operand) -> bool {
        let OperandKind::Addr(a) = &o.kind else {
            return false;
        };
        match a.base {
            AddrBase::Name(s) => match self.lookup(s) {
                Some(Binding::Reg { val: Val::D(_), .. }) => true,
                Some(Binding::Global { .. }) => !self.addr32(),
                _ => false,
            },
            AddrBase::None => false,
        }
    }

    fn atom_dst(&self, i: &Instruction, ty: ScalarType) -> R<u32> {
        if ty.bits() == 64 {
            self.dst64(&i.operands[0])
        } else {
            self.dst32(&i.operands[0])
        }
    }
}
