//! Memory statements: input loads (always on: they feed every family),
//! `.local` arrays (`local`), `.const` tables and scalar parameters
//! (`const`) and shared-memory phases (`shared`); atomics are in
//! `atomic.rs`, aliasing pointers and generic addresses in `alias.rs`.
//!
//! Shapes: scalar loads of every enabled type, vector loads (`.v2`, `.v4`)
//! and 8- and 16-bit loads (`.u8/.s8/.u16/.s16`, extended into a 32-bit
//! register by the type's sign, ISA 9.7.9.8 "ld") from the input buffers,
//! `.local` and `.const` (a third of the computed-address `.const` loads
//! through the generic address, `cvta.const`); input loads plain, `.nc`, `.volatile`,
//! `.relaxed` or `.acquire` (the inputs are never written, so the order
//! qualifiers change no value).
//!
//! Defined by construction:
//! - Every index is `v & (len-1)` with a power-of-two `len` (or a
//!   constant below it), so every access is in bounds and naturally
//!   aligned (buffers are 256-byte aligned, corpus/LAUNCH_SPEC.md
//!   "Addresses"; `ldepot` and `ctab` are 16-byte aligned; a vector or
//!   narrow access indexes in units of its own size).
//! - Global buffers written by the kernel are thread-private (the output
//!   slots) or atomic targets (`atomic.rs`) or the alias family's words
//!   (`alias.rs`).
//! - Shared memory: a phase writes the thread's own word, a barrier
//!   (`bar.sync 0` or `barrier.sync{.aligned} 0`), reads another thread's
//!   word, a barrier (so the next phase's
//!   writes cannot race with this phase's reads). Phases are generated
//!   only where no thread-dependent branch or loop encloses them
//!   (`diverged == 0`), so every thread of the CTA reaches each barrier.
//! - `.local` words are all written by the prologue before any read.

use super::emit::{Gen, Reg, RC};
use super::features::VType;

/// `.local` words per thread.
pub(crate) const LOCAL_WORDS: u32 = 8;
/// `.const` table words.
pub(crate) const CONST_WORDS: u32 = 16;
/// The 8- and 16-bit load types and their bytes.
const NARROW: [(&str, u32); 4] = [("u8", 1), ("s8", 1), ("u16", 2), ("s16", 2)];

