//! AST to executable form: flattens each function, numbers registers (a
//! `%r<46>` declaration is 46 consecutive slots; inner scopes shadow outer
//! ones), resolves labels to instruction indices and variables to locations,
//! and converts immediates to the bits of the operand's type.
//!
//! Placement of variables (documented here because runners must agree):
//! - module `.global` variables follow the launch buffers, from the first
//!   256-byte boundary after them, each at its alignment;
//! - `.const` variables form the constant bank from offset 0;
//! - `.shared` variables (module or function scope) form the CTA's static
//!   shared memory from offset 0; `.extern .shared` arrays start at the end
//!   of it (aligned), which is where dynamic shared memory begins;
//! - `.local` variables and a `.func`'s `.param` variables live in the
//!   thread's per-call frame.

use super::program::*;
use crate::launch::{limits, LaunchSpec, ParamBlock};
use ptxc::float::{FloatType, Rounding};
use ptxc::ptx::ast::{
    self, AddrBase as AstBase, FuncKind, Imm, Init, Module, OperandKind, StateSpace, Statement,
    VarDecl, VarType,
};
use ptxc::ptx::intern::{NumberedNames, Sym};
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::modifiers::{Mod, ModCat};
use ptxc::ptx::printer::instruction_text;
use ptxc::ptx::span::SourceFile;
use ptxc::ptx::types::ScalarType;
use rustc_hash::FxHashMap;

/// A decode failure: the module uses something the interpreter cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, DecodeError> {
    Err(DecodeError(msg.into()))
}

#[derive(Clone, Copy)]
enum Binding {
    /// A register: its first slot, its element type, and its vector width
    /// (`.reg .v4 .b32 %v`: 4 consecutive slots, the components; 1 for a
    /// scalar).
    Reg {
        slot: u32,
        ty: ScalarType,
        per: u32,
    },
    Var(VarRef),
    Handle(u64),
}

#[derive(Default)]
struct Scope {
    names: FxHashMap<Sym, Binding>,
    /// The members of `%r<N>` declarations that the module names at all
    /// (the others can be neither read nor written: `%r<2000000000>` gets
    /// slots for the few it uses). A plain declaration (`names`) wins.
    members: FxHashMap<Sym, Binding>,
}

fn align_up(x: u64, a: u64) -> u64 {
    let a = a.max(1);
    x.div_ceil(a) * a
}

/// Byte size and alignment of a variable.
fn var_size_align(v: &VarDecl) -> (u64, u64) {
    v.size_align().unwrap_or((0, 1))
}

/// The little-endian bytes of an initializer for a variable of element type `t`.
fn init_bytes(
    init: &Init,
    t: ScalarType,
    out: &mut Vec<u8>,
    addr_of: &dyn Fn(Sym) -> Option<u64>,
) -> Result<(), DecodeError> {
    let n = t.bytes() as usize;
    let bits: u64 =
        match init {
            Init::List(items) => {
                for i in items {
                    init_bytes(i, t, out, addr_of)?;
                }
                return Ok(());
            }
            Init::Int(v) => {
                if t.is_float() {
                    float_from_f64(t, *v as f64)
                } else {
                    *v as u64
                }
            }
            Init::F32(b) => {
                if t == ScalarType::F64 {
                    f64::from(f32::from_bits(*b)).to_bits()
                } else {
                    u64::from(*b)
                }
            }
            Init::F64(b) => {
                if t == ScalarType::F32 {
                    u64::from((f64::from_bits(*b) as f32).to_bits())
                } else {
                    *b
                }
            }
            Init::Float(b) => float_from_f64(t, f64::from_bits(*b)),
            Init::Addr { sym, offset, .. } => match addr_of(*sym) {
                Some(a) => a.wrapping_add(*offset as u64),
                None => return err(
                    "an initializer takes the address of something that is not a global variable",
                ),
            },
            Init::Fields(_) => return Ok(()),
        };
    out.extend_from_slice(&bits.to_le_bytes()[..n.min(8)]);
    Ok(())
}

/// Appends variable `v` to a memory image at its alignment, with its
/// initializer (zeros without one); returns its offset.
fn place_initialized(
    image: &mut Vec<u8>,
    v: &VarDecl,
    t: ScalarType,
    size: u64,
    align: u64,
    global_addrs: &FxHashMap<Sym, u64>,
) -> Result<u64, DecodeError> {
    let off = align_up(image.len() as u64, align);
    image.resize(off as usize, 0);
    if let Some(init) = &v.init {
        init_bytes(init, t, image, &|s| global_addrs.get(&s).copied())?;
    }
    image.resize((off + size) as usize, 0);
    Ok(off)
}

