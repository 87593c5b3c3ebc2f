//! Exact reference arithmetic for the tests, written independently of the
//! engine: values are exact rationals (`num-bigint`), rounding is done by
//! integer division and comparison of remainders, and the format parameters
//! are restated here rather than taken from `formats.rs`.

use num_bigint::{BigInt, BigUint, Sign};

use super::super::Rounding;

/// Format parameters (exponent bits, fraction bits), restated.
#[derive(Clone, Copy, Debug)]
pub struct Fmt {
    pub e: u32,
    pub m: u32,
}

pub const F16: Fmt = Fmt { e: 5, m: 10 };
pub const BF16: Fmt = Fmt { e: 8, m: 7 };
pub const F32: Fmt = Fmt { e: 8, m: 23 };
pub const F64: Fmt = Fmt { e: 11, m: 52 };

impl Fmt {
    fn bias(self) -> i64 {
        (1i64 << (self.e - 1)) - 1
    }
    pub fn sign_bit(self) -> u64 {
        1u64 << (self.e + self.m)
    }
    fn exp_all_ones(self) -> u64 {
        (1u64 << self.e) - 1
    }
    pub fn is_finite(self, x: u64) -> bool {
        (x >> self.m) & self.exp_all_ones() != self.exp_all_ones()
    }
    pub fn is_nan(self, x: u64) -> bool {
        !self.is_finite(x) && x & ((1u64 << self.m) - 1) != 0
    }
    pub fn inf(self, neg: bool) -> u64 {
        (self.exp_all_ones() << self.m) | if neg { self.sign_bit() } else { 0 }
    }
    pub fn max(self, neg: bool) -> u64 {
        ((self.exp_all_ones() << self.m) - 1) | if neg { self.sign_bit() } else { 0 }
    }
}

/// An exact rational: num / den, den > 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Q {
    pub num: BigInt,
    pub den: BigUint,
}

impl Q {
    pub fn int(v: i128) -> Q {
        Q {
            num: BigInt::from(v),
            den: BigUint::from(1u32),
        }
    }
    pub fn is_zero(&self) -> bool {
        self.num.sign() == Sign::NoSign
    }
    pub fn add(&self, o: &Q) -> Q {
        Q {
            num: &self.num * BigInt::from(o.den.clone()) + &o.num * BigInt::from(self.den.clone()),
            den: &self.den * &o.den,
        }
    }
    pub fn neg(&self) -> Q {
        Q {
            num: -self.num.clone(),
            den: self.den.clone(),
        }
    }
    pub fn mul(&self, o: &Q) -> Q {
        Q {
            num: &self.num * &o.num,
            den: &self.den * &o.den,
        }
    }
    pub fn div(&self, o: &Q) -> Q {
        assert!(!o.is_zero());
        let (s, mag) = o.num.clone().into_parts();
        let num = &self.num * BigInt::from(o.den.clone());
        let num = if s == Sign::Minus { -num } else { num };
        Q {
            num,
            den: &self.den * mag,
        }
    }
    /// Multiplies by 2^k.
    pub fn scale(&self, k: i64) -> Q {
        if k >= 0 {
            Q {
                num: &self.num << k as usize,
                den: self.den.clone(),
            }
        } else {
            Q {
                num: self.num.clone(),
                den: &self.den << (-k) as usize,
            }
        }
    }
    pub fn cmp(&self, o: &Q) -> std::cmp::Ordering {
        (&self.num * BigInt::from(o.den.clone())).cmp(&(&o.num * BigInt::from(self.den.clone())))
    }
    /// Nearest f64 (only for error estimates in the approx tests).
    pub fn to_f64(&self) -> f64 {
        if self.is_zero() {
            return 0.0;
        }
        let bits = decode_round(F64, self, Rounding::Rn);
        f64::from_bits(bits)
    }
}

/// The exact value of a finite bit pattern (zero for both zeros).
pub fn value(f: Fmt, x: u64) -> Q {
    assert!(f.is_finite(x), "not finite: {x:#x}");
    let neg = x & f.sign_bit() != 0;
    let e = ((x >> f.m) & f.exp_all_ones()) as i64;
    let frac = x & ((1u64 << f.m) - 1);
    let (sig, exp) = if e == 0 {
        (frac, 1 - f.bias() - f.m as i64)
    } else {
        (frac | (1u64 << f.m), e - f.bias() - f.m as i64)
    };
    let q = Q::int(sig as i128).scale(exp);
    if neg {
        q.neg()
    } else {
        q
    }
}

/// floor(log2(|q|)) for q != 0.
fn ilog2(q: &Q) -> i64 {
    let n = q.num.magnitude();
    let d = &q.den;
    let mut e = n.bits() as i64 - d.bits() as i64;
    // Check 2^e <= n/d, i.e. d*2^e <= n.
    let le = if e >= 0 {
        (d << e as usize) <= *n
    } else {
        d <= &(n << (-e) as usize)
    };
    if !le {
        e -= 1;
    }
    e
}

