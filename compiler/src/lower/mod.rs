//! PTX -> Ori IR instruction selection: the unoptimized baseline that every
//! later phase is checked against. One file per PTX family; the sequences
//! follow the SASS that ptxas 11.8 emits for the corpus kernels
//! (`corpus/kernels/NAME/NAME.sm_XX.sass`), cited where used.
//!
//! | file | job |
//! |---|---|
//! | `builder.rs` | blocks, labels, fresh virtual registers/pairs/predicates, `emit` (checks the opcode table and `Op::available_on`) |
//! | `regs.rs` | PTX register declarations (`%r<N>` ranges, 16/32/64/128-bit, `.pred`, `.vN` vectors: a register per component) to virtual registers; scoped bindings |
//! | `operand.rs` | PTX operands to IR sources: registers, vector components and whole vector operands, immediates split into 32-bit words, special registers (S2R, `c[0x0][..]`) |
//! | `int.rs` | add/sub/mul/mad/neg/abs/min/max/logic/shifts, 16/32/64-bit, popc/clz/brev/bfe/bfi/bfind/prmt/lop3/shf |
//! | `int_misc.rs` | dp4a/dp2a (IDP), sad (VABSDIFF; 64-bit sequence), bmsk (BMSK), szext (SGXT), fns (POPC binary search) |
//! | `cmp.rs` | setp/selp/set: ISETP(.EX), FSETP, DSETP, predicate logic (PLOP3) |
//! | `control.rs` | labels, bra, ret/exit, guards, brx.idx (our compare-and-branch chain) |
//! | `mem.rs` | ld/st/cvta/mov of addresses: LDG/STG/LDS/STS/LDL/STL/LD/ST/LDC, kernel parameters |
//! | `float.rs` | f32/f64 add/sub/mul/fma/min/max/neg/abs, MUFU approximations, f16 |
//! | `half.rs` | bf16/bf16x2 fma/min/max/setp, f16/f16x2 min/max (with `.xorsign.abs`), setp.f16x2, ex2/tanh on f16/f16x2: HFMA2.BF16_V2, HMNMX2, HSETP2, MUFU `.F16` (ptxas's sequences; its refusals below sm_86/sm_80/sm_75) |
//! | `cvt.rs` | cvt: I2F/I2FP/F2I/F2F/FRND, integer widening/narrowing |
//! | `div.rs` | integer div/rem, div/rcp/sqrt rn for f32/f64 with slow-path subroutines |
//! | `template.rs` | instantiates vendor SASS fragments (the slow paths) on virtual registers |
//! | `tex.rs` | tex/tld4 with texture objects and module `.texref`s: TLD/TEX/TLD4 (slot, uniform-handle and handle-loop forms), residency predicates (the fetch's predicate destination, every fetch form); txq dimensions below sm_90: TXQ (other fields: resinfo.rs) |
//! | `surf.rs` | suld.b/sust.b/sured.b on 1d/2d/3d surfaces, suld.b/sust.b on a1d/a2d arrays, sust.p (SUST.P with its component mask) on every geometry: SULD/SUST/SURED (slot, uniform-handle, register and handle-loop forms); suq width/height below sm_90: TXQ (through tex.rs; other fields: resinfo.rs) |
//! | `resinfo.rs` | istypep (a bit of the handle's high word: LOP3/ISETP); txq/suq fields ptxas reads from the driver's texture/surface information tables (LDG.E.CONSTANT from `c[0x0][0x70]`/`0x80`, our row sizes) |
//! | `handle.rs` | where a texture or surface handle comes from: a kernel parameter's (or a module reference's) constant-bank slot or a register; the handle loop |
//! | `res_ref.rs` | module-level `.texref`/`.surfref`: their constant-bank words after the parameters (ptxas's order), [`ResourceRef`] for the runner |
//! | `tex_lod.rs` | tex.level (plain geometries) and tex.grad (.1d/.2d/.a1d/.a2d): TEX.LL and TXD with ptxas's register groups; tex.grad.3d: TEX.LL at -32.0 (a DECISION: launch textures have one level) |
//! | `tex_array.rs` | tex.a1d/a2d (and tex.level), tld4.a2d: the index clamp, TLD.LZ/TEX.LL/TLD4 `ARRAY_1D`/`ARRAY_2D` with ptxas's register groups |
//! | `warp.rs` | shfl.sync, vote.sync, activemask, bar (incl. bar.red.{popc,and,or}), membar |
//! | `warp_sync.rs` | match.sync any/all (b32/b64), vote.sync.uni, redux.sync: REDUX on every target (phase 5 expands it on sm_70/sm_75) |
//! | `atom.rs` | atom/red on global and shared memory |
//! | `atom16.rs` | atom/red on f16/bf16/b16 (ptxas's 32-bit CAS loop) and the global f16x2/bf16x2 adds |
//! | `atom_generic.rs` | generic-address atom/red whose hardware `ATOM` does not act on every space (ir/atom_reach.rs): ptxas's guarded `ATOM`, `QSPC` and shared/local fallbacks (64-bit integer ops, f32/f64 add) |
//! | `atom_spin.rs` | atom/red `.add.noftz.f16x2`/`.bf16x2` on shared and generic memory (ptxas's `ATOMS.CAST.SPIN` loop; generic: `ATOM` with its fallbacks after `QSPC`) |
//! | `space.rs` | isspacep: window tests on the generic address (our sequence, IADD3/ISETP) |
//! | `call.rs` | `.func` calls and the ABI below (`.param` and `.reg` parameters) |
//! | `call_graph.rs` | the call graph with a pointer call's candidates: its cycles (recursion; mutual recursion through direct calls refused) and each component's height (the convergence barrier of a call) |
//! | `recursion.rs` | recursion (a `.func` on a cycle of the call graph): the caller's saves around each call that may re-enter it (`STL`/`LDL` below R1), the callers' convergence barrier kept (`BMOV`), the one exit |
//! | `call_indirect.rs` | function addresses (`mov.u64 %r, f`: the code address) and indirect calls through `.callprototype`s (`CALL.REL.NOINC %r 0x0`); the shared registers of a signature class |
//!
//! Per-target rules: the lowering emits the target-independent (newest)
//! form of the operations phase 5 ConvertUnsupportedOps expands
//! (`crate::phases::convert_unsupported::CONVERSIONS`: `REDUX` in
//! warp_sync.rs, `I2FP` in cvt.rs) on every target, and that phase
//! replaces them where the SM table lacks them; any other instruction a
//! target lacks is never emitted ([`Builder::emit`] refuses it, and the
//! simulator faults on it), nor is a modifier the opcode table marks as
//! later than the target (`HFMA2.BF16_V2` below sm_80). [`lower_target`] is lowering followed by that
//! phase: IR a target can execute (for tests and tools that run lowered
//! IR without the pipeline).
//!
//! Every PTX opcode has a lowering (the dispatch's match is exhaustive).
//! Not lowered (refused with a specific message; the PTX interpreter
//! executes them): of the surface instructions (surf.rs), `sured` on
//! arrays, accesses over 16 bytes (`.v4.b64`) and 64-bit `sured` min/max
//! (ptxas refuses all three), `suld.p` and `sured.p` (the interpreter
//! does not execute them either; ptxas does not know `suld.p`),
//! `suq.memory_layout` and, on sm_90, `txq.force_unnormalized_coords`
//! (resinfo.rs: no table content agrees with the interpreter), `redux.sync.f32`
//! (sm_100a: no target of the SM table has it), cube and multi-sample
//! textures, `tex.grad`/`tex.level` with `.s32` coordinates (tex_lod.rs),
//! separate samplers (tex.rs; the interpreter faults on them too: the
//! launch spec has no samplers), mutual recursion through direct calls
//! only (call_graph.rs; the driver's phase 17 refuses it first, docs/MODEL.md, Compilation driver;
//! self-recursion and cycles through a function pointer are lowered,
//! recursion.rs), indirect calls without a `.callprototype`
//! of the calling function (a call-target list) and the address of a
//! kernel (call_indirect.rs); of the half-precision forms (half.rs,
//! atom16.rs), the ones ptxas 11.8 refuses on a target and that have no
//! exact short emulation: `.bf16`/`.bf16x2` `fma`/`min`/`max`/`neg`/`abs`
//! below sm_80, `add`/`sub`/`mul` on `.bf16`/`.bf16x2` below sm_90,
//! `min`/`max` on `.f16x2` and `min`/`max.ftz`/`.NaN` on `.f16` below
//! sm_80, `tanh` (`.f16`, `.f32`) on sm_70,
//! `ex2`/`tanh` on `.bf16` below sm_90, `atom.add.noftz.bf16`/`.bf16x2`
//! below sm_90 (every space), `min`/`max.xorsign.abs` below sm_86 (every
//! type), and three-source `min`/`max` on every target (ptxas 11.8:
//! "Arguments mismatch"; PTX 8.8/sm_100). `mov.b128`
//! is refused too (the interpreter faults on it). `brkpt` lowers to nothing (mod.rs `dispatch`).
//!
//! # Register conventions
//! - Virtual registers `%rN` (general, 32-bit), `%pN` (predicates), `%urN`
//!   (uniform, only for the sm_80+ global-memory descriptor). A 64-bit value
//!   occupies the aligned pair `%r2k:%r2k+1`, low word first; 8- and 16-bit
//!   PTX registers live zero-extended in one 32-bit register.
//! - Physical `R1` is the stack pointer, loaded from `c[0x0][0x28]` by the
//!   kernel prologue (every vendor kernel starts `IMAD.MOV.U32 R1, RZ, RZ,
//!   c[0x0][0x28]`, `LDC R1, c[0x0][0x28]` on sm_90); a function with
//!   `.local` data moves it down by its frame size (`IADD3 R1, R1, -0x40, RZ`
//!   as in switch_local) and back before returning. `.local` variables are
//!   addressed `[R1+offset]`.
//! - The PTX carry flag (`add.cc`, `addc`, `mad.cc`, ...) is one virtual
//!   predicate per function, the IADD3 carry-out/carry-in operand.
//!
//! # Call ABI (`.func`)
//! ptxas passes arguments in R4.. and the return address in a register
//! pair (`MOV R4, 0xc0 ; CALL.REL.NOINC 0x3f0` ... `RET.REL.NODEC R4 0x0`,
//! double_noinline.sm_80.sass). Before register allocation the IR names
//! those registers virtually: each callee has one fixed set of virtual
//! registers per kernel: its parameter words, its return-value words, and
//! a return-address pair. A call site copies the argument words into the
//! callee's parameter registers (`MOV`; an immediate argument of a
//! `.param` parameter is its bits at the parameter's type, as ptxas 11.8
//! folds `call (pr), f, (7, 0x300000005, 2.5)`), writes the return address
//! (`MOV %ra, .L_x_N` with the label of the block after the call, high
//! word `0`), executes `CALL.REL.NOINC .L_x_callee`, and copies the return
//! words out. The callee returns with `RET.REL.NODEC %ra 0x0`. Parameters
//! of any size travel in registers (a word each); nothing is passed on the
//! stack. A `.reg` parameter or return value (`.func (.reg .b32 r) f
//! (.reg .b32 a)`) is simply the callee's register of its type (a pair
//! for 64 bits, a virtual predicate for `.pred`), which the body uses as
//! an operand; the call site writes it from a register or an immediate
//! and reads the return register out as it would a `mov` (ptxas 11.8
//! passes those in R registers too, a `.pred` as a 0/-1 word). There are no callee-saved registers: virtual registers of
//! different functions are disjoint. A function calling itself by name
//! reuses its own, so the caller saves what is live across each
//! self-call to the stack and the recursive function closes a
//! convergence region over its body (recursion.rs); other recursion
//! (mutual, through function pointers) is refused. A function whose
//! address is taken (`mov.u64 %r, f`: its first block's code address,
//! as ptxas) is called, directly or through `CALL.REL.NOINC %r 0x0`, with
//! the registers of its signature class, which it copies into its own on
//! entry (call_indirect.rs). Callee bodies follow the kernel's `EXIT` in the
//! same [`crate::ir::Function`], as ptxas lays them out, then the
//! compiler's own subroutines (the division slow paths).
//!
//! # Memory
//! - Kernel parameters are `c[0x0][param_base + offset]` (SM table), each
//!   at its natural alignment. Global accesses use the 64-bit address pair:
//!   `[%r2.64]` on sm_80+ after `ULDC.64 %ur0, c[0x0][0x118]` (`0x208` on
//!   sm_90), `[%r2]` with `.E ... .SYS` on sm_70/75 (the vendor spellings).
//! - `.shared` variables (module scope, then function scope, in order,
//!   each at its alignment) form the CTA's static window from the SM's
//!   shared base (0, 0x400 on sm_90); `.extern .shared` arrays start after
//!   it at a 16-byte boundary.
//! - `.const` variables form constant bank 3 from offset 0 (the image is
//!   [`LoweredKernel::const_bank`]); `ld.const` is `LDC c[0x3][..]`.
//! - Generic addresses: `cvta.{shared,local}` adds the 64-bit window base
//!   read from `c[0x0][0x18]` (shared) and `c[0x0][0x20]` (local) to the
//!   address, and `cvta.to.*` subtracts its low word. A shared address
//!   keeps its reserved base inside the window (the generic address of
//!   sm_90's first byte is window + 0x400), as ptxas 11.8's sm_90
//!   `cvta.shared` adds `SR_SWINLO/HI` to the 0x400-based address and its
//!   generic-atomic fallback takes the low 24 bits of a generic address as
//!   the shared address (atom_spin.rs). DECISION (UNCONFIRMED offsets: no
//!   corpus SASS converts shared or local addresses to generic): runners
//!   place the windows there; the PTX interpreter's windows are
//!   `0x7f00_0000_0000` and `0x7e00_0000_0000`. `isspacep` (space.rs)
//!   also reads the const and kernel-parameter window bases at
//!   `c[0x0][0x150]` and `c[0x0][0x158]` (our DECISION, below every
//!   target's parameters; `c[0x0][0x30]` is ptxas's `%gridid`) (the interpreter's
//!   `0x7d00_0000_0000`, `0x7c00_0000_0000`); every window is
//!   [`WINDOW_SPAN`] bytes. With `.address_size 32` the same words hold
//!   the interpreter's 32-bit windows (`0xf000_0000`, `0xe000_0000`,
//!   `0xd000_0000`, `0xc000_0000`, [`WINDOW_SPAN_32`] bytes each), the code
//!   reads their low words, and global/generic accesses through 32-bit
//!   addresses drop `.E` (mem.rs). Our DECISION as well: isspacep beside a
//!   kernel's `cvta.param` is refused (space.rs).

