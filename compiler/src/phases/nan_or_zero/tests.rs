//! OptimizeNaNOrZero: the folds it must make, the ones it must refuse, and
//! every fold checked against the shared float model on value sets.

use super::*;
use crate::float::{fp32, MinMaxMods, Mods, Rounding};
use crate::ir::cfg::tests::func;
use crate::ir::sass_text::Reg;

#[test]
fn a_zero_accumulator_times_a_finite_value_stays_zero() {
    // acc = 0; loop { x = I2F(n); acc = fma(x, 0, acc) }: acc is +0 on
    // every iteration (x finite, the product ±0, +0 + ±0 = +0 in RN).
    let mut f = func(
        ".L_x_0:
         MOV %r10, 0x0 ;
         MOV %r5, 0x4 ;
         .L_x_1:
         I2F %r2, %r5 ;
         FFMA %r10, %r2, RZ, %r10 ;
         IADD3 %r5, %r5, -0x1, RZ ;
         ISETP.NE.AND %p0, PT, %r5, RZ, PT ;
         @%p0 BRA .L_x_1 ;
         .L_x_2:
         STG.E [%r8.64], %r10 ;
         EXIT ;",
    );
    assert_eq!(optimize(&mut f), 1);
    assert_eq!(f.blocks[1].insts[1].op, Op::MOV);
    assert_eq!(f.blocks[1].insts[1].operands[1], Operand::Imm(0));
    crate::ir::verify(&f, None).unwrap();
}

#[test]
fn zero_times_a_value_that_may_be_infinite_or_nan_is_not_folded() {
    // %r2 comes from memory: it may be inf (0 * inf = NaN) or NaN.
    let src = ".L_x_0:
         MOV %r10, 0x0 ;
         LDS %r2, [%r6] ;
         FFMA %r11, %r2, RZ, %r10 ;
         FMUL %r12, %r2, RZ ;
         STG.E [%r8.64], %r11 ;
         STG.E [%r8.64+0x4], %r12 ;
         EXIT ;";
    let mut f = func(src);
    assert_eq!(optimize(&mut f), 0);
    assert_eq!(f, func(src));
}

#[test]
fn x_plus_minus_zero_folds_but_x_plus_plus_zero_needs_x_not_minus_zero() {
    // I2F never gives -0: both fold. A loaded x may be -0 or NaN: x + -0
    // would change a NaN's payload (FADD returns the canonical NaN) and
    // x + +0 turns -0 into +0: neither folds. In .RM, +0 + -0 = -0.
    let mut f = func(
        ".L_x_0:
         I2F %r2, %r5 ;
         LDS %r3, [%r6] ;
         FADD %r10, %r2, -RZ ;
         FADD %r11, %r2, RZ ;
         FADD %r12, %r3, -RZ ;
         FADD %r13, %r3, RZ ;
         FADD.RM %r14, %r2, -RZ ;
         STG.E.128 [%r8.64], %r10 ;
         STG.E [%r8.64+0x10], %r14 ;
         EXIT ;",
    );
    assert_eq!(optimize(&mut f), 2);
    let b = &f.blocks[0].insts;
    assert_eq!((b[2].op, b[3].op), (Op::MOV, Op::MOV));
    assert_eq!((b[4].op, b[5].op, b[6].op), (Op::FADD, Op::FADD, Op::FADD));
}

#[test]
fn zero_times_infinity_is_the_canonical_nan_and_max_discards_it() {
    let mut f = func(
        ".L_x_0:
         I2F %r2, %r5 ;
         LDS %r3, [%r6] ;
         FMUL %r10, RZ, +INF ;
         FMNMX %r11, %r10, %r2, !PT ;
         FMNMX %r12, %r10, %r3, !PT ;
         STG.E [%r8.64], %r11 ;
         STG.E [%r8.64+0x4], %r12 ;
         EXIT ;",
    );
    assert_eq!(optimize(&mut f), 2, "{f:?}");
    let b = &f.blocks[0].insts;
    assert_eq!(b[2].operands[1], Operand::Imm(0x7fff_ffff));
    assert!(matches!(&b[3].operands[1], Operand::Reg(r) if r.reg == Reg::V(2)));
    // %r3 may be NaN: max(NaN, NaN) is the canonical NaN, not %r3's bits.
    assert_eq!(b[4].op, Op::FMNMX);
}

#[test]
fn ftz_sat_and_guarded_forms() {
    let mut f = func(
        ".L_x_0:
         I2F %r2, %r5 ;
         MOV %r10, 0x0 ;
         ISETP.NE.AND %p0, PT, %r5, RZ, PT ;
         FFMA.FTZ %r11, %r2, RZ, %r10 ;
         FADD.SAT %r12, %r2, -RZ ;
         @%p0 FFMA %r13, %r2, RZ, %r10 ;
         STG.E [%r8.64], %r11 ;
         STG.E [%r8.64+0x4], %r12 ;
         STG.E [%r8.64+0x8], %r13 ;
         EXIT ;",
    );
    assert_eq!(optimize(&mut f), 1);
    let g = &f.blocks[0].insts[5];
    assert_eq!((g.op, g.guard.is_some()), (Op::MOV, true));
}

