//! `ptxdiff`: the harness's command line.

use std::process::ExitCode;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
Usage: ptxdiff <command> [options]

Commands:
  run [--seconds N] [--count N] [--seed S] [--jobs N] [--gen-config F]
      [--matrix smoke|fuzz|default|full] [--findings DIR] [--no-vendor] [--stats]
      [--bias none|nan_or_zero|tex_nodep|hoist_invariants]
            the main job: generated programs (seeds S, S+1, ...; default 1)
            through the differential matrix (default 'default', vendor
            included when ptxas is installed) for N seconds (default 60) or
            N programs; progress on stderr, a line per failing configuration
            (blame, signature, finding saved under DIR, default findings/),
            the statistics, then a verdict; exit 1 on any failure. --stats
            adds the UB-free rate, each biased mode's peephole fire rate and
            its rules' rates; --bias sets the generator's biased mode
  run --corpus DIR | --arch sm_XX ...
            the real-kernel run: every corpus kernel (default corpus/kernels)
            compiled by ptxc for sm_70, sm_80 and sm_90 (or the --arch
            targets) and checked against the PTX interpreter
  interp SPEC.launch.json [--ptx FILE] [--dump OUT.json]
            run a kernel in the PTX interpreter and compare with the
            *.expected.json beside the spec; exit 1 unless it passes
  sim SPEC.launch.json --sass FILE.sass --arch sm_XX [--function NAME] [--banks FILE]
            [--dump OUT.json]
            run SASS text (cuobjdump's or ptxc's) in the SM simulator and
            compare with the *.expected.json beside the spec; exit 1 unless
            it passes. Default banks file: FILE.banks.json when it exists
  check SPEC.launch.json [--arch sm_XX] [--dump-sim OUT.json] [ptxc flags]
            compile the spec's PTX with ptxc, run the listing in the SM
            simulator and the PTX in the interpreter; one-line verdict,
            exit 1 unless both complete, agree with each other and match
            the *.expected.json beside the spec when there is one
  bench size [--corpus DIR] [--arch sm_XX]...
            code size: per corpus kernel and target with a vendor listing
            (sm_70 sm_75 sm_80 sm_86 sm_89 sm_90), the SASS instruction
            count of ptxc -O3 against ptxas's, the ratio, and the
            geometric-mean ratio (target <= 1.5); end padding excluded
  bench run [--count N] [--matrix NAME] [--seed S] [--gen-config F]
            engine throughput on generated programs (default 200 through
            the 'fuzz' slice): programs/s with 1 job and every core, the
            speedup (targets: 1000 programs/s, 1.8x on 2 cores)
  gen [--seed S] [--count N] [--gen-config F] [--out DIR] [--stats]
            generated programs for seeds S..S+N (default 0, 1): printed,
            or written to DIR as gen_S.ptx + gen_S.launch.json; --stats
            runs them in the interpreter and ptxc's lowering and prints the
            UB-free rate, lowering rate per arch, coverage and speed
  coverage [--count N] [--seed S] [--arch sm_XX] [--gen-config F] [--real DIR...]
            the instruction menu's coverage: N generated programs (default
            10000), the menu forms generated at least once / the menu's
            writable forms, the forms never generated; with --real, the
            shapes of the .ptx files under DIR never generated, most
            frequent first, each with why (front end, interpreter, family)
  diff --launch SPEC [--ptx FILE] | --corpus DIR [--variant ptx|O0.ptx]...
       [--matrix smoke|fuzz|default|full] [--config LABEL]... [--findings DIR]
       [--jobs N] [--no-blame] [--vendor|--no-vendor] [--repeat N] [--quiet]
            the differential engine: the oracle, then every configuration of
            the matrix (or the --config labels, e.g. 'ptxc sm_80 -O3
            reorder:7 maxrreg=24'); a verdict per configuration, the blamed
            phase and the signature of each failure, findings saved under
            DIR; then the statistics (verdict counts, fired phases,
            programs/s). Exit 1 when a configuration fails
  reduce FINDING_DIR | --ptx F --launch L [--config LABEL]
         [--predicate same-signature|mismatch|crash] [--signature SLUG]
         [--cmd SCRIPT] [--out DIR] [--jobs N] [--quiet] [--emit-cvise-script FILE]
            shrink a finding (or a program failing under LABEL, default
            'ptxc sm_80 -O3 default') to a minimal PTX program that still
            fails the same way and that the oracle runs UB-free; the result
            goes to FINDING_DIR/reduced/ (F.reduced/, or --out) with its
            sizes in reduce.json. --cmd: SCRIPT (given program.ptx and
            program.launch.json) exits 0 when interesting. --emit-cvise-script
            writes a C-Vise interestingness script instead of reducing
  interesting --ptx F --launch L --config LABEL [--predicate P] [--signature SLUG]
         [--cmd SCRIPT] [--fuel N]
            judge one program as the reducer does: exit 0 when interesting
  nightly [--minutes M | --count N] [--shard I/N] [--jobs N] [--seed S] [--date YYYY-MM-DD]
          [--out DIR] [--matrix NAME] [--no-vendor] [--gen-config F] [--known F]
          [--reduce-seconds S]
            the unattended run: generated programs (seed S, default the date
            as YYYYMMDD; shard I of N takes every Nth) through the matrix for
            3/4 of M minutes (default 10) or N programs, then every new
            signature (not in corpus/regressions/known.json) reduced, then
            the report in DIR/<date>/ (default reports/; a shard in
            shard-I-of-N/): summary.json, summary.md, index.html. Rerunning
            resumes from checkpoint.json there; Ctrl-C finishes the chunk in
            flight and writes the report (exit 130)
  promote FINDING_DIR [--name NAME] [--regressions DIR]
            add a finding (its reduced program when there is one) to
            corpus/regressions/NAME/ with its expected verdict, and its
            signature to known.json
  report merge OUT_DIR SHARD_DIR...
            merge the nightly reports of one night's shards (each
            SHARD_DIR/summary.json) into OUT_DIR: summary.json, summary.md
            and index.html; exit 2 on unreadable or mismatched reports
  fuzz-parse FILE...   run the `parse` fuzz target's check on files
  help      print this help
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => run(&[]),
        Some("run") => run(&args[1..]),
        Some("interp") => interp(&args[1..]),
        Some("sim") => sim(&args[1..]),
        Some("check") => check(&args[1..]),
        Some("bench") => bench(&args[1..]),
        Some("gen") => gen(&args[1..]),
        Some("coverage") => coverage(&args[1..]),
        Some("diff") => diff(&args[1..]),
        Some("reduce") => reduce(&args[1..]),
        Some("interesting") => interesting(&args[1..]),
        Some("report") => report_cmd(&args[1..]),
        Some("nightly") => nightly(&args[1..]),
        Some("promote") => promote(&args[1..]),
        Some("fuzz-parse") => {
            for f in &args[1..] {
                match std::fs::read(f) {
                    Ok(bytes) => oracle::fuzz_targets::parse(&bytes),
                    Err(e) => {
                        eprintln!("ptxdiff: cannot read '{f}': {e}");
                        return ExitCode::from(1);
                    }
                }
            }
            println!("ptxdiff fuzz-parse: {} file(s) ok", args.len() - 1);
            ExitCode::SUCCESS
        }
        Some("help" | "-h" | "--help") => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("ptxdiff: unknown command '{other}'\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> ExitCode {
    if !args.iter().any(|a| a == "--corpus" || a == "--arch") {
        return fuzz_run(args);
    }
    use oracle::commands::run::{run_corpus, DEFAULT_ARCHS};
    let (corpus, archs) = match corpus_and_archs(args, "run", &DEFAULT_ARCHS) {
        Ok(x) => x,
        Err(code) => return code,
    };
    match run_corpus(&corpus, &archs, &mut |l| println!("{l}")) {
        Ok(sum) => {
            println!("{}", sum.verdict_line());
            ExitCode::from(if sum.clean() { 0 } else { 1 })
        }
        Err(e) => {
            eprintln!("ptxdiff run: {e}");
            ExitCode::from(2)
        }
    }
}