mod atom;
mod atom16;
mod atom_generic;
mod atom_spin;
pub(crate) mod builder;
mod call;
pub mod call_graph;
mod call_indirect;
mod cmp;
mod control;
mod cvt;
mod directed;
mod div;
mod float;
mod half;
mod handle;
mod int;
mod int_misc;
mod mem;
mod operand;
mod recursion;
mod regs;
mod res_ref;
pub mod resinfo;
mod space;
mod surf;
mod template;
mod tex;
mod tex_array;
mod tex_lod;
mod warp;
mod warp_sync;

#[cfg(test)]
pub(crate) mod tests;
#[cfg(test)]
mod tests_directed;
#[cfg(test)]
mod tests_gaps;
#[cfg(test)]
mod tests_half;
#[cfg(test)]
mod tests_indirect_call;
#[cfg(test)]
mod tests_recursion;
#[cfg(test)]
mod tests_reg_params;
#[cfg(test)]
mod tests_res_ref;
#[cfg(test)]
mod tests_resinfo;
#[cfg(test)]
mod tests_surf;
#[cfg(test)]
mod tests_tex_array;
#[cfg(test)]
mod tests_tex_lod;
#[cfg(test)]
mod tests_vector_regs;

use rustc_hash::FxHashMap;

use crate::ir::{Function, Op};
use crate::ptx::ast::{self, FuncKind, Instruction, Module, StateSpace, Statement, VarType};
use crate::ptx::intern::{NumberedNames, Sym};
use crate::ptx::isa::Opcode;
use crate::ptx::span::SourceFile;
use crate::ptx::Span;
use crate::targets::abi::{GlobalVar, ParamSlot};
use crate::targets::{CbankLayout, SmInfo};

