//! Reading the images of a spec: `textures` and `surfaces` (the image
//! size, channels and layers they share).

use super::super::error::LaunchError;
use super::super::json::{Member, Value};
use super::super::surface::SurfaceSpec;
use super::super::texture::{AddressMode, Filter, TextureSpec, MAX_TEXTURE_LAYERS};
use super::super::types::ElemType;
use super::fields::{elem_type, idx, sub, Ctx};
use super::parse::{check_name, parse_dims, parse_init};
use super::types::Init;

/// Decision: at most 1 GiB per texture or surface image.
const IMAGE_LIMIT: u64 = 1 << 30;

pub(super) fn parse_texture(
    ctx: &Ctx,
    m: &Member,
    field: &str,
) -> Result<TextureSpec, LaunchError> {
    check_name(ctx, m, field)?;
    let f = sub(field, &m.key);
    let o = ctx.object(&m.value, &f)?;
    ctx.only_keys(
        o,
        &[
            "type",
            "channels",
            "dims",
            "init",
            "address_mode",
            "filter",
            "normalized_coords",
            "border_color",
            "layers",
        ],
        &f,
    )?;
    let ty = elem_type(
        ctx,
        ctx.require(o, "type", &f, m.value.pos)?,
        &sub(&f, "type"),
    )?;
    // Decision: channels 1 to 4 (CUDA channel formats), default 1.
    let channels = parse_channels(ctx, o, &f, &[1, 2, 3, 4], "1 to 4")?;
    let dims_v = ctx.require(o, "dims", &f, m.value.pos)?;
    let dims = parse_dims(ctx, dims_v, &sub(&f, "dims"))?;
    let (layers, count) = image_layers(ctx, o, &f, &dims, dims_v, channels, ty, "texture")?;
    // The init covers dims[0]*dims[1]*dims[2]*channels elements (times
    // layers), x fastest, channels interleaved, layer 0 first (see
    // TextureSpec::layer_element_index).
    let init = match Ctx::get(o, "init") {
        Some(v) => parse_init(ctx, v, &sub(&f, "init"), ty, count)?,
        None => Init::Zeros,
    };
    // "address_mode": one per dimension. Decision: missing means "clamp" in
    // every dimension.
    let address_mode = match Ctx::get(o, "address_mode") {
        Some(v) => {
            let ff = sub(&f, "address_mode");
            let a = ctx.array(v, &ff)?;
            if a.len() != dims.len() {
                return Err(ctx.err(
                    v.pos,
                    &ff,
                    format!(
                        "expected one mode per dimension ({}), found {}",
                        dims.len(),
                        a.len()
                    ),
                ));
            }
            let mut modes = Vec::new();
            for (i, x) in a.iter().enumerate() {
                let s = ctx.string(x, &idx(&ff, i))?;
                modes.push(AddressMode::from_name(s).ok_or_else(|| {
                    ctx.err(
                        x.pos,
                        &idx(&ff, i),
                        format!(
                            "unknown address mode \"{s}\" (expected clamp, wrap, mirror or border)"
                        ),
                    )
                })?);
            }
            modes
        }
        None => vec![AddressMode::Clamp; dims.len()],
    };
    let filter = match Ctx::get(o, "filter") {
        Some(v) => {
            let s = ctx.string(v, &sub(&f, "filter"))?;
            Filter::from_name(s).ok_or_else(|| {
                ctx.err(
                    v.pos,
                    &sub(&f, "filter"),
                    format!("unknown filter \"{s}\" (expected point or linear)"),
                )
            })?
        }
        None => Filter::Point,
    };
    let normalized_coords = match Ctx::get(o, "normalized_coords") {
        Some(v) => ctx.boolean(v, &sub(&f, "normalized_coords"))?,
        None => false,
    };
    // Decision: border_color has exactly 4 numbers (r, g, b, a; CUDA's
    // float borderColor[4]); missing means [0, 0, 0, 0].
    let border_color = match Ctx::get(o, "border_color") {
        Some(v) => {
            let ff = sub(&f, "border_color");
            let a = ctx.array(v, &ff)?;
            if a.len() != 4 {
                return Err(ctx.err(v.pos, &ff, format!("expected 4 numbers, found {}", a.len())));
            }
            let mut c = [0.0f64; 4];
            for (i, x) in a.iter().enumerate() {
                c[i] = ctx.f64(x, &idx(&ff, i))?;
            }
            Some(c)
        }
        None => None,
    };
    Ok(TextureSpec {
        name: m.key.clone(),
        ty,
        channels,
        dims,
        init,
        address_mode,
        filter,
        normalized_coords,
        border_color,
        layers,
    })
}

