//! Loads, stores, address conversion and `mov` (PTX ISA 9.7.9).
//!
//! | PTX | SASS |
//! |---|---|
//! | `ld.param` (kernel) | `MOV d, c[0x0][param_base+off]`; narrow: `LDC.U8/S8/U16/S16` |
//! | `ld/st.param` (`.func`, call arguments) | `MOV` of the parameter's word registers (call.rs) |
//! | `ld/st.global` | `LDG.E[.width][.CONSTANT]` / `STG.E[.width]`, `[%r2.64+off]` on sm_80+ (`.SYS`, `[%r2]` on sm_70/75: saxpy_div.sm_70 `LDG.E.CONSTANT.SYS R0, [R8]`) |
//! | `ld.global.nc` | `LDG.E.CONSTANT` |
//! | `ld/st.shared` | `LDS`/`STS` `[%r+off]`, variables at their CTA address |
//! | `ld/st.local` | `LDL`/`STL` `[R1+off]` for frame variables, `[%r+off]` otherwise |
//! | `ld.const` | `LDC c[0x3][%r+off]`; 16 bytes (`.v4.b32`, `.v2.b64`): two `LDC.64` at `+0` and `+8` (ptxas 11.8) |
//! | generic `ld/st` | `LD.E`/`ST.E` on the 64-bit address (double_noinline.sm_80 `LD.E.64 R6, [R6.64]`) |
//!
//! Widths: `.U8/.S8/.U16/.S16`, none for 32 bits, `.64`, `.128`; a vector
//! access is one access of the vector's total width into an aligned
//! register group, then moves to the element registers (narrow elements are
//! packed/unpacked with shifts). `cvta.to.global`/`cvta.global` are copies;
//! shared/local conversions add or subtract the window base (mod.rs).

use crate::ir::sass_text::{ConstRef, MemBase, MemRef, Reg};
use crate::ir::{Op, Operand};
use crate::ptx::ast::{self, AddrBase, Instruction, OperandKind};
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;
use crate::targets::abi::{LOCAL_WINDOW, SHARED_WINDOW};

use super::builder::*;
use super::regs::{Binding, Val};
use super::Cx;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Space {
    Param,
    Global,
    Shared,
    Local,
    Const,
    Generic,
}

pub(super) fn space_of(i: &Instruction) -> Space {
    for m in i.mods.iter() {
        match m {
            Mod::Param | Mod::ParamEntry | Mod::ParamFunc => return Space::Param,
            Mod::Global => return Space::Global,
            Mod::Shared | Mod::SharedCta | Mod::SharedCluster => return Space::Shared,
            Mod::Local => return Space::Local,
            Mod::Const => return Space::Const,
            _ => {}
        }
    }
    Space::Generic
}

/// Where an access goes.
enum Place {
    /// Constant bank 0 at this byte offset (kernel parameters).
    KParam(u32),
    /// Parameter word registers: first register, word count, byte offset.
    Words(u32, u32, u32),
    Mem(Operand),
    /// A global/generic access through a 32-bit address (`.address_size
    /// 32`, or a 32-bit register in a 64-bit module): no `.E`.
    Mem32(Operand),
    Const(Operand),
}

fn width_mod(bytes: u32, signed: bool) -> Option<&'static str> {
    match (bytes, signed) {
        (1, false) => Some("U8"),
        (1, true) => Some("S8"),
        (2, false) => Some("U16"),
        (2, true) => Some("S16"),
        (8, _) => Some("64"),
        (16, _) => Some("128"),
        _ => None,
    }
}

