//! The PTX parser: tokens to AST. Recursive descent; on an error it reports
//! `expected W, found 'T'`, skips to the next statement boundary and goes on,
//! so one run reports every error of a file.

mod decl;
mod instr;
mod literal;

use super::ast::*;
use super::diag::Diagnostic;
use super::intern::{Interner, Sym};
use super::isa::Opcode;
use super::lexer::{Lexer, Tok, Token};
use super::span::Span;
use crate::targets::PtxVersion;

/// Parses PTX text. The module is always returned (with whatever could be
/// parsed); the diagnostics say what was wrong.
pub fn parse(src: &str) -> (Module, Vec<Diagnostic>) {
    let mut p = Parser {
        src,
        lexer: Lexer::new(src),
        toks: Vec::with_capacity(BATCH + 8),
        pos: 0,
        eof_lexed: false,
        prev: EOF_TOKEN,
        consumed: 0,
        stmt_buffers: Vec::new(),
        opcode_cache: Default::default(),
        diags: Vec::new(),
        names: Interner::default(),
        stmt_start: 0,
        sreg_class: Vec::new(),
        nesting: 0,
        unwinding: false,
    };
    let module = p.module();
    let mut diags = p.diags;
    diags.append(&mut p.lexer.diags);
    diags.sort_by_key(|d| d.span.lo);
    (module, diags)
}

/// The deepest nesting of `{ }` blocks, `{ }` initializer lists and
/// `{ }`/`( )` operand lists together. Every pass over a module (this
/// parser, the validator, the lowering, both runners, the printer, the
/// reducer) recurses over blocks; without a bound, 100,000 nested `{` in a
/// 2 MB file overflowed the stack and aborted. Compilers nest a few levels
/// (clang wraps each inline-asm statement in one block); 256 leaves room
/// and fits a 2 MiB test thread in a debug build (tests/nesting in
/// parser/tests).
pub(crate) const MAX_NESTING: u32 = 256;

/// Tokens lexed per batch.
const BATCH: usize = 4096;
const EOF_TOKEN: Token = Token {
    kind: Tok::Eof,
    lo: 0,
    hi: 0,
};

pub(crate) struct Parser<'a> {
    src: &'a str,
    lexer: Lexer<'a>,
    /// The current batch of tokens; `toks[pos]` is the next one.
    toks: Vec<Token>,
    pos: usize,
    /// The batch ends with the `Eof` token.
    eof_lexed: bool,
    /// The last consumed token (for spans and adjacency).
    prev: Token,
    /// How many tokens were consumed (progress checks in recovery).
    consumed: usize,
    /// Reused statement buffers, one per block nesting level: a block's
    /// statements are gathered here and copied once into an exact allocation
    /// (instead of a growing vector copied at every doubling, then shrunk).
    stmt_buffers: Vec<Vec<Statement>>,
    /// Whole opcode spellings seen so far (`ld.global.u32`) with their
    /// opcode and modifiers: real PTX repeats a few hundred spellings.
    opcode_cache: rustc_hash::FxHashMap<&'a str, (Opcode, Mods)>,
    diags: Vec<Diagnostic>,
    names: Interner,
    /// Per interned name: 0 = not classified yet, 1 = not a special register,
    /// 2 = a special register name (so `parse_sreg` runs once per name).
    sreg_class: Vec<u8>,
    /// Byte offset where the current statement began (for cascade suppression).
    stmt_start: u32,
    /// Brackets open now: blocks, initializer lists, operand lists
    /// ([`Parser::nested`]).
    nesting: u32,
    /// A nesting error is unwinding through enclosing brackets.
    unwinding: bool,
}

/// Marker for "an error was reported; recover".
pub(crate) struct Reported;
pub(crate) type PResult<T> = Result<T, Reported>;

impl<'a> Parser<'a> {
    // ---- token access ----

    /// Makes token `pos + k` available (or the `Eof` token is in the batch).
    #[inline]
    fn fill(&mut self, k: usize) {
        if self.pos + k >= self.toks.len() && !self.eof_lexed {
            self.refill();
        }
    }

