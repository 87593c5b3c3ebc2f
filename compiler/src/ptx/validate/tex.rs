//! Texture and surface instructions (PTX ISA 9.7.10, 9.7.11).

use super::operands::{Fit, ICx};
use crate::ptx::ast::*;
use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType::{self, *};

const GEOMS: &[Mod] = &[
    Mod::D1,
    Mod::D2,
    Mod::D3,
    Mod::A1d,
    Mod::A2d,
    Mod::Cube,
    Mod::Acube,
    Mod::D2ms,
    Mod::A2dms,
];
const CLAMP: &[Mod] = &[Mod::Trap, Mod::Clamp, Mod::Zero];
const TEX_QUERIES: &[Mod] = &[
    Mod::Width,
    Mod::Height,
    Mod::Depth,
    Mod::ChannelDataType,
    Mod::ChannelOrder,
    Mod::NormalizedCoords,
    Mod::FilterMode,
    Mod::AddrMode0,
    Mod::AddrMode1,
    Mod::AddrMode2,
    Mod::ArraySize,
    Mod::NumMipmapLevels,
    Mod::NumSamples,
    Mod::ForceUnnormalizedCoords,
];
const SURF_QUERIES: &[Mod] = &[
    Mod::Width,
    Mod::Height,
    Mod::Depth,
    Mod::ChannelDataType,
    Mod::ChannelOrder,
    Mod::ArraySize,
    Mod::MemoryLayout,
];

/// Coordinates per geometry: 1d 1, 2d 2, 3d 4 (a .v4 with the last ignored),
/// a1d 2 (index, x), a2d 4 (index, x, y, pad), cube 4, acube 4, 2dms 4, a2dms 4.
fn coords(g: Mod) -> usize {
    match g {
        Mod::D1 => 1,
        Mod::D2 | Mod::A1d => 2,
        _ => 4,
    }
}

/// The handle operand (`.texref`/`.surfref` variable, or a `.u64` register
/// holding a texture object), then the coordinate vector.
fn handle_and_coords(c: &mut ICx, k: usize, n: usize, ct: ScalarType, want_coords: bool) {
    let o = c.operand(k);
    let OperandKind::Addr(a) = &o.kind else {
        let msg = format!("operand {} of '{}' must be an address", k + 1, c.name());
        c.err(o.span, msg);
        return;
    };
    if c.address(k).is_none() {
        return;
    }
    if !want_coords {
        return;
    }
    // [tex, {coords}] or [tex, sampler, {coords}]
    let Some(last) = a.rest.last() else {
        let msg = format!("'{}' needs a coordinate vector", c.name());
        c.err(o.span, msg);
        return;
    };
    let OperandKind::Vector(elems) = &last.kind else {
        let msg = format!("'{}' needs a coordinate vector", c.name());
        c.err(last.span, msg);
        return;
    };
    if elems.len() != n {
        let msg = format!(
            "'{}' expects {n} coordinates, found {}",
            c.name(),
            elems.len()
        );
        c.err(last.span, msg);
        return;
    }
    let _ = ct;
}

