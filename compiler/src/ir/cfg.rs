//! The control-flow graph: successors and predecessors of each block, from
//! its last instruction and layout fallthrough; calls; reverse postorder;
//! reachability.
//!
//! Edges, by the block's last instruction (docs/MODEL.md, Control transfer: "control transfer
//! only at the end of a block"; `CALL` may stand anywhere):
//!
//! | last instruction | successors |
//! |---|---|
//! | `BRA L`, `JMP L` | `L`; plus the next block when conditional: guarded by anything but `@PT`, with a predicate operand other than `PT` (`@P0 BRA P1, L` is taken when both hold), with a register operand (`BRA.DIV UR5, L`, `BRA.DIV ~URZ, L`), or `.DIV` (taken only by a diverged warp). `@!PT BRA` and `BRA !PT, L` are never taken: next block only |
//! | `BRX`, `JMX` (indirect) | the targets are in a jump table in constant memory, not in the code. The block is flagged [`Cfg::indirect`] and its successors are the *candidate targets*: (a) the blocks laid out after it up to and including the reconvergence block of the innermost enclosing `BSSY` (the nearest earlier `BSSY` whose target lies after the branch), or every later block when there is none; and (b) every block that nothing else reaches (no branch, fallthrough or call edge; not the entry). ptxas's end padding (below) and callee entries are never candidates. ptxas lowers a `switch` to a `BRX` inside a `BSSY` region with the case bodies after it and the default going straight to the reconvergence block (switch_local: `IMAD.MOV.U32 R8, RZ, RZ, 0x3039` is the default result, read only at the join, reached from the jump table) — which (b) alone would miss |
//! | `EXIT`, `KILL`, `RTT`, `BPT` | none (the thread ends, or traps); plus the next block when guarded |
//! | `RET` | none inside the procedure; plus the next block when guarded. Where a `RET` returns to is a property of the calls ([`Cfg::calls`], [`Cfg::procs`]): liveness joins the live sets after every call of the procedure into its returns |
//! | `CALL L` (anywhere in a block) | falls through to the next instruction; the call is recorded in [`Cfg::calls`], and `L` becomes a root: reachability, reverse postorder and dominators include the callee |
//! | `CALL R off` (through a register) | falls through; recorded with no target. Its candidate callees are unknown: every block that nothing else reaches (no branch, fallthrough or call edge; not the entry, not padding) becomes a root, as the candidates of `BRX` do (ptxc's address-taken `.func`s, reached only through their addresses, are such blocks); so does every direct `CALL` target whose label another instruction names (ptxc's `MOV %r, .L_f` of a `.func` also called directly; ptxas's listings hold the address as a number, `UMOV UR4, 0xc0`, and get the first rule only). Without the second rule a `.func` that calls itself through its own address lost its caller's stack pointer: the return site inside it was no return site of its `RET`, so the pop after the call looked dead |
//! | anything else | the next block |
//!
//! The last block must not fall through past the end of the function when
//! it is reachable ([`Cfg::falls_off_end`]).
//!
//! ptxas pads every listing with `BRA self` (a one-instruction block that
//! branches to itself) followed by `NOP`s up to an alignment boundary; both
//! are unreachable, and neither is an address-taken candidate.

use super::func::{Function, LabelIndex};
use super::inst::{Inst, Operand};
use super::opcode::Op;
use super::sass_text::Pred;

/// One `CALL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallSite {
    pub block: usize,
    pub inst: usize,
    /// The callee's entry block, when the target is a label of the
    /// function; `None` for an absolute or register target.
    pub target: Option<usize>,
}

/// A procedure inside the function: the kernel (entry block 0) or a
/// callee (a `CALL` target), with the blocks reachable from its entry
/// without following calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proc {
    pub entry: usize,
    /// Sorted block indices.
    pub blocks: Vec<usize>,
    /// The blocks that end in `RET`.
    pub rets: Vec<usize>,
}

/// How a block's last instruction leaves it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Exit {
    targets: Vec<u32>,
    falls_through: bool,
    indirect: bool,
}

fn pred_true(p: Pred, not: bool) -> Option<bool> {
    matches!(p, Pred::Pt | Pred::Upt).then_some(!not)
}

