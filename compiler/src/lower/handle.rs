//! Where a texture or surface handle comes from (`[handle, ...]` operands
//! of `suld`/`sust`/`sured`/`suq`, surf.rs). ptxas 11.8 names a handle in
//! one of two ways: a kernel parameter that a register holds and nothing
//! else (written once, by `ld.param` of that parameter) is named by its
//! constant-bank slot (`SULD.D.BA.2D.STRONG.SM.TRAP R0, [R4], 0x0, 0x58`
//! for c[0x0][0x160] on sm_70..sm_89; `ULDC UR9, c[0x0][0x210]` + `..., UR9,
//! 0x0` on sm_90); any other register by its low word
//! (`SULD.D.BA.1D.STRONG.CTA.TRAP R0, [R7], R8`, surf_handle.sm_70.sass in
//! oracle/tests/surf_vendor/). A module `.texref`/`.surfref` is named by
//! its own word after the parameters, in the parameter forms (res_ref.rs).
//! Textures (tex.rs, tex_array.rs) name
//! their handles the same way and share this lookup and the handle loop.

use crate::ir::sass_text::{Guard, Reg};
use crate::ir::{Op, Operand};
use crate::ptx::ast::{AddrBase, Instruction, OperandKind};
use crate::ptx::intern::Sym;

use super::builder::*;

use super::regs::{Binding, Val};
use super::Cx;

/// A handle operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handle {
    /// Constant bank 0 byte offset of the kernel parameter holding it.
    Param(u32),
    /// The low register of the 64-bit register pair holding it.
    Reg(u32),
}

impl Cx<'_> {
    /// The handle of the address operand `i.operands[k]` (`[name, ...]`).
    pub fn resource_handle(&self, i: &Instruction, k: usize) -> R<Handle> {
        let op = i.opcode.name();
        let Some(OperandKind::Addr(a)) = i.operands.get(k).map(|o| &o.kind) else {
            return self.err(format!("{op}: no [handle, ...] operand"));
        };
        if a.offset != 0 {
            return self.err(format!(
                "{op}: a handle operand with an offset is not lowered"
            ));
        }
        let AddrBase::Name(hs) = a.base else {
            return self.err(format!("{op}: the handle is not a name"));
        };
        match self.handle_of(hs) {
            Some(h) => Ok(h),
            _ => self.err(format!(
                "{op}: handle `{}` is not a 64-bit register, kernel parameter or module \
                 .texref/.surfref",
                self.name(hs)
            )),
        }
    }

    /// The handle the PTX name `hs` holds: a kernel parameter (or a
    /// register loaded from one and nothing else: its slot) or another
    /// 64-bit register; `None` for anything else.
    pub fn handle_of(&self, hs: Sym) -> Option<Handle> {
        match self.lookup(hs) {
            Some(Binding::Reg { val: Val::D(v), .. }) => Some(match self.param_handles.get(&hs) {
                Some(&off) => Handle::Param(off),
                None => Handle::Reg(v),
            }),
            Some(Binding::KernelParam { offset, size: 8 }) => {
                Some(Handle::Param(self.cb.param_base + offset))
            }
            // A module reference's word is named like a parameter's
            // (res_ref.rs).
            Some(Binding::ResourceRef { offset, .. }) => Some(Handle::Param(offset)),
            _ => None,
        }
    }

    /// ptxas's loop over the distinct register handles of a warp (sm_75+,
    /// where a texture or surface instruction takes its handle from a
    /// uniform register): `R2UR` reads the first active lane's handle
    /// (into a uniform pair with a zero high word when `pair`), the lanes
    /// holding it run `access` (given the uniform handle and their guard),
    /// the others branch back.
    pub fn handle_loop(
        &mut self,
        h: u32,
        pair: bool,
        access: impl FnOnce(&mut Self, Operand, Guard) -> R,
    ) -> R {
        let top = self.b.new_label();
        self.b.start_block(top);
        let pv = self.b.vpred();
        let u = if pair {
            let u = self.b.uvpair();
            self.b.emit(Op::R2UR, &[], [reg(Reg::Uv(u)), r(h)])?;
            self.b
                .emit(Op::UMOV, &[], [reg(Reg::Uv(u + 1)), reg(Reg::Urz)])?;
            u
        } else {
            let u = self.b.uvreg();
            self.b.emit(Op::R2UR, &[], [reg(Reg::Uv(u)), r(h)])?;
            u
        };
        let hu = reg(Reg::Uv(u));
        self.b.emit(
            Op::ISETP,
            &["NE", "U32", "AND"],
            [p(pv), pt(), r(h), hu.clone(), pt()],
        )?;
        access(self, hu, guard(pv, true))?;
        self.branch(Some(guard(pv, false)), top)
    }
}
