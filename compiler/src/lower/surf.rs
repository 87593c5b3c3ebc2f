//! Surface instructions with surface objects (PTX ISA 9.7.11): `suld.b`,
//! `sust.b`, `sust.p`, `sured.b` on 1d/2d/3d surfaces, and `suq`.
//!
//! Spellings measured with ptxas 11.8 (`-O3`, and `-O0` for sm_86/sm_89),
//! kept in oracle/tests/surf_vendor/ (`surf_ld`, `surf_st`, `surf_red`,
//! `surf_handle`, `surf_copy` listings):
//!
//! | PTX | SASS |
//! |---|---|
//! | `suld.b.2d.v2.b32.trap d, [h, {x, y}]` | `SULD.D.BA.2D.64.STRONG.SM.TRAP Rd, [Rc], 0x0, 0x58` |
//! | `sust.b.3d.v4.b32.zero [h, {x, y, z, _}], c` | `SUST.D.BA.3D.128.STRONG.SM.IGN [Rc], Rs, 0x0, 0x58` |
//! | `sured.b.min.2d.s32.clamp [h, {x, y}], c` | `SURED.D.BA.2D.MIN.S32.STRONG.SYS [Rc], Rs, 0x0, 0x58` |
//! | `suq.width.b32 d, [h]` | `TXQ RZ, Rd, Rlod, TEX_HEADER_DIMENSION, 0x0, 0x58, 0x1` (tex.rs `lower_txq`) |
//!
//! - Size: the access's bytes (element size times vector length): 1 `.U8`,
//!   2 `.U16`, 4 nothing, 8 `.64`, 16 `.128`; more than 16 bytes
//!   (`.v4.b64`) is refused, as ptxas refuses it. Narrower vectors travel packed in one wide
//!   access (`suld.b.1d.v4.b8` is one 4-byte `SULD` + `PRMT 0x777k` per
//!   byte, surf_narrow.sm_80.sass), and a `.U8`/`.U16` result is
//!   masked too (ptxas: `LOP3.LUT R0, R3, 0xff, R8, 0x78` after `SULD.U8`,
//!   surf_copy.sm_80.sass), so the lowering never relies on the bits above.
//! - Out-of-bounds mode: `.trap` `.TRAP`, `.zero` `.IGN`, `.clamp` nothing;
//!   an instruction without one is refused (ptxas: "Clamp modifier
//!   required for instruction 'suld.b'").
//! - Order and scope: `SULD`/`SUST` `.STRONG.CTA` on sm_70/sm_75,
//!   `.STRONG.SM` from sm_80; `SURED` always `.STRONG.SYS`.
//! - `sured` operation: `.ADD` (u32), `.ADD.S32`, `.ADD.U64`, `.MIN`/`.MAX`
//!   (u32), `.MIN.S32`/`.MAX.S32`, `.AND`, `.OR` (all measured); 64-bit
//!   min/max are refused as ptxas refuses them ("Incorrect type '.u64' for
//!   operation '.max' in instruction 'sured.b'").
//! - Coordinates: consecutive registers, `x` (bytes) first, in an aligned
//!   group (a pair for 2d, four for 3d: `SULD.D.BA.3D.128 ... R4, [R4]`
//!   after `MOV R4, R2; MOV R5, R3; MOV R6, R3`, surf_ld.O0.sm_80.sass).
//! - Arrays (`.a1d`, `.a2d`; surf_array2.sm_XX.sass): geometry `.1D_ARRAY`
//!   / `.2D_ARRAY`, and the PTX coordinate vector `{index, x[, y]}` goes
//!   into the group as `[x, (y), index]`: `SULD.D.BA.1D_ARRAY.STRONG.SM.TRAP
//!   R0, [R8]` with R8 = x (`c[0x0][0x170]`), R9 = the index
//!   (`c[0x0][0x178]`); `SULD.D.BA.2D_ARRAY.64.STRONG.SM.IGN R2, [R12]` with
//!   R12 = x, R13 = y, R14 = the index. The index is passed as it is (no
//!   clamp, unlike the texture arrays of tex_array.rs). `sured.b` has no
//!   array geometry (PTX ISA 9.7.11.3; ptxas 11.8: "Illegal modifier '.a1d'
//!   for instruction 'sured.b'", surf_vendor/ptxas_refusals.txt): refused.
//! - Handle (handle.rs): slot form `0x0, slot` for a kernel parameter below
//!   sm_90, `ULDC UR, c[0x0][param]` + `UR, 0x0` on sm_90; another register's
//!   low word names the surface directly below sm_90 (`[R7], R8`); on
//!   sm_90 ptxas loops over the distinct handles (`R2UR P0, UR6, R5` ...
//!   `BRA.U.ANY`, surf_handle.sm_90.sass): here the loop of tex.rs (R2UR,
//!   ISETP.NE, the access for the matching lanes, branch back) —
//!   DECISION, the same semantics.
//!
//! - `sust.p` (formatted; oracle/tests/surfp_vendor/sust_p.sm_XX.sass):
//!   `SUST.P.2D.STRONG.SM.RG.TRAP [Rc], Rs, 0x0, 0x58` — no `.D.BA`, no
//!   size; the component mask by the vector's length, `.R` (scalar), `.RG`
//!   (`.v2`), none (`.v4`), printed after the scope; the words in an
//!   aligned group as for `.b32`; the coordinates as for `.b` (x is a
//!   sample index: the hardware scales it by the surface's format, the
//!   interpreter's rule in oracle/src/ptx_interp/semantics/surface_format.rs).
//!   Only `.b32` (ptxas 11.8: "Unexpected instruction types specified for
//!   'sust.p'"). ptxas refuses a kernel parameter's name as the handle
//!   ("Argument 0 of instruction 'sust.p': .surfref or .u64 register
//!   expected") but emits the slot form for a register loaded from it:
//!   DECISION, the name lowers as that register would.
//!
//! Refused with a message naming the instruction: `suld.p` (not in the
//! PTX ISA; ptxas: "Not a name of any known instruction"), `sured.p`
//! (ptxas emits `SURED.D` without `.BA`, but the interpreter does not
//! execute it: its operand type follows the sample format), accesses over
//! 16 bytes (ptxas: "Vector type too large, exceeds 128 bit limit"),
//! `sured.b` on arrays (ptxas refuses them), `suq.memory_layout`
//! (resinfo.rs). `suq.depth`, the
//! format fields and (sm_90) every field read the driver's surface
//! information table, `LDG.E.CONSTANT` from `c[0x0][0x80]`/`c[0x0][0x100]`
//! as in ptxas 11.8 (resinfo.rs).

