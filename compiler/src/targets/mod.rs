//! The SM target table: one row per `sm_XX` with everything the front end,
//! the lowering and the simulator need to know about it. Later issues extend
//! the row (opcode availability, constant-bank layout); nobody keeps a copy.

pub mod abi;
mod ptx_version;
mod sm_table;

pub use ptx_version::{PtxVersion, KNOWN_PTX_VERSIONS};
pub use sm_table::{lookup_sm, CbankLayout, SmInfo, SM_TABLE};
