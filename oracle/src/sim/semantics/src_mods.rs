//! Source-operand modifiers of floating-point opcodes: `-R` (negate), `|R|`
//! (absolute value) and `-|R|` (abs first, then negate, as cuobjdump prints
//! the minus outside the bars).
//!
//! On hardware these are pure sign-bit operations applied while reading the
//! operand: no NaN canonicalization, no flush; whatever the opcode then does
//! with a NaN or a subnormal (FADD returns 0x7fffffff, `.FTZ` flushes) is the
//! opcode's business. Evidence: ptxas lowers `abs.f32`/`neg.f32` to
//! `FADD d, |a|, -RZ` / `FADD d, -a, -RZ` (docs/SEMANTICS.md, Sign operations; corpus) and
//! `abs.f64` to `DADD d, -RZ, |a|` (corpus, double_noinline), which only makes
//! sense if the modifier itself is a bit operation. That the modifier never
//! alters a NaN payload is UNCONFIRMED (nothing observable separates it from
//! the opcodes' own NaN handling for f32/f16; for f64, DADD propagates the
//! modified NaN, see `fp64.rs`).
//!
//! For f16x2 operands both halves are modified (bits 15 and 31); the half
//! selector (`.H0_H0`...) is applied first (see `fp16::HalfSel`), then the
//! modifier. UNCONFIRMED order; it matters only for `.F32` sources, where
//! the modifier is applied to the f32 value before conversion (sign
//! operations commute with a correctly rounded conversion anyway, except for
//! NaN payloads, which the canonical f16 NaN erases).

/// Negate / absolute-value flags of one source operand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SrcMods {
    pub neg: bool,
    pub abs: bool,
}

impl SrcMods {
    pub const NONE: SrcMods = SrcMods {
        neg: false,
        abs: false,
    };
    pub const NEG: SrcMods = SrcMods {
        neg: true,
        abs: false,
    };
    pub const ABS: SrcMods = SrcMods {
        neg: false,
        abs: true,
    };
    pub const NEG_ABS: SrcMods = SrcMods {
        neg: true,
        abs: true,
    };

    /// Applies the modifier to a value whose sign bits are `sign_mask`.
    #[inline(always)]
    const fn apply_mask(self, x: u64, sign_mask: u64) -> u64 {
        let x = if self.abs { x & !sign_mask } else { x };
        if self.neg {
            x ^ sign_mask
        } else {
            x
        }
    }

    /// f16/bf16 scalar.
    #[inline(always)]
    pub const fn apply16(self, x: u16) -> u16 {
        self.apply_mask(x as u64, 0x8000) as u16
    }

    /// f32.
    #[inline(always)]
    pub const fn apply32(self, x: u32) -> u32 {
        self.apply_mask(x as u64, 0x8000_0000) as u32
    }

    /// f64 (a register pair's value).
    #[inline(always)]
    pub const fn apply64(self, x: u64) -> u64 {
        self.apply_mask(x, 0x8000_0000_0000_0000)
    }

    /// f16x2/bf16x2: both halves.
    #[inline(always)]
    pub const fn apply_x2(self, x: u32) -> u32 {
        self.apply_mask(x as u64, 0x8000_8000) as u32
    }

    /// By operand width in bits: 16, 32 (scalar f32), 64. For packed halves
    /// use [`SrcMods::apply_x2`].
    #[inline(always)]
    pub const fn apply_width(self, x: u64, bits: u32) -> u64 {
        match bits {
            16 => self.apply16(x as u16) as u64,
            32 => self.apply32(x as u32) as u64,
            _ => self.apply64(x),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f32_sign_ops() {
        // -(1.0) = 0xbf800000; |-2.0| = 2.0 (0x40000000); -|2.0| = -2.0.
        assert_eq!(SrcMods::NEG.apply32(0x3f80_0000), 0xbf80_0000);
        assert_eq!(SrcMods::ABS.apply32(0xc000_0000), 0x4000_0000);
        assert_eq!(SrcMods::NEG_ABS.apply32(0x4000_0000), 0xc000_0000);
        assert_eq!(SrcMods::NEG_ABS.apply32(0xc000_0000), 0xc000_0000);
        assert_eq!(SrcMods::NONE.apply32(0x1234_5678), 0x1234_5678);
        // -RZ = -0.0.
        assert_eq!(SrcMods::NEG.apply32(0), 0x8000_0000);
        // NaN payload untouched, only the sign bit moves.
        assert_eq!(SrcMods::NEG.apply32(0x7fc0_1234), 0xffc0_1234);
        assert_eq!(SrcMods::ABS.apply32(0xff80_0001), 0x7f80_0001);
        // Subnormal is not flushed.
        assert_eq!(SrcMods::NEG.apply32(0x0000_0001), 0x8000_0001);
    }

    #[test]
    fn f64_and_f16_sign_ops() {
        assert_eq!(
            SrcMods::NEG.apply64(0x3ff0_0000_0000_0000),
            0xbff0_0000_0000_0000
        );
        assert_eq!(
            SrcMods::ABS.apply64(0xfff8_0000_0000_0001),
            0x7ff8_0000_0000_0001
        );
        assert_eq!(SrcMods::NEG.apply16(0x3c00), 0xbc00);
        assert_eq!(SrcMods::ABS.apply16(0xfc00), 0x7c00);
        assert_eq!(SrcMods::NEG.apply_x2(0x3c00_bc00), 0xbc00_3c00);
        assert_eq!(SrcMods::ABS.apply_x2(0xbc00_bc00), 0x3c00_3c00);
        assert_eq!(SrcMods::NEG_ABS.apply_x2(0x3c00_bc00), 0xbc00_bc00);
        assert_eq!(SrcMods::NEG.apply_width(0, 16), 0x8000);
        assert_eq!(SrcMods::NEG.apply_width(0, 32), 0x8000_0000);
        assert_eq!(SrcMods::NEG.apply_width(0, 64), 1 << 63);
    }
}
