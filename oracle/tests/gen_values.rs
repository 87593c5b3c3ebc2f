//! The generator's operand values (oracle/src/gen/values.rs) as they show
//! in the programs it writes: the second operand of a 64-bit integer
//! operation or comparison is related to the first (the same register, or
//! a value derived from it: +-1, negation, complement, the low word's top
//! bit flipped, equal high or low halves, a left shift) at stated minimum
//! rates, and the 64-bit input buffer's elements share high words.
//! The relations are recognised here from the PTX text (host arithmetic on
//! the derivation's immediate), not from the generator's own tables.

use std::collections::HashMap;

use oracle::gen::{generate, Family, GenConfig, VType};
use oracle::launch::Init;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Rel {
    Same,
    PlusOne,
    MinusOne,
    Neg,
    Not,
    SignFlip,
    SameHi,
    SameLo,
    Shl,
}

const ALL: [Rel; 9] = [
    Rel::Same,
    Rel::PlusOne,
    Rel::MinusOne,
    Rel::Neg,
    Rel::Not,
    Rel::SignFlip,
    Rel::SameHi,
    Rel::SameLo,
    Rel::Shl,
];

/// `(opcode, operands)` of an instruction line (guard dropped).
fn parse(line: &str) -> Option<(&str, Vec<&str>)> {
    let l = line.trim().strip_suffix(';')?;
    let l = if l.starts_with('@') {
        l.split_once(' ')?.1
    } else {
        l
    };
    let (op, rest) = l.split_once(' ')?;
    Some((op, rest.split(", ").map(str::trim).collect()))
}

fn imm(s: &str) -> Option<u64> {
    s.parse::<u64>()
        .ok()
        .or_else(|| s.parse::<i64>().ok().map(|v| v as u64))
}

/// The relation a line writes between its destination and its first
/// source, when it is one of the derivations (64-bit or 32-bit by `w`).
fn derivation(op: &str, ops: &[&str], w: u32) -> Option<Rel> {
    let (kind, ty) = op.split_once('.')?;
    let k = ops.get(2).and_then(|s| imm(s));
    let half = w / 2;
    let lo_mask = (1u64 << half) - 1;
    let top_lo = 1u64 << (w.min(32) - 1);
    let (sign, bits) = ty.split_at(1);
    if bits.parse::<u32>().ok()? != w {
        return None;
    }
    Some(match (kind, sign, k) {
        ("add", "s", Some(1)) => Rel::PlusOne,
        ("sub", "s", Some(1)) => Rel::MinusOne,
        ("neg", "s", None) => Rel::Neg,
        ("not", "b", None) => Rel::Not,
        ("xor", "b", Some(k)) if k == top_lo => Rel::SignFlip,
        ("xor", "b", Some(k)) if k != 0 && k & !lo_mask == 0 => Rel::SameHi,
        ("xor", "b", Some(k)) if k != 0 && k & lo_mask == 0 => Rel::SameLo,
        ("shl", "b", Some(k)) if k > 0 && k < u64::from(w) => Rel::Shl,
        _ => return None,
    })
}

/// Per relation, how many binary operations of `w`-bit integers in the
/// programs have their two sources so related; and how many such
/// operations there are.
fn count(progs: &[String], w: u32) -> (HashMap<Rel, u32>, u32) {
    let prefix = if w == 64 { "%rd" } else { "%r" };
    let is_reg = |s: &str| s.starts_with(prefix) && s[prefix.len()..].parse::<u32>().is_ok();
    let types: &[&str] = if w == 64 {
        &["s64", "u64", "b64"]
    } else {
        &["s32", "u32", "b32"]
    };
    let binary = [
        "add", "sub", "mul.lo", "mul.hi", "min", "max", "and", "or", "xor", "mad.lo", "setp",
    ];
    let mut rel: HashMap<Rel, u32> = HashMap::new();
    let mut ops_n = 0;
    for ptx in progs {
        // address arithmetic (`add.s64 a, base, off`) and the epilogue's
        // checksum (`xor.b64 c, c, v`) are not operand pairs the value
        // distribution chooses: leave them out
        let addresses: std::collections::HashSet<&str> = ptx
            .split('[')
            .skip(1)
            .filter_map(|s| s.split([']', '+']).next())
            .collect();
        // register -> (source register, relation) of its last write
        let mut derived: HashMap<&str, (&str, Rel)> = HashMap::new();
        for line in ptx.lines() {
            let Some((op, ops)) = parse(line) else {
                continue;
            };
            let ty = op.rsplit('.').next().unwrap_or("");
            let base = op.rsplit_once('.').map_or(op, |x| x.0);
            let is_binary = types.contains(&ty)
                && binary
                    .iter()
                    .any(|b| base == *b || (*b == "setp" && base.starts_with("setp.")));
            let bookkeeping = ops.first().is_some_and(|d| addresses.contains(d))
                || (base == "xor" && ops.first() == ops.get(1));
            if is_binary && !bookkeeping && ops.len() >= 3 && is_reg(ops[1]) {
                ops_n += 1;
                let (x, y) = (ops[1], ops[2]);
                let r = if x == y {
                    Some(Rel::Same)
                } else {
                    derived.get(y).filter(|d| d.0 == x).map(|d| d.1)
                };
                if let Some(r) = r {
                    *rel.entry(r).or_default() += 1;
                }
            }
            if let Some(&d) = ops.first() {
                match derivation(op, &ops, w) {
                    Some(r) if ops.len() >= 2 && is_reg(ops[1]) => {
                        derived.insert(d, (ops[1], r));
                    }
                    _ => {
                        derived.remove(d);
                    }
                }
            }
        }
    }
    (rel, ops_n)
}

