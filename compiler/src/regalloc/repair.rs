//! The one-step recolouring the greedy colouring tries when a node finds
//! no place ([`repair`]), and each node's busy registers ([`Busy`]), kept
//! current as nodes take places.
//!
//! Both exist for speed at high register pressure: the first version
//! recomputed a neighbour's free registers from all of its neighbours for
//! every candidate place of every node that found none, so a kernel with
//! 300 values live at once (a clique of 300 nodes over 254 registers)
//! spent 29 s in the colouring's retries. Here a place's occupants come
//! from a per-register table built once per repair, and a single
//! occupant's free registers from [`Busy`], so a repair costs the node's
//! neighbours plus its places. The answers are the first version's, place
//! for place (`colour::reference_tests`).

use smallvec::SmallVec;

use super::colour::{allowed, allowed_mask, free_mask, limit};
use super::interfere::Graph;
use super::mask::RegMask;
use super::nodes::Nodes;
use super::RegBudget;

/// Per node: its fixed registers and the places its coloured neighbours
/// hold. Exact for the assignment it was kept with: [`Busy::take`] after
/// each node takes a place, [`Busy::moved`] after a node changes place.
pub(super) struct Busy {
    of: Vec<RegMask>,
}

impl Busy {
    /// Nothing coloured yet: each node's fixed registers.
    pub(super) fn new(g: &Graph) -> Busy {
        let of = g
            .fixed
            .iter()
            .map(|fixed| {
                let mut b = RegMask::default();
                for &p in fixed {
                    b.insert(p);
                }
                b
            })
            .collect();
        Busy { of }
    }

    /// The registers of `k`'s file that are free for it (what
    /// [`free_mask`] computes from the assignment).
    pub(super) fn free(&self, ns: &Nodes, budget: &RegBudget, k: usize) -> RegMask {
        allowed_mask(ns.nodes[k].class, budget).minus(&self.of[k])
    }

    /// Node `k` took `b..b+size`.
    pub(super) fn take(&mut self, g: &Graph, k: usize, b: u32, size: u32) {
        for m in g.nbrs(k) {
            self.of[m].insert_range(b, size);
        }
    }

    /// Node `k` changed place (a mask cannot forget one occupant of a
    /// register another may share): its neighbours' sets are made again.
    fn moved(&mut self, ns: &Nodes, g: &Graph, assign: &[Option<u32>], k: usize) {
        for m in g.nbrs(k) {
            let mut b = RegMask::default();
            for &p in &g.fixed[m] {
                b.insert(p);
            }
            for o in g.nbrs(m) {
                if let Some(a) = assign[o] {
                    b.insert_range(a, ns.nodes[o].size);
                }
            }
            self.of[m] = b;
        }
    }
}

/// Node `k` found no place: try each place whose only occupants are one
/// or two coloured neighbours that can move elsewhere (a one-step Kempe
/// style recolouring), and move them. Returns `k`'s place; `busy` follows
/// the moves.
pub(super) fn repair(
    ns: &Nodes,
    g: &Graph,
    budget: &RegBudget,
    assign: &mut [Option<u32>],
    busy: &mut Busy,
    k: usize,
) -> Option<u32> {
    let x = &ns.nodes[k];
    let lim = limit(x.class, budget);
    // Each register's occupants among the coloured neighbours, as
    // (position among the neighbours, node): a place's blockers in
    // neighbour order, as the first version listed them.
    let mut occ: Vec<SmallVec<[(u32, usize); 1]>> = vec![SmallVec::new(); lim as usize];
    for (pos, m) in g.nbrs(k).enumerate() {
        if let Some(a) = assign[m] {
            for r in a..(a + ns.nodes[m].size).min(lim) {
                occ[r as usize].push((pos as u32, m));
            }
        }
    }
    let mut b = 0;
    while b + x.size <= lim {
        let place = b;
        b += x.align;
        if !(place..place + x.size).all(|r| allowed(x.class, r, budget) && !g.fixed[k].contains(&r))
        {
            continue;
        }
        let mut blockers: SmallVec<[(u32, usize); 4]> = (place..place + x.size)
            .flat_map(|r| occ[r as usize].iter().copied())
            .collect();
        blockers.sort_unstable();
        blockers.dedup();
        if blockers.is_empty()
            || blockers.len() > 2
            || blockers.iter().any(|&(_, m)| ns.nodes[m].temp && !x.temp)
        {
            continue;
        }
        let mut taken = RegMask::default();
        taken.insert_range(place, x.size);
        if let [(_, m)] = blockers[..] {
            // One occupant: its free registers are `busy`'s (`k` is not
            // coloured, and `m` is not its own neighbour).
            let y = &ns.nodes[m];
            let free = busy.free(ns, budget, m).minus(&taken);
            if let Some(p) = free.bases(y.size, y.align).lowest() {
                assign[m] = Some(p);
                busy.moved(ns, g, assign, m);
                return Some(place);
            }
            continue;
        }
        // Two occupants: the second's registers depend on where the first
        // went; computed from the assignment.
        let saved: SmallVec<[Option<u32>; 2]> = blockers.iter().map(|&(_, m)| assign[m]).collect();
        for &(_, m) in &blockers {
            assign[m] = None;
        }
        let mut ok = true;
        for &(_, m) in &blockers {
            let y = &ns.nodes[m];
            let free = free_mask(ns, g, budget, assign, m).minus(&taken);
            match free.bases(y.size, y.align).lowest() {
                Some(p) => assign[m] = Some(p),
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if ok {
            for &(_, m) in &blockers {
                busy.moved(ns, g, assign, m);
            }
            return Some(place);
        }
        for (&(_, m), s) in blockers.iter().zip(saved) {
            assign[m] = s;
        }
    }
    None
}
