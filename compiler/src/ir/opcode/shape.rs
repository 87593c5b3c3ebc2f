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
//!
//! An item may name its operand's role after a colon: `R:d [P:co] = S:a
//! S:b S:c [P:ci]` (lower-case names, unique within a shape). The names
//! change nothing in matching; they let a reader of the operands (the SASS
//! simulator's decoder) ask for "the carry-in" instead of counting
//! positions ([`ShapeMatch::position`]). Messages print shapes without
//! them ([`unnamed`]).

use crate::ir::sass_text::{Pred, Reg, SassOperand};

/// Why operands do not fit any of an opcode's shapes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError {
    pub opcode: &'static str,
    pub shapes: &'static [&'static str],
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shapes: Vec<String> = self.shapes.iter().map(|s| unnamed(s)).collect();
        write!(
            f,
            "operands of {} fit none of its shapes ({})",
            self.opcode,
            shapes.join(" | ")
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

/// `shape` without its role names (`R:d [P:co] = S:a` -> `R [P] = S`).
pub fn unnamed(shape: &str) -> String {
    let mut out = String::with_capacity(shape.len());
    let mut in_name = false;
    for c in shape.chars() {
        if c == ':' {
            in_name = true;
        } else if in_name && (c.is_ascii_alphanumeric() || c == '_') {
        } else {
            in_name = false;
            out.push(c);
        }
    }
    out
}

/// One parsed shape item.
#[derive(Clone, Copy)]
struct Item {
    kind: u8,
    optional: bool,
    role: Option<&'static str>,
}

fn items(list: &'static str) -> impl Iterator<Item = Item> {
    list.split_whitespace().map(|t| {
        let optional = t.starts_with('[');
        let body = t.trim_matches(|c| c == '[' || c == ']');
        let (kind, role) = match body.split_once(':') {
            Some((k, r)) => (k, Some(r)),
            None => (body, None),
        };
        Item {
            kind: kind.as_bytes()[0],
            optional,
            role,
        }
    })
}

/// The kind and role given to one operand.
type Slot = (u8, Option<&'static str>);

/// Matches `ops` against `items`, writing the kind and role given to each
/// operand into `slots`; whether the whole list fits. Optional items are
/// tried present first, then absent.
fn fits(items: &[Item], ops: &[SassOperand], slots: &mut [Slot]) -> bool {
    match items.split_first() {
        None => ops.is_empty(),
        Some((it, _)) if it.kind == b'*' => {
            slots.fill((b'*', None));
            true
        }
        Some((it, rest)) => {
            if ops.first().is_some_and(|o| kind_matches(it.kind, o))
                && fits(rest, &ops[1..], &mut slots[1..])
            {
                slots[0] = (it.kind, it.role);
                return true;
            }
            it.optional && fits(rest, ops, slots)
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
    /// The role name the shape gives each operand, where it names one.
    pub roles: Vec<Option<&'static str>>,
}

impl ShapeMatch {
    /// The index of the operand that plays `role`, if one does.
    pub fn position(&self, role: &str) -> Option<usize> {
        self.roles.iter().position(|&r| r == Some(role))
    }
}

/// Matches one shape: the destination count, kinds and roles.
fn match_one(shape: &'static str, ops: &[SassOperand]) -> Option<ShapeMatch> {
    let mut slots: Vec<Slot> = vec![(b'*', None); ops.len()];
    let done = |ndst, slots: Vec<Slot>| {
        let (kinds, roles) = slots.into_iter().unzip();
        Some(ShapeMatch { ndst, kinds, roles })
    };
    if shape == "*" {
        return done(0, slots);
    }
    let (d, s) = shape.split_once('=')?;
    let dst: Vec<Item> = items(d).collect();
    let src: Vec<Item> = items(s).collect();
    // Try every destination count the optional items allow, longest first.
    let min = dst.iter().filter(|i| !i.optional).count();
    for n in (min..=dst.len().min(ops.len())).rev() {
        let (sd, ss) = slots.split_at_mut(n);
        if fits(&dst, &ops[..n], sd) && fits(&src, &ops[n..], ss) {
            return done(n, slots);
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
    fn roles_follow_the_matched_items() {
        let i = parse_inst("IADD3 R2, P0, R0, R1, RZ, P1 ;").unwrap();
        let shapes: &'static [&'static str] =
            &["R:d [P:co0] [P:co1] = S:a S:b S:c [P:ci0] [P:ci1]"];
        let m = match_shape("IADD3", shapes, &i.operands).unwrap();
        assert_eq!(m.ndst, 2);
        assert_eq!(m.position("co0"), Some(1));
        assert_eq!(m.position("co1"), None);
        assert_eq!(m.position("c"), Some(4));
        assert_eq!(m.position("ci0"), Some(5));
        assert_eq!(m.position("ci1"), None);
        assert_eq!(m.kinds, b"RPSSSP");
    }

    #[test]
    fn messages_print_shapes_without_role_names() {
        assert_eq!(
            unnamed("R:d [P:co] = S:a S:b S:c [P:ci]"),
            "R [P] = S S S [P]"
        );
        assert_eq!(unnamed("[P] R R = *"), "[P] R R = *");
        let i = parse_inst("IABS P0, R1 ;").unwrap();
        let e = match_shape("IABS", &["R:d = S:a"], &i.operands).unwrap_err();
        assert_eq!(
            e.to_string(),
            "operands of IABS fit none of its shapes (R = S)"
        );
    }

    /// Role names are lower-case and unique within each shape of the table.
    #[test]
    fn table_role_names_are_well_formed() {
        for row in crate::ir::opcode::OPCODES {
            for shape in row.shapes {
                let mut seen = Vec::new();
                for t in shape.split_whitespace() {
                    let Some((_, r)) = t.trim_matches(|c| c == '[' || c == ']').split_once(':')
                    else {
                        continue;
                    };
                    assert!(
                        !r.is_empty()
                            && r.bytes()
                                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                        "{}: role `{r}` in `{shape}`",
                        row.name
                    );
                    assert!(
                        !seen.contains(&r),
                        "{}: role `{r}` twice in `{shape}`",
                        row.name
                    );
                    seen.push(r);
                }
            }
        }
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
