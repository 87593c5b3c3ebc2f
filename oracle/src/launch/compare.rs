//! The compare rules of corpus/LAUNCH_SPEC.md: "`compare` (optional):
//! `{"nan": "bitwise" | "any"}`. `bitwise` (default) compares every output
//! bit for bit; `any` lets any NaN equal any NaN [...]. `"ulps": n` allows
//! float elements to differ by up to n units in the last place."

use std::fmt;

use super::expected::OutputSet;
use super::float::{format_value, is_nan};
use super::spec::{CompareRule, NanRule};
use super::types::ElemType;

/// One difference between expected and actual outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub buffer: String,
    pub detail: MismatchDetail,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MismatchDetail {
    /// An element differs beyond the rule.
    Element {
        index: usize,
        ty: ElemType,
        expected: u64,
        actual: u64,
    },
    /// An expected buffer is missing from the actual outputs.
    Missing,
    /// The actual outputs have a buffer the expected ones do not.
    Unexpected,
    /// The element types differ (elements are not compared).
    TypeDiffers {
        expected: ElemType,
        actual: ElemType,
    },
    /// The lengths differ (the common prefix is still compared).
    LengthDiffers { expected: usize, actual: usize },
}

impl fmt::Display for Mismatch {
    /// `y[17]: expected 0x3f800000 (1.0), got 0x3f800001 (1.0000001), 1 ulp apart`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.buffer;
        match &self.detail {
            MismatchDetail::Element {
                index,
                ty,
                expected,
                actual,
            } => {
                let w = ty.size() * 2;
                write!(
                    f,
                    "{b}[{index}]: expected 0x{expected:0w$x} ({}), got 0x{actual:0w$x} ({})",
                    format_value(*ty, *expected),
                    format_value(*ty, *actual),
                )?;
                if let Some(d) = ulp_distance(*ty, *expected, *actual) {
                    write!(f, ", {d} ulp{} apart", if d == 1 { "" } else { "s" })?;
                }
                Ok(())
            }
            MismatchDetail::Missing => write!(f, "{b}: missing from the results"),
            MismatchDetail::Unexpected => write!(f, "{b}: in the results but not expected"),
            MismatchDetail::TypeDiffers { expected, actual } => {
                write!(f, "{b}: expected type {expected}, got {actual}")
            }
            MismatchDetail::LengthDiffers { expected, actual } => {
                write!(f, "{b}: expected {expected} elements, got {actual}")
            }
        }
    }
}

/// Position of a float on the number line, in units of the last place:
/// sign-magnitude bits turned into a signed integer, so that +0 and -0 are
/// both 0, the smallest denormals are ±1, and the largest finite value and
/// infinity are neighbours.
fn ordinal(ty: ElemType, bits: u64) -> i128 {
    let bits = bits & ty.mask();
    let sign = 1u64 << (ty.bits() - 1);
    let mag = i128::from(bits & !sign);
    if bits & sign != 0 {
        -mag
    } else {
        mag
    }
}

fn is_inf(ty: ElemType, bits: u64) -> bool {
    let bits = bits & ty.mask();
    match ty {
        ElemType::F16 => bits & 0x7fff == 0x7c00,
        ElemType::F32 => bits & 0x7fff_ffff == 0x7f80_0000,
        ElemType::F64 => bits & 0x7fff_ffff_ffff_ffff == 0x7ff0_0000_0000_0000,
        _ => false,
    }
}

/// Units in the last place between two floats of type `ty` (|ordinal(a) -
/// ordinal(b)|, so +0 and -0 are 0 apart and -denorm_min and +denorm_min 2
/// apart); `None` for integer types and when either is a NaN.
pub fn ulp_distance(ty: ElemType, a: u64, b: u64) -> Option<u64> {
    if !ty.is_float() || is_nan(ty, a) || is_nan(ty, b) {
        return None;
    }
    u64::try_from((ordinal(ty, a) - ordinal(ty, b)).abs()).ok()
}

