//! Operand shapes: which operands an opcode takes, and which are
//! destinations.
//!
//! A shape is `DESTS = SOURCES`, each a space-separated list of kinds; `[K]`
//! is an optional operand (matched when present, with backtracking), and a
//! lone `*` after `=` (or as the whole shape) accepts any operands. Kinds:
//!
//! | kind | operand |
//! |---|---|
//! | `R` | general register (`R0..R254`, `RZ`, virtual `%rN`) |
//! | `U` | uniform register (`UR0..UR62`, `URZ`, `%urN`) |
//! | `P` | predicate, general or uniform (`P0..P6`, `PT`, `UP0`, `%pN`, ...) |
//! | `Q` | uniform predicate (`UP0..UP6`, `UPT`, `%upN`) |
//! | `S` | ALU source: register (any file), constant, integer or float immediate |
//! | `I` | integer immediate |
//! | `C` | constant-bank operand `c[..][..]` |
//! | `M` | memory address `[..]` |
//! | `Z` | special register `SR_*`, `SRZ` |
//! | `B` | convergence barrier `B0..B15` |
//! | `K` | scoreboard `SB0..SB5` |
//! | `T` | texture shape `1D`, `2D`, `3D` |
//! | `L` | code address: a label, or an absolute address in cuobjdump text |
//! | `W` | register plus relative offset (`BRX R4 -0x860`, `RET.REL R20 0x0`) |
//!
//! Destinations come first in SASS operand order, as in ptxas's operand
//! array (destinations before sources); a predicate "destination" of `PT`
//! discards the result.

use crate::ir::sass_text::{Pred, Reg, SassOperand};

/// Why operands do not fit any of an opcode's shapes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError {
    pub opcode: &'static str,
    pub shapes: &'static [&'static str],
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "operands of {} fit none of its shapes ({})",
            self.opcode,
            self.shapes.join(" | ")
        )
    }
}

fn is_general(r: Reg) -> bool {
    matches!(r, Reg::R(_) | Reg::Rz | Reg::V(_))
}

fn is_uniform_pred(p: Pred) -> bool {
    matches!(p, Pred::Up(_) | Pred::Upt | Pred::Uv(_))
}

/// Whether operand `o` is of kind `k` (one of the table's letters).
pub fn kind_matches(k: u8, o: &SassOperand) -> bool {
    match (k, o) {
        (b'R', SassOperand::Reg(r)) => is_general(r.reg),
        (b'U', SassOperand::Reg(r)) => !is_general(r.reg),
        (b'P', SassOperand::Pred { .. }) => true,
        (b'Q', SassOperand::Pred { pred, .. }) => is_uniform_pred(*pred),
        (b'S', o) => matches!(
            o,
            SassOperand::Reg(_)
                | SassOperand::Const(_)
                | SassOperand::Imm(_)
                | SassOperand::FloatImm(_)
        ),
        (b'I', SassOperand::Imm(_)) => true,
        (b'C', SassOperand::Const(_)) => true,
        (b'M', SassOperand::Mem(_)) => true,
        (b'Z', SassOperand::Special(_)) => true,
        (b'B', SassOperand::Barrier(_)) => true,
        (b'K', SassOperand::Scoreboard(_)) => true,
        (b'T', SassOperand::TexShape(_)) => true,
        (b'L', SassOperand::Label(_) | SassOperand::Imm(_)) => true,
        (b'W', SassOperand::RegRel { .. }) => true,
        _ => false,
    }
}

/// One parsed shape item.
#[derive(Clone, Copy)]
struct Item {
    kind: u8,
    optional: bool,
}

fn items(list: &str) -> impl Iterator<Item = Item> + '_ {
    list.split_whitespace().map(|t| {
        let optional = t.starts_with('[');
        let kind = t.trim_matches(|c| c == '[' || c == ']').as_bytes()[0];
        Item { kind, optional }
    })
}

/// Matches `ops` against `items`, writing the kind given to each operand
/// into `kinds`; whether the whole list fits. Optional items are tried
/// present first, then absent.
fn fits(items: &[Item], ops: &[SassOperand], kinds: &mut [u8]) -> bool {
    match items.split_first() {
        None => ops.is_empty(),
        Some((it, _)) if it.kind == b'*' => {
            kinds.fill(b'*');
            true
        }
        Some((it, rest)) => {
            if ops.first().is_some_and(|o| kind_matches(it.kind, o))
                && fits(rest, &ops[1..], &mut kinds[1..])
            {
                kinds[0] = it.kind;
                return true;
            }
            it.optional && fits(rest, ops, kinds)
        }
    }
}

