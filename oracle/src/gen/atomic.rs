//! Atomics (`atomic`): `red` and `atom` on global and shared memory, 32-
//! and 64-bit integer and float types, every operation, with and without
//! memory-order semantics and scopes (ISA 9.7.13.5 "atom", 9.7.13.6
//! "red"), through specific and generic (`cvta.global`) addresses.
//!
//! Deterministic by construction (the differential run compares outputs,
//! so no observed value may depend on the order of threads):
//! - Global words written by many threads are written only by `red` and
//!   never read in the kernel; each word has one operation ([`ACC_OPS`]
//!   for the 32-bit words of `acc`, [`ACC64_OPS`] for its 64-bit words
//!   after them): add, min, max, and, or and xor each commute with
//!   themselves but not with each other (`red.add` then `red.min` on one
//!   word gives a result that depends on the order of the threads; found by
//!   generator seed 2012). Float `red` is not generated there (the rounding
//!   of a float sum depends on its order).
//! - `atom` with a result, and every float atomic, only on a location of
//!   the thread's own: its `priv` word, its `priv64` double word, its own
//!   shared word (`sdata`, written first by the statement itself): one
//!   thread, one order. (The own shared word is read by other threads
//!   only inside a shared phase, between two barriers, which no atomic
//!   statement enters.)
//! - Shared reductions: thread 0 zeroes the counter (32 or 64 bits),
//!   `bar.sync`, every thread `red.shared`s with the one operation of the
//!   phase, `bar.sync`, every thread reads it, `bar.sync`. Converged code
//!   only (`diverged == 0`), so every thread of the CTA reaches each
//!   barrier.
//! - `.acquire`/`.release`/`.acq_rel` and scopes change no value a single
//!   thread observes here; they are written for the compilers' sake.

use super::emit::{Gen, RC};
use super::features::VType;

/// Words of the global `acc` buffer (32-bit red targets).
pub(crate) const ACC_WORDS: u32 = 8;
/// 64-bit red targets of `acc`, after its [`ACC_WORDS`] words.
pub(crate) const ACC64_WORDS: u32 = 4;
/// The one `red` operation of `acc` word `k` (`ACC_OPS[k % 6]`).
const ACC_OPS: [(&str, &str); 6] = [
    ("add", "u32"),
    ("min", "u32"),
    ("max", "s32"),
    ("and", "b32"),
    ("or", "b32"),
    ("xor", "b32"),
];
/// The one `red` operation of 64-bit `acc` word `k`.
const ACC64_OPS: [(&str, &str); ACC64_WORDS as usize] = [
    ("add", "u64"),
    ("max", "s64"),
    ("min", "u64"),
    ("xor", "b64"),
];
/// `atom` operations on a 32-bit location of the thread's own.
const ATOM32: [&str; 12] = [
    "add.u32", "exch.b32", "min.s32", "max.s32", "min.u32", "max.u32", "and.b32", "or.b32",
    "xor.b32", "inc.u32", "dec.u32", "cas.b32",
];
/// `atom` operations on a 64-bit location of the thread's own.
const ATOM64: [&str; 10] = [
    "add.u64", "min.u64", "max.u64", "min.s64", "max.s64", "and.b64", "or.b64", "xor.b64",
    "exch.b64", "cas.b64",
];

