//! `tex.level` on the plain geometries (`TEX.LL`) and `tex.grad` (`TXD`)
//! on .1d/.2d/.a1d/.a2d (PTX ISA 9.7.10.3 `tex`: `.level` gives the level
//! of detail `lod`, `.grad` the gradients `dPdx`, `dPdy`), with the
//! texture forms of tex.rs ([`Cx::emit_fetch`]). `tex.level` on arrays is
//! tex_array.rs's.
//!
//! ptxas 11.8, every target sm_70..sm_90 (oracle/tests/tex_lod_vendor/:
//! lod.ptx fetches `tex.level.{1d,2d,3d}` and `tex.grad.{1d,2d}` of the
//! parameter `tex` and `tex.grad.{a1d,a2d}` of `atex`; lines from
//! lod.sm_80.O3 and lod.sm_90.O3):
//!
//! | PTX | slot form (sm_70..sm_89) | handle form (sm_90) |
//! |---|---|---|
//! | `tex.level.1d` | `TEX.SCR.LL R34, R32, R8, R31, 0x0, 0x58, 2D` (Ra = x, 0; Rb = lod) | `TEX.LL R34, R32, R32, R26, UR4, 0x0, 2D` (Ra = x, 0; Rb = lod) |
//! | `tex.level.2d` | `TEX.SCR.LL R30, R28, R28, R31, 0x0, 0x58, 2D` (Ra = x, y; Rb = lod) | `TEX.LL R26, R24, R2, R26, UR4, 0x0, 2D` |
//! | `tex.level.3d` | `TEX.SCR.LL R18, R16, R16, R30, 0x0, 0x58, 3D` (Ra = x, y; Rb = z, lod) | `TEX.LL R10, R8, R20, R26, UR4, 0x0, 3D` (Ra = x, y, z; Rb = lod) |
//! | `tex.grad.1d` | `TXD R6, R4, R8, R4, 0x0, 0x58, 2D` (Ra = x, 0; Rb = dPdx, dPdy, 0, 0) | `TXD R6, R4, R32, R4, UR4, 0x0, 2D` |
//! | `tex.grad.2d` | `TXD R14, R12, R20, R12, 0x0, 0x58, 2D` (Ra = x, y; Rb = dPdx.x, dPdy.x, dPdx.y, dPdy.y) | `TXD R14, R12, R12, R24, UR4, 0x0, 2D` |
//! | `tex.grad.a1d` | `TXD R10, R8, R10, R8, 0x0, 0x5a, ARRAY_1D` (Ra = x, index; Rb = dPdx, dPdy) | `TXD R18, R16, R36, R16, UR6, 0x0, ARRAY_1D` |
//! | `tex.grad.a2d` | `TXD R26, R24, R20, R24, 0x0, 0x5a, ARRAY_2D` (Ra = x, y, index; Rb as .2d) | `TXD R30, R28, R20, R28, UR6, 0x0, ARRAY_2D` |
//!
//! So: a 1D level-of-detail fetch is a 2D one at y = 0 (the launch spec's
//! 1D textures read alike at any y: their missing dimension has size 1 and
//! clamps, `semantics::texture`); `TEX.LL` groups its values as the other
//! `.LL` fetches (slot form: the first two values in Ra; handle form: the
//! coordinates in Ra, the level in Rb); `TXD` puts the coordinates, then
//! the clamped array index (tex_array.rs), in Ra and the gradients,
//! interleaved per dimension, in Rb, in both forms, and its slot form
//! prints no `.SCR`. The array index clamp is tex_array.rs's.
//!
//! Refused (with the reason): `tex.level` with `.s32` coordinates (ptxas
//! rejects it); `tex.grad` with `.s32` coordinates (ptxas 11.8 hands the
//! integers' bits to `TXD`, a sampled-coordinate fetch: `TXD R6, R4, R4,
//! R8, 0x0, 0x58, 2D` with R4 = the `.s32` x unconverted (measured on
//! `tex.grad.2d.v4.f32.s32`, sm_80), so the vendor
//! result is not the PTX one).
//!
//! `tex.grad.3d`: there is no 3D `TXD`. ptxas 11.8 emulates it once per
//! quad lane (sm_80, `tex.grad.3d.v4.f32.f32` of a parameter, 4 rounds):
//! `BMOV.32.PQUAD MACTIVE, B15`, `SHFL.IDX PT, R4, R0, RZ, 0x1c03` (lane
//! k's coordinates to its whole quad), `FSWZADD.NDV R4, R7, R4, ZPPPZPPP`
//! / `ZPZPPPPP` (coordinates plus the gradients arranged so the quad's
//! differences are them), `TEX.SCR.NDV R6, R4, R4, R6, 0x0, 0x58, 3D`
//! (implicit level from the quad), `MOV R4, R3, 0x2` (lane k keeps its
//! round's texel). DECISION: `TEX.LL` at level -32.0 in tex.level.3d's
//! groups (`TEX.SCR.LL R18, R16, R16, R30, 0x0, 0x58, 3D`), the
//! gradients checked but unused. The gradients only choose the mip level
//! (PTX ISA 9.7.10.3: `.grad` "specifies ... gradients" for the level of
//! detail), every launch spec texture has one level, and both runners
//! read level 0 whatever the level of detail (`semantics::texture::
//! mip_level`), so the result is the interpreter's; on a mipmapped
//! texture it would not be (the launch spec has none).

