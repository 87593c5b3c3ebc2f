//! The compilation driver, following ptxas's per-module orchestrator
//! (docs/MODEL.md, Compilation driver). [`compile`] runs ptxas's phases in
//! its order; the ones that have a counterpart here are:
//!
//! | ptxas phase | here |
//! |---|---|
//! | 1 option capture | the four cache options of [`DriverOptions`], checked against ptxas's accepted values |
//! | 2 cancellation | the `cancel` callback, asked before every phase and between functions ([`DriverError::Cancelled`]) |
//! | 3, 25 timing | per-phase wall-clock times ([`CompileOutput::timings`], `--timing`) |
//! | 4 parse | [`crate::ptx::parser`] and [`crate::ptx::validate`] |
//! | 5 `.version`/`.target` | the validator's rule (a positioned error), then the compile SM |
//! | 9 flag conflicts | ABI-less modules drop `--fast-compile`/`-ewp`; `--legacy-bar-warp-wide-behavior` and `--g-tensor-memory-access-check` warnings |
//! | 11 IR walkers | [`module_info::CallGraph`] (callees, indirect calls, `mma.f64`, the mutual-recursion marker) |
//! | 12 address width | `.address_size` and `-m`, 32-bit refused on sm_90+ |
//! | 13 entries | `-e NAME` (repeatable, comma lists), `-E REGEX`, else every entry in module order |
//! | 14, 21 config snapshot | one [`FunctionConfig`] per function, cloned into each compile |
//! | 16 cache modes | [`CacheMode::resolve`], applied to the module's `ld`/`st` ([`module_info::apply_cache_modes`]) |
//! | 17 | mutual recursion rejected; indirect calls together with `mma.f64` warned |
//! | 20 reserved registers | [`ReservedRegs`], taken off the register budget |
//! | 23 compile loop | lower, verify, the PhaseManager ([`crate::phases`]: ptxas's phase table between lowering and emission, docs/MODEL.md, Phase table), resources, emit per function, sequentially (`threads == 0`) or on a rayon pool; finalize in entry order (quirk 3), so the output is byte-identical for every thread count |
//! | 24 budgets | under `-c`, every call edge's callee pressure against the caller's budget |
//!
//! Quirk 2: a module without entries compiles, without error, to the
//! listing cuobjdump prints for a cubin without code (`\n\tcode for
//! sm_XX\n`). No dummy entry is needed: this front end validates entry-less
//! modules.
//!
//! Every phase runs under `catch_unwind`: a panic becomes
//! [`DriverError::Internal`] naming the phase (and the function), with the
//! input saved to `ptxc-ice-<hash>.ptx`.
//!
//! Register counts are taken before register allocation (there is no
//! allocator yet); see [`crate::regalloc::pressure`] for what is counted.

mod lower_target;
pub mod module_info;
pub mod options;

pub use lower_target::lower_target;
pub use options::{CacheMode, CacheOp, DriverOptions, FunctionConfig, Phase, ReservedRegs};

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::ir::sass_text::print_function;
use crate::lower::{LowerOptions, LoweredKernel, ModulePlan};
use crate::ptx::ast::{FuncAttr, Module, StateSpace, Statement, VarType};
use crate::ptx::{Diagnostic, SourceFile};
use crate::regalloc::pressure::Pressure;
use crate::targets::{lookup_sm, SmInfo};
use module_info::CallGraph;

/// The cancellation callback: returning `true` aborts the compilation
/// (ptxas's driver phase 2: the host's callback returning 1).
pub type CancelFn<'a> = &'a (dyn Fn() -> bool + Sync);

/// ptxas's message prefixes, with `ptxc` for `ptxas` (the alignment of
/// `ptxas info    : ` is kept).
pub const INFO: &str = "ptxc info    : ";
pub const WARNING: &str = "ptxc warning : ";
pub const FATAL: &str = "ptxc fatal   : ";

/// The lowest `--maxrregcount` ptxas 11.8 keeps ("For profile sm_80
/// adjusting per thread register count of 8 to lower bound of 24", the same
/// on sm_70..sm_90).
pub const MIN_MAXRREGCOUNT: u32 = 24;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Info,
    Warning,
    /// PhaseManager output (IR dumps, `--phase-stats`), printed as is.
    Phase,
}

/// A message for the user, ready to print (it may span lines).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub level: Level,
    pub text: String,
}

impl Message {
    fn info(text: impl Into<String>) -> Message {
        Message {
            level: Level::Info,
            text: format!("{INFO}{}", text.into()),
        }
    }

