//! Copy coalescing for the printer: values that can share one PTX
//! register, so the copies out of SSA (phi copies, the `mov d', old` of a
//! guarded definition) print as nothing.
//!
//! Candidates are a phi's destination with each of its arguments, and a
//! guarded definition with its old value. Two candidates' classes merge
//! when the values have the same register type and no value of one class
//! interferes with a value of the other. Two SSA values interfere when one
//! is live just after the other's definition (Budimlić et al., "Fast
//! copy coalescing and live-range identification", 2002), with liveness
//! computed per block where a phi argument is a use at the end of its
//! predecessor and a phi destination a definition at the start of its
//! block. One more rule: a guarded instruction's definitions interfere
//! with all its operands, because the printed `mov d', old` runs before
//! the instruction reads them. Undefined values are never coalesced (the
//! printer gives them their own, zeroed, register).

use super::ir::*;

struct Bits {
    words: usize,
    v: Vec<u64>,
}

impl Bits {
    fn new(n: usize, rows: usize) -> Bits {
        let words = n.div_ceil(64).max(1);
        Bits {
            words,
            v: vec![0; words * rows],
        }
    }
    fn get(&self, r: usize, i: usize) -> bool {
        self.v[r * self.words + i / 64] >> (i % 64) & 1 != 0
    }
    fn set(&mut self, r: usize, i: usize) {
        self.v[r * self.words + i / 64] |= 1 << (i % 64);
    }
    fn row(&self, r: usize) -> &[u64] {
        &self.v[r * self.words..(r + 1) * self.words]
    }
}

/// Per value, the representative of its register class.
pub fn classes(f: &Function) -> Vec<Value> {
    let nv = f.values.len();
    let nb = f.blocks.len();
    let mut rep: Vec<Value> = (0..nv as u32).map(Value).collect();
    if nb == 0 {
        return rep;
    }
    // Definition points: (block, position); phis 0, instruction k at k + 1.
    let mut def: Vec<Option<(usize, usize)>> = vec![None; nv];
    for (bi, b) in f.blocks.iter().enumerate() {
        for p in &b.phis {
            def[p.dst.idx()] = Some((bi, 0));
        }
        for (k, i) in b.insts.iter().enumerate() {
            for d in i.defs() {
                def[d.idx()] = Some((bi, k + 1));
            }
        }
    }
    // Liveness: use = upward-exposed uses, def = phis and instruction defs.
    let mut uses = Bits::new(nv, nb);
    let mut defs = Bits::new(nv, nb);
    let mut phi_out = Bits::new(nv, nb); // phi arguments used at the end of a block
    for (bi, b) in f.blocks.iter().enumerate() {
        for p in &b.phis {
            defs.set(bi, p.dst.idx());
            for &(pb, a) in &p.args {
                phi_out.set(pb.idx(), a.idx());
            }
        }
        for i in &b.insts {
            i.for_each_use(|v| {
                if !defs.get(bi, v.idx()) {
                    uses.set(bi, v.idx());
                }
            });
            for d in i.defs() {
                defs.set(bi, d.idx());
            }
        }
        if let Some(v) = b.term.uses() {
            if !defs.get(bi, v.idx()) {
                uses.set(bi, v.idx());
            }
        }
    }
    let w = uses.words;
    let mut live_in = Bits::new(nv, nb);
    let mut live_out = Bits::new(nv, nb);
    let rpo = f.rpo();
    let mut changed = true;
    while changed {
        changed = false;
        for &b in rpo.iter().rev() {
            let bi = b.idx();
            let mut out: Vec<u64> = phi_out.row(bi).to_vec();
            for s in f.blocks[bi].term.succs() {
                for (o, &i) in out.iter_mut().zip(live_in.row(s.idx())) {
                    *o |= i;
                }
            }
            for (k, &o) in out.iter().enumerate() {
                let inn = uses.v[bi * w + k] | (o & !defs.v[bi * w + k]);
                if inn != live_in.v[bi * w + k] || o != live_out.v[bi * w + k] {
                    changed = true;
                    live_in.v[bi * w + k] = inn;
                    live_out.v[bi * w + k] = o;
                }
            }
        }
    }
    // x live just after the definition point (b, pos)?
    let live_after = |x: Value, b: usize, pos: usize| -> bool {
        let reaches = match def[x.idx()] {
            Some((db, dp)) if db == b => dp <= pos,
            _ => live_in.get(b, x.idx()),
        };
        if !reaches {
            return false;
        }
        if live_out.get(b, x.idx()) {
            return true;
        }
        let blk = &f.blocks[b];
        let mut used = blk.term.uses() == Some(x);
        for i in &blk.insts[pos.min(blk.insts.len())..] {
            i.for_each_use(|v| used |= v == x);
        }
        used
    };
    let interfere = |x: Value, y: Value| -> bool {
        if x == y {
            return false;
        }
        let (Some((bx, px)), Some((by, py))) = (def[x.idx()], def[y.idx()]) else {
            return true;
        };
        if live_after(x, by, py) || live_after(y, bx, px) {
            return true;
        }
        // A guarded instruction's definitions against its operands.
        for (b, p, other) in [(bx, px, y), (by, py, x)] {
            if p > 0 {
                let i = &f.blocks[b].insts[p - 1];
                if i.guard.is_some() {
                    let mut reads = false;
                    i.for_each_use(|v| reads |= v == other);
                    let old_only = i.old.contains(&other) && {
                        let mut n = 0;
                        i.for_each_use(|v| n += usize::from(v == other));
                        n == 1
                    };
                    if reads && !old_only {
                        return true;
                    }
                }
            }
        }
        false
    };
    let mut members: Vec<Vec<Value>> = (0..nv as u32).map(|v| vec![Value(v)]).collect();
    fn find(rep: &mut [Value], v: Value) -> Value {
        let mut r = v;
        while rep[r.idx()] != r {
            r = rep[r.idx()];
        }
        rep[v.idx()] = r;
        r
    }
    let mut try_union = |a: Value, b: Value, rep: &mut Vec<Value>| {
        if f.values[a.idx()].undef
            || f.values[b.idx()].undef
            || f.values[a.idx()].ty != f.values[b.idx()].ty
        {
            return;
        }
        let (ra, rb) = (find(rep, a), find(rep, b));
        if ra == rb {
            return;
        }
        for &x in &members[ra.idx()] {
            for &y in &members[rb.idx()] {
                if interfere(x, y) {
                    return;
                }
            }
        }
        let moved = std::mem::take(&mut members[rb.idx()]);
        members[ra.idx()].extend(moved);
        rep[rb.idx()] = ra;
    };
    for b in &f.blocks {
        for i in &b.insts {
            if i.guard.is_some() {
                for (d, &o) in i.defs().into_iter().zip(&i.old) {
                    try_union(d, o, &mut rep);
                }
            }
        }
        for p in &b.phis {
            for &(_, a) in &p.args {
                try_union(p.dst, a, &mut rep);
            }
        }
    }
    (0..nv as u32).map(|v| find(&mut rep, Value(v))).collect()
}
