//! Greedy colouring and the choice of spill victims.
//!
//! Nodes are coloured in order: spill temporaries first (they live around
//! one instruction and must always find a register, so they go before the
//! long ranges that could box them in), then by first definition in
//! layout order (for code in SSA-like form this is the dominance order,
//! which colours an interval-like graph with no more registers than its
//! maximum pressure), never-defined nodes last. Each node takes the lowest
//! base that is a multiple of its alignment and whose `size` registers are
//! allowed by the budget, not taken by a coloured neighbour, and not a
//! precoloured physical register it interferes with.

use super::interfere::Graph;
use super::mask::RegMask;
use super::nodes::{Class, Nodes};
use super::repair::{repair, Busy};
use super::{AllocError, RegBudget, PREDICATES, UNIFORM_PREDICATES, UNIFORM_REGISTERS};

/// The physical base of each node.
pub type Assignment = Vec<u32>;

pub(super) fn limit(c: Class, budget: &RegBudget) -> u32 {
    match c {
        Class::Gpr => budget.limit(),
        Class::Pred => PREDICATES,
        Class::Ureg => UNIFORM_REGISTERS,
        Class::Upred => UNIFORM_PREDICATES,
    }
}

pub(super) fn allowed(c: Class, r: u32, budget: &RegBudget) -> bool {
    match c {
        Class::Gpr => budget.allows(r),
        _ => r < limit(c, budget),
    }
}

/// The registers of file `c` that [`allowed`] accepts, as a mask: the
/// file below its limit, less the stack pointer for general registers
/// ([`RegBudget::allows`]).
pub(super) fn allowed_mask(c: Class, budget: &RegBudget) -> RegMask {
    let mut m = RegMask::below(limit(c, budget));
    if c == Class::Gpr {
        m.remove(super::STACK_POINTER);
    }
    m
}

/// The registers of `k`'s file that its coloured neighbours and the
/// physical registers it interferes with leave free.
pub(super) fn free_mask(
    ns: &Nodes,
    g: &Graph,
    budget: &RegBudget,
    assign: &[Option<u32>],
    k: usize,
) -> RegMask {
    let mut busy = RegMask::default();
    for m in g.nbrs(k) {
        if let Some(b) = assign[m] {
            busy.insert_range(b, ns.nodes[m].size);
        }
    }
    for &p in &g.fixed[k] {
        busy.insert(p);
    }
    allowed_mask(ns.nodes[k].class, budget).minus(&busy)
}

/// The place a node of `size` and `align` takes among the `free`
/// registers of a file of `lim`: the lowest snug one for singles and
/// pairs (the other half of the enclosing place twice the size lies in
/// the file and is not all free, so aligned room stays whole for wide
/// values), else the lowest that fits. Bit-parallel over the 256
/// registers (`RegMask::bases`): the same answer as trying every base in
/// turn (`tests::place_matches_the_loop`).
pub(super) fn place(free: &RegMask, size: u32, align: u32, lim: u32) -> Option<u32> {
    let fit = free.bases(size, align);
    if size > 2 {
        return fit.lowest();
    }
    let w = size.max(align);
    let bad = RegMask::below((lim + 1).saturating_sub(w)).minus(&free.bases(w, 1));
    fit.and(&bad.xor_swap(w)).lowest().or(fit.lowest())
}

/// Colours every node, or returns the nodes that found no register.
///
/// The register files are coloured one at a time: nodes of different
/// files never interfere, so a file that needs the retries below (seven
/// predicates run out long before 255 registers do) does not make the
/// others retry, and a file coloured at the first attempt keeps that
/// colouring. (Colouring them together made every predicate spill round
/// recolour the general registers some fifteen times, DSATUR's quadratic
/// scan included: a quarter of the engine's compile time.)
pub fn colour(ns: &Nodes, g: &Graph, budget: &RegBudget) -> Result<Assignment, Vec<usize>> {
    let n = ns.nodes.len();
    let mut assign: Vec<Option<u32>> = vec![None; n];
    let mut failed = Vec::new();
    let mut briggs: Option<Vec<usize>> = None;
    for class in [Class::Gpr, Class::Pred, Class::Ureg, Class::Upred] {
        let members: Vec<bool> = ns.nodes.iter().map(|x| x.class == class).collect();
        if !members.contains(&true) {
            continue;
        }
        match colour_file(ns, g, budget, &members, &mut briggs) {
            Ok(a) => {
                for (k, b) in a.into_iter().enumerate() {
                    if members[k] {
                        assign[k] = b;
                    }
                }
            }
            Err(f) => failed.extend(f),
        }
    }
    if failed.is_empty() {
        Ok(assign.into_iter().map(|a| a.expect("coloured")).collect())
    } else {
        Err(failed)
    }
}

