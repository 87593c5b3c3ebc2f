//! Synchronization, warp-level and miscellaneous instructions (PTX ISA
//! 9.7.13, 9.7.19).

use super::operands::ICx;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType::{self, *};
use crate::targets::PtxVersion;

fn v(a: u8, b: u8) -> PtxVersion {
    PtxVersion::new(a, b)
}

const SEM: &[Mod] = &[
    Mod::Relaxed,
    Mod::Acquire,
    Mod::Release,
    Mod::AcqRel,
    Mod::Sc,
];
const SCOPES: &[Mod] = &[Mod::Cta, Mod::Cluster, Mod::Gpu, Mod::Sys];
const ATOM_SPACES: &[Mod] = &[Mod::Global, Mod::Shared, Mod::SharedCta, Mod::SharedCluster];
const ATOM_OPS: &[Mod] = &[
    Mod::And,
    Mod::Or,
    Mod::Xor,
    Mod::Cas,
    Mod::Exch,
    Mod::Add,
    Mod::Inc,
    Mod::Dec,
    Mod::Min,
    Mod::Max,
];

pub(super) fn check(c: &mut ICx) {
    use Opcode::*;
    match c.op() {
        Bar | Barrier => bar(c),
        Membar => {
            c.allow(&[Mod::Cta, Mod::Gl, Mod::Sys, Mod::Proxy, Mod::Alias]);
            c.no_type();
            if !c.has(Mod::Proxy) {
                c.require_one(
                    &[Mod::Cta, Mod::Gl, Mod::Sys],
                    "a level (.cta, .gl or .sys)",
                );
            }
            c.count(0);
        }
        Fence => {
            c.allow(&[
                Mod::Sc,
                Mod::AcqRel,
                Mod::Cta,
                Mod::Cluster,
                Mod::Gpu,
                Mod::Sys,
                Mod::Proxy,
                Mod::Alias,
            ]);
            c.no_type();
            c.one_of(&[Mod::Sc, Mod::AcqRel]);
            if !c.has(Mod::Proxy) {
                c.require_one(SCOPES, "a scope (.cta, .cluster, .gpu or .sys)");
            }
            c.gate_mod(Mod::Cluster, v(7, 8), 90);
            c.count(0);
        }
        Atom | Red => atom(c),
        Vote => {
            c.allow(&[Mod::Sync, Mod::All, Mod::Any, Mod::Uni, Mod::Ballot]);
            let mode = c.require_one(
                &[Mod::All, Mod::Any, Mod::Uni, Mod::Ballot],
                "a mode (.all, .any, .uni or .ballot)",
            );
            sync_gate(c);
            let want = if mode == Some(Mod::Ballot) { B32 } else { Pred };
            let Some(t) = c.one_type(&[want]) else { return };
            let n = if c.has(Mod::Sync) { 3 } else { 2 };
            if c.count(n) {
                if t == Pred {
                    c.pred_dst(0, false, false);
                } else {
                    c.dst(0, B32);
                }
                c.pred_src(1, true);
                if n == 3 {
                    c.src(2, B32);
                }
            }
        }
        Match => {
            c.allow(&[Mod::Sync, Mod::Any, Mod::All]);
            c.require_one(&[Mod::Any, Mod::All], "a mode (.any or .all)");
            if !c.has(Mod::Sync) {
                let span = c.opcode_span();
                c.err(span, "'match' requires .sync");
                return;
            }
            let Some(t) = c.one_type(&[B32, B64]) else {
                return;
            };
            if c.count(3) {
                if c.has(Mod::All) {
                    c.dst_with_pred(0, B32);
                } else {
                    c.dst(0, B32);
                }
                c.src(1, t);
                c.src(2, B32);
            }
        }
        Shfl => {
            c.allow(&[Mod::Sync, Mod::Up, Mod::Down, Mod::Bfly, Mod::Idx]);
            c.require_one(
                &[Mod::Up, Mod::Down, Mod::Bfly, Mod::Idx],
                "a mode (.up, .down, .bfly or .idx)",
            );
            sync_gate(c);
            if c.one_type(&[B32]).is_none() {
                return;
            }
            let n = if c.has(Mod::Sync) { 5 } else { 4 };
            if c.count(n) {
                c.dst_with_pred(0, B32);
                c.src(1, B32);
                c.src(2, B32);
                c.src(3, B32);
                if n == 5 {
                    c.src(4, B32);
                }
            }
        }
        Activemask => {
            c.allow(&[]);
            if c.one_type(&[B32]).is_some() && c.count(1) {
                c.dst(0, B32);
            }
        }
        Redux => {
            c.allow(&[
                Mod::Sync,
                Mod::Add,
                Mod::Min,
                Mod::Max,
                Mod::And,
                Mod::Or,
                Mod::Xor,
                Mod::Abs,
                Mod::NaNProp,
            ]);
            if !c.has(Mod::Sync) {
                let span = c.opcode_span();
                c.err(span, "'redux' requires .sync");
                return;
            }
            let op = c.require_one(
                &[Mod::Add, Mod::Min, Mod::Max, Mod::And, Mod::Or, Mod::Xor],
                "an operation",
            );
            let Some(t) = c.one_type(&[U32, S32, B32, F32]) else {
                return;
            };
            let ok = match op {
                Some(Mod::And | Mod::Or | Mod::Xor) => t == B32,
                Some(Mod::Add) => matches!(t, U32 | S32),
                Some(_) => matches!(t, U32 | S32 | F32),
                None => true,
            };
            if !ok {
                let m = op.unwrap();
                c.mod_not_with_type(m, t);
            }
            if t == F32 {
                c.need_ptx("redux.sync .f32", v(8, 6));
                c.need_sm("redux.sync .f32", 100);
            }
            if c.count(3) {
                c.dst(0, t);
                c.src(1, t);
                c.src(2, B32);
            }
        }
        Trap | Brkpt => {
            c.allow(&[]);
            c.no_type();
            c.count(0);
        }
        Nanosleep => {
            c.allow(&[]);
            if c.one_type(&[U32]).is_some() && c.count(1) {
                c.src(0, U32);
            }
        }
        Pmevent => {
            c.allow(&[Mod::Mask]);
            c.no_type();
            if c.count(1) {
                c.src(0, U32);
            }
        }
        op => unreachable!("not a sync opcode: {op:?}"),
    }
}

