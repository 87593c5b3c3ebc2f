//! Data movement and conversion (PTX ISA 9.7.8, 9.7.9).

use super::operands::{Fit, ICx};
use crate::ptx::ast::*;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType::{self, *};
use crate::targets::PtxVersion;

fn v(a: u8, b: u8) -> PtxVersion {
    PtxVersion::new(a, b)
}

const MOV_TYPES: &[ScalarType] = &[
    Pred, B16, B32, B64, B128, U16, U32, U64, S16, S32, S64, F16, F16x2, Bf16, Bf16x2, F32, F64,
];
const LDST_TYPES: &[ScalarType] = &[
    B8, B16, B32, B64, B128, U8, U16, U32, U64, S8, S16, S32, S64, F16, F16x2, Bf16, Bf16x2, F32,
    F64,
];
const SPACES: &[Mod] = &[
    Mod::Global,
    Mod::Shared,
    Mod::SharedCta,
    Mod::SharedCluster,
    Mod::Local,
    Mod::Const,
    Mod::Param,
    Mod::ParamEntry,
    Mod::ParamFunc,
];
/// The spaces `cvta` converts to and from, and `isspacep` tests.
const CVTA_SPACES: &[Mod] = &[
    Mod::Global,
    Mod::Shared,
    Mod::SharedCta,
    Mod::SharedCluster,
    Mod::Local,
    Mod::Const,
    Mod::Param,
];
const LD_CACHE: &[Mod] = &[Mod::Ca, Mod::Cg, Mod::Cs, Mod::Lu, Mod::Cv];
const ST_CACHE: &[Mod] = &[Mod::Wb, Mod::Cg, Mod::Cs, Mod::Wt];
const EVICT: &[Mod] = &[
    Mod::L1EvictNormal,
    Mod::L1EvictUnchanged,
    Mod::L1EvictFirst,
    Mod::L1EvictLast,
    Mod::L1NoAllocate,
    Mod::L2EvictNormal,
    Mod::L2EvictFirst,
    Mod::L2EvictLast,
    Mod::L2CacheHint,
    Mod::L2_64B,
    Mod::L2_128B,
    Mod::L2_256B,
];
const SEM: &[Mod] = &[
    Mod::Weak,
    Mod::Volatile,
    Mod::Relaxed,
    Mod::Acquire,
    Mod::Release,
    Mod::Mmio,
];
const SCOPES: &[Mod] = &[Mod::Cta, Mod::Cluster, Mod::Gpu, Mod::Sys];

pub(super) fn check(c: &mut ICx) {
    use Opcode::*;
    match c.op() {
        Mov => mov(c),
        Prmt => {
            let modes = [Mod::F4e, Mod::B4e, Mod::Rc8, Mod::Ecl, Mod::Ecr, Mod::Rc16];
            c.allow(&modes);
            c.one_of(&modes);
            if c.one_type(&[B32]).is_some() && c.count(4) {
                c.dst(0, B32);
                c.src(1, B32);
                c.src(2, B32);
                c.src(3, B32);
            }
        }
        Ld | Ldu | St => ld_st(c),
        Prefetch | Prefetchu => {
            let mut allowed = vec![
                Mod::Global,
                Mod::Local,
                Mod::L1,
                Mod::L2,
                Mod::L2EvictLast,
                Mod::L2EvictNormal,
            ];
            if c.op() == Prefetchu {
                allowed = vec![Mod::L1];
            }
            c.allow(&allowed);
            c.require_one(
                &[Mod::L1, Mod::L2, Mod::L2EvictLast, Mod::L2EvictNormal],
                "a cache level (.L1 or .L2)",
            );
            c.no_type();
            if c.count(1) {
                c.address(0);
            }
        }
        Cvta => {
            c.allow(&[CVTA_SPACES, &[Mod::To]].concat());
            c.require_one(CVTA_SPACES, "a state space");
            if let Some(t) = c.one_type(&[U32, U64]) {
                if c.count(2) {
                    c.dst(0, t);
                    c.src(1, t);
                }
            }
        }
        Isspacep => {
            c.allow(CVTA_SPACES);
            c.require_one(CVTA_SPACES, "a state space");
            if c.count(2) {
                c.pred_dst(0, false, false);
                let at = if c.f.t.addr64 { U64 } else { U32 };
                c.src(1, at);
            }
        }
        Cvt => cvt(c),
        op => unreachable!("not a data opcode: {op:?}"),
    }
}