/// A partial colouring: the physical base of the nodes coloured.
pub(super) type Partial = Vec<Option<u32>>;

/// Colours the nodes of one register file (`members`): the definition
/// order first, then Briggs's optimistic order (simplify by degree, select
/// in reverse), longest ranges first, singles from the top, DSATUR and
/// perturbed orders while they fail; the attempt with the fewest failures
/// decides the spills. `briggs`: Briggs's order over every node, computed
/// the first time a file needs it.
fn colour_file(
    ns: &Nodes,
    g: &Graph,
    budget: &RegBudget,
    members: &[bool],
    briggs: &mut Option<Vec<usize>>,
) -> Result<Partial, Vec<usize>> {
    let n = ns.nodes.len();
    let only = |o: Vec<usize>| -> Vec<usize> { o.into_iter().filter(|&k| members[k]).collect() };
    let mut order: Vec<usize> = only((0..n).collect());
    order.sort_by_key(|&k| {
        let x = &ns.nodes[k];
        (!x.temp, x.first_def, x.class, x.lo)
    });
    let first = colour_in(ns, g, budget, &order, false);
    let Err(f1) = first else { return first };
    let mut best = f1;
    let bo = only(
        briggs
            .get_or_insert_with(|| briggs_order(ns, g, budget))
            .clone(),
    );
    match colour_in(ns, g, budget, &bo, false) {
        Ok(a) => return Ok(a),
        Err(f2) if f2.len() < best.len() => best = f2,
        Err(_) => {}
    }
    // Longest live ranges first (loop invariants take fixed registers,
    // short values fill the gaps), wide values before narrow ones.
    for wide_first in [true, false] {
        let mut o = order.clone();
        o.sort_by_key(|&k| {
            let x = &ns.nodes[k];
            let w = if wide_first { x.size } else { 0 };
            (
                !x.temp,
                std::cmp::Reverse(w),
                std::cmp::Reverse(g.live_len[k]),
                x.first_def,
                k,
            )
        });
        match colour_in(ns, g, budget, &o, false) {
            Ok(a) => return Ok(a),
            Err(f) if f.len() < best.len() => best = f,
            Err(_) => {}
        }
    }
    // Single registers from the top of the budget down, wide values from
    // the bottom up: the singles pack together and leave aligned room
    // below (against pair fragmentation).
    match colour_in(ns, g, budget, &order, true) {
        Ok(a) => return Ok(a),
        Err(f) if f.len() < best.len() => best = f,
        Err(_) => {}
    }
    // DSATUR: the most constrained node next.
    match dsatur(ns, g, budget, members) {
        Ok(a) => return Ok(a),
        Err(f) if f.len() < best.len() => best = f,
        Err(_) => {}
    }
    // Before spilling, a few perturbed definition orders (deterministic:
    // seeded by the attempt number). Loops make the graph more than an
    // interval graph, where one order can need a register more than
    // another.
    for attempt in 0..RESTARTS {
        let mut o = order.clone();
        let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ attempt;
        // Swap neighbours in the order with probability 1/4 each, temps
        // staying first.
        for i in 1..o.len() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x.is_multiple_of(4) && ns.nodes[o[i]].temp == ns.nodes[o[i - 1]].temp {
                o.swap(i - 1, i);
            }
        }
        match colour_in(ns, g, budget, &o, attempt % 2 == 1) {
            Ok(a) => return Ok(a),
            Err(f) if f.len() < best.len() => best = f,
            Err(_) => {}
        }
    }
    Err(best)
}

