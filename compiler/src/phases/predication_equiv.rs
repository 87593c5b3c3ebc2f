//! Tests of OriDoPredication's in-place search (`predicate`) against the
//! plain one that rebuilds its view and restarts at the first block after
//! every conversion (`predicate_restarting`): the same conversions in the
//! same order, so the same function and the same count, on hand-made
//! regions whose conversion order matters and on random structured
//! functions (nested and sequential triangles and diamonds, trampolines,
//! arms left empty, side entries into joins, back edges, exits, guarded
//! and unconvertible instructions, labels taken as values).

use super::{predicate, predicate_restarting, View};
use crate::ir::cfg::tests::func;
use crate::ir::{Function, Op};
use crate::phases::loop_util::text;

/// Runs both searches on copies of `f`; asserts they agree and returns the
/// converted function and the count.
fn both(f: &Function, limit: usize, what: &str) -> (Function, usize) {
    let (mut inc, mut reference) = (f.clone(), f.clone());
    let n = predicate(&mut inc, limit);
    let m = predicate_restarting(&mut reference, limit);
    assert_eq!(
        (n, text(&inc)),
        (m, text(&reference)),
        "{what} (limit {limit})\n{}",
        text(f)
    );
    assert_eq!(inc, reference, "{what}");
    (inc, n)
}

#[test]
fn an_enclosing_region_converts_after_an_inner_one_that_left_no_guard() {
    // The inner region's arm is a trampoline only: converting it leaves a
    // NOP in .L_x_1 and .L_x_3 with .L_x_1 as its sole predecessor, so the
    // outer arm now runs .L_x_1 to .L_x_3 and the outer branch, refused
    // before (its arm held the inner branch), converts second.
    let f = func(
        ".L_x_0:
         ISETP.GT.AND %p0, PT, %r0, RZ, PT ;
         @%p0 BRA .L_x_4 ;
         .L_x_1:
         @%p1 BRA .L_x_3 ;
         .L_x_2:
         BRA .L_x_3 ;
         .L_x_3:
         IADD3 %r1, %r1, 0x1, RZ ;
         .L_x_4:
         STG.E [%r4.64], %r1 ;
         EXIT ;",
    );
    let (g, n) = both(&f, 8, "empty inner arm");
    assert_eq!(n, 2, "{}", text(&g));
    let t = text(&g);
    assert!(!g.insts().any(|i| i.op == Op::BRA), "{t}");
    assert!(t.contains("@!%p0 NOP ;"), "{t}");
    assert!(t.contains("@!%p0 IADD3 %r1, %r1, 0x1, RZ ;"), "{t}");
}

#[test]
fn a_region_whose_arm_holds_a_converted_region_stays() {
    // The inner triangle converts into guarded code; the outer arm then
    // holds a guarded instruction, which this phase does not nest.
    let f = func(
        ".L_x_0:
         @%p0 BRA .L_x_3 ;
         .L_x_1:
         @%p1 BRA .L_x_2 ;
         .L_x_5:
         IADD3 %r1, %r1, 0x1, RZ ;
         .L_x_2:
         IADD3 %r2, %r1, 0x2, RZ ;
         .L_x_3:
         STG.E [%r4.64], %r2 ;
         EXIT ;",
    );
    let (g, n) = both(&f, 8, "nested");
    assert_eq!(n, 1);
    assert_eq!(g.insts().filter(|i| i.op == Op::BRA).count(), 1);
}

#[test]
fn a_chain_of_regions_converts_in_one_pass() {
    let mut src = String::from(".L_x_0:\n");
    for i in 0..50 {
        src += &format!(
            "ISETP.LT.AND %p0, PT, %r1, {i:#x}, PT ;
             @%p0 BRA .L_x_{j} ;
             .L_x_{k}:
             IADD3 %r1, %r1, %r2, RZ ;
             .L_x_{j}:\n",
            j = 2 * i + 2,
            k = 2 * i + 1
        );
    }
    src += "STG.E [%r4.64], %r1 ;\nEXIT ;";
    let f = func(&src);
    let (g, n) = both(&f, 8, "chain");
    assert_eq!(n, 50);
    assert_eq!(g.blocks.len(), 51);
    assert!(!g.insts().any(|i| i.op == Op::BRA));
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % n
    }
}

/// A line of a generated function; labels are symbolic until the end.
enum Line {
    Label(usize),
    Inst(String),
    /// An instruction naming a label: text before and after it.
    Names(String, usize, String),
}

/// Random structured functions: sequences of straight code, triangles,
/// diamonds and trampolines, nested, with irregular edges mixed in.
struct Gen {
    rng: Rng,
    lines: Vec<Line>,
    labels: usize,
    /// Labels emitted so far (targets of back edges and taken addresses).
    placed: Vec<usize>,
    /// Join labels not yet placed (targets of side entries).
    open: Vec<usize>,
    /// Whether the current block has no instruction yet.
    empty: bool,
    /// Whether the current block ends in an unconditional jump or exit.
    ended: bool,
}

impl Gen {
    fn fresh(&mut self) -> usize {
        self.labels += 1;
        self.labels - 1
    }

    fn inst(&mut self, s: &str) {
        self.lines.push(Line::Inst(s.to_string()));
        self.empty = false;
    }

    /// Ends the current block with an unconditional jump to `l`.
    fn jump(&mut self, l: usize) {
        self.names("BRA ", l, " ;");
        self.ended = true;
    }

    fn names(&mut self, pre: &str, l: usize, post: &str) {
        self.lines
            .push(Line::Names(pre.to_string(), l, post.to_string()));
        self.empty = false;
    }

