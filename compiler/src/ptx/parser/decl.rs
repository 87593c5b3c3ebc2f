//! Declarations: variables, registers, parameters and their initializers.

use super::{PResult, Parser};
use crate::ptx::ast::*;
use crate::ptx::lexer::Tok;
use crate::ptx::types::ScalarType;

impl Parser<'_> {
    /// `[space] attrs type name[<N>][dims][= init] (, name...)*` after any
    /// linkage. `multi` allows a comma-separated name list (not in parameter lists).
    pub(super) fn var_decls(&mut self, linkage: Linkage, multi: bool) -> PResult<Vec<VarDecl>> {
        let start = self.peek();
        let mut space = match self.text(start) {
            ".reg" => Some(StateSpace::Reg),
            ".sreg" => Some(StateSpace::Sreg),
            ".const" => Some(StateSpace::Const),
            ".global" => Some(StateSpace::Global),
            ".local" => Some(StateSpace::Local),
            ".param" => Some(StateSpace::Param),
            ".shared" => Some(StateSpace::Shared),
            ".tex" => Some(StateSpace::Tex),
            _ => None,
        };
        if start.kind != Tok::Dot {
            return Err(self.expected("a declaration"));
        }
        if space.is_some() {
            self.bump();
        }
        let mut align = None;
        let mut ptr: Option<PtrAttr> = None;
        let mut vector = None;
        let mut ty = None;
        let mut attributes = Vec::new();
        loop {
            let t = self.peek();
            if t.kind != Tok::Dot {
                break;
            }
            let text = self.text(t);
            match text {
                ".align" => {
                    self.bump();
                    let n = self.u32_value()?;
                    match ptr.as_mut() {
                        Some(p) => p.align = Some(n),
                        None => align = Some(n),
                    }
                }
                ".ptr" => {
                    self.bump();
                    ptr = Some(PtrAttr {
                        space: None,
                        align: None,
                    });
                }
                ".global" | ".shared" | ".local" | ".const" if ptr.is_some() => {
                    self.bump();
                    let s = match text {
                        ".global" => StateSpace::Global,
                        ".shared" => StateSpace::Shared,
                        ".local" => StateSpace::Local,
                        _ => StateSpace::Const,
                    };
                    ptr.as_mut().unwrap().space = Some(s);
                }
                ".v2" | ".v4" | ".v8" => {
                    self.bump();
                    vector = Some(text[2..].parse::<u8>().unwrap());
                }
                ".texref" | ".samplerref" | ".surfref" => {
                    self.bump();
                    ty = Some(match text {
                        ".texref" => VarType::Texref,
                        ".samplerref" => VarType::Samplerref,
                        _ => VarType::Surfref,
                    });
                    if space.is_none() {
                        space = Some(StateSpace::Global);
                    }
                }
                ".attribute" => {
                    self.bump();
                    let open = self.expect_punct(b'(')?;
                    let mut depth = 1;
                    let close = loop {
                        let x = self.bump();
                        match x.kind {
                            Tok::Punct(b'(') => depth += 1,
                            Tok::Punct(b')') => {
                                depth -= 1;
                                if depth == 0 {
                                    break x;
                                }
                            }
                            Tok::Eof => return Err(self.expected("')'")),
                            _ => {}
                        }
                    };
                    attributes.push(
                        self.src[open.hi as usize..close.lo as usize]
                            .trim()
                            .to_string(),
                    );
                }
                _ => {
                    let Some(st) = ScalarType::from_name(&text[1..]) else {
                        if space.is_none() {
                            let msg = format!("unknown directive '{text}'");
                            return Err(self.error(t.span(), msg));
                        }
                        return Err(self.expected("a type"));
                    };
                    if ty.is_some() {
                        return Err(self.expected("a name"));
                    }
                    self.bump();
                    ty = Some(VarType::Scalar(st));
                }
            }
        }
        let Some(space) = space else {
            let msg = format!("unknown directive '{}'", self.text(start));
            return Err(self.error(start.span(), msg));
        };
        let Some(ty) = ty else {
            return Err(self.expected("a type"));
        };
        let mut out = Vec::new();
        loop {
            let name = self.expect_ident()?;
            let sym = self.intern(name);
            let mut range = None;
            if self.eat_punct(b'<') {
                range = Some(self.u32_value()?);
                self.expect_punct(b'>')?;
            }
            let mut dims = Vec::new();
            while self.eat_punct(b'[') {
                if self.eat_punct(b']') {
                    dims.push(None);
                    continue;
                }
                let t = self.peek();
                if t.kind != Tok::Int {
                    return Err(self.expected("an array size"));
                }
                self.bump();
                let n = self.parse_int_token(t)?;
                let n = u64::try_from(n)
                    .map_err(|_| self.error(t.span(), "integer literal out of range"))?;
                dims.push(Some(n));
                self.expect_punct(b']')?;
            }
            let init = if self.eat_punct(b'=') {
                Some(self.initializer()?)
            } else {
                None
            };
            let end = self.prev;
            out.push(VarDecl {
                linkage,
                space,
                align,
                ptr,
                vector,
                ty,
                name: sym,
                name_span: name.span(),
                range,
                dims,
                init,
                attributes: attributes.clone(),
                span: start.span().to(end.span()),
            });
            if !(multi && self.eat_punct(b',')) {
                return Ok(out);
            }
        }
    }

    /// `{v, v, ...}`: the items of a (nested) initializer list.
    fn init_list(&mut self) -> PResult<Init> {
        self.expect_punct(b'{')?;
        let mut items = Vec::new();
        if self.eat_punct(b'}') {
            return Ok(Init::List(items));
        }
        loop {
            items.push(self.initializer()?);
            if self.eat_punct(b'}') {
                return Ok(Init::List(items));
            }
            self.expect_punct(b',')?;
        }
    }

    /// `= value`, `= {v, v, ...}` (nested), `= name`, `= generic(name)`, `= name+4`.
    fn initializer(&mut self) -> PResult<Init> {
        if self.at_punct(b'{')
            && self.peek_at(1).kind == Tok::Ident
            && self.peek_at(2).kind == Tok::Punct(b'=')
        {
            self.bump();
            let mut fields = Vec::new();
            loop {
                let k = self.expect_ident()?;
                self.expect_punct(b'=')?;
                let v = self.peek();
                if !matches!(v.kind, Tok::Ident | Tok::Int) {
                    return Err(self.expected("a field value"));
                }
                self.bump();
                fields.push((self.text(k).to_string(), self.text(v).to_string()));
                if self.eat_punct(b'}') {
                    return Ok(Init::Fields(fields));
                }
                self.expect_punct(b',')?;
            }
        }
        if self.at_punct(b'{') {
            let open = self.peek();
            return self.nested(open, Self::init_list);
        }
        let t = self.peek();
        match t.kind {
            Tok::Ident => {
                self.bump();
                let (sym, generic) = if self.text(t) == "generic" && self.at_punct(b'(') {
                    self.bump();
                    let n = self.expect_ident()?;
                    self.expect_punct(b')')?;
                    (self.intern(n), true)
                } else {
                    (self.intern(t), false)
                };
                let mut offset = 0i64;
                if self.at_punct(b'+') || self.at_punct(b'-') {
                    let neg = self.bump().kind == Tok::Punct(b'-');
                    let v = self.peek();
                    if v.kind != Tok::Int {
                        return Err(self.expected("an integer offset"));
                    }
                    self.bump();
                    let n = self.parse_int_token(v)?;
                    offset = i64::try_from(if neg { -n } else { n })
                        .map_err(|_| self.error(v.span(), "integer literal out of range"))?;
                }
                Ok(Init::Addr {
                    sym,
                    generic,
                    offset,
                })
            }
            _ => match self.literal()? {
                i @ Imm::Int { .. } => Ok(Init::Int(i.int_value().unwrap())),
                Imm::F32(b) => Ok(Init::F32(b)),
                Imm::F64(b) => Ok(Init::F64(b)),
                Imm::Float(b) => Ok(Init::Float(b)),
            },
        }
    }
}
