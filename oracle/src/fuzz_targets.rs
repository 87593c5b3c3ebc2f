//! The bodies of the cargo-fuzz targets in `fuzz/`. Each target is a thin
//! wrapper over one of these functions; `cargo test` runs them on the
//! committed seeds in `corpus/<target>/`, so a crash found by the fuzzer
//! becomes a regression test by adding its input file there.

/// `parse`: any bytes. The front end must never panic, and whatever parses
/// without errors must round-trip through the printer
/// (`parse(print(m)) == m`, printing a fixed point).
pub fn parse(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (_module, _diags) = ptxc::ptx::parse_and_validate(&text);
    if let Err(e) = ptxc::ptx::check_round_trip(&text) {
        panic!("round trip failed: {e}");
    }
}

/// `sass_roundtrip`: any bytes as a SASS listing (cuobjdump or nvdisasm
/// dialect, or the IR's own printout). The text layer must never panic;
/// whatever parses must print and parse back to the same listing, and
/// every function that converts to IR must survive the IR's labelled
/// print/parse round trip unchanged (`from_sass(to_sass(f)) == f`).
pub fn sass_roundtrip(data: &[u8]) {
    use ptxc::ir::sass_text::{parse_file, print_file, print_function};
    use ptxc::ir::{from_sass, to_sass};
    let text = String::from_utf8_lossy(data);
    let Ok(file) = parse_file(&text) else { return };
    let printed = print_file(&file);
    let again = parse_file(&printed)
        .unwrap_or_else(|e| panic!("printed listing does not parse: {e}\n{printed}"));
    assert_eq!(again, file, "print/parse changed the listing:\n{printed}");
    for f in &file.functions {
        let Ok(ir) = from_sass(f, None) else { continue };
        let Ok(labelled) = to_sass(&ir, true) else {
            continue;
        };
        let text = print_function(&labelled);
        let back =
            parse_file(&text).unwrap_or_else(|e| panic!("IR printout does not parse: {e}\n{text}"));
        let ir2 = from_sass(&back.functions[0], None)
            .unwrap_or_else(|e| panic!("IR printout does not convert: {e}\n{text}"));
        assert_eq!(ir2, ir, "IR print/parse changed the function:\n{text}");
    }
}

// ---------------------------------------------------------------------------
// The compiler targets: a generated program (the fuzzer's bytes drive the
// generator through `arbitrary::Unstructured`), compiled by ptxc under a
// configuration also drawn from the bytes, run in the simulator and
// compared with the PTX interpreter. Any verdict other than pass is a
// crash, except a program the interpreter finds invalid (undefined
// behaviour or out of fuel: the generator's fault, which `ptxdiff gen
// --stats` measures) and a configuration that cannot run the program.
// ---------------------------------------------------------------------------

use crate::diff::{
    check_program, matrix::simulated_archs, matrix::ORI_SHUFFLES, Config, Matrix, Options, Program,
    ProgramReport, Variant, VerdictKind,
};
use crate::gen::{Bias, GenConfig};
use arbitrary::Unstructured;

/// The program of the bytes, in generator mode `mode`.
fn program(u: &mut Unstructured<'_>, mode: Bias) -> Program {
    let cfg = GenConfig {
        mode,
        ..GenConfig::default()
    };
    let g = crate::gen::generate_from(u, &cfg).expect("generate_from never fails");
    let mut p = Program::new("fuzz.ptx", g.ptx, g.spec);
    p.features = g.features.iter().map(|s| s.to_string()).collect();
    p
}

/// Runs `configs` on `p` and panics, with the program, on a failure.
fn require_pass(p: &Program, configs: Vec<Config>) -> ProgramReport {
    let opts = Options {
        jobs: 1,
        blame: false,
        ..Options::default()
    };
    let r = check_program(p, &Matrix::new("fuzz", configs), &opts);
    if let Err(v) = &r.oracle {
        // Invalid program: not the compiler's failure.
        assert!(
            matches!(v.kind, VerdictKind::OracleUb),
            "oracle: {}",
            v.line()
        );
        return r;
    }
    let failures: Vec<String> = r
        .failures()
        .filter(|c| c.verdict.kind != VerdictKind::Unsupported)
        .map(|c| format!("{}: {}", c.config.label(), c.verdict.line()))
        .collect();
    assert!(
        failures.is_empty(),
        "{}\n--- program ---\n{}\n--- launch ---\n{}",
        failures.join("\n"),
        p.ptx,
        p.spec.to_json_string()
    );
    r
}

