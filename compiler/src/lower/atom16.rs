//! 16-bit and packed-half atomics: `atom`/`red` `.add.noftz.f16`,
//! `.add.noftz.bf16`, `.cas.b16` (global, shared, generic)
//! through a 32-bit CAS loop, and `.add.noftz.f16x2`/`.bf16x2` on global
//! memory with the native packed opcodes.
//!
//! ptxas 11.8's loop (measured with `ptxas -arch=sm_XX -O3` on sm_70 ..
//! sm_90; the same instructions in every space, with the space's load and
//! CAS: `LDG.E`/`ATOMG.E.CAS.STRONG.GPU`, `LDS`/`ATOMS.CAS`,
//! `LD.E`/`ATOM.E.CAS.STRONG.GPU`):
//!
//! ```text
//! LOP3.LUT w, a, 0xfffffffd, RZ, 0xc0, !PT   // the aligned word (high word kept)
//! LOP3.LUT o, a, 0x2, RZ, 0xc0, !PT          // the half's byte offset
//! ISETP.EQ.U32.AND P0, PT, o, RZ, PT
//! IMAD.SHL.U32 sh, o, 0x8, RZ
//! SEL s, 0x3254, 0x7610 (add) / 0x5410 (cas), P0
//! old = load [w]
//! loop: add: n = HADD2{.BF16_V2} old, b.H0_H0 ; n = PRMT old, s, n
//!       cas: n = PRMT old, s, c ; e = PRMT old, s, b ; k = PRMT e, s, RZ
//!       t = CAS [w], (add: old | cas: e), n
//!       add: P0 = t != old   cas: P0 = PRMT(t, s, RZ) != k
//!       old = t ; @P0 BRA loop
//! d = SHF.R.U32.HI RZ, sh, t
//! ```
//!
//! PRMT selectors (bytes 0..3 of `old`, 4..7 of the third operand):
//! `0x3254` puts bytes 4,5 in the low half, `0x7610` bytes 6,7 in the high
//! half (the sum of the high lanes), `0x5410` bytes 4,5 in the high half.
//! The cas loop retries only while the OTHER half changed under it (a
//! mismatch of the target half ends it with the current value).
//! The result is masked to 16 bits (register convention). `exch.b16`
//! never reaches the lowering: the front end refuses it, as ptxas 11.8
//! does ("Arguments mismatch for instruction 'atom'").
//! `red` and a sunk result run the same loop.
//!
//! Packed: `ATOMG.E.ADD.F16x2.RN.STRONG.GPU PT, d, [a], b` (every target),
//! `.BF16x2` (sm_90; ptxas: "Instruction 'atom.add.bf16x2.global' requires
//! .target sm_90 or higher"), `RED`/`REDG` for `red`. Shared and generic
//! packed adds: atom_spin.rs (the same type bounds, `atom_x2_mods`).
//! `atom.add.noftz.bf16` needs sm_90 as well (ptxas: "Instruction
//! 'atom.add.bf16.global' requires .target sm_90 or higher"; the same bound
//! is applied to shared and generic, UNCONFIRMED there).

use crate::ir::sass_text::Reg;
use crate::ir::Op;
use crate::ptx::ast::{self, AddrBase, Instruction, OperandKind};
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::regs::{Binding, Val};
use super::Cx;

/// Where a 16-bit atomic's word lives.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Space16 {
    Global,
    Shared,
    Generic,
}