pub use builder::Builder;
use builder::*;
use regs::{Binding, Scopes, Val};

/// Lowering options.
#[derive(Clone, Debug, Default)]
pub struct LowerOptions {}

/// A lowering failure at a PTX source position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    pub span: Span,
    /// 1-based line and column, when the source text was given
    /// ([`lower_source`], [`LowerError::locate`]).
    pub line_col: Option<(u32, u32)>,
    pub msg: String,
}

impl LowerError {
    pub fn new(span: Span, msg: impl Into<String>) -> LowerError {
        LowerError {
            span,
            line_col: None,
            msg: msg.into(),
        }
    }

    /// Fills in the line and column from the source text.
    pub fn locate(mut self, src: &SourceFile<'_>) -> LowerError {
        self.line_col = Some(src.line_col(self.span.lo));
        self
    }
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line_col {
            Some((l, c)) => write!(f, "{l}:{c}: {}", self.msg),
            None => write!(f, "byte {}: {}", self.span.lo, self.msg),
        }
    }
}

impl std::error::Error for LowerError {}

/// One `.entry`, lowered: the kernel's blocks, then each `.func` it calls,
/// then the compiler's subroutines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoweredKernel {
    pub name: String,
    pub function: Function,
    pub params: Vec<ParamSlot>,
    /// Static `.shared` bytes (from the SM's shared base, excluding it).
    pub shared_bytes: u32,
    /// Constant bank 3: the module's `.const` data.
    pub const_bank: Vec<u8>,
    /// Module `.global` variables; variable k's address is the 64-bit
    /// word at `c[0x4][8*k]`.
    pub globals: Vec<GlobalVar>,
    /// Each `.func` lowered into [`LoweredKernel::function`], with the label
    /// of its first block, in label order (the driver's call-graph checks
    /// name procedures by these).
    pub funcs: Vec<(String, u32)>,
    /// The module-level `.texref`/`.surfref` variables the kernel uses: the
    /// constant bank 0 word the runner fills with the handle of the launch's
    /// texture or surface of that name (res_ref.rs), in offset order.
    pub refs: Vec<ResourceRef>,
    /// The module's `.address_size` (32 or 64): with 32 the kernel's
    /// buffer parameters are `.u32` addresses and the generic windows are
    /// the 32-bit ones (runners lay out bank 0 accordingly).
    pub address_bits: u32,
}

pub use res_ref::ResourceRef;

/// Lowers every `.entry` of a module for `sm`.
pub fn lower_module(
    m: &Module,
    sm: &'static SmInfo,
    opts: &LowerOptions,
) -> Result<Vec<LoweredKernel>, LowerError> {
    let layout = ModuleLayout::new(m, sm)?;
    let mut out = Vec::new();
    for f in m.functions() {
        if f.kind == FuncKind::Entry && f.body.is_some() {
            out.push(lower_kernel(m, sm, opts, &layout, f)?);
        }
    }
    Ok(out)
}

/// The module-wide part of lowering (placement of `.shared`, `.const` and
/// `.global` data), computed once and shared by the lowering of every entry,
/// so that a driver can lower entries one at a time, or in parallel, and get
/// what [`lower_module`] gives.
pub struct ModulePlan {
    sm: &'static SmInfo,
    layout: ModuleLayout,
}

impl ModulePlan {
    pub fn new(m: &Module, sm: &'static SmInfo) -> Result<ModulePlan, LowerError> {
        Ok(ModulePlan {
            sm,
            layout: ModuleLayout::new(m, sm)?,
        })
    }

    /// Lowers one `.entry` (with a body) of the module the plan was made for.
    pub fn lower_entry(
        &self,
        m: &Module,
        opts: &LowerOptions,
        f: &ast::Function,
    ) -> Result<LoweredKernel, LowerError> {
        lower_kernel(m, self.sm, opts, &self.layout, f)
    }
}

