//! Sizes of variables: what the compiler and both runners can place.
//!
//! - A variable must be smaller than 4 GiB, and its element count must not
//!   overflow. Every state space is laid out with 32-bit offsets (the
//!   compiler's frame, shared window, constant bank and global slots; the
//!   runners' memory images). ptxas 11.8 wraps such a size silently
//!   (measured: `.global .b8 g[5000000000]` is a 0x2a05f200-byte
//!   `.nv.global`, `.shared .b32 s[2000000000]` reports SHARED:3705032704),
//!   which is a miscompile, not a behaviour to copy.
//! - The module's `.const` variables together fit constant bank 3, 64 KiB:
//!   ptxas 11.8 refuses more with "File uses too much global constant data
//!   (0x11170 bytes, 0x10000 max)" (measured, sm_80, 70,000 bytes).

use crate::ptx::ast::*;
use crate::ptx::diag::Diagnostic;

/// Constant bank 3's size (ptxas 11.8's limit above).
const CONST_BANK_BYTES: u64 = 0x10000;

/// Reports a variable of 4 GiB or more; returns its size and alignment
/// (size saturated).
fn check_var(m: &Module, v: &VarDecl, diags: &mut Vec<Diagnostic>) -> (u64, u64) {
    let sa = v.size_align();
    let (size, align) = sa.unwrap_or((u64::MAX, 1));
    if size >= 1 << 32 {
        let what = match sa {
            Some(_) => format!("{size} bytes"),
            None => "more than 2^64 bytes".to_string(),
        };
        diags.push(Diagnostic::error(
            v.name_span,
            format!(
                "'{}' is {what}: a variable must be smaller than 4 GiB",
                m.name(v.name)
            ),
        ));
    }
    (size, align)
}

/// Running total of a state space's layout: offsets aligned as the
/// lowering places them; the first declaration that takes it to 4 GiB.
#[derive(Default)]
struct Total {
    bytes: u64,
    over: Option<crate::ptx::span::Span>,
}

impl Total {
    fn add(&mut self, v: &VarDecl, (size, align): (u64, u64)) {
        if size >= 1 << 32 {
            // Reported on its own ([`check_var`]).
            return;
        }
        self.bytes = self.bytes.next_multiple_of(align).saturating_add(size);
        if self.bytes >= 1 << 32 && self.over.is_none() {
            self.over = Some(v.name_span);
        }
    }

    fn report(&self, what: &str, diags: &mut Vec<Diagnostic>) {
        if let Some(span) = self.over {
            diags.push(Diagnostic::error(
                span,
                format!("{what} need 4 GiB or more"),
            ));
        }
    }
}

pub(crate) fn check_sizes(m: &Module, diags: &mut Vec<Diagnostic>) {
    let mut konst = 0u64;
    let mut first_over = None;
    let mut shared = Total::default();
    for v in m.globals() {
        let sa = check_var(m, v, diags);
        match v.space {
            StateSpace::Const => {
                konst = konst.next_multiple_of(sa.1).saturating_add(sa.0);
                if konst > CONST_BANK_BYTES && first_over.is_none() {
                    first_over = Some(v.name_span);
                }
            }
            StateSpace::Shared => shared.add(v, sa),
            _ => {}
        }
    }
    if let Some(span) = first_over {
        diags.push(Diagnostic::error(
            span,
            format!("File uses too much global constant data ({konst:#x} bytes, {CONST_BANK_BYTES:#x} max)"),
        ));
    }
    fn walk(
        m: &Module,
        b: &Block,
        local: &mut Total,
        shared: &mut Total,
        diags: &mut Vec<Diagnostic>,
    ) {
        for s in &b.stmts {
            match s {
                Statement::Decl(v) => {
                    let sa = check_var(m, v, diags);
                    match v.space {
                        StateSpace::Local => local.add(v, sa),
                        StateSpace::Shared => shared.add(v, sa),
                        _ => {}
                    }
                }
                Statement::Block(inner) => walk(m, inner, local, shared, diags),
                _ => {}
            }
        }
    }
    for f in m.functions() {
        for p in f.params.iter().chain(f.returns.iter().flatten()) {
            check_var(m, p, diags);
        }
        if let Some(b) = &f.body {
            let mut local = Total::default();
            walk(m, b, &mut local, &mut shared, diags);
            local.report(
                &format!("the .local variables of '{}'", m.name(f.name)),
                diags,
            );
        }
    }
    shared.report("the module's .shared variables", diags);
}

#[cfg(test)]
mod tests {
    use crate::ptx::parse_checked;

    fn module(globals: &str, body: &str) -> String {
        format!(
            ".version 7.8\n.target sm_80\n.address_size 64\n{globals}\n.visible .entry k(.param .u64 out)\n{{\n{body}\nret;\n}}\n"
        )
    }

    fn error_of(globals: &str, body: &str) -> String {
        match parse_checked("t.ptx", &module(globals, body)) {
            Ok(_) => panic!("accepted:\n{}", module(globals, body)),
            Err(e) => e,
        }
    }

    fn accepts(globals: &str, body: &str) {
        if let Err(e) = parse_checked("t.ptx", &module(globals, body)) {
            panic!("{e}");
        }
    }

    #[test]
    fn a_variable_of_4_gib_or_more_is_refused_where_it_is_declared() {
        let e = error_of("", ".local .b32 big[1073741824];");
        assert!(
            e.contains("t.ptx:7:13") && e.contains("'big' is 4294967296 bytes"),
            "{e}"
        );
        let e = error_of(".global .b8 g[5000000000];", "");
        assert!(
            e.contains("t.ptx:4:13") && e.contains("smaller than 4 GiB"),
            "{e}"
        );
        let e = error_of("", ".shared .b64 s[4000000000][4000000000][4000000000];");
        assert!(e.contains("more than 2^64 bytes"), "{e}");
        // One byte under the limit is a variable like any other.
        accepts(".global .b8 g[4294967295];", "");
    }

    #[test]
    fn a_state_space_that_needs_4_gib_is_refused_at_the_declaration_that_passes_it() {
        let e = error_of(
            "",
            ".local .b8 a[3000000000];\n{\n.local .b8 b[2000000000];\n}",
        );
        assert!(
            e.contains("t.ptx:9:12") && e.contains("the .local variables of 'k'"),
            "{e}"
        );
        let e = error_of(".shared .b8 a[3000000000];", ".shared .b8 b[2000000000];");
        assert!(e.contains("the module's .shared variables"), "{e}");
        // Different functions' frames are separate.
        accepts(
            ".func f()\n{\n.local .b8 a[3000000000];\nret;\n}",
            ".local .b8 b[3000000000];",
        );
    }

    #[test]
    fn const_data_over_the_64_kib_bank_is_refused_as_ptxas_does() {
        // ptxas 11.8, sm_80, 70,000 bytes: "File uses too much global
        // constant data (0x11170 bytes, 0x10000 max)".
        let e = error_of(".const .align 4 .b8 c[70000];", "");
        assert!(
            e.contains("File uses too much global constant data (0x11170 bytes, 0x10000 max)"),
            "{e}"
        );
        // Alignment counts: 65,535 bytes then an aligned u32 pass 64 KiB.
        let e = error_of(".const .b8 a[65535];\n.const .u32 b;", "");
        assert!(
            e.contains("(0x10004 bytes") && e.contains("t.ptx:5:13"),
            "{e}"
        );
        accepts(".const .b8 a[65532];\n.const .u32 b;", "");
    }
}