    fn warning(text: impl Into<String>) -> Message {
        Message {
            level: Level::Warning,
            text: format!("{WARNING}{}", text.into()),
        }
    }
}

/// Why a compilation stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DriverError {
    /// Errors in the input, rendered with positions (`file:line:col`).
    Errors(String),
    /// A fatal condition without a source position (ptxas's `fatal`).
    Fatal(String),
    /// The cancellation callback asked to stop.
    Cancelled,
    /// A bug: a panic or a broken invariant in a phase.
    Internal {
        phase: Phase,
        function: Option<String>,
        message: String,
        /// Where the input was saved, when that worked.
        saved: Option<PathBuf>,
    },
}

impl fmt::Display for DriverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DriverError::Errors(text) => f.write_str(text.trim_end()),
            DriverError::Fatal(msg) => write!(f, "{FATAL}{msg}"),
            DriverError::Cancelled => write!(f, "{FATAL}compilation cancelled"),
            DriverError::Internal {
                phase,
                function,
                message,
                saved,
            } => {
                write!(f, "{FATAL}internal compiler error in {}", phase.name())?;
                if let Some(func) = function {
                    write!(f, " (function '{func}')")?;
                }
                write!(f, ": {message}")?;
                match saved {
                    Some(p) => write!(f, "\n{FATAL}the input was saved to {}", p.display()),
                    None => write!(f, "\n{FATAL}the input could not be saved"),
                }
            }
        }
    }
}

impl std::error::Error for DriverError {}

/// One compiled function.
#[derive(Clone, Debug)]
pub struct CompiledFunction {
    pub name: String,
    pub config: FunctionConfig,
    pub kernel: LoweredKernel,
    /// The register pressure before register allocation.
    pub pressure: Pressure,
    /// What the allocated code uses (registers, spills, stack frame).
    pub usage: crate::regalloc::ResourceUsage,
    /// `ld`/`st` instructions of the entry's own body whose cache operator
    /// phase 16 changed.
    pub cache_rewrites: u32,
    /// Constant bank 0 bytes: the parameter base plus the parameters
    /// (ptxas's `cmem[0]`: 380 for switch_local on sm_80, 0x160 + 28).
    pub cmem0: u32,
    /// The function's listing (cuobjdump layout).
    pub text: String,
    /// Time per per-function phase.
    pub timings: Vec<(Phase, Duration)>,
    /// The PhaseManager's IR dumps and statistics, in order.
    pub phase_log: Vec<String>,
    /// How often each phase fired, by phase index (`PhaseContext::fired`;
    /// the differential engine's statistics).
    pub fired: std::collections::BTreeMap<u16, u64>,
    /// How often each named peephole rule fired, by (phase index, rule
    /// name) (`PhaseContext::rules`).
    pub rules: std::collections::BTreeMap<(u16, &'static str), u64>,
}

/// A finished compilation.
#[derive(Clone, Debug)]
pub struct CompileOutput {
    pub sm: &'static SmInfo,
    /// The whole listing: `\n\tcode for sm_XX\n`, then each function.
    pub sass: String,
    pub functions: Vec<CompiledFunction>,
    /// Module-level phase times, in order.
    pub timings: Vec<(Phase, Duration)>,
}

/// What [`compile`] reports: messages (warnings, info lines) in order,
/// and the result.
#[derive(Debug)]
pub struct Report {
    pub messages: Vec<Message>,
    pub result: Result<CompileOutput, DriverError>,
}

/// A function to compile (ptxas's driver phase 15 codegen record).
#[derive(Clone, Debug)]
struct Record {
    name: String,
    config: FunctionConfig,
    cache_rewrites: u32,
}

struct Ctx<'a> {
    file: &'a str,
    src: &'a str,
    opts: &'a DriverOptions,
    cancel: Option<CancelFn<'a>>,
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-string payload".to_string()
    }
}

