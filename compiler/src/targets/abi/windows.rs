//! The generic-address windows: where constant bank 0 holds the base of
//! each state space's window (PTX ISA 5.1.1 generic addressing; `cvta`,
//! `isspacep`), and how large a window is. The lowering reads the bases
//! from bank 0; the simulator writes them there.

/// Generic-window bases in constant bank 0 (64-bit each; the DECISION
/// in the lowering's module docs, compiler/src/lower/mod.rs).
pub const SHARED_WINDOW: u32 = 0x18;
pub const LOCAL_WINDOW: u32 = 0x20;
/// The constant and kernel-parameter windows (read by `isspacep` only:
/// our `cvta.const` points into a global copy of bank 3, our `cvta.param`
/// at a local frame copy; compiler/src/lower/space.rs). DECISION: words no ptxas 11.8 form
/// we model reads on any target (`c[0x0][0x30]` is `%gridid`'s,
/// `CbankLayout::gridid`), below every target's first parameter.
pub const CONST_WINDOW: u32 = 0x150;
pub const PARAM_WINDOW: u32 = 0x158;
/// The size of each generic window (the PTX interpreter's 64-bit windows,
/// `ptx_interp::memory::Windows::new(true).span`).
pub const WINDOW_SPAN: u64 = 1 << 40;
/// The size of each 32-bit generic window (`.address_size 32`; the
/// interpreter's `Windows::new(false).span`).
pub const WINDOW_SPAN_32: u32 = 0x0800_0000;
