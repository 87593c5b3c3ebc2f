//! The menu: derived forms, every ISA opcode written by some family, the
//! probe kernels' shape keys.

use super::*;
use crate::gen::{generate, GenConfig};
use ptxc::ptx::isa::Opcode;
use std::collections::BTreeSet;

/// Forms the PTX ISA defines (9.7, each instruction's syntax) and real
/// kernels use (issue 29's list of shapes never generated before the menu):
/// each must be on the menu and writable.
const EXPECTED: &[&str] = &[
    "selp.b32",
    "selp.b64",
    "selp.u16",
    "mul.f32",
    "add.f64",
    "setp.lt.s16",
    "setp.eq.b32",
    "setp.gt.s64",
    "ex2.approx.ftz.f32",
    "rcp.approx.ftz.f32",
    "bfind.shiftamt.u32",
    "bfi.b64",
    "sad.u32",
    "cvt.sat.f32.f32",
    "mov.pred",
    "div.rz.f32",
    "sqrt.rm.f32",
    "div.rz.f64",
    "testp.notanumber.f64",
    "copysign.f32",
    "mul24.hi.s32",
    "mad24.lo.u32",
    "prmt.b32.rc16",
    "set.lt.u32.s32",
    "cvt.rzi.s32.f64",
    "cvt.rn.f16.f32",
    "fma.rn.f16x2",
    "and.pred",
    "shf.r.clamp.b32",
    "mul.wide.s16",
];

#[test]
fn the_forms_real_kernels_use_are_on_the_menu_and_writable() {
    let m = menu();
    for k in EXPECTED {
        let f = m
            .find(k)
            .unwrap_or_else(|| panic!("{k} is not on the menu"));
        assert!(f.lowers.is_ok(), "{k}: {:?}", f.lowers);
    }
}

#[test]
fn forms_the_isa_does_not_have_are_refused_by_the_front_end() {
    let m = menu();
    // PTX ISA 9.7.1.1/9.7.3.1: `.sat` only on add.s32 and float adds;
    // 9.7.3.x: `.ftz` never on .f64; 9.7.7.7: `shl` has no signed types
    // (none is a candidate) and `cnot` no .pred (none is a candidate);
    // 9.7.9.21: a float-to-float cvt that narrows needs a rounding modifier;
    // 9.7.3.8: `div.full` is .f32 only.
    for k in ["add.sat.u32", "add.ftz.f64", "cvt.f32.f64", "div.full.f64"] {
        assert!(m.find(k).is_none(), "{k} is on the menu");
        assert!(
            matches!(
                m.refused.iter().find(|(r, _)| r == k),
                Some((_, Refusal::FrontEnd(_)))
            ),
            "{k} is not refused by the front end"
        );
    }
}

#[test]
fn every_form_is_its_own_shape_key_and_unique() {
    let m = menu();
    let mut seen = BTreeSet::new();
    for f in &m.forms {
        assert!(seen.insert(f.key.as_str()), "{} twice", f.key);
    }
    let cands: Vec<(String, Vec<Operand>)> = m
        .forms
        .iter()
        .map(|f| (f.key.clone(), f.operands.clone()))
        .collect();
    let all: Vec<usize> = (0..cands.len()).collect();
    let text = batch_kernel(&cands, &all);
    let keys = super::super::shape::shapes_of_text(&text).unwrap();
    let tail = &keys[keys.len() - 1 - cands.len()..keys.len() - 1];
    for (k, f) in tail.iter().zip(&m.forms) {
        assert_eq!(k, &f.key);
    }
}

#[test]
fn the_generator_writes_the_menus_header() {
    let p = generate(1, &GenConfig::default());
    assert!(p.ptx.starts_with(GEN_HEADER), "{}", &p.ptx[..80]);
}

/// Opcodes no family writes yet, with the family that should: the test
/// below fails when one of them is written (remove it here) or when an
/// opcode outside this list stops being written.
const NOT_YET_WRITTEN: &[(Opcode, &str)] = &[
    (Opcode::Ldu, "memory families (gen/memory.rs)"),
    (Opcode::Prefetch, "memory families (gen/memory.rs)"),
    (Opcode::Prefetchu, "memory families (gen/memory.rs)"),
    (Opcode::Tld4, "tex family (gen/tex.rs)"),
    (Opcode::Txq, "tex family (gen/tex.rs)"),
    (Opcode::Suld, "tex family (gen/tex.rs)"),
    (Opcode::Sust, "tex family (gen/tex.rs)"),
    (Opcode::Sured, "tex family (gen/tex.rs)"),
    (Opcode::Suq, "tex family (gen/tex.rs)"),
    (Opcode::Istypep, "tex family (gen/tex.rs)"),
    (Opcode::Brx, "control family (gen/control.rs)"),
    (Opcode::Exit, "control family (gen/control.rs)"),
];

/// Opcodes that cannot be generated into a program whose outputs are
/// checked: `trap` and `brkpt` stop the program (PTX ISA 9.7.19.1-2, no
/// outputs to compare); `pmevent` and `nanosleep` have no observable
/// effect on outputs (9.7.19.3, 9.7.13.x), so nothing could be checked.
const CANNOT_BE_CHECKED: &[Opcode] = &[
    Opcode::Trap,
    Opcode::Brkpt,
    Opcode::Pmevent,
    Opcode::Nanosleep,
];

/// Every opcode of the ISA table the interpreter executes (it decodes and
/// runs every row: `ptx_interp::program::Class::of` is total) is written
/// by the generator: a menu form, or a statement of another family (seen
/// in generated programs), unless the generator's header (PTX 7.0,
/// sm_70) cannot hold it or it is listed above with its reason. Adding an
/// opcode to the table and the interpreter without a way to generate it
/// fails here.
#[test]
fn every_opcode_the_interpreter_executes_is_generated() {
    let m = menu();
    let mut written: BTreeSet<Opcode> = m.forms.iter().map(|f| f.op).collect();
    let cfg = GenConfig::default();
    for seed in 0..400 {
        let p = generate(seed, &cfg);
        for k in super::super::shape::shapes_of_text(&p.ptx).unwrap() {
            let op = k.split('.').next().unwrap();
            written.insert(Opcode::from_name(op).unwrap());
        }
    }
    let header_ptx = ptxc::targets::PtxVersion::new(7, 0);
    let mut missing = Vec::new();
    let mut stale = Vec::new();
    for &op in Opcode::ALL {
        let fits = op.info().min_ptx <= header_ptx && op.info().min_sm <= 70;
        let listed = NOT_YET_WRITTEN.iter().any(|(o, _)| *o == op);
        let excluded = CANNOT_BE_CHECKED.contains(&op);
        if written.contains(&op) {
            if listed {
                stale.push(op);
            }
        } else if fits && !listed && !excluded {
            missing.push(op);
        }
    }
    assert!(
        stale.is_empty(),
        "written now, remove them from NOT_YET_WRITTEN: {stale:?}"
    );
    assert!(
        missing.is_empty(),
        "opcodes the interpreter executes that no generator family writes: {missing:?}"
    );
}