impl Ctx<'_> {
    fn check_cancel(&self) -> Result<(), DriverError> {
        match self.cancel {
            Some(c) if c() => Err(DriverError::Cancelled),
            _ => Ok(()),
        }
    }

    /// Saves the input for an internal-error report: `ptxc-ice-<hash>.ptx`
    /// in `ice_dir` (or the temp directory).
    fn save_input(&self) -> Option<PathBuf> {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        self.src.hash(&mut h);
        let dir = self
            .opts
            .ice_dir
            .clone()
            .filter(|d| d.is_dir())
            .unwrap_or_else(std::env::temp_dir);
        let path = dir.join(format!("ptxc-ice-{:016x}.ptx", h.finish()));
        std::fs::write(&path, self.src).ok().map(|_| path)
    }

    fn internal(&self, phase: Phase, function: Option<&str>, message: String) -> DriverError {
        DriverError::Internal {
            phase,
            function: function.map(str::to_string),
            message,
            saved: self.save_input(),
        }
    }

    /// Runs one phase: the cancellation check, then `f` under
    /// `catch_unwind`, timed.
    fn phase<T>(
        &self,
        phase: Phase,
        function: Option<&str>,
        timings: &mut Vec<(Phase, Duration)>,
        f: impl FnOnce() -> Result<T, DriverError>,
    ) -> Result<T, DriverError> {
        self.check_cancel()?;
        let start = Instant::now();
        // The hook fires in a function's lowering, not in the module-wide
        // placement that precedes it.
        let inject =
            self.opts.inject_ice == Some(phase) && (phase != Phase::Lower || function.is_some());
        let r = catch_unwind(AssertUnwindSafe(|| {
            if inject {
                panic!("injected failure (--inject-ice {})", phase.name());
            }
            f()
        }));
        timings.push((phase, start.elapsed()));
        match r {
            Ok(r) => r,
            Err(p) => Err(self.internal(phase, function, panic_message(&*p))),
        }
    }
}

/// Compiles PTX text. `file` names it in diagnostics.
pub fn compile(file: &str, src: &str, opts: &DriverOptions, cancel: Option<CancelFn>) -> Report {
    let cx = Ctx {
        file,
        src,
        opts,
        cancel,
    };
    let mut messages = Vec::new();
    let result = compile_inner(&cx, &mut messages);
    Report { messages, result }
}

fn render(cx: &Ctx, diags: &[Diagnostic]) -> String {
    crate::ptx::diag::render_all(diags, &SourceFile::new(cx.file, cx.src))
}

fn compile_inner(cx: &Ctx, messages: &mut Vec<Message>) -> Result<CompileOutput, DriverError> {
    let opts = cx.opts;
    let mut timings = Vec::new();
    // Phase 1: the cache options, checked as ptxas checks them.
    for (v, kind, ok) in [
        (opts.def_load_cache, "load", CacheOp::LOAD),
        (opts.force_load_cache, "load", CacheOp::LOAD),
        (opts.def_store_cache, "store", CacheOp::STORE),
        (opts.force_store_cache, "store", CacheOp::STORE),
    ] {
        if let Some(c) = v.filter(|c| !ok.contains(c)) {
            return Err(DriverError::Fatal(format!(
                "Invalid default cache modifier on {kind} specified: {}",
                c.name()
            )));
        }
    }
    // The phase pipeline's options, checked before any input is read.
    let plan = opts
        .phases
        .plan(opts.opt_level)
        .map_err(DriverError::Fatal)?;
    for w in &plan.warnings {
        messages.push(Message::warning(w.clone()));
    }
    // Phase 2 (the first cancellation check) is part of every phase below.
    // Phase 4: parse and validate.
    let (mut module, mut diags) = cx.phase(Phase::Parse, None, &mut timings, || {
        Ok(crate::ptx::parser::parse(cx.src))
    })?;
    let vdiags = cx.phase(Phase::Validate, None, &mut timings, || {
        Ok(crate::ptx::validate::validate_for(&module, opts.arch))
    })?;
    diags.extend(vdiags);
    diags.sort_by_key(|d| d.span.lo);
    diags.dedup();
    let (errors, warnings): (Vec<Diagnostic>, Vec<Diagnostic>) =
        diags.into_iter().partition(Diagnostic::is_error);
    for w in &warnings {
        messages.push(Message {
            level: Level::Warning,
            text: render(cx, std::slice::from_ref(w)).trim_end().to_string(),
        });
    }
    if !errors.is_empty() {
        return Err(DriverError::Errors(render(cx, &errors)));
    }
    let checked = cx.phase(Phase::Checks, None, &mut timings, || {
        module_checks(cx, &mut module, messages)
    })?;
    let ModuleChecks {
        sm,
        records,
        graph: _,
    } = checked;
    let records: Vec<Record> = records;
    let module = module;
    // Phase 23: the per-function compile loop.
    let phase_plan = plan;
    let plan = cx.phase(Phase::Lower, None, &mut timings, || {
        ModulePlan::new(&module, sm).map_err(|e| lower_error(cx, e))
    })?;
    let compile_one = |r: &Record| compile_function(cx, &module, &plan, &phase_plan, r);
    let results: Vec<Result<CompiledFunction, DriverError>> = if opts.threads == 0 {
        // 23a: sequential; stop at the first failure.
        let mut out = Vec::with_capacity(records.len());
        for r in &records {
            let res = compile_one(r);
            let failed = res.is_err();
            out.push(res);
            if failed {
                break;
            }
        }
        out
    } else {
        // 23b: a pool of `threads` workers; the barrier is the collect.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(opts.threads)
            .build()
            .map_err(|e| {
                DriverError::Fatal(format!("cannot start {} threads: {e}", opts.threads))
            })?;
        pool.install(|| records.par_iter().map(compile_one).collect())
    };
    // Finalize in record order, on this thread (quirk 3): the first
    // failure in entry order wins, whatever finished first.
    let mut functions = Vec::with_capacity(results.len());
    for r in results {
        functions.push(r?);
    }
    let sass = cx.phase(Phase::Finalize, None, &mut timings, || {
        finalize(cx, &module, sm, &functions, messages)
    })?;
    if opts.timing {
        let list = |t: &[(Phase, Duration)]| {
            t.iter()
                .map(|(p, d)| format!("{} {:.3} ms", p.name(), d.as_secs_f64() * 1e3))
                .collect::<Vec<_>>()
                .join(", ")
        };
        messages.push(Message::info(format!("Module phases: {}", list(&timings))));
        for f in &functions {
            messages.push(Message::info(format!(
                "Function '{}': {}",
                f.name,
                list(&f.timings)
            )));
        }
    }
    Ok(CompileOutput {
        sm,
        sass,
        functions,
        timings,
    })
}

