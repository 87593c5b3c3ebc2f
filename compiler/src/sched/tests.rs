//! Unit tests of the DAG, the list scheduler and the control-code phases
//! on small IR written as SASS text (virtual registers).

use crate::ir::cfg::tests::func;
use crate::ir::control::Control;
use crate::ir::{from_sass, to_sass, Function};
use crate::targets::{lookup_sm, SmInfo};

use super::dag::build;
use super::list::schedule;
use super::{reuse, scoreboard, stall};

fn sm80() -> &'static SmInfo {
    lookup_sm("sm_80").unwrap()
}

/// The block's instructions as text, in order.
fn texts(f: &Function) -> Vec<String> {
    f.blocks[0]
        .insts
        .iter()
        .map(|i| {
            let mut s = i.op.name().to_string();
            for o in i.operands.iter().take(1) {
                s.push(' ');
                s.push_str(&o.to_string());
            }
            s
        })
        .collect()
}

fn scheduled(body: &str) -> Vec<String> {
    let mut f = func(body);
    let (order, _) = schedule(&f.blocks[0].insts, 0, sm80());
    let old = f.blocks[0].insts.clone();
    f.blocks[0].insts = order.iter().map(|&i| old[i].clone()).collect();
    texts(&f)
}

fn has_edge(body: &str, a: usize, b: usize) -> bool {
    let f = func(body);
    let d = build(&f.blocks[0].insts, sm80());
    d.succs[a].iter().any(|&(j, _)| j == b)
}

#[test]
fn register_dependences_include_predicates_pairs_and_guards() {
    // RAW through a predicate and a guard.
    let body = "ISETP.GE.AND %p0, PT, %r1, 0x4, PT ;\n @%p0 IADD3 %r2, %r3, 0x1, RZ ;\n EXIT ;";
    assert!(has_edge(body, 0, 1));
    // RAW on the high half of a wide result.
    let body = "IMAD.WIDE %r4, %r1, 0x4, %r6 ;\n IADD3 %r9, %r5, 0x1, RZ ;\n EXIT ;";
    assert!(has_edge(body, 0, 1));
    // WAR and WAW.
    let body = "IADD3 %r1, %r2, 0x1, RZ ;\n MOV %r2, 0x5 ;\n MOV %r1, 0x6 ;\n EXIT ;";
    assert!(has_edge(body, 0, 1));
    assert!(has_edge(body, 0, 2));
    // Independent instructions have no edge (but both precede EXIT).
    let body = "IADD3 %r1, %r2, 0x1, RZ ;\n IADD3 %r3, %r4, 0x1, RZ ;\n EXIT ;";
    assert!(!has_edge(body, 0, 1));
    assert!(has_edge(body, 0, 2) && has_edge(body, 1, 2));
}

#[test]
fn memory_order_is_kept_unless_spaces_differ() {
    // A store and a later load of the same space stay ordered; two loads
    // do not; a local store and a shared load are independent; a generic
    // store aliases shared memory.
    let body = "STS [%r1], %r2 ;\n LDS %r3, [%r4] ;\n LDS %r5, [%r6] ;\n STL [%r7], %r8 ;\n LDS %r9, [%r10] ;\n ST.E [%r12.64], %r11 ;\n LDS %r13, [%r14] ;\n EXIT ;";
    assert!(has_edge(body, 0, 1));
    assert!(!has_edge(body, 1, 2));
    assert!(!has_edge(body, 3, 4));
    assert!(has_edge(body, 5, 6));
    // A CTA barrier orders the memory accesses on both sides; a pure ALU
    // op may cross it.
    let body =
        "STS [%r1], %r2 ;\n BAR.SYNC 0x0 ;\n LDS %r3, [%r4] ;\n IADD3 %r5, %r6, 0x1, RZ ;\n EXIT ;";
    assert!(has_edge(body, 0, 1) && has_edge(body, 1, 2));
    assert!(!has_edge(body, 1, 3));
    // Control and convergence are full barriers.
    let body =
        "IADD3 %r5, %r6, 0x1, RZ ;\n WARPSYNC 0xffffffff ;\n IADD3 %r7, %r8, 0x1, RZ ;\n EXIT ;";
    assert!(has_edge(body, 0, 1) && has_edge(body, 1, 2));
}

