//! The PTX front end: lexer, parser, AST with spans, validation and printer.
//!
//! ```text
//! text --lex--> tokens --parse--> ast::Module --validate--> diagnostics
//!                                      \--print--> text
//! ```

pub mod ast;
pub mod diag;
pub mod intern;
pub mod isa;
pub mod lexer;
pub mod modifiers;
pub mod parser;
pub mod printer;
pub mod span;
mod spanless;
pub mod sreg;
pub mod types;
pub mod validate;

pub use ast::Module;
pub use diag::{Diagnostic, Severity};
pub use span::{SourceFile, Span};

/// Parses and validates PTX text: the module and every diagnostic, in source
/// order. The module is usable only when no diagnostic is an error.
pub fn parse_and_validate(src: &str) -> (Module, Vec<Diagnostic>) {
    parse_and_validate_for(src, None)
}

/// As [`parse_and_validate`], for a given compile target (`-arch`): the
/// module's `.target` must not be newer, and address-size rules apply to it.
/// Validation runs even after syntax errors (on what did parse) so that one
/// run reports every error of a file.
pub fn parse_and_validate_for(
    src: &str,
    arch: Option<&'static crate::targets::SmInfo>,
) -> (Module, Vec<Diagnostic>) {
    let (module, mut diags) = parser::parse(src);
    diags.extend(validate::validate_for(&module, arch));
    diags.sort_by_key(|d| d.span.lo);
    diags.dedup();
    (module, diags)
}

/// Parses and validates, returning the module or the rendered diagnostics.
pub fn parse_checked(file_name: &str, src: &str) -> Result<Module, String> {
    let (m, diags) = parse_and_validate(src);
    if diags.iter().any(Diagnostic::is_error) {
        Err(diag::render_all(&diags, &SourceFile::new(file_name, src)))
    } else {
        Ok(m)
    }
}

/// The round-trip property the printer guarantees, as a library function so
/// the fuzz target and the tests share it: for text that parses without
/// errors, `parse(print(m)) == m` up to spans, and printing is a fixed point.
/// Returns a description of the first violation.
pub fn check_round_trip(src: &str) -> Result<(), String> {
    let (m, diags) = parser::parse(src);
    if diags.iter().any(Diagnostic::is_error) {
        return Ok(());
    }
    let printed = printer::print(&m);
    let (m2, diags2) = parser::parse(&printed);
    if let Some(d) = diags2.iter().find(|d| d.is_error()) {
        let src2 = SourceFile::new("<printed>", &printed);
        return Err(format!(
            "printed module does not parse:\n{}",
            d.render(&src2)
        ));
    }
    if m.without_spans() != m2.without_spans() {
        return Err(format!("parse(print(m)) != m\nprinted:\n{printed}"));
    }
    let again = printer::print(&m2);
    if again != printed {
        return Err(format!(
            "printing is not a fixed point:\n{printed}\n---\n{again}"
        ));
    }
    Ok(())
}
