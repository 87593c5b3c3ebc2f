//! Phase orders: `--phase-order` (names or indices, or `@FILE`),
//! `--disable-phase`, the constraint check, and random orders that keep
//! the constraints (for the tests and the `phase_order` fuzz target).

use super::table::{self, name_of, Rule, NOP, PHASES, PHASE_COUNT};
use std::fmt;

/// An order that cannot be used; the message names the phase or the
/// violated constraint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderError(pub String);

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OrderError {}

fn label(i: u16) -> String {
    format!("{} ({i})", name_of(i))
}

/// One phase, by name (case-insensitive) or index.
pub fn parse_phase(tok: &str) -> Result<u16, OrderError> {
    let tok = tok.trim();
    if !tok.is_empty() && tok.bytes().all(|b| b.is_ascii_digit()) {
        return match tok.parse::<u16>() {
            Ok(i) if usize::from(i) < PHASE_COUNT => Ok(i),
            _ => Err(OrderError(format!(
                "phase index {tok} is outside 0..{}",
                PHASE_COUNT - 1
            ))),
        };
    }
    table::find(tok).ok_or_else(|| OrderError(format!("unknown phase '{tok}'")))
}

/// A list of phases: names or indices separated by commas or white space;
/// `#` starts a comment running to the end of the line (for files).
pub fn parse_order(text: &str) -> Result<Vec<u16>, OrderError> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        for tok in line.split(|c: char| c == ',' || c.is_whitespace()) {
            if !tok.is_empty() {
                out.push(parse_phase(tok)?);
            }
        }
    }
    if out.is_empty() {
        return Err(OrderError("the phase order is empty".into()));
    }
    Ok(out)
}

/// `--phase-order`'s argument: a list, or `@FILE` holding one.
pub fn parse_order_arg(arg: &str) -> Result<Vec<u16>, OrderError> {
    match arg.strip_prefix('@') {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                OrderError(format!("cannot read the phase order file '{path}': {e}"))
            })?;
            parse_order(&text)
        }
        None => parse_order(arg),
    }
}

fn violation(constraint: &str, what: String) -> OrderError {
    OrderError(format!(
        "phase order violates constraint `{constraint}`: {what}"
    ))
}

