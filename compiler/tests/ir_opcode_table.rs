//! The opcode table against its sources: ptxas's base opcode name table
//! (indices 0..135, copied here from ptxas's name table, docs/MODEL.md, Opcode table,
//! an independent source) and the table's own consistency rules.

use std::collections::HashSet;

use ptxc::ir::opcode::{Effects, Op, FOLDED_SEED_VARIANTS, OPCODES};

/// ptxas's base opcode name table (sm_70+; docs/MODEL.md, Opcode table), in index order.
const SEED_BASE: [&str; 136] = [
    "ERRBAR",
    "IMAD",
    "IMAD_WIDE",
    "IADD3",
    "BMSK",
    "SGXT",
    "LOP3",
    "ISETP",
    "IABS",
    "LEA",
    "SHF",
    "FFMA",
    "FADD",
    "FMUL",
    "FMNMX",
    "FSWZADD",
    "FSET",
    "FSEL",
    "FSETP",
    "MOV",
    "SEL",
    "P2R",
    "R2P",
    "PLOP3",
    "PRMT",
    "NOP",
    "VOTE",
    "CS2R_32",
    "CS2R_64",
    "PMTRIG",
    "PSMTEST",
    "VABSDIFF",
    "VABSDIFF4",
    "IDP",
    "IDE",
    "I2I",
    "I2IP",
    "IMNMX",
    "POPC",
    "FLO",
    "FCHK",
    "IPA",
    "MUFU",
    "F2F",
    "F2F_X",
    "F2I",
    "F2I_X",
    "I2F",
    "I2F_X",
    "FRND",
    "FRND_X",
    "AL2P",
    "AL2P_INDEXED",
    "BREV",
    "BMOV_B",
    "BMOV_R",
    "BMOV",
    "S2R",
    "B2R",
    "R2B",
    "LEPC",
    "BAR",
    "BAR_INDEXED",
    "SETCTAID",
    "SETLMEMBASE",
    "GETLMEMBASE",
    "DEPBAR",
    "BRA",
    "BRX",
    "JMP",
    "JMX",
    "CALL",
    "RET",
    "BSSY",
    "BREAK",
    "BPT",
    "KILL",
    "EXIT",
    "RTT",
    "BSYNC",
    "MATCH",
    "NANOSLEEP",
    "NANOTRAP",
    "TEX",
    "TLD",
    "TLD4",
    "TMML",
    "TXD",
    "TXQ",
    "LDC",
    "ALD",
    "AST",
    "OUT",
    "OUT_FINAL",
    "LDS",
    "STS",
    "LDG",
    "STG",
    "LDL",
    "STL",
    "LD",
    "ST",
    "ATOM",
    "ATOMG",
    "RED",
    "ATOMS",
    "QSPC",
    "CCTL_NO_SB",
    "CCTL",
    "CCTLL",
    "CCTLT",
    "MEMBAR",
    "SULD",
    "SUST",
    "SUATOM",
    "SURED",
    "PIXLD",
    "ISBERD",
    "ISBEWR",
    "SHFL",
    "WARPSYNC",
    "MYELD",
    "DFMA",
    "DADD",
    "DMUL",
    "DSETP",
    "HADD2",
    "HADD2_F32",
    "HFMA2",
    "HMUL2",
    "HSET2",
    "HSETP2",
    "HMMA_16",
    "HMMA_32",
    "IMMA",
    "INTRINSIC",
];

#[test]
fn every_seed_base_entry_is_a_row_or_a_documented_fold() {
    let folded: HashSet<u16> = FOLDED_SEED_VARIANTS.iter().map(|f| f.1).collect();
    for (i, name) in SEED_BASE.iter().enumerate() {
        let i = i as u16;
        let row = OPCODES.iter().find(|r| r.seed_index == Some(i));
        match row {
            // The row is ptxas's opcode under its SASS mnemonic: the same
            // name, or ptxas's name minus a width/variant suffix
            // (CS2R_32 -> CS2R, HMMA_16 -> HMMA), or YIELD for ptxas's MYELD.
            Some(r) => assert!(
                *name == r.name
                    || name.starts_with(&format!("{}_", r.name))
                    || (*name == "MYELD" && r.name == "YIELD"),
                "seed {i} {name} vs row {}",
                r.name
            ),
            None => assert!(
                folded.contains(&i),
                "seed {i} {name} is neither a row nor folded"
            ),
        }
    }
    for f in FOLDED_SEED_VARIANTS {
        assert_eq!(SEED_BASE[f.1 as usize], f.0, "fold {f:?}");
    }
}

