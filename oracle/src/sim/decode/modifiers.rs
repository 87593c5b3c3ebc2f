//! Modifier decoding: what an instruction's dotted modifiers select
//! (comparison, predicate combination, access size, `P2R`/`R2P` byte).

use ptxc::ir::Inst;

use super::super::program::{Bop, ICmp};
use super::DResult;

pub(super) fn has(i: &Inst, m: &str) -> bool {
    i.mods.contains(&m)
}

pub(super) fn icmp(i: &Inst) -> DResult<ICmp> {
    for m in &i.mods {
        let c = match *m {
            "F" => ICmp::F,
            "LT" => ICmp::Lt,
            "EQ" => ICmp::Eq,
            "LE" => ICmp::Le,
            "GT" => ICmp::Gt,
            "NE" => ICmp::Ne,
            "GE" => ICmp::Ge,
            "T" => ICmp::T,
            _ => continue,
        };
        return Ok(c);
    }
    Err("no comparison modifier".into())
}

pub(super) fn bop(i: &Inst) -> DResult<Bop> {
    if has(i, "AND") {
        Ok(Bop::And)
    } else if has(i, "OR") {
        Ok(Bop::Or)
    } else if has(i, "XOR") {
        Ok(Bop::Xor)
    } else {
        Err("no predicate-combining modifier (.AND/.OR/.XOR)".into())
    }
}

pub(super) fn mem_size(i: &Inst) -> (u8, bool) {
    for m in &i.mods {
        match *m {
            "U8" | "8" => return (1, false),
            "S8" => return (1, true),
            "U16" | "16" => return (2, false),
            "S16" => return (2, true),
            "32" => return (4, false),
            "64" => return (8, false),
            "128" => return (16, false),
            _ => {}
        }
    }
    (4, false)
}

pub(super) fn pr_shift(i: &Inst) -> u32 {
    if has(i, "B1") {
        8
    } else if has(i, "B2") {
        16
    } else if has(i, "B3") {
        24
    } else {
        0
    }
}
