//! The simulator's launch inputs for a kernel the compiler lowered: the one
//! place where the simulator's input type meets the lowering's output.
//!
//! `oracle::sim` must not import the compiler's passes (docs/ARCHITECTURE.md,
//! "Layers and import rules"): what it shares with the compiler are machine
//! facts (`ptxc::targets`, `ptxc::pipe`), not the lowering. This module sits
//! above both and adds the constructor to [`SimInputs`] (an inherent impl may
//! live in any module of the crate that defines the type), so every caller
//! keeps writing `SimInputs::from_lowered(&kernel)`.

use crate::sim::cbank::RefWord;
use crate::sim::SimInputs;
use ptxc::lower::LoweredKernel;

impl SimInputs {
    /// The inputs of a kernel lowered by the compiler: its `.const` data
    /// (bank 3), its static shared size and its module variables (whose
    /// addresses the run writes to bank 4).
    pub fn from_lowered(k: &LoweredKernel) -> SimInputs {
        let mut out = SimInputs {
            static_shared_bytes: Some(k.shared_bytes),
            globals: k.globals.clone(),
            refs: k
                .refs
                .iter()
                .map(|r| RefWord {
                    function: Some(k.name.clone()),
                    offset: r.offset,
                    name: r.name.clone(),
                    kind: r.kind,
                })
                .collect(),
            addr32: k.address_bits == 32,
            ..SimInputs::default()
        };
        if !k.const_bank.is_empty() {
            out.banks.insert(3, k.const_bank.clone());
        }
        out
    }
}
