//! The IR against the vendor SASS of the corpus: every listing converts to
//! IR for its architecture (opcodes, modifiers, operand shapes and SM
//! availability all checked by the opcode table), prints back to the same
//! instruction text, and survives a labelled print/parse round trip.

mod common;

use ptxc::ir::opcode::{Latency, Op};
use ptxc::ir::sass_text::{parse_file, print_function};
use ptxc::ir::{from_sass, to_sass, Function};
use ptxc::targets::lookup_sm;

fn vendor_ir() -> Vec<(
    String,
    &'static str,
    Vec<Function>,
    ptxc::ir::sass_text::SassFile,
)> {
    common::vendor_listings()
        .into_iter()
        .map(|(k, arch, p, text)| {
            let file = parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let sm = lookup_sm(&format!("sm_{arch}")).unwrap();
            let funcs = file
                .functions
                .iter()
                .map(|f| from_sass(f, Some(sm)).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
                .collect();
            (k, arch, funcs, file)
        })
        .collect()
}

#[test]
fn every_listing_converts_and_prints_back_unchanged() {
    let mut insts = 0;
    let mut blocks = 0;
    for (k, arch, funcs, file) in vendor_ir() {
        for (f, orig) in funcs.iter().zip(&file.functions) {
            let back = to_sass(f, false).unwrap();
            assert_eq!(back.insts.len(), orig.insts.len(), "{k} sm_{arch}");
            for (a, b) in back.insts.iter().zip(&orig.insts) {
                assert_eq!(a.addr, b.addr, "{k} sm_{arch}");
                assert_eq!(
                    a.to_string(),
                    b.to_string(),
                    "{k} sm_{arch} at {:#x}",
                    a.addr
                );
                assert_eq!(a.encoding, b.encoding);
            }
            assert_eq!(back.undecoded, orig.undecoded, "{k} sm_{arch}");
            insts += f.insts().count();
            blocks += f.blocks.len();
        }
    }
    eprintln!("{insts} instructions in {blocks} blocks");
    assert!(insts >= 15_385);
}

#[test]
fn labelled_print_parse_round_trip_is_identity() {
    for (k, arch, funcs, _) in vendor_ir() {
        for f in funcs {
            let text = print_function(&to_sass(&f, true).unwrap());
            let parsed = parse_file(&text).unwrap_or_else(|e| panic!("{k} sm_{arch}: {e}\n{text}"));
            let g = from_sass(&parsed.functions[0], None).unwrap();
            let shape = |f: &Function| -> Vec<(u32, usize)> {
                f.blocks.iter().map(|b| (b.label, b.insts.len())).collect()
            };
            assert_eq!(shape(&g), shape(&f), "{k} sm_{arch}: blocks differ");
            assert!(g == f, "{k} sm_{arch}: instructions differ");
        }
    }
}

#[test]
fn blocks_end_at_control_transfers_and_start_at_targets() {
    for (k, arch, funcs, _) in vendor_ir() {
        for f in funcs {
            for (bi, b) in f.blocks.iter().enumerate() {
                // Only the last instruction of a block may transfer control
                // (CALL returns to the next instruction).
                for i in &b.insts[..b.insts.len() - 1] {
                    assert!(
                        !matches!(i.op, Op::BRA | Op::BRX | Op::EXIT | Op::RET | Op::JMP),
                        "{k} sm_{arch}: {} inside block {bi}",
                        i.op
                    );
                }
                for i in &b.insts {
                    for t in i.targets() {
                        assert!(f.block_index(t).is_some(), "{k} sm_{arch}: label {t}");
                    }
                }
            }
        }
    }
}

/// The table's latency classes agree with the vendor encodings: a
/// variable-latency instruction announces its result or its operand
/// release through a scoreboard (control bits 110..112 = write barrier,
/// 113..115 = read barrier, 7 = none; the Volta+ control-word layout), a
/// fixed-latency one never does.
#[test]
fn latency_classes_match_vendor_scoreboards() {
    use std::collections::BTreeMap;
    let mut seen: BTreeMap<Op, (usize, usize)> = BTreeMap::new();
    for (_, _, funcs, _) in vendor_ir() {
        for f in funcs {
            for i in f.insts() {
                let Some(enc) = i.encoding else { continue };
                if i.op == Op::UNDECODED {
                    continue;
                }
                let wb = (enc >> 110) & 7;
                let rb = (enc >> 113) & 7;
                let e = seen.entry(i.op).or_default();
                e.0 += 1;
                if wb != 7 || rb != 7 {
                    e.1 += 1;
                }
            }
        }
    }
    for (op, (n, sb)) in &seen {
        match op.info().latency {
            Latency::Fixed => assert_eq!(*sb, 0, "{op}: fixed, but {sb} of {n} set a scoreboard"),
            Latency::Variable => {
                assert!(*sb > 0, "{op}: variable, but none of {n} sets a scoreboard")
            }
        }
    }
    assert!(seen.len() >= 70, "{} opcodes seen", seen.len());
}

/// nvdisasm's dialect: the `NAME.sm_XX.nvdisasm` listings (`nvdisasm -c` of
/// the same cubins) parse, convert to IR, and print back in cuobjdump's
/// spelling as exactly the instructions of the cuobjdump listing: the two
/// tools agree through our IR, labels resolved to addresses.
#[test]
fn nvdisasm_listings_agree_with_cuobjdump_listings() {
    let mut checked = 0;
    for (k, arch, path, text) in common::vendor_listings() {
        let nvd = path.with_extension("nvdisasm");
        let Ok(nvd_text) = std::fs::read_to_string(&nvd) else {
            continue;
        };
        let sm = lookup_sm(&format!("sm_{arch}")).unwrap();
        let a = parse_file(&nvd_text).unwrap_or_else(|e| panic!("{}: {e}", nvd.display()));
        let b = parse_file(&text).unwrap();
        assert_eq!(a.functions.len(), b.functions.len(), "{k} sm_{arch}");
        for (fa, fb) in a.functions.iter().zip(&b.functions) {
            assert_eq!(fa.name, fb.name);
            let ia = from_sass(fa, Some(sm)).unwrap_or_else(|e| panic!("{k} sm_{arch}: {e}"));
            let ib = from_sass(fb, Some(sm)).unwrap();
            let (ta, tb) = (to_sass(&ia, false).unwrap(), to_sass(&ib, false).unwrap());
            assert_eq!(ta.insts.len(), tb.insts.len(), "{k} sm_{arch}");
            for (x, y) in ta.insts.iter().zip(&tb.insts) {
                assert_eq!(
                    (x.addr, x.to_string()),
                    (y.addr, y.to_string()),
                    "{k} sm_{arch}"
                );
            }
            // nvdisasm's blocks refine cuobjdump's: every classic leader is
            // a block start, and nvdisasm also labels the jump-table targets
            // of BRX, which the cuobjdump text does not show.
            let starts = |f: &Function| {
                let a = f.block_addresses();
                a[..a.len() - 1]
                    .iter()
                    .copied()
                    .collect::<std::collections::BTreeSet<u32>>()
            };
            assert!(starts(&ib).is_subset(&starts(&ia)), "{k} sm_{arch}");
            if !fa.insts.iter().any(|i| i.opcode == "BRX") {
                assert_eq!(starts(&ia), starts(&ib), "{k} sm_{arch}");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 18, "nvdisasm listings in the corpus");
}