/// Whether an actual element passes for the expected one under `rule`.
///
/// - equal bits always match;
/// - integers match only bit for bit;
/// - `nan: any`: two NaNs match whatever their bits; a NaN never matches a
///   number (under either rule);
/// - `ulps: n` (n > 0): two finite floats match when at most n ulps apart
///   (so with n > 0, +0 and -0 match). Decision: an infinity matches only
///   the same infinity (the largest finite value is "1 ulp" from infinity,
///   but an overflow that did not happen is a real difference);
/// - `ulps: 0` (the default) is bit for bit.
pub fn values_match(ty: ElemType, expected: u64, actual: u64, rule: &CompareRule) -> bool {
    let (e, a) = (expected & ty.mask(), actual & ty.mask());
    if e == a {
        return true;
    }
    if !ty.is_float() {
        return false;
    }
    let (en, an) = (is_nan(ty, e), is_nan(ty, a));
    if en || an {
        return en && an && rule.nan == NanRule::Any;
    }
    if is_inf(ty, e) || is_inf(ty, a) {
        return false;
    }
    rule.ulps > 0 && ulp_distance(ty, e, a).is_some_and(|d| d <= rule.ulps)
}

/// Every difference between the expected and actual outputs under `rule`,
/// buffers in the expected order, elements in index order.
pub fn compare(expected: &OutputSet, actual: &OutputSet, rule: &CompareRule) -> Vec<Mismatch> {
    let mut out = Vec::new();
    for e in &expected.buffers {
        let push = |out: &mut Vec<Mismatch>, detail| {
            out.push(Mismatch {
                buffer: e.name.clone(),
                detail,
            })
        };
        let Some(a) = actual.get(&e.name) else {
            push(&mut out, MismatchDetail::Missing);
            continue;
        };
        if a.ty != e.ty {
            push(
                &mut out,
                MismatchDetail::TypeDiffers {
                    expected: e.ty,
                    actual: a.ty,
                },
            );
            continue;
        }
        if a.bits.len() != e.bits.len() {
            push(
                &mut out,
                MismatchDetail::LengthDiffers {
                    expected: e.bits.len(),
                    actual: a.bits.len(),
                },
            );
        }
        for (index, (&x, &y)) in e.bits.iter().zip(&a.bits).enumerate() {
            if !values_match(e.ty, x, y, rule) {
                push(
                    &mut out,
                    MismatchDetail::Element {
                        index,
                        ty: e.ty,
                        expected: x,
                        actual: y,
                    },
                );
            }
        }
    }
    for a in &actual.buffers {
        if expected.get(&a.name).is_none() {
            out.push(Mismatch {
                buffer: a.name.clone(),
                detail: MismatchDetail::Unexpected,
            });
        }
    }
    out
}

/// One line: `all 256 elements of 1 buffer match` or `3 mismatches in 2
/// buffers (y: 2, h: 1) among 320 elements; first: y[17]: expected …`.
pub fn summarize(mismatches: &[Mismatch], expected: &OutputSet) -> String {
    let elements: usize = expected.buffers.iter().map(|b| b.bits.len()).sum();
    let nb = expected.buffers.len();
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    if mismatches.is_empty() {
        return format!(
            "all {} of {} match",
            plural(elements, "element"),
            plural(nb, "buffer")
        );
    }
    let mut per: Vec<(&str, usize)> = Vec::new();
    for m in mismatches {
        match per.iter_mut().find(|(n, _)| *n == m.buffer) {
            Some((_, c)) => *c += 1,
            None => per.push((&m.buffer, 1)),
        }
    }
    let list: Vec<String> = per.iter().map(|(n, c)| format!("{n}: {c}")).collect();
    format!(
        "{} in {} ({}) among {}; first: {}",
        plural(mismatches.len(), "mismatch").replace("mismatchs", "mismatches"),
        plural(per.len(), "buffer"),
        list.join(", "),
        plural(elements, "element"),
        mismatches[0]
    )
}

#[cfg(test)]
mod tests {
    use super::super::expected::BufferBits;
    use super::*;
    use ElemType::*;

    fn set(b: &[(&str, ElemType, &[u64])]) -> OutputSet {
        OutputSet {
            buffers: b
                .iter()
                .map(|(n, ty, bits)| BufferBits {
                    name: n.to_string(),
                    ty: *ty,
                    bits: bits.to_vec(),
                })
                .collect(),
        }
    }