impl Gen<'_, '_, '_> {
    /// The base register and element size of the input buffer of a type.
    pub fn input_base(&mut self, t: VType) -> (Reg, u32) {
        let fx = self.fx();
        match t {
            VType::U32 | VType::S32 => (fx.in_u32, 4),
            VType::U64 | VType::S64 => (fx.in_u64, 8),
            VType::F16 => (fx.in_f16, 2),
            VType::F32 => (fx.in_f32, 4),
            VType::F64 => (fx.in_f64, 8),
        }
    }

    /// PTX type used to load or store a value of the type.
    pub fn mem_type(t: VType) -> &'static str {
        match t {
            VType::F16 => "b16",
            VType::U32 | VType::S32 => "u32",
            VType::U64 | VType::S64 => "u64",
            VType::F32 => "f32",
            VType::F64 => "f64",
        }
    }

    /// A load of an input element at a computed index.
    pub fn load_stmt(&mut self) {
        match self.src.below(8) {
            0 => return self.load_vector_stmt(),
            1 => return self.load_narrow_stmt(),
            _ => {}
        }
        let mut ts = self.fs.types().to_vec();
        ts.push(VType::U32);
        let t = self.src.pick(&ts);
        let len = self.cfg.sizes.input_len;
        let idx = self.masked_index(len);
        let (base, size) = self.input_base(t);
        let a = self.elem_addr(base, idx, size);
        let q = match self.src.below(10) {
            0..=2 => "global.nc",
            3 => "volatile.global",
            4 => "relaxed.gpu.global",
            5 => "acquire.gpu.global",
            _ => "global",
        };
        let d = self.dest(RC::of(t));
        let text = format!("ld.{q}.{} {}, [{a}]", Self::mem_type(t), d.0);
        self.ins_def(d, text);
    }

    /// A vector load (`.v2`, `.v4`) of input elements, plain or `.nc`.
    fn load_vector_stmt(&mut self) {
        let mut opts = vec![("u32", VType::U32, 2), ("u32", VType::U32, 4)];
        let fs = &self.fs;
        if fs.has_type(VType::F32) {
            opts.extend([("f32", VType::F32, 2), ("f32", VType::F32, 4)]);
        }
        if fs.has_type(VType::U64) || fs.has_type(VType::S64) {
            opts.push(("u64", VType::U64, 2));
        }
        if fs.has_type(VType::F64) {
            opts.push(("f64", VType::F64, 2));
        }
        if fs.has_type(VType::F16) {
            opts.extend([("b16", VType::F16, 2), ("b16", VType::F16, 4)]);
        }
        let (ty, t, n) = self.src.pick(&opts);
        let (base, size) = self.input_base(t);
        let idx = self.masked_index(self.cfg.sizes.input_len / n);
        let a = self.elem_addr(base, idx, size * n);
        let nc = if self.src.chance(0.5) { ".nc" } else { "" };
        self.load_vec(
            &format!("ld.global{nc}.v{n}.{ty}"),
            RC::of(t),
            n,
            &format!("[{a}]"),
        );
    }

    /// `ld... {d0, d1, ...}, addr` into fresh registers, then pooled.
    pub(crate) fn load_vec(&mut self, op: &str, rc: RC, n: u32, addr: &str) {
        let ds: Vec<Reg> = (0..n).map(|_| self.fresh(rc)).collect();
        let list: Vec<String> = ds.iter().map(|d| d.to_string()).collect();
        self.ins(format!("{op} {{{}}}, {addr}", list.join(", ")));
        for d in ds {
            self.define(d);
        }
    }

    /// An 8- or 16-bit load of the `in_u32` bytes into a 32-bit register.
    fn load_narrow_stmt(&mut self) {
        let (ty, bytes) = self.src.pick(&NARROW);
        let len = self.cfg.sizes.input_len * 4 / bytes;
        let idx = self.masked_index(len);
        let base = self.fx().in_u32;
        let a = self.elem_addr(base, idx, bytes);
        let nc = if self.src.chance(0.3) { ".nc" } else { "" };
        let d = self.dest(RC::B32);
        self.ins_def(d, format!("ld.global{nc}.{ty} {}, [{a}]", d.0));
    }

    /// A store to or a load from the thread's `.local` array.
    pub fn local_stmt(&mut self) {
        let base = self.fx().local;
        if self.src.chance(0.3) {
            return self.local_shape_stmt();
        }
        let f32 = self.fs.has_type(VType::F32) && self.src.chance(0.3);
        let (t, mt) = if f32 {
            (VType::F32, "f32")
        } else {
            (VType::U32, "u32")
        };
        let idx = self.masked_index(LOCAL_WORDS);
        let a = self.elem_addr(base, idx, 4);
        if self.src.chance(0.5) {
            let v = self.reg_of(t);
            self.ins(format!("st.local.{mt} [{a}], {v}"));
        } else {
            let d = self.dest(RC::of(t));
            self.ins_def(d, format!("ld.local.{mt} {}, [{a}]", d.0));
        }
    }

    /// A narrow load or store, or a vector load or store, of `ldepot`.
    fn local_shape_stmt(&mut self) {
        let base = self.fx().local;
        if self.src.chance(0.5) {
            let (ty, bytes) = self.src.pick(&NARROW);
            let idx = self.masked_index(4 * LOCAL_WORDS / bytes);
            let a = self.elem_addr(base, idx, bytes);
            if self.src.chance(0.3) {
                // a truncating store (ISA 9.7.9.10 "st")
                let v = self.reg_of(VType::U32);
                self.ins(format!("st.local.{ty} [{a}], {v}"));
            } else {
                let d = self.dest(RC::B32);
                self.ins_def(d, format!("ld.local.{ty} {}, [{a}]", d.0));
            }
        } else {
            let n = self.src.pick(&[2u32, 4]);
            let idx = self.masked_index(LOCAL_WORDS / n);
            let a = self.elem_addr(base, idx, 4 * n);
            if self.src.chance(0.5) {
                let vs: Vec<String> = (0..n)
                    .map(|_| self.reg_of(VType::U32).to_string())
                    .collect();
                self.ins(format!("st.local.v{n}.u32 [{a}], {{{}}}", vs.join(", ")));
            } else {
                self.load_vec(&format!("ld.local.v{n}.u32"), RC::B32, n, &format!("[{a}]"));
            }
        }
    }

    /// A load from the `.const` table (constant or computed index) or of
    /// a scalar parameter.
    pub fn const_stmt(&mut self) {
        self.needs.const_words = vec![0; CONST_WORDS as usize];
        match self.src.below(6) {
            4 => self.const_narrow_stmt(),
            5 => self.const_vector_stmt(),
            0 => {
                let k = self.src.below(CONST_WORDS);
                // `.f32` loads of the table (its words read as floats)
                let f = self.fs.has_type(VType::F32) && self.src.chance(0.3);
                let (ty, rc) = if f {
                    ("f32", RC::F32)
                } else {
                    ("u32", RC::B32)
                };
                let d = self.dest(rc);
                self.ins_def(d, format!("ld.const.{ty} {}, [ctab+{}]", d.0, 4 * k));
            }
            1 => {
                let idx = self.masked_index(CONST_WORDS);
                let base = self.fresh(RC::B64);
                self.ins(format!("mov.u64 {base}, ctab"));
                let a = self.elem_addr(base, idx, 4);
                let (sp, a) = self.const_view(a);
                let d = self.dest(RC::B32);
                self.ins_def(d, format!("ld{sp}.u32 {}, [{a}]", d.0));
            }
            2 if self.fs.has_type(VType::F32) => {
                let d = self.dest(RC::F32);
                self.ins_def(d, format!("ld.param.f32 {}, [p_alpha]", d.0));
            }
            _ => {
                let d = self.dest(RC::B32);
                self.ins_def(d, format!("ld.param.u32 {}, [p_n]", d.0));
            }
        }
    }

    /// An 8- or 16-bit load from `ctab` at a constant or computed offset:
    /// into a 32-bit register by the type's sign, or (`f16` on) `.b8` or
    /// `.b16` into a 16-bit register.
    fn const_narrow_stmt(&mut self) {
        let h = self.fs.has_type(VType::F16) && self.src.chance(0.25);
        let (ty, bytes) = if h {
            self.src.pick(&[("b8", 1), ("b16", 2)])
        } else {
            self.src.pick(&NARROW)
        };
        let a = if self.src.chance(0.5) {
            let k = bytes * self.src.below(4 * CONST_WORDS / bytes);
            format!("[ctab+{k}]")
        } else {
            let idx = self.masked_index(4 * CONST_WORDS / bytes);
            let base = self.fresh(RC::B64);
            self.ins(format!("mov.u64 {base}, ctab"));
            let a = self.elem_addr(base, idx, bytes);
            let (sp, a) = self.const_view(a);
            let d = self.dest(if h { RC::B16 } else { RC::B32 });
            return self.ins_def(d, format!("ld{sp}.{ty} {}, [{a}]", d.0));
        };
        let d = self.dest(if h { RC::B16 } else { RC::B32 });
        self.ins_def(d, format!("ld.const.{ty} {}, {a}", d.0));
    }

    /// A `.const` address register as a load sees it: two times in three
    /// `.const` itself, else its generic address (`cvta.const`, a generic
    /// `ld`; the SM simulator gives ptxas's listings the constant window,
    /// `CbankLayout::const_window`).
    fn const_view(&mut self, a: Reg) -> (&'static str, Reg) {
        if self.src.below(3) != 0 {
            return (".const", a);
        }
        let g = self.fresh(RC::B64);
        self.ins(format!("cvta.const.u64 {g}, {a}"));
        ("", g)
    }

    /// A vector load (`.v2.u32`, `.v4.u32`) from `ctab`.
    fn const_vector_stmt(&mut self) {
        let n = self.src.pick(&[2u32, 4]);
        let a = if self.src.chance(0.5) {
            let k = 4 * n * self.src.below(CONST_WORDS / n);
            format!("[ctab+{k}]")
        } else {
            let idx = self.masked_index(CONST_WORDS / n);
            let base = self.fresh(RC::B64);
            self.ins(format!("mov.u64 {base}, ctab"));
            let a = self.elem_addr(base, idx, 4 * n);
            let (sp, a) = self.const_view(a);
            return self.load_vec(&format!("ld{sp}.v{n}.u32"), RC::B32, n, &format!("[{a}]"));
        };
        self.load_vec(&format!("ld.const.v{n}.u32"), RC::B32, n, &a);
    }

    /// Byte offset of the shared counter word in `sdata`: after the
    /// threads' words, 8-byte aligned (`sdata` is this plus 8 bytes).
    pub fn shared_counter_offset(&self) -> u32 {
        (self.block_threads * 4).next_multiple_of(8)
    }

    /// A shared-memory exchange phase (converged code only).
    pub fn shared_stmt(&mut self) {
        if self.diverged > 0 || self.in_func {
            return;
        }
        let fx = self.fx();
        // The word as real kernels write it: `.f32` or an integer type,
        // sometimes `.volatile` (warp-synchronous reductions), a fence
        // before the barrier sometimes, and the barrier in each spelling.
        let (ty, rc, vt) = if self.fs.has_type(VType::F32) && self.src.chance(0.3) {
            ("f32", RC::F32, VType::F32)
        } else {
            (
                self.src.pick(&["u32", "u32", "b32", "s32"]),
                RC::B32,
                VType::U32,
            )
        };
        let vol = if self.src.chance(0.3) {
            ".volatile"
        } else {
            ""
        };
        let v = self.reg_of(vt);
        self.ins(format!("st{vol}.shared.{ty} [{}], {v}", fx.shared_own));
        if self.src.chance(0.15) {
            let fence = self.src.pick(&[
                "membar.cta",
                "membar.gl",
                "fence.acq_rel.cta",
                "fence.sc.gpu",
            ]);
            self.ins(fence);
        }
        let bar = self.shared_barrier();
        self.ins(bar);
        let n = self.block_threads;
        let c = self.src.range(1, n.max(2) - 1);
        let i = self.fresh(RC::B32);
        self.ins(format!("add.u32 {i}, {}, {c}", fx.tid_lin));
        self.ins(format!("rem.u32 {i}, {i}, {n}"));
        let a = self.elem_addr(fx.shared, i, 4);
        let d = self.dest(rc);
        self.ins_def(d, format!("ld{vol}.shared.{ty} {}, [{a}]", d.0));
        let bar = self.shared_barrier();
        self.ins(bar);
    }

    /// A CTA-wide barrier, in one of its spellings (PTX ISA 9.7.13.1:
    /// `bar.sync` is `barrier.sync.aligned`).
    fn shared_barrier(&mut self) -> &'static str {
        self.src.pick(&[
            "bar.sync 0",
            "bar.sync 0",
            "barrier.sync 0",
            "barrier.sync.aligned 0",
        ])
    }
}