impl Gen<'_, '_, '_> {
    /// `{.sem}{.scope}` of an `atom` (or a `red` when `red`): often none.
    fn atom_order(&mut self, red: bool) -> String {
        let sems: &[&str] = if red {
            &["relaxed", "release"]
        } else {
            &["relaxed", "acquire", "release", "acq_rel"]
        };
        let scope = self.src.pick(&["cta", "gpu", "sys"]);
        match self.src.below(4) {
            0 => format!(".{}.{scope}", self.src.pick(sems)),
            1 => format!(".{scope}"),
            _ => String::new(),
        }
    }

    /// An atomic statement (kernel code only).
    pub fn atomic_stmt(&mut self) {
        match self.src.below(7) {
            0 => self.red_acc32(),
            1 => self.red_acc64(),
            2 | 3 => self.atom_priv(),
            4 => self.atom_shared_own(),
            5 => self.red_shared(false),
            _ => self.red_shared(true),
        }
    }

    /// `red.global` on a 32-bit word of `acc` with the word's operation.
    fn red_acc32(&mut self) {
        let fx = self.fx();
        let k = self.src.below(ACC_WORDS);
        let (op, ty) = ACC_OPS[k as usize % ACC_OPS.len()];
        let v = self.opnd(VType::U32);
        let o = self.atom_order(true);
        self.ins(format!(
            "red{o}.global.{op}.{ty} [{}+{}], {v}",
            fx.acc,
            4 * k
        ));
    }

    /// `red.global` on a 64-bit word of `acc` with the word's operation.
    fn red_acc64(&mut self) {
        let fx = self.fx();
        let k = self.src.below(ACC64_WORDS);
        let (op, ty) = ACC64_OPS[k as usize];
        let v = self.opnd(VType::U64);
        let o = self.atom_order(true);
        let off = 4 * ACC_WORDS + 8 * k;
        self.ins(format!("red{o}.global.{op}.{ty} [{}+{off}], {v}", fx.acc));
    }

    /// `atom` (or `red`) on the thread's `priv` word or `priv64` double
    /// word, through its global or its generic address.
    fn atom_priv(&mut self) {
        let wide = self.src.chance(0.5);
        let slot = if wide {
            self.priv64.expect("atomic prologue")
        } else {
            self.fx().priv_slot
        };
        let (space, addr) = if self.src.chance(0.25) {
            let g = self.fresh(RC::B64);
            self.ins(format!("cvta.global.u64 {g}, {slot}"));
            ("", g)
        } else {
            (".global", slot)
        };
        let (mut ops, vt) = if wide {
            (ATOM64.to_vec(), VType::U64)
        } else {
            (ATOM32.to_vec(), VType::U32)
        };
        let float = if wide { VType::F64 } else { VType::F32 };
        if self.fs.has_type(float) {
            ops.push(if wide { "add.f64" } else { "add.f32" });
        }
        let op = self.src.pick(&ops);
        let vt = if op.ends_with(".f32") || op.ends_with(".f64") {
            float
        } else {
            vt
        };
        let v = self.opnd(vt);
        if op != "cas.b32" && op != "cas.b64" && self.src.chance(0.25) {
            // no result: `red` (cas and exch have no red form)
            if !op.starts_with("exch") {
                let o = self.atom_order(true);
                self.ins(format!("red{o}{space}.{op} [{addr}], {v}"));
                return;
            }
        }
        let o = self.atom_order(false);
        let d = self.dest(RC::of(vt));
        let w = if op.starts_with("cas") {
            format!(", {}", self.opnd(vt))
        } else {
            String::new()
        };
        self.ins(format!("atom{o}{space}.{op} {}, [{addr}], {v}{w}", d.0));
        self.finish(d);
    }

    /// `atom.shared` on the thread's own `sdata` word, written first.
    fn atom_shared_own(&mut self) {
        let own = self.fx().shared_own;
        let v = self.reg_of(VType::U32);
        self.ins(format!("st.shared.u32 [{own}], {v}"));
        let mut ops = ATOM32.to_vec();
        if self.fs.has_type(VType::F32) {
            ops.push("add.f32");
        }
        let op = self.src.pick(&ops);
        let vt = if op == "add.f32" {
            VType::F32
        } else {
            VType::U32
        };
        let v = self.opnd(vt);
        let o = self.atom_order(false);
        let d = self.dest(RC::of(vt));
        let w = if op == "cas.b32" {
            format!(", {}", self.opnd(vt))
        } else {
            String::new()
        };
        self.ins(format!("atom{o}.shared.{op} {}, [{own}], {v}{w}", d.0));
        self.finish(d);
    }

    /// A shared-memory reduction phase on the counter (32 or 64 bits),
    /// converged code only.
    fn red_shared(&mut self, wide: bool) {
        if self.diverged > 0 {
            return;
        }
        let fx = self.fx();
        let counter = self.shared_counter_offset();
        let p = self.fresh(RC::Pred);
        let a = self.fresh(RC::B64);
        self.ins(format!("add.s64 {a}, {}, {counter}", fx.shared));
        self.ins(format!("setp.eq.u32 {p}, {}, 0", fx.tid_lin));
        let (ty, ops, vt): (&str, &[&str], VType) = if wide {
            (
                "u64",
                &[
                    "add.u64", "min.u64", "max.s64", "and.b64", "or.b64", "xor.b64",
                ],
                VType::U64,
            )
        } else {
            (
                "u32",
                &[
                    "add.u32", "min.u32", "max.s32", "and.b32", "or.b32", "xor.b32",
                ],
                VType::U32,
            )
        };
        self.ins(format!("@{p} st.shared.{ty} [{a}], 0"));
        self.ins("bar.sync 0");
        let op = self.src.pick(ops);
        let v = self.reg_of(vt);
        let o = self.atom_order(true);
        self.ins(format!("red{o}.shared.{op} [{a}], {v}"));
        self.ins("bar.sync 0");
        let d = self.dest(RC::of(vt));
        self.ins_def(d, format!("ld.shared.{ty} {}, [{a}]", d.0));
        self.ins("bar.sync 0");
    }
}
