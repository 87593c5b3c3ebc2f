//! Parameter-space bytes for a launch: the spec's `params` laid out by the
//! kernel's `.param` declarations.

use super::error::{ErrorKind, LaunchError};
use super::float::f64_to_bits;
use super::layout::GlobalLayout;
use super::spec::{LaunchSpec, ParamValue, Scalar};
use super::types::ElemType;

/// `.address_size` of the module: buffer addresses are `.u64` or `.u32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressSize {
    A32,
    A64,
}

impl AddressSize {
    pub fn bytes(self) -> u64 {
        match self {
            AddressSize::A32 => 4,
            AddressSize::A64 => 8,
        }
    }
}

/// One kernel parameter as the PTX declares it: `.param .u64 p` is
/// `ParamDecl::scalar(U64)`, `.param .align 8 .b8 p[16]` is
/// `ParamDecl::array(U8, 16, Some(8))`. The `b` types are the `u` types
/// (see [`ElemType::from_name`]); only the width matters here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamDecl {
    pub ty: ElemType,
    /// `Some(n)` for `name[n]`
    pub array_len: Option<u32>,
    /// `.align n`; `None` means the element's natural alignment
    pub align: Option<u32>,
}

impl ParamDecl {
    pub fn scalar(ty: ElemType) -> ParamDecl {
        ParamDecl {
            ty,
            array_len: None,
            align: None,
        }
    }

    pub fn array(ty: ElemType, len: u32, align: Option<u32>) -> ParamDecl {
        ParamDecl {
            ty,
            array_len: Some(len),
            align,
        }
    }

    /// Size in bytes.
    pub fn size(&self) -> u64 {
        self.ty.size() as u64 * u64::from(self.array_len.unwrap_or(1))
    }

    /// Alignment in bytes: the declared one, else the element size.
    pub fn alignment(&self) -> u64 {
        self.align.map_or(self.ty.size() as u64, u64::from)
    }

    /// `.u32`, `.b8[16]`, `.align 8 .b8[16]`: for messages.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        if let Some(a) = self.align {
            s.push_str(&format!(".align {a} "));
        }
        s.push('.');
        s.push_str(self.ty.name());
        if let Some(n) = self.array_len {
            s.push_str(&format!("[{n}]"));
        }
        s
    }
}

/// The parameter space: bytes and each parameter's offset in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamBlock {
    pub bytes: Vec<u8>,
    pub offsets: Vec<u64>,
}

/// The bits of a scalar param value in its own type.
fn scalar_bits(ty: ElemType, v: Scalar) -> u64 {
    match v {
        Scalar::Int(i) if ty.is_int() => (i as u64) & ty.mask(),
        Scalar::Int(i) => f64_to_bits(ty, i as f64).unwrap_or(0),
        // "{"f32": 2.5}": the f64 nearest to the text, rounded to nearest
        // into the type (Decision: like buffer values, from the f64).
        Scalar::Float(f) => f64_to_bits(ty, f).unwrap_or((f as i128 as u64) & ty.mask()),
    }
}

