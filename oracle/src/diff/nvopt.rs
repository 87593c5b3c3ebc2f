//! The engine's nvopt configurations (issue 8, "Interfaces"):
//!
//! - `nvopt-LEVEL+interp`: the PTX-only check. `nvopt<LEVEL>` rewrites the
//!   program's PTX; the interpreter runs the result; its outputs are
//!   judged against the oracle of the original PTX with the same
//!   [`classify_run`] as every configuration.
//! - `nvopt-LEVEL+ptxc`: `nvopt<LEVEL>`, then ptxc and the simulator, judged
//!   against the same oracle (the original program's).
//!
//! Blame per nvopt pass: the level's pass list is rerun prefix by prefix
//! (`--passes=p1`, `--passes=p1,p2`, ...) in the interpreter; the first
//! pass after which the results depart is blamed (`nvopt:NAME`; its blame
//! line says where the pass sits in the level's pipeline and which pass
//! ran before it, from nvopt's own pipeline table). When no prefix departs (a `+ptxc`
//! failure of the back end on nvopt's output), the back end's own blame
//! runs on the optimized program.

use std::collections::BTreeMap;

use ptxc::nvopt::pipeline::{self, Knobs, Level, Pipeline};

use super::blame::{blame, Blame};
use super::matrix::{Compiler, Config};
use super::run::{compiled_limits, run_ptxc, ConfigRun, OracleRun};
use super::verdict::{classify_run, Verdict, VerdictKind};
use super::Program;
use crate::ptx_interp::{self, RunLimits};

/// The program after `pipeline`: its PTX printed by nvopt.
pub fn optimized(p: &Program, pipeline: &Pipeline) -> Result<Program, String> {
    let m = ptxc::ptx::parse_checked(&p.name, &p.ptx)?;
    let out = ptxc::nvopt::optimize(&m, pipeline);
    Ok(Program {
        name: format!("{}<nvopt>", p.name),
        ptx: ptxc::ptx::printer::print(&out.module),
        ..p.clone()
    })
}

/// Runs nvopt's output in the interpreter and judges it.
fn interp_verdict(
    p: &Program,
    oracle: &OracleRun,
    pipeline: &Pipeline,
    limits: &RunLimits,
) -> Verdict {
    let q = match optimized(p, pipeline) {
        Ok(q) => q,
        Err(e) => return Verdict::new(VerdictKind::CompileError, e),
    };
    // nvopt's output must be PTX the front end accepts: anything else is
    // an nvopt internal error.
    let m = match ptxc::ptx::parse_checked(&q.name, &q.ptx) {
        Ok(m) => m,
        Err(e) => {
            return Verdict {
                phase: Some("nvopt".into()),
                ..Verdict::new(VerdictKind::Ice, format!("nvopt printed invalid PTX: {e}"))
            }
        }
    };
    match ptx_interp::run(&m, &q.ptx, &q.spec, &compiled_limits(oracle, limits)) {
        Ok(r) => classify_run(&oracle.outputs, &p.spec, &r),
        Err(e) => Verdict::new(VerdictKind::SimFault, format!("setup: {e}")),
    }
}

/// Runs one nvopt configuration.
pub fn run_nvopt(p: &Program, oracle: &OracleRun, cfg: &Config, limits: &RunLimits) -> ConfigRun {
    let level = cfg.compiler.nvopt().expect("an nvopt configuration");
    let pl = pipeline::build(level, &Knobs::default());
    match cfg.compiler {
        Compiler::NvoptInterp(_) => ConfigRun {
            verdict: interp_verdict(p, oracle, &pl, limits),
            fired: BTreeMap::new(),
            rules: Default::default(),
        },
        _ => match optimized(p, &pl) {
            Ok(q) => run_ptxc(&q, oracle, &cfg.as_ptxc(), limits),
            Err(e) => ConfigRun {
                verdict: Verdict::new(VerdictKind::CompileError, e),
                fired: BTreeMap::new(),
                rules: Default::default(),
            },
        },
    }
}