fn programs(n: u64) -> Vec<oracle::gen::GenProgram> {
    let mut cfg = GenConfig::default();
    cfg.families.allow = vec![Family::Int, Family::Int64, Family::Pred];
    cfg.types.allow = vec![VType::U32, VType::S32, VType::U64, VType::S64];
    (0..n).map(|s| generate(s, &cfg)).collect()
}

#[test]
fn related_operands_occur_at_stated_rates() {
    let ps = programs(1500);
    let texts: Vec<String> = ps.iter().map(|p| p.ptx.clone()).collect();
    // 64-bit: values.rs relates the second operand 30% of the time (34%
    // measured over these programs, with coincidences of the pool)
    let (rel, n) = count(&texts, 64);
    assert!(n >= 1000, "only {n} 64-bit binary operations");
    let total: u32 = rel.values().sum();
    assert!(
        total * 100 >= n * 18,
        "related 64-bit pairs {total}/{n}: {rel:?}"
    );
    for r in ALL {
        let got = rel.get(&r).copied().unwrap_or(0);
        // each relation at least 1% of the operations (Same and SameHi,
        // the planted-bug shapes of issue 29, at least 2%)
        let min = if matches!(r, Rel::Same | Rel::SameHi) {
            2
        } else {
            1
        };
        assert!(got * 100 >= n * min, "64-bit {r:?}: {got}/{n}: {rel:?}");
    }
    // 32-bit: 15% of the time
    // 32-bit: 15% of the family's operations, diluted by the index
    // arithmetic of every load (`and.b32`, `mad.lo.u32`)
    let (rel, n) = count(&texts, 32);
    assert!(n >= 1000, "only {n} 32-bit binary operations");
    let total: u32 = rel.values().sum();
    assert!(
        total * 100 >= n * 3,
        "related 32-bit pairs {total}/{n}: {rel:?}"
    );
    for r in ALL {
        let got = rel.get(&r).copied().unwrap_or(0);
        assert!(got > 0, "32-bit {r:?} never: {rel:?}");
    }
    // signed and unsigned 64-bit comparisons both occur
    for c in ["s64", "u64"] {
        let setp = texts
            .iter()
            .filter(|t| t.lines().any(|l| l.contains("setp.") && l.contains(c)))
            .count();
        assert!(setp * 10 >= texts.len(), "setp on {c} in {setp} programs");
    }
}

#[test]
fn input_buffers_share_high_words_and_hold_boundary_values() {
    let ps = programs(100);
    let (mut pairs, mut same_hi, mut edges) = (0u64, 0u64, 0u64);
    let mut elems = 0u64;
    for p in &ps {
        let b = p.spec.buffers.iter().find(|b| b.name == "in_u64").unwrap();
        let Init::Bits(v) = &b.init else {
            panic!("in_u64 init {:?}", b.init)
        };
        assert_eq!(v.len() as u64, b.len);
        for i in 0..v.len() {
            elems += 1;
            let (hi, lo) = (v[i] >> 32, v[i] & 0xffff_ffff);
            let edge = |x: u64| [0, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff].contains(&x);
            edges += u64::from(edge(hi) && edge(lo));
            for w in &v[i + 1..] {
                pairs += 1;
                same_hi += u64::from(v[i] >> 32 == w >> 32);
            }
        }
    }
    // random 64-bit pairs share a high word with probability 2^-32
    assert!(same_hi * 100 >= pairs * 8, "{same_hi}/{pairs}");
    // both halves 0, 1, 0x7fffffff, 0x80000000 or 0xffffffff: at least 5%
    assert!(edges * 100 >= elems * 5, "{edges}/{elems}");
}