/// Lays out the spec's `params` against the kernel's declarations:
/// "params: one entry per kernel parameter, in declaration order". Each
/// parameter goes at the next multiple of its alignment; its bytes are
/// little-endian.
///
/// - scalars (`{"<type>": n}` and `{"type": …, "bits": …}`) need a
///   declaration of the same width. Decision: only the width is checked
///   (clang declares C `int` as `.u32`, so `s32` vs `.u32` is fine, as is
///   `f32` vs `.b32`); an array declaration such as `.b8 p[4]` takes a
///   scalar of its total size;
/// - `{"buffer": n, "offset": k}` is the buffer's address plus `k` as a
///   `.u64`, or `.u32` under `.address_size 32`;
/// - `{"texture": n}` is the texture's handle (see
///   [`super::TEXTURE_HANDLE_BASE`]) as a `.u64`.
///
/// Any other mismatch, or a different number of parameters, is an error.
pub fn encode_params(
    spec: &LaunchSpec,
    layout: &GlobalLayout,
    decls: &[ParamDecl],
    address_size: AddressSize,
) -> Result<ParamBlock, LaunchError> {
    let err = |field: String, m: String| {
        LaunchError::new(ErrorKind::Params, field, m).with_file(spec.file.as_deref())
    };
    if spec.params.len() != decls.len() {
        return Err(err(
            "params".into(),
            format!(
                "the kernel '{}' declares {} parameters, the spec gives {}",
                spec.kernel,
                decls.len(),
                spec.params.len()
            ),
        ));
    }
    let mut bytes: Vec<u8> = Vec::new();
    let mut offsets = Vec::with_capacity(decls.len());
    for (i, (p, d)) in spec.params.iter().zip(decls).enumerate() {
        let field = format!("params[{i}]");
        let align = d.alignment();
        // Decision: at most 64 KiB (kernel parameter space is far smaller);
        // keeps a bogus declaration from asking for gigabytes of padding.
        if align == 0 || !align.is_power_of_two() || align > 1 << 16 {
            return Err(err(
                field,
                format!("the kernel's parameter {i} has alignment {align}, not a power of two up to 65536"),
            ));
        }
        let size = d.size();
        // (value bits, width in bytes, what it is)
        let (bits, width, what): (u64, u64, String) = match p {
            ParamValue::Scalar { ty, value } => (
                scalar_bits(*ty, *value),
                ty.size() as u64,
                format!("{ty} value"),
            ),
            ParamValue::Bits { ty, bits } => {
                (*bits & ty.mask(), ty.size() as u64, format!("{ty} value"))
            }
            ParamValue::Buffer { name, offset } => {
                let base = layout
                    .base_of(name)
                    .ok_or_else(|| err(field.clone(), format!("unknown buffer '{name}'")))?;
                let addr = base.saturating_add(*offset);
                let w = address_size.bytes();
                if w == 4 && addr > u64::from(u32::MAX) {
                    return Err(err(
                        field,
                        format!("address {addr:#x} does not fit in 32 bits"),
                    ));
                }
                let what = match address_size {
                    AddressSize::A64 => "buffer address (.u64)",
                    AddressSize::A32 => "buffer address (.u32 under .address_size 32)",
                };
                (addr, w, what.to_string())
            }
            ParamValue::Texture { name } => {
                let h = spec
                    .texture_handle(name)
                    .ok_or_else(|| err(field.clone(), format!("unknown texture '{name}'")))?;
                (h, 8, "texture handle (.u64)".to_string())
            }
            ParamValue::Surface { name } => {
                let h = spec
                    .surface_handle(name)
                    .ok_or_else(|| err(field.clone(), format!("unknown surface '{name}'")))?;
                (h, 8, "surface handle (.u64)".to_string())
            }
        };
        if width != size {
            return Err(err(
                field,
                format!(
                    "{what} is {width} bytes, but the kernel's parameter {i} is {} ({size} bytes)",
                    d.describe()
                ),
            ));
        }
        let off = bytes
            .len()
            .div_ceil(align as usize)
            .saturating_mul(align as usize);
        bytes.resize(off, 0);
        bytes.extend_from_slice(&bits.to_le_bytes()[..width as usize]);
        offsets.push(off as u64);
    }
    Ok(ParamBlock { bytes, offsets })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ElemType::*;

    const SPEC: &str = r#"{"kernel": "k", "grid": [1], "block": [1],
      "params": [{"u8": 200}, {"f32": 2.5}, {"buffer": "y", "offset": 16}, {"type": "f16", "bits": "0x7e01"},
                 {"texture": "t"}, {"s16": -2}, {"buffer": "x"}, {"f64": 0.1}],
      "buffers": {"x": {"type": "f32", "len": 4}, "y": {"type": "u32", "len": 64}},
      "textures": {"t": {"type": "f32", "dims": [4]}}}"#;

    fn decls() -> Vec<ParamDecl> {
        vec![
            ParamDecl::scalar(U8),
            ParamDecl::scalar(F32),
            ParamDecl::scalar(U64),
            ParamDecl::scalar(U16),
            ParamDecl::scalar(U64),
            ParamDecl::scalar(S16),
            ParamDecl::scalar(U64),
            ParamDecl::array(U8, 8, Some(8)),
        ]
    }

    #[test]
    fn layout_of_the_param_space() {
        let s = LaunchSpec::from_json_str(SPEC, "").unwrap();
        let l = GlobalLayout::new(&s).unwrap();
        // params name y first: y at 0x10000000, x after 256 bytes + guard
        assert_eq!(l.base_of("y"), Some(0x1000_0000));
        assert_eq!(l.base_of("x"), Some(0x1000_0200));
        let p = encode_params(&s, &l, &decls(), AddressSize::A64).unwrap();
        assert_eq!(p.offsets, [0, 4, 8, 16, 24, 32, 40, 48]);
        let mut want = vec![200u8, 0, 0, 0];
        want.extend(2.5f32.to_le_bytes());
        want.extend(0x1000_0010u64.to_le_bytes());
        want.extend([0x01, 0x7e, 0, 0, 0, 0, 0, 0]);
        want.extend(0x2000_0000_0000_0000u64.to_le_bytes());
        want.extend([0xfe, 0xff, 0, 0, 0, 0, 0, 0]);
        want.extend(0x1000_0200u64.to_le_bytes());
        want.extend(0.1f64.to_le_bytes());
        assert_eq!(p.bytes, want);
    }

    #[test]
    fn address_size_32() {
        let s = LaunchSpec::from_json_str(
            r#"{"kernel": "k", "grid": [1], "block": [1], "params": [{"u8": 1}, {"buffer": "x", "offset": 3}],
                "buffers": {"x": {"type": "u8", "len": 4}}}"#,
            "",
        )
        .unwrap();
        let l = GlobalLayout::new(&s).unwrap();
        let d = [ParamDecl::scalar(U8), ParamDecl::scalar(U32)];
        let p = encode_params(&s, &l, &d, AddressSize::A32).unwrap();
        assert_eq!(p.offsets, [0, 4]);
        assert_eq!(p.bytes, [1, 0, 0, 0, 0x03, 0, 0, 0x10]);
        // a 64-bit declaration under address size 32 is a mismatch
        let e = encode_params(
            &s,
            &l,
            &[ParamDecl::scalar(U8), ParamDecl::scalar(U64)],
            AddressSize::A32,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "<launch spec>: params[1]: buffer address (.u32 under .address_size 32) is 4 bytes, but the kernel's parameter 1 is .u64 (8 bytes)"
        );
    }

    #[test]
    fn mismatches_are_errors() {
        let s = LaunchSpec::from_json_str(SPEC, "").unwrap();
        let l = GlobalLayout::new(&s).unwrap();
        let e = encode_params(&s, &l, &decls()[..7], AddressSize::A64).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Params);
        assert_eq!(
            e.to_string(),
            "<launch spec>: params: the kernel 'k' declares 7 parameters, the spec gives 8"
        );
        let mut d = decls();
        d[1] = ParamDecl::scalar(F64);
        assert_eq!(
            encode_params(&s, &l, &d, AddressSize::A64).unwrap_err().to_string(),
            "<launch spec>: params[1]: f32 value is 4 bytes, but the kernel's parameter 1 is .f64 (8 bytes)"
        );
        let mut d = decls();
        d[2] = ParamDecl::scalar(U32);
        assert_eq!(
            encode_params(&s, &l, &d, AddressSize::A64).unwrap_err().to_string(),
            "<launch spec>: params[2]: buffer address (.u64) is 8 bytes, but the kernel's parameter 2 is .u32 (4 bytes)"
        );
        let mut d = decls();
        d[4] = ParamDecl::scalar(U32);
        assert!(encode_params(&s, &l, &d, AddressSize::A64)
            .unwrap_err()
            .message
            .starts_with("texture handle (.u64) is 8 bytes"));
        let mut d = decls();
        d[7] = ParamDecl::array(U8, 16, Some(8));
        assert_eq!(
            encode_params(&s, &l, &d, AddressSize::A64)
                .unwrap_err()
                .message,
            "f64 value is 8 bytes, but the kernel's parameter 7 is .align 8 .u8[16] (16 bytes)"
        );
        let mut d = decls();
        d[0].align = Some(3);
        assert!(encode_params(&s, &l, &d, AddressSize::A64)
            .unwrap_err()
            .message
            .contains("not a power of two"));
        // kind differences of the same width are accepted (s16 value, .u16 decl)
        let mut d = decls();
        d[5] = ParamDecl::scalar(U16);
        assert!(encode_params(&s, &l, &d, AddressSize::A64).is_ok());
    }
}
