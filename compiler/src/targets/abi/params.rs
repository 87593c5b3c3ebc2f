//! Kernel parameters in constant bank 0 (PTX ISA 5.1.6.1 kernel
//! parameters): each one's place, from the SM's `CbankLayout::param_base`.

/// A kernel parameter's place in constant bank 0, relative to `param_base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSlot {
    pub offset: u32,
    pub size: u32,
}