fn lower_error(cx: &Ctx, e: crate::lower::LowerError) -> DriverError {
    DriverError::Errors(render(cx, &[Diagnostic::error(e.span, e.msg)]))
}

struct ModuleChecks {
    sm: &'static SmInfo,
    records: Vec<Record>,
    #[allow(dead_code)]
    graph: CallGraph,
}

/// Phases 5 to 21: everything decided once per module.
fn module_checks(
    cx: &Ctx,
    m: &mut Module,
    messages: &mut Vec<Message>,
) -> Result<ModuleChecks, DriverError> {
    let opts = cx.opts;
    // Phase 5: the compile SM (`-arch`, else `.target`) and the
    // `.version`/`.target` pairing. The validator reported a mismatch with
    // its position already ("target sm_80 requires PTX ISA version 7.0 or
    // later"; ptxas: "PTX .version 6.0 does not support .target sm_80");
    // this is the driver's own guard.
    let module_target = m.sm_target().and_then(|(n, _)| lookup_sm(n));
    let sm =
        match opts.arch.or(module_target) {
            Some(sm) => sm,
            None => return Err(DriverError::Fatal(
                "no target architecture: the module has no .target sm_XX and no -arch was given"
                    .into(),
            )),
        };
    if let (Some(t), Some((v, _))) = (module_target, m.version) {
        if v < t.min_ptx {
            return Err(DriverError::Fatal(format!(
                "PTX .version {v} does not support .target {}",
                t.name
            )));
        }
    }
    let target_name = module_target.map_or(sm.name, |t| t.name);
    // Phase 9: flag conflicts.
    let mut fast_compile = opts.fast_compile;
    let mut ewp = opts.extensible_whole_program;
    if let Some(reason) = module_info::abi_less_reason(m) {
        // ptxas 11.8's words, one per option (it doubles the quotes around
        // '--fast-compile'; single quotes here), then the reason.
        let mut any = false;
        for (on, flag, what) in [
            (&mut fast_compile, "--fast-compile", "calls without ABI"),
            (
                &mut ewp,
                "--extensible-whole-program",
                "compilation without ABI",
            ),
        ] {
            if *on {
                *on = false;
                any = true;
                messages.push(Message::warning(format!(
                    "Command line option '{flag}' not supported for '{what}', will be ignored"
                )));
            }
        }
        if any {
            messages.push(Message::warning(reason));
        }
    }
    if opts.legacy_bar_warp_wide {
        // ptxas 11.8 prints both lines for any target, and ignores the
        // option from `.target sm_70` on.
        messages.push(Message::warning(
            "'--legacy-bar-warp-wide-behavior' is a deprecated option, It will be removed in future release and is not recommended",
        ));
        if module_target.map_or(sm.sm, |t| t.sm) >= 70 {
            messages.push(Message::warning(format!(
                "Command line option '--legacy-bar-warp-wide-behavior' not supported for '.target {target_name}', will be ignored"
            )));
        }
    }
    if opts.g_tensor_memory_access_check && sm.sm < 100 {
        messages.push(Message::warning(format!(
            "Command line option '--g-tensor-memory-access-check' not supported for '.target {}', will be ignored",
            sm.name
        )));
    }
    // Phase 11: the call graph and its markers.
    let graph = CallGraph::new(m);
    // Phase 12: address width.
    let module_width = m.address_bits();
    let address_width = match opts.machine {
        Some(w) => {
            if w != module_width {
                messages.push(Message::warning(format!(
                    " {w} Bit host architecture (--machine) being used mismatches with .address_size of {module_width} bits"
                )));
            }
            w
        }
        None => module_width,
    };
    if address_width == 32 && !sm.allows_32bit_addresses {
        return Err(DriverError::Fatal(format!(
            " 32-Bit ABI (--machine 32 or 32-Bit addressing) is not supported on {} or higher architectures.",
            sm.name
        )));
    }
    // Phase 13: entries.
    let all_entries: Vec<String> = module_info::entries(m)
        .iter()
        .map(|f| m.name(f.name).to_string())
        .collect();
    let selected = select_entries(m, &all_entries, opts)?;
    // Phase 17: mutual recursion, indirect calls with mma.f64.
    if let Some((members, span)) = graph.mutual_recursion(m).into_iter().next() {
        let names: Vec<String> = members
            .iter()
            .map(|s| format!("'{}'", m.name(*s)))
            .collect();
        return Err(DriverError::Errors(render(
            cx,
            &[Diagnostic::error(
                span,
                format!(
                    "functions {} are mutually recursive: mutual recursion is not supported by the PTX call ABI",
                    names.join(", ")
                ),
            )],
        )));
    }
    let mut warned = Vec::new();
    for e in &selected {
        let Some(sym) = m.names.get(e) else { continue };
        for f in graph.reachable(sym) {
            let Some(fc) = graph.calls.get(&f) else {
                continue;
            };
            if let (Some(&ind), Some(mma)) = (fc.indirect.first(), fc.mma_f64) {
                if !warned.contains(&f) {
                    warned.push(f);
                    let _ = ind;
                    messages.push(Message {
                        level: Level::Warning,
                        text: render(
                            cx,
                            &[Diagnostic::warning(
                                mma,
                                format!(
                                    "function '{}' has indirect calls and uses mma.f64: indirect dispatch defeats the tensor-core scheduler",
                                    m.name(f)
                                ),
                            )],
                        )
                        .trim_end()
                        .to_string(),
                    });
                }
            }
        }
    }
    // Phase 16: cache modes (the same options for every function here, so
    // every record resolves alike), applied to the module.
    let load_cache = CacheMode::resolve(opts.def_load_cache, opts.force_load_cache);
    let store_cache = CacheMode::resolve(opts.def_store_cache, opts.force_store_cache);
    let rewrites = module_info::apply_cache_modes(m, load_cache, store_cache);
    // Phase 20: reserved registers.
    let reserved = ReservedRegs::new(opts.first_reserved_rreg, opts.reserved_rreg_count);
    // Phase 21: the register budget, as ptxas adjusts `--maxrregcount`.
    let global_max = match opts.maxrregcount {
        Some(n) if n > sm.max_registers => {
            messages.push(Message::warning(format!(
                "Too big maxrregcount value specified {n}, will be ignored"
            )));
            sm.max_registers
        }
        Some(n) if n < MIN_MAXRREGCOUNT => {
            messages.push(Message::warning(format!(
                "For profile {} adjusting per thread register count of {n} to lower bound of {MIN_MAXRREGCOUNT}",
                sm.name
            )));
            MIN_MAXRREGCOUNT
        }
        Some(n) => n,
        None => sm.max_registers,
    };
    if reserved.count >= global_max {
        return Err(DriverError::Fatal(format!(
            "{} reserved registers leave none of the budget of {global_max}",
            reserved.count
        )));
    }
    // Phases 14/15/21: one record per entry with its configuration.
    let mut records = Vec::new();
    for name in selected {
        let f = m.function(&name).expect("a selected entry");
        let maxnreg = f.attrs.iter().find_map(|a| match a {
            FuncAttr::MaxNreg(n) => Some(*n),
            _ => None,
        });
        let config = FunctionConfig {
            sm,
            opt_level: opts.opt_level,
            address_width,
            load_cache,
            store_cache,
            reserved,
            max_registers: maxnreg.map_or(global_max, |n| n.min(global_max)),
            fast_compile,
            extensible_whole_program: ewp,
        };
        records.push(Record {
            cache_rewrites: rewrites.get(&f.name).copied().unwrap_or(0),
            name,
            config,
        });
    }
    Ok(ModuleChecks { sm, records, graph })
}

