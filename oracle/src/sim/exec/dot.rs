//! Integer dot products (IDP) and absolute differences (VABSDIFF): the
//! instructions ptxas emits for PTX `dp4a`, `dp2a` and `sad.{u32,s32}`
//! (ptxas 11.8, sm_70/80/90: `dp4a.s32.u32` -> `IDP.4A.S8.U8`,
//! `dp2a.hi.s32.u32` -> `IDP.2A.HI.S16.U8`, `sad.u32` -> `VABSDIFF.U32`,
//! `sad.s32` -> `VABSDIFF`).
//!
//! Semantics, from the PTX ISA text of the instructions they implement
//! (#integer-arithmetic-instructions-dp4a, -dp2a, -sad), with the SASS
//! modifiers naming the operand types as ptxas prints them:
//! - `IDP.4A.Ta.Tb d, a, b, c`: `d = c + sum_{i<4} ext(Ta, a.byte[i]) *
//!   ext(Tb, b.byte[i])`, Ta/Tb `U8`/`S8` (the first type is `a`'s),
//!   modulo 2^32.
//! - `IDP.2A.{LO,HI}.Ta.Tb d, a, b, c`: `d = c + sum_{i<2} ext(Ta,
//!   a.half[i]) * ext(Tb, b.byte[i + k])`, `k` = 0 (`.LO`) or 2 (`.HI`),
//!   Ta `U16`/`S16`, Tb `U8`/`S8`, modulo 2^32.
//! - `VABSDIFF{.U32} d, a, b, c`: `d = |a - b| + c` modulo 2^32, `a` and
//!   `b` compared as signed 32-bit integers unless `.U32`.

use super::super::program::{Dst, Src};
use super::super::warp::{Stop, Warp};

/// The form of an IDP instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdpForm {
    /// `.2A` (else `.4A`).
    pub two: bool,
    /// `.HI` (`.2A` only): bytes 2 and 3 of `b`.
    pub hi: bool,
    pub a_signed: bool,
    pub b_signed: bool,
}

impl IdpForm {
    /// From the modifiers: `4A`/`2A`, `LO`/`HI`, then the type of `a`
    /// and the type of `b` in that order.
    pub fn decode(mods: &[&str]) -> Result<IdpForm, String> {
        let two = mods.contains(&"2A");
        if !two && !mods.contains(&"4A") {
            return Err("IDP needs .4A or .2A".into());
        }
        let tys: Vec<&str> = mods
            .iter()
            .copied()
            .filter(|m| matches!(*m, "U8" | "S8" | "U16" | "S16"))
            .collect();
        let (ta, tb) = match tys.as_slice() {
            [a, b] => (*a, *b),
            _ => return Err("IDP needs two operand types".into()),
        };
        let a_ok = if two {
            matches!(ta, "U16" | "S16")
        } else {
            matches!(ta, "U8" | "S8")
        };
        if !a_ok || !matches!(tb, "U8" | "S8") {
            return Err(format!("IDP operand types .{ta}.{tb} do not fit the form"));
        }
        let hi = mods.contains(&"HI");
        if hi && !two {
            return Err("IDP.4A takes no .HI".into());
        }
        Ok(IdpForm {
            two,
            hi,
            a_signed: ta.starts_with('S'),
            b_signed: tb.starts_with('S'),
        })
    }

    /// One lane's result.
    pub fn eval(self, a: u32, b: u32, c: u32) -> u32 {
        let byte = |v: u32, i: u32, s: bool| -> i64 {
            let x = (v >> (8 * i)) & 0xff;
            if s {
                i64::from(x as u8 as i8)
            } else {
                i64::from(x)
            }
        };
        let half = |v: u32, i: u32, s: bool| -> i64 {
            let x = (v >> (16 * i)) & 0xffff;
            if s {
                i64::from(x as u16 as i16)
            } else {
                i64::from(x)
            }
        };
        let mut sum = i64::from(c);
        if self.two {
            let k = if self.hi { 2 } else { 0 };
            for i in 0..2 {
                sum += half(a, i, self.a_signed) * byte(b, i + k, self.b_signed);
            }
        } else {
            for i in 0..4 {
                sum += byte(a, i, self.a_signed) * byte(b, i, self.b_signed);
            }
        }
        sum as u32
    }
}

