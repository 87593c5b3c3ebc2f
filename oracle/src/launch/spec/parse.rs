//! Reading a spec: every field of the launch spec, validated, with the
//! choices the spec leaves open marked "Decision:" next to the code that
//! makes them. Textures and surfaces are `image.rs`.

use std::path::Path;

use super::super::error::LaunchError;
use super::super::json::{Kind, Member, Value};
use super::super::layout::{GLOBAL_BASE, GLOBAL_LIMIT};
use super::super::surface::SurfaceSpec;
use super::super::texture::TextureSpec;
use super::super::types::ElemType;
use super::fields::{elem_type, idx, int_range, sub, Ctx, WIDE_INT};
use super::image::{parse_surface, parse_texture};
use super::types::*;

/// Numbers (Decision, for all numbers of a spec): the decimal text becomes
/// the nearest f64 (correctly rounded), and that f64 is rounded to nearest
/// into the element type ("converted to the type", "rounded to nearest into
/// the type (directly from f64 for f16)"), the way the corpus host programs
/// fill buffers from C++ double literals. Integers are read exactly.
///
/// A scalar of type `ty`: integer types take exact integers in
/// [`int_range`]; float types take any finite number (as the nearest f64).
fn scalar(
    ctx: &Ctx,
    v: &Value,
    field: &str,
    ty: ElemType,
    range: (i128, i128),
) -> Result<Scalar, LaunchError> {
    if ty.is_float() {
        Ok(Scalar::Float(ctx.f64(v, field)?))
    } else {
        let what = if range == WIDE_INT {
            "a 64-bit integer".to_string()
        } else {
            format!("{ty}")
        };
        Ok(Scalar::Int(ctx.int_in(v, field, range.0, range.1, &what)?))
    }
}