/// `mov.type d, a`: a register, immediate, special register, address of a
/// variable or function; vector forms pack/unpack into a wider register
/// (`mov.b64 %rd, {%r1, %r2}`, `mov.b32 {%h1, %h2}, %r`) (9.7.8.3).
fn mov(c: &mut ICx) {
    c.allow(&[]);
    let Some(t) = c.one_type(MOV_TYPES) else {
        return;
    };
    if !c.count(2) {
        return;
    }
    let dst_vec = matches!(c.operand(0).kind, OperandKind::Vector(_));
    let src_vec = matches!(c.operand(1).kind, OperandKind::Vector(_));
    match (dst_vec, src_vec) {
        (false, false) => {
            if t == Pred {
                c.pred_dst(0, false, false);
                c.pred_src(1, false);
            } else {
                c.dst(0, t);
                c.src(1, t);
            }
        }
        (true, false) | (false, true) => {
            let k = if dst_vec { 0 } else { 1 };
            let OperandKind::Vector(elems) = &c.operand(k).kind else {
                unreachable!()
            };
            let n = elems.len();
            let bits = t.bits() as usize;
            if !matches!(n, 2 | 4)
                || !bits.is_multiple_of(n)
                || !matches!(t, B32 | B64 | B128 | U32 | U64 | S32 | S64 | F32 | F64)
            {
                let span = c.operand(k).span;
                c.err(span, format!("a vector of {n} does not pack into '{t}'"));
                return;
            }
            let et = ScalarType::int_of((bits / n) as u32, false)
                .map(|u| u.bit_type())
                .unwrap_or(B16);
            if dst_vec {
                c.vector_op(0, n, et, Fit::Exact, true);
                c.src(1, t);
            } else {
                c.dst(0, t);
                c.vector_op(1, n, et, Fit::Exact, false);
            }
        }
        (true, true) => {
            let span = c.operand(0).span;
            c.err(span, "'mov' cannot move a vector to a vector");
        }
    }
}

fn vec_width(c: &mut ICx) -> Option<usize> {
    match c.one_of(&[Mod::V2, Mod::V4, Mod::V8]) {
        Some(Mod::V2) => Some(2),
        Some(Mod::V4) => Some(4),
        Some(Mod::V8) => Some(8),
        _ => None,
    }
}

/// `ld`, `ldu`, `st` with state space, cache operator, memory ordering and
/// scope, vector width (9.7.9.8-9.7.9.10). The memory-model forms
/// (.relaxed/.acquire/.release with a scope) need PTX 6.0 and sm_70; the
/// .cluster scope PTX 7.8 and sm_90.
fn ld_st(c: &mut ICx) {
    let op = c.op();
    let mut allowed: Vec<Mod> = SPACES.to_vec();
    allowed.extend(EVICT);
    allowed.extend(SCOPES);
    allowed.extend([Mod::V2, Mod::V4, Mod::V8]);
    match op {
        Opcode::Ld => {
            allowed.extend(LD_CACHE);
            allowed.extend([
                Mod::Nc,
                Mod::Weak,
                Mod::Volatile,
                Mod::Relaxed,
                Mod::Acquire,
                Mod::Mmio,
            ]);
        }
        Opcode::Ldu => {}
        _ => {
            allowed.extend(ST_CACHE);
            allowed.extend([
                Mod::Weak,
                Mod::Volatile,
                Mod::Relaxed,
                Mod::Release,
                Mod::Mmio,
            ]);
        }
    }
    c.allow(&allowed);
    let space = c.one_of(SPACES);
    if op == Opcode::Ldu && !matches!(space, None | Some(Mod::Global)) {
        let m = space.unwrap();
        let span = c.mod_span(c.mod_index(m));
        c.err(
            span,
            format!("state space '.{}' is not allowed for 'ldu'", m.text()),
        );
    }
    if c.has(Mod::Nc) && !matches!(space, Some(Mod::Global)) {
        let span = c.opcode_span();
        c.err(span, "'.nc' requires the .global state space");
    }
    if op == Opcode::St && matches!(space, Some(Mod::Const)) {
        let span = c.mod_span(c.mod_index(Mod::Const));
        c.err(span, "state space '.const' is not allowed for 'st'");
    }
    c.one_of(if op == Opcode::St { ST_CACHE } else { LD_CACHE });
    let sem = c.one_of(SEM);
    let scope = c.one_of(SCOPES);
    match sem {
        Some(Mod::Relaxed | Mod::Acquire | Mod::Release) => {
            c.gate_mod(sem.unwrap(), v(6, 0), 70);
            if scope.is_none() && !c.failed {
                let span = c.opcode_span();
                c.err(
                    span,
                    format!(
                        "'.{}' requires a scope (.cta, .cluster, .gpu or .sys)",
                        sem.unwrap().text()
                    ),
                );
            }
        }
        Some(Mod::Mmio) => {
            c.gate_mod(Mod::Mmio, v(8, 2), 70);
        }
        _ if !c.failed => {
            if let Some(s) = scope {
                let span = c.opcode_span();
                c.err(
                    span,
                    format!(
                        "scope '.{}' requires .relaxed, .acquire or .release",
                        s.text()
                    ),
                );
            }
        }
        _ => {}
    }
    c.gate_mod(Mod::Cluster, v(7, 8), 90);
    let n = vec_width(c);
    let Some(t) = c.one_type(LDST_TYPES) else {
        return;
    };
    let (ak, vk) = if op == Opcode::St { (0, 1) } else { (1, 0) };
    if !c.count_in(2, 3) {
        return;
    }
    let base = c.address(ak);
    if let Some(Some(d)) = base {
        space_matches(c, ak, d, space);
    }
    match n {
        Some(n) => c.vector_op(vk, n, t, Fit::Relaxed, op != Opcode::St),
        None if op == Opcode::St => c.src_op(vk, t, Fit::Relaxed, true),
        None => c.dst_op(vk, t, Fit::Relaxed, false),
    }
    if c.n_operands() == 3 {
        // The optional cache-policy operand of .L2::cache_hint.
        c.src(2, B64);
    }
}