/// `ptxdiff run` on generated programs.
fn fuzz_run(args: &[String]) -> ExitCode {
    use oracle::commands::fuzz_run;
    let parsed = match fuzz_run::parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("ptxdiff run: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let r = fuzz_run::run(&parsed, &mut |l| println!("{l}"), &mut |l| eprintln!("{l}"));
    match r {
        Ok(o) => {
            for l in o.stats.lines().iter().chain(&o.extra) {
                println!("{l}");
            }
            if !o.groups.groups.is_empty() {
                for l in o.groups.lines(&parsed.findings.display().to_string()) {
                    println!("{l}");
                }
            }
            println!("{}", o.verdict_line());
            ExitCode::from(if o.clean() { 0 } else { 1 })
        }
        Err(e) => {
            eprintln!("ptxdiff run: {e}");
            ExitCode::from(2)
        }
    }
}

/// `[--corpus DIR] [--arch sm_XX]...`, the options `run` and `bench size`
/// share: the corpus (default: the built-in one) and the targets (default:
/// `default_archs`). A bad option is reported under `cmd`, exit status 2.
fn corpus_and_archs(
    args: &[String],
    cmd: &str,
    default_archs: &[&str],
) -> Result<(std::path::PathBuf, Vec<String>), ExitCode> {
    let mut corpus = oracle::commands::run::default_corpus();
    let mut archs = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match (a.as_str(), it.clone().next()) {
            ("--corpus", Some(d)) => {
                corpus = d.into();
                it.next();
            }
            ("--arch", Some(s)) => {
                archs.push(s.clone());
                it.next();
            }
            (s, _) => {
                eprintln!("ptxdiff {cmd}: unknown or incomplete option '{s}'");
                return Err(ExitCode::from(2));
            }
        }
    }
    if archs.is_empty() {
        archs = default_archs.iter().map(|s| s.to_string()).collect();
    }
    Ok((corpus, archs))
}