/// Brélaz's DSATUR, for nodes of several sizes: repeatedly colour the
/// uncoloured node with the fewest free places left (temporaries first,
/// then the most neighbours), at its lowest snug place.
fn dsatur(
    ns: &Nodes,
    g: &Graph,
    budget: &RegBudget,
    members: &[bool],
) -> Result<Partial, Vec<usize>> {
    let n = ns.nodes.len();
    // Busy registers per node.
    let mut busy: Vec<RegMask> = vec![RegMask::default(); n];
    for (b, fixed) in busy.iter_mut().zip(&g.fixed) {
        for &p in fixed {
            b.insert(p);
        }
    }
    let allowed_of =
        [Class::Gpr, Class::Pred, Class::Ureg, Class::Upred].map(|c| allowed_mask(c, budget));
    let free_of = |k: usize, busy: &RegMask| allowed_of[ns.nodes[k].class as usize].minus(busy);
    // How many places node `k` has left (its saturation, inverted).
    let count_places = |k: usize, busy: &RegMask| -> usize {
        let x = &ns.nodes[k];
        free_of(k, busy).bases(x.size, x.align).count() as usize
    };
    // Kept up to date as neighbours take registers (only they change a
    // node's busy set), instead of recounted for every node at each step.
    let mut left_places: Vec<usize> = (0..n)
        .map(|k| {
            if members[k] {
                count_places(k, &busy[k])
            } else {
                0
            }
        })
        .collect();
    let mut left: Vec<usize> = (0..n).filter(|&k| members[k]).collect();
    let mut assign: Vec<Option<u32>> = vec![None; n];
    let mut failed = Vec::new();
    while !left.is_empty() {
        // The key ends with `k`, so the minimum is unique and the order of
        // `left` does not matter.
        let (at, k) = left
            .iter()
            .copied()
            .enumerate()
            .min_by_key(|&(_, k)| {
                let x = &ns.nodes[k];
                (
                    !x.temp,
                    left_places[k],
                    std::cmp::Reverse(g.adj[k].len()),
                    k,
                )
            })
            .expect("a node left");
        left.swap_remove(at);
        let x = &ns.nodes[k];
        let free = free_of(k, &busy[k]);
        match place(&free, x.size, x.align, limit(x.class, budget)) {
            Some(b) => {
                assign[k] = Some(b);
                for m in g.nbrs(k) {
                    busy[m].insert_range(b, x.size);
                    if members[m] && assign[m].is_none() {
                        left_places[m] = count_places(m, &busy[m]);
                    }
                }
            }
            None => failed.push(k),
        }
    }
    if failed.is_empty() {
        Ok(assign)
    } else {
        Err(failed)
    }
}

/// Perturbed orders tried before spilling.
const RESTARTS: u64 = 24;

/// How many aligned places a node of size `sz` and alignment `al` has in
/// its file under the budget.
fn places(c: Class, sz: u32, al: u32, budget: &RegBudget) -> u32 {
    let lim = limit(c, budget);
    let mut b = 0;
    let mut k = 0;
    while b + sz <= lim {
        if (b..b + sz).all(|r| allowed(c, r, budget)) {
            k += 1;
        }
        b += al;
    }
    k
}

/// How many of `n`'s places neighbour `m` can take at most.
fn blocks(ns: &Nodes, n: usize, m: usize) -> u32 {
    let (x, y) = (&ns.nodes[n], &ns.nodes[m]);
    y.size.div_ceil(x.align) + u32::from(y.align < x.align && y.size > 1)
}

