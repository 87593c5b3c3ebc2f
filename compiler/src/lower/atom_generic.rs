//! Generic-address `atom`/`red` whose hardware `ATOM` does not act on
//! every space (compiler/src/ir/atom_reach.rs, measured on ptxas 11.8):
//! ptxas's guarded `ATOM` with its software fallbacks, for the 64-bit
//! integer forms and the f32/f64 adds (the packed-half adds: atom_spin.rs).
//!
//! ptxas 11.8, `-O3`, sm_70..sm_90 alike (listings:
//! oracle/tests/atom_generic_vendor; `red` with `RZ` for `d`; sm_70/75
//! print `[a]` and `LD.E.64.SYS`/`ST.E.64.SYS`):
//!
//! ```text
//!      ATOM.E.<op>.<ty>.STRONG.GPU P0, d, [a.64], b[, c]
//!      @P0 BRA done                      // performed
//!      QSPC.E.S P0, RZ, [a]              // reach Global only
//!      @!P0 BRA local
//!      s = LOP3.LUT a.lo, 0xffffff, RZ, 0xc0, !PT
//! top: LDS[.64] old, [s]
//!      n = old <op> b                    // FADD / DADD / IADD3 pair / LOP3 pair / ISETP+SEL
//!      ATOMS.CAST.SPIN[.64] t, [s], old, n
//!      ISETP.EQ.U32.AND P0, PT, t, 0x1, PT  (.64: and ISETP.EQ.U32.AND.EX t.hi, RZ)
//!      @!P0 BRA top
//!      d = old ; BRA done
//! local: LD.E[.64] d, [a.64] ; n = d <op> b ; ST.E[.64] [a.64], n
//! done:
//! ```
//!
//! `exch.b64`/`cas.b64` (reach NotLocal) have no `QSPC` and no shared
//! loop: `@P0 BRA done` falls into the local path (`cas`: `ISETP.EQ` pair,
//! `SEL n, c, old`). Our deviations, each a DECISION:
//! - `min`/`max.{u,s}64` on shared memory: ptxas skips the store when
//!   `b` does not change the word (`ISETP.GE ...; @P0 BRA exit` before
//!   `ATOMS.CAST.SPIN.64`); we always store `min(old, b)` through the
//!   compare-and-swap, which leaves the same word and old value;
//! - the f64 sum is `DADD n, old, b` (ptxas: `DADD n, b, old`): the same
//!   sum, with the NaN operand order the PTX interpreter uses
//!   (ptx_interp/semantics/atomic.rs).
//!
//! `atom.shared` in those forms is the shared loop alone
//! ([`Cx::lower_atom_shared_loop`]: `ATOMS` has no 64-bit add/min/max/
//! and/or/xor and no f32/f64 add, ir/atom_reach.rs `shared_has`), with the
//! same deviations.
//!
//! The f32 fallbacks add with `FADD` (no `.FTZ`), as ptxas does: PTX's
//! `atom.add.f32` flushes subnormals on global memory only.

use crate::ir::atom_reach::Reach;
use crate::ir::sass_text::Reg;
use crate::ir::{Op, Operand};
use crate::ptx::ast::Instruction;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::Cx;

/// One operation's values: 32-bit registers or pair bases.
struct Vals {
    wide: bool,
    b: u32,
    c: Option<u32>,
}

