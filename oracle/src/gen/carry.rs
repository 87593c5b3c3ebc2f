//! Carry chains (PTX ISA 9.7.2, extended-precision integer arithmetic):
//! `add.cc`/`sub.cc`/`mad.{lo,hi}.cc` sets the condition code's carry,
//! `addc`/`subc`/`madc` read it (and with `.cc` set it again). A chain is
//! written as one run of instructions, its sources gathered first, so that
//! nothing between two links touches the carry, and it always starts with a
//! carry-setting link: the carry's value at kernel entry is not defined by
//! the ISA. Written by the menu family (`menu_emit.rs`), which draws a chain
//! instead of one form a small share of the time.

use super::emit::{Gen, RC};
use super::features::VType;

/// The links that set the carry without reading it.
const FIRST: &[&str] = &["add.cc", "sub.cc", "mad.lo.cc", "mad.hi.cc"];
/// The links that read the carry; `.cc` on a middle link sets it again.
const NEXT: &[&str] = &["addc", "subc", "madc.lo", "madc.hi"];

impl Gen<'_, '_, '_> {
    /// One carry chain of two to four links over one of `.u32`, `.s32`,
    /// `.u64`, `.s64` (64-bit when the program has 64-bit integers).
    pub fn carry_chain_stmt(&mut self) {
        let wide = self.fs.has_type(VType::U64) || self.fs.has_type(VType::S64);
        let types: &[&str] = if wide {
            &["u32", "s32", "u64", "s64"]
        } else {
            &["u32", "s32"]
        };
        let t = self.src.pick(types);
        let (rc, vt) = if t.ends_with("64") {
            (RC::B64, VType::U64)
        } else {
            (RC::B32, VType::U32)
        };
        let links = 2 + self.src.below(3) as usize;
        let mut ops = Vec::with_capacity(links);
        for k in 0..links {
            let op = if k == 0 {
                self.src.pick(FIRST).to_string()
            } else if k + 1 < links {
                let o = self.src.pick(NEXT);
                match o.split_once('.') {
                    Some((a, b)) => format!("{a}.{b}.cc"),
                    None => format!("{o}.cc"),
                }
            } else {
                self.src.pick(NEXT).to_string()
            };
            let n_src = if op.starts_with("mad") { 3 } else { 2 };
            let srcs: Vec<String> = (0..n_src).map(|_| self.reg_of(vt).to_string()).collect();
            ops.push((op, srcs));
        }
        // Destinations last, each link's written right before it, with no
        // other instruction between the links. The first link is never
        // guarded: a carry-setting link that does not run would leave the
        // carry undefined for the next (generator seed 251 in the fuzz
        // matrix: `@%p1 mad.lo.cc.s32` then `madc.hi.s32`); a later link
        // that does not run leaves the previous carry, which is defined.
        for (k, (op, srcs)) in ops.into_iter().enumerate() {
            let d = self.dest(rc);
            let text = format!("{op}.{t} {}, {}", d.0, srcs.join(", "));
            if k == 0 {
                self.ins(text);
                self.finish(d);
            } else {
                self.ins_def(d, text);
            }
        }
    }
}
