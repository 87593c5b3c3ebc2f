//! Running a program: the oracle (the PTX interpreter) once, then one ptxc
//! configuration at a time: compile with the driver (the production path,
//! with the configuration's options), read the printed listing back (so the
//! text is what is checked, as `ptxdiff check` does), check opcode
//! availability, simulate, judge against the oracle.

use std::collections::BTreeMap;

use ptxc::driver::{self, DriverError};
use ptxc::ir::Function;
use ptxc::targets::SmInfo;

use super::matrix::Config;
use super::verdict::{classify_run, oracle_invalid, Verdict, VerdictKind};
use super::Program;
use crate::launch::OutputSet;
use crate::ptx_interp::{self, Outcome, RunLimits};
use crate::sim::{self, SimInputs};

/// What the oracle computed for a valid program.
#[derive(Clone, Debug)]
pub struct OracleRun {
    pub outputs: OutputSet,
    /// Thread-instructions the interpreter executed.
    pub executed: u64,
    pub module: ptxc::ptx::ast::Module,
}

/// Runs the program in the PTX interpreter. An invalid program (it does
/// not parse, its launch does not set up, or the run is not `Completed`)
/// gives the [`VerdictKind::OracleUb`] verdict instead.
pub fn run_oracle(p: &Program, limits: &RunLimits) -> Result<OracleRun, Box<Verdict>> {
    let invalid = |m: String| Box::new(Verdict::new(VerdictKind::OracleUb, m));
    let module = ptxc::ptx::parse_checked(&p.name, &p.ptx)
        .map_err(|e| invalid(format!("invalid PTX: {e}")))?;
    let r = ptx_interp::run(&module, &p.ptx, &p.spec, limits)
        .map_err(|e| invalid(format!("the launch does not set up: {e}")))?;
    if r.outcome != Outcome::Completed {
        return Err(Box::new(oracle_invalid(&r.outcome)));
    }
    Ok(OracleRun {
        outputs: r.outputs,
        executed: r.executed,
        module,
    })
}

/// The fuel a compiled run gets: generous against the oracle's count (SASS
/// takes several instructions per PTX one: 64-bit pairs, division
/// sequences), so that only a runaway loop runs out; fuel, not the wall
/// clock, so the verdict is deterministic.
pub fn compiled_limits(oracle: &OracleRun, limits: &RunLimits) -> RunLimits {
    RunLimits {
        fuel: limits
            .fuel
            .min(oracle.executed.saturating_mul(64).saturating_add(1_000_000)),
        ..*limits
    }
}

/// What one configuration gave.
#[derive(Clone, Debug)]
pub struct ConfigRun {
    pub verdict: Verdict,
    /// Per-phase fired counts of the compilation.
    pub fired: BTreeMap<u16, u64>,
    /// Per-(phase, rule) fired counts of the compilation's peepholes
    /// (empty when it did not get a listing).
    pub rules: RuleFired,
}

