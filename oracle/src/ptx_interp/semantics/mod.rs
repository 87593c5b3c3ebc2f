//! Pure semantic functions: values in, values out, no machine state. The
//! interpreter's executor calls them; the SASS simulator reuses them where
//! the hardware operation is the same. The integer rules, which the
//! compiler's constant folding also evaluates, are in `ptxc::int`.

pub mod atomic;
pub mod surface;
pub mod surface_format;
pub mod texture;
pub mod warp;
