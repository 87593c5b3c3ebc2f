//! Writing a spec back as JSON, in the layout of the corpus files.

use super::super::json;
use super::super::texture::TextureSpec;
use super::super::types::ElemType;
use super::types::*;

pub(super) fn scalar_text(s: &Scalar) -> String {
    match s {
        Scalar::Int(v) => v.to_string(),
        Scalar::Float(f) => json::f64_text(*f),
    }
}

/// `"0x…"` with all the digits of the element width, lower case.
pub(in crate::launch) fn hex_text(ty: ElemType, bits: u64) -> String {
    format!("\"0x{:0width$x}\"", bits & ty.mask(), width = ty.size() * 2)
}

pub(super) fn init_text(init: &Init, ty: ElemType) -> String {
    let join = |v: Vec<String>| v.join(", ");
    match init {
        Init::Zeros => "\"zeros\"".to_string(),
        Init::Iota { start, step } => format!(
            "{{\"iota\": {{\"start\": {}, \"step\": {}}}}}",
            scalar_text(start),
            scalar_text(step)
        ),
        Init::Values(v) => format!(
            "{{\"values\": [{}]}}",
            join(v.iter().map(scalar_text).collect())
        ),
        Init::Bits(v) => format!(
            "{{\"bits\": [{}]}}",
            join(v.iter().map(|b| hex_text(ty, *b)).collect())
        ),
        Init::Random { seed, range: None } => format!("{{\"random\": {{\"seed\": {seed}}}}}"),
        Init::Random {
            seed,
            range: Some((a, b)),
        } => format!(
            "{{\"random\": {{\"seed\": {seed}, \"min\": {}, \"max\": {}}}}}",
            scalar_text(a),
            scalar_text(b)
        ),
        Init::SpecialMix { seed } => format!("{{\"special_mix\": {{\"seed\": {seed}}}}}"),
    }
}

fn param_text(p: &ParamValue) -> String {
    match p {
        ParamValue::Scalar { ty, value } => format!("{{\"{ty}\": {}}}", scalar_text(value)),
        ParamValue::Bits { ty, bits } => {
            format!("{{\"type\": \"{ty}\", \"bits\": {}}}", hex_text(*ty, *bits))
        }
        ParamValue::Buffer { name, offset: 0 } => format!("{{\"buffer\": {}}}", json::quote(name)),
        ParamValue::Buffer { name, offset } => {
            format!(
                "{{\"buffer\": {}, \"offset\": {offset}}}",
                json::quote(name)
            )
        }
        ParamValue::Texture { name } => format!("{{\"texture\": {}}}", json::quote(name)),
        ParamValue::Surface { name } => format!("{{\"surface\": {}}}", json::quote(name)),
    }
}

fn dims_text(d: &[u32]) -> String {
    format!(
        "[{}]",
        d.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
    )
}

fn texture_text(t: &TextureSpec) -> String {
    let modes: Vec<String> = t
        .address_mode
        .iter()
        .map(|m| format!("\"{}\"", m.name()))
        .collect();
    let mut s = format!(
        "{{\"type\": \"{}\", \"channels\": {}, \"dims\": {}, \"init\": {}, \"address_mode\": [{}], \"filter\": \"{}\", \"normalized_coords\": {}",
        t.ty,
        t.channels,
        dims_text(&t.dims),
        init_text(&t.init, t.ty),
        modes.join(", "),
        t.filter.name(),
        t.normalized_coords
    );
    if let Some(c) = &t.border_color {
        let c: Vec<String> = c.iter().map(|x| json::f64_text(*x)).collect();
        s.push_str(&format!(", \"border_color\": [{}]", c.join(", ")));
    }
    if let Some(n) = t.layers {
        s.push_str(&format!(", \"layers\": {n}"));
    }
    s.push('}');
    s
}

pub(super) fn write_spec(s: &LaunchSpec) -> String {
    let mut out = String::from("{\n");
    if let Some(p) = &s.ptx {
        out.push_str(&format!("  \"ptx\": {},\n", json::quote(p)));
    }
    out.push_str(&format!("  \"kernel\": {},\n", json::quote(&s.kernel)));
    out.push_str(&format!("  \"grid\": {},\n", dims_text(&s.grid_dims)));
    out.push_str(&format!("  \"block\": {},\n", dims_text(&s.block_dims)));
    let items: Vec<String> = s
        .params
        .iter()
        .map(|p| format!("    {}", param_text(p)))
        .collect();
    if items.is_empty() {
        out.push_str("  \"params\": [],\n");
    } else {
        out.push_str(&format!("  \"params\": [\n{}\n  ],\n", items.join(",\n")));
    }
    let items: Vec<String> = s
        .buffers
        .iter()
        .map(|b| {
            format!(
                "    {}: {{\"type\": \"{}\", \"len\": {}, \"init\": {}}}",
                json::quote(&b.name),
                b.ty,
                b.len,
                init_text(&b.init, b.ty)
            )
        })
        .collect();
    if items.is_empty() {
        out.push_str("  \"buffers\": {},\n");
    } else {
        out.push_str(&format!(
            "  \"buffers\": {{\n{}\n  }},\n",
            items.join(",\n")
        ));
    }
    if !s.textures.is_empty() {
        let items: Vec<String> = s
            .textures
            .iter()
            .map(|t| format!("    {}: {}", json::quote(&t.name), texture_text(t)))
            .collect();
        out.push_str(&format!(
            "  \"textures\": {{\n{}\n  }},\n",
            items.join(",\n")
        ));
    }
    if !s.surfaces.is_empty() {
        let items: Vec<String> = s
            .surfaces
            .iter()
            .map(|t| {
                let mut x = format!(
                    "    {}: {{\"type\": \"{}\", \"channels\": {}, \"dims\": {}",
                    json::quote(&t.name),
                    t.ty,
                    t.channels,
                    dims_text(&t.dims)
                );
                if let Some(n) = t.layers {
                    x.push_str(&format!(", \"layers\": {n}"));
                }
                x.push_str(&format!(", \"init\": {}}}", init_text(&t.init, t.ty)));
                x
            })
            .collect();
        out.push_str(&format!(
            "  \"surfaces\": {{\n{}\n  }},\n",
            items.join(",\n")
        ));
    }
    if let Some(o) = &s.outputs {
        let names: Vec<String> = o.iter().map(|n| json::quote(n)).collect();
        out.push_str(&format!("  \"outputs\": [{}],\n", names.join(", ")));
    }
    out.push_str(&format!(
        "  \"dynamic_shared_bytes\": {},\n",
        s.dynamic_shared_bytes
    ));
    let nan = match s.compare.nan {
        NanRule::Bitwise => "bitwise",
        NanRule::Any => "any",
    };
    if s.compare.ulps == 0 {
        out.push_str(&format!("  \"compare\": {{\"nan\": \"{nan}\"}}\n"));
    } else {
        out.push_str(&format!(
            "  \"compare\": {{\"nan\": \"{nan}\", \"ulps\": {}}}\n",
            s.compare.ulps
        ));
    }
    out.push_str("}\n");
    out
}