/// Parses, validates and lowers PTX text; errors carry line and column.
pub fn lower_source(
    file: &str,
    src: &str,
    sm: &'static SmInfo,
    opts: &LowerOptions,
) -> Result<Vec<LoweredKernel>, String> {
    let m = crate::ptx::parse_checked(file, src)?;
    lower_module(&m, sm, opts).map_err(|e| {
        let sf = SourceFile::new(file, src);
        format!("{file}:{}", e.locate(&sf))
    })
}

/// Module-scope placement: shared variables and the constant bank.
struct ModuleLayout {
    vars: FxHashMap<Sym, Binding>,
    /// Function-scope `.shared` declarations by span start.
    fn_shared: FxHashMap<u32, u32>,
    /// Static shared bytes of each `.entry`: the module-scope variables and
    /// the `.func`s' function-scope ones (common to every kernel), then the
    /// entry's own function-scope ones. Each kernel runs alone, so the
    /// entries' own variables overlap: every entry's start where the
    /// common part ends (ptxas 11.8 places two kernels' `sm[256]` both
    /// at 0; laying them end to end pushed a module's later kernels out of
    /// the shared window).
    entry_shared: FxHashMap<Sym, u32>,
    const_bank: Vec<u8>,
    globals: Vec<GlobalVar>,
    /// The bank 4 slot of the constant bank's global copy, when the module
    /// converts constant addresses to generic (`cvta.const`).
    const_global: Option<u32>,
}

/// [`ast::VarDecl::size_align`] in 32 bits: the validator refused every
/// variable and state space of 4 GiB or more.
fn var_size_align(v: &ast::VarDecl) -> (u32, u32) {
    let (size, align) = v.size_align().unwrap_or((0, 1));
    (size as u32, align as u32)
}

/// The first shared address of a CTA's data: the SM table's
/// `CbankLayout::shared_base` (sm_90 reserves the first KiB of the CTA's
/// window, sort_scan.sm_90.sass: `UMOV UR4, 0x400`).
pub(crate) fn shared_base(sm: &SmInfo) -> u32 {
    sm.cbank.map_or(0, |c| c.shared_base)
}

impl ModuleLayout {
    fn new(m: &Module, sm: &SmInfo) -> Result<ModuleLayout, LowerError> {
        let base = shared_base(sm);
        let mut vars = FxHashMap::default();
        let mut fn_shared = FxHashMap::default();
        let mut shared = 0u32;
        let mut externs = Vec::new();
        let mut konst: Vec<u8> = Vec::new();
        let mut globals = Vec::new();
        for v in m.globals() {
            if !matches!(v.ty, VarType::Scalar(_)) {
                // `.texref`/`.surfref`/`.samplerref`: no storage here (the
                // kernel's constant-bank words, res_ref.rs).
                continue;
            }
            match v.space {
                StateSpace::Shared => {
                    if v.linkage == ast::Linkage::Extern || v.element_count().is_none() {
                        externs.push(v.name);
                        continue;
                    }
                    let (size, align) = var_size_align(v);
                    shared = shared.next_multiple_of(align);
                    vars.insert(
                        v.name,
                        Binding::Shared {
                            addr: base + shared,
                        },
                    );
                    shared += size;
                }
                StateSpace::Global => {
                    let (size, align) = var_size_align(v);
                    let init = init_bytes(v, size).map_err(|e| LowerError::new(v.span, e))?;
                    vars.insert(
                        v.name,
                        Binding::Global {
                            slot: 8 * globals.len() as u32,
                        },
                    );
                    globals.push(GlobalVar {
                        name: m.name(v.name).to_string(),
                        size,
                        align,
                        init,
                    });
                }
                StateSpace::Const => {
                    let (size, align) = var_size_align(v);
                    let off = (konst.len() as u32).next_multiple_of(align);
                    konst.resize(off as usize, 0);
                    let mut bytes = init_bytes(v, size).map_err(|e| LowerError::new(v.span, e))?;
                    bytes.resize(size as usize, 0);
                    konst.extend_from_slice(&bytes);
                    vars.insert(v.name, Binding::Const { offset: off });
                }
                _ => {}
            }
        }
        // Function-scope shared variables, in source order.
        fn walk(b: &ast::Block, f: &mut dyn FnMut(&ast::VarDecl)) {
            for s in &b.stmts {
                match s {
                    Statement::Decl(v) if v.space == StateSpace::Shared => f(v),
                    Statement::Block(inner) => walk(inner, f),
                    _ => {}
                }
            }
        }
        let mut place = |func: &ast::Function, shared: &mut u32| {
            if let Some(body) = &func.body {
                walk(body, &mut |v| {
                    if v.linkage == ast::Linkage::Extern || v.element_count().is_none() {
                        externs.push(v.name);
                        return;
                    }
                    let (size, align) = var_size_align(v);
                    *shared = shared.next_multiple_of(align);
                    fn_shared.insert(v.span.lo, base + *shared);
                    *shared += size;
                });
            }
        };
        for func in m.functions().filter(|f| f.kind == ast::FuncKind::Func) {
            place(func, &mut shared);
        }
        let common = shared;
        let mut entry_shared = FxHashMap::default();
        for func in m.functions().filter(|f| f.kind == ast::FuncKind::Entry) {
            let mut own = common;
            place(func, &mut own);
            entry_shared.insert(func.name, own);
            shared = shared.max(own);
        }
        // `cvta.const`: a read-only global copy of bank 3 for generic loads.
        let const_global = uses_cvta_const(m).then(|| {
            let slot = 8 * globals.len() as u32;
            globals.push(GlobalVar {
                name: "__ptxc_const_bank3".into(),
                size: konst.len().max(1) as u32,
                align: 16,
                init: if konst.is_empty() {
                    vec![0]
                } else {
                    konst.clone()
                },
            });
            slot
        });
        let dynamic = shared.next_multiple_of(16);
        if !externs.is_empty() {
            // One address for the module's dynamic shared memory, after
            // the largest kernel: every kernel's static part reaches it, so
            // the launch's window (static + dynamic bytes) holds it. ptxas
            // starts it after each kernel's own; only the reported static
            // size of the smaller kernels differs.
            for v in entry_shared.values_mut() {
                *v = dynamic;
            }
        }
        for e in externs {
            vars.insert(
                e,
                Binding::Shared {
                    addr: base + dynamic,
                },
            );
        }
        Ok(ModuleLayout {
            vars,
            fn_shared,
            entry_shared,
            const_bank: konst,
            globals,
            const_global,
        })
    }
}

/// Whether a parameter variable may be written in pieces narrower than a
/// word (byte arrays, narrow scalars).
pub(crate) fn sub_word(v: &ast::VarDecl) -> bool {
    let elem = match v.ty {
        VarType::Scalar(t) => t.bytes(),
        _ => 8,
    };
    elem < 4 || !var_size_align(v).0.is_multiple_of(4)
}

