//! Memory statements: input loads (always on: they feed every family),
//! `.local` arrays (`local`), `.const` tables and scalar parameters
//! (`const`), shared-memory phases (`shared`) and atomics (`atomic`).
//!
//! Defined by construction:
//! - Every index is `v & (len-1)` with a power-of-two `len` (or a
//!   constant below it), so every access is in bounds and naturally
//!   aligned (buffers are 256-byte aligned, corpus/LAUNCH_SPEC.md "Addresses").
//! - Global buffers written by the kernel are thread-private (the output
//!   slots, the `priv` word of the thread), or written only by `red`
//!   (atomic, never read in the kernel). Each `acc` word has one
//!   operation ([`ACC_OPS`] by word index): add, min, max, and, or and xor
//!   each commute with themselves but not with each other (`red.add` then
//!   `red.min` on one word gives a result that depends on the order of the
//!   threads; found by generator seed 2012).
//! - Shared memory: a phase writes the thread's own word, `bar.sync 0`,
//!   reads another thread's word, `bar.sync 0` (so the next phase's
//!   writes cannot race with this phase's reads). Shared reductions:
//!   thread 0 zeroes a counter, `bar.sync`, every thread `red.shared`s,
//!   `bar.sync`, every thread reads it, `bar.sync`. Phases are generated
//!   only where no thread-dependent branch or loop encloses them
//!   (`diverged == 0`), so every thread of the CTA reaches each barrier.
//! - `atom` with a result only on the thread's own `priv` word: the old
//!   value does not depend on the order of threads. Float atomics are not
//!   generated (order-dependent rounding).
//! - `.local` words are all written by the prologue before any read.

use super::emit::{Gen, Reg, RC};
use super::features::VType;

/// `.local` words per thread.
pub(crate) const LOCAL_WORDS: u32 = 8;
/// `.const` table words.
pub(crate) const CONST_WORDS: u32 = 16;
/// Words of the global `acc` buffer (red targets).
pub(crate) const ACC_WORDS: u32 = 8;
/// The one `red` operation of `acc` word `k` (`ACC_OPS[k % 6]`).
const ACC_OPS: [(&str, &str); 6] = [
    ("add", "u32"),
    ("min", "u32"),
    ("max", "s32"),
    ("and", "b32"),
    ("or", "b32"),
    ("xor", "b32"),
];

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
        let mut ts = self.fs.types().to_vec();
        ts.push(VType::U32);
        let t = self.src.pick(&ts);
        let len = self.cfg.sizes.input_len;
        let idx = self.masked_index(len);
        let (base, size) = self.input_base(t);
        let a = self.elem_addr(base, idx, size);
        let nc = if self.src.chance(0.3) { ".nc" } else { "" };
        let d = self.dest(RC::of(t));
        let text = format!("ld.global{nc}.{} {}, [{a}]", Self::mem_type(t), d.0);
        self.ins_def(d, text);
    }

    /// A store to or a load from the thread's `.local` array.
    pub fn local_stmt(&mut self) {
        let base = self.fx().local;
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

    /// A load from the `.const` table (constant or computed index) or of
    /// a scalar parameter.
    pub fn const_stmt(&mut self) {
        self.needs.const_words = vec![0; CONST_WORDS as usize];
        match self.src.below(4) {
            0 => {
                let k = self.src.below(CONST_WORDS);
                let d = self.dest(RC::B32);
                self.ins_def(d, format!("ld.const.u32 {}, [ctab+{}]", d.0, 4 * k));
            }
            1 => {
                let idx = self.masked_index(CONST_WORDS);
                let base = self.fresh(RC::B64);
                self.ins(format!("mov.u64 {base}, ctab"));
                let a = self.elem_addr(base, idx, 4);
                let d = self.dest(RC::B32);
                self.ins_def(d, format!("ld.const.u32 {}, [{a}]", d.0));
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
        let v = self.reg_of(VType::U32);
        self.ins(format!("st.shared.u32 [{}], {v}", fx.shared_own));
        self.ins("bar.sync 0");
        let n = self.block_threads;
        let c = self.src.range(1, n.max(2) - 1);
        let i = self.fresh(RC::B32);
        self.ins(format!("add.u32 {i}, {}, {c}", fx.tid_lin));
        self.ins(format!("rem.u32 {i}, {i}, {n}"));
        let a = self.elem_addr(fx.shared, i, 4);
        let d = self.dest(RC::B32);
        self.ins_def(d, format!("ld.shared.u32 {}, [{a}]", d.0));
        self.ins("bar.sync 0");
    }

    /// An atomic: `red.global` on the shared `acc` words, `atom` on the
    /// thread's own `priv` word, or a shared-memory reduction (converged).
    pub fn atomic_stmt(&mut self) {
        let fx = self.fx();
        match self.src.below(3) {
            0 => {
                let k = self.src.below(ACC_WORDS);
                let (op, ty) = ACC_OPS[k as usize % ACC_OPS.len()];
                let v = self.opnd(VType::U32);
                self.ins(format!("red.global.{op}.{ty} [{}+{}], {v}", fx.acc, 4 * k));
            }
            1 => {
                let op = self.src.pick(&[
                    "add.u32", "exch.b32", "min.s32", "max.u32", "and.b32", "or.b32", "xor.b32",
                    "inc.u32", "dec.u32", "cas.b32",
                ]);
                let v = self.opnd(VType::U32);
                let d = self.dest(RC::B32);
                if op == "cas.b32" {
                    let w = self.opnd(VType::U32);
                    self.ins(format!(
                        "atom.global.{op} {}, [{}], {v}, {w}",
                        d.0, fx.priv_slot
                    ));
                } else {
                    self.ins(format!("atom.global.{op} {}, [{}], {v}", d.0, fx.priv_slot));
                }
                self.finish(d);
            }
            _ => {
                if self.diverged > 0 {
                    return;
                }
                let counter = self.shared_counter_offset();
                let p = self.fresh(RC::Pred);
                let a = self.fresh(RC::B64);
                self.ins(format!("add.s64 {a}, {}, {counter}", fx.shared));
                self.ins(format!("setp.eq.u32 {p}, {}, 0", fx.tid_lin));
                self.ins(format!("@{p} st.shared.u32 [{a}], 0"));
                self.ins("bar.sync 0");
                let op = self.src.pick(&[
                    "add.u32", "min.u32", "max.s32", "and.b32", "or.b32", "xor.b32",
                ]);
                let v = self.reg_of(VType::U32);
                self.ins(format!("red.shared.{op} [{a}], {v}"));
                self.ins("bar.sync 0");
                let d = self.dest(RC::B32);
                self.ins_def(d, format!("ld.shared.u32 {}, [{a}]", d.0));
                self.ins("bar.sync 0");
            }
        }
    }
}
