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

/// `sass_roundtrip`: any bytes as a SASS listing (cuobjdump or nvdisasm
/// dialect, or the IR's own printout). The text layer must never panic;
/// whatever parses must print and parse back to the same listing, and
/// every function that converts to IR must survive the IR's labelled
/// print/parse round trip unchanged (`from_sass(to_sass(f)) == f`).
pub fn sass_roundtrip(data: &[u8]) {
    use ptxc::ir::sass_text::{parse_file, print_file, print_function};
    use ptxc::ir::{from_sass, to_sass};
    let text = String::from_utf8_lossy(data);
    let Ok(file) = parse_file(&text) else { return };
    let printed = print_file(&file);
    let again = parse_file(&printed)
        .unwrap_or_else(|e| panic!("printed listing does not parse: {e}\n{printed}"));
    assert_eq!(again, file, "print/parse changed the listing:\n{printed}");
    for f in &file.functions {
        let Ok(ir) = from_sass(f, None) else { continue };
        let Ok(labelled) = to_sass(&ir, true) else {
            continue;
        };
        let text = print_function(&labelled);
        let back =
            parse_file(&text).unwrap_or_else(|e| panic!("IR printout does not parse: {e}\n{text}"));
        let ir2 = from_sass(&back.functions[0], None)
            .unwrap_or_else(|e| panic!("IR printout does not convert: {e}\n{text}"));
        assert_eq!(ir2, ir, "IR print/parse changed the function:\n{text}");
    }
}