/// Reads an `init` for `count` elements of `ty`.
pub(super) fn parse_init(
    ctx: &Ctx,
    v: &Value,
    field: &str,
    ty: ElemType,
    count: u64,
) -> Result<Init, LaunchError> {
    const KINDS: &str =
        "\"zeros\", or an object with one of iota, values, bits, random, special_mix";
    let members = match &v.kind {
        Kind::String(s) if s == "zeros" => return Ok(Init::Zeros),
        Kind::String(s) => {
            return Err(ctx.err(
                v.pos,
                field,
                format!("unknown init \"{s}\" (expected {KINDS})"),
            ))
        }
        Kind::Object(m) => m,
        _ => {
            return Err(ctx.err(
                v.pos,
                field,
                format!("expected {KINDS}, found {}", v.kind.describe()),
            ))
        }
    };
    if members.len() != 1 {
        return Err(ctx.err(
            v.pos,
            field,
            format!(
                "expected exactly one init kind, found {} fields",
                members.len()
            ),
        ));
    }
    let m = &members[0];
    let f = sub(field, &m.key);
    let body = &m.value;
    match m.key.as_str() {
        "iota" => {
            let o = ctx.object(body, &f)?;
            ctx.only_keys(o, &["start", "step"], &f)?;
            let start = ctx.require(o, "start", &f, body.pos)?;
            let step = ctx.require(o, "step", &f, body.pos)?;
            Ok(Init::Iota {
                start: scalar(ctx, start, &sub(&f, "start"), ty, WIDE_INT)?,
                step: scalar(ctx, step, &sub(&f, "step"), ty, WIDE_INT)?,
            })
        }
        "values" => {
            let a = ctx.array(body, &f)?;
            if a.len() as u64 != count {
                return Err(ctx.err(
                    body.pos,
                    &f,
                    format!("expected {count} numbers, found {}", a.len()),
                ));
            }
            let mut out = Vec::with_capacity(a.len());
            for (i, x) in a.iter().enumerate() {
                out.push(scalar(ctx, x, &idx(&f, i), ty, int_range(ty))?);
            }
            Ok(Init::Values(out))
        }
        "bits" => {
            let a = ctx.array(body, &f)?;
            if a.len() as u64 != count {
                return Err(ctx.err(
                    body.pos,
                    &f,
                    format!("expected {count} bit patterns, found {}", a.len()),
                ));
            }
            let mut out = Vec::with_capacity(a.len());
            for (i, x) in a.iter().enumerate() {
                out.push(ctx.hex_bits(x, &idx(&f, i), ty)?);
            }
            Ok(Init::Bits(out))
        }
        "random" => {
            let o = ctx.object(body, &f)?;
            ctx.only_keys(o, &["seed", "min", "max"], &f)?;
            let seed = ctx.u64(ctx.require(o, "seed", &f, body.pos)?, &sub(&f, "seed"))?;
            let range = match (Ctx::get(o, "min"), Ctx::get(o, "max")) {
                (None, None) => {
                    // Decision: the spec defines the bound-less form only for
                    // integers ("without min/max, the low bits of z"); a float
                    // buffer must give its range (raw random bits would be
                    // NaN-ridden; use bits or special_mix for specials).
                    if ty.is_float() {
                        return Err(ctx.err(
                            body.pos,
                            &f,
                            format!("a {ty} buffer needs 'min' and 'max' (only integer types may omit them)"),
                        ));
                    }
                    None
                }
                (Some(a), Some(b)) => {
                    let lo = scalar(ctx, a, &sub(&f, "min"), ty, WIDE_INT)?;
                    let hi = scalar(ctx, b, &sub(&f, "max"), ty, WIDE_INT)?;
                    // Decision: min <= max (an empty or reversed range is a mistake).
                    let reversed = match (lo, hi) {
                        (Scalar::Int(x), Scalar::Int(y)) => x > y,
                        (Scalar::Float(x), Scalar::Float(y)) => x > y,
                        _ => false,
                    };
                    if reversed {
                        return Err(ctx.err(b.pos, &sub(&f, "max"), "'max' is less than 'min'"));
                    }
                    Some((lo, hi))
                }
                (Some(_), None) => return Err(ctx.err(body.pos, &f, "'min' given without 'max'")),
                (None, Some(_)) => return Err(ctx.err(body.pos, &f, "'max' given without 'min'")),
            };
            Ok(Init::Random { seed, range })
        }
        "special_mix" => {
            // "(floats only)"
            if !ty.is_float() {
                return Err(ctx.err(
                    m.key_pos,
                    &f,
                    format!("special_mix is for float types only, not {ty}"),
                ));
            }
            let o = ctx.object(body, &f)?;
            ctx.only_keys(o, &["seed"], &f)?;
            let seed = ctx.u64(ctx.require(o, "seed", &f, body.pos)?, &sub(&f, "seed"))?;
            Ok(Init::SpecialMix { seed })
        }
        other => Err(ctx.err(
            m.key_pos,
            field,
            format!("unknown init kind '{other}' (expected {KINDS})"),
        )),
    }
}

pub(super) fn parse_dims(ctx: &Ctx, v: &Value, field: &str) -> Result<Vec<u32>, LaunchError> {
    let a = ctx.array(v, field)?;
    if a.is_empty() || a.len() > 3 {
        return Err(ctx.err(
            v.pos,
            field,
            format!("expected 1 to 3 dimensions, found {}", a.len()),
        ));
    }
    let mut out = Vec::with_capacity(a.len());
    for (i, x) in a.iter().enumerate() {
        let d = ctx.u32(x, &idx(field, i))?;
        if d == 0 {
            return Err(ctx.err(x.pos, &idx(field, i), "must be at least 1"));
        }
        out.push(d);
    }
    Ok(out)
}

/// The hardware's launch limits (CUDA C++ Programming Guide, "Technical
/// Specifications per Compute Capability", 5.0 to 9.0): a grid of at most
/// 2^31-1 x 65535 x 65535 CTAs, a CTA of at most 1024 x 1024 x 64 and 1024
/// threads in all. A launch past them fails on the GPU, so no runner may
/// give it a verdict (and 4096 threads would be simulated as if real).
const GRID_MAX: [u32; 3] = [i32::MAX as u32, 65535, 65535];
const BLOCK_MAX: [u32; 3] = [1024, 1024, 64];

