//! `ptxdiff`: the harness's command line.

use std::process::ExitCode;

const USAGE: &str = "\
Usage: ptxdiff <command> [options]

Commands:
  run       generate programs and run the differential matrix (issue 7)
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