    const BITWISE: CompareRule = CompareRule {
        nan: NanRule::Bitwise,
        ulps: 0,
    };
    const ANY: CompareRule = CompareRule {
        nan: NanRule::Any,
        ulps: 0,
    };

    fn ulps(n: u64, nan: NanRule) -> CompareRule {
        CompareRule { nan, ulps: n }
    }

    #[test]
    fn bitwise() {
        assert!(values_match(F32, 0x3f80_0000, 0x3f80_0000, &BITWISE));
        assert!(!values_match(F32, 0x3f80_0000, 0x3f80_0001, &BITWISE));
        assert!(!values_match(F32, 0x0000_0000, 0x8000_0000, &BITWISE)); // +0 vs -0
        assert!(values_match(F32, 0x7fff_ffff, 0x7fff_ffff, &BITWISE));
        assert!(!values_match(F32, 0x7fff_ffff, 0x7fc0_0000, &BITWISE)); // two NaNs
        assert!(!values_match(S32, 1, 2, &BITWISE));
        // only the element width counts
        assert!(values_match(U8, 0x1ff, 0xff, &BITWISE));
    }

    #[test]
    fn nan_any() {
        assert!(values_match(F32, 0x7fff_ffff, 0x7fc0_0000, &ANY));
        assert!(values_match(F32, 0xffc0_0000, 0x7f80_0001, &ANY)); // sign and payload ignored
        assert!(values_match(F16, 0x7fff, 0xfe00, &ANY));
        assert!(values_match(
            F64,
            0x7fff_ffff_ffff_ffff,
            0xfff8_0000_0000_0000,
            &ANY
        ));
        assert!(!values_match(F32, 0x7fff_ffff, 0x7f80_0000, &ANY)); // NaN vs inf
        assert!(!values_match(F32, 0x3f80_0000, 0x7fc0_0000, &ANY)); // number vs NaN
        assert!(!values_match(F32, 0x7fc0_0000, 0x0000_0000, &ANY)); // NaN vs number
        assert!(!values_match(F32, 0x3f80_0000, 0x3f80_0001, &ANY)); // no tolerance
                                                                     // integers are never "NaN"
        assert!(!values_match(U32, 0x7fff_ffff, 0x7fc0_0000, &ANY));
    }

    #[test]
    fn ulps_tolerance() {
        let r = ulps(4, NanRule::Any);
        assert!(values_match(F32, 0x3f80_0000, 0x3f80_0004, &r));
        assert!(!values_match(F32, 0x3f80_0000, 0x3f80_0005, &r));
        assert!(values_match(F32, 0x3f80_0000, 0x3f7f_fffc, &r)); // below 1.0, other binade
        assert!(!values_match(F32, 0x3f80_0000, 0x3f7f_fffb, &r));
        // across zero: -2 denormals vs +2 denormals is 4 ulps; +0 vs -0 is 0
        assert!(values_match(F32, 0x8000_0002, 0x0000_0002, &r));
        assert!(!values_match(F32, 0x8000_0003, 0x0000_0002, &r));
        assert!(values_match(F32, 0x0000_0000, 0x8000_0000, &r));
        // opposite signs far from zero
        assert!(!values_match(F32, 0x3f80_0000, 0xbf80_0000, &r));
        // infinities match only themselves
        assert!(!values_match(F32, 0x7f80_0000, 0x7f7f_ffff, &r));
        assert!(!values_match(F32, 0x7f7f_ffff, 0x7f80_0000, &r));
        assert!(values_match(F32, 0xff80_0000, 0xff80_0000, &r));
        assert!(!values_match(F32, 0xff80_0000, 0x7f80_0000, &r));
        // NaN rule still applies
        assert!(values_match(F32, 0x7fff_ffff, 0xffc0_0000, &r));
        assert!(!values_match(
            F32,
            0x7fff_ffff,
            0xffc0_0000,
            &ulps(4, NanRule::Bitwise)
        ));
        assert!(!values_match(
            F32,
            0x7f80_0001,
            0x7f80_0002,
            &ulps(4, NanRule::Bitwise)
        ));
        assert!(!values_match(F32, 0x7fff_ffff, 0x3f80_0000, &r));
        // f16 and f64
        assert!(values_match(F16, 0x3c00, 0x3c04, &r));
        assert!(!values_match(F16, 0x3c00, 0x3c05, &r));
        assert!(values_match(F64, 1f64.to_bits(), 1f64.to_bits() + 4, &r));
        assert!(!values_match(F64, 1f64.to_bits(), 1f64.to_bits() - 5, &r));
        // integers get no tolerance
        assert!(!values_match(S32, 5, 6, &r));
        // distances
        assert_eq!(ulp_distance(F32, 0x8000_0001, 0x0000_0001), Some(2));
        assert_eq!(ulp_distance(F32, 0x7f7f_ffff, 0x7f80_0000), Some(1));
        assert_eq!(ulp_distance(F32, 0x7fc0_0000, 0), None);
        assert_eq!(ulp_distance(S32, 0, 1), None);
        assert_eq!(
            ulp_distance(F64, 0xfff0_0000_0000_0000, 0x7ff0_0000_0000_0000),
            Some(0xffe0_0000_0000_0000)
        );
    }