fn bench(args: &[String]) -> ExitCode {
    use oracle::commands::{bench_run, bench_size};
    if args.first().map(String::as_str) == Some("run") {
        let r = bench_run::parse_args(&args[1..]).and_then(|a| bench_run::measure(&a));
        return match r {
            Ok(lines) => {
                for l in lines {
                    println!("{l}");
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("ptxdiff bench run: {e}");
                ExitCode::from(2)
            }
        };
    }
    if args.first().map(String::as_str) != Some("size") {
        eprintln!("ptxdiff bench: the benchmarks are `size` and `run`\n{USAGE}");
        return ExitCode::from(2);
    }
    let (corpus, archs) = match corpus_and_archs(&args[1..], "bench size", &bench_size::ARCHS) {
        Ok(x) => x,
        Err(code) => return code,
    };
    match bench_size::measure(&corpus, &archs) {
        Ok(rows) => {
            for l in bench_size::report_lines(&rows) {
                println!("{l}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ptxdiff bench size: {e}");
            ExitCode::from(2)
        }
    }
}

fn interp(args: &[String]) -> ExitCode {
    let mut spec = None;
    let mut ptx = None;
    let mut dump = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--ptx" => ptx = it.next().map(std::path::PathBuf::from),
            "--dump" => dump = it.next().map(std::path::PathBuf::from),
            s if s.starts_with('-') => {
                eprintln!("ptxdiff interp: unknown option '{s}'");
                return ExitCode::from(2);
            }
            s => spec = Some(std::path::PathBuf::from(s)),
        }
    }
    let Some(spec) = spec else {
        eprintln!("ptxdiff interp: no launch spec given\n{USAGE}");
        return ExitCode::from(2);
    };
    let limits = oracle::ptx_interp::RunLimits::default();
    report(
        "interp",
        oracle::commands::interp::interp(&spec, ptx.as_deref(), dump.as_deref(), &limits),
    )
}

fn sim(args: &[String]) -> ExitCode {
    let mut spec = None;
    let mut sass = None;
    let mut arch = None;
    let mut function = None;
    let mut banks = None;
    let mut dump = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = |name: &str| match it.next() {
            Some(v) => Some(v.clone()),
            None => {
                eprintln!("ptxdiff sim: {name} needs a value");
                None
            }
        };
        match a.as_str() {
            "--sass" => match val("--sass") {
                Some(v) => sass = Some(std::path::PathBuf::from(v)),
                None => return ExitCode::from(2),
            },
            "--arch" => match val("--arch") {
                Some(v) => arch = Some(v),
                None => return ExitCode::from(2),
            },
            "--function" => match val("--function") {
                Some(v) => function = Some(v),
                None => return ExitCode::from(2),
            },
            "--banks" => match val("--banks") {
                Some(v) => banks = Some(std::path::PathBuf::from(v)),
                None => return ExitCode::from(2),
            },
            "--dump" => match val("--dump") {
                Some(v) => dump = Some(std::path::PathBuf::from(v)),
                None => return ExitCode::from(2),
            },
            s if s.starts_with('-') => {
                eprintln!("ptxdiff sim: unknown option '{s}'");
                return ExitCode::from(2);
            }
            s => spec = Some(std::path::PathBuf::from(s)),
        }
    }
    let (Some(spec), Some(sass), Some(arch)) = (spec, sass, arch) else {
        eprintln!("ptxdiff sim: needs a launch spec, --sass FILE and --arch sm_XX\n{USAGE}");
        return ExitCode::from(2);
    };
    let limits = oracle::ptx_interp::RunLimits::default();
    report(
        "sim",
        oracle::commands::sim::sim(
            &spec,
            &sass,
            &arch,
            function.as_deref(),
            banks.as_deref(),
            dump.as_deref(),
            &limits,
        ),
    )
}