    /// Starts block `l`; an empty current block first jumps to it (a
    /// trampoline: the parser makes no empty blocks).
    fn place(&mut self, l: usize) {
        if self.empty && !self.ended {
            self.names("BRA ", l, " ;");
        }
        self.lines.push(Line::Label(l));
        self.placed.push(l);
        self.open.retain(|&o| o != l);
        self.empty = true;
        self.ended = false;
    }

    fn cond(&mut self) -> &'static str {
        ["@%p0 BRA ", "@!%p0 BRA ", "@%p1 BRA ", "@!%p1 BRA "][self.rng.below(4) as usize]
    }

    fn straight(&mut self) {
        for _ in 0..self.rng.below(4) {
            let s = match self.rng.below(20) {
                0..=5 => "IADD3 %r1, %r1, 0x1, RZ ;",
                6..=9 => "IADD3 %r2, %r1, %r0, RZ ;",
                10..=11 => "STG.E [%r4.64], %r1 ;",
                12 => "@%p2 MOV %r3, 0x1 ;",
                13 => "ISETP.GT.AND %p0, PT, %r0, RZ, PT ;",
                14 => "ISETP.LT.AND %p1, PT, %r1, 0x4, PT ;",
                15 => "BAR.SYNC 0x0 ;",
                16 => "NOP ;",
                _ => {
                    if let Some(&l) = self.placed.get(self.rng.below(8) as usize) {
                        self.names("MOV %r5, ", l, " ;");
                    }
                    continue;
                }
            };
            self.inst(s);
        }
    }

    fn seq(&mut self, depth: u32) {
        for _ in 0..1 + self.rng.below(3) {
            self.item(depth);
        }
    }

    fn item(&mut self, depth: u32) {
        match self.rng.below(12) {
            0..=2 => self.straight(),
            3..=5 if depth > 0 => {
                // Triangle; the arm may come out empty (a trampoline).
                let j = self.fresh();
                self.open.push(j);
                let c = self.cond();
                self.names(c, j, " ;");
                let t = self.fresh();
                self.place(t);
                if self.rng.below(3) > 0 {
                    self.seq(depth - 1);
                }
                self.place(j);
            }
            6..=7 if depth > 0 => {
                // Diamond.
                let (e, j) = (self.fresh(), self.fresh());
                self.open.push(j);
                let c = self.cond();
                self.names(c, e, " ;");
                let t = self.fresh();
                self.place(t);
                if self.rng.below(3) > 0 {
                    self.seq(depth - 1);
                }
                self.jump(j);
                self.place(e);
                if self.rng.below(3) > 0 {
                    self.seq(depth - 1);
                }
                self.place(j);
            }
            8 => {
                // A trampoline.
                let l = self.fresh();
                self.jump(l);
                self.place(l);
            }
            9 => {
                // A side entry into a join not yet placed, or a back edge.
                let target = if self.rng.below(2) == 0 && !self.open.is_empty() {
                    self.open[self.rng.below(self.open.len() as u64) as usize]
                } else if !self.placed.is_empty() {
                    self.placed[self.rng.below(self.placed.len() as u64) as usize]
                } else {
                    return;
                };
                let c = self.cond();
                self.names(c, target, " ;");
                let l = self.fresh();
                self.place(l);
            }
            10 => {
                // An exit, guarded or not (unreachable code after it).
                let guarded = self.rng.below(2) == 0;
                self.inst(if guarded { "@%p1 EXIT ;" } else { "EXIT ;" });
                self.ended = !guarded;
                let l = self.fresh();
                self.place(l);
            }
            _ => self.straight(),
        }
    }

    /// The function's text, labels numbered in layout order.
    fn function(seed: u64) -> Function {
        let mut g = Gen {
            rng: Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1),
            lines: Vec::new(),
            labels: 0,
            placed: Vec::new(),
            open: Vec::new(),
            empty: true,
            ended: false,
        };
        let entry = g.fresh();
        g.place(entry);
        g.inst("ISETP.GT.AND %p0, PT, %r0, RZ, PT ;");
        for _ in 0..2 + g.rng.below(5) {
            g.seq(3);
        }
        g.inst("EXIT ;");
        let mut number = vec![usize::MAX; g.labels];
        let mut next = 0;
        for line in &g.lines {
            if let Line::Label(l) = line {
                number[*l] = next;
                next += 1;
            }
        }
        let mut src = String::new();
        for line in &g.lines {
            match line {
                Line::Label(l) => src += &format!(".L_x_{}:\n", number[*l]),
                Line::Inst(s) => src += &format!("{s}\n"),
                Line::Names(pre, l, post) => src += &format!("{pre}.L_x_{}{post}\n", number[*l]),
            }
        }
        func(&src)
    }
}

#[test]
fn random_functions_convert_as_the_restarting_search_does() {
    let (mut converted, mut several, mut kept) = (0, 0, 0);
    for seed in 0..400 {
        let f = Gen::function(seed);
        // The in-place path is the one under test.
        assert!(View::new(&f).updates_in_place(&f), "seed {seed}");
        for limit in [2, 8, 16] {
            let (_, n) = both(&f, limit, &format!("seed {seed}"));
            converted += n;
            several += usize::from(n > 1);
            kept += usize::from(n == 0);
        }
    }
    // The corpus exercises the search: many conversions, often several in
    // one function, and functions where some branch stays.
    assert!(converted > 1000, "{converted}");
    assert!(several > 300, "{several}");
    assert!(kept > 10, "{kept}");
}