/// Simplify (Chaitin/Briggs): repeatedly take out a node whose neighbours
/// left cannot take all its places, else the one with the fewest
/// references per neighbour (optimistically); colour in reverse.
fn briggs_order(ns: &Nodes, g: &Graph, budget: &RegBudget) -> Vec<usize> {
    let n = ns.nodes.len();
    let avail: Vec<u32> = ns
        .nodes
        .iter()
        .map(|x| places(x.class, x.size, x.align, budget).saturating_sub(0))
        .collect();
    let mut pressure: Vec<u32> = (0..n)
        .map(|k| g.nbrs(k).map(|m| blocks(ns, k, m)).sum::<u32>() + g.fixed[k].len() as u32)
        .collect();
    let mut gone = vec![false; n];
    // The nodes not gone yet, ascending.
    let mut alive: Vec<usize> = (0..n).collect();
    let mut stack = Vec::with_capacity(n);
    for _ in 0..n {
        let pick = alive
            .iter()
            .copied()
            .filter(|&k| pressure[k] < avail[k])
            .min_by_key(|&k| (pressure[k], k))
            .or_else(|| {
                alive.iter().copied().min_by_key(|&k| {
                    // Temporaries last to go out (first to be coloured).
                    let x = &ns.nodes[k];
                    (
                        x.temp,
                        (u64::from(x.refs) * 1024) / (u64::from(pressure[k]) + 1),
                        k,
                    )
                })
            });
        let Some(k) = pick else { break };
        gone[k] = true;
        if let Ok(at) = alive.binary_search(&k) {
            alive.remove(at);
        }
        stack.push(k);
        for m in g.nbrs(k) {
            if !gone[m] {
                pressure[m] = pressure[m].saturating_sub(blocks(ns, m, k));
            }
        }
    }
    stack.reverse();
    stack
}

/// Greedy colouring in `order`. A single register goes preferably into
/// the hole of a pair whose other half is taken (or not allocatable, as
/// R0 beside R1), and a pair into the half of a quad whose other half is
/// taken, so that aligned places stay free for the wide values. A node
/// that finds no place tries [`repair`].
fn colour_in(
    ns: &Nodes,
    g: &Graph,
    budget: &RegBudget,
    order: &[usize],
    singles_down: bool,
) -> Result<Partial, Vec<usize>> {
    let n = ns.nodes.len();
    let mut assign: Vec<Option<u32>> = vec![None; n];
    let mut busy = Busy::new(g);
    let mut failed = Vec::new();
    for &k in order {
        let node = &ns.nodes[k];
        let lim = limit(node.class, budget);
        let free = busy.free(ns, budget, k);
        let found = if singles_down && node.size == 1 {
            free.highest()
        } else {
            place(&free, node.size, node.align, lim)
        };
        match found.or_else(|| repair(ns, g, budget, &mut assign, &mut busy, k)) {
            Some(b) => {
                assign[k] = Some(b);
                busy.take(g, k, b, node.size);
            }
            None => failed.push(k),
        }
    }
    if failed.is_empty() {
        Ok(assign)
    } else {
        Err(failed)
    }
}

/// [`colour_in`], for the reference tests.
#[cfg(test)]
pub(super) fn colour_in_for_tests(
    ns: &Nodes,
    g: &Graph,
    budget: &RegBudget,
    order: &[usize],
    singles_down: bool,
) -> Result<Partial, Vec<usize>> {
    colour_in(ns, g, budget, order, singles_down)
}

/// Whether a node may be spilled: not a temporary, named by one
/// procedure only, and in a file with a spill path (general registers to
/// local memory, predicates to general registers).
fn spillable(ns: &Nodes, k: usize) -> bool {
    let x = &ns.nodes[k];
    !x.temp && x.proc.is_some() && matches!(x.class, Class::Gpr | Class::Pred)
}

/// For each failed node, a victim: the spillable node among it and its
/// neighbours (same file) that is live longest per reference (what spill
/// everywhere saves most registers for at the least code). Victims are
/// distinct. Fails when a node has no spillable candidate.
pub fn choose_victims(ns: &Nodes, g: &Graph, failed: &[usize]) -> Result<Vec<usize>, AllocError> {
    let mut out: Vec<usize> = Vec::new();
    for &f in failed {
        if out.contains(&f) || g.nbrs(f).any(|m| out.contains(&m)) {
            // A victim already chosen frees room for this one.
            continue;
        }
        let best = std::iter::once(f)
            .chain(g.nbrs(f))
            .filter(|&k| spillable(ns, k))
            .max_by_key(|&k| (score(ns, g, k), std::cmp::Reverse(k)));
        match best {
            Some(v) => out.push(v),
            None => {
                let x = &ns.nodes[f];
                return Err(AllocError(format!(
                    "cannot allocate {}{} ({} register{}): the registers needed at one point exceed the budget and nothing there can be spilled",
                    super::nodes::prefix(x.class),
                    x.lo,
                    x.size,
                    if x.size == 1 { "" } else { "s" }
                )));
            }
        }
    }
    Ok(out)
}

