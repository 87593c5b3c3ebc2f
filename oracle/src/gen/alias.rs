//! Aliasing pointers and generic addressing (`alias`): store-then-reload
//! of one location through different pointers, in every space the
//! program's families declare.
//!
//! The locations, each private to its thread:
//! - global: the thread's [`MEM_WORDS`] words of the launch buffer `mem`,
//!   reached through two kernel parameters bound to the same buffer
//!   (`p_mem` at offset 0, `p_mem_alias` at byte offset `4*shift`, both
//!   outputs of one buffer), through the generic address of the first
//!   (`cvta.global`), through `cvta.to.global` of that generic address, and
//!   through a second base register `mem + 4k` (offsets that meet);
//! - shared (with `shared`): the thread's [`SHARED_WORDS`] words of
//!   `salias`, by `.shared` and by its generic address (`cvta.shared`);
//! - local (with `local`): the [`LOCAL_WORDS`] words of `lalias`, by
//!   `.local` and by `cvta.local`.
//!
//! Generic loads of `.const` (`cvta.const`) are the `const` family's
//! (`memory.rs`, `const_view`). Not generated: `isspacep.const`, whose
//! answer ptxas's listings compute from the constant window's bounds,
//! which the simulator does not model beyond its base.
//!
//! A statement stores a scalar, vector (`.v2`, `.v4`) or narrow (`.u8`
//! ... `.s16`, truncating) value through one pointer and reloads the same
//! location or another one of the region through another pointer (or
//! the same), with a `bar.sync` (converged code, `shared` on) or a call
//! (`call` on) between them sometimes; or tests a generic address with
//! `isspacep`, whose answer is known (ISA 9.7.9.21).
//!
//! Defined by construction: every region is written before it is read
//! (`mem` by its launch init, `salias` and `lalias` by the prologue), every
//! access lies inside the thread's own region and is aligned to its
//! size (regions are 16-byte aligned, offsets are multiples of the access
//! size), and no other thread touches the region, so no access races.

use super::emit::{Gen, Reg, RC};
use super::features::{Family, VType};

/// Words of `mem` per thread.
pub(crate) const MEM_WORDS: u32 = 8;
/// Words of `salias` per thread.
pub(crate) const SHARED_WORDS: u32 = 4;
/// Words of `lalias` (per thread).
pub(crate) const LOCAL_WORDS: u32 = 8;

/// The prologue's pointers of the alias family (none are pooled: they are
/// never overwritten).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AliasBases {
    /// the thread's words of `mem` through `p_mem`
    pub mem: Reg,
    /// the same address through `p_mem_alias` (that is `mem + 4*shift`
    /// minus `4*shift`)
    pub mem2: Reg,
    /// `p_mem_alias`'s byte offset into `mem`, in words
    pub shift: u32,
    /// `cvta.global` of `mem`
    pub gmem: Reg,
    /// the thread's `salias` words and their generic address
    pub sal: Option<(Reg, Reg)>,
    /// `lalias` and its generic address
    pub lal: Option<(Reg, Reg)>,
}