#[test]
fn an_unmodelled_instruction_disables_the_pass() {
    let mut f = func(
        ".L_x_0:
         MOV %r10, 0x0 ;
         HMMA %r10, %r2, %r4, %r10 ;
         FFMA %r11, RZ, RZ, %r10 ;
         EXIT ;",
    );
    assert!(solve(&f).is_none());
    assert_eq!(optimize(&mut f), 0);
}

// ---- every fold against the float model ----

const VALUES: [u32; 9] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xc020_0000, // -2.5
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // NaN
    0x0000_0001, // smallest subnormal
    0x7f7f_ffff, // largest finite
];

/// Value sets a register may hold: each single value, and the sets the
/// facts describe (finite, not NaN, not NaN and not -0, the zeros, all).
fn sets() -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = VALUES.iter().map(|&v| vec![v]).collect();
    let f = |p: &dyn Fn(Facts) -> bool| -> Vec<u32> {
        VALUES
            .iter()
            .copied()
            .filter(|&v| p(Facts::of_bits(v)))
            .collect()
    };
    out.push(f(&|x| x.finite));
    out.push(f(&|x| x.not_nan));
    out.push(f(&|x| x.not_nan && x.not_neg_zero));
    out.push(f(&|x| x.zero));
    out.push(VALUES.to_vec());
    out
}

fn facts_of(s: &[u32]) -> Facts {
    s.iter()
        .map(|&v| Facts::of_bits(v))
        .reduce(Facts::meet)
        .unwrap()
}

fn model(op: Op, rnd: Rounding, a: u32, b: u32, c: u32, pick_min: bool) -> u32 {
    match op {
        Op::FADD => fp32::add(a, b, rnd, Mods::NONE),
        Op::FMUL => fp32::mul(a, b, rnd, Mods::NONE),
        Op::FFMA => fp32::fma(a, b, c, rnd, Mods::NONE),
        _ if pick_min => fp32::min(a, b, MinMaxMods::default()),
        _ => fp32::max(a, b, MinMaxMods::default()),
    }
}

#[test]
fn every_fold_agrees_with_the_float_model_on_every_value_it_covers() {
    let ss = sets();
    let mut folds = 0;
    let mut rules_seen = std::collections::BTreeSet::new();
    for (op, mods, n, pick) in [
        (Op::FADD, "", 2, false),
        (Op::FADD, ".RM", 2, false),
        (Op::FMUL, "", 2, false),
        (Op::FFMA, "", 3, false),
        (Op::FFMA, ".RM", 3, false),
        (Op::FFMA, ".RZ", 3, false),
        (Op::FMNMX, "", 2, true),
        (Op::FMNMX, "", 2, false),
    ] {
        let rnd = match mods {
            ".RM" => Rounding::Rm,
            ".RZ" => Rounding::Rz,
            _ => Rounding::Rn,
        };
        let name = op.info().name;
        let p = if pick { ", PT" } else { ", !PT" };
        let text = match (n, op) {
            (3, _) => format!("{name}{mods} %r10, %r1, %r2, %r3 ;"),
            (_, Op::FMNMX) => format!("{name} %r10, %r1, %r2{p} ;"),
            _ => format!("{name}{mods} %r10, %r1, %r2 ;"),
        };
        let inst = func(&format!(".L_x_0:\n{text}\nEXIT ;")).blocks[0].insts[0].clone();
        let combos = ss.len().pow(n as u32);
        for k in 0..combos {
            let pick_set = |j: usize| &ss[(k / ss.len().pow(j as u32)) % ss.len()];
            let chosen: Vec<&Vec<u32>> = (0..n).map(pick_set).collect();
            let st: State = (0..n)
                .map(|j| (RegUnit::VR(j as u32 + 1), Some(facts_of(chosen[j]))))
                .collect();
            let Ok(Some((rule, fold))) = fold_with(&inst, &st) else {
                continue;
            };
            folds += 1;
            rules_seen.insert(RULES[rule].name);
            let c_set = if n == 3 { chosen[2].clone() } else { vec![0] };
            for &a in chosen[0] {
                for &b in chosen[1] {
                    for &c in &c_set {
                        let want = model(op, rnd, a, b, c, pick);
                        let got = match fold {
                            Fold::Const(v) => v,
                            Fold::Copy(i) => [a, b, c][i - 1],
                        };
                        assert_eq!(
                            got, want,
                            "{text}: a={a:#x} b={b:#x} c={c:#x} fold {fold:?}"
                        );
                    }
                }
            }
        }
    }
    // The folds exist at all (a table that never folds would pass above).
    assert!(folds > 100, "{folds}");
    // Every named rule is reachable, so each one's count can be non-zero.
    let names: std::collections::BTreeSet<&str> = RULES.iter().map(|r| r.name).collect();
    assert_eq!(names.len(), RULES.len(), "rule names are unique");
    assert_eq!(rules_seen, names, "every rule folds some facts");
}

#[test]
fn float_immediates_read_as_the_simulator_reads_them() {
    assert_eq!(float_imm_bits("+INF"), Some(0x7f80_0000));
    assert_eq!(float_imm_bits("-INF "), Some(0xff80_0000));
    assert_eq!(float_imm_bits("-QNAN"), Some(0xffc0_0000));
    assert_eq!(float_imm_bits("0.5"), Some(0x3f00_0000));
    assert_eq!(float_imm_bits("-0"), Some(0x8000_0000));
    assert_eq!(float_imm_bits("x"), None);
}