/// Checks every row's constraints against `order` (NOP entries, 158, are
/// ignored). The first violation found is reported, naming the
/// constraint.
pub fn check_order(order: &[u16]) -> Result<(), OrderError> {
    for &i in order {
        if usize::from(i) >= PHASE_COUNT {
            return Err(OrderError(format!(
                "phase index {i} is outside 0..{}",
                PHASE_COUNT - 1
            )));
        }
    }
    let seq: Vec<u16> = order.iter().copied().filter(|&i| i != NOP).collect();
    let mut first = [usize::MAX; PHASE_COUNT];
    let mut last = [usize::MAX; PHASE_COUNT];
    for (p, &i) in seq.iter().enumerate() {
        let i = usize::from(i);
        if first[i] == usize::MAX {
            first[i] = p;
        }
        last[i] = p;
    }
    let present = |i: u16| first[usize::from(i)] != usize::MAX;
    for row in &PHASES {
        for c in row.constraints {
            if c.rule == Rule::Required && !present(row.index) {
                return Err(violation(
                    c.name,
                    format!("{} is missing from the order", label(row.index)),
                ));
            }
        }
    }
    for (p, &x) in seq.iter().enumerate() {
        let row = &PHASES[usize::from(x)];
        for c in row.constraints {
            match c.rule {
                Rule::Required => {}
                Rule::First if p != 0 => {
                    return Err(violation(c.name, format!("{} must run first", label(x))))
                }
                Rule::Last if p + 1 != seq.len() => {
                    return Err(violation(c.name, format!("{} must run last", label(x))))
                }
                Rule::First | Rule::Last => {}
                Rule::After(ys) => {
                    for &y in ys {
                        if present(y) && first[usize::from(y)] > p {
                            return Err(violation(
                                c.name,
                                format!("{} must run after {}", label(x), label(y)),
                            ));
                        }
                    }
                }
                Rule::Before(ys) => {
                    for &y in ys {
                        if present(y) && (last[usize::from(y)] < p) {
                            return Err(violation(
                                c.name,
                                format!("{} must run before {}", label(x), label(y)),
                            ));
                        }
                    }
                }
                Rule::Precedes(ys) => {
                    for &y in ys {
                        if y != x && present(y) && first[usize::from(y)] < first[usize::from(x)] {
                            return Err(violation(
                                c.name,
                                format!("{} must run before {}", label(x), label(y)),
                            ));
                        }
                    }
                }
                Rule::AfterAllVregCreators => {
                    for y in PHASES.iter().filter(|r| r.creates_vregs && r.index != x) {
                        if present(y.index) && last[usize::from(y.index)] > p {
                            return Err(violation(
                                c.name,
                                format!(
                                    "{} must run after {}, which creates virtual registers",
                                    label(x),
                                    label(y.index)
                                ),
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// Removes every occurrence of `phase` from `order`; refused for a phase
/// the constraints require.
pub fn disable(order: &mut Vec<u16>, phase: u16) -> Result<(), OrderError> {
    if let Some(c) = PHASES
        .get(usize::from(phase))
        .and_then(|r| r.constraints.iter().find(|c| c.rule == Rule::Required))
    {
        return Err(OrderError(format!(
            "cannot disable {}: constraint `{}`",
            label(phase),
            c.name
        )));
    }
    order.retain(|&i| i != phase);
    Ok(())
}

/// The order to run: `spec` (else the default), minus the disabled
/// phases, checked.
pub fn resolve(spec: Option<&[u16]>, disabled: &[u16]) -> Result<Vec<u16>, OrderError> {
    let mut order = spec.unwrap_or(table::DEFAULT_ORDER).to_vec();
    for &d in disabled {
        disable(&mut order, d)?;
    }
    check_order(&order)?;
    Ok(order)
}

/// SplitMix64, the seeded generator of the random orders.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A random order of the default order's phases that keeps every
/// constraint: a topological sort of the constraint graph, taking a random
/// ready phase at each step.
pub fn random_valid_order(seed: u64) -> Vec<u16> {
    random_valid_order_of(table::DEFAULT_ORDER, seed)
}

/// [`random_valid_order`] over the phases of `set` (each once).
pub fn random_valid_order_of(set: &[u16], seed: u64) -> Vec<u16> {
    let n = PHASE_COUNT;
    let mut inset = vec![false; n];
    for &i in set {
        inset[usize::from(i)] = true;
    }
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut edge = |a: usize, b: usize| {
        if a != b && inset[a] && inset[b] && !succ[a].contains(&b) {
            succ[a].push(b);
        }
    };
    for row in &PHASES {
        let x = usize::from(row.index);
        if !inset[x] {
            continue;
        }
        for c in row.constraints {
            match c.rule {
                Rule::First => (0..n).for_each(|y| edge(x, y)),
                Rule::Last => (0..n).for_each(|y| edge(y, x)),
                Rule::Required => {}
                Rule::After(ys) => ys.iter().for_each(|&y| edge(usize::from(y), x)),
                Rule::Before(ys) | Rule::Precedes(ys) => {
                    ys.iter().for_each(|&y| edge(x, usize::from(y)))
                }
                Rule::AfterAllVregCreators => PHASES
                    .iter()
                    .filter(|r| r.creates_vregs)
                    .for_each(|r| edge(usize::from(r.index), x)),
            }
        }
    }
    let mut indeg = vec![0usize; n];
    for s in &succ {
        for &b in s {
            indeg[b] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&i| inset[i] && indeg[i] == 0).collect();
    let mut rng = SplitMix64(seed);
    let mut out = Vec::with_capacity(set.len());
    while !ready.is_empty() {
        let k = rng.below(ready.len());
        let x = ready.swap_remove(k);
        out.push(x as u16);
        for &b in &succ[x] {
            indeg[b] -= 1;
            if indeg[b] == 0 {
                ready.push(b);
            }
        }
    }
    assert_eq!(
        out.len(),
        (0..n).filter(|&i| inset[i]).count(),
        "the constraint graph has a cycle"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // The phases these tests order, by name.
    const VERIFY: u16 = table::index_of("OriCheckInitialProgram");
    const NVOPT_RECIPES: u16 = table::index_of("ApplyNvOptRecipes");
    const PROMOTE_FP16: u16 = table::index_of("PromoteFP16");
    const CFG: u16 = table::index_of("AnalyzeControlFlow");
    const HOOK_BEFORE_CONV: u16 = table::index_of("AdvancedPhaseBeforeConvUnSup");
    const CONV: u16 = table::index_of("ConvertUnsupportedOps");
    const GO_EARLY: u16 = table::index_of("GeneralOptimizeEarly");
    const BRANCH_OPT: u16 = table::index_of("OriBranchOpt");
    const LD1: u16 = table::index_of("OriPerformLiveDeadFirst");
    const SPLIT: u16 = table::index_of("OriSplitLiveRanges");
    const MOVPHI: u16 = table::index_of("GenerateMovPhi");
    const LD2: u16 = table::index_of("OriPerformLiveDeadSecond");
    const MID_EXPANSION: u16 = table::index_of("MidExpansion");
    const MOVPHI_TO_MOV: u16 = table::index_of("ConvertAllMovPhiToMov");
    const LEGALIZED: u16 = table::index_of("SetAfterLegalization");
    const O0_WAITS: u16 = table::index_of("ProcessO0WaitsAndSBs");
    const MERC_ENCODE: u16 = table::index_of("MercEncodeAndDecode");
    const REGMAP: u16 = table::index_of("CalcRegisterMap");
    const ORI: u16 = table::index_of("OriRunNamedPhases");
    const HOIST: u16 = table::index_of("HoistInvariants");
    const SCHED: u16 = table::index_of("ScheduleInstructions");
    const ALLOC: u16 = table::index_of("AllocateRegisters");
    const VERIFY_ALLOC: u16 = table::index_of("VerifyAllocatedProgram");
    const EMIT: u16 = table::index_of("EmitSassListing");
    const NOP: u16 = table::index_of("Nop");

    #[test]
    fn the_default_order_keeps_every_constraint() {
        check_order(table::DEFAULT_ORDER).unwrap();
    }

    #[test]
    fn orders_parse_from_names_and_indices() {
        assert_eq!(
            parse_order("OriCheckInitialProgram, 3\nanalyzecontrolflow  157").unwrap(),
            [VERIFY, CFG, CFG, EMIT]
        );
        assert_eq!(
            parse_order("# a file\n0 # verify\n\nEmitSassListing\n").unwrap(),
            [VERIFY, EMIT]
        );
        assert_eq!(
            parse_order("0,NoSuchPhase").unwrap_err().0,
            "unknown phase 'NoSuchPhase'"
        );
        assert_eq!(
            parse_order("0,159").unwrap_err().0,
            "phase index 159 is outside 0..158"
        );
        assert_eq!(
            parse_order("99999999999").unwrap_err().0,
            "phase index 99999999999 is outside 0..158"
        );
        assert_eq!(
            parse_order(" , ").unwrap_err().0,
            "the phase order is empty"
        );
        assert_eq!(parse_order("nop").unwrap(), [NOP]);
    }

    #[test]
    fn order_files_are_read() {
        let d = std::env::temp_dir().join(format!("ptxc-order-{}.txt", std::process::id()));
        std::fs::write(&d, "0\n16\n157\n").unwrap();
        let arg = format!("@{}", d.display());
        assert_eq!(parse_order_arg(&arg).unwrap(), [VERIFY, LD1, EMIT]);
        std::fs::remove_file(&d).unwrap();
        assert!(parse_order_arg(&arg)
            .unwrap_err()
            .0
            .starts_with("cannot read the phase order file"));
    }

    #[test]
    fn a_minimal_order_is_valid() {
        check_order(&[VERIFY, CONV, EMIT]).unwrap();
        check_order(&[VERIFY, NOP, CONV, LD1, EMIT, NOP]).unwrap();
        // Phases 1..=4 may run before the conversion.
        check_order(&[
            VERIFY,
            NVOPT_RECIPES,
            PROMOTE_FP16,
            CFG,
            HOOK_BEFORE_CONV,
            CONV,
            EMIT,
        ])
        .unwrap();
    }

    #[test]
    fn the_conversion_is_required_and_precedes_every_code_phase() {
        let e = |o: &[u16]| check_order(o).unwrap_err().0;
        assert_eq!(
            e(&[VERIFY, EMIT]),
            "phase order violates constraint `required`: ConvertUnsupportedOps (5) is missing from the order"
        );
        assert_eq!(
            e(&[VERIFY, LD1, CONV, EMIT]),
            "phase order violates constraint `target-code`: ConvertUnsupportedOps (5) must run before OriPerformLiveDeadFirst (16)"
        );
        for y in [GO_EARLY, ORI, SCHED, VERIFY_ALLOC] {
            assert!(
                e(&[VERIFY, y, CONV, EMIT]).contains("`target-code`"),
                "phase {y}"
            );
        }
        // Every code phase that may follow the conversion alone is refused
        // before it (some by their own constraints first: the hook 7's
        // `hook-position`, AllocateRegisters' vreg creators).
        let mut refused = 0;
        for &y in table::TARGET_CODE_PHASES {
            if y == table::EMIT || check_order(&[VERIFY, CONV, y, EMIT]).is_err() {
                continue;
            }
            assert!(check_order(&[VERIFY, y, CONV, EMIT]).is_err(), "phase {y}");
            refused += 1;
        }
        assert!(refused > 100, "{refused}");
        // A later repeat of a code phase is fine, and so is a repeat of the
        // conversion (it has nothing left to convert).
        check_order(&[VERIFY, CONV, LD1, CONV, LD1, EMIT]).unwrap();
        assert_eq!(
            resolve(None, &[CONV]).unwrap_err().0,
            "cannot disable ConvertUnsupportedOps (5): constraint `required`"
        );
    }

    #[test]
    fn violations_name_the_constraint() {
        let e = |o: &[u16]| check_order(o).unwrap_err().0;
        assert_eq!(
            e(&[LD1, VERIFY, CONV, EMIT]),
            "phase order violates constraint `verify-first`: OriCheckInitialProgram (0) must run first"
        );
        assert_eq!(
            e(&[VERIFY, CONV, EMIT, LD1]),
            "phase order violates constraint `emission-last`: EmitSassListing (157) must run last"
        );
        assert_eq!(
            e(&[VERIFY, CONV, LD1]),
            "phase order violates constraint `required`: EmitSassListing (157) is missing from the order"
        );
        assert_eq!(
            e(&[VERIFY, CONV, ALLOC, SPLIT, EMIT]),
            "phase order violates constraint `regalloc-after-vreg-creators`: AllocateRegisters (148) must run after OriSplitLiveRanges (19), which creates virtual registers"
        );
        assert_eq!(
            e(&[VERIFY, CONV, REGMAP, ALLOC, EMIT]),
            "phase order violates constraint `post-regalloc`: CalcRegisterMap (124) must run after AllocateRegisters (148)"
        );
        assert_eq!(
            e(&[VERIFY, CONV, LD2, LD1, EMIT]),
            "phase order violates constraint `numbered-passes`: OriPerformLiveDeadSecond (33) must run after OriPerformLiveDeadFirst (16)"
        );
        assert_eq!(
            e(&[VERIFY, CONV, HOOK_BEFORE_CONV, EMIT]),
            "phase order violates constraint `hook-position`: AdvancedPhaseBeforeConvUnSup (4) must run before ConvertUnsupportedOps (5)"
        );
        assert!(e(&[VERIFY, CONV, BRANCH_OPT, CFG, EMIT]).contains("`cfg-analysis-first`"));
        assert!(e(&[VERIFY, CONV, MERC_ENCODE, O0_WAITS, EMIT]).contains("`mercury-sequence`"));
        assert!(e(&[VERIFY, CONV, LEGALIZED, MID_EXPANSION, EMIT]).contains("`legalization`"));
        assert!(e(&[VERIFY, CONV, MOVPHI_TO_MOV, MOVPHI, EMIT]).contains("`movphi-pairing`"));
        assert!(e(&[VERIFY, CONV, HOIST, SCHED, EMIT]).contains("`scheduling`"));
        assert!(e(&[VERIFY, CONV, ALLOC, MOVPHI_TO_MOV, EMIT])
            .contains("`regalloc-after-movphi-removal`"));
        // A phase missing from the order constrains nothing.
        check_order(&[VERIFY, CONV, LD2, EMIT]).unwrap();
        check_order(&[VERIFY, CONV, ALLOC, REGMAP, EMIT]).unwrap();
        // Repeats: every occurrence is checked.
        assert!(e(&[VERIFY, CONV, VERIFY, EMIT]).contains("`verify-first`"));
        assert!(
            e(&[VERIFY, CONV, LD1, LD2, LD1, SPLIT, ALLOC, REGMAP, EMIT, EMIT])
                .contains("`emission-last`")
        );
    }

    #[test]
    fn disabling_removes_and_refuses_required_phases() {
        let o = resolve(None, &[LD1, LD2]).unwrap();
        assert!(!o.contains(&LD1) && !o.contains(&LD2));
        assert_eq!(o.len(), table::DEFAULT_ORDER.len() - 2);
        assert_eq!(
            resolve(None, &[EMIT]).unwrap_err().0,
            "cannot disable EmitSassListing (157): constraint `required`"
        );
        assert_eq!(
            resolve(None, &[VERIFY]).unwrap_err().0,
            "cannot disable OriCheckInitialProgram (0): constraint `required`"
        );
        // Disabling a phase the order does not hold is harmless.
        assert_eq!(
            resolve(Some(&[VERIFY, CONV, EMIT]), &[LD1]).unwrap(),
            [VERIFY, CONV, EMIT]
        );
        // A given order is checked after the removals.
        assert!(resolve(Some(&[LD1, VERIFY, CONV, EMIT]), &[]).is_err());
    }

    #[test]
    fn random_orders_keep_the_constraints_and_permute() {
        let mut sorted_default = table::DEFAULT_ORDER.to_vec();
        sorted_default.sort_unstable();
        let mut distinct = std::collections::HashSet::new();
        for seed in 0..50 {
            let o = random_valid_order(seed);
            check_order(&o).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let mut s = o.clone();
            s.sort_unstable();
            assert_eq!(s, sorted_default);
            distinct.insert(o);
        }
        assert_eq!(distinct.len(), 50);
        assert_eq!(random_valid_order(7), random_valid_order(7));
    }
}