/// `|a - b| + c` for one lane.
pub fn vabsdiff1(a: u32, b: u32, c: u32, signed: bool) -> u32 {
    let diff = if signed {
        (i64::from(a as i32) - i64::from(b as i32)).unsigned_abs() as u32
    } else {
        a.abs_diff(b)
    };
    diff.wrapping_add(c)
}

/// Three plain sources through `f` (IDP, VABSDIFF).
pub fn ternary(
    w: &mut Warp,
    m: u32,
    d: Dst,
    srcs: [Src; 3],
    f: impl Fn(u32, u32, u32) -> u32,
) -> Result<(), Stop> {
    let va = w.read(srcs[0], m)?;
    let vb = w.read(srcs[1], m)?;
    let vc = w.read(srcs[2], m)?;
    let mut r = [0u32; 32];
    for l in 0..32 {
        r[l] = f(va[l], vb[l], vc[l]);
    }
    w.write(d, m, &r);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(mods: &[&str]) -> IdpForm {
        IdpForm::decode(mods).unwrap()
    }

    #[test]
    fn idp_4a_signedness_per_operand() {
        // a = bytes (0xff, 1, 0, 0), b = bytes (2, 0xfe, 0, 0)
        let (a, b) = (0x0000_01ff, 0x0000_fe02);
        // u8.u8: 255*2 + 1*254
        assert_eq!(form(&["4A", "U8", "U8"]).eval(a, b, 0), 764);
        // s8.u8: -1*2 + 1*254
        assert_eq!(form(&["4A", "S8", "U8"]).eval(a, b, 0), 252);
        // u8.s8: 255*2 + 1*-2
        assert_eq!(form(&["4A", "U8", "S8"]).eval(a, b, 0), 508);
        // s8.s8: -1*2 + 1*-2, plus c = 10
        assert_eq!(form(&["4A", "S8", "S8"]).eval(a, b, 10), 6);
        // wraps modulo 2^32
        assert_eq!(
            form(&["4A", "S8", "S8"]).eval(0x8080_8080, 0x7f7f_7f7f, 0),
            (-128i32 * 127 * 4) as u32
        );
    }

    #[test]
    fn idp_2a_halves() {
        // a halves (0xffff, 2), b bytes (3, 4, 5, 6)
        let (a, b) = (0x0002_ffff, 0x0605_0403);
        assert_eq!(
            form(&["2A", "LO", "U16", "U8"]).eval(a, b, 0),
            65535 * 3 + 2 * 4
        );
        assert_eq!(
            form(&["2A", "HI", "U16", "U8"]).eval(a, b, 0),
            65535 * 5 + 2 * 6
        );
        assert_eq!(
            form(&["2A", "HI", "S16", "U8"]).eval(a, b, 1),
            8 // -1 * 5 + 2 * 6 + 1
        );
        assert_eq!(
            form(&["2A", "LO", "S16", "S8"]).eval(0x0001_0001, 0x0000_80ff, 0),
            (-1i32 - 128) as u32
        );
    }

    #[test]
    fn idp_decode_refuses_bad_forms() {
        assert!(IdpForm::decode(&["U8", "U8"]).is_err());
        assert!(IdpForm::decode(&["4A", "U16", "U8"]).is_err());
        assert!(IdpForm::decode(&["2A", "LO", "U8", "U8"]).is_err());
        assert!(IdpForm::decode(&["4A", "HI", "U8", "U8"]).is_err());
        assert!(IdpForm::decode(&["4A", "U8"]).is_err());
    }

    #[test]
    fn vabsdiff_signed_and_unsigned() {
        assert_eq!(vabsdiff1(3, 10, 1, false), 8);
        assert_eq!(vabsdiff1(0xffff_ffff, 1, 0, false), 0xffff_fffe);
        assert_eq!(vabsdiff1(0xffff_ffff, 1, 0, true), 2);
        assert_eq!(vabsdiff1(0x8000_0000, 0x7fff_ffff, 0, true), 0xffff_ffff);
        assert_eq!(vabsdiff1(0x8000_0000, 0x7fff_ffff, 1, true), 0);
    }
}
