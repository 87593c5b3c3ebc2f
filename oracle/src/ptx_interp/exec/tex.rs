//! Texture instructions (PTX ISA 9.7.10): `tex`, `tld4`, `txq`, with the
//! sampling model in `semantics::texture`. Surfaces (`suld`, `sust`,
//! `sured`, `suq`) have no backing in the launch spec (LAUNCH_SPEC.md defines
//! textures only), so a kernel that uses one faults with that reason.

use super::{mask, Ctx};
use crate::ptx_interp::machine::Stop;
use crate::ptx_interp::program::{AddrBase, Inst, Opnd};
use crate::ptx_interp::semantics::texture::{self, Coord, TexQuery};
use ptxc::ptx::isa::Opcode;
use ptxc::ptx::modifiers::Mod;
use ptxc::ptx::types::ScalarType;

/// The texture image a handle operand names.
fn image<'m>(cx: &mut Ctx<'_, 'm>, o: &Opnd) -> Result<usize, Stop> {
    let Opnd::Addr { base, .. } = o else {
        return Err(Stop::fault(
            "texture instruction without a [handle, ...] operand",
        ));
    };
    let h = match base {
        AddrBase::Handle(h) => *h,
        AddrBase::Reg(s) => cx.get(&Opnd::Reg(*s))?,
        _ => return Err(Stop::fault("texture handle is not a texture")),
    };
    cx.m.textures
        .iter()
        .position(|t| t.handle == h)
        .ok_or_else(|| Stop::fault(format!("0x{h:x} is not a texture handle of this launch")))
}

fn dims_of(i: &Inst) -> usize {
    if i.mods.has(Mod::D1) || i.mods.has(Mod::A1d) {
        1
    } else if i.mods.has(Mod::D2) || i.mods.has(Mod::A2d) {
        2
    } else {
        3
    }
}

fn coords(cx: &mut Ctx, o: &Opnd, float: bool) -> Result<[Coord; 3], Stop> {
    let Opnd::Addr { rest, .. } = o else {
        unreachable!()
    };
    let Some(Opnd::Vector(v)) = rest.last() else {
        return Err(Stop::fault("texture instruction without coordinates"));
    };
    let mut out = [Coord::Int(0); 3];
    for (k, e) in v.iter().take(3).enumerate() {
        let bits = mask(32, cx.get(e)?);
        out[k] = if float {
            Coord::Float(f32::from_bits(bits as u32))
        } else {
            Coord::Int(bits as u32 as i32)
        };
    }
    Ok(out)
}

fn write_vec(cx: &mut Ctx, o: &Opnd, vals: [u32; 4], t: ScalarType) -> Result<(), Stop> {
    match o {
        Opnd::Vector(v) | Opnd::VectorPred(v, _) => {
            for (k, e) in v.iter().enumerate() {
                cx.set_typed(e, t, u64::from(vals[k.min(3)]))?;
            }
            if let Opnd::VectorPred(_, p) = o {
                // The residency predicate: every texel is resident here.
                cx.set(
                    &Opnd::Pred {
                        slot: *p,
                        neg: false,
                    },
                    1,
                )?;
            }
            Ok(())
        }
        d => cx.set_typed(d, t, u64::from(vals[0])),
    }
}

pub fn exec(cx: &mut Ctx, i: &Inst) -> Result<(), Stop> {
    match i.op {
        Opcode::Tex => {
            if i.mods.has(Mod::A1d)
                || i.mods.has(Mod::A2d)
                || i.mods.has(Mod::Cube)
                || i.mods.has(Mod::Acube)
            {
                return Err(Stop::fault(format!(
                    "'{}': array and cube textures are not in the launch spec",
                    i.text
                )));
            }
            let img = image(cx, &i.ops[1])?;
            let c = coords(cx, &i.ops[1], i.ty2 == ScalarType::F32)?;
            let tex = &cx.m.textures[img];
            let vals = texture::fetch(tex, &tex.spec, c, dims_of(i));
            write_vec(cx, &i.ops[0], vals, i.ty)
        }
        Opcode::Tld4 => {
            let img = image(cx, &i.ops[1])?;
            let c = coords(cx, &i.ops[1], true)?;
            let (Coord::Float(x), Coord::Float(y)) = (c[0], c[1]) else {
                unreachable!()
            };
            let comp = if i.mods.has(Mod::R) {
                0
            } else if i.mods.has(Mod::G) {
                1
            } else if i.mods.has(Mod::Bc) {
                2
            } else {
                3
            };
            let tex = &cx.m.textures[img];
            let vals = texture::tld4(tex, &tex.spec, comp, x, y);
            write_vec(cx, &i.ops[0], vals, i.ty)
        }
        Opcode::Txq => {
            let img = image(cx, &i.ops[1])?;
            let q = if i.mods.has(Mod::Width) {
                TexQuery::Width
            } else if i.mods.has(Mod::Height) {
                TexQuery::Height
            } else if i.mods.has(Mod::Depth) {
                TexQuery::Depth
            } else if i.mods.has(Mod::ChannelDataType) {
                TexQuery::ChannelDataType
            } else if i.mods.has(Mod::ChannelOrder) {
                TexQuery::ChannelOrder
            } else if i.mods.has(Mod::NormalizedCoords) {
                TexQuery::NormalizedCoords
            } else if i.mods.has(Mod::FilterMode) {
                TexQuery::FilterMode
            } else if i.mods.has(Mod::AddrMode0) {
                TexQuery::AddrMode0
            } else if i.mods.has(Mod::AddrMode1) {
                TexQuery::AddrMode1
            } else if i.mods.has(Mod::AddrMode2) {
                TexQuery::AddrMode2
            } else if i.mods.has(Mod::ArraySize) {
                TexQuery::ArraySize
            } else if i.mods.has(Mod::NumMipmapLevels) {
                TexQuery::NumMipmapLevels
            } else {
                TexQuery::NumSamples
            };
            let v = texture::txq(&cx.m.textures[img].spec, q);
            cx.set(&i.ops[0], u64::from(v))
        }
        Opcode::Istypep => {
            let h = cx.get(&i.ops[1])?;
            let is_tex = cx.m.textures.iter().any(|t| t.handle == h);
            cx.set(&i.ops[0], u64::from(is_tex && i.mods.has(Mod::Texref)))
        }
        _ => Err(Stop::fault(format!(
            "'{}': surfaces are not part of the launch spec",
            i.text
        ))),
    }
}