fn pick_arch(u: &mut Unstructured<'_>) -> &'static ptxc::targets::SmInfo {
    let archs = simulated_archs();
    archs[u.choose_index(archs.len()).unwrap_or(0)]
}

/// `phase_order`: a program, a valid random phase order (the seeded
/// reorder of the default pipeline, every constraint kept), an
/// architecture and an optimization level from the bytes.
pub fn phase_order(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let arch = pick_arch(&mut u);
    let seed = u.int_in_range(1..=u32::MAX).unwrap_or(1);
    let opt = u.int_in_range(1..=3).unwrap_or(3);
    let p = program(&mut u, Bias::None);
    require_pass(
        &p,
        vec![Config::ptxc(arch, opt, Variant::Reorder(u64::from(seed)))],
    );
}

/// `arch_matrix`: a program through every simulated architecture at -O0
/// and -O3.
pub fn arch_matrix(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let p = program(&mut u, Bias::None);
    let configs = simulated_archs()
        .into_iter()
        .flat_map(|a| [0, 3].map(|o| Config::ptxc(a, o, Variant::Default)))
        .collect();
    require_pass(&p, configs);
}

/// `ori_shuffle`: a program under the ORI named-phase manager's shuffle
/// knobs (repetitions, swaps, copies, dead-code passes) drawn from the
/// bytes, or one of the matrix's fixed shuffles.
pub fn ori_shuffle(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let arch = pick_arch(&mut u);
    let knobs = if u.ratio(1, 4).unwrap_or(false) {
        ORI_SHUFFLES[u.choose_index(ORI_SHUFFLES.len()).unwrap_or(0)].to_string()
    } else {
        let mut k = format!("ori=shuffle,reps={}", u.int_in_range(1..=4).unwrap_or(1));
        for (name, n) in [("swap", 6), ("cpy", 3), ("dce", 3)] {
            for i in 1..=n {
                if u.ratio(1, 2).unwrap_or(false) {
                    k.push_str(&format!(
                        ",{name}{i}={}",
                        u.int_in_range(0..=255u32).unwrap_or(0)
                    ));
                }
            }
        }
        k
    };
    let p = program(&mut u, Bias::None);
    require_pass(&p, vec![Config::ptxc(arch, 3, Variant::Knobs(knobs))]);
}

/// The peephole targets: a program of the phase's biased mode, checked in
/// the default `-O3` pipeline and with the phase alone on the IR it sees
/// there (before and after, simulated on the launch and a reseeded one).
fn peephole(data: &[u8], mode: Bias, phase: &str) {
    let mut u = Unstructured::new(data);
    let arch = pick_arch(&mut u);
    let p = program(&mut u, mode);
    let cfg = Config::ptxc(arch, 3, Variant::Default);
    let r = require_pass(&p, vec![cfg.clone()]);
    if r.oracle.is_err() {
        return;
    }
    let index = ptxc::phases::table::lookup(phase);
    let m = ptxc::ptx::parse_checked("fuzz.ptx", &p.ptx).expect("the generator's PTX parses");
    let case = crate::phase_check::Case::lower("fuzz.ptx", &m, arch, &p.spec)
        .expect("passed the pipeline, so it lowers");
    let plan = cfg.plan().expect("the default plan");
    let before = crate::phase_check::before_phase(&plan, index, &case)
        .unwrap_or_else(|e| panic!("{e}\n{}", p.ptx));
    let limits = crate::ptx_interp::RunLimits::default();
    if let Err(e) = crate::phase_check::check_alone(&case, index, &plan.config, &before, 2, &limits)
    {
        // A launch the IR before the phase cannot complete is not the
        // phase's failure (the pipeline check above already judged it).
        assert!(
            e.contains("does not complete"),
            "{phase} alone: {e}\n--- program ---\n{}",
            p.ptx
        );
    }
}

/// `nan_or_zero`: OptimizeNaNOrZero on programs of its biased mode.
pub fn nan_or_zero(data: &[u8]) {
    peephole(data, Bias::NanOrZero, "OptimizeNaNOrZero");
}

/// `tex_nodep`: TexNodep on programs of its biased mode.
pub fn tex_nodep(data: &[u8]) {
    peephole(data, Bias::TexNodep, "TexNodep");
}

/// `hoist_invariants`: HoistInvariants on programs of its biased mode.
pub fn hoist_invariants(data: &[u8]) {
    peephole(data, Bias::HoistInvariants, "HoistInvariants");
}