    #[cold]
    fn refill(&mut self) {
        self.toks.drain(..self.pos);
        self.pos = 0;
        self.eof_lexed = self.lexer.lex_batch(&mut self.toks, BATCH);
    }

    #[inline]
    fn peek(&mut self) -> Token {
        self.fill(0);
        self.toks[self.pos]
    }

    #[inline]
    fn peek_at(&mut self, k: usize) -> Token {
        self.fill(k);
        self.toks[(self.pos + k).min(self.toks.len() - 1)]
    }

    #[inline]
    fn bump(&mut self) -> Token {
        let t = self.peek();
        if t.kind != Tok::Eof {
            self.pos += 1;
            self.prev = t;
            self.consumed += 1;
        }
        t
    }

    #[inline]
    fn text(&self, t: Token) -> &'a str {
        t.text(self.src)
    }

    #[inline]
    fn at_punct(&mut self, c: u8) -> bool {
        self.peek().kind == Tok::Punct(c)
    }

    fn at_dot(&mut self, s: &str) -> bool {
        let t = self.peek();
        t.kind == Tok::Dot && self.text(t) == s
    }

    fn eat_punct(&mut self, c: u8) -> bool {
        if self.at_punct(c) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_dot(&mut self, s: &str) -> bool {
        if self.at_dot(s) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Token `t` directly follows the previous token (no space between).
    fn adjacent(&self, t: Token) -> bool {
        self.consumed > 0 && self.prev.hi == t.lo
    }

    /// The current token starts a new line.
    fn at_line_start(&mut self) -> bool {
        if self.consumed == 0 {
            return true;
        }
        let prev = self.prev.hi as usize;
        let cur = self.peek().lo as usize;
        self.src.as_bytes()[prev..cur].contains(&b'\n')
    }

    fn intern(&mut self, t: Token) -> Sym {
        let s = t.text(self.src);
        self.names.intern(s)
    }

    // ---- nesting ----

    /// Parses a bracketed construct that starts at `open` with `f`,
    /// counting it against [`MAX_NESTING`]. Past the limit: one error, and
    /// the whole too-deep bracket is skipped (a loop, not recursion). An
    /// error that then unwinds through enclosing brackets (initializer and
    /// operand lists do not recover inside) skips the rest of each, so
    /// their closing brackets do not each report a stray `}`.
    fn nested<T>(&mut self, open: Token, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.nesting >= MAX_NESTING {
            let r = self.error(
                open.span(),
                format!("brackets nested more than {MAX_NESTING} deep"),
            );
            self.skip_bracket(true);
            self.unwinding = true;
            return Err(r);
        }
        self.nesting += 1;
        let r = f(self);
        self.nesting -= 1;
        if r.is_err() && self.unwinding {
            self.skip_bracket(false);
        }
        if self.nesting == 0 {
            self.unwinding = false;
        }
        r
    }

    /// Skips tokens through the bracket that closes the current level:
    /// `opening`: the next token opens it; otherwise it is already open.
    fn skip_bracket(&mut self, opening: bool) {
        let mut depth = u32::from(!opening);
        loop {
            let t = self.peek();
            match t.kind {
                Tok::Eof => return,
                Tok::Punct(b'{' | b'(' | b'[') => depth += 1,
                Tok::Punct(b'}' | b')' | b']') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ---- errors ----

    fn error(&mut self, span: Span, msg: impl Into<String>) -> Reported {
        // One error per statement: a lexical error (unterminated string,
        // stray character) or a parse error earlier in the same statement
        // already explains this one.
        let stmt_lo = self.stmt_start;
        let earlier = |d: &Diagnostic| d.span.lo >= stmt_lo && d.span.lo <= span.lo;
        // Lexer diagnostics are in source order and may run ahead of the parser.
        let lex = &self.lexer.diags;
        let first = lex.partition_point(|d| d.span.lo < stmt_lo);
        if self.diags.iter().rev().take(4).any(earlier) || lex.get(first).is_some_and(earlier) {
            return Reported;
        }
        self.diags.push(Diagnostic::error(span, msg));
        Reported
    }

    fn describe(&self, t: Token) -> String {
        if t.kind == Tok::Eof {
            "end of file".to_string()
        } else {
            format!("'{}'", self.text(t))
        }
    }

    /// `expected W, found 'T'` at the current token.
    fn expected(&mut self, what: &str) -> Reported {
        let t = self.peek();
        let msg = format!("expected {}, found {}", what, self.describe(t));
        self.error(t.span(), msg)
    }

    fn expect_punct(&mut self, c: u8) -> PResult<Token> {
        if self.at_punct(c) {
            Ok(self.bump())
        } else {
            Err(self.expected(&format!("'{}'", c as char)))
        }
    }

    fn expect_ident(&mut self) -> PResult<Token> {
        if self.peek().kind == Tok::Ident {
            Ok(self.bump())
        } else {
            Err(self.expected("an identifier"))
        }
    }

    /// Skips to the end of the current statement: past the next `;`, or up to
    /// a `}` or a token that starts a new line and can start a statement.
    fn recover_stmt(&mut self) {
        // The statement's error is caught here: brackets it left open
        // were closed while unwinding (`nested`).
        self.unwinding = false;
        let start = self.consumed;
        // Braces opened while skipping (vector operands) are closed while skipping.
        let mut depth = 0u32;
        loop {
            let t = self.peek();
            match t.kind {
                Tok::Eof => return,
                Tok::Punct(b';') if depth == 0 => {
                    self.bump();
                    return;
                }
                Tok::Punct(b'}') if depth == 0 => return,
                Tok::Punct(b'}') => depth -= 1,
                Tok::Ident | Tok::Dot | Tok::Punct(b'@') | Tok::Punct(b'{')
                    if self.consumed > start && self.at_line_start() =>
                {
                    return
                }
                Tok::Punct(b'{') => depth += 1,
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips at module level to the next token that can start a module item.
    fn recover_module(&mut self) {
        let start = self.consumed;
        let mut depth = 0i32;
        let mut parens = 0i32;
        loop {
            let t = self.peek();
            match t.kind {
                Tok::Eof => return,
                Tok::Punct(b'(') => parens += 1,
                Tok::Punct(b')') => parens -= 1,
                Tok::Punct(b'{') => depth += 1,
                Tok::Punct(b'}') => {
                    depth -= 1;
                    if depth <= 0 {
                        self.bump();
                        return;
                    }
                }
                Tok::Punct(b';') if depth == 0 => {
                    self.bump();
                    return;
                }
                Tok::Dot
                    if depth == 0
                        && parens <= 0
                        && self.consumed > start
                        && self.at_line_start() =>
                {
                    return
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ---- module ----

    fn module(&mut self) -> Module {
        let mut m = Module {
            version: None,
            targets: Vec::new(),
            address_size: None,
            items: Vec::new(),
            names: Interner::default(),
        };
        while self.peek().kind != Tok::Eof {
            let before = self.consumed;
            if self.module_item(&mut m).is_err() {
                self.recover_module();
            }
            if self.consumed == before {
                // Never loop without progress.
                self.bump();
            }
        }
        m.names = std::mem::take(&mut self.names);
        m
    }

    fn module_item(&mut self, m: &mut Module) -> PResult<()> {
        let t = self.peek();
        self.stmt_start = t.lo;
        if t.kind != Tok::Dot {
            return Err(self.expected("a directive"));
        }
        match self.text(t) {
            ".version" => {
                self.bump();
                let v = self.peek();
                if !matches!(v.kind, Tok::Float | Tok::Int) {
                    return Err(self.expected("a version number"));
                }
                self.bump();
                let Some(ver) = PtxVersion::parse(self.text(v)) else {
                    let msg = format!("invalid PTX ISA version '{}'", self.text(v));
                    return Err(self.error(v.span(), msg));
                };
                if m.version.is_some() {
                    return Err(self.error(t.span(), "duplicate .version directive"));
                }
                m.version = Some((ver, v.span()));
            }
            ".target" => {
                self.bump();
                loop {
                    let name = self.expect_ident()?;
                    let sym = self.intern(name);
                    m.targets.push((sym, name.span()));
                    if !self.eat_punct(b',') {
                        break;
                    }
                }
            }
            ".address_size" => {
                self.bump();
                let v = self.peek();
                if v.kind != Tok::Int {
                    return Err(self.expected("an integer"));
                }
                self.bump();
                let n = self.parse_int_token(v)?;
                let n = u32::try_from(n).unwrap_or(u32::MAX);
                m.address_size = Some((n, v.span()));
            }
            ".file" => {
                self.bump();
                let idx = self.peek();
                if idx.kind != Tok::Int {
                    return Err(self.expected("a file number"));
                }
                self.bump();
                let index = u32::try_from(self.parse_int_token(idx)?).unwrap_or(u32::MAX);
                let s = self.peek();
                if s.kind != Tok::Str {
                    return Err(self.expected("a file name string"));
                }
                self.bump();
                let name = self.string_value(s);
                let mut extra = Vec::new();
                while self.eat_punct(b',') {
                    let x = self.peek();
                    if x.kind != Tok::Int {
                        return Err(self.expected("an integer"));
                    }
                    self.bump();
                    extra.push(u64::try_from(self.parse_int_token(x)?).unwrap_or(u64::MAX));
                }
                m.items.push(Item::File {
                    index,
                    name,
                    extra,
                    span: t.span().to(self.prev.span()),
                });
            }
            ".section" => {
                self.bump();
                let name_tok = self.peek();
                if !matches!(name_tok.kind, Tok::Dot | Tok::Ident) {
                    return Err(self.expected("a section name"));
                }
                self.bump();
                let open = self.expect_punct(b'{')?;
                let mut depth = 1;
                let body_start = open.hi as usize;
                let close = loop {
                    let x = self.bump();
                    match x.kind {
                        Tok::Punct(b'{') => depth += 1,
                        Tok::Punct(b'}') => {
                            depth -= 1;
                            if depth == 0 {
                                break x;
                            }
                        }
                        Tok::Eof => return Err(self.error(open.span(), "unclosed '{' of .section")),
                        _ => {}
                    }
                };
                m.items.push(Item::Section {
                    name: self.text(name_tok).to_string(),
                    body: self.src[body_start..close.lo as usize].trim().to_string(),
                    span: t.span().to(close.span()),
                });
            }
            ".pragma" => {
                self.bump();
                let text = self.pragma_string()?;
                self.expect_punct(b';')?;
                m.items.push(Item::Pragma {
                    text,
                    span: t.span(),
                });
            }
            _ => self.linked_item(m)?,
        }
        Ok(())
    }

    /// `[linkage] (.entry | .func | variable declaration)`.
    fn linked_item(&mut self, m: &mut Module) -> PResult<()> {
        let start = self.peek();
        let linkage = self.linkage();
        let t = self.peek();
        if t.kind == Tok::Dot && matches!(self.text(t), ".entry" | ".func") {
            let f = self.function(linkage, start.span())?;
            m.items.push(Item::Function(f));
            return Ok(());
        }
        let decls = self.var_decls(linkage, true)?;
        self.expect_punct(b';')?;
        m.items.extend(decls.into_iter().map(Item::Var));
        Ok(())
    }

    fn linkage(&mut self) -> Linkage {
        let t = self.peek();
        if t.kind != Tok::Dot {
            return Linkage::None;
        }
        let l = match self.text(t) {
            ".visible" => Linkage::Visible,
            ".extern" => Linkage::Extern,
            ".weak" => Linkage::Weak,
            ".common" => Linkage::Common,
            _ => return Linkage::None,
        };
        self.bump();
        l
    }

    fn pragma_string(&mut self) -> PResult<String> {
        let mut parts = Vec::new();
        loop {
            let s = self.peek();
            if s.kind != Tok::Str {
                return Err(self.expected("a string"));
            }
            self.bump();
            parts.push(self.string_value(s));
            if !self.eat_punct(b',') {
                break;
            }
        }
        Ok(parts.join("\", \""))
    }

    /// The contents of a string token, without quotes (escapes kept as written).
    fn string_value(&self, t: Token) -> String {
        let s = self.text(t);
        let s = s.strip_prefix('"').unwrap_or(s);
        s.strip_suffix('"').unwrap_or(s).to_string()
    }

    // ---- functions ----

    fn function(&mut self, linkage: Linkage, start: Span) -> PResult<Function> {
        let kw = self.bump();
        let kind = if self.text(kw) == ".entry" {
            FuncKind::Entry
        } else {
            FuncKind::Func
        };
        let mut returns = None;
        if kind == FuncKind::Func && self.at_punct(b'(') {
            returns = Some(self.param_list()?);
        }
        let name = self.expect_ident()?;
        let name_sym = self.intern(name);
        let mut params = Vec::new();
        if self.at_punct(b'(') {
            params = self.param_list()?;
        }
        let mut attrs = Vec::new();
        loop {
            let t = self.peek();
            if t.kind != Tok::Dot {
                break;
            }
            let attr = match self.text(t) {
                ".noreturn" => {
                    self.bump();
                    FuncAttr::Noreturn
                }
                ".maxntid" => {
                    self.bump();
                    FuncAttr::MaxNtid(self.u32_list()?)
                }
                ".reqntid" => {
                    self.bump();
                    FuncAttr::ReqNtid(self.u32_list()?)
                }
                ".minnctapersm" => {
                    self.bump();
                    FuncAttr::MinNctaPerSm(self.u32_value()?)
                }
                ".maxnctapersm" => {
                    self.bump();
                    FuncAttr::MaxNctaPerSm(self.u32_value()?)
                }
                ".maxnreg" => {
                    self.bump();
                    FuncAttr::MaxNreg(self.u32_value()?)
                }
                ".explicitcluster" => {
                    self.bump();
                    FuncAttr::ExplicitCluster
                }
                ".reqnctapercluster" => {
                    self.bump();
                    FuncAttr::ReqNctaPerCluster(self.u32_list()?)
                }
                ".maxclusterrank" => {
                    self.bump();
                    FuncAttr::MaxClusterRank(self.u32_value()?)
                }
                ".pragma" => {
                    self.bump();
                    let s = self.pragma_string()?;
                    self.expect_punct(b';')?;
                    FuncAttr::Pragma(s)
                }
                _ => break,
            };
            attrs.push(attr);
        }
        let body = if self.eat_punct(b';') {
            None
        } else if self.at_punct(b'{') {
            Some(self.block()?)
        } else {
            return Err(self.expected("'{' or ';'"));
        };
        Ok(Function {
            linkage,
            kind,
            name: name_sym,
            name_span: name.span(),
            returns,
            params,
            attrs,
            body,
            span: start.to(self.prev.span()),
        })
    }

    fn u32_value(&mut self) -> PResult<u32> {
        let t = self.peek();
        if t.kind != Tok::Int {
            return Err(self.expected("an integer"));
        }
        self.bump();
        let v = self.parse_int_token(t)?;
        u32::try_from(v).map_err(|_| self.error(t.span(), "integer literal out of range"))
    }

    fn u32_list(&mut self) -> PResult<Vec<u32>> {
        let mut v = vec![self.u32_value()?];
        while self.eat_punct(b',') {
            v.push(self.u32_value()?);
        }
        Ok(v)
    }

    fn param_list(&mut self) -> PResult<Vec<VarDecl>> {
        self.expect_punct(b'(')?;
        let mut out = Vec::new();
        if self.eat_punct(b')') {
            return Ok(out);
        }
        loop {
            let mut d = self.var_decls(Linkage::None, false)?;
            out.append(&mut d);
            if self.eat_punct(b')') {
                return Ok(out);
            }
            if !self.eat_punct(b',') {
                return Err(self.expected("')'"));
            }
        }
    }

    // ---- blocks and statements ----

    fn block(&mut self) -> PResult<Block> {
        let open = self.peek();
        self.nested(open, Self::block_nested)
    }

    fn block_nested(&mut self) -> PResult<Block> {
        let open = self.expect_punct(b'{')?;
        let mut buf = self.stmt_buffers.pop().unwrap_or_default();
        let result = self.block_body(&mut buf);
        let stmts = result.map(|close| {
            let mut stmts = Vec::with_capacity(buf.len());
            stmts.append(&mut buf);
            Block {
                stmts,
                span: open.span().to(close),
            }
        });
        buf.clear();
        self.stmt_buffers.push(buf);
        stmts
    }

    /// Statements up to the closing `}`; returns its span.
    fn block_body(&mut self, stmts: &mut Vec<Statement>) -> PResult<Span> {
        loop {
            let t = self.peek();
            match t.kind {
                Tok::Punct(b'}') => {
                    self.bump();
                    return Ok(t.span());
                }
                Tok::Eof => {
                    // After an earlier error (an unterminated comment ate the
                    // rest of the file, say) this is only a consequence.
                    if self
                        .diags
                        .iter()
                        .chain(&self.lexer.diags)
                        .any(Diagnostic::is_error)
                    {
                        return Err(Reported);
                    }
                    return Err(self.expected("'}'"));
                }
                _ => {
                    let before = self.consumed;
                    if self.statement(stmts).is_err() {
                        self.recover_stmt();
                    }
                    if self.consumed == before {
                        self.bump();
                    }
                }
            }
        }
    }

    fn statement(&mut self, out: &mut Vec<Statement>) -> PResult<()> {
        let t = self.peek();
        self.stmt_start = t.lo;
        match t.kind {
            Tok::Punct(b'{') => {
                let b = self.block()?;
                out.push(Statement::Block(b));
            }
            Tok::Punct(b'@') => self.instruction(out)?,
            Tok::Ident if self.peek_at(1).kind == Tok::Punct(b':') => {
                self.bump();
                self.bump();
                let sym = self.intern(t);
                if self.at_dot(".branchtargets") {
                    let dir = self.bump();
                    let mut targets = Vec::new();
                    loop {
                        let l = self.expect_ident()?;
                        targets.push((self.intern(l), l.span()));
                        if !self.eat_punct(b',') {
                            break;
                        }
                    }
                    self.expect_punct(b';')?;
                    out.push(Statement::BranchTargets {
                        label: sym,
                        targets,
                        span: t.span().to(dir.span()),
                    });
                } else if self.at_dot(".callprototype") {
                    let dir = self.bump();
                    let returns = if self.at_punct(b'(') {
                        Some(self.param_list()?)
                    } else {
                        None
                    };
                    let us = self.expect_ident()?;
                    if self.text(us) != "_" {
                        return Err(self.error(us.span(), "expected '_' in .callprototype"));
                    }
                    let params = if self.at_punct(b'(') {
                        self.param_list()?
                    } else {
                        Vec::new()
                    };
                    let noreturn = self.eat_dot(".noreturn");
                    self.expect_punct(b';')?;
                    out.push(Statement::CallPrototype {
                        label: sym,
                        returns: returns.map(Vec::into_boxed_slice),
                        params: params.into_boxed_slice(),
                        noreturn,
                        span: t.span().to(dir.span()),
                    });
                } else {
                    out.push(Statement::Label(sym, t.span()));
                }
            }
            Tok::Ident => self.instruction(out)?,
            Tok::Dot => match self.text(t) {
                ".pragma" => {
                    self.bump();
                    let s = self.pragma_string()?;
                    self.expect_punct(b';')?;
                    out.push(Statement::Pragma(s, t.span()));
                }
                ".loc" => {
                    self.bump();
                    // `.loc` ends at the end of the line.
                    let line_end = self.src[t.hi as usize..]
                        .find('\n')
                        .map(|k| t.hi as usize + k)
                        .unwrap_or(self.src.len());
                    while self.peek().kind != Tok::Eof && (self.peek().lo as usize) < line_end {
                        self.bump();
                    }
                    let text = self.src[t.hi as usize..line_end].trim().to_string();
                    out.push(Statement::Loc(text, t.span()));
                }
                _ => {
                    let decls = self.var_decls(Linkage::None, true)?;
                    self.expect_punct(b';')?;
                    out.extend(decls.into_iter().map(|d| Statement::Decl(Box::new(d))));
                }
            },
            _ => return Err(self.expected("a statement")),
        }
        Ok(())
    }
}
