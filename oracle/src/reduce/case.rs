//! A reduction case: a PTX module (the front end's AST) and its launch
//! spec, edited together (removing a kernel parameter removes its launch
//! value), plus the helpers the passes share: statement paths, name uses,
//! register types and the size measure.
//!
//! Passes edit the AST, never the text: a candidate is printed with the
//! front end's printer, whose output parses back to the same AST, so what
//! the predicate runs is exactly what the reducer built.

use ptxc::ptx::ast::{
    AddrBase, FuncKind, Item, Module, Operand, OperandKind, StateSpace, Statement, VarType,
};
use ptxc::ptx::intern::Sym;
use ptxc::ptx::types::ScalarType;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::diff::Program;
use crate::launch::LaunchSpec;

#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub module: Module,
    pub spec: LaunchSpec,
}

/// What the reducer minimizes, in this order of importance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Size {
    /// Instructions in every function body.
    pub instructions: usize,
    /// Statements of every kind (labels, declarations, ...) and items.
    pub statements: usize,
    /// Bytes of printed PTX.
    pub bytes: usize,
    /// Threads in the launch.
    pub threads: u64,
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} instructions, {} statements, {} bytes, {} threads",
            self.instructions, self.statements, self.bytes, self.threads
        )
    }
}

/// A statement's place: the item index, then statement indices down the
/// nested `{ }` blocks.
pub type StmtPath = Vec<usize>;

impl Case {
    /// Parses and validates `ptx`; `name` is for messages.
    pub fn parse(name: &str, ptx: &str, spec: LaunchSpec) -> Result<Case, String> {
        let module = ptxc::ptx::parse_checked(name, ptx)?;
        Ok(Case { module, spec })
    }

    pub fn ptx(&self) -> String {
        ptxc::ptx::printer::print(&self.module)
    }

    /// The program the engine runs.
    pub fn program(&self, name: &str) -> Program {
        Program::new(name, self.ptx(), self.spec.clone())
    }

    pub fn size(&self) -> Size {
        let mut instructions = 0;
        let mut statements = self.module.items.len();
        for path in statements_where(&self.module, |_| true) {
            statements += 1;
            if matches!(stmt(&self.module, &path), Some(Statement::Instr(_))) {
                instructions += 1;
            }
        }
        Size {
            instructions,
            statements,
            bytes: self.ptx().len(),
            threads: self.spec.threads_per_block() * self.spec.block_count(),
        }
    }

    /// The item index of the launched kernel.
    pub fn kernel_item(&self) -> Option<usize> {
        let sym = self.module.names.get(&self.spec.kernel)?;
        self.module.items.iter().position(|i| {
            matches!(i, Item::Function(f) if f.name == sym && f.kind == FuncKind::Entry && f.body.is_some())
        })
    }
}

fn walk(
    stmts: &[Statement],
    path: &mut StmtPath,
    out: &mut Vec<StmtPath>,
    pred: &dyn Fn(&Statement) -> bool,
) {
    for (k, s) in stmts.iter().enumerate() {
        path.push(k);
        if pred(s) {
            out.push(path.clone());
        }
        if let Statement::Block(b) = s {
            walk(&b.stmts, path, out, pred);
        }
        path.pop();
    }
}

/// Every statement of every function body (pre-order) that `pred` accepts.
pub fn statements_where(m: &Module, pred: impl Fn(&Statement) -> bool) -> Vec<StmtPath> {
    let mut out = Vec::new();
    for (k, item) in m.items.iter().enumerate() {
        if let Item::Function(f) = item {
            if let Some(b) = &f.body {
                let mut path = vec![k];
                walk(&b.stmts, &mut path, &mut out, &pred);
            }
        }
    }
    out
}

fn body_stmts_mut(m: &mut Module, item: usize) -> Option<&mut Vec<Statement>> {
    match m.items.get_mut(item)? {
        Item::Function(f) => f.body.as_mut().map(|b| &mut b.stmts),
        _ => None,
    }
}