/// One entry of `surfaces` (this project's extension, LAUNCH_SPEC.md
/// "Surfaces"): `{"type", "channels", "dims", "layers", "init"}`.
pub(super) fn parse_surface(
    ctx: &Ctx,
    m: &Member,
    field: &str,
) -> Result<SurfaceSpec, LaunchError> {
    check_name(ctx, m, field)?;
    let f = sub(field, &m.key);
    let o = ctx.object(&m.value, &f)?;
    ctx.only_keys(o, &["type", "channels", "dims", "layers", "init"], &f)?;
    let ty = elem_type(
        ctx,
        ctx.require(o, "type", &f, m.value.pos)?,
        &sub(&f, "type"),
    )?;
    // Decision: 1, 2 or 4 channels, default 1 (the element sizes a CUDA
    // array bound to a surface has: cudaCreateChannelDesc formats of 1, 2
    // or 4 components; 3-component arrays are refused by the CUDA runtime).
    let channels = parse_channels(ctx, o, &f, &[1, 2, 4], "1, 2 or 4")?;
    let dims_v = ctx.require(o, "dims", &f, m.value.pos)?;
    let dims = parse_dims(ctx, dims_v, &sub(&f, "dims"))?;
    let (layers, count) = image_layers(ctx, o, &f, &dims, dims_v, channels, ty, "surface")?;
    let init = match Ctx::get(o, "init") {
        Some(v) => parse_init(ctx, v, &sub(&f, "init"), ty, count)?,
        None => Init::Zeros,
    };
    Ok(SurfaceSpec {
        name: m.key.clone(),
        ty,
        channels,
        dims,
        layers,
        init,
    })
}

/// The optional `"channels"` of a texture or surface: one of `allowed`
/// (named `words` in the error), default 1.
fn parse_channels(
    ctx: &Ctx,
    o: &[Member],
    f: &str,
    allowed: &[u32],
    words: &str,
) -> Result<u32, LaunchError> {
    let Some(v) = Ctx::get(o, "channels") else {
        return Ok(1);
    };
    let c = ctx.u32(v, &sub(f, "channels"))?;
    if !allowed.contains(&c) {
        return Err(ctx.err(
            v.pos,
            &sub(f, "channels"),
            format!("expected {words} channels, found {c}"),
        ));
    }
    Ok(c)
}

/// The optional `"layers"` of a texture or surface (`what`) and the
/// image's element count, `channels * dims... * layers`. "layers" (this
/// project's extension, LAUNCH_SPEC.md): `layers` consecutive images of
/// `dims`. Decision: at least 1 layer, and 1 or 2 dimensions (CUDA
/// Programming Guide, "Layered Textures": "A one-dimensional or
/// two-dimensional layered texture"; PTX has `.a1d` and `.a2d` only, for
/// `tex`, `tld4` and the surface instructions alike). Missing means not
/// layered. An image over 1 GiB is refused.
#[allow(clippy::too_many_arguments)]
fn image_layers(
    ctx: &Ctx,
    o: &[Member],
    f: &str,
    dims: &[u32],
    dims_v: &Value,
    channels: u32,
    ty: ElemType,
    what: &str,
) -> Result<(Option<u32>, u64), LaunchError> {
    let layers = match Ctx::get(o, "layers") {
        Some(v) => {
            let ff = sub(f, "layers");
            let n = ctx.u32(v, &ff)?;
            if n == 0 {
                return Err(ctx.err(
                    v.pos,
                    &ff,
                    format!("a layered {what} needs at least 1 layer"),
                ));
            }
            if what == "texture" && n > MAX_TEXTURE_LAYERS {
                return Err(ctx.err(
                    v.pos,
                    &ff,
                    format!(
                        "a layered texture has at most {} layers (CUDA's limit), found {n}",
                        MAX_TEXTURE_LAYERS
                    ),
                ));
            }
            if dims.len() > 2 {
                let ops = if what == "texture" {
                    "tex.a1d, tex.a2d"
                } else {
                    ".a1d, .a2d"
                };
                return Err(ctx.err(
                    v.pos,
                    &ff,
                    format!(
                        "layered {what}s have 1 or 2 dimensions ({ops}), found {} in dims",
                        dims.len()
                    ),
                ));
            }
            Some(n)
        }
        None => None,
    };
    let count = dims
        .iter()
        .fold(u64::from(channels), |acc, &d| {
            acc.saturating_mul(u64::from(d))
        })
        .saturating_mul(u64::from(layers.unwrap_or(1)));
    if count.saturating_mul(ty.size() as u64) > IMAGE_LIMIT {
        return Err(ctx.err(
            dims_v.pos,
            &sub(f, "dims"),
            format!("{what} larger than 1 GiB"),
        ));
    }
    Ok((layers, count))
}
