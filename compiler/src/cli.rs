//! The `ptxc` command line, ptxas-compatible where ptxas has the flag.
//!
//! Flags are parsed by hand because ptxas spells them every way at once:
//! `-arch=sm_70`, `-arch sm_70`, `--gpu-name sm_70`, `--gpu-name=sm_70`,
//! `-O3`, `--opt-level=3`, `-dlcm=ca`, `-m32`. Every option has a long name
//! (`--maxrregcount`) and may have a short one (`-arch`); either is
//! accepted with one or two dashes, and a value follows `=` or comes as
//! the next argument (ptxas 11.8 `--help`).
//!
//! Output: the SASS listing (cuobjdump layout) to `-o FILE`, or to stdout
//! without `-o` (ptxas writes a cubin to `elf.o`; ptxc has no ELF writer).
//! Messages go to stderr with ptxas's prefixes (`ptxc info    : `,
//! `ptxc warning : `, `ptxc fatal   : `); errors in the input carry
//! `file:line:col`.

use crate::driver::{self, CacheOp, DriverOptions, Phase};
use crate::ptx::{self, SourceFile};
use crate::targets::lookup_sm;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

pub const USAGE: &str = "\
Usage: ptxc [options] FILE.ptx

Options (ptxas spellings; `-x v`, `-x=v`, `--long v`, `--long=v` all work):
  -arch=sm_XX, --gpu-name sm_XX   target SM (default: the module's .target)
  -O0 .. -O3, --opt-level N       optimization level (default 3)
  -o FILE, --output-file FILE     write the SASS listing there (default: stdout)
  -e NAME, --entry NAME           compile only this entry (repeatable, or a,b)
  --maxrregcount N                register budget per function
  -v, --verbose                   print resource usage (`ptxc info    : Used N registers, ...`)
  -c, --compile-only              also check callers' register budgets against callees
  -m 32|64, --machine 32|64       host address width (32-bit refused on sm_90+)
  -dlcm=OP, --def-load-cache OP   default cache operator of global loads (ca cg cs lu cv)
  -flcm=OP, --force-load-cache OP forced cache operator of global loads
  -dscm=OP, --def-store-cache OP  default cache operator of global stores (wb cg cs wt)
  -fscm=OP, --force-store-cache OP forced cache operator of global stores
  --fast-compile, -ewp, --extensible-whole-program, --legacy-bar-warp-wide-behavior
                                  accepted as ptxas does (see the warnings)
  -h, --help                      print this help
  -V, --version                   print the version

ptxc's own options:
  -E REGEX, --entry-regex REGEX   compile the entries whose name matches (repeatable)
  --nvopt=LEVEL                   run the nvopt<LEVEL> PTX optimizer first (O0..O3,
                                  Ofcmax, Ofcmid, Ofcmin); its passes keep PTX semantics
  --threads N                     compile functions on N threads (0: sequential, default);
                                  the output is the same for every N
  --g-tensor-memory-access-check  accepted; ignored with a warning before sm_100
  --first-reserved-register N     phase 20: first user-reserved register (at least R4)
  --reserved-registers N          phase 20: registers reserved from the top of the budget
  --timing                        print per-phase times
  --parse-only                    parse and validate only; print diagnostics

The phase pipeline (ptxas's PhaseManager and ORI manager; docs/MODEL.md):
  --phase-stats                   per-phase memory and time ([Total ..] [Freeable ..] ...)
  --dump-ir-before NAME           print the IR before phase NAME (name or index; repeatable)
  --dump-ir-after NAME            print the IR after phase NAME (repeatable)
  --phase-order LIST|@FILE        run these phases (names or indices) instead of the default
  --disable-phase NAME            leave phase NAME out (repeatable)
  --knob K=V[,K=V]                NvOptLevel=0..5; AdvancedPhase<Hook>=PHASE; ORI keys
                                  ori=default|shuffle|NamedPhases, shuffle, NamedPhases, reps,
                                  swap1..6, cpy1..3, dce1..3, p0..p242 (values 0..256)
";

/// What the command line asks for.
#[derive(Debug, Default)]
pub struct Options {
    pub input: Option<String>,
    pub output: Option<String>,
    pub parse_only: bool,
    pub driver: DriverOptions,
    /// Testing hook (`--cancel-after N`): the cancellation callback answers
    /// yes from its N-th call on.
    pub cancel_after: Option<u64>,
    /// `--nvopt=LEVEL`: run nvopt before the back end.
    pub nvopt: Option<crate::nvopt::pipeline::Level>,
}

/// `(long name, short name, takes a value)`.
const FLAGS: &[(&str, &str, bool)] = &[
    ("gpu-name", "arch", true),
    ("opt-level", "O", true),
    ("output-file", "o", true),
    ("entry", "e", true),
    ("entry-regex", "E", true),
    ("nvopt", "nvopt", true),
    ("maxrregcount", "maxrregcount", true),
    ("threads", "threads", true),
    ("verbose", "v", false),
    ("compile-only", "c", false),
    ("machine", "m", true),
    ("def-load-cache", "dlcm", true),
    ("force-load-cache", "flcm", true),
    ("def-store-cache", "dscm", true),
    ("force-store-cache", "fscm", true),
    ("fast-compile", "fast-compile", false),
    ("extensible-whole-program", "ewp", false),
    (
        "legacy-bar-warp-wide-behavior",
        "legacy-bar-warp-wide-behavior",
        false,
    ),
    (
        "g-tensor-memory-access-check",
        "g-tensor-memory-access-check",
        false,
    ),
    ("first-reserved-register", "first-reserved-register", true),
    ("reserved-registers", "reserved-registers", true),
    ("timing", "timing", false),
    ("parse-only", "parse-only", false),
    ("phase-stats", "phase-stats", false),
    ("dump-ir-before", "dump-ir-before", true),
    ("dump-ir-after", "dump-ir-after", true),
    ("phase-order", "phase-order", true),
    ("disable-phase", "disable-phase", true),
    ("knob", "knob", true),
    ("help", "h", false),
    ("version", "V", false),
    // Testing hooks, not in the help.
    ("cancel-after", "cancel-after", true),
    ("inject-ice", "inject-ice", true),
];

fn number(flag: &str, v: &str) -> Result<u32, String> {
    v.parse()
        .map_err(|_| format!("Invalid value '{v}' for option --{flag}"))
}

fn cache(flag: &str, v: &str) -> Result<CacheOp, String> {
    let kind = if flag.contains("load") {
        "load"
    } else {
        "store"
    };
    CacheOp::parse(v)
        .ok_or_else(|| format!("Invalid default cache modifier on {kind} specified: {v}"))
}

/// Parses the command line. `Ok(None)`: help or version was printed.
/// Errors are ptxas-style one-line messages.
pub fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if !a.starts_with('-') || a == "-" {
            if o.input.replace(a.clone()).is_some() {
                return Err("more than one input file".into());
            }
            continue;
        }
        let body = a.strip_prefix("--").unwrap_or(&a[1..]);
        let (name, mut value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        // Attached values: `-O3`, `-m32`.
        let found = FLAGS
            .iter()
            .find(|(l, s, _)| *l == name || *s == name)
            .copied()
            .or_else(|| {
                for (short, long) in [("O", "opt-level"), ("m", "machine")] {
                    if let Some(rest) = name.strip_prefix(short) {
                        if !rest.is_empty()
                            && rest.bytes().all(|b| b.is_ascii_digit())
                            && value.is_none()
                        {
                            value = Some(rest.to_string());
                            return FLAGS.iter().find(|f| f.0 == long).copied();
                        }
                    }
                }
                None
            });
        let Some((long, _, takes)) = found else {
            return Err(format!("Unknown option '{a}'"));
        };
        let value = if takes {
            match value {
                Some(v) => v,
                None => it
                    .next()
                    .ok_or_else(|| format!("option '{a}' needs a value"))?
                    .clone(),
            }
        } else {
            if value.is_some() {
                return Err(format!("option '{a}' takes no value"));
            }
            String::new()
        };
        let d = &mut o.driver;
        match long {
            "gpu-name" => {
                d.arch = Some(
                    lookup_sm(&value).ok_or_else(|| format!("unknown architecture '{value}'"))?,
                )
            }
            "opt-level" => {
                let n = number(long, &value)?;
                if n > 3 {
                    return Err(format!(
                        "Invalid value '{value}' for option --opt-level (0..3)"
                    ));
                }
                d.opt_level = n as u8;
            }
            "output-file" => o.output = Some(value),
            "entry" => d.entries.extend(
                value
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            ),
            "entry-regex" => d.entry_regexes.push(value),
            "nvopt" => o.nvopt = Some(crate::nvopt::cli::level_for_ptxc(&value)?),
            "maxrregcount" => d.maxrregcount = Some(number(long, &value)?),
            "threads" => d.threads = number(long, &value)? as usize,
            "verbose" => d.verbose = true,
            "compile-only" => d.compile_only = true,
            "machine" => match value.as_str() {
                "32" | "64" => d.machine = Some(number(long, &value)?),
                _ => {
                    return Err(format!(
                        "Invalid value '{value}' for option --machine (32 or 64)"
                    ))
                }
            },
            "def-load-cache" => d.def_load_cache = Some(cache(long, &value)?),
            "force-load-cache" => d.force_load_cache = Some(cache(long, &value)?),
            "def-store-cache" => d.def_store_cache = Some(cache(long, &value)?),
            "force-store-cache" => d.force_store_cache = Some(cache(long, &value)?),
            "fast-compile" => d.fast_compile = true,
            "extensible-whole-program" => d.extensible_whole_program = true,
            "legacy-bar-warp-wide-behavior" => d.legacy_bar_warp_wide = true,
            "g-tensor-memory-access-check" => d.g_tensor_memory_access_check = true,
            "first-reserved-register" => d.first_reserved_rreg = number(long, &value)?,
            "reserved-registers" => d.reserved_rreg_count = number(long, &value)?,
            "timing" => d.timing = true,
            "parse-only" => o.parse_only = true,
            "phase-stats" => d.phases.stats = true,
            "dump-ir-before" => d.phases.dump_before.push(value),
            "dump-ir-after" => d.phases.dump_after.push(value),
            "phase-order" => {
                if d.phases.order.replace(value).is_some() {
                    return Err("--phase-order given twice".into());
                }
            }
            "disable-phase" => d.phases.disabled.push(value),
            "knob" => d.phases.knobs.push(value),
            "cancel-after" => o.cancel_after = Some(u64::from(number(long, &value)?)),
            "inject-ice" => {
                d.inject_ice = Some(
                    Phase::parse(&value)
                        .ok_or_else(|| format!("--inject-ice: unknown phase '{value}'"))?,
                )
            }
            "help" => {
                print!("{USAGE}");
                return Ok(None);
            }
            "version" => {
                println!(
                    "ptxc: reference PTX compiler, version {}",
                    env!("CARGO_PKG_VERSION")
                );
                return Ok(None);
            }
            _ => unreachable!("every flag is handled"),
        }
    }
    Ok(Some(o))
}

/// Runs the command line; returns the exit status. `Err` is a fatal
/// message the caller prints after `ptxc fatal   : `.
pub fn run(args: &[String]) -> Result<u8, String> {
    let Some(mut opts) = parse_args(args)? else {
        return Ok(0);
    };
    let path = opts.input.take().ok_or("no input file")?;
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let mut text = String::from_utf8_lossy(&bytes);
    if let Some(level) = opts.nvopt {
        let (t, warnings) =
            crate::nvopt::cli::preprocess_for_ptxc(&path, &text, level, opts.driver.threads);
        for w in warnings {
            eprintln!("ptxc warning : {w}");
        }
        text = t.into();
    }
    if opts.parse_only {
        let (_module, diags) = ptx::parse_and_validate_for(&text, opts.driver.arch);
        let src = SourceFile::new(&path, &text);
        eprint!("{}", ptx::diag::render_all(&diags, &src));
        return Ok(u8::from(diags.iter().any(ptx::Diagnostic::is_error)));
    }
    // Internal errors are reported by the driver; keep the default hook's
    // "thread panicked" text off the terminal.
    std::panic::set_hook(Box::new(|_| {}));
    // Phase 22: the output file is opened (truncated) before compiling.
    let mut out_file = match &opts.output {
        Some(o) => {
            let p = PathBuf::from(o);
            opts.driver.ice_dir = Some(
                p.parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .map_or_else(|| PathBuf::from("."), PathBuf::from),
            );
            Some(
                std::fs::File::create(&p)
                    .map_err(|e| format!("cannot open output file '{o}': {e}"))?,
            )
        }
        None => None,
    };
    let calls = AtomicU64::new(0);
    let limit = opts.cancel_after;
    let cancel = move || limit.is_some_and(|n| calls.fetch_add(1, Ordering::Relaxed) + 1 >= n);
    let report = driver::compile(
        &path,
        &text,
        &opts.driver,
        limit.is_some().then_some(&cancel as driver::CancelFn),
    );
    for m in &report.messages {
        eprintln!("{}", m.text);
    }
    match report.result {
        Ok(out) => {
            use std::io::Write;
            match &mut out_file {
                Some(f) => f
                    .write_all(out.sass.as_bytes())
                    .map_err(|e| format!("cannot write the output: {e}"))?,
                None => std::io::stdout()
                    .write_all(out.sass.as_bytes())
                    .map_err(|e| format!("cannot write the output: {e}"))?,
            }
            Ok(0)
        }
        Err(e) => {
            eprintln!("{e}");
            Ok(1)
        }
    }
}
