//! `ptxc`: the ptxas-compatible command line.

use std::process::ExitCode;

/// mimalloc, counted per thread for `--phase-stats`
/// ([`ptxc::phases::stats::CountingAlloc`]).
#[global_allocator]
static ALLOC: ptxc::phases::stats::CountingAlloc<mimalloc::MiMalloc> =
    ptxc::phases::stats::CountingAlloc::new(mimalloc::MiMalloc);

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
