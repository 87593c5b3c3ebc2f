//! `atom`/`red` `.add.noftz.f16x2`/`.bf16x2` on shared and generic
//! memory: ptxas 11.8's spin loops on `ATOMS.CAST.SPIN` (global memory:
//! the native packed adds, atom16.rs).
//!
//! Measured with `ptxas -arch=sm_XX -O3` on sm_70, 75, 80, 86, 89, 90 (and
//! `-O0` on sm_80: the same instructions, the add split per half); the -O3
//! listings are oracle/tests/atom_spin_vendor/. Shared (`atom` and `red` alike):
//!
//! ```text
//! top: LDS old, [a]
//!      HADD2{.BF16_V2} n, old, b        // sm_90 f16x2: HFMA2.MMA n, old, 1, 1, b
//!      ATOMS.CAST.SPIN t, [a], old, n   // t = 1: stored (mem was old), 0: not
//!      ISETP.EQ.U32.AND P0, PT, t, 0x1, PT
//!      @!P0 BRA top
//! d = old
//! ```
//!
//! Generic (`red` too, with `RZ` for `d`; sm_70/75 print `[R2]`, `LD.E.SYS`):
//!
//! ```text
//!      ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, d, [a.64], b   // .BF16x2 for bf16x2
//!      @P0 BRA done                     // performed: a global address
//!      QSPC.E.S P0, RZ, [a]
//!      @!P0 BRA local
//!      s = LOP3.LUT a.lo, 0xffffff, RZ, 0xc0, !PT        // the shared offset
//!      (the shared loop above on [s]) ; d = old ; BRA done
//! local: LD.E d, [a.64] ; n = IADD3 d, b, RZ ; ST.E [a.64], n
//! done:
//! ```
//!
//! With 32-bit addresses (`.address_size 32`, sm_80 measured) the same
//! without `.E`: `ATOM.ADD.F16x2.RN.STRONG.GPU P0, R2, [R0], R3`,
//! `QSPC.S P0, RZ, [R0]`, `LD R2, [R0]`, `ST [R0], R3`.
//!
//! Our deviations, each a DECISION:
//! - the sum is `HADD2` on every target (ptxas's sm_90 `HFMA2.MMA n, old,
//!   1, 1, b` is the same correctly rounded sum: `old * 1` is exact);
//! - the local path adds with `HADD2` too: ptxas's integer `IADD3` there
//!   is not the packed half add (for `atom.add.f32` the same path uses
//!   `FADD`); PTX leaves generic atomics on local memory undefined
//!   (NVIDIA/cccl#478), the PTX interpreter performs the add.
//!
//! The shared address of the fallback is the generic address's low 24
//! bits on every target, sm_90's included: the shared window is aligned
//! and holds shared addresses with their reserved base (mod.rs "Memory").
//!
//! The simulator models `ATOMS.CAST.SPIN`, `QSPC` and the generic `ATOM`'s
//! global-only packed add (oracle/src/sim/exec/mem.rs; the reach rule,
//! shared with the lowering: compiler/src/ir/atom_reach.rs). The other
//! guarded generic forms (64-bit integer ops, f32/f64 add): atom_generic.rs.

use crate::ir::sass_text::Reg;
use crate::ir::{Op, Operand};
use crate::ptx::ast::Instruction;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::Cx;