pub(super) fn check(c: &mut ICx) {
    use Opcode::*;
    match c.op() {
        Tex | Tld4 => {
            let mut allowed = GEOMS.to_vec();
            allowed.extend([
                Mod::V4,
                Mod::V2,
                Mod::Level,
                Mod::Grad,
                Mod::R,
                Mod::G,
                Mod::Bc,
                Mod::A,
            ]);
            c.allow(&allowed);
            let Some(g) = c.require_one(GEOMS, "a geometry (.1d, .2d, .3d, .a1d, .a2d, ...)")
            else {
                return;
            };
            if c.op() == Tld4 {
                c.require_one(
                    &[Mod::R, Mod::G, Mod::Bc, Mod::A],
                    "a component (.r, .g, .b or .a)",
                );
            }
            let Some(ts) = c.types_n(&[&[U32, S32, F16, F32], &[S32, F32]]) else {
                return;
            };
            let vw = match c.one_of(&[Mod::V4, Mod::V2]) {
                Some(Mod::V2) => 2,
                Some(_) => 4,
                None => {
                    let span = c.opcode_span();
                    c.err(
                        span,
                        format!("'{}' requires a vector width (.v4)", c.name()),
                    );
                    return;
                }
            };
            if !c.count_in(2, 5) {
                return;
            }
            // d or d|p (the predicate says whether the texel was resident).
            let o = c.operand(0);
            if let OperandKind::Vector(_) | OperandKind::VectorPred(..) = o.kind {
                c.vector_op(0, vw, ts[0], Fit::Exact, true);
            } else {
                let msg = format!(
                    "operand 1 of '{}' must be a vector of {vw} registers",
                    c.name()
                );
                c.err(o.span, msg);
            }
            handle_and_coords(c, 1, coords(g), ts[1], true);
        }
        Txq => {
            let mut allowed = TEX_QUERIES.to_vec();
            allowed.push(Mod::Level);
            c.allow(&allowed);
            c.require_one(TEX_QUERIES, "a query");
            if c.one_type(&[B32]).is_some() && c.count_in(2, 3) {
                c.dst(0, B32);
                c.address(1);
                if c.n_operands() == 3 {
                    c.src(2, S32);
                }
            }
        }
        Suld | Sust | Sured => {
            let mut allowed = GEOMS.to_vec();
            allowed.extend(CLAMP);
            allowed.extend([
                Mod::Bc,
                Mod::P,
                Mod::V2,
                Mod::V4,
                Mod::Ca,
                Mod::Cg,
                Mod::Cs,
                Mod::Cv,
                Mod::Wb,
                Mod::Wt,
            ]);
            allowed.extend([Mod::Add, Mod::Min, Mod::Max, Mod::And, Mod::Or]);
            c.allow(&allowed);
            c.require_one(&[Mod::Bc, Mod::P], "an access kind (.b or .p)");
            let Some(g) = c.require_one(GEOMS, "a geometry") else {
                return;
            };
            c.one_of(CLAMP);
            let vw = match c.one_of(&[Mod::V2, Mod::V4]) {
                Some(Mod::V2) => Some(2),
                Some(_) => Some(4),
                None => None,
            };
            if c.op() == Sured {
                c.require_one(
                    &[Mod::Add, Mod::Min, Mod::Max, Mod::And, Mod::Or],
                    "a reduction operation",
                );
            }
            let Some(t) = c.one_type(&[B8, B16, B32, B64, U32, U64, S32, S64, F32]) else {
                return;
            };
            if !c.count(2) {
                return;
            }
            let (ak, vk) = if c.op() == Suld { (1, 0) } else { (0, 1) };
            handle_and_coords(c, ak, coords(g), S32, true);
            let one_elem = matches!(&c.operand(vk).kind, OperandKind::Vector(v) if v.len() == 1);
            match vw {
                Some(n) => c.vector_op(vk, n, t, Fit::Relaxed, c.op() == Suld),
                None if one_elem => c.vector_op(vk, 1, t, Fit::Relaxed, c.op() == Suld),
                None if c.op() == Suld => c.dst_op(vk, t, Fit::Relaxed, false),
                None => c.src_op(vk, t, Fit::Relaxed, true),
            }
        }
        Suq => {
            c.allow(SURF_QUERIES);
            c.require_one(SURF_QUERIES, "a query");
            if c.one_type(&[B32]).is_some() && c.count(2) {
                c.dst(0, B32);
                c.address(1);
            }
        }
        Istypep => {
            c.allow(&[Mod::Texref, Mod::Samplerref, Mod::Surfref]);
            c.require_one(
                &[Mod::Texref, Mod::Samplerref, Mod::Surfref],
                "a handle type",
            );
            if c.count(2) {
                c.pred_dst(0, false, false);
                c.src(1, U64);
            }
        }
        op => unreachable!("not a texture opcode: {op:?}"),
    }
}
