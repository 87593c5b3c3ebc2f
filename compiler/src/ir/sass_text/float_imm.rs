//! The bits of a float immediate as cuobjdump prints it: decimal text,
//! `+INF`, `-QNAN`, ... (`QNAN` is the default quiet NaN: f32 0x7fc00000,
//! as in the encoding of `MUFU.RSQ R7, -QNAN`, 0xffc00000). The SASS
//! simulator's operand decoder and the compiler's constant facts
//! (OptimizeNaNOrZero) both read immediates here, so they agree on every
//! value.

use crate::float::f64_to_f16_bits;

/// The format a float immediate is read into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatImmType {
    F32,
    F64,
    F16,
}

/// Why a float immediate's text has no bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatImmError {
    /// `SNAN`: a signalling NaN, whose payload the text does not give.
    Snan,
    /// Neither a special name nor a decimal number.
    Bad,
}

/// The bits of the immediate `t` in format `ty` (in the low bits). A
/// decimal is read as f64 and rounded to nearest into `ty`; `INF`,
/// `QNAN`/`NAN` give the infinity and the default quiet NaN; a leading `-`
/// sets the sign.
pub fn float_imm_bits(t: &str, ty: FloatImmType) -> Result<u64, FloatImmError> {
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (exp_all, frac_q, sign) = match ty {
        FloatImmType::F32 => (0x7f80_0000u64, 0x0040_0000u64, 1u64 << 31),
        FloatImmType::F64 => (0x7ff0_0000_0000_0000, 0x0008_0000_0000_0000, 1 << 63),
        FloatImmType::F16 => (0x7c00, 0x0200, 0x8000),
    };
    let s = if neg { sign } else { 0 };
    let bits = match body {
        "INF" => exp_all,
        "QNAN" | "NAN" => exp_all | frac_q,
        "SNAN" => return Err(FloatImmError::Snan),
        _ => {
            let v: f64 = body.parse().map_err(|_| FloatImmError::Bad)?;
            let v = if neg { -v } else { v };
            return Ok(match ty {
                FloatImmType::F32 => u64::from((v as f32).to_bits()),
                FloatImmType::F64 => v.to_bits(),
                FloatImmType::F16 => u64::from(f64_to_f16_bits(v)),
            });
        }
    };
    Ok(bits | s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use FloatImmType::*;

    #[test]
    fn specials_in_each_format() {
        assert_eq!(float_imm_bits("+INF", F32), Ok(0x7f80_0000));
        assert_eq!(float_imm_bits("-QNAN", F32), Ok(0xffc0_0000));
        assert_eq!(float_imm_bits("NAN", F16), Ok(0x7e00));
        assert_eq!(float_imm_bits("-INF", F64), Ok(0xfff0_0000_0000_0000));
        assert_eq!(float_imm_bits("SNAN", F32), Err(FloatImmError::Snan));
    }

    #[test]
    fn decimals_round_to_nearest() {
        assert_eq!(float_imm_bits("0.5", F32), Ok(0x3f00_0000));
        assert_eq!(float_imm_bits("-0", F32), Ok(0x8000_0000));
        assert_eq!(float_imm_bits("1", F16), Ok(0x3c00));
        assert_eq!(float_imm_bits("-2", F64), Ok(0xc000_0000_0000_0000));
        assert_eq!(float_imm_bits("x", F32), Err(FloatImmError::Bad));
        assert_eq!(float_imm_bits("-INF ", F32), Err(FloatImmError::Bad));
    }
}
