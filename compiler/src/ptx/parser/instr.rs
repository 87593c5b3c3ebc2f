//! Instructions and operands.

use super::{PResult, Parser};
use crate::ptx::ast::*;
use crate::ptx::isa::Opcode;
use crate::ptx::lexer::{Tok, Token};
use crate::ptx::modifiers::Mod;
use crate::ptx::span::Span;
use crate::ptx::sreg::parse_sreg;

impl Parser<'_> {
    /// `[@[!]%p] opcode[.mod]* [operand (, operand)*] ;`
    /// Parses an instruction and pushes it as a statement (built in place:
    /// an instruction is large, and returning it by value costs copies).
    pub(super) fn instruction(&mut self, out: &mut Vec<Statement>) -> PResult<()> {
        let start = self.peek();
        let mut guard = None;
        if self.eat_punct(b'@') {
            let neg = self.eat_punct(b'!');
            let r = self.expect_ident()?;
            guard = Some(Guard {
                reg: self.intern(r),
                negated: neg,
                span: r.span(),
            });
        }
        let op_tok = self.expect_ident()?;
        let (opcode, mods, op_span) = self.opcode_and_mods(op_tok)?;
        let mut operands = Operands::new();
        if !self.at_punct(b';') {
            self.operands_into(&mut operands)?;
        }
        let semi = self.expect_punct(b';')?;
        out.push(Statement::Instr(Instruction {
            guard,
            opcode,
            mods,
            operands,
            op_span,
            span: start.span().to(semi.span()),
        }));
        Ok(())
    }

    /// The opcode token and its adjacent modifiers, through the spelling cache.
    fn opcode_and_mods(&mut self, op_tok: Token) -> PResult<(Opcode, Mods, Span)> {
        let mut end = op_tok;
        loop {
            let t = self.peek();
            if t.kind != Tok::Dot || !self.adjacent(t) {
                break;
            }
            end = self.bump();
        }
        let op_span = op_tok.span().to(end.span());
        let spelling = &self.src[op_span.lo as usize..op_span.hi as usize];
        if let Some(&(op, mods)) = self.opcode_cache.get(spelling) {
            return Ok((op, mods, op_span));
        }
        let op_name = self.text(op_tok);
        let Some(opcode) = Opcode::from_name(op_name) else {
            let msg = format!("unknown instruction '{op_name}'");
            return Err(self.error(op_tok.span(), msg));
        };
        let mut mods = Mods::default();
        let mut lo = op_tok.hi as usize;
        let suffix = spelling.get(op_name.len() + 1..).unwrap_or("");
        for text in suffix.split('.').filter(|t| !t.is_empty()) {
            let span = Span::new(lo, lo + 1 + text.len());
            lo = span.hi as usize;
            let Some(m) = Mod::from_text(text) else {
                let msg = format!("unknown modifier '.{text}' for '{op_name}'");
                return Err(self.error(span, msg));
            };
            if !mods.push(m) {
                return Err(self.error(span, format!("too many modifiers for '{op_name}'")));
            }
        }
        self.opcode_cache.insert(spelling, (opcode, mods));
        Ok((opcode, mods, op_span))
    }

    /// A comma-separated operand list, gathered on the stack and moved to
    /// the heap in one exactly sized allocation.
    fn operand_list(&mut self) -> PResult<Box<[Operand]>> {
        let mut v: smallvec::SmallVec<[Operand; 6]> = smallvec::SmallVec::new();
        self.operands_into(&mut v)?;
        // Exact capacity, so `into_boxed_slice` does not reallocate.
        let mut out = Vec::with_capacity(v.len());
        out.extend(v.drain(..));
        Ok(out.into_boxed_slice())
    }

    fn operands_into<A: smallvec::Array<Item = Operand>>(
        &mut self,
        v: &mut smallvec::SmallVec<A>,
    ) -> PResult<()> {
        loop {
            v.push(self.operand(false)?);
            if !self.eat_punct(b',') {
                return Ok(());
            }
        }
    }

    /// One operand. `in_brackets` disables `name+offset` folding (handled by
    /// the address parser).
    fn operand(&mut self, in_brackets: bool) -> PResult<Operand> {
        let t = self.peek();
        if matches!(t.kind, Tok::Punct(b'{' | b'(')) {
            return self.nested(t, |p| p.operand_nested(in_brackets));
        }
        self.operand_nested(in_brackets)
    }

    fn operand_nested(&mut self, in_brackets: bool) -> PResult<Operand> {
        let t = self.peek();
        let kind = match t.kind {
            Tok::Punct(b'{') => {
                self.bump();
                let elems = self.operand_list()?;
                self.expect_punct(b'}')?;
                if self.eat_punct(b'|') {
                    let p = self.expect_ident()?;
                    OperandKind::VectorPred(elems, self.intern(p))
                } else {
                    OperandKind::Vector(elems)
                }
            }
            Tok::Punct(b'(') => {
                self.bump();
                let elems = if self.at_punct(b')') {
                    Box::default()
                } else {
                    self.operand_list()?
                };
                self.expect_punct(b')')?;
                OperandKind::List(elems)
            }
            Tok::Punct(b'[') => OperandKind::Addr(Box::new(self.address()?)),
            Tok::Punct(b'!') => {
                self.bump();
                let r = self.expect_ident()?;
                OperandKind::Not(self.intern(r))
            }
            Tok::Punct(b'-') | Tok::Int | Tok::Float | Tok::FloatBits => {
                OperandKind::Imm(self.literal()?)
            }
            Tok::Ident => {
                self.bump();
                let text = self.text(t);
                if text == "_" {
                    OperandKind::Sink
                } else {
                    self.name_operand(t, in_brackets)?
                }
            }
            _ => return Err(self.expected("an operand")),
        };
        let end = self.prev;
        Ok(Operand {
            kind,
            span: t.span().to(end.span()),
        })
    }

    /// A name, possibly `%sreg.x`, `%v.x`, `%p|%q` or `name+4`.
    fn name_operand(
        &mut self,
        t: crate::ptx::lexer::Token,
        in_brackets: bool,
    ) -> PResult<OperandKind> {
        let text = self.text(t);
        // A component written right after the name: `%tid.x`, `%v1.y`.
        let comp = {
            let n = self.peek();
            (n.kind == Tok::Dot && self.adjacent(n)).then_some(n)
        };
        let sym = self.intern(t);
        if text.starts_with('%') && self.is_sreg_name(sym, text) {
            let comp_text = comp.map(|c| &self.text(c)[1..]);
            if let Some(res) = parse_sreg(text, comp_text) {
                if comp.is_some() {
                    self.bump();
                }
                return match res {
                    Ok(r) => Ok(OperandKind::Special(r)),
                    Err(msg) => {
                        let span = comp.map(|c| c.span()).unwrap_or(t.span());
                        Err(self.error(span, msg))
                    }
                };
            }
        }
        if let Some(c) = comp {
            let idx = match &self.text(c)[1..] {
                "x" | "r" => 0,
                "y" | "g" => 1,
                "z" | "b" => 2,
                "w" | "a" => 3,
                other => {
                    let msg = format!("invalid vector component '.{other}'");
                    return Err(self.error(c.span(), msg));
                }
            };
            self.bump();
            return Ok(OperandKind::Component(sym, idx));
        }
        if self.eat_punct(b'|') {
            let q = self.expect_ident()?;
            return Ok(OperandKind::PredPair(sym, self.intern(q)));
        }
        if !in_brackets
            && (self.at_punct(b'+') || self.at_punct(b'-'))
            && self.peek_at(1).kind == Tok::Int
        {
            let neg = self.bump().kind == Tok::Punct(b'-');
            let v = self.bump();
            let n = self.parse_int_token(v)?;
            let off = i64::try_from(if neg { -n } else { n })
                .map_err(|_| self.error(v.span(), "integer literal out of range"))?;
            return Ok(OperandKind::SymOffset(sym, off));
        }
        Ok(OperandKind::Name(sym))
    }

    /// Whether an interned `%name` is a special register (cached per name).
    fn is_sreg_name(&mut self, sym: crate::ptx::intern::Sym, text: &str) -> bool {
        let i = sym.0 as usize;
        if i >= self.sreg_class.len() {
            self.sreg_class.resize(i + 1, 0);
        }
        if self.sreg_class[i] == 0 {
            // Any component makes a special name answer Some (Ok or Err).
            self.sreg_class[i] = if parse_sreg(text, Some("x")).is_some() {
                2
            } else {
                1
            };
        }
        self.sreg_class[i] == 2
    }

    /// `[base]`, `[base+off]`, `[base+-off]`, `[base-off]`, `[imm]`, and the
    /// texture forms `[tex, {coords}]`, `[tex, sampler, {coords}]`.
    fn address(&mut self) -> PResult<Address> {
        self.expect_punct(b'[')?;
        let t = self.peek();
        let (base, mut offset) = match t.kind {
            Tok::Ident => {
                self.bump();
                (AddrBase::Name(self.intern(t)), 0i64)
            }
            Tok::Int | Tok::Punct(b'-') => {
                let neg = self.eat_punct(b'-');
                let v = self.peek();
                if v.kind != Tok::Int {
                    return Err(self.expected("an address"));
                }
                self.bump();
                let n = self.parse_int_token(v)?;
                let n = i64::try_from(if neg { -n } else { n })
                    .map_err(|_| self.error(v.span(), "integer literal out of range"))?;
                (AddrBase::None, n)
            }
            _ => return Err(self.expected("an address")),
        };
        if matches!(base, AddrBase::Name(_)) && (self.at_punct(b'+') || self.at_punct(b'-')) {
            let mut neg = self.bump().kind == Tok::Punct(b'-');
            if self.eat_punct(b'-') {
                neg = !neg;
            }
            let v = self.peek();
            if v.kind != Tok::Int {
                return Err(self.expected("an integer offset"));
            }
            self.bump();
            let n = self.parse_int_token(v)?;
            offset = i64::try_from(if neg { -n } else { n })
                .map_err(|_| self.error(v.span(), "integer literal out of range"))?;
        }
        let mut rest = Vec::new();
        while self.eat_punct(b',') {
            rest.push(self.operand(true)?);
        }
        self.expect_punct(b']')?;
        Ok(Address {
            base,
            base_span: t.span(),
            offset,
            rest,
        })
    }
}
