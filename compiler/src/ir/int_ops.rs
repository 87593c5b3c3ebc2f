//! Bit-exact integer operations of the SASS ISA that more than one place
//! evaluates: the simulator executes them (oracle/src/sim/exec/) and the
//! scalar phases fold them (phases/scalar/fold.rs). One definition, so the
//! compiler's folding and the simulator agree by construction; the
//! simulator's results are checked against the PTX interpreter and the
//! vendor SASS (oracle/tests/sim_semantics.rs, sim_vendor_corpus.rs).

/// The SHF funnel shift of one value: `hi:lo` shifted by `s` (masked to the
/// width with `.W`, clamped otherwise), the high or low word of the result.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn shf1(
    lo: u32,
    s: u32,
    hi: u32,
    left: bool,
    hi_out: bool,
    wrap: bool,
    wide: bool,
    signed: bool,
) -> u32 {
    let width = if wide { 64 } else { 32 };
    let s = if wrap { s & (width - 1) } else { s.min(width) };
    let x = (u64::from(hi) << 32) | u64::from(lo);
    let y: u64 = if left {
        if s >= 64 {
            0
        } else {
            x << s
        }
    } else if signed {
        ((x as i64) >> s.min(63)) as u64
    } else if s >= 64 {
        0
    } else {
        x >> s
    };
    if hi_out {
        (y >> 32) as u32
    } else {
        y as u32
    }
}
