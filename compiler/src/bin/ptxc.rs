//! `ptxc`: the ptxas-compatible command line.

use std::process::ExitCode;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match ptxc::cli::run(&args) {
        Ok(code) => ExitCode::from(code),
        Err(msg) => {
            eprintln!("ptxc fatal   : {msg}");
            ExitCode::from(1)
        }
    }
}