/// A memory region of the thread: its size in bytes and the pointers that
/// reach its first byte, each `(register, state space of the access
/// ("" = generic), bytes the register lies past the region's start)`.
struct Region {
    bytes: u32,
    views: Vec<(Reg, &'static str, u32)>,
}

/// An access shape: the PTX type suffix, its bytes, the number of
/// elements and their register class, and the value type it needs enabled.
#[derive(Clone, Copy)]
struct Shape {
    ty: &'static str,
    bytes: u32,
    elems: u32,
    rc: RC,
    needs: Option<VType>,
}

const fn shape(ty: &'static str, bytes: u32, elems: u32, rc: RC, needs: Option<VType>) -> Shape {
    Shape {
        ty,
        bytes,
        elems,
        rc,
        needs,
    }
}

/// Every access shape: scalar, vector and narrow (8- and 16-bit loads
/// extend into 32-bit registers by their type's sign, stores truncate:
/// ISA 9.7.9.8 "ld", 9.7.9.10 "st").
const SHAPES: &[Shape] = &[
    shape("u32", 4, 1, RC::B32, None),
    shape("f32", 4, 1, RC::F32, Some(VType::F32)),
    shape("u64", 8, 1, RC::B64, Some(VType::U64)),
    shape("f64", 8, 1, RC::F64, Some(VType::F64)),
    shape("v2.u32", 8, 2, RC::B32, None),
    shape("v4.u32", 16, 4, RC::B32, None),
    shape("v2.f32", 8, 2, RC::F32, Some(VType::F32)),
    shape("v4.f32", 16, 4, RC::F32, Some(VType::F32)),
    shape("v2.u64", 16, 2, RC::B64, Some(VType::U64)),
    shape("v2.f64", 16, 2, RC::F64, Some(VType::F64)),
    shape("u8", 1, 1, RC::B32, None),
    shape("s8", 1, 1, RC::B32, None),
    shape("u16", 2, 1, RC::B32, None),
    shape("s16", 2, 1, RC::B32, None),
    shape("b16", 2, 1, RC::B32, None),
];

impl Gen<'_, '_, '_> {
    /// The prologue part of the family: the pointers, and the shared and
    /// local regions' first values.
    pub fn alias_prologue(&mut self) {
        let fx = self.fx();
        let ptr = |g: &mut Self, p: &str| {
            let a = g.fresh(RC::B64);
            g.ins(format!("ld.param.u64 {a}, [{p}]"));
            g.ins(format!("cvta.to.global.u64 {a}, {a}"));
            g.elem_addr(a, fx.gtid, 4 * MEM_WORDS)
        };
        let shift = self.src.below(MEM_WORDS / 2);
        let mem = ptr(self, "p_mem");
        let mem2 = ptr(self, "p_mem_alias");
        let gmem = self.fresh(RC::B64);
        self.ins(format!("cvta.global.u64 {gmem}, {mem}"));
        let sal = if self.fs.has(Family::Shared) {
            // The thread's words through the generic window: ptxas 11.8
            // folds `salias + 16*tid` (salias lies after sdata, at a
            // non-zero address) into an IMAD whose addend it keeps in
            // constant bank 2, which vendor listings cannot read
            // (diff/vendor.rs); through cvta it does not.
            let s = self.fresh(RC::B64);
            self.ins(format!("mov.u64 {s}, salias"));
            self.ins(format!("cvta.shared.u64 {s}, {s}"));
            let g = self.elem_addr(s, fx.tid_lin, 4 * SHARED_WORDS);
            let own = self.fresh(RC::B64);
            self.ins(format!("cvta.to.shared.u64 {own}, {g}"));
            let v = self.four_words();
            self.ins(format!("st.shared.v4.u32 [{own}], {v}"));
            Some((own, g))
        } else {
            None
        };
        let lal = if self.fs.has(Family::Local) {
            let l = self.fresh(RC::B64);
            self.ins(format!("mov.u64 {l}, lalias"));
            let g = self.fresh(RC::B64);
            self.ins(format!("cvta.local.u64 {g}, {l}"));
            for k in 0..LOCAL_WORDS / 4 {
                let v = self.four_words();
                self.ins(format!("st.local.v4.u32 [{l}+{}], {v}", 16 * k));
            }
            Some((l, g))
        } else {
            None
        };
        self.alias = Some(AliasBases {
            mem,
            mem2,
            shift,
            gmem,
            sal,
            lal,
        });
    }

    /// `{a, b, c, d}` of pooled 32-bit values.
    fn four_words(&mut self) -> String {
        let v: Vec<String> = (0..4)
            .map(|_| self.reg_of(VType::U32).to_string())
            .collect();
        format!("{{{}}}", v.join(", "))
    }

    /// One statement of the family (kernel code only).
    pub fn alias_stmt(&mut self) {
        let Some(ab) = self.alias else { return };
        if self.in_func {
            return;
        }
        if self.src.below(8) == 0 {
            self.isspacep_stmt(ab);
        } else {
            self.store_reload_stmt(ab);
        }
    }

    /// The regions of this program.
    fn regions(&mut self, ab: AliasBases) -> Vec<Region> {
        let mut global = vec![(ab.mem, "global", 0), (ab.gmem, "", 0)];
        global.push((ab.mem2, "global", 4 * ab.shift));
        let mut v = vec![Region {
            bytes: 4 * MEM_WORDS,
            views: global,
        }];
        if let Some((s, g)) = ab.sal {
            v.push(Region {
                bytes: 4 * SHARED_WORDS,
                views: vec![(s, "shared", 0), (g, "", 0)],
            });
        }
        if let Some((l, g)) = ab.lal {
            v.push(Region {
                bytes: 4 * LOCAL_WORDS,
                views: vec![(l, "local", 0), (g, "", 0)],
            });
        }
        v
    }

    /// A shape the program's types allow that fits in `bytes`.
    fn pick_shape(&mut self, bytes: u32) -> Shape {
        let ok: Vec<Shape> = SHAPES
            .iter()
            .copied()
            .filter(|s| s.bytes <= bytes)
            .filter(|s| match s.needs {
                None => true,
                Some(VType::U64) => self.fs.has_type(VType::U64) || self.fs.has_type(VType::S64),
                Some(t) => self.fs.has_type(t),
            })
            .collect();
        self.src.pick(&ok)
    }

    /// A byte offset in the region aligned to the shape's size.
    fn pick_offset(&mut self, region: &Region, s: Shape) -> u32 {
        s.bytes * self.src.below(region.bytes / s.bytes)
    }