/// Correctly rounds a non-zero rational to the format.
pub fn decode_round(f: Fmt, q: &Q, rnd: Rounding) -> u64 {
    assert!(!q.is_zero());
    let neg = q.num.sign() == Sign::Minus;
    let sign = if neg { f.sign_bit() } else { 0 };
    let emin = 1 - f.bias();
    let emax = f.bias();
    let e = ilog2(q);
    let l = e.max(emin) - f.m as i64; // exponent of the result's lsb
                                      // k = |q| / 2^l = n / d
    let mag = q.num.magnitude().clone();
    let (n, d) = if l <= 0 {
        (mag << (-l) as usize, q.den.clone())
    } else {
        (mag, &q.den << l as usize)
    };
    let k = &n / &d;
    let r = &n % &d;
    let twice_r = &r << 1usize;
    let inexact = r != BigUint::from(0u32);
    let up = match rnd {
        Rounding::Rn => twice_r > d || (twice_r == d && k.bit(0)),
        Rounding::Rz => false,
        Rounding::Rm => neg && inexact,
        Rounding::Rp => !neg && inexact,
    };
    let mut k = k + BigUint::from(up as u32);
    let mut l = l;
    let one_m1 = BigUint::from(1u32) << (f.m as usize + 1);
    if k == one_m1 {
        k >>= 1usize;
        l += 1;
    }
    let overflow = || match rnd {
        Rounding::Rn => f.inf(neg),
        Rounding::Rz => f.max(neg),
        Rounding::Rm => {
            if neg {
                f.inf(true)
            } else {
                f.max(false)
            }
        }
        Rounding::Rp => {
            if neg {
                f.max(true)
            } else {
                f.inf(false)
            }
        }
    };
    if l + f.m as i64 > emax {
        return overflow();
    }
    let k: u64 = k.try_into().unwrap();
    if k < (1u64 << f.m) {
        // subnormal or zero
        return sign | k;
    }
    let biased = (l + f.m as i64 + f.bias()) as u64;
    sign | (biased << f.m) | (k - (1u64 << f.m))
}

/// Rounds an exact result; an exact zero gets the sign `zero_neg`.
pub fn round_or_zero(f: Fmt, q: &Q, rnd: Rounding, zero_neg: bool) -> u64 {
    if q.is_zero() {
        if zero_neg {
            f.sign_bit()
        } else {
            0
        }
    } else {
        decode_round(f, q, rnd)
    }
}

fn isqrt(n: &BigUint) -> BigUint {
    n.sqrt()
}

/// Correctly rounded square root of a positive finite value.
pub fn sqrt_round(f: Fmt, q: &Q, rnd: Rounding) -> u64 {
    assert!(q.num.sign() == Sign::Plus);
    let emin = 1 - f.bias();
    let ex = ilog2(q);
    let e = ex.div_euclid(2); // floor(log2(sqrt q))
    let l = e.max(emin) - f.m as i64;
    // t = q * 2^(-2l); k = floor(sqrt(t)).
    let t = q.scale(-2 * l);
    // floor(sqrt(n/d)) = floor(sqrt(n * d) / d) ... use a big common scale:
    // k = floor( isqrt(n * 4^c / d) / 2^c ) with c large enough.
    let c = 4 + t.den.bits() as usize;
    let a = (t.num.magnitude() << (2 * c)) / &t.den;
    let k = isqrt(&a) >> c;
    // exact iff t == k^2; round up per 4t vs (2k+1)^2.
    let k2 = Q {
        num: BigInt::from(&k * &k),
        den: BigUint::from(1u32),
    };
    let exact = t.cmp(&k2) == std::cmp::Ordering::Equal;
    let two_k1 = (&k << 1usize) + BigUint::from(1u32);
    let h = Q {
        num: BigInt::from(&two_k1 * &two_k1),
        den: BigUint::from(1u32),
    };
    let four_t = t.scale(2);
    let above_half = four_t.cmp(&h) == std::cmp::Ordering::Greater;
    let tie = four_t.cmp(&h) == std::cmp::Ordering::Equal;
    let up = match rnd {
        Rounding::Rn => above_half || (tie && k.bit(0)),
        Rounding::Rz | Rounding::Rm => false,
        Rounding::Rp => !exact,
    };
    let kk = k + BigUint::from(up as u32);
    let res = Q {
        num: BigInt::from(kk),
        den: BigUint::from(1u32),
    }
    .scale(l);
    // res is representable (or overflows, impossible for sqrt): round exactly.
    decode_round(f, &res, Rounding::Rz)
}
