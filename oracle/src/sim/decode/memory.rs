//! Memory decoders: loads and stores of every space, LDC, the atomics
//! and reductions, QSPC.

use ptxc::ir::atom_reach::{generic_reach, reach_type_mod, shared_has, Reach};
use ptxc::ir::{Inst, Op, Operand};

use super::super::program::{Dst, Kind, Space, Src};
use super::modifiers::{has, mem_size};
use super::{DResult, Dec, Roles};
use crate::ptx_interp::semantics::atomic::{AtomOp, AtomTy};

/// LDG, LD, LDS, LDL.
pub(super) fn ld(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let space = match i.op {
        Op::LDG => Space::Global,
        Op::LDS => Space::Shared,
        Op::LDL => Space::Local,
        _ => Space::Generic,
    };
    let (size, signed) = mem_size(i);
    let Operand::Mem(m) = r.req("addr")? else {
        return Err("expected an address".into());
    };
    let wide = matches!(space, Space::Global | Space::Generic) && has(i, "E");
    Ok(Kind::Ld {
        space,
        d: d.dst(r.req("d")?)?,
        addr: d.addr(m, wide)?,
        size,
        signed,
    })
}

/// STG, ST, STS, STL.
pub(super) fn st(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let space = match i.op {
        Op::STG => Space::Global,
        Op::STS => Space::Shared,
        Op::STL => Space::Local,
        _ => Space::Generic,
    };
    let (size, _) = mem_size(i);
    let Operand::Mem(m) = r.req("addr")? else {
        return Err("expected an address".into());
    };
    let wide = matches!(space, Space::Global | Space::Generic) && has(i, "E");
    Ok(Kind::St {
        space,
        addr: d.addr(m, wide)?,
        v: d.plain(r.req("v")?)?,
        size,
    })
}

pub(super) fn ldc(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let (size, signed) = mem_size(i);
    if has(i, "IL") || has(i, "IS") || has(i, "ISL") {
        return Err("LDC index modes are not modelled".into());
    }
    let Operand::Const(c) = r.req("c")? else {
        return Err("LDC needs a constant operand".into());
    };
    Ok(Kind::Ldc {
        d: d.dst(r.req("d")?)?,
        bank: c.bank,
        reg: c.reg.map(|r| d.reg_src(r)),
        off: c.offset.unwrap_or(0),
        size,
        signed,
    })
}

/// `QSPC.E.{S,L,G} P, R, [a]`: the register result is not modelled
/// (ptxas 11.8 writes RZ in every form measured: isspacep, the generic
/// f16x2 atomics).
pub(super) fn qspc(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let space = [("S", b's'), ("L", b'l'), ("G", b'g')]
        .iter()
        .find(|(m, _)| has(i, m))
        .map(|x| x.1)
        .ok_or("QSPC without .S, .L or .G")?;
    if d.dst(r.req("r")?)? != Dst::None {
        return Err("QSPC with a register result is not modelled".into());
    }
    let Some(Operand::Mem(m)) = r.get("addr") else {
        return Err("QSPC needs an address".into());
    };
    Ok(Kind::Qspc {
        pd: d.pdst(r.req("pd")?)?,
        addr: d.addr(m, has(i, "E"))?,
        space,
    })
}

/// ATOM, ATOMG, ATOMS, RED, REDG.
pub(super) fn atom(d: &Dec<'_>, i: &Inst, r: &Roles<'_>) -> DResult<Kind> {
    let space = match i.op {
        Op::ATOMS => Space::Shared,
        Op::ATOMG | Op::REDG => Space::Global,
        _ => Space::Generic,
    };
    let popc = has(i, "POPC") && has(i, "INC");
    let op = if popc {
        AtomOp::Add
    } else {
        [
            ("ADD", AtomOp::Add),
            ("SAFEADD", AtomOp::Add),
            ("MIN", AtomOp::Min),
            ("MAX", AtomOp::Max),
            ("INC", AtomOp::Inc),
            ("DEC", AtomOp::Dec),
            ("AND", AtomOp::And),
            ("OR", AtomOp::Or),
            ("XOR", AtomOp::Xor),
            ("EXCH", AtomOp::Exch),
            ("CAS", AtomOp::Cas),
            ("CAST", AtomOp::Cas),
        ]
        .iter()
        .find(|(m, _)| has(i, m))
        .map(|x| x.1)
        .ok_or("no atomic operation modifier")?
    };
    // `CAST.SPIN` is modelled on its shared forms, the ones ptxas 11.8
    // emits in its spin loops (exec/mem.rs `atomic`; `.64` for the 64-bit
    // generic fallbacks, compiler/src/lower/atom_generic.rs).
    let spin = has(i, "CAST") && has(i, "SPIN");
    if (has(i, "CAST") || has(i, "SPIN")) && (!spin || space != Space::Shared) {
        return Err("ATOMS.CAST/.SPIN other than ATOMS.CAST.SPIN[.64] are not modelled".into());
    }
    // The spaces a generic ATOM/RED acts on, and the forms the shared
    // ATOMS lacks: the rules ptxc's lowering uses too
    // (compiler/src/ir/atom_reach.rs, measured on ptxas 11.8).
    let opname = i
        .mods
        .iter()
        .copied()
        .find(|m| {
            matches!(
                *m,
                "ADD" | "MIN" | "MAX" | "INC" | "DEC" | "AND" | "OR" | "XOR" | "EXCH" | "CAS"
            )
        })
        .unwrap_or("ADD");
    let tymod = reach_type_mod(i.mods.iter().copied());
    if space == Space::Shared && !popc && !spin && !shared_has(opname, tymod) {
        return Err(format!(
            "ATOMS.{opname}.{} does not exist (ptxas 11.8 writes an ATOMS.CAST.SPIN loop)",
            tymod.unwrap_or("")
        ));
    }
    let reach = if space == Space::Generic {
        generic_reach(opname, tymod)
    } else {
        Reach::All
    };
    let ty = if has(i, "F32") {
        AtomTy::F32
    } else if has(i, "F64") {
        AtomTy::F64
    } else if has(i, "F16x2") {
        AtomTy::F16x2
    } else if has(i, "BF16x2") {
        AtomTy::Bf16x2
    } else if has(i, "S64") {
        AtomTy::S64
    } else if has(i, "64") || has(i, "U64") {
        AtomTy::U64
    } else if has(i, "S32") {
        AtomTy::S32
    } else {
        AtomTy::U32
    };
    let dr = match r.get("d") {
        Some(x) => d.dst(x)?,
        None => Dst::None,
    };
    let pd = d.opt_pdst(r.get("pd"))?;
    let Operand::Mem(m) = r.req("addr")? else {
        return Err("expected an address".into());
    };
    let wide = space != Space::Shared && has(i, "E");
    Ok(Kind::Atom {
        space,
        op,
        popc,
        spin,
        reach,
        ty,
        ftz: has(i, "FTZ"),
        d: dr,
        pd,
        addr: d.addr(m, wide)?,
        b: r.get("b")
            .map(|x| d.plain(x))
            .transpose()?
            .unwrap_or(Src::Imm(0)),
        c: r.get("c")
            .map(|x| d.plain(x))
            .transpose()?
            .unwrap_or(Src::Imm(0)),
    })
}
