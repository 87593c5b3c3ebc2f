//! Texture fetches (PTX ISA 9.7.10.3 `tex`, 9.7.10.4 `tld4`) with texture
//! objects (unified mode: `[handle, {coords}]`, no separate sampler).
//!
//! | PTX | SASS |
//! |---|---|
//! | `tex.Nd.v4.T.s32` | `TLD.LZ` (integer texel coordinates, level 0) |
//! | `tex.Nd.v4.T.f32` | `TEX.LZ` (float coordinates through the sampler, level 0) |
//! | `tld4.C.2d.v4.T.f32` | `TLD4.C` |
//! | `tex.level`, `tex.grad` | `TEX.LL`, `TXD` (tex_lod.rs) |
//!
//! The texture comes from one of three places:
//! - a register that holds a kernel parameter and nothing else (written
//!   once in the kernel, by `ld.param` of that parameter): on sm_70..sm_89
//!   the slot form names the parameter's word offset in constant bank 0
//!   (`TLD.SCR.LZ RZ, R4, R4, 0x0, 0x58, 1D, 0x1` for c[0x0][0x160],
//!   tex_stencil.sm_70), on sm_90 the parameter's low word in a uniform
//!   pair (`ULDC UR4, c[0x0][0x210]` + `UMOV UR5, URZ` + `TLD.LZ RZ, R3,
//!   R3, UR4, 0x0, 1D, 0x1`, tex_stencil.sm_90);
//! - any other register on sm_75+: a loop that serves the lanes one
//!   distinct handle at a time (`R2UR` of the first lane's handle, the
//!   lanes with that handle fetch through the uniform form, the others
//!   loop). DECISION (UNCONFIRMED: no corpus SASS has a non-parameter
//!   handle) — it is correct for divergent handles;
//! - any other register on sm_70 (no uniform registers): the handle's low
//!   word in a general register where the uniform one would be (`TLD.LZ
//!   RZ, Rd, Rc, Rh, 0x0, 1D, 0xf`). DECISION (UNCONFIRMED spelling).
//!
//! Residency predicates (`tex... {..}|p, [..]`, `tld4... {..}|p`; PTX ISA
//! 9.7.10.3: "set to True if data from all texels is resident"): ptxas
//! 11.8 gives the fetch a predicate destination before the registers and
//! reads it back negated (`TEX.SCR.LL P2, R14, R12, R14, R27, 0x0, 0x58,
//! 2D` ... `SEL R2, RZ, 0x1, P2` for `selp.u32 %r, 1, 0, %p`,
//! oracle/tests/tex_resident_vendor/resident.sm_80.O3.sass): the SASS
//! predicate is set where a texel is NOT resident. Here: a fresh
//! predicate destination on every fetch form (TEX, TLD, TLD4, TXD, in
//! tex.rs, tex_array.rs, tex_lod.rs through [`TexDsts::head`]) and
//! `PLOP3.LUT p, PT, !q, PT, PT, 0xf0, 0x0` into the PTX predicate. A
//! plain sampled (`.f32`) 1d/2d/3d fetch with a predicate is, as ptxas
//! emits it, `TEX.LL` at level -32.0 with a 1D one fetched as 2D at y = 0
//! (tex_lod.rs's groups) instead of `TEX.LZ`.
//!
//! Destinations: the channel mask selects the used vector elements; with
//! three or four channels the first pair is the second printed destination
//! and the second pair the first (the simulator's reading of
//! `TLD.SCR.LZ RZ, R4, ...`), then `MOV`s to the element registers.

use crate::ir::sass_text::Reg;
use crate::ir::{Op, Operand};
use crate::ptx::ast::{AddrBase, Instruction, OperandKind};
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::handle::Handle;
use super::regs::Val;
use super::Cx;
use crate::targets::abi::resinfo::Table;

pub(super) fn shape(dims: u32) -> Operand {
    Operand::TexShape(format!("{dims}D"))
}

