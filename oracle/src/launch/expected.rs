//! Output buffers as typed bit patterns: `*.expected.json` reading and
//! writing, and extraction from final memory.
//!
//! corpus/LAUNCH_SPEC.md: "`{"buffers": {"y": {"type": "f32", "bits": ["0x…", ...]}}}`:
//! the output buffers after a trusted run, bit patterns in hex."

use std::fs;
use std::path::Path;

use super::error::{ErrorKind, LaunchError};
use super::json;
use super::spec::{self, read_text, sub, Ctx, LaunchSpec};
use super::types::ElemType;

/// One buffer's elements as bit patterns (zero-extended to u64).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferBits {
    pub name: String,
    pub ty: ElemType,
    pub bits: Vec<u64>,
}

/// A set of output buffers, in order: the contents of an expected file, or
/// what a runner produced.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct OutputSet {
    pub buffers: Vec<BufferBits>,
}

impl OutputSet {
    pub fn get(&self, name: &str) -> Option<&BufferBits> {
        self.buffers.iter().find(|b| b.name == name)
    }

    /// Reads an expected file.
    pub fn from_file(path: impl AsRef<Path>) -> Result<OutputSet, LaunchError> {
        let path = path.as_ref();
        let text = read_text(path)?;
        Self::from_json_str(&text).map_err(|e| e.with_file(Some(path)))
    }

    /// Reads expected results from text. Strict: the only top-level field
    /// is `buffers`, each buffer has exactly `type` and `bits`, each pattern
    /// is `"0x…"` and fits the type's width (any number of hex digits, either
    /// case).
    pub fn from_json_str(text: &str) -> Result<OutputSet, LaunchError> {
        let ctx = Ctx { text };
        let root = ctx.parse()?;
        let top = ctx.object(&root, "")?;
        ctx.only_keys(top, &["buffers"], "")?;
        let bv = ctx.require(top, "buffers", "", root.pos)?;
        let mut buffers = Vec::new();
        for m in ctx.object(bv, "buffers")? {
            let f = sub("buffers", &m.key);
            let o = ctx.object(&m.value, &f)?;
            ctx.only_keys(o, &["type", "bits"], &f)?;
            let ty = spec::elem_type(
                &ctx,
                ctx.require(o, "type", &f, m.value.pos)?,
                &sub(&f, "type"),
            )?;
            let arr = ctx.array(ctx.require(o, "bits", &f, m.value.pos)?, &sub(&f, "bits"))?;
            let mut bits = Vec::with_capacity(arr.len());
            for (i, x) in arr.iter().enumerate() {
                bits.push(ctx.hex_bits(x, &spec::idx(&sub(&f, "bits"), i), ty)?);
            }
            buffers.push(BufferBits {
                name: m.key.clone(),
                ty,
                bits,
            });
        }
        Ok(OutputSet { buffers })
    }