impl Cx<'_> {
    /// `atom`/`red` `.add.noftz.{f16x2,bf16x2}` on `.shared` (`shared`) or
    /// generic memory; `sink`: the old value is not wanted.
    pub(super) fn lower_atom_spin(
        &mut self,
        i: &Instruction,
        ty: ScalarType,
        shared: bool,
        sink: bool,
    ) -> R {
        let is_red = i.opcode == crate::ptx::isa::Opcode::Red;
        let (ai, vi) = if is_red { (0, 1) } else { (1, 2) };
        let b = self.src32r(&i.operands[vi], ty)?;
        let bf16 = ty == ScalarType::Bf16x2;
        let old = self.b.vreg();
        if shared {
            let addr = self.atom_addr(&i.operands[ai], false)?;
            self.spin_loop(old, addr, b, bf16)?;
        } else {
            self.generic_spin(i, ai, old, b, bf16, sink)?;
        }
        if sink {
            return Ok(());
        }
        let d = self.dst32(&i.operands[0])?;
        self.mov(d, r(old))
    }

    /// ptxas's shared loop: `old` ends as the word the store replaced.
    fn spin_loop(&mut self, old: u32, addr: Operand, b: Operand, bf16: bool) -> R {
        let top = self.b.new_label();
        self.b.start_block(top);
        self.b.emit(Op::LDS, &[], [r(old), addr.clone()])?;
        let n = self.b.vreg();
        let mods: &[&str] = if bf16 { &["BF16_V2"] } else { &[] };
        self.b.emit(Op::HADD2, mods, [r(n), r(old), b])?;
        let t = self.b.vreg();
        self.b
            .emit(Op::ATOMS, &["CAST", "SPIN"], [r(t), addr, r(old), r(n)])?;
        let ok = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &["EQ", "U32", "AND"],
            [p(ok), pt(), r(t), imm(1), pt()],
        )?;
        self.branch(Some(guard(ok, true)), top)
    }

    /// ptxas's test after a generic `ATOM` that may not act outside global
    /// memory: `QSPC{.E}.S` on the address (`lo`, `e`: 64-bit) branching to
    /// `local` when it is not shared, then the shared offset (`LOP3` of the
    /// low 24 bits); returns the shared address operand for the fallback.
    pub(super) fn shared_fallback(
        &mut self,
        lo: u32,
        e: bool,
        local: u32,
    ) -> Result<Operand, super::LowerError> {
        let s = self.b.vpred();
        let mods: &[&str] = if e { &["E", "S"] } else { &["S"] };
        self.b
            .emit(Op::QSPC, mods, [p(s), rz(), mem(Reg::V(lo), false, 0)])?;
        self.branch(Some(guard(s, true)), local)?;
        let off = self.b.vreg();
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(off), r(lo), imm(0xff_ffff), rz(), imm(0xc0), npt()],
        )?;
        Ok(mem(Reg::V(off), false, 0))
    }

    /// The generic form: the hardware add on global addresses, then the
    /// shared loop or the local read-modify-write; `res` gets the old value.
    fn generic_spin(
        &mut self,
        i: &Instruction,
        ai: usize,
        res: u32,
        b: Operand,
        bf16: bool,
        sink: bool,
    ) -> R {
        let (lo, hi) = self.atom16_addr(&i.operands[ai])?;
        let e = hi.is_some();
        let wide = e && self.sm.sm >= 80;
        let sys = e && self.sm.sm < 80;
        let addr = mem(Reg::V(lo), wide, 0);
        let with_e = |m: &[&'static str]| -> Vec<&'static str> {
            let mut v = if e { vec!["E"] } else { vec![] };
            v.extend_from_slice(m);
            v
        };
        let tymod = if bf16 { "BF16x2" } else { "F16x2" };
        let done = self.b.new_label();
        let local = self.b.new_label();
        let g = self.b.vpred();
        let d = if sink { rz() } else { r(res) };
        self.b.emit(
            Op::ATOM,
            &with_e(&["ADD", tymod, "RN", "STRONG", "GPU"]),
            [p(g), d, addr.clone(), b.clone()],
        )?;
        self.branch(Some(guard(g, false)), done)?;
        let shared = self.shared_fallback(lo, e, local)?;
        self.spin_loop(res, shared, b.clone(), bf16)?;
        self.b.emit(Op::BRA, &[], [Operand::Label(done)])?;
        self.b.start_block(local);
        let ldst: &[&str] = if sys { &["SYS"] } else { &[] };
        self.b.emit(Op::LD, &with_e(ldst), [r(res), addr.clone()])?;
        let n = self.b.vreg();
        let mods: &[&str] = if bf16 { &["BF16_V2"] } else { &[] };
        self.b.emit(Op::HADD2, mods, [r(n), r(res), b])?;
        self.b.emit(Op::ST, &with_e(ldst), [addr, r(n)])?;
        self.b.start_block(done);
        Ok(())
    }
}
