//! The greedy colouring's first version (every candidate place rescanned
//! a node's neighbours), kept as the reference `colour_in` and `repair`
//! are compared with on random interference graphs: the same places, node
//! for node, and the same failures.

use super::colour::{allowed, colour_in_for_tests, free_mask, limit, Partial};
use super::interfere::Graph;
use super::mask::RegMask;
use super::nodes::{Class, Node, Nodes};
use super::RegBudget;

fn first_free_place(
    ns: &Nodes,
    g: &Graph,
    budget: &RegBudget,
    assign: &[Option<u32>],
    m: usize,
    extra: (u32, u32),
) -> Option<u32> {
    let x = &ns.nodes[m];
    let mut taken = RegMask::default();
    taken.insert_range(extra.0, extra.1);
    let free = free_mask(ns, g, budget, assign, m).minus(&taken);
    free.bases(x.size, x.align).lowest()
}

fn repair(
    ns: &Nodes,
    g: &Graph,
    budget: &RegBudget,
    assign: &mut [Option<u32>],
    k: usize,
) -> Option<u32> {
    let x = &ns.nodes[k];
    let lim = limit(x.class, budget);
    let mut b = 0;
    while b + x.size <= lim {
        let place = b;
        b += x.align;
        if !(place..place + x.size).all(|r| allowed(x.class, r, budget) && !g.fixed[k].contains(&r))
        {
            continue;
        }
        let blockers: Vec<usize> = g
            .nbrs(k)
            .filter(|&m| {
                assign[m].is_some_and(|a| a < place + x.size && place < a + ns.nodes[m].size)
            })
            .collect();
        if blockers.is_empty()
            || blockers.len() > 2
            || blockers.iter().any(|&m| ns.nodes[m].temp && !x.temp)
        {
            continue;
        }
        let saved: Vec<Option<u32>> = blockers.iter().map(|&m| assign[m]).collect();
        for &m in &blockers {
            assign[m] = None;
        }
        let mut ok = true;
        for &m in &blockers {
            match first_free_place(ns, g, budget, assign, m, (place, x.size)) {
                Some(p) => assign[m] = Some(p),
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if ok {
            return Some(place);
        }
        for (&m, s) in blockers.iter().zip(saved) {
            assign[m] = s;
        }
    }
    None
}

fn colour_in_reference(
    ns: &Nodes,
    g: &Graph,
    budget: &RegBudget,
    order: &[usize],
    singles_down: bool,
) -> Result<Partial, Vec<usize>> {
    let n = ns.nodes.len();
    let mut assign: Vec<Option<u32>> = vec![None; n];
    let mut failed = Vec::new();
    for &k in order {
        let node = &ns.nodes[k];
        let lim = limit(node.class, budget);
        let free = free_mask(ns, g, budget, &assign, k);
        let found = if singles_down && node.size == 1 {
            free.highest()
        } else {
            super::colour::place(&free, node.size, node.align, lim)
        };
        match found.or_else(|| repair(ns, g, budget, &mut assign, k)) {
            Some(b) => assign[k] = Some(b),
            None => failed.push(k),
        }
    }
    if failed.is_empty() {
        Ok(assign)
    } else {
        Err(failed)
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random graph of general-register nodes (singles, pairs, quads, some
/// temporaries) over a budget small enough that most colourings fail and
/// repair, with a few fixed registers; edges dense or sparse.
fn random_case(r: &mut Rng) -> (Nodes, Graph, RegBudget) {
    let n = 2 + r.below(90) as usize;
    let mut ns = Nodes::default();
    for k in 0..n {
        let (size, align) = [(1, 1), (1, 1), (1, 1), (2, 2), (4, 4), (2, 1)][r.below(6) as usize];
        ns.nodes.push(Node {
            class: Class::Gpr,
            lo: 4 * k as u32,
            size,
            align,
            temp: r.below(8) == 0,
            proc: Some(0),
            refs: 1 + r.below(5) as u32,
            first_def: k,
        });
    }
    let density = [2, 5, 20, 60, 95][r.below(5) as usize];
    let mut adj = vec![Vec::new(); n];
    for a in 0..n {
        for b in a + 1..n {
            if r.below(100) < density {
                adj[a].push(b as u32);
                adj[b].push(a as u32);
            }
        }
    }
    let fixed = (0..n)
        .map(|_| {
            (0..r.below(3))
                .map(|_| r.below(40) as u32)
                .collect::<Vec<u32>>()
        })
        .collect();
    let g = Graph {
        peak: Vec::new(),
        peak_size: 0,
        adj,
        fixed,
        live_len: vec![1; n],
    };
    let budget = RegBudget::of(3 + r.below(60) as u32);
    (ns, g, budget)
}

#[test]
fn colour_in_places_every_node_where_the_first_version_did() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let mut repaired = 0;
    let mut failing = 0;
    for case in 0..3000 {
        let (ns, g, budget) = random_case(&mut r);
        let n = ns.nodes.len();
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, r.below(i as u64 + 1) as usize);
        }
        for singles_down in [false, true] {
            let want = colour_in_reference(&ns, &g, &budget, &order, singles_down);
            let got = colour_in_for_tests(&ns, &g, &budget, &order, singles_down);
            assert_eq!(got, want, "case {case} singles_down {singles_down}");
            failing += usize::from(want.is_err());
        }
        // Count the cases where a repair moved a node: the plain greedy
        // colouring (no repair) differs from the reference.
        let plain = plain_greedy(&ns, &g, &budget, &order);
        repaired += usize::from(plain != colour_in_reference(&ns, &g, &budget, &order, false));
    }
    // The random cases exercise both outcomes and the repairs.
    assert!(failing > 500, "{failing} failing colourings");
    assert!(repaired > 200, "{repaired} cases changed by a repair");
}

/// Greedy colouring without repair (what `colour_in` does when every node
/// finds a place at once).
fn plain_greedy(
    ns: &Nodes,
    g: &Graph,
    budget: &RegBudget,
    order: &[usize],
) -> Result<Partial, Vec<usize>> {
    let mut assign: Vec<Option<u32>> = vec![None; ns.nodes.len()];
    let mut failed = Vec::new();
    for &k in order {
        let x = &ns.nodes[k];
        let free = free_mask(ns, g, budget, &assign, k);
        match super::colour::place(&free, x.size, x.align, limit(x.class, budget)) {
            Some(b) => assign[k] = Some(b),
            None => failed.push(k),
        }
    }
    if failed.is_empty() {
        Ok(assign)
    } else {
        Err(failed)
    }
}
