//! The engine's nvopt configurations: `nvopt-O3+interp` (nvopt's output in
//! the interpreter) and `nvopt-O3+ptxc sm_80 -O3` (nvopt, then ptxc and the
//! simulator) judged against the oracle of the original PTX on every
//! corpus kernel (NAME.ptx and NAME.O0.ptx); the per-pass blame; and
//! `ptxdiff run`'s default matrix holding them.

use oracle::diff::nvopt::{blame_nvopt, first_departing_pass, pass_list};
use oracle::diff::{check_program, Config, Matrix, Options, Program, Verdict, VerdictKind};
use oracle::ptx_interp::RunLimits;
use ptxc::nvopt::pipeline::Level;
use std::path::Path;

fn corpus() -> Vec<Program> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    Program::corpus(&dir, &["ptx", "O0.ptx"]).unwrap()
}

#[test]
fn nvopt_configurations_pass_on_the_corpus() {
    let m = Matrix::new(
        "nvopt",
        vec![
            Config::nvopt_interp(Level::O3),
            Config::nvopt_ptxc(ptxc::targets::lookup_sm("sm_80").unwrap(), 3, Level::O3),
        ],
    );
    let opts = Options {
        jobs: 1,
        ..Options::default()
    };
    let programs = corpus();
    assert_eq!(programs.len(), 32);
    let mut lines = Vec::new();
    for p in &programs {
        let r = check_program(p, &m, &opts);
        assert!(r.oracle.is_ok(), "{}: {:?}", p.name, r.oracle);
        for c in &r.configs {
            if c.verdict.kind != VerdictKind::Pass {
                lines.push(format!(
                    "{}: {}: {}",
                    p.name,
                    c.config.label(),
                    c.verdict.line()
                ));
            }
        }
    }
    assert!(lines.is_empty(), "{}", lines.join("\n"));
}

#[test]
fn blame_names_the_first_pass_after_which_the_interpreter_departs() {
    let p = corpus()
        .into_iter()
        .find(|p| p.name == "saxpy_div.O0.ptx")
        .unwrap();
    let limits = RunLimits::default();
    let good = oracle::diff::run::run_oracle(&p, &limits).unwrap();
    let passes = pass_list(Level::O3);
    assert_eq!(first_departing_pass(&p, &good, &passes, &limits), None);
    // Against outputs no pipeline gives (one bit of the first buffer
    // flipped), the first prefix already departs: pass 0 is blamed.
    let mut bad = good.clone();
    bad.outputs.buffers[0].bits[0] ^= 1;
    let (k, name, v) = first_departing_pass(&p, &bad, &passes, &limits).unwrap();
    assert_eq!((k, name), (0, passes[0]));
    assert_eq!(v.kind, VerdictKind::Mismatch);
    let cfg = Config::nvopt_interp(Level::O3);
    let b = blame_nvopt(
        &p,
        &bad,
        &cfg,
        &Verdict::new(VerdictKind::Mismatch, "x"),
        &limits,
    );
    assert_eq!(b.stage, format!("nvopt:{}", passes[0]));
    // A pass position is not a phase-table index: the line says where the
    // pass sits in nvopt's pipeline, not which ptxc phase has its number.
    assert_eq!(b.index, None);
    assert_eq!(
        b.line(),
        format!("nvopt:{} (pass 1 of nvopt<O3>, the first)", passes[0])
    );
    // The reducer's signature blames as the engine does, so reducing an
    // nvopt finding keeps its blamed pass.
    let v = Verdict::new(VerdictKind::Mismatch, "x");
    let sig = oracle::reduce::predicate::signature_of(&p, &bad, &cfg, &v, &limits);
    assert_eq!(sig.stage, b.stage);
    let engine = oracle::diff::nvopt::blame_any(&p, &bad, &cfg, &v, &limits);
    assert_eq!(engine.stage, b.stage);
}

#[test]
fn the_default_matrix_holds_the_nvopt_configurations() {
    let d = Matrix::preset("default", false).unwrap();
    let labels: Vec<String> = d.configs.iter().map(Config::label).collect();
    for l in [
        "nvopt-O3+interp sm_80 -O0 default",
        "nvopt-O3+ptxc sm_80 -O3 default",
    ] {
        assert!(labels.iter().any(|x| x == l), "{l}");
    }
    let full = Matrix::preset("full", false).unwrap();
    for level in Level::ALL {
        for c in [
            Config::nvopt_interp(level),
            Config::nvopt_ptxc(ptxc::targets::lookup_sm("sm_80").unwrap(), 3, level),
        ] {
            assert!(full.configs.contains(&c), "{}", c.label());
        }
    }
}