/// How an instruction's operands fit its opcode's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeMatch {
    /// The number of leading destination operands.
    pub ndst: usize,
    /// The kind letter given to each operand (`*` for wildcard operands).
    pub kinds: Vec<u8>,
}

/// Matches one shape: the destination count and kinds.
fn match_one(shape: &str, ops: &[SassOperand]) -> Option<ShapeMatch> {
    let mut kinds = vec![b'*'; ops.len()];
    if shape == "*" {
        return Some(ShapeMatch { ndst: 0, kinds });
    }
    let (d, s) = shape.split_once('=')?;
    let dst: Vec<Item> = items(d).collect();
    let src: Vec<Item> = items(s).collect();
    // Try every destination count the optional items allow, longest first.
    let min = dst.iter().filter(|i| !i.optional).count();
    for n in (min..=dst.len().min(ops.len())).rev() {
        let (kd, ks) = kinds.split_at_mut(n);
        if fits(&dst, &ops[..n], kd) && fits(&src, &ops[n..], ks) {
            return Some(ShapeMatch { ndst: n, kinds });
        }
    }
    None
}

/// How `ops` fit the first of `shapes` that they fit, or why none does.
pub fn match_shape(
    opcode: &'static str,
    shapes: &'static [&'static str],
    ops: &[SassOperand],
) -> Result<ShapeMatch, ShapeError> {
    shapes
        .iter()
        .find_map(|s| match_one(s, ops))
        .ok_or(ShapeError { opcode, shapes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::sass_text::parse_inst;

    fn ndst(shape: &'static str, text: &str) -> Option<usize> {
        let i = parse_inst(text).unwrap();
        let shapes: &'static [&'static str] = Box::leak(Box::new([shape]));
        match_shape("X", shapes, &i.operands).ok().map(|m| m.ndst)
    }

    #[test]
    fn carry_outs_are_destinations_carry_ins_sources() {
        let s = "R [P] [P] = S S S [P] [P]";
        assert_eq!(ndst(s, "IADD3 R2, P0, R0, R1, RZ ;"), Some(2));
        assert_eq!(ndst(s, "IADD3 R2, P0, P1, R0, R1, RZ ;"), Some(3));
        assert_eq!(ndst(s, "IADD3.X R3, R4, R5, RZ, P0, !PT ;"), Some(1));
        assert_eq!(ndst(s, "IADD3 R2, R0, 0x1, RZ ;"), Some(1));
        assert_eq!(ndst(s, "IADD3 R2, R0, 0x1 ;"), None);
        assert_eq!(ndst(s, "IADD3 P0, R0, 0x1, R2 ;"), None);
    }

    #[test]
    fn leading_optional_destination() {
        let s = "[P] R = S S S I P";
        assert_eq!(
            ndst(s, "LOP3.LUT P0, RZ, R2, 0x1, RZ, 0xc0, !PT ;"),
            Some(2)
        );
        assert_eq!(ndst(s, "LOP3.LUT R0, R2, 0x1, RZ, 0xc0, !PT ;"), Some(1));
    }

    #[test]
    fn vote_forms() {
        let s = "[R] [P] = P";
        assert_eq!(ndst(s, "VOTE.ANY R0, PT, P1 ;"), Some(2));
        assert_eq!(ndst(s, "VOTE.ALL P0, P1 ;"), Some(1));
        assert_eq!(ndst(s, "VOTE.ALL R0 ;"), None);
    }

    #[test]
    fn wildcard_and_kinds() {
        assert_eq!(
            ndst("R R = *", "TLD.SCR.LZ RZ, R2, R4, 0x0, 0x58, 1D, 0x1 ;"),
            Some(2)
        );
        assert_eq!(ndst("*", "AL2P R0, R1 ;"), Some(0));
        assert_eq!(ndst("= [P] [U] L", "BRA.DIV ~URZ, 0x1a0 ;"), Some(0));
        assert_eq!(ndst("= [P] [U] L", "BRA .L_x_3 ;"), Some(0));
        assert_eq!(ndst("= W", "RET.REL.NODEC R20 0x0 ;"), Some(0));
        assert_eq!(ndst("U = Z", "S2UR UR4, SR_CTAID.X ;"), Some(1));
        assert_eq!(ndst("U = Z", "S2UR R4, SR_CTAID.X ;"), None);
        assert_eq!(ndst("R = M", "LDG.E R0, [R2.64] ;"), Some(1));
        assert_eq!(ndst("= M S", "STG.E [R2.64], R0 ;"), Some(0));
        assert_eq!(ndst("R = S", "MUFU.RSQ R0, -QNAN ;"), Some(1));
    }
}
