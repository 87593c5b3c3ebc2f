//! Formatted surface stores, `sust.p` (PTX ISA 9.7.11.2), on the launch
//! spec's surfaces: shared by the PTX interpreter (`exec/surf.rs`) and the
//! SASS simulator (`sim/exec/surf.rs`, `SUST.P`), so both agree by
//! construction. (`suld.p` is not in the ISA — 9.7.11.1 defines `suld.b`
//! only — and ptxas 11.8 does not know it: "Not a name of any known
//! instruction: 'suld.p'". `sured.p` stays refused: surface.rs.)
//!
//! The ISA's text (9.7.11.2): "sust.p performs a formatted store of a
//! vector of 32-bit data values to a surface sample. The source vector
//! elements are interpreted left-to-right as R, G, B, and A surface
//! components. These elements are written to the corresponding surface
//! sample components. Source elements that do not occur in the surface
//! sample are ignored. Surface sample components that do not occur in the
//! source vector will be written with an unpredictable value. The lowest
//! dimension coordinate represents a sample offset rather than a byte
//! offset. The source data interpretation is based on the surface sample
//! format as follows: If the surface format contains UNORM, SNORM, or
//! FLOAT data, then .f32 is assumed; if the surface format contains UINT
//! data, then .u32 is assumed; if the surface format contains SINT data,
//! then .s32 is assumed. The source data is then converted from this type
//! to the surface sample format." Syntax: `sust.p.geom.vec.b32.clamp`
//! (ptxas 11.8 refuses any other type: "Unexpected instruction types
//! specified for 'sust.p'").
//!
//! The rules here (each a reading of that text; where it is silent the
//! store stops, the rule for undefined cases of docs/SEMANTICS.md, Sources):
//! * The sample format of a launch surface is its channel type: no launch
//!   surface is normalized (corpus/LAUNCH_SPEC.md `surfaces` has no such field;
//!   `suq.channel_data_type` answers the OpenCL UNSIGNED_INT/SIGNED_INT/
//!   HALF_FLOAT/FLOAT values, semantics/texture.rs). So `u8 u16 u32` are
//!   UINT (words read as `.u32`), `s8 s16 s32` SINT (`.s32`), `f16 f32`
//!   FLOAT (`.f32`). 64-bit channel types are no surface sample format
//!   (no channel-data-type value exists for them): the store stops.
//! * Conversion: the value is stored when the channel type represents it
//!   exactly (an integer in range; an f32 that is exactly an f16, sign of
//!   zero and infinities included; any f32 into an f32 channel, bit for
//!   bit). The ISA names no rounding or saturation, so any other value
//!   stops the store (so does a NaN into an f16 channel: its payload is
//!   not specified).
//! * A vector shorter than the sample's channel count would leave
//!   "unpredictable" components: stops. Elements beyond the channel count
//!   are ignored, as the ISA says.
//! * x counts samples: the byte offset is `x * element bytes`, and the
//!   `.trap`/`.clamp`/`.zero` rules of surface.rs apply to a one-sample
//!   access (`.clamp`: the nearest sample).

use super::surface::{locate_scaled, Loc, Oob};
use crate::launch::{f16_bits_to_f64, f64_to_f16_bits};
use crate::launch::{ElemType, SurfaceSpec};

/// The location a `sust.p` reaches: [`super::surface::locate`] for one
/// whole sample at sample offset x (coordinates as there: the array index
/// first when layered, then x, y, z as `.s32`).
pub fn locate_sample(
    spec: &SurfaceSpec,
    layered: bool,
    ndims: usize,
    oob: Oob,
    coords: &[u32],
) -> Result<Option<Loc>, String> {
    let eb = spec.element_bytes();
    locate_scaled(spec, layered, ndims, oob, coords, eb, eb as i64)
}

/// The channel values (one per channel, the low `ty.size()` bytes of each
/// to be written little-endian) that `sust.p` stores from the 32-bit
/// source `words` (R, G, B, A order) on `spec`, or why it stops.
pub fn convert_sample(spec: &SurfaceSpec, words: &[u32]) -> Result<Vec<u64>, String> {
    let ch = spec.channels as usize;
    if words.len() < ch {
        return Err(format!(
            "sust.p writes {} component(s) of a {ch}-channel sample of surface '{}': the others would be \"written with an unpredictable value\" (PTX ISA 9.7.11.2)",
            words.len(),
            spec.name
        ));
    }
    words[..ch]
        .iter()
        .map(|&w| convert(spec.ty, w))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("sust.p on surface '{}': {e}", spec.name))
}

