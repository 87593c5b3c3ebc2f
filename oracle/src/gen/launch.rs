//! The launch spec of a generated program: self-contained (every buffer
//! with its init rule, the outputs, grid and block, scalar parameters, the
//! texture), `ptx: None` (the module travels alongside), and written and
//! read by the launch module's own writer and reader.
//!
//! Buffers: `out` (u64, `output_slots` per thread, zeros), the inputs
//! `in_u32`, `in_u64`, `in_f16`, `in_f32`, `in_f64` (`bits` from the value
//! distribution of values.rs: boundary values and random bits, neighbours
//! related, high halves shared; special floats when the `special` family
//! is on and drawn for the buffer), with `atomic` the `acc` words (red
//! targets: 32-bit words, then 64-bit ones; random start), `priv` (one word
//! per thread) and `priv64` (one u64 per thread), random start, and with
//! `alias` the `mem` words (`alias::MEM_WORDS` per thread, random start),
//! bound to two parameters (the second at an offset into it). Outputs:
//! `out`, then `acc`, `priv`, `priv64` and `mem` when present.

use super::alias::MEM_WORDS;
use super::atomic::{ACC64_WORDS, ACC_WORDS};
use super::emit::Gen;
use super::features::{Family, VType};
use super::program::KERNEL;
use super::values::{buffer_bits, Num};
use crate::launch::{
    AddressMode, BufferSpec, CompareRule, ElemType, Filter, Init, LaunchSpec, ParamValue, Scalar,
    TextureSpec,
};
use std::path::PathBuf;

impl Gen<'_, '_, '_> {
    pub fn launch_spec(&mut self, grid: &[u32], block: &[u32]) -> LaunchSpec {
        let threads: u64 = grid.iter().chain(block).map(|&d| u64::from(d)).product();
        let len = u64::from(self.cfg.sizes.input_len);
        let special = self.fs.has(Family::Special);
        let mut buffers = vec![BufferSpec {
            name: "out".into(),
            ty: ElemType::U64,
            len: threads * u64::from(self.cfg.sizes.output_slots),
            init: Init::Zeros,
        }];
        let mut params = vec![ParamValue::Buffer {
            name: "out".into(),
            offset: 0,
        }];
        for (name, ty, vt) in [
            ("in_u32", ElemType::U32, VType::U32),
            ("in_u64", ElemType::U64, VType::U64),
            ("in_f16", ElemType::F16, VType::F16),
            ("in_f32", ElemType::F32, VType::F32),
            ("in_f64", ElemType::F64, VType::F64),
        ] {
            let specials = ty.is_float()
                && special
                && self.src.chance(self.cfg.probabilities.special.max(0.5));
            let (bits, drew_special) = buffer_bits(self.src, Num::of(vt), len, specials);
            if drew_special {
                self.mark_used(Family::Special);
            }
            let init = Init::Bits(bits);
            buffers.push(BufferSpec {
                name: name.into(),
                ty,
                len,
                init,
            });
            params.push(ParamValue::Buffer {
                name: name.into(),
                offset: 0,
            });
        }
        let n = self.src.below(64);
        params.push(ParamValue::Scalar {
            ty: ElemType::U32,
            value: Scalar::Int(i128::from(n)),
        });
        let alpha = if special && self.src.chance(0.3) {
            self.src
                .pick(&[0x7fc0_0000u32, 0x8000_0000, 0x7f80_0000, 0x0000_0001])
        } else {
            ((self.src.below(64) as f32 - 32.0) / 4.0).to_bits()
        };
        params.push(ParamValue::Bits {
            ty: ElemType::F32,
            bits: u64::from(alpha),
        });
        let mut outputs = vec!["out".to_string()];
        if self.fs.has(Family::Atomic) {
            let acc = u64::from(ACC_WORDS + 2 * ACC64_WORDS);
            for (name, l, ty) in [
                ("acc", acc, ElemType::U32),
                ("priv", threads, ElemType::U32),
                ("priv64", threads, ElemType::U64),
            ] {
                let seed = u64::from(self.src.word());
                buffers.push(BufferSpec {
                    name: name.into(),
                    ty,
                    len: l,
                    init: Init::Random { seed, range: None },
                });
                params.push(ParamValue::Buffer {
                    name: name.into(),
                    offset: 0,
                });
                outputs.push(name.into());
            }
        }
        let mut textures = Vec::new();
        if let (true, Some(dims)) = (self.fs.has(Family::Tex), self.needs.tex_dims.clone()) {
            let seed = u64::from(self.src.word());
            let init = if special && self.src.chance(0.5) {
                Init::SpecialMix { seed }
            } else {
                Init::Random {
                    seed,
                    range: Some((Scalar::Float(-10.0), Scalar::Float(10.0))),
                }
            };
            let mode = if self.needs.tex_border {
                AddressMode::Border
            } else {
                AddressMode::Clamp
            };
            textures.push(TextureSpec {
                name: "t0".into(),
                ty: ElemType::F32,
                channels: 1,
                address_mode: vec![mode; dims.len()],
                dims,
                init,
                filter: Filter::Point,
                normalized_coords: false,
                border_color: self.needs.tex_border.then_some([0.5, -2.0, 0.0, 1.0]),
                layers: None,
            });
            params.push(ParamValue::Texture { name: "t0".into() });
        }
        if let Some(ab) = self.alias {
            // two parameters over one buffer: `p_mem_alias` starts
            // `shift` words into it (alias.rs)
            let seed = u64::from(self.src.word());
            buffers.push(BufferSpec {
                name: "mem".into(),
                ty: ElemType::U32,
                len: threads * u64::from(MEM_WORDS),
                init: Init::Random { seed, range: None },
            });
            for offset in [0, 4 * u64::from(ab.shift)] {
                params.push(ParamValue::Buffer {
                    name: "mem".into(),
                    offset,
                });
            }
            outputs.push("mem".into());
        }
        LaunchSpec {
            file: None,
            base_dir: PathBuf::new(),
            ptx: None,
            kernel: KERNEL.into(),
            grid_dims: grid.to_vec(),
            block_dims: block.to_vec(),
            params,
            buffers,
            textures,
            surfaces: Vec::new(),
            outputs: Some(outputs),
            dynamic_shared_bytes: 0,
            compare: CompareRule::default(),
        }
    }
}