/// A decimal value as the bits of float type `t` (round to nearest).
fn float_from_f64(t: ScalarType, v: f64) -> u64 {
    match t {
        ScalarType::F64 => v.to_bits(),
        ScalarType::F32 => u64::from((v as f32).to_bits()),
        ScalarType::F16 => crate::launch::f64_to_f16_bits(v) as u64,
        ScalarType::Bf16 => ptxc::float::cvt_float(
            FloatType::F64,
            FloatType::Bf16,
            v.to_bits(),
            Rounding::Rn,
            Default::default(),
        ),
        _ => v.to_bits(),
    }
}

/// An immediate as the bits of type `t`: integers truncate (two's
/// complement); float literals convert to `t` (round to nearest); an integer
/// literal used with a float type means its value (decision: PTX ISA 4.5
/// leaves this to the assembler; ptxas reads `mov.f32 %f, 1` as 1.0).
pub fn imm_bits(imm: Imm, t: ScalarType) -> u64 {
    match imm {
        Imm::Int { .. } => {
            let v = imm.int_value().unwrap();
            if t.is_float() && !matches!(t, ScalarType::F16x2 | ScalarType::Bf16x2) {
                float_from_f64(t, v as f64)
            } else {
                let bits = t.bits().min(64);
                let v = v as u64;
                if bits >= 64 {
                    v
                } else {
                    v & ((1u64 << bits) - 1)
                }
            }
        }
        Imm::F32(b) => match t {
            ScalarType::F64 => f64::from(f32::from_bits(b)).to_bits(),
            ScalarType::F16 | ScalarType::Bf16 => float_from_f64(t, f64::from(f32::from_bits(b))),
            _ => u64::from(b),
        },
        Imm::F64(b) => match t {
            ScalarType::F64 | ScalarType::B64 | ScalarType::U64 | ScalarType::S64 => b,
            _ => float_from_f64(t, f64::from_bits(b)),
        },
        Imm::Float(b) => float_from_f64(t, f64::from_bits(b)),
    }
}

fn rounding_of(m: Mod) -> Option<Rounding> {
    Some(match m {
        Mod::Rn | Mod::Rni | Mod::Rna => Rounding::Rn,
        Mod::Rz | Mod::Rzi => Rounding::Rz,
        Mod::Rm | Mod::Rmi => Rounding::Rm,
        Mod::Rp | Mod::Rpi => Rounding::Rp,
        _ => return None,
    })
}

fn space_of(mods: &ast::Mods) -> Option<Space> {
    mods.iter().find_map(|m| match m {
        Mod::Global => Some(Space::Global),
        Mod::Shared | Mod::SharedCta | Mod::SharedCluster => Some(Space::Shared),
        Mod::Local => Some(Space::Local),
        Mod::Const => Some(Space::Const),
        Mod::Param | Mod::ParamEntry | Mod::ParamFunc => Some(Space::KernelParam),
        _ => None,
    })
}