fn check_dims(
    ctx: &Ctx,
    v: &Value,
    field: &str,
    d: &[u32],
    max: &[u32; 3],
    total: Option<u64>,
) -> Result<(), LaunchError> {
    let a = ctx.array(v, field)?;
    for (i, (&x, &m)) in d.iter().zip(max).enumerate() {
        if x > m {
            return Err(ctx.err(
                a[i].pos,
                &idx(field, i),
                format!("{x} is more than the hardware's {m}"),
            ));
        }
    }
    let n: u64 = d.iter().map(|&x| u64::from(x)).product();
    if let Some(t) = total.filter(|&t| n > t) {
        return Err(ctx.err(v.pos, field, format!("{n} threads; a CTA has at most {t}")));
    }
    Ok(())
}

/// Decision: names must be non-empty (they are printed in reports and used
/// as `.texref` names).
pub(super) fn check_name(ctx: &Ctx, m: &Member, field: &str) -> Result<(), LaunchError> {
    if m.key.is_empty() {
        return Err(ctx.err(m.key_pos, field, "a name must not be empty"));
    }
    Ok(())
}

fn parse_buffer(ctx: &Ctx, m: &Member, field: &str) -> Result<BufferSpec, LaunchError> {
    check_name(ctx, m, field)?;
    let f = sub(field, &m.key);
    let o = ctx.object(&m.value, &f)?;
    ctx.only_keys(o, &["type", "len", "init"], &f)?;
    let ty = elem_type(
        ctx,
        ctx.require(o, "type", &f, m.value.pos)?,
        &sub(&f, "type"),
    )?;
    let len_v = ctx.require(o, "len", &f, m.value.pos)?;
    // Decision: len 0 is allowed (the buffer still gets an address and a
    // guard gap; no access to it is inside it).
    let len = ctx.u64(len_v, &sub(&f, "len"))?;
    let fits = matches!(len.checked_mul(ty.size() as u64), Some(b) if b <= GLOBAL_LIMIT);
    if !fits {
        return Err(ctx.err(
            len_v.pos,
            &sub(&f, "len"),
            format!("{len} elements of {ty} do not fit in 4 GiB"),
        ));
    }
    // Decision: a missing init means zeros.
    let init = match Ctx::get(o, "init") {
        Some(v) => parse_init(ctx, v, &sub(&f, "init"), ty, len)?,
        None => Init::Zeros,
    };
    Ok(BufferSpec {
        name: m.key.clone(),
        ty,
        len,
        init,
    })
}

