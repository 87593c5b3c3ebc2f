//! `nvopt`: the PTX-to-PTX optimizer ([`ptxc::nvopt::cli`]).

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match ptxc::nvopt::cli::run(&args) {
        Ok((out, err)) => {
            eprint!("{err}");
            let _ = std::io::stdout().write_all(out.as_bytes());
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("nvopt: error: {msg}");
            ExitCode::from(1)
        }
    }
}