/// Decodes the module for a launch of `spec.kernel`.
pub fn decode(
    m: &Module,
    src: &str,
    spec: &LaunchSpec,
    globals_base: u64,
    params: &ParamBlock,
) -> Result<Program, DecodeError> {
    let file = SourceFile::new("", src);
    let addr64 = m.address_bits() == 64;
    // Functions with bodies, by name.
    let mut func_index: FxHashMap<Sym, u32> = FxHashMap::default();
    let bodies: Vec<&ast::Function> = m.functions().filter(|f| f.body.is_some()).collect();
    for (i, f) in bodies.iter().enumerate() {
        func_index.insert(f.name, i as u32);
    }
    let Some(&entry) = m.names.get(&spec.kernel).and_then(|s| func_index.get(&s)) else {
        return err(format!("the module has no kernel '{}'", spec.kernel));
    };
    if bodies[entry as usize].kind != FuncKind::Entry {
        return err(format!("'{}' is a .func, not an .entry", spec.kernel));
    }

    // Module-scope variables.
    let mut module_scope: FxHashMap<Sym, Binding> = FxHashMap::default();
    let mut globals = Vec::new();
    let mut consts = Vec::new();
    let mut shared_top = 0u64;
    let mut externs: Vec<&VarDecl> = Vec::new();
    let mut texrefs = Vec::new();
    let mut global_addrs: FxHashMap<Sym, u64> = FxHashMap::default();
    for v in m.globals() {
        let (size, align) = var_size_align(v);
        match (v.space, v.ty) {
            (_, VarType::Texref | VarType::Surfref | VarType::Samplerref) => {
                let name = m.name(v.name).to_string();
                // A module-level `.surfref` binds to the spec's surface of
                // the same name (corpus/LAUNCH_SPEC.md "Surfaces"); an unbound one
                // is handle 0, which every surface instruction refuses.
                let handle = if v.ty == VarType::Surfref {
                    spec.surface_handle(&name).unwrap_or(0)
                } else {
                    spec.texture_handle(&name).unwrap_or(0)
                };
                texrefs.push((name, handle));
                module_scope.insert(v.name, Binding::Handle(handle));
            }
            (StateSpace::Global, VarType::Scalar(t)) => {
                limits::check_module_variables(align_up(globals.len() as u64, align) + size)
                    .or_else(err)?;
                let off = place_initialized(&mut globals, v, t, size, align, &global_addrs)?;
                let addr = globals_base + off;
                global_addrs.insert(v.name, addr);
                module_scope.insert(
                    v.name,
                    Binding::Var(VarRef {
                        space: Space::Global,
                        offset: addr,
                    }),
                );
            }
            (StateSpace::Const, VarType::Scalar(t)) => {
                let off = place_initialized(&mut consts, v, t, size, align, &global_addrs)?;
                module_scope.insert(
                    v.name,
                    Binding::Var(VarRef {
                        space: Space::Const,
                        offset: off,
                    }),
                );
            }
            (StateSpace::Shared, _) => {
                if v.dims.first() == Some(&None) || v.linkage == ast::Linkage::Extern {
                    externs.push(v);
                } else {
                    let off = align_up(shared_top, align);
                    shared_top = off + size;
                    module_scope.insert(
                        v.name,
                        Binding::Var(VarRef {
                            space: Space::Shared,
                            offset: off,
                        }),
                    );
                }
            }
            _ => {
                return err(format!(
                    "module variable '{}' in {} is not supported",
                    m.name(v.name),
                    v.space.text()
                ))
            }
        }
    }
    // Function-scope .shared variables are CTA-wide too: place them now.
    let mut fn_shared: FxHashMap<(usize, Sym), u64> = FxHashMap::default();
    for (fi, f) in bodies.iter().enumerate() {
        collect_shared(f.body.as_ref().unwrap(), &mut |v: &VarDecl| {
            let (size, align) = var_size_align(v);
            if v.dims.first() == Some(&None) {
                externs.push(v);
            } else {
                let off = align_up(shared_top, align);
                shared_top = off + size;
                fn_shared.insert((fi, v.name), off);
            }
        });
    }
    let mut extern_at = FxHashMap::default();
    let mut dyn_base = shared_top;
    for v in &externs {
        let (_, align) = var_size_align(v);
        dyn_base = align_up(dyn_base, align.max(16));
    }
    limits::check_shared(
        dyn_base,
        spec.dynamic_shared_bytes,
        limits::max_shared_any_target(),
        "any target",
    )
    .or_else(err)?;
    for v in &externs {
        extern_at.insert(v.name, dyn_base);
        module_scope.insert(
            v.name,
            Binding::Var(VarRef {
                space: Space::Shared,
                offset: dyn_base,
            }),
        );
    }

    let numbered = m.names.numbered();
    let mut funcs = Vec::new();
    for (fi, f) in bodies.iter().enumerate() {
        let mut d = FnDecoder {
            m,
            numbered: &numbered,
            file: &file,
            func_index: &func_index,
            module_scope: &module_scope,
            fn_shared: &fn_shared,
            extern_at: &extern_at,
            fi,
            scopes: Vec::new(),
            nregs: 0,
            reg_names: Vec::new(),
            frame: 0,
            labels: FxHashMap::default(),
            targets: FxHashMap::default(),
            insts: Vec::new(),
        };
        let mut func = d.function(f, params)?;
        super::fast::lower_function(&mut func, addr64);
        funcs.push(func);
    }
    limits::check_frame(funcs[entry as usize].frame_bytes).or_else(err)?;
    Ok(Program {
        funcs,
        entry,
        globals_base,
        globals,
        consts,
        static_shared: dyn_base,
        texrefs,
        addr64,
    })
}

