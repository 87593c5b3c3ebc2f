//! Natural loops: a back edge is an edge `t -> h` whose target dominates
//! its source; the loop of `h` is `h` plus every block that reaches a
//! latch `t` without passing through `h`. Back edges to the same header
//! make one loop. Loops nest by containment; a block's depth is the number
//! of loops that contain it.
//!
//! Retreating edges whose target does not dominate the source (irreducible
//! control flow) form no loop here; ptxas emits none in the corpus (the
//! vendor test checks that every retreating edge is a back edge).

use super::cfg::Cfg;
use super::dom::DomTree;

/// One natural loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub header: usize,
    /// The sources of its back edges, sorted.
    pub latches: Vec<usize>,
    /// Every block of the loop, header included, sorted.
    pub blocks: Vec<usize>,
    /// The innermost loop that strictly contains this one.
    pub parent: Option<usize>,
    /// 1 for an outermost loop.
    pub depth: u32,
}

/// The loops of a function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInfo {
    /// Outer loops before the loops they contain.
    pub loops: Vec<Loop>,
    /// The innermost loop of each block.
    pub innermost: Vec<Option<usize>>,
}

impl LoopInfo {
    pub fn new(cfg: &Cfg, dom: &DomTree) -> LoopInfo {
        let n = cfg.num_blocks();
        let mut by_header: Vec<(usize, Vec<usize>)> = Vec::new();
        for &t in &cfg.rpo {
            for &h in &cfg.succs[t] {
                if dom.dominates(h, t) {
                    match by_header.iter_mut().find(|(x, _)| *x == h) {
                        Some((_, l)) => l.push(t),
                        None => by_header.push((h, vec![t])),
                    }
                }
            }
        }
        let mut loops: Vec<Loop> = by_header
            .into_iter()
            .map(|(header, mut latches)| {
                latches.sort_unstable();
                latches.dedup();
                let mut inside = vec![false; n];
                inside[header] = true;
                let mut stack: Vec<usize> = latches.clone();
                for &l in &latches {
                    inside[l] = true;
                }
                while let Some(b) = stack.pop() {
                    if b == header {
                        continue;
                    }
                    for &p in &cfg.preds[b] {
                        if cfg.reachable[p] && !inside[p] {
                            inside[p] = true;
                            stack.push(p);
                        }
                    }
                }
                Loop {
                    header,
                    latches,
                    blocks: (0..n).filter(|&b| inside[b]).collect(),
                    parent: None,
                    depth: 0,
                }
            })
            .collect();
        // Outer (larger) loops first; a loop's parent is the smallest
        // earlier loop that contains its header.
        loops.sort_by_key(|l| (std::cmp::Reverse(l.blocks.len()), l.header));
        for i in 0..loops.len() {
            let h = loops[i].header;
            let parent = (0..i)
                .rev()
                .filter(|&j| loops[j].blocks.binary_search(&h).is_ok())
                .min_by_key(|&j| loops[j].blocks.len());
            loops[i].parent = parent;
            loops[i].depth = parent.map_or(1, |p| loops[p].depth + 1);
        }
        let mut innermost: Vec<Option<usize>> = vec![None; n];
        for (i, l) in loops.iter().enumerate() {
            for &b in &l.blocks {
                // Later loops are nested deeper (or disjoint).
                if innermost[b].is_none_or(|j| loops[j].depth < l.depth) {
                    innermost[b] = Some(i);
                }
            }
        }
        LoopInfo { loops, innermost }
    }

    /// The loop nesting depth of block `b` (0 outside every loop).
    pub fn depth(&self, b: usize) -> u32 {
        self.innermost[b].map_or(0, |i| self.loops[i].depth)
    }

    /// Whether block `b` heads a loop.
    pub fn is_header(&self, b: usize) -> bool {
        self.loops.iter().any(|l| l.header == b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;

    fn info(text: &str) -> LoopInfo {
        let f = func(text);
        let cfg = Cfg::new(&f);
        let dom = DomTree::new(&cfg);
        LoopInfo::new(&cfg, &dom)
    }

    #[test]
    fn nested_loops() {
        // 0 -> 1 (outer header) -> 2 (inner header, self loop) -> 3 -> 1 | 4.
        let li = info(
            ".L_x_0:
             MOV R0, RZ ;
             .L_x_1:
             MOV R1, RZ ;
             .L_x_2:
             IADD3 R1, R1, 0x1, RZ ;
             ISETP.NE.AND P0, PT, R1, 0x4, PT ;
             @P0 BRA .L_x_2 ;
             .L_x_3:
             IADD3 R0, R0, 0x1, RZ ;
             ISETP.NE.AND P1, PT, R0, 0x4, PT ;
             @P1 BRA .L_x_1 ;
             .L_x_4:
             EXIT ;",
        );
        assert_eq!(li.loops.len(), 2);
        let outer = &li.loops[0];
        assert_eq!(
            (outer.header, &outer.latches, &outer.blocks),
            (1, &vec![3], &vec![1, 2, 3])
        );
        assert_eq!((outer.parent, outer.depth), (None, 1));
        let inner = &li.loops[1];
        assert_eq!(
            (inner.header, &inner.latches, &inner.blocks),
            (2, &vec![2], &vec![2])
        );
        assert_eq!((inner.parent, inner.depth), (Some(0), 2));
        assert_eq!(
            (0..5).map(|b| li.depth(b)).collect::<Vec<_>>(),
            vec![0, 1, 2, 1, 0]
        );
        assert!(li.is_header(1) && li.is_header(2) && !li.is_header(3));
    }

    #[test]
    fn two_latches_one_loop() {
        // Header 1 with back edges from 2 (continue) and 3 (bottom).
        let li = info(
            ".L_x_0:
             NOP ;
             .L_x_1:
             @P0 BRA .L_x_3 ;
             .L_x_2:
             @P1 BRA .L_x_1 ;
             .L_x_3:
             @P2 BRA .L_x_1 ;
             .L_x_4:
             EXIT ;",
        );
        assert_eq!(li.loops.len(), 1);
        assert_eq!(li.loops[0].latches, vec![2, 3]);
        assert_eq!(li.loops[0].blocks, vec![1, 2, 3]);
    }
}