/// Phase 13: `-e` names and `-E` patterns, in module order; every entry
/// when neither is given.
fn select_entries(
    m: &Module,
    all: &[String],
    opts: &DriverOptions,
) -> Result<Vec<String>, DriverError> {
    if opts.entries.is_empty() && opts.entry_regexes.is_empty() {
        return Ok(all.to_vec());
    }
    for e in &opts.entries {
        if !all.contains(e) {
            return Err(if m.function(e).is_some() {
                // ptxas 11.8: "ptxas error   : Entry function '_Z9poly_evalPKdid' not found".
                DriverError::Fatal(format!("Entry function '{e}' not found"))
            } else {
                // ptxas 11.8: "ptxas fatal   : Unknown function nosuch".
                DriverError::Fatal(format!("Unknown function {e}"))
            });
        }
    }
    let mut regexes = Vec::new();
    for r in &opts.entry_regexes {
        let re = regex::Regex::new(r).map_err(|e| {
            DriverError::Fatal(format!("Invalid regular expression '{r}' for -E: {e}"))
        })?;
        if !all.iter().any(|n| re.is_match(n)) {
            return Err(DriverError::Fatal(format!(
                "No entry function matches -E '{r}'"
            )));
        }
        regexes.push(re);
    }
    Ok(all
        .iter()
        .filter(|n| opts.entries.contains(n) || regexes.iter().any(|re| re.is_match(n)))
        .cloned()
        .collect())
}

