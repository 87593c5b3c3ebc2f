//! The ABI: the facts of constant bank 0 and of a launch's memory that the
//! lowering (which reads them), the simulator (which writes them for a
//! launch) and the vendor-listing loader share. Facts only; the code that
//! generates instructions from them stays in the lowering.

pub mod globals;
pub mod params;
pub mod refs;
pub mod resinfo;
pub mod windows;

pub use globals::GlobalVar;
pub use params::ParamSlot;
pub use refs::RefKind;
pub use windows::{
    CONST_WINDOW, LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW, WINDOW_SPAN, WINDOW_SPAN_32,
};
