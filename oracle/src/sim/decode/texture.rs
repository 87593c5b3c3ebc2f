//! Texture decoders: TEX, TLD, TLD4, TXD, TXQ.

use ptxc::ir::{Inst, Op, Operand};

use super::super::program::{Kind, Src, TexInst, TexLod, TexOp, TexRef};
use super::modifiers::has;
use super::{DResult, Dec, Roles};

/// TXQ. The sources are read by position: the table does not model them
/// (`*`).
pub(super) fn txq(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let s = i.srcs();
    // ptxas 11.8, sm_70/sm_80 (`txq.width.b32 %r1, [%rd1]`):
    // `TXQ RZ, R3, R3, TEX_HEADER_DIMENSION, 0x0, 0x58, 0x1` when the
    // handle is kernel parameter c[0x0][0x160] (source: the level), and
    // `TXQ.B RZ, R5, R8, TEX_HEADER_DIMENSION, 0x1` for a handle in a
    // register (source pair: R8 the handle's low word, R9 the level).
    let q = s
        .iter()
        .position(|o| matches!(o, Operand::Special(n) if n.starts_with("TEX_")))
        .ok_or("TXQ without a query operand")?;
    let Operand::Special(query) = &s[q] else {
        unreachable!()
    };
    if query != "TEX_HEADER_DIMENSION" {
        return Err(format!("TXQ {query} is not modelled"));
    }
    let mask = d.imm(s.last().ok_or("TXQ without a mask")?)? as u8;
    let src = d.plain(&s[0])?;
    let (lod, tex) = if has(i, "B") {
        let Src::R(h) = src else {
            return Err("TXQ.B handle is not a general register".into());
        };
        (Src::R(h + 1), TexRef::Reg(h))
    } else {
        let slot = d.imm(s.get(q + 2).ok_or("TXQ without a slot")?)? as u32;
        (src, TexRef::Slot(slot))
    };
    Ok(Kind::Txq {
        d0: d.dst(r.req("d0")?)?,
        d1: d.dst(r.req("d1")?)?,
        lod,
        tex,
        mask,
    })
}

