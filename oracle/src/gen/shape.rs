//! The shape key of an instruction: its opcode with its modifiers and types
//! as written, in source order, joined by dots (`ld.global.nc.v4.f32`,
//! `div.rz.f32`, `setp.lt.s16`, `cvta.to.shared.u64`). Guards, operand
//! registers and address operands are not part of it: a generic-address
//! load is `ld.u32` (no space modifier), a `.global` one `ld.global.u32`,
//! so the space is already in the key and the base register's kind adds
//! nothing a miscompilation depends on.
//!
//! The one function both coverage sides use: the generator's menu
//! (`menu.rs`), the programs it generated and real PTX files
//! (`ptxdiff coverage`). Source order is canonical here because the PTX
//! grammar fixes the order of an instruction's modifiers (PTX ISA 9.7,
//! each instruction's "Syntax"); producers write them in that order.

use ptxc::ptx::ast::{Instruction, Module, Statement};

/// The shape key of one instruction.
pub fn shape_key(i: &Instruction) -> String {
    let mut s = String::from(i.opcode.name());
    for m in i.mods.iter() {
        s.push('.');
        s.push_str(m.text());
    }
    s
}

/// Calls `f` with every instruction of every function body of `m`, nested
/// blocks included, in order.
pub fn for_each_instruction(m: &Module, f: &mut impl FnMut(&Instruction)) {
    fn walk(stmts: &[Statement], f: &mut impl FnMut(&Instruction)) {
        for s in stmts {
            match s {
                Statement::Instr(i) => f(i),
                Statement::Block(b) => walk(&b.stmts, f),
                _ => {}
            }
        }
    }
    for func in m.functions() {
        if let Some(b) = &func.body {
            walk(&b.stmts, f);
        }
    }
}

/// The shape keys of every instruction of PTX text that parses (syntax
/// errors give `Err` with the first message); validation is not required.
pub fn shapes_of_text(src: &str) -> Result<Vec<String>, String> {
    let (m, diags) = ptxc::ptx::parser::parse(src);
    if let Some(d) = diags.iter().find(|d| d.is_error()) {
        return Err(d.message.clone());
    }
    let mut v = Vec::new();
    for_each_instruction(&m, &mut |i| v.push(shape_key(i)));
    Ok(v)
}

#[cfg(test)]
mod tests;