/// Rewrites per (phase index, rule name): `ptxc::phases::phase::PhaseContext::rules`.
pub type RuleFired = BTreeMap<(u16, &'static str), u64>;

/// What `sm` lacks of the first instruction of `f` it cannot execute (its
/// opcode, or a modifier the opcode table marks as later).
pub fn unavailable_opcode(f: &Function, sm: &SmInfo) -> Option<ptxc::ir::Lacking> {
    f.insts().find_map(|i| i.lacking(sm))
}

/// The PhaseManager phase an internal error in the `phases` driver phase
/// names: its message starts with `NAME: ` (`PhaseError`'s display).
fn phase_of_internal(phase: driver::Phase, message: &str) -> String {
    if phase == driver::Phase::Phases {
        if let Some((name, _)) = message.split_once(": ") {
            if ptxc::phases::table::find(name).is_some() {
                return name.to_string();
            }
        }
    }
    phase.name().to_string()
}

/// Why a compilation did not give a listing to simulate: the verdict, and
/// the fired counts when the compilation got that far.
pub type CompileFailure = Box<(Verdict, BTreeMap<u16, u64>)>;

/// A ptxc compilation ready to simulate: the listing read back, its
/// target, the launch inputs and the phases' fired counts.
pub struct Compiled {
    pub function: Function,
    pub sm: &'static SmInfo,
    pub inputs: SimInputs,
    pub fired: BTreeMap<u16, u64>,
    pub rules: RuleFired,
}

/// Compiles `p` with ptxc under `cfg` (the driver, the production path)
/// and reads the printed listing back; a failure is the verdict (the
/// fired counts are kept when the compilation got that far).
pub fn compile_ptxc(p: &Program, cfg: &Config) -> Result<Compiled, CompileFailure> {
    let opts = cfg.driver_options(&p.spec.kernel);
    let report = driver::compile(&p.name, &p.ptx, &opts, None);
    let no_fired = BTreeMap::new;
    let out = match report.result {
        Ok(o) => o,
        Err(DriverError::Internal { phase, message, .. }) => {
            let name = phase_of_internal(phase, &message);
            let v = Verdict {
                phase: Some(name.clone()),
                ..Verdict::new(VerdictKind::Ice, format!("in {name}: {message}"))
            };
            return Err(Box::new((v, no_fired())));
        }
        Err(e) => {
            let first = e.to_string().lines().next().unwrap_or("").to_string();
            return Err(Box::new((
                Verdict::new(VerdictKind::CompileError, first),
                no_fired(),
            )));
        }
    };
    let sm = out.sm;
    let Some(compiled) = out.functions.iter().find(|f| f.name == p.spec.kernel) else {
        let v = Verdict::new(
            VerdictKind::CompileError,
            format!("ptxc did not compile entry '{}'", p.spec.kernel),
        );
        return Err(Box::new((v, no_fired())));
    };
    let fired = compiled.fired.clone();
    let rules = compiled.rules.clone();
    if let Some(l) = unavailable_opcode(&compiled.kernel.function, sm) {
        let v = Verdict {
            opcode: Some(l.op().name().to_string()),
            ..Verdict::new(
                VerdictKind::Availability,
                format!(
                    "the listing uses {}, which {} does not have",
                    l.spelled(),
                    sm.name
                ),
            )
        };
        return Err(Box::new((v, fired)));
    }
    let function = match listing_function(&out.sass, &p.spec.kernel, sm) {
        Ok(f) => f,
        Err(e) => {
            let v = Verdict {
                phase: Some("EmitSassListing".into()),
                ..Verdict::new(
                    VerdictKind::Ice,
                    format!("the listing does not read back: {e}"),
                )
            };
            return Err(Box::new((v, fired)));
        }
    };
    Ok(Compiled {
        function,
        sm,
        inputs: SimInputs::from_lowered(&compiled.kernel),
        fired,
        rules,
    })
}

/// Compiles `p` with ptxc under `cfg` and runs the listing in the
/// simulator.
pub fn run_ptxc(p: &Program, oracle: &OracleRun, cfg: &Config, limits: &RunLimits) -> ConfigRun {
    match compile_ptxc(p, cfg) {
        Ok(c) => ConfigRun {
            verdict: simulate(&c.function, c.sm, p, oracle, &c.inputs, limits),
            fired: c.fired,
            rules: c.rules,
        },
        Err(e) => {
            let (verdict, fired) = *e;
            ConfigRun {
                verdict,
                fired,
                rules: RuleFired::new(),
            }
        }
    }
}

/// The outputs the listing computes under `cfg` (for reports: the actual
/// side of a mismatch).
pub fn ptxc_outputs(
    p: &Program,
    oracle: &OracleRun,
    cfg: &Config,
    limits: &RunLimits,
) -> Result<OutputSet, String> {
    let c = compile_ptxc(p, cfg).map_err(|e| e.0.line())?;
    sim::run(
        &c.function,
        c.sm,
        &p.spec,
        &c.inputs,
        &compiled_limits(oracle, limits),
    )
    .map(|r| r.outputs)
    .map_err(|e| e.to_string())
}

/// The function `kernel` of a printed listing, read back.
pub fn listing_function(sass: &str, kernel: &str, sm: &SmInfo) -> Result<Function, String> {
    let file = ptxc::ir::sass_text::parse_file(sass).map_err(|e| e.to_string())?;
    let f = file
        .functions
        .iter()
        .find(|f| f.name == kernel)
        .ok_or_else(|| format!("no function '{kernel}'"))?;
    ptxc::ir::from_sass(f, Some(sm)).map_err(|e| e.to_string())
}

/// Runs `f` on the program's launch and judges it against the oracle.
pub fn simulate(
    f: &Function,
    sm: &SmInfo,
    p: &Program,
    oracle: &OracleRun,
    inputs: &SimInputs,
    limits: &RunLimits,
) -> Verdict {
    match sim::run(f, sm, &p.spec, inputs, &compiled_limits(oracle, limits)) {
        Ok(r) => classify_run(&oracle.outputs, &p.spec, &r),
        Err(e) => Verdict::new(VerdictKind::SimFault, format!("setup: {e}")),
    }
}
