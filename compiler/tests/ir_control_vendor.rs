//! Control codes decoded from the vendor encodings (Volta+ layout, see
//! `ptxc::ir::control`): hand-decoded instructions of the corpus, and
//! whole-corpus consistency checks of the bit positions.

mod common;

use ptxc::ir::control::Control;
use ptxc::ir::opcode::Op;
use ptxc::ir::sass_text::{parse_file, SassOperand};
use ptxc::ir::{from_sass, Function, Inst};
use ptxc::sched::reuse::slot_operands;
use ptxc::targets::lookup_sm;

fn listing(kernel: &str, arch: &str) -> Function {
    let path = common::kernels_dir()
        .join(kernel)
        .join(format!("{kernel}.{arch}.sass"));
    let text = std::fs::read_to_string(&path).unwrap();
    let file = parse_file(&text).unwrap();
    from_sass(&file.functions[0], Some(lookup_sm(arch).unwrap())).unwrap()
}

fn at(f: &Function, addr: usize) -> &Inst {
    f.insts().nth(addr / 16).unwrap()
}

/// Decoded by hand from the high encoding words (control = bits 41..63 of
/// the high word: stall 0..3, yield 4, write SB 5..7, read SB 8..10, wait
/// mask 11..16, reuse 17..20).
#[test]
fn hand_decoded_vendor_instructions() {
    // matmul_tiled.sm_70.sass line 89: `/*02a0*/ LDS.U R8, [R20+0x400]`,
    // high word 0x000fe80000001800: 0x000fe8 >> 1 = 0x7f4: stall 4,
    // yield, no scoreboards (its result is covered by the next LDS's SB0).
    let f = listing("matmul_tiled", "sm_70");
    let i = at(&f, 0x2a0);
    assert_eq!(i.op, Op::LDS);
    assert_eq!(
        i.control(),
        Some(Control {
            stall: 4,
            yield_bit: true,
            write_sb: None,
            read_sb: None,
            wait: 0,
            reuse: 0
        })
    );
    // Line 91: `/*02b0*/ LDS.U.128 R12, [R18]`, high 0x000e280000001c00:
    // 0x714: stall 4, yield, write SB0.
    assert_eq!(
        at(&f, 0x2b0).control(),
        Some(Control {
            stall: 4,
            yield_bit: true,
            write_sb: Some(0),
            read_sb: None,
            wait: 0,
            reuse: 0
        })
    );
    // int_bitops.sm_70.sass line 71: `/*0210*/ BREV R2, R2`, high
    // 0x000e700000000000: 0x738: stall 8, yield, write SB1; line 75:
    // `/*0230*/ LOP3.LUT R3, R2, R3, RZ, 0x3c, !PT`, high
    // 0x002fc800078e3cff: 0x17e4: stall 4, no yield, waits on SB1 (R2).
    let f = listing("int_bitops", "sm_70");
    assert_eq!(
        at(&f, 0x210).control(),
        Some(Control {
            stall: 8,
            yield_bit: true,
            write_sb: Some(1),
            read_sb: None,
            wait: 0,
            reuse: 0
        })
    );
    assert_eq!(
        at(&f, 0x230).control(),
        Some(Control {
            stall: 4,
            yield_bit: false,
            write_sb: None,
            read_sb: None,
            wait: 0b10,
            reuse: 0
        })
    );
    // Line 81: `/*0260*/ IMAD R3, R0.reuse, R8, 0x2`, high
    // 0x040fe400078e0208: 0x207f2: stall 2, yield, reuse slot A.
    assert_eq!(
        at(&f, 0x260).control(),
        Some(Control {
            stall: 2,
            yield_bit: true,
            write_sb: None,
            read_sb: None,
            wait: 0,
            reuse: 0b1
        })
    );
}

fn all_vendor() -> Vec<(String, Function)> {
    let mut out = Vec::new();
    for (k, arch, p, text) in common::vendor_listings() {
        let file = parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let sm = lookup_sm(&format!("sm_{arch}")).unwrap();
        for f in &file.functions {
            out.push((
                format!("{k}.sm_{arch} {}", f.name),
                from_sass(f, Some(sm)).unwrap(),
            ));
        }
    }
    out
}

/// Every wait names a scoreboard some instruction of the function sets;
/// stall 0 occurs only on the never-executed padding (`NOP`, the trailing
/// `BRA` to itself); no scoreboard field holds 6 (only 0..5 and 7 = none).
#[test]
fn waits_match_scoreboards_and_stalls_are_positive() {
    let mut checked = 0;
    for (name, f) in all_vendor() {
        let mut set = 0u8;
        for i in f.insts() {
            let c = i.control().unwrap();
            set |= c.write_sb.map_or(0, |k| 1 << k) | c.read_sb.map_or(0, |k| 1 << k);
            let raw = i.encoding.unwrap() >> 105;
            assert_ne!(raw >> 5 & 7, 6, "{name}: write SB 6");
            assert_ne!(raw >> 8 & 7, 6, "{name}: read SB 6");
        }
        for i in f.insts() {
            let c = i.control().unwrap();
            if i.op != Op::DEPBAR {
                assert_eq!(
                    c.wait & !set,
                    0,
                    "{name}: {:?} waits on an unset scoreboard",
                    i.op
                );
            }
            if c.stall == 0 {
                assert!(
                    matches!(i.op, Op::NOP | Op::BRA),
                    "{name}: {:?} has stall 0",
                    i.op
                );
            }
            checked += 1;
        }
    }
    // Every instruction slot of the 96 listings.
    assert_eq!(checked, 15416);
}

/// The reuse bits are the `.reuse` marks cuobjdump prints, slot `k` being
/// the `k`-th non-predicate source ([`slot_operands`]), on the ALU
/// opcodes (texture instructions carry reuse bits without marks).
#[test]
fn reuse_bits_are_the_reuse_marks() {
    let mut marked = 0;
    let mut mismatches = Vec::new();
    for (name, f) in all_vendor() {
        for i in f.insts() {
            if matches!(i.op, Op::TLD | Op::TEX | Op::UNDECODED) {
                continue;
            }
            let mut mask = 0u8;
            for (s, &op) in slot_operands(i).iter().enumerate() {
                if matches!(op.map(|op| &i.operands[op]), Some(SassOperand::Reg(r)) if r.reuse) {
                    mask |= 1 << s;
                }
            }
            let c = i.control().unwrap();
            marked += usize::from(mask != 0);
            if c.reuse != mask {
                mismatches.push(format!(
                    "{name}: {:?} bits {:#b} marks {mask:#b}",
                    i.op, c.reuse
                ));
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    // Instructions with at least one `.reuse` mark in the corpus.
    assert_eq!(marked, 976);
}