/// TEX, TLD, TLD4. The destinations by role; the sources by position, as
/// the table does not model them (`*`).
pub(super) fn tex(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let s = i.srcs();
    // `TLD.SCR.LZ RZ, R4, R4, 0x0, 0x58, 1D, 0x1` (slot form) and
    // `TLD.LZ RZ, R3, R3, UR4, 0x0, 1D, 0x1` (handle form). With `.LL`
    // (explicit level of detail) an f32 LOD follows the coordinates:
    // `TEX.SCR.LL RZ, R12, R12, R28, 0x0, 0x66, 2D, 0x3` and
    // `TEX.LL RZ, R18, R18, R26, UR4, 0x0, 2D, 0x3` (ptxas 11.8 for a
    // `tex.2d` under divergent control, LOD -32.0). A launch spec's texture
    // has one level, and the level of detail is clamped to the levels there
    // are, so every LOD reads level 0 (like `.LZ`); the filter is the
    // texture's only one.
    //
    // `.AOFFI` (texel offsets) on TLD: `TLD.SCR.LZ.AOFFI RZ, R8, R8, R23,
    // 0x0, 0x66, 2D, 0x3` with `R23 = 0xcc` for `tex.2d...s32` at
    // coordinates `(x - 4, y - 4)` (ptxas 11.8, sm_80, generator seed
    // 2003): the value after the coordinates packs one signed 4-bit
    // offset per dimension, x in bits 3:0, y in 7:4, z in 11:8, added to
    // the integer coordinates before the address mode.
    //
    // The source values are [array index (ARRAY_1D/ARRAY_2D)] + the
    // coordinates + [LOD or offsets], in two register groups Ra and Rb
    // (ptxas 11.8 on tex.a1d/a2d, tld4.a2d, tex.level.a2d and tex.3d,
    // oracle/tests/tex_array_vendor/):
    // * `.SCR` (slot) forms: Ra holds the first two values (at most the
    //   index and the coordinates: a 1D `.AOFFI` fetch, this compiler's
    //   texel-offset fold, has x in Ra and the offsets in Rb), Rb the rest:
    //   `TEX.SCR.LL R6, R4, R4, R10, 0x0, 0x58, ARRAY_2D` for
    //   tex.level.a2d with the index in R4, x in R5, y in R10 and the LOD
    //   in R11 (level_grad.sm_80); `TLD.SCR.LZ R6, R4, R4, R6, 0x0, 0x58,
    //   3D` (z in R6). With two values or fewer ptxas still prints an Rb
    //   (`TLD.SCR.LZ R6, R4, R4, R5, ..., ARRAY_1D`), and with exactly
    //   two values that Rb holds the second (`TLD.SCR.LZ P1, R22, R20, R7,
    //   R6, ..., 2D`: x = R7, y = R6, tex_resident_vendor; R5 above is
    //   Ra + 1, so both readings agree there).
    //   Without Rb (this compiler's plain forms) Ra holds every value.
    // * handle forms (`UR4`, or the compiler's sm_70 general register
    //   handle, the last register before the `0x0`): Ra holds the index
    //   and the coordinates, Rb the LOD: `TEX.LL R6, R4, R4, R7, UR4, 0x0,
    //   ARRAY_2D` (index, x, y in R4..R6, LOD R7) and `TLD.LZ R6, R4, R4,
    //   UR4, 0x0, ARRAY_2D` (tex_array.sm_90).
    // The write mask follows the shape; ptxas omits it when it is 0xf
    // (`..., ARRAY_2D ;` with four channels stored).
    let aoffi = has(i, "AOFFI");
    if has(i, "DC") || has(i, "MS") || has(i, "PTP") || has(i, "CL") {
        return Err("texture modifiers .DC/.MS/.PTP/.CL are not modelled".into());
    }
    if aoffi && (i.op != Op::TLD || has(i, "LL")) {
        return Err("texel offsets (.AOFFI) are modelled only on TLD without .LL".into());
    }
    let explicit_lod = has(i, "LL");
    if !(has(i, "LZ") || explicit_lod || i.op == Op::TLD4) {
        return Err(
            "only level-zero and explicit-level (.LZ, .LL) texture accesses are modelled".into(),
        );
    }
    let nonresident = d.opt_pdst(r.get("nonresident"))?;
    let (t, dims, layered) = tex_shape(s)?;
    let mask = match s.get(t + 1) {
        Some(o) => d.imm(o)? as u8,
        None => 0xf,
    };
    let n = u8::from(layered) + dims + u8::from(explicit_lod || aoffi);
    let nregs = s[..t]
        .iter()
        .position(|o| !matches!(o, Operand::Reg(_)))
        .unwrap_or(t);
    let regs = &s[..nregs];
    let ra = d.plain(
        regs.first()
            .ok_or("texture fetch without source registers")?,
    )?;
    let (rb, tex, ra_len) = if has(i, "SCR") {
        let rb = regs.get(1).map(|o| d.plain(o)).transpose()?;
        let slot = TexRef::Slot(d.imm(&s[t - 1])? as u32);
        let coords = u8::from(layered) + dims;
        // Two values in all: x (or the index) in Ra, the second in Rb
        // (`TLD.SCR.LZ P1, R22, R20, R7, R6, 0x0, 0x5a, 2D` with x = R7,
        // y = R6, tex_resident_vendor/resident.sm_80.O3.sass).
        let ra_len = match rb {
            None => n,
            Some(_) if n == 2 => 1,
            Some(_) => coords.min(2),
        };
        (rb, slot, ra_len)
    } else {
        if regs.len() < 2 || regs.len() > 3 {
            return Err("texture handle form needs Ra, [Rb,] and a handle register".into());
        }
        let tex = match d.plain(&regs[regs.len() - 1])? {
            Src::U(u) => TexRef::Handle(u),
            Src::R(r) => TexRef::Reg(r),
            _ => return Err("texture handle is not a register".into()),
        };
        let rb = if regs.len() == 3 {
            Some(d.plain(&regs[1])?)
        } else {
            None
        };
        let ra_len = if rb.is_some() {
            u8::from(layered) + dims
        } else {
            n
        };
        (rb, tex, ra_len)
    };
    let op = match i.op {
        Op::TLD => TexOp::Tld,
        Op::TEX => TexOp::Tex,
        _ => TexOp::Tld4 {
            comp: if has(i, "G") {
                1
            } else if has(i, "B") {
                2
            } else if has(i, "A") {
                3
            } else {
                0
            },
        },
    };
    Ok(Kind::Tex(TexInst {
        op,
        d0: d.dst(r.req("d0")?)?,
        d1: d.dst(r.req("d1")?)?,
        ra,
        rb,
        ra_len,
        tex,
        dims,
        layered,
        aoffi,
        lod: if explicit_lod {
            TexLod::Level
        } else {
            TexLod::Zero
        },
        mask,
        nonresident,
    }))
}