/// `.sync` forms of vote and shfl need PTX 6.0; the forms without it are gone
/// for sm_70 and later from PTX 6.4 (9.7.13.4 shfl, 9.7.13.5 vote).
fn sync_gate(c: &mut ICx) {
    if c.has(Mod::Sync) {
        let feature = format!("{}.sync", c.name());
        c.need_ptx(&feature, v(6, 0));
    } else if c.f.t.sm >= 70 && c.f.t.ptx >= v(6, 4) {
        let span = c.opcode_span();
        let msg = format!(
            "'{}' without .sync is not supported on sm_70 and later from PTX ISA 6.4",
            c.name()
        );
        c.err(span, msg);
    }
}

/// `bar`/`barrier` (9.7.13.1): `.sync`/`.arrive`/`.red.{popc,and,or}`, and
/// `bar.warp.sync membermask`.
fn bar(c: &mut ICx) {
    c.allow(&[
        Mod::Cta,
        Mod::Sync,
        Mod::Arrive,
        Mod::Red,
        Mod::Aligned,
        Mod::Popc,
        Mod::And,
        Mod::Or,
        Mod::Warp,
    ]);
    if c.has(Mod::Warp) {
        c.need_ptx("bar.warp.sync", v(6, 0));
        c.no_type();
        if c.count(1) {
            c.src(0, B32);
        }
        return;
    }
    let Some(kind) = c.require_one(
        &[Mod::Sync, Mod::Arrive, Mod::Red],
        "one of .sync, .arrive or .red",
    ) else {
        return;
    };
    match kind {
        Mod::Red => {
            let Some(op) = c.require_one(
                &[Mod::Popc, Mod::And, Mod::Or],
                "an operation (.popc, .and or .or)",
            ) else {
                return;
            };
            let want: ScalarType = if op == Mod::Popc { U32 } else { Pred };
            if c.one_type(&[want]).is_none() {
                return;
            }
            if c.count_in(3, 4) {
                if want == Pred {
                    c.pred_dst(0, false, false);
                } else {
                    c.dst(0, U32);
                }
                c.src(1, U32);
                let last = c.n_operands() - 1;
                if last == 3 {
                    c.src(2, U32);
                }
                c.pred_src(last, true);
            }
        }
        _ => {
            c.no_type();
            let lo = if kind == Mod::Arrive { 2 } else { 1 };
            if c.count_in(lo, 2) {
                c.src(0, U32);
                if c.n_operands() == 2 {
                    c.src(1, U32);
                }
            }
        }
    }
}