    #[test]
    fn compare_reports_every_difference() {
        let exp = set(&[
            ("y", F32, &[0x3f80_0000, 0x3f80_0000, 0x7fc0_0000]),
            ("h", U32, &[1, 2]),
            ("g", U8, &[1]),
        ]);
        let act = set(&[
            ("y", F32, &[0x3f80_0000, 0x3f80_0001, 0x7fff_ffff]),
            ("h", U32, &[1, 3, 4]),
            ("z", U8, &[]),
        ]);
        let m = compare(&exp, &act, &BITWISE);
        let text: Vec<String> = m.iter().map(|m| m.to_string()).collect();
        assert_eq!(
            text,
            [
                "y[1]: expected 0x3f800000 (1.0), got 0x3f800001 (1.0000001), 1 ulp apart",
                "y[2]: expected 0x7fc00000 (NaN), got 0x7fffffff (NaN)",
                "h: expected 2 elements, got 3",
                "h[1]: expected 0x00000002 (2), got 0x00000003 (3)",
                "g: missing from the results",
                "z: in the results but not expected",
            ]
        );
        assert_eq!(
            summarize(&m, &exp),
            "6 mismatches in 4 buffers (y: 2, h: 2, g: 1, z: 1) among 6 elements; first: y[1]: expected 0x3f800000 (1.0), got 0x3f800001 (1.0000001), 1 ulp apart"
        );
        let m = compare(
            &exp,
            &act,
            &CompareRule {
                nan: NanRule::Any,
                ulps: 1,
            },
        );
        assert_eq!(m.len(), 4);
        assert!(compare(&exp, &exp, &BITWISE).is_empty());
        assert_eq!(summarize(&[], &exp), "all 6 elements of 3 buffers match");
        let one = set(&[("y", F32, &[0])]);
        assert_eq!(summarize(&[], &one), "all 1 element of 1 buffer match");
        let m = compare(&one, &set(&[("y", S32, &[0])]), &BITWISE);
        assert_eq!(m[0].to_string(), "y: expected type f32, got s32");
        assert_eq!(
            summarize(&m, &one),
            "1 mismatch in 1 buffer (y: 1) among 1 element; first: y: expected type f32, got s32"
        );
    }

    #[test]
    fn mismatch_text_per_type() {
        let el = |ty, e, a| Mismatch {
            buffer: "b".into(),
            detail: MismatchDetail::Element {
                index: 3,
                ty,
                expected: e,
                actual: a,
            },
        };
        assert_eq!(
            el(S32, 0xffff_ffff, 1).to_string(),
            "b[3]: expected 0xffffffff (-1), got 0x00000001 (1)"
        );
        assert_eq!(
            el(U8, 0xff, 1).to_string(),
            "b[3]: expected 0xff (255), got 0x01 (1)"
        );
        assert_eq!(
            el(F16, 0x3c00, 0xbc00).to_string(),
            "b[3]: expected 0x3c00 (1.0), got 0xbc00 (-1.0), 30720 ulps apart"
        );
        assert_eq!(
            el(F64, 0x7ff0_0000_0000_0000, 0x7fef_ffff_ffff_ffff).to_string(),
            "b[3]: expected 0x7ff0000000000000 (inf), got 0x7fefffffffffffff (1.7976931348623157e308), 1 ulp apart"
        );
    }
}