/// Whether any function of the module has a `cvta.const`/`cvta.to.const`.
fn uses_cvta_const(m: &Module) -> bool {
    fn walk(b: &ast::Block) -> bool {
        b.stmts.iter().any(|s| match s {
            Statement::Instr(i) => {
                i.opcode == Opcode::Cvta && i.has(crate::ptx::modifiers::Mod::Const)
            }
            Statement::Block(inner) => walk(inner),
            _ => false,
        })
    }
    m.functions().any(|f| f.body.as_ref().is_some_and(walk))
}

/// The bytes of a variable's initializer, at most `size` (none without one:
/// the rest is zero).
fn init_bytes(v: &ast::VarDecl, size: u32) -> Result<Vec<u8>, String> {
    let ty = v.scalar().ok_or(
        "internal: a .texref/.surfref/.samplerref has no data (ModuleLayout skips them; res_ref.rs)",
    )?;
    let elem = ty.bytes() as usize;
    let mut out = Vec::new();
    fn flat<'a>(i: &'a ast::Init, out: &mut Vec<&'a ast::Init>) {
        match i {
            ast::Init::List(l) => l.iter().for_each(|x| flat(x, out)),
            x => out.push(x),
        }
    }
    let mut items = Vec::new();
    if let Some(i) = &v.init {
        flat(i, &mut items);
    }
    for it in items {
        let bits: u64 = match (it.clone(), ty.is_float()) {
            (ast::Init::Int(x), _) => x as u64,
            (ast::Init::F32(b), false) => u64::from(b),
            (ast::Init::F32(b), true) if elem == 8 => f64::from(f32::from_bits(b)).to_bits(),
            (ast::Init::F32(b), true) => u64::from(b),
            (ast::Init::F64(b), true) if elem == 4 => {
                u64::from((f64::from_bits(b) as f32).to_bits())
            }
            (ast::Init::F64(b), _) => b,
            (ast::Init::Float(b), true) if elem == 4 => {
                u64::from((f64::from_bits(b) as f32).to_bits())
            }
            (ast::Init::Float(b), _) => b,
            _ => return Err("unsupported .const initializer".into()),
        };
        out.extend_from_slice(&bits.to_le_bytes()[..elem]);
    }
    out.truncate(size as usize);
    Ok(out)
}

/// Where one `.func` parameter or return value lives (see the module's
/// ABI section).
#[derive(Clone, Copy, Debug)]
pub(crate) enum AbiSlot {
    /// A `.param` variable: its bytes in consecutive 32-bit registers
    /// (first register, word count).
    Words(u32, u32),
    /// A `.reg` parameter or return value (PTX ISA 5.1.6 "Parameter State
    /// Space", 7.1 "Function declarations and definitions": scalar
    /// parameters and return values in registers, used as operands): a
    /// register of its type, which the body names directly.
    Reg(Val, crate::ptx::types::ScalarType),
}

/// A callee's fixed virtual registers (see the module's ABI section).
#[derive(Clone, Debug)]
pub(crate) struct FuncAbi {
    pub label: u32,
    /// Per parameter, then per return value, in declaration order.
    pub params: Vec<AbiSlot>,
    pub rets: Vec<AbiSlot>,
    /// Return-address pair.
    pub ra: u32,
    /// The registers are its signature class's (address-taken functions,
    /// call_indirect.rs): the body copies them into its own.
    pub shared: bool,
}

/// The function being lowered.
#[derive(Clone, Debug, Default)]
pub(crate) struct CurFn {
    pub is_entry: bool,
    pub frame: u32,
    pub ra: u32,
    /// Before each `RET`: the function's own return slots into its
    /// class's (address-taken functions, call_indirect.rs).
    pub ret_copies: Vec<(AbiSlot, AbiSlot)>,
    /// The `.func` being lowered (`None`: the kernel).
    pub name: Option<Sym>,
    /// Its calls that may re-enter it (call_graph.rs), for the saves
    /// recursion.rs inserts.
    pub self_calls: Vec<recursion::SelfCall>,
    /// A recursive function's barrier and exit (recursion.rs).
    pub recursive: Option<recursion::RecFrame>,
}

pub(crate) struct Cx<'m> {
    pub m: &'m Module,
    pub sm: &'static SmInfo,
    pub cb: CbankLayout,
    pub b: Builder,
    pub scopes: Scopes,
    /// The module's names that can be `%r<N>` members (regs.rs).
    numbered: NumberedNames<'m>,
    layout: &'m ModuleLayout,
    pub labels: FxHashMap<Sym, u32>,
    /// `.local` declarations (by span start) -> frame offset.
    pub local_slots: FxHashMap<u32, u32>,
    pub cur: CurFn,
    /// The carry flag of the current function.
    pub cc: Option<u32>,
    /// The uniform pair holding the global descriptor (sm_80+).
    pub desc: Option<u32>,
    pub funcs: FxHashMap<Sym, FuncAbi>,
    pub func_queue: Vec<Sym>,
    pub subs: FxHashMap<&'static str, template::SubAbi>,
    pub sub_queue: Vec<&'static str>,
    /// Kernel registers that hold one kernel parameter and nothing else
    /// (written once, by `ld.param`): name -> its constant bank 0 offset.
    pub param_handles: FxHashMap<Sym, u32>,
    /// Parameters whose address is taken, copied to the frame: name ->
    /// frame offset of the copy.
    pub param_copies: FxHashMap<Sym, u32>,
    /// The current function's `.branchtargets` tables: name -> labels.
    pub branch_tables: FxHashMap<Sym, Vec<Sym>>,
    /// The kernel's `.texref`/`.surfref` words (res_ref.rs): the variable
    /// and its bank-0 byte offset and kind, bound in the kernel and every
    /// callee.
    pub res_refs: Vec<(Sym, u32, crate::targets::abi::RefKind)>,
    /// The module's address-taken functions (call_indirect.rs).
    pub taken: rustc_hash::FxHashSet<Sym>,
    /// Per signature class: the parameter, return and return-address
    /// registers its members share.
    pub classes: FxHashMap<call_indirect::Sig, (Vec<AbiSlot>, Vec<AbiSlot>, u32)>,
    /// The current function's `.callprototype`s.
    pub protos: FxHashMap<Sym, call_indirect::Sig>,
    /// Where the last call's result copies start (call.rs, for
    /// recursion.rs).
    pub results_at: (usize, usize),
    /// Where the last call's `CALL` stands (call.rs, for recursion.rs).
    pub call_at: (usize, usize),
    /// The module's call graph (call_graph.rs).
    pub cg: call_graph::CallGraph,
}