/// Whether the branch condition of `inst` is always true (`Some(true)`),
/// never (`Some(false)`), or depends on the state (`None`).
fn condition(inst: &Inst) -> Option<bool> {
    let mut cond = Some(true);
    if let Some(g) = inst.guard {
        match pred_true(g.pred, g.negated) {
            Some(false) => return Some(false),
            Some(true) => {}
            None => cond = None,
        }
    }
    for o in inst.srcs() {
        match o {
            Operand::Pred { pred, not } => match pred_true(*pred, *not) {
                Some(false) => return Some(false),
                Some(true) => {}
                None => cond = None,
            },
            Operand::Reg(_) => cond = None,
            _ => {}
        }
    }
    if inst.has_mod("DIV") {
        cond = None;
    }
    cond
}

/// Whether `inst` transfers control (so it must end its block), `CALL`
/// excepted.
pub fn is_terminator(inst: &Inst) -> bool {
    matches!(
        inst.op,
        Op::BRA | Op::JMP | Op::BRX | Op::JMX | Op::EXIT | Op::RET | Op::KILL | Op::RTT | Op::BPT
    )
}

fn exit_of(inst: Option<&Inst>) -> Exit {
    let Some(inst) = inst else {
        return Exit {
            targets: vec![],
            falls_through: true,
            indirect: false,
        };
    };
    let guarded = inst
        .guard
        .is_some_and(|g| pred_true(g.pred, g.negated) != Some(true));
    match inst.op {
        Op::BRA | Op::JMP => match condition(inst) {
            Some(true) => Exit {
                targets: inst.targets().collect(),
                falls_through: false,
                indirect: false,
            },
            Some(false) => Exit {
                targets: vec![],
                falls_through: true,
                indirect: false,
            },
            None => Exit {
                targets: inst.targets().collect(),
                falls_through: true,
                indirect: false,
            },
        },
        Op::BRX | Op::JMX => Exit {
            targets: vec![],
            falls_through: guarded,
            indirect: !crate::ir::regs::never_executes(inst),
        },
        Op::EXIT | Op::RET | Op::KILL | Op::RTT | Op::BPT => Exit {
            targets: vec![],
            falls_through: guarded,
            indirect: false,
        },
        _ => Exit {
            targets: vec![],
            falls_through: true,
            indirect: false,
        },
    }
}

/// Whether control can fall from a block ending in `last` (`None`: an
/// empty block) into the next block in layout, by the table above.
pub fn falls_through(last: Option<&Inst>) -> bool {
    exit_of(last).falls_through
}

/// Whether `inst` is an indirect branch (`BRX`, `JMX`) that may execute:
/// its candidate targets depend on the layout (the table above).
pub fn is_indirect(inst: &Inst) -> bool {
    exit_of(Some(inst)).indirect
}

/// Whether block `b` is ptxas's end padding: a lone unguarded `BRA` to
/// itself, or nothing but `NOP`s.
pub fn is_padding(f: &Function, b: usize) -> bool {
    let blk = &f.blocks[b];
    let self_loop = blk.insts.len() == 1
        && blk.insts[0].op == Op::BRA
        && blk.insts[0].guard.is_none()
        && blk.insts[0].targets().eq([blk.label]);
    self_loop || (!blk.insts.is_empty() && blk.insts.iter().all(|i| i.op == Op::NOP))
}

/// The control-flow graph of a function.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Successor block indices of each block, without duplicates, in the
    /// order: branch targets, then the fallthrough block.
    pub succs: Vec<Vec<usize>>,
    pub preds: Vec<Vec<usize>>,
    /// Blocks that end in an indirect branch (`BRX`, `JMX`); their
    /// successors are the address-taken candidates (module comment).
    pub indirect: Vec<bool>,
    /// Every `CALL`, in layout order.
    pub calls: Vec<CallSite>,
    /// The roots: block 0, then each reachable callee entry in the order
    /// the reverse postorder first meets a call to it.
    pub roots: Vec<usize>,
    /// The procedures, one per root, in the same order.
    pub procs: Vec<Proc>,
    /// Reverse postorder of the reachable blocks: for each root in order,
    /// a depth-first search from it over successor edges (calls are not
    /// followed; their targets are the later roots).
    pub rpo: Vec<usize>,
    pub reachable: Vec<bool>,
    /// Whether the last block is reachable and control can run past it.
    pub falls_off_end: bool,
    /// Whether each block's control can continue into the next block.
    pub falls_through: Vec<bool>,
    /// The candidate callees of every `CALL` through a register (the
    /// blocks nothing else reaches, module comment); empty without one.
    pub register_callees: Vec<usize>,
    /// The function's labels ([`Function::label_index`]), taken once here
    /// for the edges and kept: the passes that build a CFG look labels up
    /// too, and building the map again cost them as much as the edges.
    labels: LabelIndex,
}

