//! Element types of buffers, textures and scalar parameters.

use std::fmt;

/// `u8 s8 u16 s16 u32 s32 u64 s64 f16 f32 f64`; `b8…b64` are aliases of
/// `u8…u64` (corpus/LAUNCH_SPEC.md, "buffers"). Elements are little-endian.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElemType {
    U8,
    S8,
    U16,
    S16,
    U32,
    S32,
    U64,
    S64,
    F16,
    F32,
    F64,
}

impl ElemType {
    pub const ALL: [ElemType; 11] = [
        ElemType::U8,
        ElemType::S8,
        ElemType::U16,
        ElemType::S16,
        ElemType::U32,
        ElemType::S32,
        ElemType::U64,
        ElemType::S64,
        ElemType::F16,
        ElemType::F32,
        ElemType::F64,
    ];

    /// The type named `name` (`"b32"` gives `U32`); `None` for anything else.
    pub fn from_name(name: &str) -> Option<ElemType> {
        Some(match name {
            "u8" | "b8" => ElemType::U8,
            "s8" => ElemType::S8,
            "u16" | "b16" => ElemType::U16,
            "s16" => ElemType::S16,
            "u32" | "b32" => ElemType::U32,
            "s32" => ElemType::S32,
            "u64" | "b64" => ElemType::U64,
            "s64" => ElemType::S64,
            "f16" => ElemType::F16,
            "f32" => ElemType::F32,
            "f64" => ElemType::F64,
            _ => return None,
        })
    }

    /// The canonical name (`u32` for `b32`).
    pub fn name(self) -> &'static str {
        match self {
            ElemType::U8 => "u8",
            ElemType::S8 => "s8",
            ElemType::U16 => "u16",
            ElemType::S16 => "s16",
            ElemType::U32 => "u32",
            ElemType::S32 => "s32",
            ElemType::U64 => "u64",
            ElemType::S64 => "s64",
            ElemType::F16 => "f16",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
        }
    }

    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            ElemType::U8 | ElemType::S8 => 1,
            ElemType::U16 | ElemType::S16 | ElemType::F16 => 2,
            ElemType::U32 | ElemType::S32 | ElemType::F32 => 4,
            ElemType::U64 | ElemType::S64 | ElemType::F64 => 8,
        }
    }

    /// Width in bits.
    pub fn bits(self) -> u32 {
        self.size() as u32 * 8
    }

    /// All-ones mask of the element width.
    pub fn mask(self) -> u64 {
        u64::MAX >> (64 - self.bits())
    }

    pub fn is_float(self) -> bool {
        matches!(self, ElemType::F16 | ElemType::F32 | ElemType::F64)
    }

    pub fn is_int(self) -> bool {
        !self.is_float()
    }

    pub fn is_signed_int(self) -> bool {
        matches!(
            self,
            ElemType::S8 | ElemType::S16 | ElemType::S32 | ElemType::S64
        )
    }

    /// The element at `index` of little-endian `bytes`, zero-extended to u64.
    /// `None` if `bytes` is too short.
    pub fn read_le(self, bytes: &[u8], index: usize) -> Option<u64> {
        let n = self.size();
        let start = index.checked_mul(n)?;
        let chunk = bytes.get(start..start.checked_add(n)?)?;
        let mut v = 0u64;
        for (k, b) in chunk.iter().enumerate() {
            v |= u64::from(*b) << (8 * k);
        }
        Some(v)
    }

    /// Appends the low `size()` bytes of `bits`, little-endian.
    pub fn push_le(self, out: &mut Vec<u8>, bits: u64) {
        out.extend_from_slice(&bits.to_le_bytes()[..self.size()]);
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases() {
        for t in ElemType::ALL {
            assert_eq!(ElemType::from_name(t.name()), Some(t));
        }
        assert_eq!(ElemType::from_name("b8"), Some(ElemType::U8));
        assert_eq!(ElemType::from_name("b16"), Some(ElemType::U16));
        assert_eq!(ElemType::from_name("b32"), Some(ElemType::U32));
        assert_eq!(ElemType::from_name("b64"), Some(ElemType::U64));
        for bad in ["", "f8", "bf16", "U32", "u128", "pred", "f16x2", " u32"] {
            assert_eq!(ElemType::from_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn sizes_masks_kinds() {
        let sizes: Vec<usize> = ElemType::ALL.iter().map(|t| t.size()).collect();
        assert_eq!(sizes, [1, 1, 2, 2, 4, 4, 8, 8, 2, 4, 8]);
        assert_eq!(ElemType::U8.mask(), 0xff);
        assert_eq!(ElemType::F16.mask(), 0xffff);
        assert_eq!(ElemType::S32.mask(), 0xffff_ffff);
        assert_eq!(ElemType::F64.mask(), u64::MAX);
        assert!(ElemType::S8.is_signed_int() && !ElemType::U8.is_signed_int());
        assert!(ElemType::F16.is_float() && !ElemType::F16.is_int());
    }

    #[test]
    fn little_endian_read_write() {
        let mut v = Vec::new();
        ElemType::U16.push_le(&mut v, 0x1234);
        ElemType::U32.push_le(&mut v, 0xdead_beef_cafe);
        assert_eq!(v, [0x34, 0x12, 0xfe, 0xca, 0xef, 0xbe]);
        assert_eq!(ElemType::U16.read_le(&v, 0), Some(0x1234));
        assert_eq!(ElemType::U16.read_le(&v, 1), Some(0xcafe));
        assert_eq!(ElemType::U16.read_le(&v, 3), None);
        assert_eq!(ElemType::U64.read_le(&v, usize::MAX), None);
    }
}
