//! Where a texture or surface handle comes from (`[handle, ...]` operands
//! of `suld`/`sust`/`sured`/`suq`, surf.rs). ptxas 11.8 names a handle in
//! one of two ways: a kernel parameter that a register holds and nothing
//! else (written once, by `ld.param` of that parameter) is named by its
//! constant-bank slot (`SULD.D.BA.2D.STRONG.SM.TRAP R0, [R4], 0x0, 0x58`
//! for c[0x0][0x160] on sm_70..sm_89; `ULDC UR9, c[0x0][0x210]` + `..., UR9,
//! 0x0` on sm_90); any other register by its low word
//! (`SULD.D.BA.1D.STRONG.CTA.TRAP R0, [R7], R8`, surf_handle.sm_70.sass in
//! oracle/tests/surf_vendor/). tex.rs has its own copy of this lookup (it
//! predates this file; another session owns it).

use crate::ptx::ast::{AddrBase, Instruction, OperandKind};

use super::builder::R;
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
    /// The handle of the address operand `i.operands[k]` (`[name, ...]`);
    /// a `.surfref`/`.texref` (module-level reference) is refused.
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
        match self.lookup(hs) {
            Some(Binding::Reg { val: Val::D(v), .. }) => Ok(match self.param_handles.get(&hs) {
                Some(&off) => Handle::Param(off),
                None => Handle::Reg(v),
            }),
            Some(Binding::KernelParam { offset, size: 8 }) => {
                Ok(Handle::Param(self.cb.param_base + offset))
            }
            _ => self.err(format!(
                "{op}: handle `{}` is not a 64-bit register or kernel parameter (module-level \
                 .surfref/.texref references are not lowered: the launch binds them by name, \
                 which no SASS operand carries)",
                self.name(hs)
            )),
        }
    }
}