use crate::ir::sass_text::Reg;
use crate::ir::{Op, Operand};
use crate::ptx::ast::{Instruction, OperandKind};
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::builder::*;
use super::handle::Handle;
use super::regs::Val;
use super::Cx;

/// The SASS size modifier of an access of `bytes` bytes (None: 32-bit).
fn size_mod(bytes: u32) -> Option<&'static str> {
    match bytes {
        1 => Some("U8"),
        2 => Some("U16"),
        8 => Some("64"),
        16 => Some("128"),
        _ => None,
    }
}

/// The `sured` operation and type modifiers.
fn red_mods(op: Mod, ty: ScalarType) -> Option<&'static [&'static str]> {
    use ScalarType::*;
    Some(match (op, ty) {
        (Mod::Add, U32) => &["ADD"],
        (Mod::Add, S32) => &["ADD", "S32"],
        (Mod::Add, U64) => &["ADD", "U64"],
        (Mod::Min, U32) => &["MIN"],
        (Mod::Min, S32) => &["MIN", "S32"],
        (Mod::Max, U32) => &["MAX"],
        (Mod::Max, S32) => &["MAX", "S32"],
        (Mod::And, B32) => &["AND"],
        (Mod::Or, B32) => &["OR"],
        _ => return None,
    })
}

/// One data element: its registers (one, or a pair for 64-bit), or an
/// immediate / sink.
enum Elem {
    Sink,
    Op(Operand),
    Pair(Operand, Operand),
}

