//! `istypep`, and the `txq` / `suq` fields that ptxas 11.8 reads from the
//! driver's texture and surface information tables (PTX ISA 9.7.10.5
//! `txq`, 9.7.11.4 `suq`, 9.7.10.6 `istypep`).
//!
//! # istypep
//! ptxas 11.8 (sm_70..sm_90, `istypep.{texref,samplerref,surfref} p, h`)
//! tests one bit of the handle's high word: `.texref` bit 61 of the
//! handle (`ULOP3.LUT UR5, UR5, UR7(hi), URZ, 0xc0` with `UR5 =
//! 0x20000000`, then `UISETP.NE.U32.AND.EX UP0, UPT, UR5, 0x20000000,
//! UPT, !UPT`, whose negation is the answer), `.samplerref` bit 62
//! (`0x40000000`), `.surfref` bit 63 (`0x80000000`). Lowered as `LOP3.LUT
//! t, hi, MASK, RZ, 0xc0, !PT` + `ISETP.EQ.U32.AND p, PT, t, MASK, PT`
//! (the same test in the positive sense). The launch's handles follow that
//! rule (oracle `launch::TEXTURE_HANDLE_BASE`, `SURFACE_HANDLE_BASE`).
//!
//! # The information tables
//! The fields no TXQ mode answers are loads from a table the driver
//! builds: one row per resource, found through a 64-bit pointer in
//! constant bank 0 (the SM table's `CbankLayout::tex_info` /
//! `surf_info`: `c[0x0][0x70]` / `c[0x0][0x80]`, sm_90 `c[0x0][0xf0]` /
//! `c[0x0][0x100]`). ptxas 11.8, `txq.channel_data_type.b32 %r3, [%rd1]`
//! with `%rd1` a parameter, sm_70:
//!
//! ```text
//! IMAD.MOV.U32 R0, RZ, RZ, c[0x0][0x160] ;
//! MOV R3, 0x0 ;                               // R_CUDA_ABS32_32 .nv.unified.texrefDescSize
//! LOP3.LUT R0, R0, 0xfffff, RZ, 0xc0, !PT ;
//! IMAD R3, R0, R3, 0x20 ;
//! IADD3 R2, P0, R3, c[0x0][0x70], RZ ;
//! IMAD.X R3, RZ, RZ, c[0x0][0x74], P0 ;
//! LDG.E.CONSTANT.SYS R5, [R2] ;
//! ```
//!
//! The row index is the handle's low word masked with `0xfffff`; sm_90
//! uses the whole low word (`ULDC UR6, c[0x0][0x210]` + `UIMAD UR6, UR4,
//! UR6, 0x20`, no mask). The row size is a load-time relocation
//! (`R_CUDA_ABS32_32` against `.nv.unified.texrefDescSize`, surfaces
//! `.nv.surfrefDescSize`, in `.rel.text`; the immediate is 0 before
//! relocation). DECISION (our relocation): the driver's row sizes are not
//! known, so this project defines them, `TEX_INFO_ROW` and
//! `SURF_INFO_ROW` (`targets::abi::resinfo`, with the field offsets); the lowering writes them as the immediate, the
//! simulator resolves the two symbols to them in vendor listings
//! (oracle `sim::reloc`) and builds the tables with them (oracle
//! `sim::resinfo`). The field offsets, measured for every field on sm_70,
//! 75, 80, 86, 89 and 90, are `TEX_INFO_FIELDS` and
//! `SURF_INFO_FIELDS`; the values in the rows are the PTX interpreter's
//! answers (oracle `semantics::texture::txq`), so both runners agree by
//! construction.
//!
//! Which fields use the table (ptxas 11.8): `txq` `.width/.height/.depth`
//! only on sm_90 (below it TXQ `TEX_HEADER_DIMENSION`, tex.rs), every
//! other `txq` field on every target; `suq` `.depth` and the format fields
//! on every target, `.width/.height` only on sm_90.
//!
//! `txq.force_unnormalized_coords`: ptxas 11.8 reads word 0 of the
//! texture's row on every target (sm_80: `UIMAD UR6, UR4, UR5, URZ` with
//! no field offset, then `LDG.E.CONSTANT R5, [R4.64]`), the word where
//! sm_90 reads `txq.width`: on sm_90 one `LDG.E.CONSTANT R3, [R2.64]`
//! serves both queries of the same texture. The interpreter's answer for a
//! unified-mode texture is 0. DECISION: below sm_90, where no width is
//! read from the table (TXQ), the rows this project builds hold that
//! answer in word 0 (`rows_hold_force_unnormalized`), and the query
//! lowers to ptxas's load; on sm_90 no content serves both, so it is
//! refused there.
//!
//! Refused: `txq.force_unnormalized_coords` on sm_90 (above),
//! `suq.memory_layout` (offset 0x14; the launch spec does not say whether
//! a surface's memory is linear, and the interpreter refuses it too).

use crate::ir::Op;
use crate::ptx::ast::{Instruction, OperandKind};
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::handle::Handle;
use super::Cx;
use crate::targets::abi::resinfo::{rows_hold_force_unnormalized, Table, FORCE_UNNORMALIZED_AT};

