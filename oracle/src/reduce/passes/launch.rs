//! The launch: grid and block dimensions to 1 or half, buffers to half
//! their length and to zeros, an output no longer compared, buffers and
//! textures no parameter names removed, dynamic shared memory to 0. Every
//! edited spec goes through the spec reader again (written, read back), so
//! a candidate spec is exactly as valid as one a user wrote.

use super::{Edit, Pass};
use crate::launch::{Init, LaunchSpec, ParamValue};
use crate::reduce::case::Case;

pub struct Launch;

/// The spec, re-read (validated), or nothing when it is not valid.
fn revalidate(spec: &LaunchSpec) -> Option<LaunchSpec> {
    let mut s = LaunchSpec::from_json_str(&spec.to_json_string(), &spec.base_dir).ok()?;
    s.file = spec.file.clone();
    Some(s)
}

fn edit(f: impl Fn(&mut LaunchSpec) -> bool + Send + Sync + 'static) -> Edit {
    Box::new(move |c: &Case| {
        let mut spec = c.spec.clone();
        if !f(&mut spec) {
            return None;
        }
        Some(Case {
            module: c.module.clone(),
            spec: revalidate(&spec)?,
        })
    })
}

fn shrink_dims(out: &mut Vec<Edit>, dims: &[u32], get: fn(&mut LaunchSpec) -> &mut Vec<u32>) {
    for (d, &v) in dims.iter().enumerate() {
        if v > 1 {
            // 1 first; then half, when that is not 1 as well.
            let tos = if v / 2 > 1 { vec![1, v / 2] } else { vec![1] };
            for to in tos {
                out.push(edit(move |s| {
                    let dims = get(s);
                    if dims.get(d) != Some(&v) {
                        return false;
                    }
                    dims[d] = to;
                    true
                }));
            }
        }
    }
}

fn named_by_params(spec: &LaunchSpec, name: &str) -> bool {
    spec.params.iter().any(|p| match p {
        ParamValue::Buffer { name: n, .. }
        | ParamValue::Texture { name: n }
        | ParamValue::Surface { name: n } => n == name,
        _ => false,
    })
}

impl Pass for Launch {
    fn name(&self) -> String {
        "launch".into()
    }

    fn edits(&self, c: &Case) -> Vec<Edit> {
        let s = &c.spec;
        let mut out = Vec::new();
        shrink_dims(&mut out, &s.grid_dims, |s| &mut s.grid_dims);
        shrink_dims(&mut out, &s.block_dims, |s| &mut s.block_dims);
        for b in &s.buffers {
            let name = b.name.clone();
            if !named_by_params(s, &name) {
                out.push(edit(move |s| {
                    s.buffers.retain(|b| b.name != name);
                    if let Some(o) = &mut s.outputs {
                        o.retain(|o| *o != name);
                    }
                    true
                }));
                continue;
            }
            if b.len > 1 {
                let (name, half) = (name.clone(), b.len / 2);
                out.push(edit(move |s| {
                    let Some(b) = s.buffers.iter_mut().find(|b| b.name == name) else {
                        return false;
                    };
                    b.len = half;
                    // Explicit contents are cut with the buffer.
                    match &mut b.init {
                        Init::Values(v) => v.truncate(half as usize),
                        Init::Bits(v) => v.truncate(half as usize),
                        _ => {}
                    }
                    true
                }));
            }
            if b.init != Init::Zeros {
                let name = name.clone();
                out.push(edit(move |s| {
                    let Some(b) = s.buffers.iter_mut().find(|b| b.name == name) else {
                        return false;
                    };
                    b.init = Init::Zeros;
                    true
                }));
            }
        }
        for t in &s.textures {
            let name = t.name.clone();
            if !named_by_params(s, &name) {
                out.push(edit(move |s| {
                    s.textures.retain(|t| t.name != name);
                    true
                }));
            }
        }
        let outputs: Vec<String> = s.output_names().iter().map(|n| n.to_string()).collect();
        if outputs.len() > 1 {
            for drop in outputs.clone() {
                let keep: Vec<String> = outputs.iter().filter(|o| **o != drop).cloned().collect();
                out.push(edit(move |s| {
                    s.outputs = Some(keep.clone());
                    true
                }));
            }
        }
        if s.dynamic_shared_bytes > 0 {
            out.push(edit(|s| {
                s.dynamic_shared_bytes = 0;
                true
            }));
        }
        out
    }
}