impl Cx<'_> {
    pub fn lower_tex(&mut self, i: &Instruction) -> R {
        let tld4 = i.opcode == Opcode::Tld4;
        let dims: u32 = if i.has(Mod::D1) {
            1
        } else if i.has(Mod::D2) {
            2
        } else if i.has(Mod::D3) {
            3
        } else if i.has(Mod::A1d) || i.has(Mod::A2d) {
            return self.lower_tex_array(i);
        } else {
            return self.err(
                "cube and multi-sample textures are not lowered (the launch spec has no such \
                 textures)",
            );
        };
        if !tld4 && (i.has(Mod::Level) || i.has(Mod::Grad)) {
            return self.lower_tex_lod(i, dims, false);
        }
        let ctype = self.ty(i)?;
        let float = ctype == ScalarType::F32;
        if float && !tld4 && matches!(i.operands[0].kind, OperandKind::VectorPred(..)) {
            // ptxas: a sampled fetch with a residency predicate is TEX.LL at
            // level -32.0, a 1D one as 2D at y = 0 (module docs).
            return self.lower_tex_lod(i, dims, false);
        }
        let (handle, cs) = self.tex_address(i)?;
        // Coordinates into consecutive registers.
        if cs.len() < dims as usize {
            return self.err("too few texture coordinates");
        }
        let c = self.b.valigned(dims.next_power_of_two());
        for k in 0..dims {
            let x = self.src32(&cs[k as usize], ScalarType::B32)?;
            self.mov(c + k, x)?;
        }
        let out = self.tex_dsts(i)?;
        let mask = out.mask;
        let (op, mods): (Op, &[&'static str]) = if tld4 {
            (Op::TLD4, &[tld4_comp(i)])
        } else if float {
            (Op::TEX, &["LZ"])
        } else {
            (Op::TLD, &["LZ"])
        };
        let mut head = out.head();
        head.push(r(c));
        self.emit_fetch(op, mods, true, head, handle, shape(dims), mask)?;
        self.tex_moves(&out)
    }

    /// Emits the fetch `op.mods d1, d0, <groups>, <texture>, shape, mask`
    /// (`head`: the destinations and the source groups) in the form its
    /// texture takes (module docs): the slot form `<groups>, 0x0, slot`
    /// for a parameter below sm_90 (with `.SCR` first when `scr`: TEX, TLD
    /// and TLD4 spell it, TXD does not, `TXD R6, R4, R8, R4, 0x0, 0x58,
    /// 2D`, lod.sm_80.O3), the uniform pair `<groups>, UR, 0x0`
    /// of a parameter on sm_90 (`TXD R6, R4, R32, R4, UR4, 0x0, 2D`, lod.sm_90.O3),
    /// the sm_70 general-register handle, or the handle loop.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn emit_fetch(
        &mut self,
        op: Op,
        mods: &[&'static str],
        scr: bool,
        mut head: Vec<Operand>,
        handle: Handle,
        shape: Operand,
        mask: i64,
    ) -> R {
        let mask = imm(mask);
        match handle {
            Handle::Param(off) if self.sm.sm < 90 => {
                let mut m = mods.to_vec();
                if scr {
                    m.insert(0, "SCR");
                }
                head.extend([imm(0), imm(i64::from(off / 4)), shape, mask]);
                self.b.emit(op, &m, head)?;
            }
            Handle::Param(off) => {
                let u = self.b.uvpair();
                self.b.emit(Op::ULDC, &[], [ureg(u), cbank(0, off)])?;
                self.b.emit(Op::UMOV, &[], [ureg(u + 1), reg(Reg::Urz)])?;
                head.extend([ureg(u), imm(0), shape, mask]);
                self.b.emit(op, mods, head)?;
            }
            Handle::Reg(h) if self.sm.sm < 75 => {
                head.extend([r(h), imm(0), shape, mask]);
                self.b.emit(op, mods, head)?;
            }
            Handle::Reg(h) => self.handle_loop(h, true, |cx, u, g| {
                head.extend([u, imm(0), shape, mask]);
                cx.b.emit_g(Some(g), op, mods, head)
            })?,
        }
        Ok(())
    }

    /// Whether a fetch of `handle` takes the slot form (a parameter below
    /// sm_90), which lays out its source groups differently.
    pub(super) fn slot_form(&self, handle: Handle) -> bool {
        matches!(handle, Handle::Param(_)) && self.sm.sm < 90
    }

    /// The texture of a `[handle, ...]` operand (module docs: a parameter
    /// slot or a register).
    pub(super) fn tex_handle(&mut self, base: AddrBase) -> R<Handle> {
        let AddrBase::Name(hs) = base else {
            return self.err("texture handle is not a name");
        };
        match self.handle_of(hs) {
            Some(h) => Ok(h),
            None => self.err("texture handle is not a 64-bit register or parameter"),
        }
    }

    /// The `[handle, {coords}]` operand of a fetch: its handle and its
    /// coordinate list (a separate sampler is refused).
    pub(super) fn tex_address<'i>(
        &mut self,
        i: &'i Instruction,
    ) -> R<(Handle, &'i [crate::ptx::ast::Operand])> {
        let OperandKind::Addr(a) = &i.operands[1].kind else {
            return self.err("texture instruction without a [handle, {coords}] operand");
        };
        if a.rest.len() != 1 || a.offset != 0 {
            return self.err(
                "texture with a separate sampler is not lowered: the PTX interpreter does not \
                 execute it (the launch spec has no sampler objects); ptxas 11.8 merges the \
                 handles, (texture & 0xfffff) | sampler << 20 (oracle/tests/tex_resident_vendor/README.md)",
            );
        }
        let handle = self.tex_handle(a.base)?;
        let OperandKind::Vector(cs) = &a.rest[0].kind else {
            return self.err("texture coordinates are not a vector");
        };
        Ok((handle, cs))
    }

    /// The destination registers, the write mask and the two channel pairs.
    pub(super) fn tex_dsts(&mut self, i: &Instruction) -> R<TexDsts> {
        let mut resident = None;
        let dsts: Vec<Option<u32>> = match &i.operands[0].kind {
            OperandKind::Vector(_) | OperandKind::Name(_) => self
                .vector_items(&i.operands[0])
                .iter()
                .map(|e| match e.kind {
                    OperandKind::Sink => Ok(None),
                    _ => match self.dst_val(e)?.0 {
                        Val::R(v) => Ok(Some(v)),
                        _ => self.err("texture destination of a bad class"),
                    },
                })
                .collect::<R<_>>()?,
            OperandKind::VectorPred(v, pd) => {
                resident = Some(self.resident_pred(*pd)?);
                v.iter()
                    .map(|e| match e.kind {
                        OperandKind::Sink => Ok(None),
                        _ => match self.dst_val(e)?.0 {
                            Val::R(v) => Ok(Some(v)),
                            _ => self.err("texture destination of a bad class"),
                        },
                    })
                    .collect::<R<_>>()?
            }
            _ => vec![Some(self.dst32(&i.operands[0])?)],
        };
        let used = dsts.iter().rposition(Option::is_some).map_or(1, |k| k + 1);
        let (mask, first, second) = if used > 2 {
            (0xf, self.b.vpair(), Some(self.b.vpair()))
        } else {
            (if used == 2 { 0x3 } else { 0x1 }, self.b.vpair(), None)
        };
        let nonresident = resident.map(|_| self.b.vpred());
        Ok(TexDsts {
            dsts,
            mask,
            first,
            second,
            resident,
            nonresident,
        })
    }

    /// The PTX residency predicate of `{..}|p` (a `.pred` register).
    fn resident_pred(&mut self, s: crate::ptx::intern::Sym) -> R<u32> {
        match self.lookup(s) {
            Some(super::regs::Binding::Reg { val: Val::P(v), .. }) => Ok(v),
            _ => self.err(format!(
                "texture residency predicate `{}` is not a .pred register",
                self.name(s)
            )),
        }
    }

    /// `MOV`s from the channel pairs to the element registers, and the
    /// residency predicate: the negation of the fetch's predicate
    /// destination (module docs).
    pub(super) fn tex_moves(&mut self, out: &TexDsts) -> R {
        if let (Some(d), Some(q)) = (out.resident, out.nonresident) {
            self.b.emit(
                Op::PLOP3,
                &["LUT"],
                [p(d), pt(), pnot(q), pt(), pt(), imm(0xf0), imm(0)],
            )?;
        }
        for (k, d) in out.dsts.iter().enumerate() {
            if let Some(v) = d {
                let src = if k < 2 {
                    out.first + k as u32
                } else {
                    out.second.expect("a second pair") + k as u32 - 2
                };
                self.mov(*v, r(src))?;
            }
        }
        Ok(())
    }
}