/// A variable named in an address must live in the instruction's space.
/// Generic addressing of a global, shared or local variable is allowed (an
/// access to the variable, lower/mem.rs `access_space`); of a `.const` or
/// `.param` variable it is not: ptxas 11.8 "State space mismatch between
/// instruction and address in instruction 'ld'" (`ld.u32 %r, [cv]`,
/// `ld.u64 %rd, [kernel_param]`).
fn space_matches(c: &mut ICx, k: usize, d: &VarDecl, space: Option<Mod>) {
    let Some(space) = space else {
        if matches!(d.space, StateSpace::Const | StateSpace::Param) {
            let span = c.operand(k).span;
            let msg = format!(
                "state space mismatch between instruction and address: '{}' is declared in {} and cannot be accessed through a generic address",
                c.f.m.name(d.name),
                d.space.text(),
            );
            c.err(span, msg);
        }
        return;
    };
    let ok = match d.space {
        StateSpace::Global => space == Mod::Global,
        StateSpace::Shared => matches!(space, Mod::Shared | Mod::SharedCta | Mod::SharedCluster),
        StateSpace::Local => space == Mod::Local,
        StateSpace::Const => space == Mod::Const,
        StateSpace::Param => matches!(space, Mod::Param | Mod::ParamEntry | Mod::ParamFunc),
        _ => true,
    };
    if !ok {
        let span = c.operand(k).span;
        let msg = format!(
            "'{}' is declared in {} and cannot be accessed with '.{}'",
            c.f.m.name(d.name),
            d.space.text(),
            space.text()
        );
        c.err(span, msg);
    }
}

const CVT_TYPES: &[ScalarType] = &[
    U8, U16, U32, U64, S8, S16, S32, S64, F16, F16x2, Bf16, Bf16x2, Tf32, F32, F64,
];