impl Cx<'_> {
    /// `suld.b`, `sust.b`, `sured.b`.
    pub fn lower_surf(&mut self, i: &Instruction) -> R {
        let op = i.opcode.name();
        let formatted = i.has(Mod::P);
        match i.opcode {
            Opcode::Suld if formatted => {
                return self.err(
                    "suld.p is not in the PTX ISA (9.7.11.1 defines suld.b only; ptxas 11.8: \
                     \"Not a name of any known instruction: 'suld.p'\")",
                )
            }
            Opcode::Sured if formatted => {
                return self.err(
                    "sured.p is not lowered (its operand type follows the surface's sample \
                     format, which the PTX interpreter does not execute)",
                )
            }
            _ => {}
        }
        let (dims, layered): (u32, bool) = if i.has(Mod::D1) {
            (1, false)
        } else if i.has(Mod::D2) {
            (2, false)
        } else if i.has(Mod::D3) {
            (3, false)
        } else if i.has(Mod::A1d) {
            (1, true)
        } else if i.has(Mod::A2d) {
            (2, true)
        } else {
            return self.err(format!(
                "{op}: not a surface geometry (.1d .2d .3d .a1d .a2d)"
            ));
        };
        if layered && i.opcode == Opcode::Sured {
            return self.err(
                "sured.b has no array geometry (PTX ISA 9.7.11.3: .geom = { .1d, .2d, .3d }; \
                 ptxas 11.8: \"Illegal modifier '.a1d' for instruction 'sured.b'\")",
            );
        }
        let geom = match (dims, layered) {
            (1, true) => "1D_ARRAY",
            (_, true) => "2D_ARRAY",
            (d, _) => ["1D", "2D", "3D"][d as usize - 1],
        };
        let mode = if i.has(Mod::Trap) {
            Some("TRAP")
        } else if i.has(Mod::Zero) {
            Some("IGN")
        } else if i.has(Mod::Clamp) {
            None
        } else {
            return self.err(format!(
                "{op} without a .trap/.clamp/.zero mode (ptxas 11.8 requires one)"
            ));
        };
        let ty = self.ty(i)?;
        let (addr_k, data_k) = if i.opcode == Opcode::Suld {
            (1, 0)
        } else {
            (0, 1)
        };
        let handle = self.resource_handle(i, addr_k)?;
        let OperandKind::Addr(a) = &i.operands[addr_k].kind else {
            return self.err(format!("{op}: no [handle, coordinates] operand"));
        };
        let coords: Vec<_> = match a.rest.first().map(|o| &o.kind) {
            Some(OperandKind::Vector(v)) => v.iter().collect(),
            Some(_) => a.rest.iter().take(1).collect(),
            None => return self.err(format!("{op}: no coordinates")),
        };
        // PTX lists the array index first, SASS last (module docs).
        let n_c = dims + u32::from(layered);
        if coords.len() < n_c as usize {
            return self.err(format!("{op}: too few coordinates for the geometry"));
        }
        let c = self.b.valigned(n_c.next_power_of_two());
        for (k, e) in coords.iter().take(n_c as usize).enumerate() {
            let x = self.src32(e, ScalarType::B32)?;
            let at = match (layered, k as u32) {
                (true, 0) => dims,
                (true, k) => k - 1,
                (false, k) => k,
            };
            self.mov(c + at, x)?;
        }
        // Data elements.
        let data_items = self.vector_items(&i.operands[data_k]);
        let data_ops: Vec<_> = data_items.iter().collect();
        let n = data_ops.len() as u32;
        if formatted {
            return self.lower_sust_p(&data_ops, ty, geom, mode, handle, c);
        }
        let es = (ty.bits() / 8).max(1);
        let bytes = es * n;
        if i.opcode == Opcode::Sured && n != 1 {
            return self.err("sured takes one value, not a vector");
        }
        if !matches!(es, 1 | 2 | 4 | 8) || !matches!(n, 1 | 2 | 4) {
            return self.err(format!(
                "{op}: .{} x {n} is not a surface access",
                ty.name()
            ));
        }
        if bytes > 16 {
            return self.err(format!(
                "{op}: a {bytes}-byte access is not lowered (SASS surface accesses move at most 16 bytes; \
                 ptxas 11.8 refuses it: \"Vector type too large, exceeds 128 bit limit\")"
            ));
        }
        let words = bytes.div_ceil(4);
        let group = self.b.valigned(words);
        let mut mods: Vec<&str> = vec!["D", "BA", geom];
        let scope = if self.sm.sm < 80 { "CTA" } else { "SM" };
        match i.opcode {
            Opcode::Sured => {
                let rop = [Mod::Add, Mod::Min, Mod::Max, Mod::And, Mod::Or]
                    .into_iter()
                    .find(|m| i.has(*m));
                let Some(rm) = rop.and_then(|m| red_mods(m, ty)) else {
                    return self.err(format!(
                        "sured.b: this operation on .{} is not lowered (ptxas 11.8 accepts add \
                         on .u32/.s32/.u64, min/max on .u32/.s32, and/or on .b32)",
                        ty.name()
                    ));
                };
                mods.extend_from_slice(rm);
                mods.extend(["STRONG", "SYS"]);
            }
            _ => {
                mods.extend(size_mod(bytes));
                mods.extend(["STRONG", scope]);
            }
        }
        mods.extend(mode);
        if i.opcode != Opcode::Suld {
            let elems = data_ops
                .iter()
                .map(|o| self.surf_elem(o, ty, false))
                .collect::<R<Vec<_>>>()?;
            self.pack(&elems, es, group)?;
            return self.surf_access(i.opcode, &mods, handle, None, c, group);
        }
        let elems = data_ops
            .iter()
            .map(|o| self.surf_elem(o, ty, true))
            .collect::<R<Vec<_>>>()?;
        self.surf_access(i.opcode, &mods, handle, Some(group), c, group)?;
        self.unpack(&elems, es, group)
    }

    /// `sust.p` (module docs): the source words in a register group, then
    /// `SUST.P` with the component mask of the vector's length.
    fn lower_sust_p(
        &mut self,
        data_ops: &[&crate::ptx::ast::Operand],
        ty: ScalarType,
        geom: &'static str,
        mode: Option<&'static str>,
        handle: Handle,
        coords: u32,
    ) -> R {
        if ty != ScalarType::B32 {
            return self.err(format!(
                "sust.p takes .b32 data, not .{} (PTX ISA 9.7.11.2: sust.p.geom.vec.b32.clamp; \
                 ptxas 11.8: \"Unexpected instruction types specified for 'sust.p'\")",
                ty.name()
            ));
        }
        let n = data_ops.len() as u32;
        let mask = match n {
            1 => Some("R"),
            2 => Some("RG"),
            4 => None,
            _ => return self.err("sust.p: the data is a scalar, .v2 or .v4"),
        };
        let elems = data_ops
            .iter()
            .map(|o| self.surf_elem(o, ty, false))
            .collect::<R<Vec<_>>>()?;
        let group = self.b.valigned(n);
        self.pack(&elems, 4, group)?;
        let scope = if self.sm.sm < 80 { "CTA" } else { "SM" };
        let mut mods = vec!["P", geom, "STRONG", scope];
        mods.extend(mask);
        mods.extend(mode);
        self.surf_access(Opcode::Sust, &mods, handle, None, coords, group)
    }

    /// A data element of type `ty`: a destination (`dst`) or a source.
    fn surf_elem(&mut self, o: &crate::ptx::ast::Operand, ty: ScalarType, dst: bool) -> R<Elem> {
        if matches!(o.kind, OperandKind::Sink) {
            return if dst {
                Ok(Elem::Sink)
            } else {
                self.err("a sink is not a surface store value")
            };
        }
        if dst {
            return match (self.dst_val(o)?.0, ty.bits()) {
                (Val::D(v), 64) => Ok(Elem::Pair(r(v), r(v + 1))),
                (Val::R(v), b) if b <= 32 => Ok(Elem::Op(r(v))),
                _ => self.err("suld destination register does not fit the data type"),
            };
        }
        if ty.bits() == 64 {
            let (lo, hi) = self.src64(o, ty)?;
            Ok(Elem::Pair(lo, hi))
        } else {
            Ok(Elem::Op(self.src32(o, ty)?))
        }
    }

    /// Packs source elements of `es` bytes into the words `group..`.
    fn pack(&mut self, elems: &[Elem], es: u32, group: u32) -> R {
        let one = |e: &Elem| match e {
            Elem::Op(x) => x.clone(),
            Elem::Pair(lo, _) => lo.clone(),
            Elem::Sink => rz(),
        };
        match es {
            8 => {
                for (k, e) in elems.iter().enumerate() {
                    let Elem::Pair(lo, hi) = e else {
                        return self.err("sust: a 64-bit value is not a register pair");
                    };
                    self.mov(group + 2 * k as u32, lo.clone())?;
                    self.mov(group + 2 * k as u32 + 1, hi.clone())?;
                }
            }
            4 => {
                for (k, e) in elems.iter().enumerate() {
                    self.mov(group + k as u32, one(e))?;
                }
            }
            _ if elems.len() == 1 => self.mov(group, one(&elems[0]))?,
            2 => {
                // Halves: PRMT d, a, 0x5410, b = (b.lo16 << 16) | a.lo16.
                for (w, pair) in elems.chunks(2).enumerate() {
                    let a = self.in_reg(one(&pair[0]))?;
                    let b = self.in_reg(one(&pair[1]))?;
                    self.b
                        .emit(Op::PRMT, &[], [r(group + w as u32), a, imm(0x5410), b])?;
                }
            }
            _ => {
                // Bytes: pairs with 0x7740 (a.b0, b.b0 in the low half),
                // then two pairs with 0x5410.
                let mut halves = Vec::new();
                for pair in elems.chunks(2) {
                    let a = self.in_reg(one(&pair[0]))?;
                    let b = self.in_reg(one(&pair[1]))?;
                    let h = self.b.vreg();
                    self.b.emit(Op::PRMT, &[], [r(h), a, imm(0x7740), b])?;
                    halves.push(h);
                }
                if halves.len() == 1 {
                    self.mov(group, r(halves[0]))?;
                } else {
                    self.b.emit(
                        Op::PRMT,
                        &[],
                        [r(group), r(halves[0]), imm(0x5410), r(halves[1])],
                    )?;
                }
            }
        }
        Ok(())
    }

    /// Moves the loaded words `group..` into the destination elements of
    /// `es` bytes; narrow elements are extracted zero-extended (`PRMT`
    /// with `RZ` above).
    fn unpack(&mut self, elems: &[Elem], es: u32, group: u32) -> R {
        for (k, e) in elems.iter().enumerate() {
            let k = k as u32;
            match (e, es) {
                (Elem::Sink, _) => {}
                (Elem::Pair(lo, hi), 8) => {
                    let (Operand::Reg(_), Operand::Reg(_)) = (lo, hi) else {
                        return self.err("internal: suld destination pair");
                    };
                    self.b.emit(Op::MOV, &[], [lo.clone(), r(group + 2 * k)])?;
                    self.b
                        .emit(Op::MOV, &[], [hi.clone(), r(group + 2 * k + 1)])?;
                }
                (Elem::Op(d), 4) => {
                    self.b.emit(Op::MOV, &[], [d.clone(), r(group + k)])?;
                }
                (Elem::Op(d), _) => {
                    let byte = k * es; // first byte of the element in the access
                    let w = group + byte / 4;
                    let b0 = i64::from(byte % 4);
                    let sel = if es == 2 {
                        0x7700 | ((b0 + 1) << 4) | b0
                    } else {
                        0x7770 | b0
                    };
                    self.b
                        .emit(Op::PRMT, &[], [d.clone(), r(w), imm(sel), rz()])?;
                }
                _ => return self.err("internal: suld element"),
            }
        }
        Ok(())
    }

    /// Emits the access in the handle's form; `dst` for `SULD`, the data
    /// `group` as the first source for `SUST`/`SURED`.
    fn surf_access(
        &mut self,
        opc: Opcode,
        mods: &[&str],
        handle: Handle,
        dst: Option<u32>,
        coords: u32,
        group: u32,
    ) -> R {
        let op = match opc {
            Opcode::Suld => Op::SULD,
            Opcode::Sust => Op::SUST,
            _ => Op::SURED,
        };
        let addr = mem(Reg::V(coords), false, 0);
        let operands = |h: Vec<Operand>| -> Vec<Operand> {
            let mut v = Vec::new();
            if let Some(d) = dst {
                v.push(r(d));
                v.push(addr.clone());
            } else {
                v.push(addr.clone());
                v.push(r(group));
            }
            v.extend(h);
            v
        };
        match handle {
            Handle::Param(off) if self.sm.sm < 90 => {
                self.b
                    .emit(op, mods, operands(vec![imm(0), imm(i64::from(off / 4))]))
            }
            Handle::Param(off) => {
                let u = self.b.uvreg();
                self.b
                    .emit(Op::ULDC, &[], [reg(Reg::Uv(u)), cbank(0, off)])?;
                self.b
                    .emit(op, mods, operands(vec![reg(Reg::Uv(u)), imm(0)]))
            }
            Handle::Reg(h) if self.sm.sm < 90 => self.b.emit(op, mods, operands(vec![r(h)])),
            Handle::Reg(h) => self.handle_loop(h, false, |cx, u, g| {
                cx.b.emit_g(Some(g), op, mods, operands(vec![u, imm(0)]))
            }),
        }
    }

    /// `suq.FIELD.b32 d, [h]`: below sm_90 `.width`/`.height` are the
    /// texture header's dimension query, as `txq` (tex.rs); the other
    /// fields, and all on sm_90, read the surface information table
    /// (resinfo.rs), as ptxas 11.8 does.
    pub fn lower_suq(&mut self, i: &Instruction) -> R {
        // The handle's form is checked (and .surfref refused) here.
        self.resource_handle(i, 1)?;
        self.lower_txq(i)
    }
}