/// A fetch's destinations: the element registers (`None`: a sink), the
/// write mask, and the first and second channel pairs.
pub(super) struct TexDsts {
    pub dsts: Vec<Option<u32>>,
    pub mask: i64,
    pub first: u32,
    pub second: Option<u32>,
    /// `{..}|p`: the PTX residency predicate, and the fetch's predicate
    /// destination (set where a texel is not resident).
    pub resident: Option<u32>,
    pub nonresident: Option<u32>,
}

impl TexDsts {
    /// The fetch's destinations: `[P,] d1, d0` (the predicate first, as
    /// ptxas prints `TEX.SCR.LL P0, R6, R4, ...`).
    pub fn head(&self) -> Vec<Operand> {
        let mut h: Vec<Operand> = self.nonresident.map(p).into_iter().collect();
        h.push(self.second.map_or(rz(), r));
        h.push(r(self.first));
        h
    }
}

/// `tld4.comp`: the gathered component as SASS spells it.
pub(super) fn tld4_comp(i: &Instruction) -> &'static str {
    if i.has(Mod::R) {
        "R"
    } else if i.has(Mod::G) {
        "G"
    } else if i.has(Mod::Bc) {
        "B"
    } else {
        "A"
    }
}

impl Cx<'_> {
    /// `txq.{width,height,depth}.b32 d, [tex]` below sm_90 (PTX ISA
    /// 9.7.10.5): ptxas 11.8 on sm_70..sm_89 (`txq.width.b32 %r1, [%rd1]`
    /// with `%rd1` loaded from the first parameter, and with `%rd1` the
    /// parameter plus `%tid.x`): `TXQ RZ, R3, R3, TEX_HEADER_DIMENSION, 0x0, 0x58, 0x1`
    /// (slot form, source: the level, zero) and `TXQ.B RZ, R5, R8,
    /// TEX_HEADER_DIMENSION, 0x1` (R8: the handle's low word, R9 = 0: the
    /// level); mask 0x1/0x2/0x4 for width/height/depth. Every other field,
    /// and every field on sm_90, is a load from the driver's texture
    /// information table, as ptxas does (resinfo.rs).
    pub fn lower_txq(&mut self, i: &Instruction) -> R {
        let table = if i.opcode == Opcode::Suq {
            Table::Surface
        } else {
            Table::Texture
        };
        if let Some(off) = self.info_field(i, table)? {
            return self.lower_info_query(i, table, off);
        }
        let mask = if i.has(Mod::Width) {
            1
        } else if i.has(Mod::Height) {
            2
        } else {
            4
        };
        let OperandKind::Addr(a) = &i.operands[1].kind else {
            return self.err("txq without a [handle] operand");
        };
        if !a.rest.is_empty() || a.offset != 0 {
            return self.err("txq operand is not [handle]");
        }
        let handle = self.tex_handle(a.base)?;
        let d = self.dst32(&i.operands[0])?;
        let t = self.b.vreg();
        match handle {
            Handle::Param(off) => {
                let lod = self.b.vreg();
                self.mov(lod, rz())?;
                self.b.emit(
                    Op::TXQ,
                    &[],
                    [
                        rz(),
                        r(t),
                        r(lod),
                        reg_special("TEX_HEADER_DIMENSION"),
                        imm(0),
                        imm(i64::from(off / 4)),
                        imm(mask),
                    ],
                )?;
            }
            Handle::Reg(v) => {
                let pair = self.b.vpair();
                self.mov(pair, r(v))?;
                self.mov(pair + 1, rz())?;
                self.b.emit(
                    Op::TXQ,
                    &["B"],
                    [
                        rz(),
                        r(t),
                        r(pair),
                        reg_special("TEX_HEADER_DIMENSION"),
                        imm(mask),
                    ],
                )?;
            }
        }
        self.mov(d, r(t))
    }
}

fn reg_special(s: &str) -> Operand {
    Operand::Special(s.to_string())
}

pub(super) fn ureg(u: u32) -> Operand {
    reg(Reg::Uv(u))
}