/// `cvt` (9.7.9.21). Rounding rules:
/// - float to integer needs an integer rounding (.rni .rzi .rmi .rpi);
/// - integer to float, and narrowing float to float, need a float rounding
///   (.rn .rz .rm .rp; .rna for tf32);
/// - float to float of the same size may take an integer rounding (round to
///   integral); widening float takes none; integer to integer takes none.
fn cvt(c: &mut ICx) {
    c.allow(&[
        Mod::Rn,
        Mod::Rz,
        Mod::Rm,
        Mod::Rp,
        Mod::Rna,
        Mod::Rni,
        Mod::Rzi,
        Mod::Rmi,
        Mod::Rpi,
        Mod::Ftz,
        Mod::Sat,
        Mod::Relu,
        Mod::Satfinite,
        Mod::Pack,
    ]);
    if c.has(Mod::Pack) {
        return cvt_pack(c);
    }
    let Some(ts) = c.types_n(&[CVT_TYPES, CVT_TYPES]) else {
        return;
    };
    let (d, s) = (ts[0], ts[1]);
    let frnd = c.one_of(&[Mod::Rn, Mod::Rz, Mod::Rm, Mod::Rp, Mod::Rna]);
    let irnd = c.one_of(&[Mod::Rni, Mod::Rzi, Mod::Rmi, Mod::Rpi]);
    if let (Some(a), Some(b)) = (frnd, irnd) {
        let span = c.opcode_span();
        c.err(
            span,
            format!("conflicting modifiers '.{}' and '.{}'", a.text(), b.text()),
        );
        return;
    }
    let need = |c: &mut ICx| {
        let span = c.opcode_span();
        c.err(span, "'cvt' requires a rounding modifier");
    };
    let wrong = |c: &mut ICx, m: Mod| c.mod_not_with_type(m, d);
    match (d.is_float(), s.is_float()) {
        (false, true) => {
            if irnd.is_none() {
                return need(c);
            }
            if let Some(m) = frnd {
                wrong(c, m);
            }
        }
        (true, false) => {
            if frnd.is_none() {
                return need(c);
            }
            if let Some(m) = irnd {
                wrong(c, m);
            }
        }
        (true, true) => {
            // f32 -> f16x2/bf16x2 packs two narrowed values.
            let d_elem = if matches!(d, F16x2 | Bf16x2) {
                16
            } else {
                d.bits()
            };
            if d_elem < s.bits() || (d == Tf32) {
                if frnd.is_none() {
                    return need(c);
                }
                if let Some(m) = irnd {
                    wrong(c, m);
                }
            } else if d.bits() > s.bits() {
                if let Some(m) = frnd.or(irnd) {
                    wrong(c, m);
                }
            } else if let Some(m) = frnd {
                wrong(c, m);
            }
        }
        (false, false) => {
            if let Some(m) = frnd.or(irnd) {
                wrong(c, m);
            }
            // `.sat` on an integer conversion that cannot overflow (every
            // source value fits the destination): ptxas 11.8 refuses it
            // ("Illegal modifier '.sat' for instruction 'cvt'"), measured
            // over all 64 pairs of u8..s64; a signed source into an
            // unsigned destination can always saturate (negatives).
            let fits = match (s.is_signed(), d.is_signed()) {
                (false, false) | (true, true) => d.bits() >= s.bits(),
                (false, true) => d.bits() > s.bits(),
                (true, false) => false,
            };
            if fits && c.has(Mod::Sat) {
                let span = c.mod_span(c.mod_index(Mod::Sat));
                c.err(
                    span,
                    format!("'.sat' on 'cvt{d}{s}': every {s} value fits {d}, nothing saturates (ptxas 11.8: \"Illegal modifier '.sat' for instruction 'cvt'\")"),
                );
            }
        }
    }
    // PTX ISA 9.7.9.21, "PTX ISA Notes" / "Target ISA Notes", as ptxas
    // 11.8 enforces them: `cvt.bf16.f32` needs PTX 7.0 and sm_80,
    // `cvt.f32.bf16` PTX 7.1 and sm_80, every other `.bf16` conversion
    // (integer types, `.f16`, `.f64`, `.bf16.bf16`) PTX 7.8 and sm_90
    // ("Feature 'cvt with .s32.bf16' requires .target sm_90 or higher").
    if d == Bf16 || s == Bf16 {
        if (d, s) == (Bf16, F32) {
            c.need_ptx("cvt.bf16.f32", v(7, 0));
            c.need_sm("cvt.bf16.f32", 80);
        } else if (d, s) == (F32, Bf16) {
            c.need_ptx("cvt.f32.bf16", v(7, 1));
            c.need_sm("cvt.f32.bf16", 80);
        } else {
            c.need_ptx("cvt between .bf16 and this type", v(7, 8));
            c.need_sm("cvt between .bf16 and this type", 90);
        }
    }
    // `.ftz` flushes `.f32` subnormals only (ISA 9.7.9.21: "applies to
    // .f32"; ptxas 11.8: "Modifier '.ftz' does not apply to this type of
    // convert operation").
    if d != F32 && s != F32 && !matches!(d, F16x2 | Bf16x2) {
        c.mod_not_with_type(Mod::Ftz, s);
    }
    // Two f32 sources pack into f16x2/bf16x2: `cvt.rn.f16x2.f32 d, a, b`.
    let packed = matches!(d, F16x2 | Bf16x2) && s == F32;
    let n = if packed { 3 } else { 2 };
    if c.count(n) {
        c.dst_op(0, d, Fit::Relaxed, false);
        c.src_op(1, s, Fit::Relaxed, true);
        if packed {
            c.src_op(2, s, Fit::Relaxed, true);
        }
    }
}

/// `cvt.pack.sat.convertType.abType.cType d, a, b, c` (PTX 6.5, sm_72).
fn cvt_pack(c: &mut ICx) {
    c.need_ptx("cvt.pack", v(6, 5));
    c.need_sm("cvt.pack", 72);
    // Two forms: `.convertType.abType d, a, b` (16-bit results) and
    // `.convertType.abType.cType d, a, b, c` (8-bit results merged into c).
    let three_types = c.type_mods().len() == 3;
    if three_types {
        let Some(ts) = c.types_n(&[&[U8, S8], &[S32], &[B32]]) else {
            return;
        };
        if c.count(4) {
            c.dst(0, ts[2]);
            c.src(1, ts[1]);
            c.src(2, ts[1]);
            c.src(3, ts[2]);
        }
    } else {
        let Some(ts) = c.types_n(&[&[U16, S16], &[S32]]) else {
            return;
        };
        if c.count(3) {
            c.dst(0, U32);
            c.src(1, ts[1]);
            c.src(2, ts[1]);
        }
    }
}