/// `.headerflags` as cuobjdump prints them for ptxas output:
/// `@"EF_CUDA_SM80 EF_CUDA_PTX_SM(EF_CUDA_SM80)"`.
fn header_flags(sm: &SmInfo) -> String {
    format!("@\"EF_CUDA_SM{0} EF_CUDA_PTX_SM(EF_CUDA_SM{0})\"", sm.sm)
}

/// Phase 23's per-function pipeline: lower, verify, resources, emit.
fn compile_function(
    cx: &Ctx,
    m: &Module,
    plan: &ModulePlan,
    phase_plan: &crate::phases::Plan,
    r: &Record,
) -> Result<CompiledFunction, DriverError> {
    let name = Some(r.name.as_str());
    let mut timings = Vec::new();
    let f = m.function(&r.name).expect("a selected entry");
    let mut kernel = cx.phase(Phase::Lower, name, &mut timings, || {
        plan.lower_entry(m, &LowerOptions::default(), f)
            .map_err(|e| lower_error(cx, e))
    })?;
    let sm = r.config.sm;
    cx.phase(Phase::Verify, name, &mut timings, || {
        // Before phase 5 ConvertUnsupportedOps: the opcodes it expands
        // are accepted on every target.
        let opts = crate::ir::verify::VerifyOptions {
            before_conversion: true,
            ..Default::default()
        };
        crate::ir::verify::verify_with(&kernel.function, Some(sm), opts).map_err(|e| {
            cx.internal(
                Phase::Verify,
                name,
                format!("the lowered IR is invalid: {e}"),
            )
        })
    })?;
    // The PhaseManager: OriCheckInitialProgram ... EmitSassListing.
    let mut phase_log = Vec::new();
    let mut fired = Default::default();
    let mut rules = Default::default();
    let (mut alloc, mut usage) = (None, None);
    let listing = cx.phase(Phase::Phases, name, &mut timings, || {
        let function = std::mem::take(&mut kernel.function);
        // The budget of phases 20/21 for AllocateRegisters.
        let budget = crate::regalloc::RegBudget::of(r.config.budget());
        let phased = crate::phases::run_budgeted(phase_plan, function, Some(sm), Some(budget))
            .map_err(|e| cx.internal(Phase::Phases, name, e.to_string()))?;
        alloc = phased.cx.alloc.clone();
        usage = phased.cx.resources.clone();
        phase_log.extend(phased.report.dumps.iter().cloned());
        if phase_plan.dispatch.stats {
            phase_log.push(crate::phases::stats_block(
                phase_plan,
                &r.name,
                &phased.report,
                &phased.cx,
            ));
        }
        fired = phased.cx.fired;
        rules = phased.cx.rules;
        kernel.function = phased.cx.function;
        phased.cx.listing.ok_or_else(|| {
            cx.internal(
                Phase::Phases,
                name,
                "the phase order did not emit the function".into(),
            )
        })
    })?;
    // Pressure before allocation (AllocateRegisters measures it; an order
    // without allocation leaves the IR virtual, measured here), and the
    // allocated code's usage (ComputeResourceUsage, else measured here).
    let (pressure, usage) = cx.phase(Phase::Resources, name, &mut timings, || {
        let pressure = alloc
            .as_ref()
            .and_then(|a| a.pressure.clone())
            .unwrap_or_else(|| crate::regalloc::pressure::pressure(&kernel.function));
        let usage = match usage.take() {
            Some(u) => u,
            None => crate::regalloc::resource_usage(&kernel.function, alloc.as_ref())
                .map_err(|e| cx.internal(Phase::Resources, name, e))?,
        };
        Ok((pressure, usage))
    })?;
    // Recursion through a function pointer is not visible in the listing
    // (its calls go through registers): the lowering's call graph says.
    let mut usage = usage;
    usage.stack_unbounded |= crate::lower::call_graph::CallGraph::new(m).reaches_recursion(f.name);
    let text = cx.phase(Phase::Emit, name, &mut timings, || {
        let mut sf = listing;
        sf.header_flags = Some(header_flags(sm));
        let listing = print_function(&sf);
        // The configuration, as a comment line after `.headerflags` (the
        // SASS parser skips `//` lines).
        let c = &r.config;
        let comment = format!(
            "\t// ptxc: -O{}, {}, {} bytes spill stores, {} bytes spill loads, {} bytes stack frame (max pressure before register allocation {}, {} virtual in aligned groups; {} distinct), budget {}, reserved R0..R{}{}, cache operators: load {}, store {} ({} accesses rewritten), address width {}\n",
            c.opt_level,
            if usage.virtual_left {
                "virtual registers (not allocated)".to_string()
            } else {
                format!("{} registers used", usage.registers)
            },
            usage.spill_store_bytes,
            usage.spill_load_bytes,
            usage.stack_frame,
            pressure.max_live,
            pressure.max_virtual,
            pressure.distinct,
            c.budget(),
            c.reserved.first - 1,
            if c.reserved.count > 0 {
                format!(" and {} from the top", c.reserved.count)
            } else {
                String::new()
            },
            c.load_cache,
            c.store_cache,
            r.cache_rewrites,
            c.address_width,
        );
        let mut out = String::with_capacity(listing.len() + comment.len());
        let mut lines = listing.split_inclusive('\n');
        for l in lines.by_ref().take(2) {
            out.push_str(l);
        }
        out.push_str(&comment);
        out.extend(lines);
        Ok(out)
    })?;
    cx.check_cancel()?;
    let cmem0 = sm.cbank.map_or(0, |c| c.param_base)
        + kernel
            .params
            .iter()
            .map(|p| p.offset + p.size)
            .max()
            .unwrap_or(0);
    Ok(CompiledFunction {
        name: r.name.clone(),
        config: r.config.clone(),
        kernel,
        pressure,
        usage,
        cache_rewrites: r.cache_rewrites,
        cmem0,
        text,
        timings,
        phase_log,
        fired,
        rules,
    })
}