#[test]
fn independent_work_fills_load_latency_and_the_terminator_stays_last() {
    let got = scheduled(
        "LDG.E %r2, [%r4.64] ;\n FADD %r3, %r2, %r2 ;\n IADD3 %r6, %r7, 0x1, RZ ;\n IADD3 %r8, %r6, 0x1, RZ ;\n STG.E [%r4.64], %r3 ;\n EXIT ;",
    );
    assert_eq!(
        got,
        [
            "LDG %r2",
            "IADD3 %r6",
            "IADD3 %r8",
            "FADD %r3",
            "STG [%r4.64]",
            "EXIT"
        ]
    );
    // The critical path goes first: the long chain before the short one.
    let got = scheduled(
        "IADD3 %r1, %r0, 0x1, RZ ;\n MUFU.RCP %r2, %r9 ;\n FADD %r3, %r2, %r2 ;\n EXIT ;",
    );
    assert_eq!(got, ["MUFU %r2", "IADD3 %r1", "FADD %r3", "EXIT"]);
}

#[test]
fn stats_count_macs_and_hidden_latency() {
    let f = func(
        "LDG.E %r2, [%r4.64] ;\n FFMA %r5, %r6, %r7, %r8 ;\n FFMA %r9, %r6, %r10, %r11 ;\n FADD %r3, %r2, %r2 ;\n EXIT ;",
    );
    let (_, st) = schedule(&f.blocks[0].insts, 7, sm80());
    assert_eq!(st.label, 7);
    assert_eq!(st.insts, 5);
    assert_eq!(st.mac_insts, 2);
    assert_eq!(st.mac_reuses, 1, "the second FFMA reads %r6 in slot A too");
    assert_eq!(st.ldg_hidden.0, 1);
    // The LDG issues at 0, two FFMAs fill cycles 1 and 2, the FADD waits
    // for the 400-cycle estimate.
    assert_eq!(st.ldg_hidden.1, 400);
    assert_eq!(st.time, 402);
    assert_eq!(st.stalls, 397);
    assert!(st
        .to_string()
        .starts_with("BB .L_x_7: Insts 5, MacInsts 2, MacReuses 1, Time 402"));
}

#[test]
fn control_codes_cover_fixed_and_variable_latencies() {
    let mut f = func(
        "LDG.E %r2, [%r4.64] ;\n IADD3 %r6, %r7, 0x1, RZ ;\n FADD %r3, %r2, %r6 ;\n STG.E [%r4.64], %r3 ;\n MOV %r3, 0x1 ;\n EXIT ;",
    );
    scoreboard::assign(&mut f, sm80());
    stall::compute(&mut f, sm80());
    let c: Vec<Control> = f.blocks[0]
        .insts
        .iter()
        .map(|i| i.control().unwrap())
        .collect();
    // The load sets a write scoreboard; the FADD waits on it.
    let sb = c[0].write_sb.expect("LDG sets a write scoreboard");
    assert!(c[2].waits_on(sb));
    assert!(!c[1].waits_on(sb));
    // The IADD3's result is read next: 4 cycles.
    assert_eq!(c[1].stall, 4);
    // The store reads %r3 late: the MOV that overwrites it waits on the
    // store's read scoreboard.
    let rsb = c[3].read_sb.expect("STG sets a read scoreboard");
    assert!(c[4].waits_on(rsb));
    // The FADD's result is read by the STG right after: 4 cycles.
    assert_eq!(c[2].stall, 4);
}

#[test]
fn block_entries_wait_for_what_other_blocks_leave_outstanding() {
    let mut f = func(
        ".L_x_0:\n LDG.E %r2, [%r4.64] ;\n @%p0 BRA .L_x_1 ;\n.L_x_2:\n IADD3 %r5, %r2, 0x1, RZ ;\n.L_x_1:\n FADD %r3, %r2, %r2 ;\n EXIT ;",
    );
    scoreboard::assign(&mut f, sm80());
    stall::compute(&mut f, sm80());
    let sb = f.blocks[0].insts[0].control().unwrap().write_sb.unwrap();
    assert!(f.blocks[1].insts[0].control().unwrap().waits_on(sb));
    assert!(f.blocks[2].insts[0].control().unwrap().waits_on(sb));
    // The fall-through block's IADD3 leaves a fixed result: its stall
    // covers the 4 cycles.
    assert_eq!(f.blocks[1].insts[0].control().unwrap().stall, 4);
}