impl Cx<'_> {
    /// The full address of an atomic operand: (low word, high word of a
    /// 64-bit address).
    pub(super) fn atom16_addr(&mut self, o: &ast::Operand) -> R<(u32, Option<u32>)> {
        let OperandKind::Addr(a) = &o.kind else {
            return self.err("expected an address");
        };
        let AddrBase::Name(s) = a.base else {
            return self.err("absolute atomic address");
        };
        let off = a.offset;
        let binding = match self.lookup(s) {
            Some(g @ Binding::Global { .. }) if !self.addr32() => {
                let v = self.global_addr(g)?.expect("a global binding");
                Some(Binding::Reg {
                    val: Val::D(v),
                    ty: ScalarType::U64,
                })
            }
            b => b,
        };
        match binding {
            Some(Binding::Reg { val: Val::D(v), .. }) => {
                if off == 0 {
                    return Ok((v, Some(v + 1)));
                }
                let t = self.b.vpair();
                let k = (
                    imm(i64::from(off as u32 as i32)),
                    imm(i64::from((off >> 32) as u32 as i32)),
                );
                self.add64(t, (r(v), r(v + 1)), k, false)?;
                Ok((t, Some(t + 1)))
            }
            Some(Binding::Reg { val: Val::R(v), .. }) => {
                if off == 0 {
                    return Ok((v, None));
                }
                let t = self.b.vreg();
                self.b.emit(
                    Op::IADD3,
                    &[],
                    [r(t), r(v), imm(i64::from(off as u32 as i32)), rz()],
                )?;
                Ok((t, None))
            }
            Some(Binding::Shared { addr }) => {
                let t = self.b.vreg();
                self.mov(t, imm(i64::from((i64::from(addr) + off) as u32 as i32)))?;
                Ok((t, None))
            }
            _ => self.err("unsupported atomic address"),
        }
    }

    /// `atom`/`red` on `.f16`/`.bf16`/`.b16` (op `ADD` or `CAS`).
    pub(super) fn lower_atom16(
        &mut self,
        i: &Instruction,
        ty: ScalarType,
        op: &str,
        space: Space16,
        sink: bool,
    ) -> R {
        let is_red = i.opcode == crate::ptx::isa::Opcode::Red;
        let bf16 = ty == ScalarType::Bf16;
        match (op, ty) {
            ("ADD", ScalarType::F16) | ("CAS", ScalarType::B16) => {}
            ("ADD", ScalarType::Bf16) if self.sm.sm >= 90 => {}
            ("ADD", ScalarType::Bf16) => {
                return self.err(format!(
                    "atom.add.bf16 on {} requires sm_90 or higher (ptxas 11.8: \"Instruction 'atom.add.bf16.global' requires .target sm_90 or higher\")",
                    self.sm.name
                ))
            }
            _ => {
                return self.err(format!(
                    "atom.{}{ty} is not lowered (16-bit atomics: add.noftz.f16/bf16, cas.b16)",
                    op.to_lowercase()
                ))
            }
        }
        let (ai, vi) = if is_red { (0, 1) } else { (1, 2) };
        let (alo, ahi) = self.atom16_addr(&i.operands[ai])?;
        let b = self.src32r(&i.operands[vi], ty)?;
        let c = if op == "CAS" {
            Some(self.src32r(&i.operands[vi + 1], ty)?)
        } else {
            None
        };
        // The aligned word, the half's offset, shift and PRMT selector.
        let w = match ahi {
            Some(hi) => {
                let w = self.b.vpair();
                self.mov(w + 1, r(hi))?;
                w
            }
            None => self.b.vreg(),
        };
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(w), r(alo), imm32(0xffff_fffd), rz(), imm(0xc0), npt()],
        )?;
        let o = self.b.vreg();
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(o), r(alo), imm(2), rz(), imm(0xc0), npt()],
        )?;
        let low = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &["EQ", "U32", "AND"],
            [p(low), pt(), r(o), rz(), pt()],
        )?;
        let sh = self.b.vreg();
        self.b
            .emit(Op::IMAD, &["SHL", "U32"], [r(sh), r(o), imm(8), rz()])?;
        let s = self.b.vreg();
        let k = self.b.vreg();
        self.mov(k, imm(0x3254))?;
        let other = if op == "ADD" { 0x7610 } else { 0x5410 };
        self.b
            .emit(Op::SEL, &[], [r(s), r(k), imm(other), p(low)])?;
        // The memory operand and the space's load / CAS.
        let wide = ahi.is_some() && self.sm.sm >= 80;
        let addr = mem(Reg::V(w), wide, 0);
        let old_sm = self.sm.sm < 80;
        let (ld, ldm): (Op, Vec<&str>) = match space {
            Space16::Global if ahi.is_some() && old_sm => (Op::LDG, vec!["E", "SYS"]),
            Space16::Global if ahi.is_some() => (Op::LDG, vec!["E"]),
            Space16::Global => (Op::LDG, vec![]),
            Space16::Shared => (Op::LDS, vec![]),
            Space16::Generic if ahi.is_some() && old_sm => (Op::LD, vec!["E", "SYS"]),
            Space16::Generic if ahi.is_some() => (Op::LD, vec!["E"]),
            Space16::Generic => (Op::LD, vec![]),
        };
        let old = self.b.vreg();
        self.b.emit(ld, &ldm, [r(old), addr.clone()])?;
        let top = self.b.new_label();
        self.b.start_block(top);
        let n = self.b.vreg();
        let (cmp, keep) = match op {
            "ADD" => {
                let bh = self.h0(b)?;
                let mods: &[&str] = if bf16 { &["BF16_V2"] } else { &[] };
                self.b.emit(Op::HADD2, mods, [r(n), r(old), bh])?;
                self.b.emit(Op::PRMT, &[], [r(n), r(old), r(s), r(n)])?;
                (r(old), None)
            }
            _ => {
                let c = c.unwrap_or_else(rz);
                self.b.emit(Op::PRMT, &[], [r(n), r(old), r(s), c])?;
                let e = self.b.vreg();
                self.b.emit(Op::PRMT, &[], [r(e), r(old), r(s), b])?;
                let kp = self.b.vreg();
                self.b.emit(Op::PRMT, &[], [r(kp), r(e), r(s), rz()])?;
                (r(e), Some(kp))
            }
        };
        let t = self.b.vreg();
        match space {
            Space16::Shared => self.b.emit(Op::ATOMS, &["CAS"], [r(t), addr, cmp, r(n)])?,
            _ => {
                let opc = if space == Space16::Global {
                    Op::ATOMG
                } else {
                    Op::ATOM
                };
                let mods: &[&str] = if ahi.is_some() {
                    &["E", "CAS", "STRONG", "GPU"]
                } else {
                    &["CAS", "STRONG", "GPU"]
                };
                self.b.emit(opc, mods, [pt(), r(t), addr, cmp, r(n)])?
            }
        }
        let again = self.b.vpred();
        match keep {
            None => self.b.emit(
                Op::ISETP,
                &["NE", "U32", "AND"],
                [p(again), pt(), r(t), r(old), pt()],
            )?,
            Some(kp) => {
                let x = self.b.vreg();
                self.b.emit(Op::PRMT, &[], [r(x), r(t), r(s), rz()])?;
                self.b.emit(
                    Op::ISETP,
                    &["NE", "U32", "AND"],
                    [p(again), pt(), r(x), r(kp), pt()],
                )?
            }
        }
        self.mov(old, r(t))?;
        self.branch(Some(guard(again, false)), top)?;
        if sink {
            return Ok(());
        }
        let d = self.dst32(&i.operands[0])?;
        self.b
            .emit(Op::SHF, &["R", "U32", "HI"], [r(d), rz(), r(sh), r(t)])?;
        self.narrow(d, 16)
    }

    /// The packed adds' type modifiers, or the refusal (every space:
    /// ptxas 11.8 refuses `atom.add.bf16x2` below sm_90 on global, shared
    /// and generic memory alike, measured).
    pub(super) fn atom_x2_mods(&self, op: &str, ty: ScalarType) -> R<&'static [&'static str]> {
        if op != "ADD" {
            return self.err(format!(
                "atom.{}{ty} is not lowered (packed halves: add.noftz only)",
                op.to_lowercase()
            ));
        }
        if ty == ScalarType::Bf16x2 {
            if self.sm.sm < 90 {
                return self.err(format!(
                    "atom.add.bf16x2 on {} requires sm_90 or higher (ptxas 11.8: \"Instruction 'atom.add.bf16x2.global' requires .target sm_90 or higher\")",
                    self.sm.name
                ));
            }
            return Ok(&["BF16x2", "RN"]);
        }
        Ok(&["F16x2", "RN"])
    }
}
