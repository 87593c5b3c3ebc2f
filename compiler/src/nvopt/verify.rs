//! The SSA form's invariants, checked after lifting and after each pass
//! in the tests (and available to the pipeline): block targets exist; the
//! entry has no predecessors; each value has at most one definition and
//! every used value is defined or undefined-by-construction; a phi has
//! exactly one argument per predecessor; every use is dominated by its
//! definition (a phi argument by the end of its predecessor); a guarded
//! instruction has one old value per definition, an unguarded one none.

use super::ir::*;
use super::lift::{dominates, idoms};

pub fn verify(f: &Function) -> Result<(), String> {
    let n = f.blocks.len();
    let name = |v: Value| format!("v{}", v.0);
    for (bi, b) in f.blocks.iter().enumerate() {
        for s in b.term.succs() {
            if s.idx() >= n {
                return Err(format!("block {bi} branches to missing block {}", s.0));
            }
        }
    }
    let preds = f.preds();
    if !preds[0].is_empty() {
        return Err("the entry block has predecessors".into());
    }
    // Definitions: (block, position); phis at position 0, instruction k at k + 1.
    let mut def: Vec<Option<(BlockId, usize)>> = vec![None; f.values.len()];
    let mut set = |v: Value, at: (BlockId, usize)| -> Result<(), String> {
        if v.idx() >= def.len() {
            return Err(format!("{} is not a value", name(v)));
        }
        if def[v.idx()].replace(at).is_some() || f.values[v.idx()].undef {
            return Err(format!("{} is defined twice", name(v)));
        }
        Ok(())
    };
    for (bi, b) in f.blocks.iter().enumerate() {
        let bid = BlockId(bi as u32);
        for p in &b.phis {
            set(p.dst, (bid, 0))?;
        }
        for (k, i) in b.insts.iter().enumerate() {
            for d in i.defs() {
                set(d, (bid, k + 1))?;
            }
        }
    }
    let idom = idoms(f);
    let check = |v: Value, at: (BlockId, usize), what: &str| -> Result<(), String> {
        if v.idx() >= f.values.len() {
            return Err(format!("{what}: {} is not a value", name(v)));
        }
        if f.values[v.idx()].undef {
            return Ok(());
        }
        let Some((db, dk)) = def[v.idx()] else {
            return Err(format!("{what}: {} is used but never defined", name(v)));
        };
        let ok = if db == at.0 {
            dk < at.1
        } else {
            dominates(&idom, db, at.0)
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "{what}: {} is not dominated by its definition",
                name(v)
            ))
        }
    };
    for (bi, b) in f.blocks.iter().enumerate() {
        if idom[bi].is_none() {
            continue; // unreachable
        }
        let bid = BlockId(bi as u32);
        for p in &b.phis {
            let mut from: Vec<BlockId> = p.args.iter().map(|a| a.0).collect();
            from.sort();
            let mut want = preds[bi].clone();
            want.sort();
            if from != want {
                return Err(format!(
                    "phi {} in block {bi}: arguments from {from:?}, predecessors {want:?}",
                    name(p.dst)
                ));
            }
            for &(pb, a) in &p.args {
                if idom[pb.idx()].is_some() {
                    check(
                        a,
                        (pb, usize::MAX),
                        &format!("phi {} in block {bi}", name(p.dst)),
                    )?;
                }
            }
        }
        for (k, i) in b.insts.iter().enumerate() {
            let what = format!("block {bi} instruction {k} ({})", i.op.name());
            let mut r = Ok(());
            i.for_each_use(|v| {
                if r.is_ok() {
                    r = check(v, (bid, k + 1), &what);
                }
            });
            r?;
            let want_old = if i.guard.is_some() { i.defs().len() } else { 0 };
            if i.old.len() != want_old {
                return Err(format!("{what}: {} old values for {want_old}", i.old.len()));
            }
        }
        if let Some(v) = b.term.uses() {
            check(v, (bid, usize::MAX), &format!("block {bi} terminator"))?;
        }
    }
    Ok(())
}