/// One channel value of type `ty` from a source word (read as `.u32`,
/// `.s32` or `.f32` by the format's kind).
fn convert(ty: ElemType, w: u32) -> Result<u64, String> {
    use ElemType::*;
    let int_range = |lo: i64, hi: i64, v: i64| -> Result<u64, String> {
        if (lo..=hi).contains(&v) {
            Ok(v as u64 & ((1u64 << (ty.size() * 8)) - 1))
        } else {
            Err(format!(
                "{v} is outside the .{} channel's range [{lo}, {hi}], and the ISA names no saturation or wrap for the conversion to the sample format",
                ty.name()
            ))
        }
    };
    match ty {
        U8 => int_range(0, 0xff, i64::from(w)),
        U16 => int_range(0, 0xffff, i64::from(w)),
        U32 => Ok(u64::from(w)),
        S8 => int_range(-0x80, 0x7f, i64::from(w as i32)),
        S16 => int_range(-0x8000, 0x7fff, i64::from(w as i32)),
        S32 => Ok(u64::from(w)),
        F32 => Ok(u64::from(w)),
        F16 => {
            let x = f32::from_bits(w);
            let h = f64_to_f16_bits(f64::from(x));
            if !x.is_nan() && (f16_bits_to_f64(h) as f32).to_bits() == w {
                Ok(u64::from(h))
            } else {
                Err(format!(
                    "the f32 {x:e} (0x{w:08x}) is not exactly an f16, and the ISA names no rounding for the conversion to the sample format"
                ))
            }
        }
        U64 | S64 | F64 => Err(format!(
            "a .{} channel is no surface sample format (UNORM, SNORM, FLOAT, UINT or SINT of at most 32 bits)",
            ty.name()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::Init;

    fn spec(ty: ElemType, channels: u32) -> SurfaceSpec {
        SurfaceSpec {
            name: "s".into(),
            ty,
            channels,
            dims: vec![4, 2],
            layers: None,
            init: Init::Zeros,
        }
    }

    #[test]
    fn conversions_exact_or_stop() {
        let u8s = spec(ElemType::U8, 2);
        assert_eq!(convert_sample(&u8s, &[7, 255, 9]), Ok(vec![7, 255]));
        assert!(convert_sample(&u8s, &[256, 0])
            .unwrap_err()
            .contains("range"));
        assert!(convert_sample(&u8s, &[1])
            .unwrap_err()
            .contains("unpredictable"));
        let s16 = spec(ElemType::S16, 1);
        assert_eq!(convert_sample(&s16, &[(-2i32) as u32]), Ok(vec![0xfffe]));
        assert!(convert_sample(&s16, &[0x8000]).is_err());
        let f16 = spec(ElemType::F16, 1);
        assert_eq!(convert_sample(&f16, &[1.5f32.to_bits()]), Ok(vec![0x3e00]));
        assert_eq!(
            convert_sample(&f16, &[(-0.0f32).to_bits()]),
            Ok(vec![0x8000])
        );
        assert_eq!(
            convert_sample(&f16, &[f32::INFINITY.to_bits()]),
            Ok(vec![0x7c00])
        );
        assert!(convert_sample(&f16, &[0.1f32.to_bits()]).is_err());
        assert!(convert_sample(&f16, &[f32::NAN.to_bits()]).is_err());
        let f32s = spec(ElemType::F32, 1);
        assert_eq!(convert_sample(&f32s, &[0x7fc0_0001]), Ok(vec![0x7fc0_0001]));
        assert!(convert_sample(&spec(ElemType::U64, 1), &[1]).is_err());
    }

    #[test]
    fn sample_addressing() {
        // 4 x 2 samples of 2 x u16 (4 bytes): x = 3 is byte 12.
        let s = spec(ElemType::U16, 2);
        assert_eq!(
            locate_sample(&s, false, 2, Oob::Trap, &[3, 1]),
            Ok(Some((0, 12, 1, 0)))
        );
        assert_eq!(
            locate_sample(&s, false, 2, Oob::Clamp, &[9, 5]),
            Ok(Some((0, 12, 1, 0)))
        );
        assert_eq!(locate_sample(&s, false, 2, Oob::Zero, &[4, 0]), Ok(None));
        assert!(locate_sample(&s, false, 2, Oob::Trap, &[(-1i32) as u32, 0]).is_err());
    }
}
