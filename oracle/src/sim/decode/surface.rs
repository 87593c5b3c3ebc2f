//! Surface accesses (`SULD`, `SUST`, `SURED`) into a [`SurfInst`]: the
//! operation, geometry, access size and out-of-bounds mode from the
//! modifiers, and the operands by the role their shape names. The
//! operands' and modifiers' meanings are in `exec/surf.rs`, beside the
//! handler.

use ptxc::ir::sass_text::Reg;
use ptxc::ir::{Inst, Op, Operand};

use super::super::exec::surf::{SurfInst, SurfOp};
use super::super::program::{Dst, Src, TexRef};
use super::operands::{DResult, Dec, Roles};
use crate::ptx_interp::semantics::surface::{self as rules, Oob, RedOp};

fn has(i: &Inst, m: &str) -> bool {
    i.has_mod(m)
}

/// Decodes a surface instruction, its operands by the roles of its shape
/// (`R:d = M:coords S:surf [I:slot]`, `= M:coords R:data S:surf [I:slot]`).
pub fn decode(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<SurfInst> {
    let formatted = has(i, "P");
    if formatted && i.op != Op::SUST {
        return Err("of the formatted (.P) surface accesses only SUST.P is modelled".into());
    }
    if !formatted && !has(i, "BA") {
        return Err("only byte-addressed (.D.BA) and SUST.P surface accesses are modelled".into());
    }
    let (dims, layered) = if has(i, "3D") {
        (3, false)
    } else if has(i, "2D") {
        (2, false)
    } else if has(i, "1D") {
        (1, false)
    } else if has(i, "2D_ARRAY") && i.op != Op::SURED {
        (2, true)
    } else if has(i, "1D_ARRAY") && i.op != Op::SURED {
        (1, true)
    } else {
        return Err(
            "surface geometry other than 1D/2D/3D/1D_ARRAY/2D_ARRAY is not modelled".into(),
        );
    };
    let oob = if has(i, "TRAP") {
        Oob::Trap
    } else if has(i, "IGN") {
        Oob::Zero
    } else {
        Oob::Clamp
    };
    let op = match i.op {
        Op::SULD => SurfOp::Load,
        Op::SUST => SurfOp::Store,
        Op::SURED => {
            let bits = if has(i, "U64") { 64 } else { 32 };
            let signed = has(i, "S32");
            let r = if has(i, "ADD") {
                RedOp::Add
            } else if has(i, "MIN") {
                RedOp::Min
            } else if has(i, "MAX") {
                RedOp::Max
            } else if has(i, "AND") {
                RedOp::And
            } else if has(i, "OR") {
                RedOp::Or
            } else {
                return Err("SURED operation is not modelled".into());
            };
            if !rules::red_defined(r, bits, signed) {
                return Err("SURED operation on this type is not modelled".into());
            }
            SurfOp::Red(r, bits, signed)
        }
        _ => return Err("not a surface access".into()),
    };
    let size: u8 = match op {
        _ if formatted && has(i, "R") => 4,
        _ if formatted && has(i, "RG") => 8,
        _ if formatted => 16,
        SurfOp::Red(_, 64, _) => 8,
        SurfOp::Red(..) => 4,
        _ if has(i, "128") => 16,
        _ if has(i, "64") => 8,
        _ if has(i, "U16") => 2,
        _ if has(i, "U8") => 1,
        _ => 4,
    };
    let Some(Operand::Mem(m)) = r.get("coords") else {
        return Err("surface access without a [coordinates] operand".into());
    };
    if m.offset.unwrap_or(0) != 0 || m.index.is_some() || m.desc.is_some() {
        return Err("surface coordinates must be a plain [Rc]".into());
    }
    let coords = m.base.map_or(Src::Imm(0), |b| d.reg_src(b.reg));
    let data = match op {
        SurfOp::Load => Src::Imm(0),
        _ => d.plain(r.get("data").ok_or("no data operand")?)?,
    };
    // The surface: a slot (`0x0, 0x58`: the slot is the trailing
    // immediate), or a register holding the handle (`UR9, 0x0`, `R8`).
    let surf = match (r.get("surf"), r.get("slot")) {
        (Some(Operand::Imm(_)), Some(Operand::Imm(slot))) => TexRef::Slot(*slot as u32),
        (Some(Operand::Reg(h)), _) => match d.reg_src(h.reg) {
            Src::U(u) if matches!(h.reg, Reg::Ur(_) | Reg::Uv(_)) => TexRef::Handle(u),
            Src::R(x) => TexRef::Reg(x),
            _ => return Err("the surface handle register is RZ".into()),
        },
        _ => return Err("no surface operand (slot, or handle register)".into()),
    };
    let dst = match op {
        SurfOp::Load => d.dst(r.get("d").ok_or("SULD without a destination")?)?,
        _ => Dst::None,
    };
    Ok(SurfInst {
        op,
        d: dst,
        data,
        coords,
        dims,
        layered,
        size,
        formatted,
        oob,
        surf,
    })
}