impl Cx<'_> {
    fn place(&mut self, space: Space, o: &ast::Operand) -> R<Place> {
        let OperandKind::Addr(a) = &o.kind else {
            return self.err("expected an address");
        };
        let off = a.offset;
        let base = match a.base {
            AddrBase::Name(s) => s,
            AddrBase::None => {
                return Ok(Place::Mem(Operand::Mem(MemRef {
                    desc: None,
                    base: None,
                    index: None,
                    offset: Some(off),
                })))
            }
        };
        let binding = self.lookup(base);
        match binding {
            Some(Binding::KernelParam { offset, .. }) => {
                Ok(Place::KParam(self.cb.param_base + offset + off as u32))
            }
            Some(Binding::ParamWords { first, words }) => {
                Ok(Place::Words(first, words, off as u32))
            }
            Some(Binding::Local { offset }) => {
                Ok(Place::Mem(mem(Reg::R(1), false, i64::from(offset) + off)))
            }
            Some(Binding::Shared { addr }) => Ok(Place::Mem(Operand::Mem(MemRef {
                desc: None,
                base: None,
                index: None,
                offset: Some(i64::from(addr) + off),
            }))),
            Some(Binding::Const { offset }) => Ok(Place::Const(cbank(3, offset + off as u32))),
            Some(g @ Binding::Global { .. }) => {
                let Some(v) = self.global_addr(g)? else {
                    unreachable!()
                };
                if self.addr32() {
                    // 32-bit modules address with the low word (every
                    // launch address fits in 32 bits there: the oracle's
                    // launch::layout).
                    self.check_32bit_target()?;
                    return Ok(Place::Mem32(mem(Reg::V(v), false, off)));
                }
                Ok(Place::Mem(mem(Reg::V(v), self.sm.sm >= 80, off)))
            }
            Some(Binding::Reg { val, .. }) => {
                let (lo, wide_ok) = match val {
                    Val::R(v) => (v, false),
                    Val::D(v) => (v, true),
                    _ => return self.err("address register of a bad class"),
                };
                match space {
                    // A 32-bit address register: ptxas 11.8 accesses
                    // through the 32-bit address (`LDG R0, [UR4]`, no
                    // `.E`), in a 64-bit module too (with the warning
                    // "Program uses 32-bit address ... conflicting with
                    // .address_size 64"); the interpreter's address is
                    // the register's value either way.
                    // (sm_90 too: ptxas refuses only the 32-bit ABI.)
                    Space::Global | Space::Generic if !wide_ok => {
                        if self.addr32() {
                            self.check_32bit_target()?;
                        }
                        Ok(Place::Mem32(mem(Reg::V(lo), false, off)))
                    }
                    Space::Global | Space::Generic => {
                        if self.addr32() {
                            return self.err(
                                "a 64-bit address register in a module with .address_size 32",
                            );
                        }
                        Ok(Place::Mem(mem(Reg::V(lo), self.sm.sm >= 80, off)))
                    }
                    Space::Shared | Space::Local => Ok(Place::Mem(mem(Reg::V(lo), false, off))),
                    Space::Const => Ok(Place::Const(Operand::Const(ConstRef {
                        bank: 3,
                        reg: Some(Reg::V(lo)),
                        offset: Some(off),
                        neg: false,
                        abs: false,
                        not: false,
                    }))),
                    Space::Param => self.err("a register address in the parameter space"),
                }
            }
            Some(Binding::VecReg { .. }) => self.err(format!(
                "vector register `{}` as an address (PTX addresses are scalar registers)",
                self.name(base)
            )),
            Some(Binding::ResourceRef { .. }) => self.err(format!(
                "`{}` is a .texref/.surfref: not a memory address",
                self.name(base)
            )),
            None => self.err(format!("unknown address `{}`", self.name(base))),
        }
    }

    /// The 64-bit address (a register pair) of a module `.global`
    /// variable, from its bank-4 slot; `None` for other bindings.
    pub(super) fn global_addr(&mut self, g: Binding) -> R<Option<u32>> {
        let Binding::Global { slot } = g else {
            return Ok(None);
        };
        let v = self.b.vpair();
        self.b.emit(Op::LDC, &["64"], [r(v), cbank(4, slot)])?;
        Ok(Some(v))
    }

    /// Whether the module has 32-bit addresses (`.address_size 32`).
    pub(super) fn addr32(&self) -> bool {
        self.m.address_bits() == 32
    }

    /// 32-bit addresses need a target that has them: ptxas 11.8 "32-Bit
    /// ABI (--machine 32 or 32-Bit addressing) is not supported on sm_90
    /// or higher architectures" (the SM table's `allows_32bit_addresses`).
    fn check_32bit_target(&self) -> R {
        if self.sm.allows_32bit_addresses {
            Ok(())
        } else {
            self.err(format!(
                "32-bit addressing is not supported on {} or higher architectures (ptxas 11.8)",
                self.sm.name
            ))
        }
    }

    /// The load/store opcode and base modifiers of an access to `place`.
    /// With a 32-bit address global and generic accesses drop `.E` (the
    /// 64-bit address flag): ptxas 11.8 `-m32` on `.address_size 32`
    /// (sm_70: `LDG.SYS R4, [R0]`, `ST.SYS [R5], R4`, `STG.SYS [R3], R6`;
    /// sm_80: `LDG R2, [UR7]`, `ST [UR4], R2`, `LD R3, [UR7+0x4]`).
    fn mem_op(&self, space: Space, place: &Place, load: bool, nc: bool) -> (Op, Vec<&'static str>) {
        let (op, mut mods) = self.mem_op64(space, load, nc);
        if matches!(place, Place::Mem32(_)) {
            mods.retain(|m| *m != "E");
        }
        (op, mods)
    }

    fn mem_op64(&self, space: Space, load: bool, nc: bool) -> (Op, Vec<&'static str>) {
        let old = self.sm.sm < 80;
        match (space, load) {
            (Space::Global, true) => {
                let mut m = vec!["E"];
                if nc {
                    m.push("CONSTANT");
                }
                if old {
                    m.push("SYS");
                }
                (Op::LDG, m)
            }
            (Space::Global, false) => (Op::STG, if old { vec!["E", "SYS"] } else { vec!["E"] }),
            (Space::Generic, true) => (Op::LD, if old { vec!["E", "SYS"] } else { vec!["E"] }),
            (Space::Generic, false) => (Op::ST, if old { vec!["E", "SYS"] } else { vec!["E"] }),
            (Space::Shared, true) => (Op::LDS, vec![]),
            (Space::Shared, false) => (Op::STS, vec![]),
            (Space::Local, true) => (Op::LDL, vec![]),
            (Space::Local, false) => (Op::STL, vec![]),
            (Space::Const, _) | (Space::Param, _) => (Op::LDC, vec![]),
        }
    }

    /// Inserts the width modifier where the vendor prints it: after `E`
    /// (`LDG.E.U16.CONSTANT.SYS`, `STG.E.64.SYS`), else first.
    fn with_width(mut mods: Vec<&'static str>, w: Option<&'static str>) -> Vec<&'static str> {
        if let Some(w) = w {
            let at = usize::from(mods.first() == Some(&"E"));
            mods.insert(at, w);
        }
        mods
    }

    /// The destination registers of a load: element registers and type.
    fn elems(&self, o: &ast::Operand) -> R<Vec<Option<(Val, ScalarType)>>> {
        self.vector_items(o)
            .iter()
            .map(|e| match e.kind {
                OperandKind::Sink => Ok(None),
                _ => self.dst_val(e).map(Some),
            })
            .collect()
    }

    pub fn lower_ld(&mut self, i: &Instruction) -> R {
        let ty = self.ty(i)?;
        let space = access_space(self, space_of(i), &i.operands[1]);
        let nc = i.has(Mod::Nc) || i.opcode == crate::ptx::isa::Opcode::Ldu;
        let place = self.place(space, &i.operands[1])?;
        let dsts = self.elems(&i.operands[0])?;
        let n = dsts.len() as u32;
        let esize = ty.bytes();
        let total = esize * n;
        let signed = ty.is_signed();
        // Load the bytes into registers.
        let words = total.div_ceil(4);
        // A whole-register load goes straight to its destination.
        let direct = match dsts.as_slice() {
            [Some((Val::R(v), t))] if esize == 4 && t.bits() == 32 => Some(*v),
            [Some((Val::D(v), _))] if esize == 8 => Some(*v),
            _ => None,
        };
        let base = match direct {
            Some(v) => v,
            None => self.b.valigned(words.next_power_of_two().max(1)),
        };
        match &place {
            Place::KParam(off) => {
                if total >= 4 {
                    for w in 0..words {
                        self.b
                            .emit(Op::MOV, &[], [r(base + w), cbank(0, off + 4 * w)])?;
                    }
                } else {
                    let wm = width_mod(total, signed && n == 1).expect("narrow");
                    self.b.emit(Op::LDC, &[wm], [r(base), cbank(0, *off)])?;
                }
            }
            Place::Words(first, count, off) => {
                if off % 4 != 0 && total >= 4 {
                    return self.err("unaligned parameter access");
                }
                let fw = off / 4;
                for w in 0..words {
                    if fw + w >= *count {
                        return self.err("parameter access out of range");
                    }
                    self.mov(base + w, r(first + fw + w))?;
                }
                if total < 4 {
                    let sh = (off % 4) * 8;
                    if sh > 0 {
                        self.b.emit(
                            Op::SHF,
                            &["R", "U32", "HI"],
                            [r(base), rz(), imm(i64::from(sh)), r(base)],
                        )?;
                    }
                    self.narrow(base, total * 8)?;
                    if signed && n == 1 {
                        self.b.emit(
                            Op::SGXT,
                            &[],
                            [r(base), r(base), imm(i64::from(total * 8))],
                        )?;
                    }
                }
            }
            // LDC has no 128-bit form: ptxas 11.8 loads a 16-byte
            // `ld.const.v4.b32`/`.v2.b64` as two `LDC.64` at `+0` and `+8`.
            Place::Const(Operand::Const(c)) if total == 16 => {
                for half in 0..2u32 {
                    let mut h = c.clone();
                    h.offset = Some(c.offset.unwrap_or(0) + i64::from(8 * half));
                    self.b
                        .emit(Op::LDC, &["64"], [r(base + 2 * half), Operand::Const(h)])?;
                }
            }
            Place::Const(c) => {
                let wm = width_mod(total, signed && n == 1);
                let mods: Vec<&str> = wm.into_iter().collect();
                self.b.emit(Op::LDC, &mods, [r(base), c.clone()])?;
            }
            Place::Mem(m) | Place::Mem32(m) => {
                let (op, mods) = self.mem_op(space, &place, true, nc);
                let wm = width_mod(total, signed && n == 1);
                let mods = Self::with_width(mods, wm);
                self.b.emit(op, &mods, [r(base), m.clone()])?;
            }
        }
        if direct.is_some() {
            return Ok(());
        }
        // Distribute to the element registers.
        for (k, d) in dsts.iter().enumerate() {
            let Some((val, rty)) = d else { continue };
            let k = k as u32;
            let byte = k * esize;
            match *val {
                Val::P(_) => return self.err("ld into a predicate"),
                Val::D(v) if esize == 8 => {
                    self.mov(v, r(base + byte / 4))?;
                    self.mov(v + 1, r(base + byte / 4 + 1))?;
                }
                Val::D(v) => {
                    // A narrow load into a 64-bit register: extended.
                    self.mov(v, r(base + byte / 4))?;
                    if signed {
                        self.b.emit(
                            Op::SHF,
                            &["R", "S32", "HI"],
                            [r(v + 1), rz(), imm(31), r(v)],
                        )?;
                    } else {
                        self.mov(v + 1, rz())?;
                    }
                }
                Val::R(v) | Val::Q(v) => {
                    let src = base + byte / 4;
                    let sh = (byte % 4) * 8;
                    if n > 1 && esize < 4 {
                        self.b.emit(
                            Op::SHF,
                            &["R", "U32", "HI"],
                            [r(v), rz(), imm(i64::from(sh)), r(src)],
                        )?;
                        self.narrow(v, esize * 8)?;
                        if signed {
                            self.b
                                .emit(Op::SGXT, &[], [r(v), r(v), imm(i64::from(esize * 8))])?;
                        }
                    } else {
                        self.mov(v, r(src))?;
                    }
                    if rty.bits() < 32 {
                        self.narrow(v, rty.bits())?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The words of a store's source operands, packed.
    fn store_words(&mut self, o: &ast::Operand, ty: ScalarType) -> R<(Vec<Operand>, u32)> {
        let items = self.vector_items(o);
        let items: Vec<&ast::Operand> = items.iter().collect();
        let esize = ty.bytes();
        let total = esize * items.len() as u32;
        let mut words: Vec<Operand> = Vec::new();
        if esize >= 4 {
            for it in items {
                if esize == 8 {
                    let (lo, hi) = self.src64(it, ty)?;
                    words.push(lo);
                    words.push(hi);
                } else {
                    words.push(self.src32(it, ty.bit_type())?);
                }
            }
        } else {
            let nw = total.div_ceil(4);
            for w in 0..nw {
                let acc = self.b.vreg();
                self.mov(acc, rz())?;
                for (k, it) in items.iter().enumerate() {
                    let byte = k as u32 * esize;
                    if byte / 4 != w {
                        continue;
                    }
                    let x = self.src32r(it, ty.bit_type())?;
                    let t = self.b.vreg();
                    self.b.emit(
                        Op::LOP3,
                        &["LUT"],
                        [
                            r(t),
                            x,
                            imm32(((1u64 << (esize * 8)) - 1) as u32),
                            rz(),
                            imm(0xc0),
                            npt(),
                        ],
                    )?;
                    self.b.emit(
                        Op::SHF,
                        &["L", "U32"],
                        [r(t), r(t), imm(i64::from((byte % 4) * 8)), rz()],
                    )?;
                    self.b.emit(
                        Op::LOP3,
                        &["LUT"],
                        [r(acc), r(acc), r(t), rz(), imm(0xfc), npt()],
                    )?;
                }
                words.push(r(acc));
            }
        }
        Ok((words, total))
    }

    pub fn lower_st(&mut self, i: &Instruction) -> R {
        let ty = self.ty(i)?;
        let space = access_space(self, space_of(i), &i.operands[0]);
        let place = self.place(space, &i.operands[0])?;
        let (words, total) = self.store_words(&i.operands[1], ty)?;
        match place {
            Place::Words(first, count, off) => {
                if total < 4 {
                    // A sub-word store: insert the bits into the word.
                    let k = off / 4;
                    if k >= count {
                        return self.err("parameter store out of range");
                    }
                    let sh = i64::from((off % 4) * 8);
                    let m = (((1u64 << (total * 8)) - 1) << sh) as u32;
                    let x = self.in_reg(words[0].clone())?;
                    let t = self.b.vreg();
                    self.b
                        .emit(Op::SHF, &["L", "U32"], [r(t), x, imm(sh), rz()])?;
                    // (word & ~m) | (t & m): LOP3 0xb8 with (word, m, t).
                    return self.b.emit(
                        Op::LOP3,
                        &["LUT"],
                        [r(first + k), r(first + k), imm32(m), r(t), imm(0xb8), npt()],
                    );
                }
                if off % 4 != 0 {
                    return self.err("unaligned parameter store");
                }
                for (w, x) in words.into_iter().enumerate() {
                    let k = off / 4 + w as u32;
                    if k >= count {
                        return self.err("parameter store out of range");
                    }
                    self.mov(first + k, x)?;
                }
                Ok(())
            }
            Place::KParam(_) | Place::Const(_) => self.err("store to a read-only space"),
            Place::Mem(ref m) | Place::Mem32(ref m) => {
                let (op, mods) = self.mem_op(space, &place, false, false);
                let m = m.clone();
                let mods = Self::with_width(mods, width_mod(total, false));
                let src = if words.len() == 1 {
                    self.in_reg(words[0].clone())?
                } else {
                    let n = words.len() as u32;
                    let g = self.b.valigned(n.next_power_of_two());
                    for (w, x) in words.into_iter().enumerate() {
                        self.mov(g + w as u32, x)?;
                    }
                    r(g)
                };
                let src = if src == imm(0) { rz() } else { src };
                self.b.emit(op, &mods, [m, src])
            }
        }
    }

    pub fn lower_cvta(&mut self, i: &Instruction) -> R {
        let to = i.has(Mod::To);
        let space = space_of(i);
        let ty = self.ty(i)?;
        let wide = ty.bits() == 64;
        let window = match space {
            Space::Global => None,
            Space::Shared => Some(SHARED_WINDOW),
            // Parameter addresses are those of their frame copies (mod.rs).
            Space::Local | Space::Param => Some(LOCAL_WINDOW),
            Space::Const => return self.lower_cvta_const(i, to, wide),
            Space::Generic => return self.err("cvta without a state space"),
        };
        // The window holds shared addresses as they are, reserved base
        // included (mod.rs "Memory"): generic = window + address.
        let (lo, hi) = self.src64(&i.operands[1], ty)?;
        if wide {
            let d = self.dst64(&i.operands[0])?;
            match (window, to) {
                (None, _) => {
                    self.mov(d, lo)?;
                    self.mov(d + 1, hi)
                }
                (Some(w), false) => self.add64(d, (lo, hi), (cbank(0, w), cbank(0, w + 4)), false),
                (Some(w), true) => {
                    let lo = self.in_reg(lo)?;
                    self.b
                        .emit(Op::IADD3, &[], [r(d), lo, neg(cbank(0, w)), rz()])?;
                    self.mov(d + 1, rz())
                }
            }
        } else {
            let d = self.dst32(&i.operands[0])?;
            match (window, to) {
                (None, _) => self.mov(d, lo),
                (Some(w), false) => {
                    let lo = self.in_reg(lo)?;
                    self.b.emit(Op::IADD3, &[], [r(d), lo, cbank(0, w), rz()])
                }
                (Some(w), true) => {
                    let lo = self.in_reg(lo)?;
                    self.b
                        .emit(Op::IADD3, &[], [r(d), lo, neg(cbank(0, w)), rz()])
                }
            }
        }
    }

    /// `cvta.const`: constant bank 3 is also a read-only module global
    /// (mod.rs, `ModuleLayout::const_global`), the generic address of
    /// offset `a` is that copy's address plus `a` (as on the hardware,
    /// where the constant bank lives in global memory).
    fn lower_cvta_const(&mut self, i: &Instruction, to: bool, wide: bool) -> R {
        let Some(slot) = self.layout_const_global() else {
            return self.err("internal: cvta.const without a constant-bank copy");
        };
        let base = self.b.vpair();
        self.b.emit(Op::LDC, &["64"], [r(base), cbank(4, slot)])?;
        let ty = if wide {
            ScalarType::U64
        } else {
            ScalarType::U32
        };
        let (lo, hi) = self.src64(&i.operands[1], ty)?;
        if wide {
            let d = self.dst64(&i.operands[0])?;
            self.add64(d, (lo, hi), (r(base), r(base + 1)), to)
        } else {
            let d = self.dst32(&i.operands[0])?;
            let lo = self.in_reg(lo)?;
            let b = if to { neg(r(base)) } else { r(base) };
            self.b.emit(Op::IADD3, &[], [r(d), lo, b, rz()])
        }
    }

    pub fn lower_mov(&mut self, i: &Instruction) -> R {
        let ty = self.ty(i)?;
        if ty.bits() > 64 {
            // `.b128` (PTX ISA 8.3; ptxas 11.8 has none to measure), and
            // the PTX interpreter faults on it too.
            return self.err("128-bit mov is not lowered");
        }
        let (dst, src) = (&i.operands[0], &i.operands[1]);
        if ty == ScalarType::Pred {
            let d = self.dst_pred(dst)?;
            let a = self.src_pred(src)?;
            return self.b.emit(
                Op::PLOP3,
                &["LUT"],
                [p(d), pt(), a, pt(), pt(), imm(0xf0), imm(0)],
            );
        }
        // Unpack: mov.b64 {a, b}, %rd / mov.b32 {h0, h1}, %r.
        if let OperandKind::Vector(parts) = &dst.kind {
            let n = parts.len() as u32;
            let ebits = ty.bits() / n;
            let (lo, hi) = self.src64(src, ty)?;
            for (k, part) in parts.iter().enumerate() {
                if matches!(part.kind, OperandKind::Sink) {
                    continue;
                }
                let (val, _) = self.dst_val(part)?;
                let k = k as u32;
                let bit = k * ebits;
                let word = if bit >= 32 { hi.clone() } else { lo.clone() };
                match val {
                    Val::R(v) if ebits == 32 => self.mov(v, word)?,
                    Val::R(v) => {
                        let word = self.in_reg(word)?;
                        self.b.emit(
                            Op::SHF,
                            &["R", "U32", "HI"],
                            [r(v), rz(), imm(i64::from(bit % 32)), word],
                        )?;
                        self.narrow(v, ebits)?;
                    }
                    _ => return self.err("unsupported unpack destination"),
                }
            }
            return Ok(());
        }
        if let OperandKind::Vector(parts) = &src.kind {
            let n = parts.len() as u32;
            let ebits = ty.bits() / n;
            let ety = ScalarType::int_of(ebits, false).unwrap_or(ScalarType::B32);
            let mut words: Vec<u32> = Vec::new();
            for w in 0..ty.bits().div_ceil(32) {
                let acc = self.b.vreg();
                self.mov(acc, rz())?;
                for (k, part) in parts.iter().enumerate() {
                    let bit = k as u32 * ebits;
                    if bit / 32 != w {
                        continue;
                    }
                    let x = self.src32r(part, ety)?;
                    if ebits == 32 {
                        self.mov(acc, x)?;
                    } else {
                        let t = self.b.vreg();
                        self.b.emit(
                            Op::LOP3,
                            &["LUT"],
                            [
                                r(t),
                                x,
                                imm32(((1u64 << ebits) - 1) as u32),
                                rz(),
                                imm(0xc0),
                                npt(),
                            ],
                        )?;
                        self.b.emit(
                            Op::SHF,
                            &["L", "U32"],
                            [r(t), r(t), imm(i64::from(bit % 32)), rz()],
                        )?;
                        self.b.emit(
                            Op::LOP3,
                            &["LUT"],
                            [r(acc), r(acc), r(t), rz(), imm(0xfc), npt()],
                        )?;
                    }
                }
                words.push(acc);
            }
            let (val, _) = self.dst_val(dst)?;
            for (w, reg) in val.words().into_iter().zip(words) {
                self.mov(w, r(reg))?;
            }
            return Ok(());
        }
        let (val, _) = self.dst_val(dst)?;
        if let (Val::R(v), OperandKind::Special(sr)) = (val, &src.kind) {
            if let Some(name) = super::operand::s2r_name(*sr) {
                return self.b.emit(Op::S2R, &[], [r(v), Operand::Special(name)]);
            }
        }
        match val {
            Val::P(_) => self.err("internal: pred mov"),
            Val::R(v) => {
                let x = self.src32(src, ty.bit_type())?;
                self.mov(v, x)
            }
            Val::D(v) => {
                let (lo, hi) = self.src64(src, ty.bit_type())?;
                self.mov(v, lo)?;
                self.mov(v + 1, hi)
            }
            Val::Q(_) => self.err("128-bit mov is not lowered"),
        }
    }
}

/// A parameter-space access through a register address goes to the
/// parameter's frame copy: local memory (the address came from `mov` of
/// the parameter's name, mod.rs).
/// The space an access to address `o` goes to when the instruction names
/// `space`:
/// - a register address in the parameter space is a frame copy's (local)
///   address (mod.rs);
/// - a generic access through a variable's name is an access to that
///   variable in its own space: ptxas 11.8 (sm_70/80/90) turns `ld.u32
///   %r, [s+8]` of a `.shared` array into `LDS R0, [0x8]`, `atom.add.u64
///   [s+8]` into `ATOMS.CAST.SPIN.64 .., [0x8]`, `atom.add.u32` into
///   `ATOMS.POPC.INC.32`, and the PTX interpreter accesses the variable
///   (its generic address is the variable's window address).
pub(super) fn access_space(cx: &Cx<'_>, space: Space, o: &ast::Operand) -> Space {
    let OperandKind::Addr(a) = &o.kind else {
        return space;
    };
    let AddrBase::Name(s) = a.base else {
        return space;
    };
    match (space, cx.lookup(s)) {
        (Space::Param, Some(Binding::Reg { .. })) => Space::Local,
        (Space::Generic, Some(Binding::Shared { .. })) => Space::Shared,
        (Space::Generic, Some(Binding::Local { .. })) => Space::Local,
        (Space::Generic, Some(Binding::Const { .. })) => Space::Const,
        (Space::Generic, Some(Binding::Global { .. })) => Space::Global,
        _ => space,
    }
}

#[allow(dead_code)]
fn membase(reg: Reg, wide: bool) -> MemBase {
    MemBase {
        reg,
        wide,
        u32: false,
    }
}