pub fn stmt<'m>(m: &'m Module, path: &[usize]) -> Option<&'m Statement> {
    let Item::Function(f) = m.items.get(path[0])? else {
        return None;
    };
    let mut stmts = &f.body.as_ref()?.stmts;
    let (last, mid) = path[1..].split_last()?;
    for &k in mid {
        match stmts.get(k)? {
            Statement::Block(b) => stmts = &b.stmts,
            _ => return None,
        }
    }
    stmts.get(*last)
}

pub fn stmt_mut<'m>(m: &'m mut Module, path: &[usize]) -> Option<&'m mut Statement> {
    let mut stmts = body_stmts_mut(m, path[0])?;
    let (last, mid) = path[1..].split_last()?;
    for &k in mid {
        match stmts.get_mut(k)? {
            Statement::Block(b) => stmts = &mut b.stmts,
            _ => return None,
        }
    }
    stmts.get_mut(*last)
}

fn remove_in(stmts: &mut Vec<Statement>, prefix: &mut StmtPath, drop: &FxHashSet<StmtPath>) {
    let mut i = 0;
    stmts.retain_mut(|s| {
        prefix.push(i);
        i += 1;
        let keep = !drop.contains(prefix);
        if keep {
            if let Statement::Block(b) = s {
                remove_in(&mut b.stmts, prefix, drop);
            }
        }
        prefix.pop();
        keep
    });
}

/// `m` without the statements at `paths` (a removed block takes its
/// contents with it).
pub fn remove_statements(m: &Module, paths: &[StmtPath]) -> Module {
    let drop: FxHashSet<StmtPath> = paths.iter().cloned().collect();
    let items: FxHashSet<usize> = paths.iter().map(|p| p[0]).collect();
    let mut out = m.clone();
    for item in items {
        if let Some(stmts) = body_stmts_mut(&mut out, item) {
            let mut prefix = vec![item];
            remove_in(stmts, &mut prefix, &drop);
        }
    }
    out
}

/// Calls `f` on every name an operand mentions (registers, variables,
/// labels, functions), address bases included.
pub fn operand_names(o: &Operand, f: &mut impl FnMut(Sym)) {
    match &o.kind {
        OperandKind::Name(s) | OperandKind::Component(s, _) | OperandKind::Not(s) => f(*s),
        OperandKind::SymOffset(s, _) => f(*s),
        OperandKind::PredPair(a, b) => {
            f(*a);
            f(*b);
        }
        OperandKind::Addr(a) => {
            if let AddrBase::Name(s) = a.base {
                f(s);
            }
            for r in &a.rest {
                operand_names(r, f);
            }
        }
        OperandKind::Vector(v) | OperandKind::List(v) => {
            for x in v.iter() {
                operand_names(x, f);
            }
        }
        OperandKind::VectorPred(v, p) => {
            for x in v.iter() {
                operand_names(x, f);
            }
            f(*p);
        }
        OperandKind::Special(_) | OperandKind::Imm(_) | OperandKind::Sink => {}
    }
}

/// Every name used outside declarations: by instructions (operands and
/// guards), branch-target lists, and module-scope initializers (addresses
/// of variables and functions).
pub fn used_names(m: &Module) -> FxHashSet<Sym> {
    let mut used = FxHashSet::default();
    for path in statements_where(m, |_| true) {
        match stmt(m, &path) {
            Some(Statement::Instr(i)) => {
                if let Some(g) = i.guard {
                    used.insert(g.reg);
                }
                for o in &i.operands {
                    operand_names(o, &mut |s| {
                        used.insert(s);
                    });
                }
            }
            Some(Statement::BranchTargets { targets, .. }) => {
                used.extend(targets.iter().map(|&(t, _)| t));
            }
            _ => {}
        }
    }
    for v in m.globals() {
        if let Some(init) = &v.init {
            init_names(init, &mut used);
        }
    }
    used
}