#[test]
fn rows_are_consistent() {
    let mut names = HashSet::new();
    let mut seeds = HashSet::new();
    for (i, r) in OPCODES.iter().enumerate() {
        assert!(names.insert(r.name), "{} twice", r.name);
        if let Some(s) = r.seed_index {
            assert!(seeds.insert(s), "seed index {s} twice");
            // ptxas's indices 0..136 are the base sm_70 set.
            assert!(s > 136 || r.first_sm <= 75, "{}", r.name);
        }
        let op = Op::from_name(r.name).unwrap();
        assert_eq!(op as usize, i);
        assert_eq!(op.info().name, r.name);
        assert!(!r.shapes.is_empty(), "{}", r.name);
        for s in r.shapes {
            assert!(*s == "*" || s.contains('='), "{}: shape `{s}`", r.name);
        }
        let mut mods = HashSet::new();
        for m in r.mods {
            assert!(mods.insert(m), "{}: modifier {m} twice", r.name);
        }
        // Control transfers and stores are never removable.
        if r.effects.intersects(Effects::CONTROL.union(Effects::STORE)) {
            assert!(r.has_side_effects(), "{}", r.name);
        }
    }
    // ptxas's required-side-effect exclusions (docs/MODEL.md, Removability).
    assert!(Op::OUT_FINAL.info().has_side_effects());
    assert!(Op::DMUL.info().has_side_effects());
    assert!(!Op::DADD.info().has_side_effects());
    assert!(!Op::IADD3.info().has_side_effects());
    assert!(Op::BAR.info().has_side_effects() && Op::STG.info().has_side_effects());
    assert!(!Op::LDG.info().has_side_effects());
}

#[test]
fn modifier_marks_name_accepted_modifiers_later_than_their_opcode() {
    let targets = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"]
        .map(|n| ptxc::targets::lookup_sm(n).unwrap().sm);
    let mut marks = 0;
    for r in OPCODES {
        for &(m, sm) in r.mod_first_sm {
            marks += 1;
            assert!(
                r.mods.contains(&m),
                "{}.{m}: not an accepted modifier",
                r.name
            );
            assert!(
                sm > r.first_sm,
                "{}.{m}: mark not later than the opcode",
                r.name
            );
            assert!(
                targets.contains(&sm),
                "{}.{m}: sm_{sm} is no target",
                r.name
            );
            assert_eq!(r.mod_first_sm(m), sm);
        }
    }
    assert!(marks > 0);
}

/// ptxas 11.8 emits `HFMA2.BF16_V2` from sm_80 and refuses `.bf16` below
/// ("Feature '.bf16' requires .target sm_80 or higher"); `HMNMX2.XORSIGN`
/// from sm_86 ("Modifier '.xorsign' requires .target sm_86 or higher").
#[test]
fn a_later_modifier_is_lacking_on_an_earlier_target() {
    use ptxc::ir::Lacking;
    let sm = |n| ptxc::targets::lookup_sm(n).unwrap();
    assert!(Op::HFMA2.available_on(sm("sm_75")));
    assert_eq!(
        Op::HFMA2.lacking(&["BF16_V2"], sm("sm_75")),
        Some(Lacking::Modifier(Op::HFMA2, "BF16_V2", 80))
    );
    assert_eq!(
        Op::HFMA2
            .lacking(&["BF16_V2"], sm("sm_75"))
            .unwrap()
            .message(sm("sm_75")),
        "HFMA2.BF16_V2 does not exist on sm_75 (from sm_80)"
    );
    assert_eq!(Op::HFMA2.lacking(&["BF16_V2"], sm("sm_80")), None);
    assert_eq!(Op::HFMA2.lacking(&["FTZ"], sm("sm_70")), None);
    assert_eq!(
        Op::HADD2
            .lacking(&["BF16_V2"], sm("sm_89"))
            .map(|l| l.spelled()),
        Some("HADD2.BF16_V2".into())
    );
    assert_eq!(
        Op::HMNMX2
            .lacking(&["XORSIGN"], sm("sm_80"))
            .map(|l| l.spelled()),
        Some("HMNMX2.XORSIGN".into())
    );
    assert_eq!(Op::HMNMX2.lacking(&["XORSIGN"], sm("sm_86")), None);
    // The opcode comes first.
    assert_eq!(
        Op::HMNMX2.lacking(&["XORSIGN"], sm("sm_75")),
        Some(Lacking::Opcode(Op::HMNMX2, 80))
    );
}
