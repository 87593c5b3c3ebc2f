//! Array texture fetches: `tex.a1d`, `tex.a2d` (also `tex.level`) and
//! `tld4.a2d` (PTX ISA 9.7.10.3 `tex`, 9.7.10.4 `tld4`), with the texture
//! sources of tex.rs (parameter slot, uniform handle, handle loop, sm_70
//! general-register handle).
//!
//! The vendor sequence (ptxas 11.8, every target sm_70..sm_90,
//! oracle/tests/tex_array_vendor/):
//! 1. the array index (the coordinate vector's first element, a `.u32`
//!    whatever `.ctype` says) is clamped to 0xffff:
//!    `ISETP.GT.U32.AND P0, PT, R0, 0xffff, PT` + `SEL R4, R4, 0xffff, !P0`
//!    (tex_array.sm_XX.O3);
//! 2. `.s32` coordinates fetch with `TLD.LZ`, `.f32` ones with `TEX.LL` at
//!    level of detail -32.0 (`MOV R6, 0xc2000000`; `tex.level` passes its
//!    own level: `TEX.SCR.LL R6, R4, R4, R10`, level_grad.sm_80), `tld4`
//!    with `TLD4.C`; the shape operand is `ARRAY_1D` / `ARRAY_2D`, and a
//!    four-channel fetch prints no write mask (this compiler always prints
//!    it; the simulator reads both);
//! 3. the source values [index, coordinates..., level] go in two register
//!    groups: the slot forms (`.SCR`, sm_70..sm_89 parameter handles) put
//!    the first two in Ra and the rest in Rb (`TEX.SCR.LL R6, R4, R4, R6,
//!    0x0, 0x58, ARRAY_2D`: index R4, x R5, y R6, level R7;
//!    `TLD.SCR.LZ R6, R4, R4, R6, ..., ARRAY_2D` with y in R6); the handle
//!    forms put the index and the coordinates in Ra and the level in Rb
//!    (`TEX.LL R6, R4, R4, R7, UR4, 0x0, ARRAY_2D`, `TLD.LZ R6, R4, R4,
//!    UR4, 0x0, ARRAY_2D`, tex_array.sm_90; `TEX.LL R14, R12, R8, R5, UR6,
//!    0x0, ARRAY_2D` in ptxas's handle loop, divergent_handle.sm_90). Ra
//!    and Rb are aligned groups (`ir::regs::alignment`: three registers at
//!    a multiple of 4).
//!
//! `tex.grad` on arrays (`TXD`) is tex_lod.rs's; `tex.level` with `.s32`
//! coordinates is refused ([`LEVEL_S32`]: ptxas rejects it).
//! DECISION: a handle in a register uses tex.rs's handle loop (sm_75+) and
//! sm_70 general-register form, not ptxas's bindless `TEX.B` (`TEX.B.LL
//! R10, R6, R4, R8, ARRAY_2D`, Rb = handle + level, divergent_handle.sm_70
//! and .sm_80), so that every array fetch takes the same texture paths as
//! the plain ones.

use crate::ir::{Op, Operand};
use crate::ptx::ast::Instruction;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::tex::tld4_comp;
use super::Cx;

/// ptxas's level of detail for an array `tex` without `.level`: -32.0.
pub(super) const LOD_MINUS_32: u32 = 0xc200_0000;

/// The largest array index the fetch sees (ptxas's clamp).
const MAX_INDEX: i64 = 0xffff;

impl Cx<'_> {
    pub fn lower_tex_array(&mut self, i: &Instruction) -> R {
        let tld4 = i.opcode == Opcode::Tld4;
        let dims: u32 = if i.has(Mod::A1d) { 1 } else { 2 };
        if i.has(Mod::Grad) {
            return self.lower_tex_lod(i, dims, true);
        }
        let float = self.ty(i)? == ScalarType::F32;
        if i.has(Mod::Level) && !float {
            return self.err(LEVEL_S32);
        }
        let (handle, cs) = self.tex_address(i)?;
        if cs.len() < 1 + dims as usize {
            return self.err("too few texture coordinates (array index and coordinates)");
        }
        // The values, in order: index, coordinates, level (TEX only).
        let lod = if tld4 || !float {
            None
        } else if i.has(Mod::Level) {
            let Some(l) = i.operands.get(2) else {
                return self.err("tex.level without a level operand");
            };
            Some(self.src32(l, ScalarType::F32)?)
        } else {
            Some(imm32(LOD_MINUS_32))
        };
        let n = 1 + dims + u32::from(lod.is_some());
        let slot = self.slot_form(handle);
        // Slot forms: two values in Ra (the index and x); handle forms:
        // the index and the coordinates.
        let ra_n = if slot { 2 } else { 1 + dims };
        let rb_n = n - ra_n;
        let ra = self.b.valigned(ra_n.next_power_of_two());
        let rb = (rb_n > 0).then(|| self.b.valigned(rb_n.next_power_of_two()));
        let at = |k: u32| {
            if k < ra_n {
                ra + k
            } else {
                rb.unwrap_or(0) + k - ra_n
            }
        };
        self.array_index_into(&cs[0], at(0))?;
        for k in 0..dims {
            let x = self.src32(&cs[1 + k as usize], ScalarType::B32)?;
            self.mov(at(1 + k), x)?;
        }
        if let Some(l) = lod {
            self.mov(at(1 + dims), l)?;
        }
        let out = self.tex_dsts(i)?;
        let (op, mods): (Op, &[&'static str]) = if tld4 {
            (Op::TLD4, &[tld4_comp(i)])
        } else if float {
            (Op::TEX, &["LL"])
        } else {
            (Op::TLD, &["LZ"])
        };
        let shape = Operand::TexShape(format!("ARRAY_{dims}D"));
        let mut head = out.head();
        head.push(r(ra));
        head.extend(rb.map(r));
        self.emit_fetch(op, mods, true, head, handle, shape, out.mask)?;
        self.tex_moves(&out)
    }

    /// The array index `c` clamped to 0xffff (unsigned) into register `d`:
    /// `ISETP.GT.U32.AND P0, PT, R0, 0xffff, PT` + `SEL R4, R4, 0xffff,
    /// !P0` (module docs, step 1).
    pub(super) fn array_index_into(&mut self, c: &crate::ptx::ast::Operand, d: u32) -> R {
        let index = self.src32(c, ScalarType::B32)?;
        let index = self.in_reg(index)?;
        let big = self.b.vpred();
        self.b.emit(
            Op::ISETP,
            &["GT", "U32", "AND"],
            [p(big), pt(), index.clone(), imm(MAX_INDEX), pt()],
        )?;
        self.b
            .emit(Op::SEL, &[], [r(d), index, imm(MAX_INDEX), pnot(big)])
    }
}

/// ptxas 11.8 rejects `tex.level` with `.s32` coordinates ("Arguments
/// mismatch for instruction 'tex.level'").
pub(super) const LEVEL_S32: &str =
    "tex.level with .s32 coordinates is not valid PTX for ptxas 11.8 (\"Arguments mismatch for \
     instruction 'tex.level'\"): the level of detail is for sampled (.f32) coordinates";
