//! The `ptxdiff` subcommands, as library functions the binary and the tests
//! share.

pub mod bench_run;
pub mod bench_size;
pub mod check;
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