/// `atom{.sem}{.scope}{.space}.op.type d, [a], b{, c}` and
/// `red{.sem}{.scope}{.space}.op.type [a], b` (9.7.13.5, 9.7.13.6).
/// Types per operation: and/or/xor .b32 .b64; cas .b16 .b32 .b64; exch .b32
/// .b64; add .u32 .s32 .u64 .f32 .f64 .f16 .f16x2 .bf16 .bf16x2; inc/dec
/// .u32; min/max .u32 .s32 .u64 .s64.
fn atom(c: &mut ICx) {
    let mut allowed: Vec<Mod> = SEM.to_vec();
    allowed.extend(SCOPES);
    allowed.extend(ATOM_SPACES);
    allowed.extend(ATOM_OPS);
    allowed.extend([Mod::Mmio, Mod::Noftz]);
    c.allow(&allowed);
    c.one_of(ATOM_SPACES);
    let sem = c.one_of(SEM);
    let scope = c.one_of(SCOPES);
    if let Some(m) = sem {
        c.gate_mod(m, v(6, 0), 70);
    }
    if let Some(m) = scope {
        c.gate_mod(m, v(6, 0), 60);
    }
    c.gate_mod(Mod::Cluster, v(7, 8), 90);
    let Some(op) = c.require_one(ATOM_OPS, "an operation") else {
        return;
    };
    let is_red = c.op() == Opcode::Red;
    if is_red && matches!(op, Mod::Cas | Mod::Exch) {
        let span = c.opcode_span();
        c.err(span, format!("unknown modifier '.{}' for 'red'", op.text()));
        return;
    }
    let types: &[ScalarType] = match op {
        Mod::And | Mod::Or | Mod::Xor => &[B32, B64],
        Mod::Cas => &[B16, B32, B64],
        Mod::Exch => &[B32, B64],
        Mod::Add => &[U32, S32, U64, F32, F64, F16, F16x2, Bf16, Bf16x2],
        Mod::Inc | Mod::Dec => &[U32],
        _ => &[U32, S32, U64, S64],
    };
    let Some(t) = c.one_type(types) else { return };
    match t {
        F64 => c.need_sm("atom.add.f64", 60),
        F16 | F16x2 => {
            c.need_ptx("atom.add.f16", v(6, 3));
            c.need_sm("atom.add.f16", 70);
        }
        Bf16 | Bf16x2 => {
            c.need_ptx("atom.add.bf16", v(7, 8));
            c.need_sm("atom.add.bf16", 90);
        }
        _ => {}
    }
    if is_red {
        if c.count(2) {
            c.address(0);
            c.src(1, t);
        }
        return;
    }
    let n = if op == Mod::Cas { 4 } else { 3 };
    if c.count(n) {
        c.dst(0, t);
        c.address(1);
        c.src(2, t);
        if n == 4 {
            c.src(3, t);
        }
    }
}
