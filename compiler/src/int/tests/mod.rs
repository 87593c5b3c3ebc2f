//! Tests of the integer library: `ptx_isa.rs` checks the PTX rules against the ISA text and host
//! arithmetic; `sass.rs` checks the rules the SASS simulator and the compiler's folding read
//! through their SASS modifiers (`SHF`, `FLO`, `SGXT`, `BMSK`, `PRMT`, `LOP3`, the adders'
//! carries). Expected values never come from the code under test.

mod ptx_isa;
mod sass;