impl Cx<'_> {
    /// `atom`/`red` (`sink`: no old value wanted) with SASS operation `op`
    /// and type modifiers `tymods` on a generic address, for a form whose
    /// `reach` is not `All`.
    pub(super) fn lower_atom_generic(
        &mut self,
        i: &Instruction,
        ty: ScalarType,
        (op, tymods): (&'static str, &[&'static str]),
        reach: Reach,
        sink: bool,
    ) -> R {
        let (ai, v) = self.atom_vals(i, ty, op)?;
        let wide = v.wide;
        let (lo, hi) = self.atom16_addr(&i.operands[ai])?;
        let e = hi.is_some();
        let addr = mem(Reg::V(lo), e && self.sm.sm >= 80, 0);
        let with_e = |m: &[&'static str]| -> Vec<&'static str> {
            let mut out = if e { vec!["E"] } else { vec![] };
            out.extend_from_slice(m);
            out
        };
        let res = if wide { self.b.vpair() } else { self.b.vreg() };
        let done = self.b.new_label();
        let g = self.b.vpred();
        let mut mods = with_e(&[op]);
        mods.extend_from_slice(tymods);
        mods.extend(["STRONG", "GPU"]);
        let mut ops = vec![p(g), if sink { rz() } else { r(res) }, addr.clone(), r(v.b)];
        ops.extend(v.c.map(r));
        self.b.emit(Op::ATOM, &mods, ops)?;
        self.branch(Some(guard(g, false)), done)?;
        let local = self.b.new_label();
        if reach == Reach::Global {
            let shared = self.shared_fallback(lo, e, local)?;
            self.cas_loop(res, shared, op, ty, &v)?;
            self.b.emit(Op::BRA, &[], [Operand::Label(done)])?;
        }
        self.b.start_block(local);
        let mut ldst = with_e(if wide { &["64"] } else { &[] });
        if e && self.sm.sm < 80 {
            ldst.push("SYS");
        }
        self.b.emit(Op::LD, &ldst, [r(res), addr.clone()])?;
        let n = self.combine(res, op, ty, &v)?;
        self.b.emit(Op::ST, &ldst, [addr, r(n)])?;
        self.b.start_block(done);
        self.atom_result(i, sink, wide, res)
    }

    /// `atom`/`red` on shared memory in a form `ATOMS` lacks
    /// (ir/atom_reach.rs `shared_has`): ptxas's loop alone, `LDS[.64]`,
    /// the new value, `ATOMS.CAST.SPIN[.64]` until it stores (ptxas 11.8,
    /// sm_80/sm_90 `atom.shared.add.f64`: `LDS.64 R4, [UR4+0x8]; DADD R6,
    /// R2, R4; ATOMS.CAST.SPIN.64 R6, [R11+0x8], R4, R6; ISETP.EQ.U32.AND
    /// P0, PT, R6, 0x1, PT; ISETP.EQ.U32.AND.EX P0, PT, R7, RZ, PT, P0;
    /// @!P0 BRA`), with the module doc's deviations.
    pub(super) fn lower_atom_shared_loop(
        &mut self,
        i: &Instruction,
        ty: ScalarType,
        op: &'static str,
        sink: bool,
    ) -> R {
        let (ai, v) = self.atom_vals(i, ty, op)?;
        let addr = self.atom_addr(&i.operands[ai], false)?;
        let res = if v.wide {
            self.b.vpair()
        } else {
            self.b.vreg()
        };
        self.cas_loop(res, addr, op, ty, &v)?;
        self.atom_result(i, sink, v.wide, res)
    }

    /// The address operand's index and the operation's values of `i`.
    fn atom_vals(&mut self, i: &Instruction, ty: ScalarType, op: &str) -> R<(usize, Vals)> {
        let is_red = i.opcode == crate::ptx::isa::Opcode::Red;
        let (ai, vi) = if is_red { (0, 1) } else { (1, 2) };
        let wide = ty.bits() == 64;
        let val = |cx: &mut Self, k: usize| -> R<u32> {
            if wide {
                cx.src64_pair(&i.operands[k], ty)
            } else {
                let v = cx.src32r(&i.operands[k], ty)?;
                let t = cx.b.vreg();
                cx.mov(t, v)?;
                Ok(t)
            }
        };
        let b = val(self, vi)?;
        let c = if op == "CAS" {
            Some(val(self, vi + 1)?)
        } else {
            None
        };
        Ok((ai, Vals { wide, b, c }))
    }

    /// Moves the old value `res` to `i`'s destination (none for `sink`).
    fn atom_result(&mut self, i: &Instruction, sink: bool, wide: bool, res: u32) -> R {
        if sink {
            return Ok(());
        }
        if wide {
            let d = self.dst64(&i.operands[0])?;
            self.mov(d, r(res))?;
            self.mov(d + 1, r(res + 1))
        } else {
            let d = self.dst32(&i.operands[0])?;
            self.mov(d, r(res))
        }
    }

    /// ptxas's shared loop on `ATOMS.CAST.SPIN[.64]`: `old` ends as the
    /// word the store replaced.
    fn cas_loop(&mut self, old: u32, addr: Operand, op: &str, ty: ScalarType, v: &Vals) -> R {
        let top = self.b.new_label();
        self.b.start_block(top);
        let w: &[&str] = if v.wide { &["64"] } else { &[] };
        self.b.emit(Op::LDS, w, [r(old), addr.clone()])?;
        let n = self.combine(old, op, ty, v)?;
        let t = if v.wide {
            self.b.vpair()
        } else {
            self.b.vreg()
        };
        let mut mods = vec!["CAST", "SPIN"];
        mods.extend_from_slice(w);
        self.b.emit(Op::ATOMS, &mods, [r(t), addr, r(old), r(n)])?;
        let ok = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &["EQ", "U32", "AND"],
            [p(ok), pt(), r(t), imm(1), pt()],
        )?;
        if v.wide {
            self.b.emit(
                Op::ISETP,
                &["EQ", "U32", "AND", "EX"],
                [p(ok), pt(), r(t + 1), rz(), pt(), p(ok)],
            )?;
        }
        self.branch(Some(guard(ok, true)), top)
    }

    /// The new word for the old word `old` (register or pair base).
    fn combine(&mut self, old: u32, op: &str, ty: ScalarType, v: &Vals) -> R<u32> {
        let b = v.b;
        if !v.wide {
            let n = self.b.vreg();
            return match (op, ty) {
                ("ADD", ScalarType::F32) => {
                    self.b.emit(Op::FADD, &[], [r(n), r(b), r(old)])?;
                    Ok(n)
                }
                _ => self.err(format!("generic atom.{op}.{ty}: no fallback")),
            };
        }
        let n = self.b.vpair();
        let pair = |x: u32| (r(x), r(x + 1));
        match op {
            "ADD" if ty == ScalarType::F64 => {
                self.b.emit(Op::DADD, &[], [r(n), r(old), r(b)])?;
            }
            "ADD" => self.add64(n, pair(old), pair(b), false)?,
            "AND" | "OR" | "XOR" => {
                let lut = match op {
                    "AND" => 0xc0,
                    "OR" => 0xfc,
                    _ => 0x3c,
                };
                for k in 0..2 {
                    self.b.emit(
                        Op::LOP3,
                        &["LUT"],
                        [r(n + k), r(old + k), r(b + k), rz(), imm(lut), npt()],
                    )?;
                }
            }
            "MIN" | "MAX" | "CAS" => {
                let s = self.b.vpred();
                let (cmp, x, y) = match op {
                    "MIN" => ("LT", old, b),
                    "MAX" => ("GT", old, b),
                    // cas: old == b ? c : old.
                    _ => ("EQ", v.c.unwrap_or(b), old),
                };
                let signed = ty == ScalarType::S64 && op != "CAS";
                self.cmp64(s, cmp, signed, pair(old), pair(b))?;
                for k in 0..2 {
                    self.b
                        .emit(Op::SEL, &[], [r(n + k), r(x + k), r(y + k), p(s)])?;
                }
            }
            "EXCH" => return Ok(b),
            _ => return self.err(format!("generic atom.{op}.{ty}: no fallback")),
        }
        Ok(n)
    }
}