fn lower_kernel(
    m: &Module,
    sm: &'static SmInfo,
    _opts: &LowerOptions,
    layout: &ModuleLayout,
    f: &ast::Function,
) -> Result<LoweredKernel, LowerError> {
    let cb = sm.cbank.ok_or_else(|| {
        LowerError::new(
            f.name_span,
            format!("{}: constant bank layout not measured", sm.name),
        )
    })?;
    let cg = call_graph::CallGraph::new(m);
    cg.check(m, f.name)?;
    let mut cx = Cx {
        m,
        sm,
        cb,
        b: Builder::new(sm),
        scopes: Scopes::default(),
        numbered: m.names.numbered(),
        layout,
        labels: FxHashMap::default(),
        local_slots: FxHashMap::default(),
        cur: CurFn {
            is_entry: true,
            ..CurFn::default()
        },
        cc: None,
        desc: None,
        funcs: FxHashMap::default(),
        func_queue: Vec::new(),
        subs: FxHashMap::default(),
        sub_queue: Vec::new(),
        param_handles: FxHashMap::default(),
        param_copies: FxHashMap::default(),
        branch_tables: FxHashMap::default(),
        res_refs: Vec::new(),
        taken: call_indirect::address_taken(m),
        classes: FxHashMap::default(),
        protos: FxHashMap::default(),
        results_at: (0, 0),
        call_at: (0, 0),
        cg,
    };
    cx.b.span = f.name_span;
    // Prologue: the stack pointer, then the global descriptor.
    if sm.sm >= 90 {
        cx.b.emit(Op::LDC, &[], [sp(), cbank(0, cb.stack_pointer)])?;
    } else {
        cx.b.emit(
            Op::IMAD,
            &["MOV", "U32"],
            [sp(), rz(), rz(), cbank(0, cb.stack_pointer)],
        )?;
    }
    if let Some(d) = cb.global_descriptor {
        let u = cx.b.uvpair();
        cx.b.emit(
            Op::ULDC,
            &["64"],
            [reg(crate::ir::sass_text::Reg::Uv(u)), cbank(0, d)],
        )?;
        cx.desc = Some(u);
    }
    // Parameters, then the reference words after them; the module's
    // bindings under the parameters'.
    let mut params = Vec::new();
    let mut off = 0u32;
    for p in &f.params {
        let (size, align) = var_size_align(p);
        off = off.next_multiple_of(align.max(1));
        params.push(ParamSlot { offset: off, size });
        off += size;
    }
    let refs = res_ref::plan(m, f, cb.param_base + off);
    cx.res_refs = refs
        .iter()
        .map(|(s, rf)| (*s, rf.offset, rf.kind))
        .collect();
    cx.scopes.push();
    for (k, v) in cx.layout_vars() {
        cx.scopes.bind(k, v);
    }
    for (p, slot) in f.params.iter().zip(&params) {
        cx.scopes.bind(
            p.name,
            Binding::KernelParam {
                offset: slot.offset,
                size: slot.size,
            },
        );
    }
    let body = f.body.as_ref().expect("a body");
    cx.function_body(body)?;
    cx.scopes.pop();
    // Callees, then subroutines.
    while let Some(callee) = cx.func_queue.pop() {
        cx.lower_func(callee)?;
    }
    template::emit_pending(&mut cx)?;
    let mut funcs: Vec<(String, u32)> = cx
        .funcs
        .iter()
        .map(|(s, abi)| (m.name(*s).to_string(), abi.label))
        .collect();
    funcs.sort_by_key(|f| f.1);
    let blocks = cx.b.finish();
    Ok(LoweredKernel {
        name: m.name(f.name).to_string(),
        function: Function {
            name: m.name(f.name).to_string(),
            header_flags: None,
            blocks,
        },
        params,
        shared_bytes: layout
            .entry_shared
            .get(&f.name)
            .copied()
            .unwrap_or_else(|| layout.entry_shared.values().copied().max().unwrap_or(0)),
        const_bank: layout.const_bank.clone(),
        globals: layout.globals.clone(),
        funcs,
        refs: refs.into_iter().map(|(_, r)| r).collect(),
        address_bits: m.address_bits(),
    })
}

/// `.local` declarations of a body, placed in the frame in source order.
fn frame_layout(body: &ast::Block, slots: &mut FxHashMap<u32, u32>) -> u32 {
    fn walk(b: &ast::Block, slots: &mut FxHashMap<u32, u32>, off: &mut u32) {
        for s in &b.stmts {
            match s {
                Statement::Decl(v) if v.space == StateSpace::Local => {
                    let (size, align) = var_size_align(v);
                    *off = off.next_multiple_of(align);
                    slots.insert(v.span.lo, *off);
                    *off += size;
                }
                Statement::Block(inner) => walk(inner, slots, off),
                _ => {}
            }
        }
    }
    let mut off = 0;
    walk(body, slots, &mut off);
    // Frames keep R1 16-byte aligned: a callee's `.align 16` depot sits at
    // R1 after its caller's frame (clang -O0 forms the addresses of its
    // fields with `or.b64 %rd, %SP, 4`, tex_stencil.O0).
    off.next_multiple_of(16)
}

impl<'m> Cx<'m> {
    pub fn err<T>(&self, msg: impl Into<String>) -> R<T> {
        self.b.err(msg)
    }

    /// The body of the current function: frame, statements, and for a
    /// kernel the final EXIT.
    fn function_body(&mut self, body: &ast::Block) -> R {
        self.labels.clear();
        self.local_slots.clear();
        self.branch_tables = control::branch_tables(body);
        self.protos = call_indirect::prototypes(body);
        self.cc = None;
        let mut frame = frame_layout(body, &mut self.local_slots);
        // Parameters whose address is taken get a frame copy (as ptxas:
        // the parameter is copied to the stack and its address is the
        // copy's).
        self.param_copies.clear();
        let mut copies = Vec::new();
        for s in param_addresses(body) {
            let (size, words) = match self.lookup(s) {
                Some(Binding::KernelParam { size, .. }) => (size, size.div_ceil(4)),
                Some(Binding::ParamWords { words, .. }) => (4 * words, words),
                _ => continue,
            };
            if self.param_copies.contains_key(&s) {
                continue;
            }
            let align = size.next_power_of_two().clamp(4, 16);
            let off = frame.next_multiple_of(align);
            frame = (off + 4 * words).next_multiple_of(16);
            self.param_copies.insert(s, off);
            copies.push((s, off));
        }
        self.param_handles = if self.cur.is_entry {
            self.kernel_param_handles(body)
        } else {
            FxHashMap::default()
        };
        self.cur.frame = frame;
        if frame > 0 {
            self.b
                .emit(Op::IADD3, &[], [sp(), sp(), imm(-i64::from(frame)), rz()])?;
        }
        if let Some(rec) = self.cur.recursive {
            // A self-recursive function's region (recursion.rs), inside
            // its frame: every path to the exit is at the same depth.
            self.b.emit(
                Op::BSSY,
                &[],
                [
                    crate::ir::sass_text::SassOperand::Barrier(rec.barrier),
                    crate::ir::Operand::Label(rec.exit),
                ],
            )?;
        }
        for (s, off) in copies {
            match self.lookup(s) {
                Some(Binding::KernelParam { offset, size }) => {
                    for w in 0..size.div_ceil(4) {
                        let t = self.b.vreg();
                        self.b.emit(
                            Op::MOV,
                            &[],
                            [r(t), cbank(0, self.cb.param_base + offset + 4 * w)],
                        )?;
                        self.b.emit(
                            Op::STL,
                            &[],
                            [
                                mem(
                                    crate::ir::sass_text::Reg::R(1),
                                    false,
                                    i64::from(off + 4 * w),
                                ),
                                r(t),
                            ],
                        )?;
                    }
                }
                Some(Binding::ParamWords { first, words }) => {
                    for w in 0..words {
                        self.b.emit(
                            Op::STL,
                            &[],
                            [
                                mem(
                                    crate::ir::sass_text::Reg::R(1),
                                    false,
                                    i64::from(off + 4 * w),
                                ),
                                r(first + w),
                            ],
                        )?;
                    }
                }
                _ => unreachable!(),
            }
        }
        self.block(body)?;
        // Falling off the end returns.
        self.b.span = body.span;
        self.lower_ret(None)?;
        Ok(())
    }