/// The pass names of `nvopt<level>`, in order.
pub fn pass_list(level: Level) -> Vec<&'static str> {
    pipeline::build(level, &Knobs::default())
        .pm
        .passes
        .iter()
        .map(|(r, _)| r.name)
        .collect()
}

/// The first prefix of `passes` after which the interpreter departs from
/// the oracle: (the pass index, its name, the verdict).
pub fn first_departing_pass(
    p: &Program,
    oracle: &OracleRun,
    passes: &[&'static str],
    limits: &RunLimits,
) -> Option<(usize, &'static str, Verdict)> {
    for k in 1..=passes.len() {
        let pl = pipeline::parse_passes(&passes[..k].join(","), &Knobs::default())
            .expect("pipeline pass names parse");
        let v = interp_verdict(p, oracle, &pl, limits);
        if v.is_failure() {
            return Some((k - 1, passes[k - 1], v));
        }
    }
    None
}

/// Blames a failing nvopt configuration (see the module comment).
pub fn blame_nvopt(
    p: &Program,
    oracle: &OracleRun,
    cfg: &Config,
    verdict: &Verdict,
    limits: &RunLimits,
) -> Blame {
    let level = cfg.compiler.nvopt().expect("an nvopt configuration");
    let passes = pass_list(level);
    if let Some((k, name, v)) = first_departing_pass(p, oracle, &passes, limits) {
        return Blame {
            key_opcode: v.opcode.clone(),
            departure: Some(v),
            context: Some(pass_context(level, &passes, k)),
            ..Blame::at(format!("nvopt:{name}"))
        };
    }
    if let Compiler::NvoptPtxc(_) = cfg.compiler {
        let pl = pipeline::build(level, &Knobs::default());
        if let Ok(q) = optimized(p, &pl) {
            return blame(&q, oracle, &cfg.as_ptxc(), verdict, limits);
        }
    }
    Blame {
        departure: Some(verdict.clone()),
        key_opcode: verdict.opcode.clone(),
        ..Blame::at("nvopt")
    }
}

/// Where pass `k` (0-based) of `passes`, nvopt<`level`>'s pipeline, sits:
/// `pass 4 of nvopt<O3>, after sroa` (the pass before it in the same
/// list), or `pass 1 of nvopt<O3>, the first`. The pass position is not a
/// phase-table index: the blame's `index` stays `None`.
pub fn pass_context(level: Level, passes: &[&str], k: usize) -> String {
    let at = format!("pass {} of nvopt<{}>", k + 1, level.name());
    match k.checked_sub(1).and_then(|j| passes.get(j)) {
        Some(prev) => format!("{at}, after {prev}"),
        None => format!("{at}, the first"),
    }
}

/// Blames any configuration: nvopt's per pass, the others as before.
pub fn blame_any(
    p: &Program,
    oracle: &OracleRun,
    cfg: &Config,
    verdict: &Verdict,
    limits: &RunLimits,
) -> Blame {
    if cfg.compiler.nvopt().is_some() {
        blame_nvopt(p, oracle, cfg, verdict, limits)
    } else {
        blame(p, oracle, cfg, verdict, limits)
    }
}

/// The knob names of nvopt's pipeline tables (`-opt` knobs), derived from
/// the tables (a row's knob without its `+`/`^` prefix), sorted, once each.
pub fn table_knobs() -> Vec<&'static str> {
    let mut k: Vec<&'static str> = pipeline::PRE
        .iter()
        .chain(pipeline::TIER0)
        .chain(pipeline::TIER_N)
        .filter_map(|r| r.knob)
        .map(|k| k.trim_start_matches(['+', '^']))
        .collect();
    k.sort();
    k.dedup();
    k
}