/// Bytes of `.local` data a function body declares (its frame before
/// callees), as the lowering lays it out.
fn local_frame(f: &crate::ptx::ast::Function) -> u32 {
    fn walk(b: &crate::ptx::ast::Block, off: &mut u32) {
        for s in &b.stmts {
            match s {
                Statement::Decl(v) if v.space == StateSpace::Local => {
                    let (size, align) = var_bytes(v);
                    *off = off.next_multiple_of(align) + size;
                }
                Statement::Block(inner) => walk(inner, off),
                _ => {}
            }
        }
    }
    let mut off = 0;
    if let Some(b) = &f.body {
        walk(b, &mut off);
    }
    off.next_multiple_of(8)
}

fn var_bytes(v: &crate::ptx::ast::VarDecl) -> (u32, u32) {
    let elem = match v.ty {
        VarType::Scalar(t) => t.bytes(),
        _ => 8,
    };
    let size = elem * v.element_count().unwrap_or(0) as u32;
    let align = v
        .align
        .unwrap_or(elem * u32::from(v.vector.unwrap_or(1)))
        .max(1);
    (size, align)
}

/// Module `.global` bytes and `.const` bytes (ptxas's `gmem` and `cmem[3]`).
fn module_data(m: &Module) -> (u32, u32) {
    let (mut g, mut c) = (0u32, 0u32);
    for v in m.globals() {
        let (size, align) = var_bytes(v);
        match v.space {
            StateSpace::Global => g = g.next_multiple_of(align) + size,
            StateSpace::Const => c = c.next_multiple_of(align) + size,
            _ => {}
        }
    }
    (g, c)
}

