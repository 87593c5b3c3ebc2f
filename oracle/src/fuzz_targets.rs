//! The bodies of the cargo-fuzz targets in `fuzz/`. Each target is a thin
//! wrapper over one of these functions; `cargo test` runs them on the
//! committed seeds in `corpus/<target>/`, so a crash found by the fuzzer
//! becomes a regression test by adding its input file there.

/// `parse`: any bytes. The front end must never panic, and whatever parses
/// without errors must round-trip through the printer
/// (`parse(print(m)) == m`, printing a fixed point).
pub fn parse(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (_module, _diags) = ptxc::ptx::parse_and_validate(&text);
    if let Err(e) = ptxc::ptx::check_round_trip(&text) {
        panic!("round trip failed: {e}");
    }
}