fn init_names(i: &ptxc::ptx::ast::Init, used: &mut FxHashSet<Sym>) {
    match i {
        ptxc::ptx::ast::Init::Addr { sym, .. } => {
            used.insert(*sym);
        }
        ptxc::ptx::ast::Init::List(v) => {
            for x in v {
                init_names(x, used);
            }
        }
        _ => {}
    }
}

/// The type of every register the module declares (`.reg .b32 %r<9>`
/// declares `%r0`..`%r8`), keyed by name, and the declaration order, so
/// passes can prefer earlier registers.
#[derive(Default)]
pub struct RegTypes {
    pub ty: FxHashMap<String, (ScalarType, usize)>,
}

impl RegTypes {
    pub fn of(m: &Module) -> RegTypes {
        let mut t = RegTypes::default();
        let mut order = 0;
        for path in statements_where(m, |s| matches!(s, Statement::Decl(_))) {
            let Some(Statement::Decl(v)) = stmt(m, &path) else {
                continue;
            };
            let (StateSpace::Reg, VarType::Scalar(ty)) = (v.space, v.ty) else {
                continue;
            };
            if v.vector.is_some() {
                continue;
            }
            let name = m.name(v.name);
            match v.range {
                Some(n) => {
                    for k in 0..n {
                        t.ty.insert(format!("{name}{k}"), (ty, order));
                        order += 1;
                    }
                }
                None => {
                    t.ty.insert(name.to_string(), (ty, order));
                    order += 1;
                }
            }
        }
        t
    }

    pub fn get(&self, m: &Module, s: Sym) -> Option<(ScalarType, usize)> {
        self.ty.get(m.name(s)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = r#"
.version 7.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd0, [p];
    mov.u32 %r0, 1;
    {
        add.u32 %r1, %r0, 2;
    }
    st.global.u32 [%rd0], %r1;
    ret;
}
"#;

    fn case() -> Case {
        let spec = LaunchSpec::from_json_str(
            r#"{"kernel": "k", "grid": [2], "block": [3], "params": [{"buffer": "o"}],
                "buffers": {"o": {"type": "u32", "len": 1, "init": "zeros"}}}"#,
            ".",
        )
        .unwrap();
        Case::parse("t.ptx", PTX, spec).unwrap()
    }

    #[test]
    fn sizes_count_nested_instructions() {
        let c = case();
        let s = c.size();
        assert_eq!(s.instructions, 5);
        // 2 decls, 4 top-level instructions, the block and its instruction,
        // plus the one item.
        assert_eq!(s.statements, 9);
        assert_eq!(s.threads, 6);
        assert_eq!(s.bytes, c.ptx().len());
    }

    #[test]
    fn removing_paths_keeps_the_rest_in_order() {
        let c = case();
        let instrs = statements_where(&c.module, |s| matches!(s, Statement::Instr(_)));
        assert_eq!(instrs.len(), 5);
        // The nested add and the mov.
        let m = remove_statements(&c.module, &[instrs[1].clone(), instrs[2].clone()]);
        let text = ptxc::ptx::printer::print(&m);
        assert!(
            !text.contains("add.u32") && !text.contains("mov.u32"),
            "{text}"
        );
        assert!(text.find("ld.param").unwrap() < text.find("st.global").unwrap());
        assert!(text.contains("ret;"));
    }

    #[test]
    fn register_types_expand_ranges() {
        let c = case();
        let t = RegTypes::of(&c.module);
        assert_eq!(t.ty["%r3"], (ScalarType::B32, 3));
        assert_eq!(t.ty["%rd1"], (ScalarType::B64, 5));
        assert!(!t.ty.contains_key("%r4"));
        let used = used_names(&c.module);
        let names: Vec<&str> = {
            let mut v: Vec<&str> = used.iter().map(|&s| c.module.name(s)).collect();
            v.sort();
            v
        };
        assert_eq!(names, ["%r0", "%r1", "%rd0", "p"]);
    }
}
