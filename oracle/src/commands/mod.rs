//! The `ptxdiff` subcommands, as library functions the binary and the tests
//! share.

pub mod bench_run;
pub mod bench_size;
pub mod check;
pub mod coverage;
pub mod diff;
pub mod fuzz_run;
pub mod gen;
pub mod interp;
pub mod nightly;
pub mod promote;
pub mod reduce;
pub mod report;
pub mod run;
pub mod sim;
pub mod verdict;

/// A number option's value, or `FLAG: 'V' is not a number`.
pub fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{flag}: '{v}' is not a number"))
}