fn parse_param(
    ctx: &Ctx,
    v: &Value,
    field: &str,
    buffers: &[BufferSpec],
    textures: &[TextureSpec],
    surfaces: &[SurfaceSpec],
) -> Result<ParamValue, LaunchError> {
    let o = ctx.object(v, field)?;
    if Ctx::get(o, "buffer").is_some() {
        ctx.only_keys(o, &["buffer", "offset"], field)?;
        let bv = ctx.require(o, "buffer", field, v.pos)?;
        let name = ctx.string(bv, &sub(field, "buffer"))?;
        let Some(b) = buffers.iter().find(|b| b.name == name) else {
            return Err(ctx.err(bv.pos, field, format!("unknown buffer '{name}'")));
        };
        let offset = match Ctx::get(o, "offset") {
            Some(ov) => {
                let off = ctx.u64(ov, &sub(field, "offset"))?;
                // Decision: the offset stays within the buffer (one past its
                // end allowed, as for a C pointer).
                if off > b.byte_len() {
                    return Err(ctx.err(
                        ov.pos,
                        &sub(field, "offset"),
                        format!(
                            "offset {off} is past the end of buffer '{name}' ({} bytes)",
                            b.byte_len()
                        ),
                    ));
                }
                off
            }
            None => 0,
        };
        return Ok(ParamValue::Buffer {
            name: name.to_string(),
            offset,
        });
    }
    if Ctx::get(o, "texture").is_some() {
        ctx.only_keys(o, &["texture"], field)?;
        let tv = ctx.require(o, "texture", field, v.pos)?;
        let name = ctx.string(tv, &sub(field, "texture"))?;
        if !textures.iter().any(|t| t.name == name) {
            return Err(ctx.err(tv.pos, field, format!("unknown texture '{name}'")));
        }
        return Ok(ParamValue::Texture {
            name: name.to_string(),
        });
    }
    if Ctx::get(o, "surface").is_some() {
        ctx.only_keys(o, &["surface"], field)?;
        let sv = ctx.require(o, "surface", field, v.pos)?;
        let name = ctx.string(sv, &sub(field, "surface"))?;
        if !surfaces.iter().any(|s| s.name == name) {
            return Err(ctx.err(sv.pos, field, format!("unknown surface '{name}'")));
        }
        return Ok(ParamValue::Surface {
            name: name.to_string(),
        });
    }
    if Ctx::get(o, "type").is_some() {
        ctx.only_keys(o, &["type", "bits"], field)?;
        let ty = elem_type(
            ctx,
            ctx.require(o, "type", field, v.pos)?,
            &sub(field, "type"),
        )?;
        let bv = ctx.require(o, "bits", field, v.pos)?;
        let bits = ctx.hex_bits(bv, &sub(field, "bits"), ty)?;
        return Ok(ParamValue::Bits { ty, bits });
    }
    if o.len() != 1 {
        return Err(ctx.err(
            v.pos,
            field,
            format!(
                "expected {{\"<type>\": number}}, {{\"type\": …, \"bits\": …}}, {{\"buffer\": …}}, {{\"texture\": …}} or {{\"surface\": …}}, found {} fields",
                o.len()
            ),
        ));
    }
    let m = &o[0];
    let Some(ty) = ElemType::from_name(&m.key) else {
        return Err(ctx.err(
            m.key_pos,
            field,
            format!("unknown parameter kind '{}' (expected a type such as \"u32\", or \"buffer\", \"texture\", \"surface\", \"type\")", m.key),
        ));
    };
    let value = scalar(ctx, &m.value, &sub(field, &m.key), ty, int_range(ty))?;
    Ok(ParamValue::Scalar { ty, value })
}