fn check(args: &[String]) -> ExitCode {
    let mut spec = None;
    let mut arch = None;
    let mut flags = Vec::new();
    let mut dump = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--arch" => match it.next() {
                Some(v) => arch = Some(v.clone()),
                None => {
                    eprintln!("ptxdiff check: --arch needs a value");
                    return ExitCode::from(2);
                }
            },
            "--dump-sim" => match it.next() {
                Some(v) => dump = Some(std::path::PathBuf::from(v)),
                None => {
                    eprintln!("ptxdiff check: --dump-sim needs a value");
                    return ExitCode::from(2);
                }
            },
            s if s.starts_with("--arch=") => arch = Some(s["--arch=".len()..].to_string()),
            s if s.ends_with(".json") && spec.is_none() => spec = Some(std::path::PathBuf::from(s)),
            s => flags.push(s.to_string()),
        }
    }
    let Some(spec) = spec else {
        eprintln!("ptxdiff check: no launch spec given\n{USAGE}");
        return ExitCode::from(2);
    };
    let limits = oracle::ptx_interp::RunLimits::default();
    report(
        "check",
        oracle::commands::check::check(&spec, arch.as_deref(), &flags, dump.as_deref(), &limits),
    )
}

fn gen(args: &[String]) -> ExitCode {
    use oracle::commands::gen;
    let parsed = match gen::parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("ptxdiff gen: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match gen::gen(&parsed, &mut |l| println!("{l}")) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ptxdiff gen: {e}");
            ExitCode::from(2)
        }
    }
}

fn coverage(args: &[String]) -> ExitCode {
    use oracle::commands::coverage;
    let parsed = match coverage::parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("ptxdiff coverage: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match coverage::coverage(&parsed, &mut |l| println!("{l}")) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ptxdiff coverage: {e}");
            ExitCode::from(2)
        }
    }
}

fn diff(args: &[String]) -> ExitCode {
    use oracle::commands::diff::{parse_args, run};
    let a = match parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("ptxdiff diff: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&a, &mut |l| println!("{l}")) {
        Ok(clean) => ExitCode::from(if clean { 0 } else { 1 }),
        Err(e) => {
            eprintln!("ptxdiff diff: {e}");
            ExitCode::from(2)
        }
    }
}

/// `ptxdiff report merge`: exit 0 when written, 2 on any error.
fn report_cmd(args: &[String]) -> ExitCode {
    use oracle::commands::report::{parse_args, run_merge};
    let r = parse_args(args).map_err(|e| format!("{e}\n{USAGE}"));
    match r.and_then(|a| run_merge(&a)) {
        Ok(lines) => {
            for l in lines {
                println!("{l}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ptxdiff report: {e}");
            ExitCode::from(2)
        }
    }
}

/// Prints a command's verdict: exit 0 when it passed, 1 when not, 2 when
/// the command could not run.
fn report(cmd: &str, r: Result<oracle::commands::verdict::Verdict, String>) -> ExitCode {
    match r {
        Ok(v) => {
            println!("{}", v.line);
            ExitCode::from(if v.passed() { 0 } else { 1 })
        }
        Err(e) => {
            eprintln!("ptxdiff {cmd}: {e}");
            ExitCode::from(2)
        }
    }
}

fn reduce(args: &[String]) -> ExitCode {
    use oracle::commands::reduce;
    let parsed = match reduce::parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("ptxdiff reduce: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match reduce::run(&parsed) {
        Ok(lines) => {
            for l in lines {
                println!("{l}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ptxdiff reduce: {e}");
            ExitCode::from(1)
        }
    }
}

fn interesting(args: &[String]) -> ExitCode {
    match oracle::commands::reduce::interesting(args) {
        Ok((yes, why)) => {
            eprintln!("{why}");
            ExitCode::from(if yes { 0 } else { 1 })
        }
        Err(e) => {
            eprintln!("ptxdiff interesting: {e}");
            ExitCode::from(2)
        }
    }
}

fn nightly(args: &[String]) -> ExitCode {
    use oracle::commands::nightly;
    let parsed = match nightly::parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("ptxdiff nightly: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match nightly::run(&parsed, &mut |l| eprintln!("{l}")) {
        Ok(o) => {
            let r = &o.report;
            println!(
                "nightly {}: {} programs, {} configuration runs, {} failing, {} signatures ({} new); report in {}",
                r.date,
                r.programs,
                r.executions,
                r.total_failures(),
                r.findings.len(),
                r.new_findings().count(),
                o.dir.display()
            );
            if o.interrupted {
                println!("interrupted: run the same command again to resume");
                return ExitCode::from(130);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ptxdiff nightly: {e}");
            ExitCode::from(2)
        }
    }
}

fn promote(args: &[String]) -> ExitCode {
    use oracle::commands::promote;
    let r = promote::parse_args(args).and_then(|a| promote::run(&a));
    match r {
        Ok(lines) => {
            for l in lines {
                println!("{l}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ptxdiff promote: {e}");
            ExitCode::from(2)
        }
    }
}