/// Equality of the graphs: every field but the label index, which is
/// derived from the function's labels rather than part of the graph (two
/// functions that differ only in their label numbers have equal CFGs, as
/// before the index was kept here).
impl PartialEq for Cfg {
    fn eq(&self, o: &Cfg) -> bool {
        let Cfg {
            succs,
            preds,
            indirect,
            calls,
            roots,
            procs,
            rpo,
            reachable,
            falls_off_end,
            falls_through,
            register_callees,
            labels: _,
        } = self;
        *succs == o.succs
            && *preds == o.preds
            && *indirect == o.indirect
            && *calls == o.calls
            && *roots == o.roots
            && *procs == o.procs
            && *rpo == o.rpo
            && *reachable == o.reachable
            && *falls_off_end == o.falls_off_end
            && *falls_through == o.falls_through
            && *register_callees == o.register_callees
    }
}

impl Eq for Cfg {}

impl Cfg {
    pub fn new(f: &Function) -> Cfg {
        let n = f.blocks.len();
        let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut indirect = vec![false; n];
        let mut falls_through = vec![false; n];
        let mut falls_off_end = false;
        let mut calls = Vec::new();
        let index = f.label_index();
        for (b, blk) in f.blocks.iter().enumerate() {
            let e = exit_of(blk.insts.last());
            for t in &e.targets {
                if let Some(i) = index.get(*t) {
                    if !succs[b].contains(&i) {
                        succs[b].push(i);
                    }
                }
            }
            falls_through[b] = e.falls_through;
            if e.falls_through {
                if b + 1 < n {
                    if !succs[b].contains(&(b + 1)) {
                        succs[b].push(b + 1);
                    }
                } else {
                    falls_off_end = true;
                }
            }
            indirect[b] = e.indirect;
            for (ii, inst) in blk.insts.iter().enumerate() {
                if inst.op == Op::CALL {
                    let target = inst.targets().next().and_then(|l| index.get(l));
                    calls.push(CallSite {
                        block: b,
                        inst: ii,
                        target,
                    });
                }
            }
        }
        // Candidate targets of indirect branches.
        if indirect.iter().any(|&x| x) {
            let starts = f.block_addresses();
            let is_callee = |b: usize| calls.iter().any(|c| c.target == Some(b));
            let orphans = orphan_blocks(f, &succs, &calls);
            for b in 0..n {
                if !indirect[b] {
                    continue;
                }
                // The innermost enclosing BSSY region's reconvergence block.
                let end = (0..=b)
                    .rev()
                    .flat_map(|x| f.blocks[x].insts.iter().rev())
                    .filter(|i| i.op == Op::BSSY)
                    .filter_map(|i| i.targets().next().and_then(|l| index.get(l)))
                    .find(|&t| starts[t] > starts[b])
                    .unwrap_or(n - 1);
                let window = (b + 1..=end).filter(|&c| !is_padding(f, c) && !is_callee(c));
                for c in window.chain(orphans.iter().copied()).collect::<Vec<_>>() {
                    if !succs[b].contains(&c) {
                        succs[b].push(c);
                    }
                }
            }
        }
        let mut preds = vec![Vec::new(); n];
        for (b, ss) in succs.iter().enumerate() {
            for &s in ss {
                preds[s].push(b);
            }
        }
        // Roots, procedures, reverse postorder, reachability.
        let mut reachable = vec![false; n];
        let mut rpo = Vec::with_capacity(n);
        let mut roots = Vec::new();
        let mut procs = Vec::new();
        let mut pending = if n > 0 { vec![0usize] } else { vec![] };
        // A `CALL` through a register: its candidate callees are the
        // blocks nothing else reaches (as for BRX, (b) above), each a root.
        let mut register_callees = Vec::new();
        if calls.iter().any(|c| {
            c.target.is_none()
                && super::regs::calls_through_register(&f.blocks[c.block].insts[c.inst])
        }) {
            register_callees = orphan_blocks(f, &succs, &calls);
            register_callees.extend(named_call_targets(f, &calls, &index));
            register_callees.sort_unstable();
            register_callees.dedup();
            pending.extend(register_callees.iter().copied());
        }
        let mut qi = 0;
        while qi < pending.len() {
            let root = pending[qi];
            qi += 1;
            if roots.contains(&root) {
                continue;
            }
            roots.push(root);
            // The procedure: blocks reachable from the root (ignoring the
            // global visited set, so shared code belongs to every caller).
            let mut seen = vec![false; n];
            let mut stack = vec![root];
            seen[root] = true;
            while let Some(b) = stack.pop() {
                for &s in &succs[b] {
                    if !seen[s] {
                        seen[s] = true;
                        stack.push(s);
                    }
                }
            }
            let blocks: Vec<usize> = (0..n).filter(|&b| seen[b]).collect();
            let rets = blocks
                .iter()
                .copied()
                .filter(|&b| f.blocks[b].insts.last().is_some_and(|i| i.op == Op::RET))
                .collect();
            // Iterative DFS for postorder, skipping blocks already placed.
            let mut post = Vec::new();
            if !reachable[root] {
                reachable[root] = true;
                let mut st: Vec<(usize, usize)> = vec![(root, 0)];
                while let Some(top) = st.last_mut() {
                    let (b, i) = *top;
                    if i < succs[b].len() {
                        top.1 += 1;
                        let s = succs[b][i];
                        if !reachable[s] {
                            reachable[s] = true;
                            st.push((s, 0));
                        }
                    } else {
                        post.push(b);
                        st.pop();
                    }
                }
            }
            post.reverse();
            // Calls in the procedure's blocks make their targets roots,
            // in reverse postorder of the call sites.
            for &b in &post {
                for c in calls.iter().filter(|c| c.block == b) {
                    if let Some(t) = c.target {
                        pending.push(t);
                    }
                }
            }
            rpo.extend(post);
            procs.push(Proc {
                entry: root,
                blocks,
                rets,
            });
        }
        let falls_off_end = falls_off_end && n > 0 && reachable[n - 1];
        Cfg {
            succs,
            preds,
            indirect,
            calls,
            roots,
            procs,
            rpo,
            reachable,
            falls_off_end,
            falls_through,
            register_callees,
            labels: index,
        }
    }