    /// The file text, in the corpus layout: one buffer per line group,
    /// patterns zero-padded to the element width, lower case, 8 per line.
    pub fn to_json_string(&self) -> String {
        let mut out = String::from("{\"buffers\": {\n");
        let items: Vec<String> = self
            .buffers
            .iter()
            .map(|b| {
                let lines: Vec<String> = b
                    .bits
                    .chunks(8)
                    .map(|c| {
                        c.iter()
                            .map(|&x| spec::hex_text(b.ty, x))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .collect();
                format!(
                    "  {}: {{\"type\": \"{}\", \"bits\": [{}]}}",
                    json::quote(&b.name),
                    b.ty,
                    lines.join(",\n    ")
                )
            })
            .collect();
        out.push_str(&items.join(",\n"));
        out.push_str("\n}}\n");
        out
    }

    pub fn write_file(&self, path: impl AsRef<Path>) -> Result<(), LaunchError> {
        let path = path.as_ref();
        fs::write(path, self.to_json_string()).map_err(|e| {
            LaunchError::new(ErrorKind::Io, "", format!("cannot write: {e}")).with_file(Some(path))
        })
    }

    /// Checks that this set fits the spec's outputs: the same names (in any
    /// order), each with the buffer's type and `len` elements.
    pub fn check_against(&self, spec: &LaunchSpec) -> Result<(), LaunchError> {
        let err = |field: String, m: String| LaunchError::new(ErrorKind::Outputs, field, m);
        let names = spec.output_names();
        for n in &names {
            let b = output_shape(spec, n).ok_or_else(|| {
                err(
                    "outputs".to_string(),
                    format!("unknown buffer or surface '{n}'"),
                )
            })?;
            let Some(got) = self.get(n) else {
                return Err(err(
                    sub("buffers", n),
                    "missing (the spec lists it in outputs)".into(),
                ));
            };
            if got.ty != b.ty {
                return Err(err(
                    sub("buffers", n),
                    format!("type {} but the spec's buffer is {}", got.ty, b.ty),
                ));
            }
            if got.bits.len() as u64 != b.len {
                return Err(err(
                    sub("buffers", n),
                    format!(
                        "{} elements but the spec's buffer has {}",
                        got.bits.len(),
                        b.len
                    ),
                ));
            }
        }
        for b in &self.buffers {
            if !names.contains(&b.name.as_str()) {
                return Err(err(
                    sub("buffers", &b.name),
                    "not an output of the spec".into(),
                ));
            }
        }
        Ok(())
    }
}

/// An output's type, element count and size in bytes: a buffer's, or a
/// surface's (corpus/LAUNCH_SPEC.md "Surfaces": its channel values in layout
/// order, compared like a buffer's elements).
pub(super) struct OutputShape {
    pub ty: ElemType,
    pub len: u64,
    pub byte_len: u64,
}

pub(super) fn output_shape(spec: &LaunchSpec, name: &str) -> Option<OutputShape> {
    if let Some(b) = spec.buffer(name) {
        return Some(OutputShape {
            ty: b.ty,
            len: b.len,
            byte_len: b.byte_len(),
        });
    }
    spec.surface(name).map(|s| OutputShape {
        ty: s.ty,
        len: s.element_count(),
        byte_len: s.byte_len(),
    })
}

/// The spec's outputs (in `outputs` order, or all buffers in name order)
/// from the final bytes of each buffer, given by `memory(name)`. Each buffer
/// must be exactly `len * element size` bytes.
pub fn extract_outputs<'a>(
    spec: &LaunchSpec,
    memory: impl Fn(&str) -> Option<&'a [u8]>,
) -> Result<OutputSet, LaunchError> {
    let mut buffers = Vec::new();
    for name in spec.output_names() {
        let field = sub("buffers", name);
        let err = |m: String| {
            LaunchError::new(ErrorKind::Outputs, field.clone(), m).with_file(spec.file.as_deref())
        };
        let b = output_shape(spec, name)
            .ok_or_else(|| err("not a buffer or surface of the spec".into()))?;
        let bytes = memory(name).ok_or_else(|| err("no final contents for this output".into()))?;
        if bytes.len() as u64 != b.byte_len {
            return Err(err(format!(
                "{} bytes of final contents, the buffer has {}",
                bytes.len(),
                b.byte_len
            )));
        }
        let bits = (0..bytes.len() / b.ty.size())
            .filter_map(|i| b.ty.read_le(bytes, i))
            .collect();
        buffers.push(BufferBits {
            name: name.to_string(),
            ty: b.ty,
            bits,
        });
    }
    Ok(OutputSet { buffers })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXP: &str = "{\"buffers\": {\n  \"y\": {\"type\": \"f32\", \"bits\": [\"0x3f800000\", \"0x00000001\"]},\n  \"h\": {\"type\": \"u8\", \"bits\": [\"0xff\"]}\n}}\n";

    #[test]
    fn read_and_write() {
        let e = OutputSet::from_json_str(EXP).unwrap();
        assert_eq!(e.buffers.len(), 2);
        assert_eq!(e.get("y").unwrap().bits, [0x3f80_0000, 1]);
        assert_eq!(e.get("h").unwrap().ty, ElemType::U8);
        assert_eq!(e.to_json_string(), EXP);
        // nine elements: 8 on the first line
        let e = OutputSet {
            buffers: vec![BufferBits {
                name: "q".into(),
                ty: ElemType::U16,
                bits: (0..9).collect(),
            }],
        };
        let t = e.to_json_string();
        assert_eq!(
            t,
            "{\"buffers\": {\n  \"q\": {\"type\": \"u16\", \"bits\": [\"0x0000\", \"0x0001\", \"0x0002\", \"0x0003\", \"0x0004\", \"0x0005\", \"0x0006\", \"0x0007\",\n    \"0x0008\"]}\n}}\n"
        );
        assert_eq!(OutputSet::from_json_str(&t).unwrap(), e);
        // empty set and empty buffer
        let e = OutputSet {
            buffers: vec![BufferBits {
                name: "z".into(),
                ty: ElemType::F64,
                bits: vec![],
            }],
        };
        assert_eq!(OutputSet::from_json_str(&e.to_json_string()).unwrap(), e);
        let e = OutputSet::default();
        assert_eq!(OutputSet::from_json_str(&e.to_json_string()).unwrap(), e);
    }

    #[test]
    fn errors() {
        for (t, want) in [
            ("{\"buffers\": {\"y\": {\"type\": \"f32\", \"bits\": [\"0x1ff800000\"]}}}", "<launch spec>:1:44: buffers.y.bits[0]: 0x1ff800000 does not fit in 32 bits (f32)"),
            ("{\"buffers\": {\"y\": {\"type\": \"f32\", \"bits\": [1]}}}", "<launch spec>:1:44: buffers.y.bits[0]: expected a string, found a number"),
            ("{\"buffers\": {\"y\": {\"type\": \"f31\", \"bits\": []}}}", "<launch spec>:1:28: buffers.y.type: unknown type \"f31\" (expected one of u8 s8 u16 s16 u32 s32 u64 s64 f16 f32 f64 b8 b16 b32 b64)"),
            ("{\"buffers\": {\"y\": {\"bits\": []}}}", "<launch spec>:1:19: buffers.y: missing field 'type'"),
            ("{\"buffers\": {\"y\": {\"type\": \"u8\", \"bits\": [], \"len\": 0}}}", "<launch spec>:1:46: buffers.y: unknown field 'len' (fields of buffers.y: type, bits)"),
            ("{\"bufers\": {}}", "<launch spec>:1:2: unknown field 'bufers' (fields of the spec: buffers)"),
            ("{\"buffers\": {}", "<launch spec>:1:15: invalid JSON: expected ',' or '}' in an object"),
        ] {
            assert_eq!(OutputSet::from_json_str(t).unwrap_err().to_string(), want, "{t}");
        }
    }

    #[test]
    fn extraction_and_check() {
        let s = LaunchSpec::from_json_str(
            r#"{"kernel": "k", "grid": [1], "block": [1],
                "buffers": {"b": {"type": "s16", "len": 2}, "a": {"type": "u8", "len": 3}}}"#,
            "",
        )
        .unwrap();
        let a = [1u8, 2, 3];
        let b = [0xffu8, 0xff, 0x34, 0x12];
        let got = extract_outputs(&s, |n| match n {
            "a" => Some(&a[..]),
            "b" => Some(&b[..]),
            _ => None,
        })
        .unwrap();
        // outputs missing: all buffers, name order
        assert_eq!(
            got,
            OutputSet {
                buffers: vec![
                    BufferBits {
                        name: "a".into(),
                        ty: ElemType::U8,
                        bits: vec![1, 2, 3]
                    },
                    BufferBits {
                        name: "b".into(),
                        ty: ElemType::S16,
                        bits: vec![0xffff, 0x1234]
                    },
                ]
            }
        );
        assert!(got.check_against(&s).is_ok());
        let e = extract_outputs(&s, |n| {
            if n == "a" {
                Some(&a[..2])
            } else {
                Some(&b[..])
            }
        })
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "<launch spec>: buffers.a: 2 bytes of final contents, the buffer has 3"
        );
        let e = extract_outputs(&s, |n| if n == "a" { None } else { Some(&b[..]) }).unwrap_err();
        assert_eq!(e.field, "buffers.a");
        let mut bad = got.clone();
        bad.buffers[1].bits.pop();
        assert_eq!(
            bad.check_against(&s).unwrap_err().message,
            "1 elements but the spec's buffer has 2"
        );
        let mut bad = got.clone();
        bad.buffers[1].ty = ElemType::U16;
        assert_eq!(
            bad.check_against(&s).unwrap_err().message,
            "type u16 but the spec's buffer is s16"
        );
        let mut bad = got.clone();
        bad.buffers.remove(0);
        assert!(bad
            .check_against(&s)
            .unwrap_err()
            .message
            .starts_with("missing"));
        let mut bad = got;
        bad.buffers.push(BufferBits {
            name: "c".into(),
            ty: ElemType::U8,
            bits: vec![],
        });
        assert_eq!(
            bad.check_against(&s).unwrap_err().message,
            "not an output of the spec"
        );
    }

    #[test]
    fn write_file_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.expected.json");
        let e = OutputSet::from_json_str(EXP).unwrap();
        e.write_file(&p).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), EXP);
        assert_eq!(OutputSet::from_file(&p).unwrap(), e);
        let err = OutputSet::from_file(dir.path().join("none.json")).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Io);
        assert!(err.to_string().contains("none.json"));
    }
}