/// Phase 23's finalize and phase 24, on the calling thread in entry order:
/// the listing, the `-v` lines, the budget checks.
fn finalize(
    cx: &Ctx,
    m: &Module,
    sm: &'static SmInfo,
    functions: &[CompiledFunction],
    messages: &mut Vec<Message>,
) -> Result<String, DriverError> {
    let opts = cx.opts;
    let mut sass = format!("\n\tcode for {}\n", sm.name);
    if opts.verbose {
        let (gmem, cmem3) = module_data(m);
        let mut line = format!("{gmem} bytes gmem");
        if cmem3 > 0 {
            line.push_str(&format!(", {cmem3} bytes cmem[3]"));
        }
        messages.push(Message::info(line));
    }
    let mut described: Vec<String> = Vec::new();
    for f in functions {
        for l in &f.phase_log {
            messages.push(Message {
                level: Level::Phase,
                text: l.trim_end().to_string(),
            });
        }
        sass.push_str(&f.text);
        sass.push_str("\n\n");
        if f.usage.stack_unbounded {
            // ptxas 11.8 on a kernel reaching a recursive `.func`
            // (lower/recursion.rs; through a function pointer too,
            // lower/call_graph.rs), with or without -v.
            messages.push(Message::warning(format!(
                "Stack size for entry function '{}' cannot be statically determined",
                f.name
            )));
        }
        if opts.verbose {
            messages.push(Message::info(format!(
                "Compiling entry function '{}' for '{}'",
                f.name, sm.name
            )));
            messages.push(Message::info(format!(
                "Function properties for {}\n    {} bytes stack frame, {} bytes spill stores, {} bytes spill loads",
                f.name, f.usage.stack_frame, f.usage.spill_store_bytes, f.usage.spill_load_bytes
            )));
            let mut used = format!("Used {} registers", f.usage.registers);
            if f.kernel.shared_bytes > 0 {
                used.push_str(&format!(", {} bytes smem", f.kernel.shared_bytes));
            }
            used.push_str(&format!(", {} bytes cmem[0]", f.cmem0));
            messages.push(Message::info(used));
            for (callee, _) in &f.kernel.funcs {
                if described.contains(callee) {
                    continue;
                }
                described.push(callee.clone());
                let frame = m.function(callee).map_or(0, local_frame);
                messages.push(Message::info(format!(
                    "Function properties for {callee}\n    {frame} bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
                )));
            }
        }
    }
    // Phase 24: under --compile-only, each caller's budget must host what
    // its callees need.
    if opts.compile_only {
        for f in functions {
            let name_of = |p: usize| -> String {
                let label = f.pressure.procs[p].0;
                if p == 0 {
                    f.name.clone()
                } else {
                    f.kernel
                        .funcs
                        .iter()
                        .find(|(_, l)| *l == label)
                        .map_or_else(
                            || format!("the compiler subroutine at .L_x_{label}"),
                            |(n, _)| n.clone(),
                        )
                }
            };
            let global_budget = opts
                .maxrregcount
                .map_or(sm.max_registers, |n| {
                    n.clamp(MIN_MAXRREGCOUNT, sm.max_registers)
                })
                .saturating_sub(f.config.reserved.count);
            for &(caller, callee) in &f.pressure.calls {
                let budget = if caller == 0 {
                    f.config.budget()
                } else {
                    global_budget
                };
                let need = f.pressure.procs[callee].1;
                if need > budget {
                    return Err(DriverError::Fatal(format!(
                        "Register budget of '{}' ({budget}) cannot host its callee {}, which needs {need} registers with the caller's live values (before register allocation)",
                        name_of(caller),
                        {
                            let n = name_of(callee);
                            if n.starts_with("the compiler") { n } else { format!("'{n}'") }
                        }
                    )));
                }
            }
        }
    }
    Ok(sass)
}