    /// A pointer to the region that reaches byte `off` (one whose register
    /// lies at or before it); sometimes a new one: a second base register
    /// `view + 4k` (global) or `cvta.to` of a generic view.
    fn pick_view(&mut self, region: &Region, off: u32) -> (Reg, &'static str, u32) {
        let ok: Vec<(Reg, &'static str, u32)> = region
            .views
            .iter()
            .copied()
            .filter(|v| v.2 <= off)
            .collect();
        let (r, sp, at) = self.src.pick(&ok);
        match self.src.below(6) {
            0 if sp == "global" && off >= at + 4 => {
                // a second base register whose offset meets this one
                let k = 4 * self.src.range(1, (off - at) / 4);
                let b = self.fresh(RC::B64);
                self.ins(format!("add.s64 {b}, {r}, {k}"));
                (b, sp, at + k)
            }
            1 if sp.is_empty() => {
                let to = region
                    .views
                    .iter()
                    .find(|v| !v.1.is_empty())
                    .map_or("global", |v| v.1);
                let b = self.fresh(RC::B64);
                self.ins(format!("cvta.to.{to}.u64 {b}, {r}"));
                (b, to, at)
            }
            _ => (r, sp, at),
        }
    }

    /// The address operand of byte `off` through a view.
    fn at(view: (Reg, &'static str, u32), off: u32) -> String {
        let d = off - view.2;
        if d == 0 {
            format!("[{}]", view.0)
        } else {
            format!("[{}+{d}]", view.0)
        }
    }

    /// `ld`/`st` with the view's space: `ld.global.u32`, `ld.v2.f32`.
    fn op_text(op: &str, view: (Reg, &'static str, u32), s: Shape) -> String {
        if view.1.is_empty() {
            format!("{op}.{}", s.ty)
        } else {
            format!("{op}.{}.{}", view.1, s.ty)
        }
    }

    /// Store through one pointer, maybe a barrier or a call, reload the
    /// same location or another one through another pointer.
    fn store_reload_stmt(&mut self, ab: AliasBases) {
        let regions = self.regions(ab);
        let region = &regions[self.src.below(regions.len() as u32) as usize];
        let s = self.pick_shape(region.bytes);
        let off = self.pick_offset(region, s);
        let v1 = self.pick_view(region, off);
        let vals: Vec<String> = (0..s.elems)
            .map(|_| self.shape_value(s).to_string())
            .collect();
        let src = if s.elems == 1 {
            vals[0].clone()
        } else {
            format!("{{{}}}", vals.join(", "))
        };
        let st = Self::op_text("st", v1, s);
        self.ins(format!("{st} {}, {src}", Self::at(v1, off)));
        match self.src.below(5) {
            0 if self.diverged == 0 && self.fs.has(Family::Shared) => self.ins("bar.sync 0"),
            1 if !self.funcs.is_empty() => {
                let before = self.body.lines.len();
                self.call_stmt();
                if self.body.lines.len() > before {
                    self.mark_used(Family::Call);
                }
            }
            _ => {}
        }
        let (s2, off2) = if self.src.chance(0.6) {
            (s, off)
        } else {
            let s2 = self.pick_shape(region.bytes);
            (s2, self.pick_offset(region, s2))
        };
        let v2 = self.pick_view(region, off2);
        self.load_shape(v2, s2, off2);
    }

    /// A value for one element of a store of the shape.
    fn shape_value(&mut self, s: Shape) -> Reg {
        match s.rc {
            RC::F32 => self.reg_of(VType::F32),
            RC::F64 => self.reg_of(VType::F64),
            RC::B64 => self.reg_of(VType::U64),
            _ => self.reg_of(VType::U32),
        }
    }

    /// A load of the shape into new pooled registers (a scalar may
    /// overwrite a pooled register instead).
    fn load_shape(&mut self, view: (Reg, &'static str, u32), s: Shape, off: u32) {
        // A scalar integer reload names its type any of the ways real PTX
        // does (`ld.s32`, `ld.b64`): the same bits.
        let ty = match s.ty {
            "u32" => self.src.pick(&["u32", "u32", "s32", "b32"]),
            "u64" => self.src.pick(&["u64", "u64", "s64", "b64"]),
            t => t,
        };
        let s = Shape { ty, ..s };
        let ld = Self::op_text("ld", view, s);
        let a = Self::at(view, off);
        if s.elems == 1 {
            let d = self.dest(s.rc);
            self.ins_def(d, format!("{ld} {}, {a}", d.0));
        } else {
            let ds: Vec<Reg> = (0..s.elems).map(|_| self.fresh(s.rc)).collect();
            let list: Vec<String> = ds.iter().map(|d| d.to_string()).collect();
            self.ins(format!("{ld} {{{}}}, {a}", list.join(", ")));
            for d in ds {
                self.define(d);
            }
        }
    }

    /// `isspacep.<space>` of a generic address of a region: the answer is
    /// whether the address is in that space's window (ISA 9.7.9.21).
    fn isspacep_stmt(&mut self, ab: AliasBases) {
        // the spaces of the program's regions only (a denied family's
        // space is named nowhere)
        let mut gen = vec![(ab.gmem, "global")];
        gen.extend(ab.sal.map(|s| (s.1, "shared")));
        gen.extend(ab.lal.map(|l| (l.1, "local")));
        let g = self.src.pick(&gen).0;
        let sp = self.src.pick(&gen).1;
        let p = self.fresh(RC::Pred);
        self.ins(format!("isspacep.{sp} {p}, {g}"));
        self.define(p);
    }
}