    fn block(&mut self, blk: &ast::Block) -> R {
        self.scopes.push();
        for s in &blk.stmts {
            match s {
                Statement::Decl(v) => self.declare(v)?,
                Statement::Label(l, _) => {
                    let lab = self.label_of(*l);
                    self.b.start_block(lab);
                }
                Statement::Instr(i) => {
                    self.b.span = i.span;
                    self.instruction(i)?;
                }
                Statement::Block(inner) => self.block(inner)?,
                Statement::Pragma(..) | Statement::Loc(..) | Statement::CallPrototype { .. } => {}
                // Read by `brx.idx` (control.rs `branch_tables`).
                Statement::BranchTargets { .. } => {}
            }
        }
        self.scopes.pop();
        Ok(())
    }

    fn declare(&mut self, v: &ast::VarDecl) -> R {
        self.b.span = v.span;
        match v.space {
            StateSpace::Reg => {
                let ty = match v.ty {
                    VarType::Scalar(t) => t,
                    _ => return self.err("a register of opaque type"),
                };
                let name = self.m.name(v.name);
                self.scopes
                    .declare_reg(&mut self.b, &self.numbered, v, name, ty);
            }
            StateSpace::Local => {
                let offset = self.local_slots[&v.span.lo];
                self.scopes.bind(v.name, Binding::Local { offset });
            }
            StateSpace::Shared => {
                let addr = match self.layout.fn_shared.get(&v.span.lo) {
                    Some(&a) => a,
                    None => match self.layout.vars.get(&v.name) {
                        Some(Binding::Shared { addr }) => *addr,
                        _ => return self.err("unplaced .shared variable"),
                    },
                };
                self.scopes.bind(v.name, Binding::Shared { addr });
            }
            StateSpace::Param => {
                let (size, _) = var_size_align(v);
                let words = size.div_ceil(4).max(1);
                let first = self.b.valigned(if words >= 2 { 2 } else { 1 });
                for _ in 1..words {
                    self.b.vreg();
                }
                // Sub-word stores merge into their word: start from zero.
                if sub_word(v) {
                    for w in 0..words {
                        self.mov(first + w, rz())?;
                    }
                }
                self.scopes
                    .bind(v.name, Binding::ParamWords { first, words });
            }
            other => return self.err(format!("{} declaration in a function", other.text())),
        }
        Ok(())
    }

    pub fn label_of(&mut self, s: Sym) -> u32 {
        if let Some(&l) = self.labels.get(&s) {
            return l;
        }
        let l = self.b.new_label();
        self.labels.insert(s, l);
        l
    }