#[test]
fn reuse_flags_mark_the_same_register_in_the_same_slot() {
    let mut f = func(
        "FFMA %r1, %r2, %r3, %r4 ;\n FFMA %r5, %r2, %r6, %r4 ;\n FFMA %r2, %r2, %r7, %r8 ;\n FFMA %r9, %r2, %r7, %r8 ;\n EXIT ;",
    );
    reuse::set(&mut f);
    let r: Vec<u8> = f.blocks[0]
        .insts
        .iter()
        .map(|i| i.control().map_or(0, |c| c.reuse))
        .collect();
    // Slot A (%r2) and slot C (%r4) repeat; the third FFMA writes %r2, so
    // it cannot keep it, but %r7 (B) and %r8 (C) repeat.
    assert_eq!(r, [0b101, 0b001, 0b110, 0, 0]);
    assert_eq!(f.blocks[0].insts[0].operands[1].to_string(), "%r2.reuse");
}

#[test]
fn control_codes_round_trip_through_the_listing() {
    let mut f =
        func("IADD3 %r1, %r2, 0x1, RZ ;\n LDG.E %r3, [%r4.64] ;\n FADD %r5, %r3, %r1 ;\n EXIT ;");
    scoreboard::assign(&mut f, sm80());
    stall::compute(&mut f, sm80());
    reuse::set(&mut f);
    let listing = to_sass(&f, true).unwrap();
    let text = crate::ir::sass_text::print_function(&listing);
    assert!(
        text.contains("LDG.E %r3, [%r4.64] ; /*ctrl B------:R0:W0:-:S03:U---- */"),
        "{text}"
    );
    assert_eq!(text.matches("/*ctrl ").count(), 4, "{text}");
    let back = crate::ir::sass_text::parse_file(&text).unwrap();
    assert_eq!(from_sass(&back.functions[0], None).unwrap(), f);
    // A malformed control comment is a parse error, not a panic.
    let bad = text.replace("S01", "S99");
    assert!(crate::ir::sass_text::parse_file(&bad).is_err());
}

#[test]
fn an_encoded_instruction_keeps_its_codes_in_the_encoding() {
    let mut i = crate::ir::Inst::new(crate::ir::Op::NOP, &[], None, []).unwrap();
    i.encoding = Some(0x000fc00000000000_0000000000007918);
    let c0 = i.control().unwrap();
    assert_eq!(c0.stall, 0);
    let c = Control {
        stall: 5,
        write_sb: Some(3),
        ..c0
    };
    i.set_control(c);
    assert_eq!(i.ctrl, None);
    assert_eq!(i.control(), Some(c));
    assert_eq!(i.encoding.unwrap() & ((1u128 << 105) - 1), 0x7918);
}

/// `dag`'s edges as (from, to) -> latency.
fn edges(dag: &super::dag::Dag) -> std::collections::BTreeMap<(usize, usize), u32> {
    let mut m = std::collections::BTreeMap::new();
    for (i, s) in dag.succs.iter().enumerate() {
        for &(j, l) in s {
            assert!(m.insert((i, j), l).is_none(), "edge {i}->{j} twice");
            assert!(
                dag.preds[j].contains(&i),
                "{i}->{j} not among {j}'s predecessors"
            );
        }
    }
    let npreds: usize = dag.preds.iter().map(Vec::len).sum();
    assert_eq!(npreds, m.len(), "predecessor lists hold other edges");
    m
}

/// The longest-latency path from `a` to every later instruction (None:
/// no path).
fn longest_from(dag: &super::dag::Dag, a: usize) -> Vec<Option<u32>> {
    let mut d = vec![None; dag.succs.len()];
    d[a] = Some(0);
    for i in a..dag.succs.len() {
        let Some(x) = d[i] else { continue };
        for &(j, l) in &dag.succs[i] {
            d[j] = Some(d[j].map_or(x + l, |y: u32| y.max(x + l)));
        }
    }
    d
}

