//! Module-level rules: `.version` first and known, `.target` known and
//! supported by the version (PTX ISA 11.1.3 ".target", SM table), the
//! `.address_size` (11.1.4; 32-bit refused on sm_90+, docs/MODEL.md, Compilation driver, phase 12),
//! and duplicate definitions.

use super::TargetCtx;
use crate::ptx::ast::*;
use crate::ptx::diag::Diagnostic;
use crate::ptx::intern::Sym;
use crate::targets::{lookup_sm, PtxVersion, SmInfo};
use rustc_hash::FxHashMap;

pub(crate) fn check_module(m: &Module, diags: &mut Vec<Diagnostic>) -> TargetCtx {
    let mut ctx = TargetCtx {
        ptx: PtxVersion::new(8, 8),
        sm: 120,
        addr64: m.address_bits() == 64,
    };
    match m.version {
        None => diags.push(Diagnostic::error(
            first_span(m),
            "missing .version directive",
        )),
        Some((v, span)) => {
            if !v.is_known() {
                diags.push(Diagnostic::error(
                    span,
                    format!("unsupported PTX ISA version '{v}'"),
                ));
            } else {
                ctx.ptx = v;
            }
            let first_other = m
                .targets
                .iter()
                .map(|t| t.1.lo)
                .chain(m.address_size.map(|a| a.1.lo))
                .chain(
                    m.items
                        .iter()
                        .filter(|i| !matches!(i, Item::File { .. }))
                        .map(item_lo),
                )
                .min();
            if first_other.is_some_and(|lo| lo < span.lo) {
                diags.push(Diagnostic::error(
                    span,
                    ".version must be the first directive",
                ));
            }
        }
    }
    if m.targets.is_empty() {
        diags.push(Diagnostic::error(
            first_span(m),
            "missing .target directive",
        ));
    }
    for &(t, span) in &m.targets {
        let name = m.name(t);
        match name {
            "texmode_unified" | "texmode_independent" | "debug" | "map_f64_to_f32" => continue,
            _ => {}
        }
        match lookup_sm(name) {
            None => diags.push(Diagnostic::error(span, format!("unknown target '{name}'"))),
            Some(info) => {
                ctx.sm = info.sm;
                if let Some((v, _)) = m.version {
                    if v.is_known() && v < info.min_ptx {
                        diags.push(Diagnostic::error(
                            span,
                            format!(
                                "target {name} requires PTX ISA version {} or later",
                                info.min_ptx
                            ),
                        ));
                    }
                }
                if let Some((32, asp)) = m.address_size {
                    if !info.allows_32bit_addresses {
                        diags.push(Diagnostic::error(
                            asp,
                            ".address_size 32 is not supported on sm_90 and later",
                        ));
                    }
                }
            }
        }
    }
    if let Some((n, span)) = m.address_size {
        if n != 32 && n != 64 {
            diags.push(Diagnostic::error(
                span,
                format!("invalid .address_size '{n}' (expected 32 or 64)"),
            ));
        }
    }
    ctx
}

/// `-arch=sm_XX` against the module: the `.target` must not be newer than
/// the compile target (ptxas: "SM version specified by .target is higher than
/// default SM version"), and sm_90+ refuses 32-bit addressing.
pub(crate) fn check_arch(m: &Module, arch: &SmInfo, diags: &mut Vec<Diagnostic>) {
    if let Some((name, span)) = m.sm_target() {
        if let Some(t) = lookup_sm(name) {
            if t.sm > arch.sm {
                diags.push(Diagnostic::error(
                    span,
                    format!(
                        "target {name} is newer than the compile target {}",
                        arch.name
                    ),
                ));
            }
        }
    }
    if let Some((32, span)) = m.address_size {
        if !arch.allows_32bit_addresses {
            diags.push(Diagnostic::error(
                span,
                ".address_size 32 is not supported on sm_90 and later",
            ));
        }
    }
}

fn first_span(m: &Module) -> crate::ptx::span::Span {
    m.items
        .first()
        .map(|i| crate::ptx::span::Span {
            lo: item_lo(i),
            hi: item_lo(i) + 1,
        })
        .unwrap_or_default()
}

fn item_lo(i: &Item) -> u32 {
    match i {
        Item::Var(v) => v.span.lo,
        Item::Function(f) => f.span.lo,
        Item::File { span, .. } | Item::Section { span, .. } | Item::Pragma { span, .. } => span.lo,
    }
}

/// A module-scope name.
#[derive(Clone, Copy)]
pub(crate) enum Global<'m> {
    Var(&'m VarDecl),
    Func(&'m Function),
}

/// Collects module-scope variables and functions; a second definition of a
/// name is an error. A function may be declared (prototype) any number of
/// times and defined once.
pub(crate) fn collect_globals<'m>(
    m: &'m Module,
    diags: &mut Vec<Diagnostic>,
) -> FxHashMap<Sym, Global<'m>> {
    let mut g: FxHashMap<Sym, Global<'m>> = FxHashMap::default();
    for item in &m.items {
        match item {
            Item::Var(v) => {
                let previous = g.insert(v.name, Global::Var(v));
                if previous.is_some() {
                    diags.push(dup(m, v.name, v.name_span));
                }
            }
            Item::Function(f) => match g.get(&f.name) {
                Some(Global::Func(prev)) if prev.body.is_none() || f.body.is_none() => {
                    // A declaration and a definition: the definition is kept.
                    let _ = f.body.is_some() && g.insert(f.name, Global::Func(f)).is_some();
                }
                Some(_) => diags.push(dup(m, f.name, f.name_span)),
                None => {
                    g.insert(f.name, Global::Func(f));
                }
            },
            _ => {}
        }
    }
    g
}

pub(crate) fn dup(m: &Module, s: Sym, span: crate::ptx::span::Span) -> Diagnostic {
    Diagnostic::error(span, format!("duplicate definition of '{}'", m.name(s)))
}
