//! Dominators: the Cooper–Harvey–Kennedy iterative algorithm ("A Simple,
//! Fast Dominance Algorithm", 2001) over the reachable blocks of a
//! [`Cfg`].
//!
//! A function may have several roots (the kernel entry and each callee
//! entry, see [`Cfg::roots`]); the algorithm runs on the graph extended by
//! a virtual root with an edge to each of them, so every root's immediate
//! dominator is the virtual root ([`DomTree::idom`] gives `None`), and a
//! block reached from two procedures is dominated by neither entry.
//! Unreachable blocks have no dominator and dominate nothing.

use super::cfg::Cfg;

/// The dominator tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomTree {
    /// The immediate dominator of each block: `None` for roots, for blocks
    /// whose only common dominator is the virtual root, and for
    /// unreachable blocks.
    idom: Vec<Option<usize>>,
    /// Pre/post numbers of a depth-first walk of the tree, for O(1)
    /// `dominates`.
    pre: Vec<u32>,
    post: Vec<u32>,
    reachable: Vec<bool>,
    children: Vec<Vec<usize>>,
}

impl DomTree {
    pub fn new(cfg: &Cfg) -> DomTree {
        let n = cfg.num_blocks();
        let virt = n; // the virtual root's index
        let order = cfg.rpo_index();
        // RPO position of the virtual root: before everything.
        let pos = |b: usize| if b == virt { 0 } else { order[b] + 1 };
        let mut idom: Vec<Option<usize>> = vec![None; n + 1];
        idom[virt] = Some(virt);
        for &r in &cfg.roots {
            idom[r] = Some(virt);
        }
        let intersect = |idom: &Vec<Option<usize>>, mut a: usize, mut b: usize| -> usize {
            while a != b {
                while pos(a) > pos(b) {
                    a = idom[a].expect("processed");
                }
                while pos(b) > pos(a) {
                    b = idom[b].expect("processed");
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &b in &cfg.rpo {
                if cfg.roots.contains(&b) {
                    continue;
                }
                let mut new: Option<usize> = None;
                for &p in &cfg.preds[b] {
                    if !cfg.reachable[p] || idom[p].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(x) => intersect(&idom, p, x),
                    });
                }
                if new.is_some() && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        let idom: Vec<Option<usize>> = idom[..n].iter().map(|d| d.filter(|&d| d != virt)).collect();
        let mut children = vec![Vec::new(); n];
        for (b, d) in idom.iter().enumerate() {
            if let Some(d) = d {
                children[*d].push(b);
            }
        }
        // Number the tree (a forest under the virtual root).
        let mut pre = vec![0; n];
        let mut post = vec![0; n];
        let mut clock = 0u32;
        let tops: Vec<usize> = (0..n)
            .filter(|&b| cfg.reachable[b] && idom[b].is_none())
            .collect();
        for t in tops {
            let mut st = vec![(t, 0usize)];
            clock += 1;
            pre[t] = clock;
            while let Some(top) = st.last_mut() {
                let (b, i) = *top;
                if i < children[b].len() {
                    top.1 += 1;
                    let c = children[b][i];
                    clock += 1;
                    pre[c] = clock;
                    st.push((c, 0));
                } else {
                    clock += 1;
                    post[b] = clock;
                    st.pop();
                }
            }
        }
        DomTree {
            idom,
            pre,
            post,
            reachable: cfg.reachable.clone(),
            children,
        }
    }

    /// The immediate dominator of `b`.
    pub fn idom(&self, b: usize) -> Option<usize> {
        self.idom[b]
    }

    /// The blocks `b` immediately dominates.
    pub fn children(&self, b: usize) -> &[usize] {
        &self.children[b]
    }

    /// Whether `a` dominates `b` (every block dominates itself; an
    /// unreachable block dominates nothing and is dominated by nothing).
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        self.reachable[a]
            && self.reachable[b]
            && self.pre[a] <= self.pre[b]
            && self.post[b] <= self.post[a]
    }

    /// Whether `a` dominates `b` and differs from it.
    pub fn strictly_dominates(&self, a: usize, b: usize) -> bool {
        a != b && self.dominates(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::cfg::tests::func;

    #[test]
    fn diamond() {
        // 0 -> {1, 2} -> 3: the entry dominates all; neither arm dominates
        // the join, whose idom is the entry.
        let f = func(
            ".L_x_0:
             @P0 BRA .L_x_2 ;
             .L_x_1:
             BRA .L_x_3 ;
             .L_x_2:
             NOP ;
             .L_x_3:
             EXIT ;",
        );
        let d = DomTree::new(&Cfg::new(&f));
        assert_eq!(
            (0..4).map(|b| d.idom(b)).collect::<Vec<_>>(),
            vec![None, Some(0), Some(0), Some(0)]
        );
        assert!(d.dominates(0, 3) && d.dominates(3, 3));
        assert!(!d.dominates(1, 3) && !d.dominates(2, 3) && !d.dominates(3, 0));
        assert!(d.strictly_dominates(0, 1) && !d.strictly_dominates(1, 1));
    }

    #[test]
    fn loop_with_exit() {
        // 0 -> 1 (header) -> 2 (body) -> {1 (back edge), 3}; 3 -> exit.
        // idom: 1 <- 0, 2 <- 1, 3 <- 2.
        let f = func(
            ".L_x_0:
             MOV R0, RZ ;
             .L_x_1:
             IADD3 R0, R0, 0x1, RZ ;
             .L_x_2:
             ISETP.NE.AND P0, PT, R0, 0x10, PT ;
             @P0 BRA .L_x_1 ;
             .L_x_3:
             EXIT ;
             .L_x_4:
             BRA .L_x_4 ;",
        );
        let d = DomTree::new(&Cfg::new(&f));
        assert_eq!(
            (0..5).map(|b| d.idom(b)).collect::<Vec<_>>(),
            vec![None, Some(0), Some(1), Some(2), None]
        );
        assert!(d.dominates(1, 2) && d.dominates(1, 3) && !d.dominates(2, 1));
        // The unreachable padding block takes part in nothing.
        assert!(!d.dominates(4, 4) && !d.dominates(0, 4));
    }

    #[test]
    fn callee_is_its_own_root() {
        let f = func(
            ".L_x_0:
             CALL.REL.NOINC .L_x_1 ;
             EXIT ;
             .L_x_1:
             @P0 BRA .L_x_3 ;
             .L_x_2:
             NOP ;
             .L_x_3:
             RET.REL.NODEC R4 0x0 ;",
        );
        let d = DomTree::new(&Cfg::new(&f));
        assert_eq!(
            (0..4).map(|b| d.idom(b)).collect::<Vec<_>>(),
            vec![None, None, Some(1), Some(1)]
        );
        assert!(!d.dominates(0, 1) && d.dominates(1, 3));
    }
}
