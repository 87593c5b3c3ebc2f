//! Texture fetches (`tex`): `tex.1d.v4.f32.s32` with integer coordinates
//! and `tex.2d.v4.f32.f32` with float coordinates made from integers, on
//! one f32 texture object passed as the `.u64` parameter `p_tex`
//! (corpus/LAUNCH_SPEC.md `{"texture": "t0"}`).
//!
//! Defined by construction: point filtering with unnormalized coordinates
//! and `clamp` or `border` addressing (the modes CUDA allows without
//! normalized coordinates), so any integer coordinate fetches a defined
//! texel; float coordinates are `cvt.rn.f32.s32` of small integers plus
//! 0.5 (texel centres: no NaN or infinite coordinates).

use super::emit::{Gen, Reg, RC};
use super::features::VType;

/// Texture width (and height for 2D).
pub(crate) const TEX_W: u32 = 16;
pub(crate) const TEX_H: u32 = 8;

impl Gen<'_, '_, '_> {
    pub fn tex_needs(&mut self) {
        if self.needs.tex_dims.is_none() {
            let two_d = self.src.chance(0.5);
            self.needs.tex_dims = Some(if two_d {
                vec![TEX_W, TEX_H]
            } else {
                vec![TEX_W]
            });
            self.needs.tex_border = self.src.chance(0.3);
        }
    }

    /// An integer coordinate in about [-4, W+4): exercises the address mode.
    pub fn tex_coord(&mut self, limit: u32) -> Reg {
        let v = self.reg_of(VType::U32);
        let c = self.fresh(RC::B32);
        self.ins(format!(
            "and.b32 {c}, {v}, {}",
            (limit * 2).next_power_of_two() - 1
        ));
        self.ins(format!("add.s32 {c}, {c}, -4"));
        c
    }

    /// One fetch: the four channels, x then the others pooled.
    pub fn tex_fetch(&mut self, x: Reg, y: Option<Reg>) -> [Reg; 4] {
        let h = self.fx().tex;
        let d = [
            self.fresh(RC::F32),
            self.fresh(RC::F32),
            self.fresh(RC::F32),
            self.fresh(RC::F32),
        ];
        let dims = self.needs.tex_dims.clone().unwrap_or_default();
        if dims.len() == 2 {
            let y = y.unwrap_or(x);
            if self.src.chance(0.5) {
                let fx = self.fresh(RC::F32);
                let fy = self.fresh(RC::F32);
                self.ins(format!("cvt.rn.f32.s32 {fx}, {x}"));
                self.ins(format!("add.f32 {fx}, {fx}, 0f3F000000"));
                self.ins(format!("cvt.rn.f32.s32 {fy}, {y}"));
                self.ins(format!("add.f32 {fy}, {fy}, 0f3F000000"));
                self.ins(format!(
                    "tex.2d.v4.f32.f32 {{{}, {}, {}, {}}}, [{h}, {{{fx}, {fy}}}]",
                    d[0], d[1], d[2], d[3]
                ));
            } else {
                self.ins(format!(
                    "tex.2d.v4.f32.s32 {{{}, {}, {}, {}}}, [{h}, {{{x}, {y}}}]",
                    d[0], d[1], d[2], d[3]
                ));
            }
        } else {
            self.ins(format!(
                "tex.1d.v4.f32.s32 {{{}, {}, {}, {}}}, [{h}, {{{x}}}]",
                d[0], d[1], d[2], d[3]
            ));
        }
        d
    }

    pub fn tex_stmt(&mut self) {
        if self.in_func {
            return;
        }
        self.tex_needs();
        let x = self.tex_coord(TEX_W);
        let y = self.tex_coord(TEX_H);
        let d = self.tex_fetch(x, Some(y));
        self.define(d[0]);
        if self.src.chance(0.3) {
            self.define(d[1]);
        }
    }
}