/// The texture shape operand's position, dimensions and layering
/// (`1D`, `2D`, `3D`, `ARRAY_1D`, `ARRAY_2D`).
fn tex_shape(s: &[Operand]) -> DResult<(usize, u8, bool)> {
    let t = s
        .iter()
        .position(|o| matches!(o, Operand::TexShape(_)))
        .ok_or("no texture shape operand")?;
    let Operand::TexShape(shape) = &s[t] else {
        unreachable!()
    };
    let (dims, layered) = match shape.as_str() {
        "1D" => (1, false),
        "2D" => (2, false),
        "3D" => (3, false),
        "ARRAY_1D" => (1, true),
        "ARRAY_2D" => (2, true),
        _ => return Err(format!("texture shape {shape} is not modelled")),
    };
    Ok((t, dims, layered))
}

/// TXD. The destinations by role; the sources by position, as the table
/// does not model them (`*`).
pub(super) fn txd(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let s = i.srcs();
    // `TXD` (explicit gradients; ptxas 11.8 for tex.grad.{1d,2d,a1d,a2d},
    // compiler/src/lower/tex_lod.rs, lod.sm_80/90): `TXD R26, R24, R20, R24, 0x0, 0x5a,
    // ARRAY_2D` (slot form, no `.SCR`: two source registers, then 0x0 and
    // the slot) and `TXD R30, R28, R20, R28, UR6, 0x0, ARRAY_2D` (handle
    // form: Ra, Rb and the handle; the compiler's sm_70 form names a
    // general register there). Ra holds the coordinates then the array
    // index (x, y, index for ARRAY_2D; x, index for ARRAY_1D), Rb the
    // gradients interleaved per dimension (dPdx.x, dPdy.x, dPdx.y,
    // dPdy.y). A PTX .1d fetch is a 2D TXD at y = 0.
    if i.mods.iter().any(|m| *m != "NODEP") {
        return Err("TXD modifiers other than .NODEP are not modelled".into());
    }
    let nonresident = d.opt_pdst(r.get("nonresident"))?;
    let (t, dims, layered) = tex_shape(s)?;
    if dims == 3 {
        return Err("a 3D TXD is not modelled".into());
    }
    let mask = match s.get(t + 1) {
        Some(o) => d.imm(o)? as u8,
        None => 0xf,
    };
    let nregs = s[..t]
        .iter()
        .position(|o| !matches!(o, Operand::Reg(_)))
        .unwrap_or(t);
    let ra = d.plain(&s[0])?;
    let rb = Some(d.plain(s.get(1).ok_or("TXD without its gradient group")?)?);
    let tex = match nregs {
        2 => TexRef::Slot(d.imm(&s[t - 1])? as u32),
        3 => match d.plain(&s[2])? {
            Src::U(u) => TexRef::Handle(u),
            Src::R(r) => TexRef::Reg(r),
            _ => return Err("texture handle is not a register".into()),
        },
        _ => return Err("TXD needs Ra, Rb and a slot or handle".into()),
    };
    Ok(Kind::Tex(TexInst {
        op: TexOp::Tex,
        d0: d.dst(r.req("d0")?)?,
        d1: d.dst(r.req("d1")?)?,
        ra,
        rb,
        ra_len: u8::from(layered) + dims,
        tex,
        dims,
        layered,
        aoffi: false,
        lod: TexLod::Grad,
        mask,
        nonresident,
    }))
}
