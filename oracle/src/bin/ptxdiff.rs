//! `ptxdiff`: the harness's command line.

use std::process::ExitCode;

const USAGE: &str = "\
Usage: ptxdiff <command> [options]

Commands:
  run       generate programs and run the differential matrix (issue 7)
  interp SPEC.launch.json [--ptx FILE] [--dump OUT.json]
            run a kernel in the PTX interpreter and compare with the
            *.expected.json beside the spec; exit 1 unless it passes
  fuzz-parse FILE...   run the `parse` fuzz target's check on files
  help      print this help
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None | Some("run") => {
            eprintln!(
                "ptxdiff run: the differential run is not built yet; it arrives with issue 7 \
                 (generator, differential engine and `ptxdiff run`). What exists today: \
                 `ptxc FILE.ptx --parse-only` (the PTX front end)."
            );
            ExitCode::from(2)
        }
        Some("interp") => interp(&args[1..]),
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
    match oracle::commands::interp::interp(&spec, ptx.as_deref(), dump.as_deref(), &limits) {
        Ok(v) => {
            println!("{}", v.line);
            if v.passed() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("ptxdiff interp: {e}");
            ExitCode::from(2)
        }
    }
}
