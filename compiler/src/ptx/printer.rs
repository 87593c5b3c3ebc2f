//! AST to PTX text. The output parses back to the same AST (up to spans), and
//! printing that again gives the same text (a fixed point after one round).

use super::ast::*;
use std::fmt::Write;

pub fn print(m: &Module) -> String {
    let mut p = Printer {
        m,
        out: String::with_capacity(4096),
    };
    p.module();
    p.out
}

struct Printer<'m> {
    m: &'m Module,
    out: String,
}

impl Printer<'_> {
    fn module(&mut self) {
        let m = self.m;
        if let Some((v, _)) = m.version {
            let _ = writeln!(self.out, ".version {v}");
        }
        if !m.targets.is_empty() {
            let t: Vec<&str> = m.targets.iter().map(|&(s, _)| self.m.name(s)).collect();
            let _ = writeln!(self.out, ".target {}", t.join(", "));
        }
        if let Some((n, _)) = m.address_size {
            let _ = writeln!(self.out, ".address_size {n}");
        }
        for item in &m.items {
            self.out.push('\n');
            match item {
                Item::Var(v) => {
                    self.var_decl(v);
                    self.out.push_str(";\n");
                }
                Item::Function(f) => self.function(f),
                Item::File {
                    index, name, extra, ..
                } => {
                    let _ = write!(self.out, ".file {index} \"{name}\"");
                    for x in extra {
                        let _ = write!(self.out, ", {x}");
                    }
                    self.out.push('\n');
                }
                Item::Section { name, body, .. } => {
                    let _ = writeln!(self.out, ".section {name}\n{{\n{body}\n}}");
                }
                Item::Pragma { text, .. } => {
                    let _ = writeln!(self.out, ".pragma \"{text}\";");
                }
            }
        }
    }

    fn function(&mut self, f: &Function) {
        if let Some(l) = f.linkage.text() {
            self.out.push_str(l);
            self.out.push(' ');
        }
        self.out.push_str(match f.kind {
            FuncKind::Entry => ".entry ",
            FuncKind::Func => ".func ",
        });
        if let Some(rets) = &f.returns {
            self.param_list(rets, false);
            self.out.push(' ');
        }
        self.out.push_str(self.m.name(f.name));
        if !f.params.is_empty() || f.kind == FuncKind::Entry {
            self.param_list(&f.params, true);
        }
        for a in &f.attrs {
            self.out.push('\n');
            match a {
                FuncAttr::Noreturn => self.out.push_str(".noreturn"),
                FuncAttr::MaxNtid(v) => self.dims(".maxntid", v),
                FuncAttr::ReqNtid(v) => self.dims(".reqntid", v),
                FuncAttr::MinNctaPerSm(n) => {
                    let _ = write!(self.out, ".minnctapersm {n}");
                }
                FuncAttr::MaxNctaPerSm(n) => {
                    let _ = write!(self.out, ".maxnctapersm {n}");
                }
                FuncAttr::MaxNreg(n) => {
                    let _ = write!(self.out, ".maxnreg {n}");
                }
                FuncAttr::ExplicitCluster => self.out.push_str(".explicitcluster"),
                FuncAttr::ReqNctaPerCluster(v) => self.dims(".reqnctapercluster", v),
                FuncAttr::MaxClusterRank(n) => {
                    let _ = write!(self.out, ".maxclusterrank {n}");
                }
                FuncAttr::Pragma(s) => {
                    let _ = write!(self.out, ".pragma \"{s}\";");
                }
            }
        }
        match &f.body {
            None => self.out.push_str(";\n"),
            Some(b) => {
                self.out.push('\n');
                self.block(b, 0);
                self.out.push('\n');
            }
        }
    }

    fn dims(&mut self, kw: &str, v: &[u32]) {
        let parts: Vec<String> = v.iter().map(u32::to_string).collect();
        let _ = write!(self.out, "{kw} {}", parts.join(", "));
    }

    fn param_list(&mut self, ps: &[VarDecl], multiline: bool) {
        self.out.push('(');
        for (i, p) in ps.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
                if !multiline {
                    self.out.push(' ');
                }
            }
            if multiline {
                self.out.push_str("\n\t");
            }
            self.var_decl(p);
        }
        if multiline && !ps.is_empty() {
            self.out.push('\n');
        }
        self.out.push(')');
    }

    fn var_decl(&mut self, v: &VarDecl) {
        if let Some(l) = v.linkage.text() {
            self.out.push_str(l);
            self.out.push(' ');
        }
        self.out.push_str(v.space.text());
        for a in &v.attributes {
            let _ = write!(self.out, " .attribute({a})");
        }
        if let Some(a) = v.align {
            let _ = write!(self.out, " .align {a}");
        }
        if let Some(n) = v.vector {
            let _ = write!(self.out, " .v{n}");
        }
        match v.ty {
            VarType::Scalar(t) => {
                let _ = write!(self.out, " {t}");
            }
            VarType::Texref => self.out.push_str(" .texref"),
            VarType::Samplerref => self.out.push_str(" .samplerref"),
            VarType::Surfref => self.out.push_str(" .surfref"),
        }
        if let Some(p) = v.ptr {
            self.out.push_str(" .ptr");
            if let Some(s) = p.space {
                let _ = write!(self.out, " {}", s.text());
            }
            if let Some(a) = p.align {
                let _ = write!(self.out, " .align {a}");
            }
        }
        self.out.push(' ');
        self.out.push_str(self.m.name(v.name));
        if let Some(n) = v.range {
            let _ = write!(self.out, "<{n}>");
        }
        for d in &v.dims {
            match d {
                Some(n) => {
                    let _ = write!(self.out, "[{n}]");
                }
                None => self.out.push_str("[]"),
            }
        }
        if let Some(init) = &v.init {
            self.out.push_str(" = ");
            self.init(init);
        }
    }

    fn init(&mut self, i: &Init) {
        match i {
            Init::Int(v) => {
                let _ = write!(self.out, "{v}");
            }
            Init::F32(b) => {
                let _ = write!(self.out, "0f{b:08X}");
            }
            Init::F64(b) => {
                let _ = write!(self.out, "0d{b:016X}");
            }
            Init::Float(b) => self.out.push_str(&float_text(*b)),
            Init::Addr {
                sym,
                generic,
                offset,
            } => {
                let n = self.m.name(*sym);
                if *generic {
                    let _ = write!(self.out, "generic({n})");
                } else {
                    self.out.push_str(n);
                }
                if *offset != 0 {
                    let _ = write!(self.out, "{offset:+}");
                }
            }
            Init::Fields(fields) => {
                let parts: Vec<String> = fields.iter().map(|(k, v)| format!("{k} = {v}")).collect();
                let _ = write!(self.out, "{{ {} }}", parts.join(", "));
            }
            Init::List(items) => {
                self.out.push('{');
                for (k, x) in items.iter().enumerate() {
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    self.init(x);
                }
                self.out.push('}');
            }
        }
    }

    fn indent(&mut self, depth: usize) {
        for _ in 0..=depth {
            self.out.push('\t');
        }
    }

    fn block(&mut self, b: &Block, depth: usize) {
        if depth > 0 {
            self.indent(depth - 1);
        }
        self.out.push_str("{\n");
        for s in &b.stmts {
            self.statement(s, depth);
        }
        if depth > 0 {
            self.indent(depth - 1);
        }
        self.out.push('}');
    }

    fn statement(&mut self, s: &Statement, depth: usize) {
        match s {
            Statement::Label(l, _) => {
                let _ = writeln!(self.out, "{}:", self.m.name(*l));
            }
            Statement::Block(b) => {
                self.block(b, depth + 1);
                self.out.push('\n');
            }
            Statement::Decl(v) => {
                self.indent(depth);
                self.var_decl(v);
                self.out.push_str(";\n");
            }
            Statement::Instr(i) => {
                self.indent(depth);
                self.instruction(i);
                self.out.push('\n');
            }
            Statement::Pragma(t, _) => {
                self.indent(depth);
                let _ = writeln!(self.out, ".pragma \"{t}\";");
            }
            Statement::Loc(t, _) => {
                self.indent(depth);
                let _ = writeln!(self.out, ".loc {t}");
            }
            Statement::BranchTargets { label, targets, .. } => {
                let names: Vec<&str> = targets.iter().map(|&(t, _)| self.m.name(t)).collect();
                let _ = writeln!(
                    self.out,
                    "{}: .branchtargets {};",
                    self.m.name(*label),
                    names.join(", ")
                );
            }
            Statement::CallPrototype {
                label,
                returns,
                params,
                noreturn,
                ..
            } => {
                let _ = write!(self.out, "{}: .callprototype ", self.m.name(*label));
                if let Some(r) = returns {
                    self.param_list(r, false);
                    self.out.push(' ');
                }
                self.out.push('_');
                if !params.is_empty() {
                    self.out.push(' ');
                    self.param_list(params, false);
                }
                if *noreturn {
                    self.out.push_str(" .noreturn");
                }
                self.out.push_str(";\n");
            }
        }
    }

    /// One instruction without indentation or newline.
    fn instruction(&mut self, i: &Instruction) {
        if let Some(g) = i.guard {
            let _ = write!(
                self.out,
                "@{}{} ",
                if g.negated { "!" } else { "" },
                self.m.name(g.reg)
            );
        }
        self.out.push_str(i.opcode.name());
        for m in i.mods.iter() {
            self.out.push('.');
            self.out.push_str(m.text());
        }
        for (k, o) in i.operands.iter().enumerate() {
            self.out.push_str(if k == 0 { " \t" } else { ", " });
            self.operand(o);
        }
        self.out.push(';');
    }

    fn operand(&mut self, o: &Operand) {
        match &o.kind {
            OperandKind::Name(s) => self.out.push_str(self.m.name(*s)),
            OperandKind::Component(s, c) => {
                let _ = write!(
                    self.out,
                    "{}.{}",
                    self.m.name(*s),
                    ["x", "y", "z", "w"][*c as usize]
                );
            }
            OperandKind::Not(s) => {
                let _ = write!(self.out, "!{}", self.m.name(*s));
            }
            OperandKind::PredPair(a, b) => {
                let _ = write!(self.out, "{}|{}", self.m.name(*a), self.m.name(*b));
            }
            OperandKind::Special(r) => {
                self.out.push_str(&r.name());
                if let Some(d) = r.dim() {
                    self.out.push_str(match d {
                        Dim::X => ".x",
                        Dim::Y => ".y",
                        Dim::Z => ".z",
                    });
                }
            }
            OperandKind::Imm(imm) => self.imm(imm),
            OperandKind::SymOffset(s, off) => {
                let _ = write!(self.out, "{}{:+}", self.m.name(*s), off);
            }
            OperandKind::Addr(a) => {
                self.out.push('[');
                match a.base {
                    AddrBase::Name(s) => {
                        self.out.push_str(self.m.name(s));
                        if a.offset != 0 {
                            let _ = write!(self.out, "+{}", a.offset);
                        }
                    }
                    AddrBase::None => {
                        let _ = write!(self.out, "{}", a.offset);
                    }
                }
                for r in &a.rest {
                    self.out.push_str(", ");
                    self.operand(r);
                }
                self.out.push(']');
            }
            OperandKind::Vector(v) => self.list('{', v, '}'),
            OperandKind::VectorPred(v, p) => {
                self.list('{', v, '}');
                self.out.push('|');
                self.out.push_str(self.m.name(*p));
            }
            OperandKind::List(v) => self.list('(', v, ')'),
            OperandKind::Sink => self.out.push('_'),
        }
    }

    fn list(&mut self, open: char, v: &[Operand], close: char) {
        self.out.push(open);
        for (k, e) in v.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.operand(e);
        }
        self.out.push(close);
    }

    fn imm(&mut self, imm: &Imm) {
        match *imm {
            Imm::Int {
                magnitude,
                negative,
                unsigned,
            } => {
                let sign = if negative { "-" } else { "" };
                let _ = write!(
                    self.out,
                    "{sign}{magnitude}{}",
                    if unsigned { "U" } else { "" }
                );
            }
            Imm::F32(b) => {
                let _ = write!(self.out, "0f{b:08X}");
            }
            Imm::F64(b) => {
                let _ = write!(self.out, "0d{b:016X}");
            }
            Imm::Float(b) => self.out.push_str(&float_text(b)),
        }
    }
}

/// A decimal float literal that parses back to exactly `bits` (Rust's `{:?}`
/// prints the shortest round-trip form, always with a `.` or an exponent).
fn float_text(bits: u64) -> String {
    let v = f64::from_bits(bits);
    let s = format!("{v:?}");
    if s.contains(['.', 'e']) {
        s
    } else {
        format!("{s}.0")
    }
}

/// One instruction as text (for messages and dumps).
pub fn instruction_text(m: &Module, i: &Instruction) -> String {
    let mut p = Printer {
        m,
        out: String::new(),
    };
    p.instruction(i);
    p.out
}