/// The body of the `nvopt_pipeline` fuzz target: a generated program, and
/// from the bytes either a random `--passes` list (1 to 12 passes) or an
/// `nvopt<LEVEL>` pipeline with random `-opt` knobs. nvopt's output must
/// give the oracle's outputs in the interpreter; a departure panics with
/// the first departing pass (the prefix-by-prefix blame), the pipeline
/// and the program. An invalid program (the interpreter's UB or fuel
/// verdict) is the generator's fault and passes.
pub fn fuzz_pipeline(data: &[u8]) {
    let (text, knobs, p) = fuzz_case(data);
    let limits = RunLimits::default();
    let Ok(oracle) = super::run::run_oracle(&p, &limits) else {
        return;
    };
    let k = Knobs::parse(&knobs).expect("table knob names parse");
    let pl = pipeline::parse_passes(&text, &k).expect("pass names parse");
    let v = interp_verdict(&p, &oracle, &pl, &limits);
    if !v.is_failure() {
        return;
    }
    let passes: Vec<&'static str> = pl.pm.passes.iter().map(|(r, _)| r.name).collect();
    let blamed = match first_departing_pass(&p, &oracle, &passes, &limits) {
        Some((i, name, _)) => format!("nvopt pass {name} (#{i} of the list)"),
        None => "the whole pipeline (no prefix departs)".into(),
    };
    panic!(
        "--passes={text} -opt \"{knobs}\": {}\nblame: {blamed}\n--- program ---\n{}\n--- launch ---\n{}",
        v.line(),
        p.ptx,
        p.spec.to_json_string()
    );
}

/// What [`fuzz_pipeline`] draws from the bytes: the `--passes` text, the
/// `-opt` knobs and the program.
pub fn fuzz_case(data: &[u8]) -> (String, String, Program) {
    use arbitrary::Unstructured;
    let mut u = Unstructured::new(data);
    let names = ptxc::nvopt::passes::NAMES;
    let (text, knobs) = if u.ratio(1, 4).unwrap_or(false) {
        let level = Level::ALL[u.choose_index(Level::ALL.len()).unwrap_or(0)];
        let mut knobs = Vec::new();
        for k in table_knobs() {
            if u.ratio(1, 3).unwrap_or(false) {
                let v = if u.arbitrary::<bool>().unwrap_or(false) {
                    "1"
                } else {
                    "0"
                };
                knobs.push(format!("-{k}={v}"));
            }
        }
        (format!("nvopt<{}>", level.name()), knobs.join(" "))
    } else {
        let n = u.int_in_range(1..=12).unwrap_or(1);
        let list: Vec<&str> = (0..n)
            .map(|_| names[u.choose_index(names.len()).unwrap_or(0)])
            .collect();
        (list.join(","), String::new())
    };
    let cfg = crate::gen::GenConfig::default();
    let g = crate::gen::generate_from(&mut u, &cfg).expect("generate_from never fails");
    (text, knobs, Program::new("fuzz.ptx", g.ptx, g.spec))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptxc::phases::table;

    /// The line of a departure at nvopt<O3>'s `gvn`: the pass before it in
    /// nvopt's own pipeline table, never the ptxc phase whose table index
    /// equals the pass position (`nvopt:gvn (after PromoteFP16)` before).
    #[test]
    fn the_blame_line_names_the_pass_before_in_nvopts_pipeline() {
        let passes = pass_list(Level::O3);
        let k = passes.iter().position(|&p| p == "gvn").unwrap();
        assert!(k > 0, "gvn is not nvopt<O3>'s first pass");
        let b = Blame {
            context: Some(pass_context(Level::O3, &passes, k)),
            ..Blame::at("nvopt:gvn")
        };
        assert_eq!(
            b.line(),
            format!(
                "nvopt:gvn (pass {} of nvopt<O3>, after {})",
                k + 1,
                passes[k - 1]
            )
        );
        let wrong = table::name_of(u16::try_from(k).unwrap());
        assert!(!b.line().contains(wrong), "{}", b.line());
        assert_eq!(
            pass_context(Level::O3, &passes, 0),
            "pass 1 of nvopt<O3>, the first"
        );
    }
}
