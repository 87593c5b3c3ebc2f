//! The four binary floating-point formats PTX and SASS operate on, described
//! by their field widths, plus classification and unpacking of raw bit
//! patterns.
//!
//! Every value in this library is a raw bit pattern held in the low bits of a
//! `u64` (`u16` for f16/bf16, `u32` for f32, `u64` for f64 in the typed
//! wrappers). Bits above the format's width are ignored on input and are zero
//! on output.

/// A floating-point format. The discriminant order is stable (used for
/// table-driven dispatch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatType {
    /// IEEE 754 binary16: 1 sign, 5 exponent, 10 fraction bits (PTX `.f16`).
    F16,
    /// bfloat16: 1 sign, 8 exponent, 7 fraction bits (PTX `.bf16`).
    Bf16,
    /// IEEE 754 binary32 (PTX `.f32`).
    F32,
    /// IEEE 754 binary64 (PTX `.f64`).
    F64,
}

/// The class of a value (IEEE 754 classification, sign kept separately).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    Zero,
    Subnormal,
    Normal,
    Infinite,
    Nan,
}

impl FloatType {
    /// All formats, in discriminant order.
    pub const ALL: [FloatType; 4] = [
        FloatType::F16,
        FloatType::Bf16,
        FloatType::F32,
        FloatType::F64,
    ];

    /// Total width in bits.
    #[inline(always)]
    pub const fn bits(self) -> u32 {
        match self {
            FloatType::F16 | FloatType::Bf16 => 16,
            FloatType::F32 => 32,
            FloatType::F64 => 64,
        }
    }

    /// Width of the stored fraction field (precision minus one).
    #[inline(always)]
    pub const fn man_bits(self) -> u32 {
        match self {
            FloatType::F16 => 10,
            FloatType::Bf16 => 7,
            FloatType::F32 => 23,
            FloatType::F64 => 52,
        }
    }

    /// Width of the exponent field.
    #[inline(always)]
    pub const fn exp_bits(self) -> u32 {
        match self {
            FloatType::F16 => 5,
            FloatType::Bf16 | FloatType::F32 => 8,
            FloatType::F64 => 11,
        }
    }

    /// Exponent bias.
    #[inline(always)]
    pub const fn bias(self) -> i32 {
        (1 << (self.exp_bits() - 1)) - 1
    }

    /// Mask of all bits of the format.
    #[inline(always)]
    pub const fn mask(self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }

    #[inline(always)]
    pub const fn sign_mask(self) -> u64 {
        1u64 << (self.bits() - 1)
    }

    #[inline(always)]
    pub const fn exp_mask(self) -> u64 {
        ((1u64 << self.exp_bits()) - 1) << self.man_bits()
    }

    #[inline(always)]
    pub const fn man_mask(self) -> u64 {
        (1u64 << self.man_bits()) - 1
    }

    /// The most significant fraction bit: set in quiet NaNs.
    #[inline(always)]
    pub const fn quiet_bit(self) -> u64 {
        1u64 << (self.man_bits() - 1)
    }

    /// Maximum value of the biased exponent field (all ones: inf/NaN).
    #[inline(always)]
    pub const fn exp_field_max(self) -> u64 {
        (1u64 << self.exp_bits()) - 1
    }

    /// +infinity.
    #[inline(always)]
    pub const fn inf(self) -> u64 {
        self.exp_mask()
    }

    /// Largest finite positive value.
    #[inline(always)]
    pub const fn max_finite(self) -> u64 {
        self.exp_mask() - 1
    }

    /// +1.0.
    #[inline(always)]
    pub const fn one(self) -> u64 {
        (self.bias() as u64) << self.man_bits()
    }

    /// Smallest positive normal value.
    #[inline(always)]
    pub const fn min_normal(self) -> u64 {
        1u64 << self.man_bits()
    }

    #[inline(always)]
    pub const fn is_nan(self, x: u64) -> bool {
        (x & self.exp_mask()) == self.exp_mask() && (x & self.man_mask()) != 0
    }

    #[inline(always)]
    pub const fn is_inf(self, x: u64) -> bool {
        (x & (self.mask() & !self.sign_mask())) == self.exp_mask()
    }

    /// True for +0 and -0.
    #[inline(always)]
    pub const fn is_zero(self, x: u64) -> bool {
        (x & (self.mask() & !self.sign_mask())) == 0
    }

    #[inline(always)]
    pub const fn is_subnormal(self, x: u64) -> bool {
        (x & self.exp_mask()) == 0 && (x & self.man_mask()) != 0
    }

    #[inline(always)]
    pub const fn sign(self, x: u64) -> bool {
        (x & self.sign_mask()) != 0
    }

    /// The value with the sign bit cleared.
    #[inline(always)]
    pub const fn abs_bits(self, x: u64) -> u64 {
        x & self.mask() & !self.sign_mask()
    }

    /// Signed zero.
    #[inline(always)]
    pub const fn zero(self, negative: bool) -> u64 {
        if negative {
            self.sign_mask()
        } else {
            0
        }
    }

    /// Signed infinity.
    #[inline(always)]
    pub const fn signed_inf(self, negative: bool) -> u64 {
        self.zero(negative) | self.inf()
    }

    /// IEEE classification of `x`.
    #[inline]
    pub const fn classify(self, x: u64) -> Class {
        let e = x & self.exp_mask();
        let m = x & self.man_mask();
        if e == 0 {
            if m == 0 {
                Class::Zero
            } else {
                Class::Subnormal
            }
        } else if e == self.exp_mask() {
            if m == 0 {
                Class::Infinite
            } else {
                Class::Nan
            }
        } else {
            Class::Normal
        }
    }

    /// `.ftz` input/output flush: a subnormal becomes a zero of the same sign,
    /// everything else is returned unchanged.
    #[inline(always)]
    pub const fn flush(self, x: u64) -> u64 {
        if self.is_subnormal(x) {
            x & self.sign_mask()
        } else {
            x
        }
    }

    /// Splits a finite non-zero value into (sign, significand, exponent) with
    /// value = (-1)^sign * sig * 2^exp exactly. The significand includes the
    /// implicit bit for normal numbers (so it is below 2^(man_bits+1)).
    /// The caller guarantees `x` is finite and non-zero.
    #[inline(always)]
    pub(super) fn unpack(self, x: u64) -> (bool, u64, i32) {
        let sign = self.sign(x);
        let e = ((x & self.exp_mask()) >> self.man_bits()) as i32;
        let m = x & self.man_mask();
        let bias_man = self.bias() + self.man_bits() as i32;
        if e == 0 {
            (sign, m, 1 - bias_man)
        } else {
            (sign, m | (1u64 << self.man_bits()), e - bias_man)
        }
    }

    /// Exponent of the least significant bit of the subnormal grid: the
    /// smallest positive subnormal is 2^min_lsb_exp().
    #[inline(always)]
    pub(super) const fn min_lsb_exp(self) -> i32 {
        1 - self.bias() - self.man_bits() as i32
    }

    /// Largest unbiased exponent of a finite value.
    #[inline(always)]
    pub(super) const fn max_exp(self) -> i32 {
        self.bias()
    }
}
