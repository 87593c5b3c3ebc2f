//! The `ptxdiff` subcommands, as library functions the binary and the tests
//! share.

pub mod check;
pub mod diff;
pub mod interp;
pub mod run;
pub mod sim;
pub mod verdict;