/// The query field of a `txq`/`suq` instruction (its Query modifier).
fn query_field(i: &Instruction) -> Option<Mod> {
    i.mods
        .iter()
        .find(|m| m.cat() == crate::ptx::modifiers::ModCat::Query)
}

impl Cx<'_> {
    /// `istypep.{texref,samplerref,surfref} p, h` (module docs).
    pub fn lower_istypep(&mut self, i: &Instruction) -> R {
        let mask: u32 = if i.has(Mod::Texref) {
            0x2000_0000
        } else if i.has(Mod::Samplerref) {
            0x4000_0000
        } else if i.has(Mod::Surfref) {
            0x8000_0000
        } else {
            return self.err("istypep without .texref/.samplerref/.surfref");
        };
        let d = self.dst_pred(&i.operands[0])?;
        let (_, hi) = self.src64(&i.operands[1], ScalarType::U64)?;
        let hi = self.in_reg(hi)?;
        let t = self.b.vreg();
        self.b.emit(
            Op::LOP3,
            &["LUT"],
            [r(t), hi, imm32(mask), rz(), imm(0xc0), npt()],
        )?;
        self.b.emit(
            Op::ISETP,
            &["EQ", "U32", "AND"],
            [p(d), pt(), r(t), imm32(mask), pt()],
        )
    }

    /// Whether `txq`/`suq` `i` reads the information table on this target
    /// (module docs), and at which offset; `Ok(None)`: a TXQ dimension
    /// query (tex.rs).
    pub fn info_field(&self, i: &Instruction, table: Table) -> R<Option<u32>> {
        let Some(q) = query_field(i) else {
            return self.err(format!("{} without a query field", i.opcode.name()));
        };
        let txq_dimension = matches!(q, Mod::Width | Mod::Height | Mod::Depth);
        let suq_dimension = matches!(q, Mod::Width | Mod::Height);
        let dimension = match table {
            Table::Texture => txq_dimension,
            Table::Surface => suq_dimension,
        };
        if dimension && self.sm.sm < 90 {
            return Ok(None);
        }
        if q == Mod::ForceUnnormalizedCoords {
            if rows_hold_force_unnormalized(self.sm.sm) {
                return Ok(Some(FORCE_UNNORMALIZED_AT));
            }
            return self.err(
                "txq.force_unnormalized_coords is not lowered on sm_90: ptxas 11.8 reads word 0 \
                 of the texture's information row, the word txq.width reads there (one load \
                 serves both), but a unified-mode texture's answer is 0 (the PTX \
                 interpreter's); no table content serves both",
            );
        }
        if q == Mod::MemoryLayout {
            return self.err(
                "suq.memory_layout is not lowered: the launch spec does not say whether a \
                 surface's memory is linear (the PTX interpreter refuses it too)",
            );
        }
        match table.fields().iter().find(|&&(name, _)| name == q.text()) {
            Some(&(_, off)) => Ok(Some(off)),
            None => self.err(format!(
                "{}.{} is not a field of the {} information table",
                i.opcode.name(),
                q.text(),
                match table {
                    Table::Texture => "texture",
                    Table::Surface => "surface",
                }
            )),
        }
    }

    /// `d = table[row(h)].field` (module docs): ptxas's sequence with the
    /// row size as the immediate.
    pub fn lower_info_query(&mut self, i: &Instruction, table: Table, off: u32) -> R {
        let OperandKind::Addr(a) = &i.operands[1].kind else {
            return self.err(format!("{} without a [handle] operand", i.opcode.name()));
        };
        if !a.rest.is_empty() || a.offset != 0 {
            return self.err(format!("{} operand is not [handle]", i.opcode.name()));
        }
        let handle = self.tex_handle(a.base)?;
        let d = self.dst32(&i.operands[0])?;
        let cb = self.cb;
        let ptr = match table {
            Table::Texture => cb.tex_info,
            Table::Surface => cb.surf_info,
        };
        let lo = match handle {
            Handle::Param(o) => self.in_reg(cbank(0, o))?,
            Handle::Reg(v) => r(v),
        };
        let idx = self.b.vreg();
        if self.sm.sm < 90 {
            self.b.emit(
                Op::LOP3,
                &["LUT"],
                [r(idx), lo, imm(0xfffff), rz(), imm(0xc0), npt()],
            )?;
        } else {
            self.mov(idx, lo)?;
        }
        let row = self.b.vreg();
        self.b.emit(Op::MOV, &[], [r(row), imm32(table.row())])?;
        let o = self.b.vreg();
        self.b
            .emit(Op::IMAD, &[], [r(o), r(idx), r(row), imm32(off)])?;
        let at = self.b.vpair();
        self.add64(at, (r(o), rz()), (cbank(0, ptr), cbank(0, ptr + 4)), false)?;
        let mut mods = vec!["E", "CONSTANT"];
        if self.sm.sm < 80 {
            mods.push("SYS");
        }
        let t = self.b.vreg();
        self.b.emit(
            Op::LDG,
            &mods,
            [
                r(t),
                mem(crate::ir::sass_text::Reg::V(at), self.sm.sm >= 80, 0),
            ],
        )?;
        self.mov(d, r(t))
    }
}