/// Random blocks over a few registers (so that conflicts are dense):
/// register, predicate, pair, memory (every space), barrier and control
/// dependences; with `barriers` false, no full barriers (which hide the
/// other rules).
fn random_blocks(barriers: bool, count: usize) -> Vec<String> {
    let mut pool = vec![
        "IADD3 %r1, %r2, 0x1, RZ ;",
        "IADD3 %r2, %r1, %r3, RZ ;",
        "MOV %r3, 0x5 ;",
        "FADD %r1, %r3, %r2 ;",
        "MUFU.RCP %r2, %r1 ;",
        "IMAD.WIDE %r4, %r1, 0x4, %r6 ;",
        "IADD3 %r5, %r4, 0x1, RZ ;",
        "ISETP.GE.AND %p0, PT, %r1, 0x4, PT ;",
        "@%p0 IADD3 %r2, %r3, 0x1, RZ ;",
        "@!%p0 MOV %r1, 0x6 ;",
        "LDG.E %r2, [%r4.64] ;",
        "STG.E [%r4.64], %r3 ;",
        "STS [%r1], %r2 ;",
        "LDS %r3, [%r2] ;",
        "STL [%r1], %r5 ;",
        "LDL %r5, [%r3] ;",
        "ST.E [%r4.64], %r1 ;",
        "LD.E %r3, [%r4.64] ;",
        "LDC %r6, c[0x0][%r1] ;",
        "FFMA %r5, %r6, %r7, %r8 ;",
    ];
    if barriers {
        pool.extend(["BAR.SYNC 0x0 ;", "WARPSYNC 0xffffffff ;"]);
    }
    let mut x = 0x2545_f491_4f6c_dd1du64 ^ u64::from(barriers);
    (0..count)
        .map(|round| {
            let len = 5 + round % 60;
            let mut body = String::new();
            for _ in 0..len {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                body.push_str(pool[(x % pool.len() as u64) as usize]);
                body.push('\n');
            }
            body.push_str("EXIT ;");
            body
        })
        .collect()
}

/// The DAG leaves out only edges the kept ones imply, and the scheduler
/// cannot tell: every kept edge is a reference edge with at most its
/// latency; every reference edge is matched by a path at least as long,
/// whose first edge has a latency when the reference edge had one; and
/// the schedules and statistics are those of the all-pairs reference.
#[test]
fn dag_keeps_the_schedule_of_the_pairwise_reference() {
    let mut left_out = 0;
    for barriers in [true, false] {
        for body in random_blocks(barriers, 120) {
            let f = func(&body);
            let insts = &f.blocks[0].insts;
            let (dag, reference) = (
                build(insts, sm80()),
                super::dag::build_pairwise(insts, sm80()),
            );
            let (kept, all) = (edges(&dag), edges(&reference));
            for (e, l) in &kept {
                assert!(all.get(e).is_some_and(|r| l <= r), "{e:?} {l}\n{body}");
            }
            for (&(a, b), &l) in &all {
                if kept.get(&(a, b)) == Some(&l) {
                    continue;
                }
                left_out += 1;
                let d = longest_from(&dag, a);
                assert!(
                    d[b].is_some_and(|p| p >= l),
                    "{a}->{b} ({l}) not implied\n{body}"
                );
                if l > 0 {
                    let first = dag.succs[a]
                        .iter()
                        .any(|&(c, lc)| lc > 0 && c < b && longest_from(&dag, c)[b].is_some());
                    assert!(first, "{a}->{b}: no latency on the way\n{body}");
                }
            }
            assert_eq!(
                super::list::schedule_with(insts, &dag, 0, sm80()),
                super::list::schedule_with(insts, &reference, 0, sm80()),
                "{body}"
            );
        }
    }
    // Random dense blocks leave many implied edges out.
    assert!(left_out > 1000, "{left_out}");
}

/// The edges grow linearly along a block that redefines one register or
/// stores again and again (they grew quadratically).
#[test]
fn dag_edges_grow_linearly_with_redefinitions_and_stores() {
    for pattern in [
        "IMAD %r2, %r2, 0x3, %r1 ;\n",
        "STG.E [%r4.64], %r2 ;\nLDG.E %r3, [%r4.64+0x4] ;\nIADD3 %r5, %r3, 0x1, RZ ;\n",
        "STS [%r1], %r2 ;\nLDS %r3, [%r1+0x4] ;\nSTL [%r1], %r3 ;\n",
    ] {
        let count = |k: usize| {
            let f = func(&format!("{}EXIT ;", pattern.repeat(k)));
            edges(&build(&f.blocks[0].insts, sm80())).len()
        };
        let (a, b) = (count(200), count(400));
        assert!(b <= 2 * a + 8, "{pattern}: {a} edges at 200, {b} at 400");
    }
}