use crate::ir::Op;
use crate::ptx::ast::{Instruction, Operand as PtxOperand, OperandKind};
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::tex::shape;
use super::Cx;

impl Cx<'_> {
    /// `tex.level` (plain geometries, `dims` 1..=3) and `tex.grad`
    /// (`dims` 1..=2, `layered` for .a1d/.a2d); module docs.
    pub fn lower_tex_lod(&mut self, i: &Instruction, dims: u32, layered: bool) -> R {
        let mut grad = i.has(Mod::Grad);
        if self.ty(i)? != ScalarType::F32 {
            return if grad {
                self.err(
                    "tex.grad with .s32 coordinates is not lowered: ptxas 11.8 passes the \
                     integer bits unconverted to TXD, a sampled-coordinate fetch, so its result \
                     is not the PTX one",
                )
            } else {
                self.err(super::tex_array::LEVEL_S32)
            };
        }
        if grad && dims == 3 {
            // DECISION (module docs): TEX.LL at level -32.0, the gradients
            // checked but not used.
            self.grad_vector(i, 2, 3)?;
            self.grad_vector(i, 3, 3)?;
            grad = false;
        }
        let (handle, cs) = self.tex_address(i)?;
        let ncs = dims as usize + usize::from(layered);
        if cs.len() < ncs {
            return self.err("too few texture coordinates");
        }
        // The SASS shape's dimension count: 1D is fetched as 2D at y = 0.
        let sdims = if layered { dims } else { dims.max(2) };
        let coord_ops = &cs[usize::from(layered)..ncs];
        // Values [coords (sdims), index?] and the second group.
        let slot = self.slot_form(handle);
        let (ra_n, rb_n) = if grad {
            (sdims + u32::from(layered), 2 * sdims)
        } else if slot {
            (2, sdims + 1 - 2)
        } else {
            (sdims, 1)
        };
        let ra = self.b.valigned(ra_n.next_power_of_two());
        let rb = self.b.valigned(rb_n.next_power_of_two());
        let at = |k: u32| if k < ra_n { ra + k } else { rb + k - ra_n };
        for k in 0..sdims {
            let x = match coord_ops.get(k as usize) {
                Some(c) => self.src32(c, ScalarType::F32)?,
                None => rz(),
            };
            self.mov(at(k), x)?;
        }
        if grad {
            if layered {
                self.array_index_into(&cs[0], ra + sdims)?;
            }
            let dx = self.grad_vector(i, 2, dims)?;
            let dy = self.grad_vector(i, 3, dims)?;
            for k in 0..sdims {
                for (j, g) in [&dx, &dy].into_iter().enumerate() {
                    let x = match g.get(k as usize) {
                        Some(c) => self.src32(c, ScalarType::F32)?,
                        None => rz(),
                    };
                    self.mov(rb + 2 * k + j as u32, x)?;
                }
            }
        } else if !i.has(Mod::Level) {
            // A plain sampled fetch with a residency predicate (tex.rs), or
            // tex.grad.3d (module docs).
            self.mov(at(sdims), imm32(super::tex_array::LOD_MINUS_32))?;
        } else {
            let Some(l) = i.operands.get(2) else {
                return self.err("tex.level without a level operand");
            };
            let l = self.src32(l, ScalarType::F32)?;
            self.mov(at(sdims), l)?;
        }
        let out = self.tex_dsts(i)?;
        let mut head = out.head();
        head.extend([r(ra), r(rb)]);
        let (op, mods): (Op, &[&'static str]) = if grad {
            (Op::TXD, &[])
        } else {
            (Op::TEX, &["LL"])
        };
        let shape = if layered {
            crate::ir::Operand::TexShape(format!("ARRAY_{dims}D"))
        } else {
            shape(sdims)
        };
        self.emit_fetch(op, mods, !grad, head, handle, shape, out.mask)?;
        self.tex_moves(&out)
    }

    /// Gradient operand `k` (`{dPdx}` / `{dPdy}`): a vector of at least
    /// `dims` elements.
    fn grad_vector<'i>(&mut self, i: &'i Instruction, k: usize, dims: u32) -> R<&'i [PtxOperand]> {
        match i.operands.get(k).map(|o| &o.kind) {
            Some(OperandKind::Vector(v)) if v.len() >= dims as usize => Ok(v),
            _ => self.err(format!(
                "tex.grad needs two gradient vectors of {dims} element(s) after the address"
            )),
        }
    }
}