    pub fn name(&self, s: Sym) -> &'m str {
        self.m.name(s)
    }

    pub fn lookup(&self, s: Sym) -> Option<Binding> {
        self.scopes.lookup(s)
    }

    /// One PTX instruction, with its guard.
    fn instruction(&mut self, i: &Instruction) -> R {
        let Some(g) = i.guard else {
            return self.dispatch(i);
        };
        let pv = match self.lookup(g.reg) {
            Some(Binding::Reg { val: Val::P(p), .. }) => p,
            _ => return self.err(format!("guard `{}` is not a predicate", self.name(g.reg))),
        };
        if i.opcode == Opcode::Bra {
            return self.lower_bra(i, Some(guard(pv, g.negated)));
        }
        // Try the guard on every emitted instruction; a sequence with its
        // own predication or control flow is branched around instead.
        let nblocks = self.b.blocks.len();
        let ninsts = self.b.blocks.last().map_or(0, |b| b.insts.len());
        self.b.guard = Some(guard(pv, g.negated));
        let res = self.dispatch(i);
        self.b.guard = None;
        let simple = self.b.blocks.len() == nblocks;
        match res {
            Ok(()) if simple => return Ok(()),
            Err(e) if !e.msg.starts_with("internal: guarded") => return Err(e),
            _ => {}
        }
        self.b.blocks.truncate(nblocks);
        self.b
            .blocks
            .last_mut()
            .expect("a block")
            .insts
            .truncate(ninsts);
        let skip = self.b.new_label();
        self.branch(Some(guard(pv, !g.negated)), skip)?;
        self.dispatch(i)?;
        self.b.start_block(skip);
        Ok(())
    }

    /// `[@g] BRA target`, then a new block.
    pub fn branch(&mut self, g: Option<crate::ir::sass_text::Guard>, target: u32) -> R {
        self.b
            .emit_g(g, Op::BRA, &[], [crate::ir::Operand::Label(target)])?;
        let next = self.b.new_label();
        self.b.start_block(next);
        Ok(())
    }

    fn dispatch(&mut self, i: &Instruction) -> R {
        use Opcode as O;
        match i.opcode {
            O::Add | O::Sub | O::Addc | O::Subc => self.lower_add_sub(i),
            O::Mul | O::Mad | O::Madc | O::Mul24 | O::Mad24 | O::Fma => self.lower_mul_mad(i),
            O::Neg | O::Abs => self.lower_neg_abs(i),
            O::Min | O::Max => self.lower_min_max(i),
            O::And | O::Or | O::Xor | O::Not | O::Cnot | O::Lop3 => self.lower_logic(i),
            O::Shl | O::Shr | O::Shf => self.lower_shift(i),
            O::Popc | O::Clz | O::Brev | O::Bfind | O::Bfe | O::Bfi | O::Prmt => {
                self.lower_bitops(i)
            }
            O::Div | O::Rem => self.lower_div_rem(i),
            O::Rcp | O::Sqrt | O::Rsqrt | O::Sin | O::Cos | O::Lg2 | O::Ex2 | O::Tanh => {
                self.lower_sfu(i)
            }
            O::Copysign | O::Testp => self.lower_float_misc(i),
            O::Setp | O::Set => self.lower_setp(i),
            O::Selp | O::Slct => self.lower_selp(i),
            O::Mov => self.lower_mov(i),
            O::Ld | O::Ldu => self.lower_ld(i),
            O::St => self.lower_st(i),
            O::Cvta => self.lower_cvta(i),
            O::Cvt => self.lower_cvt(i),
            O::Bra => self.lower_bra(i, None),
            O::Brx => self.lower_brx(i),
            O::Ret => self.lower_ret(None),
            O::Exit => {
                self.b.emit(Op::EXIT, &[], [])?;
                let l = self.b.new_label();
                self.b.start_block(l);
                Ok(())
            }
            O::Call => self.lower_call(i),
            O::Bar | O::Barrier | O::Membar | O::Fence => self.lower_sync(i),
            O::Vote if i.has(crate::ptx::modifiers::Mod::Uni) => self.lower_warp_sync(i),
            O::Match | O::Redux => self.lower_warp_sync(i),
            O::Shfl | O::Vote | O::Activemask => self.lower_warp(i),
            O::Atom | O::Red => self.lower_atom(i),
            O::Trap => {
                // BPT transfers control (to the trap handler): it ends its
                // block, like EXIT; what follows starts a new one.
                self.b.emit(Op::BPT, &["TRAP"], [imm(1)])?;
                let l = self.b.new_label();
                self.b.start_block(l);
                Ok(())
            }
            O::Prefetch | O::Prefetchu | O::Pmevent => Ok(()),
            // DELIBERATE DIFFERENCE: ptxas 11.8 emits `BPT.TRAP 0x1` for
            // `brkpt` (sm_70/80/90), which stops the kernel unless a
            // debugger resumes it; the PTX interpreter, the semantic
            // reference, executes `brkpt` as a no-op (no debugger is
            // attached to a differential run), and so does the lowering.
            O::Brkpt => Ok(()),
            O::Tex | O::Tld4 => self.lower_tex(i),
            O::Txq => self.lower_txq(i),
            O::Suld | O::Sust | O::Sured => self.lower_surf(i),
            O::Suq => self.lower_suq(i),
            O::Istypep => self.lower_istypep(i),
            O::Isspacep => self.lower_isspacep(i),
            O::Sad | O::Dp4a | O::Dp2a | O::Bmsk | O::Szext | O::Fns => self.lower_int_misc(i),
            O::Nanosleep => {
                let s = self.src32(&i.operands[0], crate::ptx::types::ScalarType::U32)?;
                self.b.emit(Op::NANOSLEEP, &[], [s])
            }
        }
    }
}

/// Names used as address operands outside brackets (`mov.u64 %rd, name`,
/// `name+4`): candidates for parameters whose address is taken.
fn param_addresses(body: &ast::Block) -> Vec<Sym> {
    fn walk(b: &ast::Block, out: &mut Vec<Sym>) {
        for s in &b.stmts {
            match s {
                Statement::Instr(i) if matches!(i.opcode, Opcode::Mov | Opcode::Cvta) => {
                    for o in i.operands.iter().skip(1) {
                        match o.kind {
                            ast::OperandKind::Name(s) | ast::OperandKind::SymOffset(s, _) => {
                                out.push(s)
                            }
                            _ => {}
                        }
                    }
                }
                Statement::Block(inner) => walk(inner, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(body, &mut out);
    out
}

impl Cx<'_> {
    /// Registers of a kernel body written exactly once, by `ld.param.{u64,
    /// b64,s64}` of a whole 8-byte kernel parameter: the texture handle
    /// registers the slot form can name (tex.rs).
    fn kernel_param_handles(&self, body: &ast::Block) -> FxHashMap<Sym, u32> {
        fn names(o: &ast::Operand, out: &mut Vec<Sym>) {
            match &o.kind {
                ast::OperandKind::Name(s) => out.push(*s),
                ast::OperandKind::PredPair(a, b) => {
                    out.push(*a);
                    out.push(*b)
                }
                ast::OperandKind::Vector(v) | ast::OperandKind::VectorPred(v, _) => {
                    v.iter().for_each(|e| names(e, out))
                }
                _ => {}
            }
        }
        fn walk(
            cx: &Cx<'_>,
            b: &ast::Block,
            writes: &mut FxHashMap<Sym, u32>,
            loads: &mut FxHashMap<Sym, u32>,
        ) {
            for s in &b.stmts {
                match s {
                    Statement::Instr(i) => {
                        let mut w = Vec::new();
                        if let Some(o) = i.operands.first() {
                            names(o, &mut w);
                        }
                        for n in &w {
                            *writes.entry(*n).or_default() += 1;
                        }
                        if i.opcode == Opcode::Ld
                            && i.ty().is_some_and(|t| t.bits() == 64)
                            && w.len() == 1
                        {
                            if let Some(ast::OperandKind::Addr(a)) =
                                i.operands.get(1).map(|o| &o.kind)
                            {
                                if let ast::AddrBase::Name(p) = a.base {
                                    if let Some(Binding::KernelParam { offset, size: 8 }) =
                                        cx.lookup(p)
                                    {
                                        if a.offset == 0 {
                                            loads.insert(w[0], cx.cb.param_base + offset);
                                        }
                                    }
                                }
                            }
                        }
                    }
                    Statement::Block(inner) => walk(cx, inner, writes, loads),
                    _ => {}
                }
            }
        }
        let mut writes = FxHashMap::default();
        let mut loads = FxHashMap::default();
        walk(self, body, &mut writes, &mut loads);
        loads.retain(|k, _| writes.get(k) == Some(&1));
        loads
    }

    pub(crate) fn layout_const_global(&self) -> Option<u32> {
        self.layout.const_global
    }

    /// The size of constant bank 3 (the module's `.const` data).
    pub(crate) fn layout_const_bank_len(&self) -> u32 {
        self.layout.const_bank.len() as u32
    }

    /// Module-scope variable bindings (shared and const).
    /// The module-scope bindings: the layout's variables and the kernel's
    /// `.texref`/`.surfref` words.
    fn layout_vars(&self) -> Vec<(Sym, Binding)> {
        self.layout
            .vars
            .iter()
            .map(|(k, v)| (*k, *v))
            .chain(
                self.res_refs
                    .iter()
                    .map(|&(s, offset, kind)| (s, Binding::ResourceRef { offset, kind })),
            )
            .collect()
    }
}