/// The victim score: live length per reference, times the size.
fn score(ns: &Nodes, g: &Graph, k: usize) -> u64 {
    let x = &ns.nodes[k];
    (u64::from(g.live_len[k]) * 1024) / (u64::from(x.refs) + 1) * u64::from(x.size)
}

/// Adds victims until the nodes live at the graph's peak
/// ([`Graph::peak`]) fit in the general registers the budget allows,
/// best score first. Where more registers are live at once than the
/// budget has, a colouring can only succeed after that excess is spilled;
/// the colourings fail a node or two at a time, so spilling only their
/// victims took a round per spill (a kernel with 384 loaded values live
/// at once: 136 rounds of about 30 colourings each). A victim spilled
/// everywhere leaves the peak's register free: it is not defined there
/// (excluded from the peak), and a use there ends its temporary.
pub fn pressure_victims(ns: &Nodes, g: &Graph, budget: &RegBudget, victims: &mut Vec<usize>) {
    let room = allowed_mask(Class::Gpr, budget).count();
    let size = |k: usize| ns.nodes[k].size;
    let mut live = g.peak_size;
    for &k in &g.peak {
        if victims.contains(&(k as usize)) {
            live -= size(k as usize);
        }
    }
    if live <= room {
        return;
    }
    let mut cands: Vec<usize> = g
        .peak
        .iter()
        .map(|&k| k as usize)
        .filter(|&k| spillable(ns, k) && !victims.contains(&k))
        .collect();
    cands.sort_by_key(|&k| (std::cmp::Reverse(score(ns, g, k)), k));
    for k in cands {
        if live <= room {
            break;
        }
        live -= size(k);
        victims.push(k);
    }
}

#[cfg(test)]
mod mask_tests {
    use super::*;

    /// The first version's search: every aligned base in turn, the first
    /// snug one for singles and pairs, else the first that fits.
    fn place_by_loop(free: &RegMask, size: u32, align: u32, lim: u32) -> Option<u32> {
        let fits = |b: u32| free.contains_range(b, size);
        let snug = |b: u32| {
            let w = size.max(align);
            let other = (b ^ w)..(b ^ w) + w;
            other.clone().all(|r| r < lim) && other.clone().any(|r| !free.contains(r))
        };
        let mut fallback = None;
        let mut b = 0;
        while b + size <= lim {
            if fits(b) {
                if size > 2 || snug(b) {
                    return Some(b);
                }
                fallback.get_or_insert(b);
            }
            b += align;
        }
        fallback
    }

    #[test]
    fn place_matches_the_loop() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for i in 0..3000 {
            let lim = [7, 24, 63, 64, 128, 200, 255][i % 7];
            // Mostly taken registers, as when the colouring is tight.
            let mut free = RegMask::below(lim);
            for _ in 0..(next() % 300) {
                free.remove((next() % 256) as u32);
            }
            for (size, align) in [(1, 1), (2, 2), (4, 4), (2, 1)] {
                assert_eq!(
                    place(&free, size, align, lim),
                    place_by_loop(&free, size, align, lim),
                    "{free:?} size {size} align {align} lim {lim}"
                );
            }
        }
    }

    /// The mask the colouring tests registers against agrees with the
    /// one-register rule for every file and a range of budgets.
    #[test]
    fn allowed_mask_matches_allowed() {
        for n in [0, 1, 2, 3, 24, 64, 65, 128, 254, 255, 256, 300] {
            let budget = RegBudget::of(n);
            for c in [Class::Gpr, Class::Pred, Class::Ureg, Class::Upred] {
                let m = allowed_mask(c, &budget);
                for r in 0..300 {
                    assert_eq!(
                        m.contains(r),
                        allowed(c, r, &budget),
                        "{c:?} r{r} budget {n}"
                    );
                }
            }
        }
    }
}
