//! Module-scope `.global` variables (PTX ISA 5.1.2): what a runner places
//! in global memory for a launch, its address in constant bank 4.

/// A module-scope `.global` variable the runner must place in global
/// memory, writing its address to constant bank 4 (DECISION: ptxas
/// relocates such addresses into the code, `UMOV UR6, 0x0` before
/// relocation in libdevice_math.sm_80; older ptxas targets read them from
/// bank 4, the scheme kept here so that the IR needs no relocations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalVar {
    pub name: String,
    pub size: u32,
    pub align: u32,
    /// The initializer's bytes; the rest of `size` is zero (a large
    /// uninitialized array costs nothing here).
    pub init: Vec<u8>,
}