    /// The label index of the function the graph was built from
    /// ([`Function::label_index`]): valid only while that function's
    /// blocks keep their labels and order.
    pub fn label_index(&self) -> &LabelIndex {
        &self.labels
    }

    pub fn num_blocks(&self) -> usize {
        self.succs.len()
    }

    /// The procedures (by index into [`Cfg::procs`]) that contain block `b`.
    pub fn procs_of(&self, b: usize) -> impl Iterator<Item = usize> + '_ {
        self.procs
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.blocks.binary_search(&b).is_ok())
            .map(|(i, _)| i)
    }

    /// The position of each block in [`Cfg::rpo`] (`usize::MAX` when
    /// unreachable).
    pub fn rpo_index(&self) -> Vec<usize> {
        let mut idx = vec![usize::MAX; self.num_blocks()];
        for (i, &b) in self.rpo.iter().enumerate() {
            idx[b] = i;
        }
        idx
    }
}

/// The blocks nothing reaches: not the entry, no edge in `succs`, no
/// direct call; padding excluded. The candidate targets of `BRX` and of a
/// `CALL` through a register.
/// The direct `CALL` targets whose label an instruction other than a
/// `CALL` names (an address taken: `MOV R15, .L_x_1`).
fn named_call_targets(f: &Function, calls: &[CallSite], index: &LabelIndex) -> Vec<usize> {
    let targets: Vec<usize> = calls.iter().filter_map(|c| c.target).collect();
    let mut out = Vec::new();
    for inst in f.insts().filter(|i| i.op != Op::CALL) {
        for o in &inst.operands {
            if let Operand::Label(l) = o {
                if let Some(b) = index.get(*l) {
                    if targets.contains(&b) && !out.contains(&b) {
                        out.push(b);
                    }
                }
            }
        }
    }
    out
}