pub(super) fn parse_spec(text: &str, base_dir: &Path) -> Result<LaunchSpec, LaunchError> {
    let ctx = Ctx { text };
    let root = ctx.parse()?;
    let top = ctx.object(&root, "")?;
    // Decision: a field the spec does not define is an error at every level
    // (a misspelt "output" would otherwise silently compare all buffers).
    ctx.only_keys(
        top,
        &[
            "ptx",
            "kernel",
            "grid",
            "block",
            "params",
            "buffers",
            "outputs",
            "dynamic_shared_bytes",
            "textures",
            "surfaces",
            "compare",
        ],
        "",
    )?;

    let ptx = match Ctx::get(top, "ptx") {
        Some(v) => {
            let s = ctx.string(v, "ptx")?;
            if s.is_empty() {
                return Err(ctx.err(v.pos, "ptx", "must not be empty"));
            }
            Some(s.to_string())
        }
        None => None,
    };
    let kv = ctx.require(top, "kernel", "", root.pos)?;
    let kernel = ctx.string(kv, "kernel")?.to_string();
    if kernel.is_empty() {
        return Err(ctx.err(kv.pos, "kernel", "must not be empty"));
    }
    let grid_v = ctx.require(top, "grid", "", root.pos)?;
    let grid_dims = parse_dims(&ctx, grid_v, "grid")?;
    check_dims(&ctx, grid_v, "grid", &grid_dims, &GRID_MAX, None)?;
    let block_v = ctx.require(top, "block", "", root.pos)?;
    let block_dims = parse_dims(&ctx, block_v, "block")?;
    check_dims(&ctx, block_v, "block", &block_dims, &BLOCK_MAX, Some(1024))?;

    // Decision: missing `buffers` / `textures` / `params` mean none.
    let mut buffers = Vec::new();
    if let Some(bv) = Ctx::get(top, "buffers") {
        for m in ctx.object(bv, "buffers")? {
            buffers.push(parse_buffer(&ctx, m, "buffers")?);
        }
        // Placement: each buffer takes its size rounded up to 256 plus the
        // 256-byte guard, whatever the order; all must end below 4 GiB
        // ("starting at 0x10000000 (so a 32-bit module can reach them)").
        let mut end = GLOBAL_BASE;
        for b in &buffers {
            end = end
                .saturating_add(b.byte_len().div_ceil(256).saturating_mul(256))
                .saturating_add(256);
        }
        if end > GLOBAL_LIMIT {
            return Err(ctx.err(
                bv.pos,
                "buffers",
                format!(
                    "the buffers need {} bytes of global memory with alignment and guard gaps; at most {} fit between 0x10000000 and 4 GiB",
                    end - GLOBAL_BASE,
                    GLOBAL_LIMIT - GLOBAL_BASE
                ),
            ));
        }
    }
    let mut textures = Vec::new();
    if let Some(tv) = Ctx::get(top, "textures") {
        for m in ctx.object(tv, "textures")? {
            textures.push(parse_texture(&ctx, m, "textures")?);
        }
    }
    let mut surfaces: Vec<SurfaceSpec> = Vec::new();
    if let Some(sv) = Ctx::get(top, "surfaces") {
        for m in ctx.object(sv, "surfaces")? {
            // Decision: a surface's name is not also a buffer's (both are
            // outputs, named alone in `outputs` and the expected file).
            if buffers.iter().any(|b| b.name == m.key) {
                return Err(ctx.err(
                    m.key_pos,
                    &sub("surfaces", &m.key),
                    format!("'{}' is already a buffer's name", m.key),
                ));
            }
            surfaces.push(parse_surface(&ctx, m, "surfaces")?);
        }
    }
    let mut params = Vec::new();
    if let Some(pv) = Ctx::get(top, "params") {
        for (i, p) in ctx.array(pv, "params")?.iter().enumerate() {
            params.push(parse_param(
                &ctx,
                p,
                &idx("params", i),
                &buffers,
                &textures,
                &surfaces,
            )?);
        }
    }
    let outputs = match Ctx::get(top, "outputs") {
        Some(ov) => {
            let mut names: Vec<String> = Vec::new();
            for (i, x) in ctx.array(ov, "outputs")?.iter().enumerate() {
                let f = idx("outputs", i);
                let n = ctx.string(x, &f)?;
                if !buffers.iter().any(|b| b.name == n) && !surfaces.iter().any(|s| s.name == n) {
                    return Err(ctx.err(x.pos, &f, format!("unknown buffer or surface '{n}'")));
                }
                if names.iter().any(|m| m == n) {
                    return Err(ctx.err(x.pos, &f, format!("buffer '{n}' listed twice")));
                }
                names.push(n.to_string());
            }
            Some(names)
        }
        None => None,
    };
    let dynamic_shared_bytes = match Ctx::get(top, "dynamic_shared_bytes") {
        Some(v) => ctx.u32(v, "dynamic_shared_bytes")?,
        None => 0,
    };
    let compare = match Ctx::get(top, "compare") {
        Some(cv) => {
            let o = ctx.object(cv, "compare")?;
            ctx.only_keys(o, &["nan", "ulps"], "compare")?;
            let nan = match Ctx::get(o, "nan") {
                Some(v) => match ctx.string(v, "compare.nan")? {
                    "bitwise" => NanRule::Bitwise,
                    "any" => NanRule::Any,
                    s => {
                        return Err(ctx.err(
                            v.pos,
                            "compare.nan",
                            format!("unknown rule \"{s}\" (expected \"bitwise\" or \"any\")"),
                        ))
                    }
                },
                None => NanRule::Bitwise,
            };
            let ulps = match Ctx::get(o, "ulps") {
                Some(v) => ctx.u64(v, "compare.ulps")?,
                None => 0,
            };
            CompareRule { nan, ulps }
        }
        None => CompareRule::default(),
    };
    Ok(LaunchSpec {
        file: None,
        base_dir: base_dir.to_path_buf(),
        ptx,
        kernel,
        grid_dims,
        block_dims,
        params,
        buffers,
        textures,
        surfaces,
        outputs,
        dynamic_shared_bytes,
        compare,
    })
}