fn collect_shared<'m>(b: &'m ast::Block, f: &mut dyn FnMut(&'m VarDecl)) {
    for s in &b.stmts {
        match s {
            Statement::Decl(v) if v.space == StateSpace::Shared => f(v),
            Statement::Block(inner) => collect_shared(inner, f),
            _ => {}
        }
    }
}

struct FnDecoder<'m, 'a> {
    m: &'m Module,
    file: &'a SourceFile<'a>,
    func_index: &'a FxHashMap<Sym, u32>,
    module_scope: &'a FxHashMap<Sym, Binding>,
    fn_shared: &'a FxHashMap<(usize, Sym), u64>,
    extern_at: &'a FxHashMap<Sym, u64>,
    numbered: &'a NumberedNames<'m>,
    fi: usize,
    scopes: Vec<Scope>,
    nregs: u32,
    reg_names: Vec<Box<str>>,
    frame: u64,
    labels: FxHashMap<Sym, u32>,
    targets: FxHashMap<Sym, Vec<u32>>,
    insts: Vec<Inst>,
}

impl<'m> FnDecoder<'m, '_> {
    fn function(
        &mut self,
        f: &'m ast::Function,
        params: &ParamBlock,
    ) -> Result<Function, DecodeError> {
        let mut top = Scope::default();
        let mut params_of = Vec::new();
        let mut ret_slots = Vec::new();
        let mut reg_rets = Vec::new();
        for (k, p) in f.params.iter().enumerate() {
            match p.space {
                StateSpace::Reg => {
                    let slot = self.alloc_reg(p.name, 1);
                    top.names.insert(
                        p.name,
                        Binding::Reg {
                            slot,
                            ty: p.scalar().unwrap_or(ScalarType::B32),
                            per: 1,
                        },
                    );
                    params_of.push(Param::Reg(slot));
                }
                _ if f.kind == FuncKind::Entry => {
                    let off = params.offsets.get(k).copied().unwrap_or(0);
                    top.names.insert(
                        p.name,
                        Binding::Var(VarRef {
                            space: Space::KernelParam,
                            offset: off,
                        }),
                    );
                }
                _ => {
                    let (off, size) = self.frame_slot(p);
                    params_of.push(Param::Mem { offset: off, size });
                    top.names.insert(
                        p.name,
                        Binding::Var(VarRef {
                            space: Space::FrameParam,
                            offset: off,
                        }),
                    );
                }
            }
        }
        for p in f.returns.iter().flatten() {
            if p.space == StateSpace::Reg {
                let slot = self.alloc_reg(p.name, 1);
                top.names.insert(
                    p.name,
                    Binding::Reg {
                        slot,
                        ty: p.scalar().unwrap_or(ScalarType::B32),
                        per: 1,
                    },
                );
                reg_rets.push(slot);
            } else {
                let (off, size) = self.frame_slot(p);
                ret_slots.push((off, size));
                top.names.insert(
                    p.name,
                    Binding::Var(VarRef {
                        space: Space::FrameParam,
                        offset: off,
                    }),
                );
            }
        }
        self.scopes.push(top);
        let body = f.body.as_ref().unwrap();
        let mut pc = 0;
        self.collect_labels(body, &mut pc);
        self.block(body)?;
        // Falling off the end of a function returns.
        if self
            .insts
            .last()
            .is_none_or(|i| !matches!(i.op, Opcode::Ret | Opcode::Exit | Opcode::Bra))
        {
            self.insts.push(Inst {
                op: Opcode::Ret,
                class: Class::Control,
                mods: ModSet::default(),
                ty: ScalarType::B32,
                ty2: ScalarType::B32,
                rnd: None,
                space: Space::Generic,
                vec: 1,
                guard: None,
                ops: Vec::new(),
                line: 0,
                text: "ret (end of function)".into(),
            });
        }
        Ok(Function {
            name: self.m.name(f.name).to_string(),
            insts: std::mem::take(&mut self.insts),
            nregs: self.nregs,
            reg_names: std::mem::take(&mut self.reg_names),
            frame_bytes: align_up(self.frame, 16),
            params: params_of,
            ret_slots,
            reg_rets,
            fast: Vec::new(),
            init_regs: Vec::new(),
            init_written: Vec::new(),
        })
    }

    /// Places a variable in the call frame at its alignment: (offset, size).
    fn frame_slot(&mut self, v: &VarDecl) -> (u64, u64) {
        let (size, align) = var_size_align(v);
        let off = align_up(self.frame, align);
        self.frame = off + size;
        (off, size)
    }

    /// Slots for a register of `count` components (a `.vN` vector: its
    /// components named `%v.x`.., as PTX spells them).
    fn alloc_reg(&mut self, name: Sym, count: u32) -> u32 {
        let slot = self.nregs;
        self.nregs += count;
        let base = self.m.name(name);
        if count == 1 {
            self.reg_names.push(base.into());
        } else {
            for c in ["x", "y", "z", "w"].iter().take(count as usize) {
                self.reg_names.push(format!("{base}.{c}").into());
            }
        }
        slot
    }

    fn collect_labels(&mut self, b: &ast::Block, pc: &mut u32) {
        for s in &b.stmts {
            match s {
                Statement::Label(l, _) => {
                    self.labels.insert(*l, *pc);
                }
                Statement::Instr(_) => *pc += 1,
                Statement::Block(inner) => self.collect_labels(inner, pc),
                _ => {}
            }
        }
        for s in &b.stmts {
            if let Statement::BranchTargets { label, targets, .. } = s {
                let pcs = targets
                    .iter()
                    .filter_map(|(t, _)| self.labels.get(t).copied())
                    .collect();
                self.targets.insert(*label, pcs);
            }
        }
    }

    fn block(&mut self, b: &'m ast::Block) -> Result<(), DecodeError> {
        let mut scope = Scope::default();
        for s in &b.stmts {
            if let Statement::Decl(v) = s {
                self.declare(&mut scope, v)?;
            }
        }
        self.scopes.push(scope);
        for s in &b.stmts {
            match s {
                Statement::Instr(i) => {
                    let inst = self.instruction(i)?;
                    self.insts.push(inst);
                }
                Statement::Block(inner) => self.block(inner)?,
                _ => {}
            }
        }
        self.scopes.pop();
        Ok(())
    }

    fn declare(&mut self, scope: &mut Scope, v: &'m VarDecl) -> Result<(), DecodeError> {
        match v.space {
            StateSpace::Reg => {
                let ty = v.scalar().unwrap_or(ScalarType::B32);
                let per = u32::from(v.vector.unwrap_or(1));
                match v.range {
                    Some(n) => {
                        let prefix = self.m.name(v.name);
                        for &(_, member) in self.numbered.members(prefix, n) {
                            let slot = self.alloc_reg(member, per);
                            scope.members.insert(member, Binding::Reg { slot, ty, per });
                        }
                    }
                    None => {
                        let slot = self.alloc_reg(v.name, per);
                        scope.names.insert(v.name, Binding::Reg { slot, ty, per });
                    }
                }
            }
            StateSpace::Local | StateSpace::Param => {
                let (off, _) = self.frame_slot(v);
                let space = if v.space == StateSpace::Local {
                    Space::Local
                } else {
                    Space::FrameParam
                };
                scope
                    .names
                    .insert(v.name, Binding::Var(VarRef { space, offset: off }));
            }
            StateSpace::Shared => {
                let off = self
                    .fn_shared
                    .get(&(self.fi, v.name))
                    .or_else(|| self.extern_at.get(&v.name))
                    .copied()
                    .unwrap_or(0);
                scope.names.insert(
                    v.name,
                    Binding::Var(VarRef {
                        space: Space::Shared,
                        offset: off,
                    }),
                );
            }
            other => {
                return err(format!(
                    "a {} declaration inside a function is not supported",
                    other.text()
                ))
            }
        }
        Ok(())
    }

    fn lookup(&self, s: Sym) -> Option<Binding> {
        self.scopes
            .iter()
            .rev()
            .find_map(|sc| sc.names.get(&s).or_else(|| sc.members.get(&s)))
            .or_else(|| self.module_scope.get(&s))
            .copied()
    }

    fn reg(&self, s: Sym) -> Result<u32, DecodeError> {
        match self.lookup(s) {
            Some(Binding::Reg { slot, .. }) => Ok(slot),
            _ => err(format!("'{}' is not a register", self.m.name(s))),
        }
    }

    fn instruction(&mut self, i: &'m ast::Instruction) -> Result<Inst, DecodeError> {
        let mut mods = ModSet::default();
        let mut types = Vec::new();
        let mut rnd = None;
        let mut vec = 1;
        for md in i.mods.iter() {
            mods.insert(md);
            if md.cat() == ModCat::Type {
                types.push(md.as_type().unwrap());
            }
            if let Some(r) = rounding_of(md) {
                rnd = Some(r);
            }
            match md {
                Mod::V2 => vec = 2,
                Mod::V4 => vec = 4,
                Mod::V8 => vec = 8,
                _ => {}
            }
        }
        let ty = types.first().copied().unwrap_or(ScalarType::B32);
        let ty2 = types.get(1).copied().unwrap_or(ty);
        // Most opcodes use the last type for operands; cvt/set/slct/dp4a have two.
        let (ty, ty2) = match i.opcode {
            Opcode::Cvt
            | Opcode::Set
            | Opcode::Slct
            | Opcode::Dp4a
            | Opcode::Dp2a
            | Opcode::Tex
            | Opcode::Tld4 => (ty, ty2),
            _ => (*types.last().unwrap_or(&ty), ty2),
        };
        let space = space_of(&i.mods).unwrap_or(Space::Generic);
        let guard = match i.guard {
            Some(g) => Some((self.reg(g.reg)?, g.negated)),
            None => None,
        };
        let mut ops = Vec::with_capacity(i.operands.len());
        for (k, o) in i.operands.iter().enumerate() {
            let oty = operand_type(i.opcode, k, ty, ty2);
            ops.push(match self.call_args(i, k) {
                Some(types) => self.typed_list(o, &types)?,
                None => self.operand(o, oty)?,
            });
        }
        let (line, _) = self.file.line_col(i.span.lo);
        Ok(Inst {
            op: i.opcode,
            class: Class::of(i.opcode, ty, ty2),
            mods,
            ty,
            ty2,
            rnd,
            space,
            vec,
            guard,
            ops,
            line,
            text: instruction_text(self.m, i).into(),
        })
    }

    /// For the argument list (operand `k`) of a direct `call`, the types of
    /// the callee's parameters: an immediate argument ("Arguments may be
    /// registers, immediate constants, or variables in .param space", PTX
    /// ISA 9.7.12.4) has its parameter's type (`call f, (7, 2.5)` with
    /// `.reg .b64`, `.reg .f32` parameters passes 64-bit 7 and f32 2.5, as
    /// ptxas 11.8 does); `call` itself has no type.
    fn call_args(&self, i: &ast::Instruction, k: usize) -> Option<Vec<ScalarType>> {
        if i.opcode != Opcode::Call || k == 0 {
            return None;
        }
        let OperandKind::List(_) = i.operands[k].kind else {
            return None;
        };
        let OperandKind::Name(callee) = i.operands[k - 1].kind else {
            return None;
        };
        let f = self.m.function(self.m.name(callee))?;
        Some(
            f.params
                .iter()
                .map(|p| p.scalar().unwrap_or(ScalarType::B32))
                .collect(),
        )
    }

    /// An argument list with each element decoded at its parameter's type.
    fn typed_list(&self, o: &ast::Operand, types: &[ScalarType]) -> Result<Opnd, DecodeError> {
        let OperandKind::List(v) = &o.kind else {
            return self.operand(o, ScalarType::B32);
        };
        Ok(Opnd::List(
            v.iter()
                .enumerate()
                .map(|(k, e)| self.operand(e, types.get(k).copied().unwrap_or(ScalarType::B32)))
                .collect::<Result<Vec<_>, _>>()?
                .into_boxed_slice(),
        ))
    }

    fn operand(&self, o: &ast::Operand, ty: ScalarType) -> Result<Opnd, DecodeError> {
        Ok(match &o.kind {
            OperandKind::Name(s) => {
                if let Some(&pc) = self.labels.get(s) {
                    return Ok(Opnd::Label(pc));
                }
                if let Some(t) = self.targets.get(s) {
                    return Ok(Opnd::Targets(t.clone().into_boxed_slice()));
                }
                match self.lookup(*s) {
                    Some(Binding::Reg {
                        slot,
                        ty: ScalarType::Pred,
                        ..
                    }) => Opnd::Pred { slot, neg: false },
                    // A whole vector register is the list of its components
                    // (the vector operand of ld/st/tex/suld/sust).
                    Some(Binding::Reg { slot, per, .. }) if per > 1 => {
                        Opnd::Vector((slot..slot + per).map(Opnd::Reg).collect())
                    }
                    Some(Binding::Reg { slot, .. }) => Opnd::Reg(slot),
                    Some(Binding::Var(v)) => Opnd::VarAddr(v, 0),
                    Some(Binding::Handle(h)) => Opnd::Imm(h),
                    None => match self.func_index.get(s) {
                        Some(&f) => Opnd::Func(f),
                        // A call prototype label (indirect calls): unused at run time.
                        None => Opnd::Sink,
                    },
                }
            }
            OperandKind::Component(s, c) => Opnd::Reg(self.reg(*s)? + u32::from(*c)),
            OperandKind::Not(s) => Opnd::Pred {
                slot: self.reg(*s)?,
                neg: true,
            },
            OperandKind::PredPair(a, b) => Opnd::RegPred(self.reg(*a)?, self.reg(*b)?),
            OperandKind::Special(r) => Opnd::Sreg(*r),
            OperandKind::Imm(imm) => Opnd::Imm(imm_bits(*imm, ty)),
            OperandKind::SymOffset(s, off) => match self.lookup(*s) {
                Some(Binding::Var(v)) => Opnd::VarAddr(v, *off),
                _ => return err(format!("'{}' is not a variable", self.m.name(*s))),
            },
            OperandKind::Addr(a) => {
                let base = match a.base {
                    AstBase::None => AddrBase::Abs,
                    AstBase::Name(s) => match self.lookup(s) {
                        Some(Binding::Reg { slot, .. }) => AddrBase::Reg(slot),
                        Some(Binding::Var(v)) => AddrBase::Var(v),
                        Some(Binding::Handle(h)) => AddrBase::Handle(h),
                        None => return err(format!("unknown address base '{}'", self.m.name(s))),
                    },
                };
                let rest = a
                    .rest
                    .iter()
                    .map(|r| self.operand(r, ScalarType::B32))
                    .collect::<Result<Vec<_>, _>>()?;
                Opnd::Addr {
                    base,
                    offset: a.offset,
                    rest: rest.into_boxed_slice(),
                }
            }
            OperandKind::Vector(v) => Opnd::Vector(
                v.iter()
                    .map(|e| self.operand(e, ty))
                    .collect::<Result<Vec<_>, _>>()?
                    .into_boxed_slice(),
            ),
            OperandKind::VectorPred(v, p) => Opnd::VectorPred(
                v.iter()
                    .map(|e| self.operand(e, ty))
                    .collect::<Result<Vec<_>, _>>()?
                    .into_boxed_slice(),
                self.reg(*p)?,
            ),
            OperandKind::List(v) => Opnd::List(
                v.iter()
                    .map(|e| self.operand(e, ty))
                    .collect::<Result<Vec<_>, _>>()?
                    .into_boxed_slice(),
            ),
            OperandKind::Sink => Opnd::Sink,
        })
    }
}

/// The type an operand position is read or written in, for converting
/// immediates: cvt's source is its second type; set/slct compare in their
/// second type; shift amounts and bit positions are .u32.
fn operand_type(op: Opcode, k: usize, ty: ScalarType, ty2: ScalarType) -> ScalarType {
    use Opcode::*;
    match (op, k) {
        (Cvt, 1) | (Cvt, 2) => ty2,
        // cvt.pack's c and cvt.rs's rbits are .b32
        (Cvt, 3) => ScalarType::B32,
        (Set, 1) | (Set, 2) => ty2,
        (Slct, 3) => ty2,
        (Dp4a | Dp2a, 2) => ty2,
        (Shl | Shr, 2) | (Bfe, 2) | (Bfe, 3) | (Bfi, 3) | (Bfi, 4) | (Shf, 3) => ScalarType::U32,
        (Mul | Mad, _) if ty.bits() < 64 => ty,
        (Shfl, 2..) | (Vote, 2) | (Match, 2) | (Redux, 2) => ScalarType::B32,
        (Selp, 3) | (Setp, 3) => ScalarType::Pred,
        _ => ty,
    }
}
