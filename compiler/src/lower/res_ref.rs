//! Module-level texture and surface references (`.global .texref NAME;`,
//! `.global .surfref NAME;`): where their handles live.
//!
//! ptxas 11.8 gives each reference a kernel uses one 4-byte word of
//! constant bank 0 after the kernel's parameters, relocated by the loader
//! with the bound texture's / surface's header index
//! (`R_CUDA_TEX_HEADER_INDEX` / `R_CUDA_SURF_HEADER_INDEX` in the cubin's
//! `.rel.nv.constant0.KERNEL`), and then names the word as it names a
//! kernel parameter holding a texture object: the slot form
//! `TEX.SCR.LL RZ, R4, R4, R9, 0x0, 0x5b, 2D, 0x1` below sm_90,
//! `ULDC UR4, c[0x0][0x21c]` + `UMOV UR5, URZ` + `TEX.LL ..., UR4, 0x0, 2D`
//! on sm_90 (oracle/tests/texref_vendor/texref_mix.sm_{80,90}.sass). The
//! rules, measured in oracle/tests/texref_vendor/ (`*.rel.txt`: the
//! relocation sections `cuobjdump -elf` prints):
//! - the words start at the end of the parameters, rounded up to 4 bytes
//!   (`.param .u64, .param .u32`: the first word at `0x16c` on sm_80,
//!   `0x21c` on sm_90; texref_mix.sm_80.rel.txt, texref_mix.sm_90.rel.txt),
//!   one word per reference;
//! - textures come first, then surfaces, each kind in the order of the
//!   kernel's first use of the reference (a `txq`/`suq` counts), whatever
//!   the declaration order; references the kernel does not use get no word
//!   (texref_order.sm_80.rel.txt: declared A B C D S T U, used T C D B A C
//!   S: C 0x168, D 0x16c, B 0x170, A 0x174, T 0x178, S 0x17c);
//! - each kernel numbers its own (texref_order.sm_80.rel.txt: kernel `k2`
//!   uses only A, at `0x16c`);
//! - a `mov.u64 %rd, A` is a use (texref_mov.sm_80.rel.txt: A at `0x168`).
//!
//! The runner writes each word (this crate: [`LoweredKernel::refs`]; a
//! vendor listing: the banks file's `refs`, copied from the relocation
//! section). DECISION (unmeasured): a `.func` using a reference counts
//! after the kernel's own uses, the module's functions in order.
//! `.samplerref` variables get no word (a separate sampler is refused by
//! tex.rs).
//!
//! [`LoweredKernel::refs`]: super::LoweredKernel::refs

use rustc_hash::FxHashMap;

use crate::ptx::ast::{self, AddrBase, Module, OperandKind, Statement, VarType};
use crate::ptx::intern::Sym;
use crate::ptx::isa::Opcode;
use crate::targets::abi::RefKind;

/// One reference's word: its byte offset in constant bank 0, the
/// variable's name (the launch's texture or surface of that name) and kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceRef {
    pub offset: u32,
    pub name: String,
    pub kind: RefKind,
}

/// The words of the references kernel `f` uses, from byte `start` of bank
/// 0 (the end of its parameters): the variable and its word, in offset
/// order (module docs).
pub(crate) fn plan(m: &Module, f: &ast::Function, start: u32) -> Vec<(Sym, ResourceRef)> {
    let kinds: FxHashMap<Sym, RefKind> = m
        .globals()
        .filter_map(|v| match v.ty {
            VarType::Texref => Some((v.name, RefKind::Texture)),
            VarType::Surfref => Some((v.name, RefKind::Surface)),
            _ => None,
        })
        .collect();
    if kinds.is_empty() {
        return Vec::new();
    }
    let mut used: Vec<Sym> = Vec::new();
    let mut bodies: Vec<&ast::Block> = f.body.iter().collect();
    bodies.extend(
        m.functions()
            .filter(|g| g.kind != ast::FuncKind::Entry)
            .filter_map(|g| g.body.as_ref()),
    );
    for b in bodies {
        uses(b, &kinds, &mut used);
    }
    let mut out = Vec::new();
    let mut off = start.next_multiple_of(4);
    for kind in [RefKind::Texture, RefKind::Surface] {
        for &s in used.iter().filter(|s| kinds[*s] == kind) {
            out.push((
                s,
                ResourceRef {
                    offset: off,
                    name: m.name(s).to_string(),
                    kind,
                },
            ));
            off += 4;
        }
    }
    out
}

/// The references named by the instructions of `b`, first use first.
fn uses(b: &ast::Block, kinds: &FxHashMap<Sym, RefKind>, out: &mut Vec<Sym>) {
    for st in &b.stmts {
        match st {
            Statement::Instr(i) => {
                if !matches!(
                    i.opcode,
                    Opcode::Tex
                        | Opcode::Tld4
                        | Opcode::Txq
                        | Opcode::Suld
                        | Opcode::Sust
                        | Opcode::Sured
                        | Opcode::Suq
                        | Opcode::Mov
                ) {
                    continue;
                }
                for o in &i.operands {
                    let s = match &o.kind {
                        OperandKind::Addr(a) => match a.base {
                            AddrBase::Name(s) => s,
                            _ => continue,
                        },
                        OperandKind::Name(s) => *s,
                        _ => continue,
                    };
                    if kinds.contains_key(&s) && !out.contains(&s) {
                        out.push(s);
                    }
                }
            }
            Statement::Block(inner) => uses(inner, kinds, out),
            _ => {}
        }
    }
}