fn orphan_blocks(f: &Function, succs: &[Vec<usize>], calls: &[CallSite]) -> Vec<usize> {
    let n = f.blocks.len();
    let mut has_pred = vec![false; n];
    if n > 0 {
        has_pred[0] = true;
    }
    for s in succs.iter().flatten() {
        has_pred[*s] = true;
    }
    for c in calls {
        if let Some(t) = c.target {
            has_pred[t] = true;
        }
    }
    (0..n)
        .filter(|&b| !has_pred[b] && !is_padding(f, b))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ir::sass_text::parse_file;

    /// A function from labelled SASS text: `.L_x_N:` lines start blocks.
    pub(crate) fn func(body: &str) -> Function {
        let mut text = String::from("\t\tFunction : t\n");
        let mut addr = 0;
        for line in body.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if line.starts_with(".L_x_") {
                text.push_str(line);
            } else {
                text.push_str(&format!("        /*{addr:04x}*/ {line}"));
                addr += 16;
            }
            text.push('\n');
        }
        let file = parse_file(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        crate::ir::from_sass(&file.functions[0], None).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    #[test]
    fn the_kept_label_index_is_the_functions_and_no_part_of_equality() {
        let shape = |l: [u32; 3]| {
            func(&format!(
                ".L_x_{}:
                 @P0 BRA .L_x_{} ;
                 .L_x_{}:
                 MOV R1, 0x1 ;
                 .L_x_{}:
                 EXIT ;",
                l[0], l[2], l[1], l[2]
            ))
        };
        let (f, g) = (shape([0, 1, 2]), shape([7, 3, 5]));
        let (cf, cg) = (Cfg::new(&f), Cfg::new(&g));
        assert_eq!(cf.label_index(), &f.label_index());
        assert_eq!(cg.label_index(), &g.label_index());
        assert_eq!(cg.label_index().get(5), Some(2));
        assert_ne!(cf.label_index(), cg.label_index());
        // The same graph under other label numbers.
        assert_eq!(cf, cg);
        let mut h = shape([0, 1, 2]);
        h.blocks[0].insts[0].guard = None;
        assert_ne!(Cfg::new(&h), cf);
    }

    #[test]
    fn diamond() {
        // 0: branch to 2 or fall into 1; 1 jumps to 3; 2 falls into 3.
        let f = func(
            ".L_x_0:
             ISETP.NE.AND P0, PT, R0, RZ, PT ;
             @P0 BRA .L_x_2 ;
             .L_x_1:
             MOV R1, 0x1 ;
             BRA .L_x_3 ;
             .L_x_2:
             MOV R1, 0x2 ;
             .L_x_3:
             EXIT ;",
        );
        let g = Cfg::new(&f);
        assert_eq!(g.succs, vec![vec![2, 1], vec![3], vec![3], vec![]]);
        assert_eq!(g.preds, vec![vec![], vec![0], vec![0], vec![1, 2]]);
        // DFS visits 2 first (branch target before fallthrough).
        assert_eq!(g.rpo, vec![0, 1, 2, 3]);
        assert!(g.reachable.iter().all(|&r| r));
        assert!(!g.falls_off_end);
    }

    #[test]
    fn conditions() {
        let f = func(
            ".L_x_0:
             @!PT BRA .L_x_3 ;
             .L_x_1:
             @P0 BRA P1, .L_x_3 ;
             .L_x_2:
             BRA.DIV UR5, .L_x_3 ;
             .L_x_4:
             @P2 EXIT ;
             .L_x_5:
             BRA !PT, .L_x_3 ;
             .L_x_6:
             @P1 RET.REL.NODEC R4 0x0 ;
             .L_x_7:
             BRA PT, .L_x_8 ;
             .L_x_3:
             EXIT ;
             .L_x_8:
             NOP ;",
        );
        let g = Cfg::new(&f);
        assert_eq!(g.succs[0], vec![1]);
        assert_eq!(g.succs[1], vec![7, 2]);
        assert_eq!(g.succs[2], vec![7, 3]);
        assert_eq!(g.succs[3], vec![4]);
        assert_eq!(g.succs[4], vec![5]);
        assert_eq!(g.succs[5], vec![6]);
        assert_eq!(g.succs[6], vec![8]);
        assert_eq!(g.succs[7], Vec::<usize>::new());
        // The last block (NOP) falls off the end and is reachable.
        assert!(g.falls_off_end);
    }

    #[test]
    fn calls_and_padding() {
        let f = func(
            ".L_x_0:
             MOV R4, 0x20 ;
             CALL.REL.NOINC .L_x_2 ;
             EXIT ;
             .L_x_1:
             BRA .L_x_1 ;
             .L_x_2:
             IADD3 R2, R2, 0x1, RZ ;
             RET.REL.NODEC R4 0x0 ;
             .L_x_3:
             NOP ;
             NOP ;",
        );
        let g = Cfg::new(&f);
        assert_eq!(
            g.calls,
            vec![CallSite {
                block: 0,
                inst: 1,
                target: Some(2)
            }]
        );
        assert_eq!(g.roots, vec![0, 2]);
        assert_eq!(g.rpo, vec![0, 2]);
        assert_eq!(g.reachable, vec![true, false, true, false]);
        assert_eq!(g.procs[1].rets, vec![2]);
        assert!(is_padding(&f, 1) && is_padding(&f, 3) && !is_padding(&f, 2));
        assert!(!g.falls_off_end);
    }

    #[test]
    fn indirect_branch_reaches_orphans() {
        let f = func(
            ".L_x_0:
             LDC R2, c[0x2][R9] ;
             BRX R2 -0x20 ;
             .L_x_1:
             MOV R8, 0x1 ;
             BRA .L_x_3 ;
             .L_x_2:
             MOV R8, 0x2 ;
             BRA .L_x_3 ;
             .L_x_3:
             EXIT ;
             .L_x_4:
             BRA .L_x_4 ;",
        );
        let g = Cfg::new(&f);
        assert!(g.indirect[0]);
        // No enclosing BSSY: every later block but the padding (4).
        assert_eq!(g.succs[0], vec![1, 2, 3]);
        assert_eq!(g.reachable, vec![true, true, true, true, false]);
    }

    #[test]
    fn a_register_call_reaches_a_direct_callee_whose_address_is_taken() {
        // ptxc's `.func` calling itself through its own address (lower/
        // call_graph.rs): `MOV R6, .L_x_2` names block 2, which the kernel
        // also calls directly; block 4 is called directly only, and the
        // return label `.L_x_3` is named by a MOV but is no call target.
        let f = func(
            ".L_x_0:
             MOV R20, .L_x_1 ;
             CALL.REL.NOINC .L_x_2 ;
             .L_x_1:
             EXIT ;
             .L_x_2:
             MOV R6, .L_x_2 ;
             MOV R20, .L_x_3 ;
             CALL.REL.NOINC R6 0x0 ;
             .L_x_3:
             CALL.REL.NOINC .L_x_4 ;
             .L_x_5:
             RET.REL.NODEC R20 0x0 ;
             .L_x_4:
             RET.REL.NODEC R22 0x0 ;",
        );
        let g = Cfg::new(&f);
        assert_eq!(g.register_callees, vec![2]);
    }

    #[test]
    fn a_register_call_reaches_the_orphan_blocks() {
        // ptxas's call through a function address (leaf.sm_80: `MOV R6,
        // 0xf0 ; CALL.REL.NOINC R6 0x0`): the callees (blocks 2 and 3)
        // have no other edge; each becomes a root, and a procedure.
        let f = func(
            ".L_x_0:
             MOV R20, 0x30 ;
             CALL.REL.NOINC R6 0x0 ;
             .L_x_1:
             EXIT ;
             .L_x_2:
             IADD3 R4, R4, 0x1, RZ ;
             RET.REL.NODEC R20 0x0 ;
             .L_x_3:
             SHF.L.U32 R4, R4, 0x1, RZ ;
             RET.REL.NODEC R20 0x0 ;
             .L_x_4:
             BRA .L_x_4 ;",
        );
        let g = Cfg::new(&f);
        assert_eq!(g.calls.len(), 1);
        assert_eq!(g.calls[0].target, None);
        assert_eq!(g.register_callees, vec![2, 3]);
        assert_eq!(g.roots, vec![0, 2, 3]);
        assert_eq!(g.reachable, vec![true, true, true, true, false]);
        // An absolute call roots nothing new.
        let h = func(
            ".L_x_0:
             CALL.ABS.NOINC 0x0 ;
             EXIT ;
             .L_x_1:
             RET.REL.NODEC R20 0x0 ;",
        );
        let g = Cfg::new(&h);
        assert!(g.register_callees.is_empty());
        assert_eq!(g.roots, vec![0]);
    }
}
