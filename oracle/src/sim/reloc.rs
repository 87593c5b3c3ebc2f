//! Code relocations: the module-variable addresses that the loader writes
//! into the instructions, applied to the IR [`Function`] before decoding.
//!
//! cuobjdump's `-sass` text shows the instructions of a cubin before
//! relocation (`UMOV UR6, 0x0`); the relocations are in its `.rel.text.F`
//! (REL) or `.rela.text.F` (RELA, sm_90) sections, which
//! `scripts/build-kernels.sh` copies into `NAME.sm_XX.banks.json`
//! ([`super::SimInputs::relocs`]). A relocation names the byte offset of an
//! instruction in the function's `.text` (instruction `offset / 16` in
//! layout order), a symbol and a kind.
//!
//! Kinds, with the instruction bits each one writes. The only kinds in the
//! corpus' 96 cubins (ptxas 11.8, sm_70..sm_90) are the first two below,
//! all in libdevice_math (`__cudart_i2opi_f`); the third comes from
//! `txq`/`suq` of a table field (oracle/tests/resinfo_vendor/); everything
//! else is refused.
//! - `R_CUDA_ABS32_LO_32`: bits 32..63 of the 128-bit instruction (its
//!   32-bit immediate) become the low word of `S + A`;
//! - `R_CUDA_ABS32_HI_32`: the same field becomes the high word of `S + A`.
//! - `R_CUDA_ABS32_32`: the same field becomes `S + A` (32 bits). ptxas
//!   11.8 emits it against `.nv.unified.texrefDescSize` /
//!   `.nv.surfrefDescSize` (undefined 4-byte symbols the driver defines) on
//!   the `MOV R3, 0x0` / `UMOV UR5, 0x0` whose value multiplies the row
//!   index of a `txq`/`suq` information-table load; nvdisasm prints that
//!   instruction as ``UMOV UR5, `(.nv.unified.texrefDescSize)`` (the
//!   symbol's value as the whole immediate). The simulator gives the two
//!   symbols this project's row sizes (`ptxc::targets::abi::resinfo::TEX_INFO_ROW`,
//!   `SURF_INFO_ROW`; [`desc_size_symbol`]), the sizes of the tables it
//!   builds (`super::resinfo`), so vendor listings read those tables.
//!
//! Evidence: nvdisasm, which resolves relocations, prints those
//! instructions as `MOV R13, 32@lo(__cudart_i2opi_f)` (sm_70) and `UMOV
//! UR6, 32@lo(...)` / `UMOV UR7, 32@hi(...)` (sm_75..sm_90) at exactly the
//! offsets of the relocation entries; and writing a value into bytes 4..7
//! of one of those instructions in the cubin makes cuobjdump print it as
//! the immediate (`MOV R13, 0x12345678`, `UMOV UR6, 0x9abcdef0`), so the
//! field is the immediate operand, bits 32..63. `S` is the symbol's
//! address; `A` is the RELA addend, or for REL the value already in the
//! field (the immediate as listed; 0 in every corpus case).
//!
//! In the IR the field is the first integer-immediate source operand of an
//! ALU instruction whose immediate form keeps it in bits 32..63 (`MOV`,
//! `UMOV`, `IADD3`, `UIADD3`, `IMAD`, `UIMAD`, `LOP3`, `ULOP3`). When the
//! instruction carries its vendor encoding, the field's bits there must
//! equal the operand (else the operand is not the relocated field and the
//! relocation is refused) and are patched as well.

use ptxc::ir::{Function, Operand};

/// A relocation type, by the name cuobjdump prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelocKind {
    /// `R_CUDA_ABS32_LO_32`: the low word of the address into bits 32..63.
    Abs32Lo32,
    /// `R_CUDA_ABS32_HI_32`: the high word of the address into bits 32..63.
    Abs32Hi32,
    /// `R_CUDA_ABS32_32`: the (32-bit) value into bits 32..63.
    Abs32_32,
}

/// The value of a driver-defined size symbol (module docs): the row sizes
/// of the information tables; `None` for any other name.
pub fn desc_size_symbol(name: &str) -> Option<u64> {
    use ptxc::targets::abi::resinfo::{SURF_INFO_ROW, TEX_INFO_ROW};
    match name {
        ".nv.unified.texrefDescSize" => Some(u64::from(TEX_INFO_ROW)),
        ".nv.surfrefDescSize" => Some(u64::from(SURF_INFO_ROW)),
        _ => None,
    }
}

impl RelocKind {
    pub fn from_name(name: &str) -> Option<RelocKind> {
        match name {
            "R_CUDA_ABS32_LO_32" => Some(RelocKind::Abs32Lo32),
            "R_CUDA_ABS32_HI_32" => Some(RelocKind::Abs32Hi32),
            "R_CUDA_ABS32_32" => Some(RelocKind::Abs32_32),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RelocKind::Abs32Lo32 => "R_CUDA_ABS32_LO_32",
            RelocKind::Abs32Hi32 => "R_CUDA_ABS32_HI_32",
            RelocKind::Abs32_32 => "R_CUDA_ABS32_32",
        }
    }

    /// The field's new value for the relocated address `v` (`S + A`).
    fn field(self, v: u64) -> u32 {
        match self {
            RelocKind::Abs32Lo32 | RelocKind::Abs32_32 => v as u32,
            RelocKind::Abs32Hi32 => (v >> 32) as u32,
        }
    }
}

/// One code relocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reloc {
    /// The function whose `.text` it patches; `None`: whichever is run.
    pub function: Option<String>,
    /// Byte offset of the instruction in the function (16 per instruction).
    pub offset: u32,
    pub symbol: String,
    pub kind: RelocKind,
    /// The explicit addend of a RELA entry; `None` (REL): the field's
    /// current value.
    pub addend: Option<i64>,
}

/// Opcodes whose immediate source is the 32-bit field at bits 32..63.
const IMM32_OPS: &[&str] = &[
    "MOV", "UMOV", "IADD3", "UIADD3", "IMAD", "UIMAD", "LOP3", "ULOP3",
];

/// Bits 32..63 of an encoding.
const FIELD_SHIFT: u32 = 32;

/// Applies the relocations meant for `f` (those naming no function or
/// `f.name`) with `symbol` giving each symbol's address; returns the
/// patched copy. Errors name the relocation.
pub fn apply(
    f: &Function,
    relocs: &[Reloc],
    symbol: &dyn Fn(&str) -> Option<u64>,
) -> Result<Function, String> {
    let mut out = f.clone();
    // Layout-order index -> (block, instruction).
    let mut at = Vec::new();
    for (bi, b) in out.blocks.iter().enumerate() {
        for ii in 0..b.insts.len() {
            at.push((bi, ii));
        }
    }
    for r in relocs {
        if r.function.as_deref().is_some_and(|n| n != f.name) {
            continue;
        }
        let what = format!(
            "relocation {} of '{}' at {:#06x}",
            r.kind.name(),
            r.symbol,
            r.offset
        );
        let s = symbol(&r.symbol)
            .ok_or_else(|| format!("{what}: no module variable '{}'", r.symbol))?;
        if r.offset % 16 != 0 {
            return Err(format!("{what}: not an instruction boundary (16 bytes)"));
        }
        let Some(&(bi, ii)) = at.get((r.offset / 16) as usize) else {
            return Err(format!(
                "{what}: past the end of the function ({} instructions)",
                at.len()
            ));
        };
        let inst = &mut out.blocks[bi].insts[ii];
        let name = inst.op.name();
        let slot = if IMM32_OPS.contains(&name) {
            inst.operands
                .iter()
                .enumerate()
                .skip(inst.ndst as usize)
                .find(|(_, o)| matches!(o, Operand::Imm(_)))
                .map(|(k, _)| k)
        } else {
            None
        };
        let Some(k) = slot else {
            return Err(format!(
                "{what}: {name} has no 32-bit immediate operand to patch (the relocation writes bits 32..63)"
            ));
        };
        let Operand::Imm(old) = inst.operands[k] else {
            unreachable!()
        };
        let old = old as u32;
        if let Some(e) = inst.encoding {
            let field = (e >> FIELD_SHIFT) as u32;
            if field != old {
                return Err(format!(
                    "{what}: the encoding's bits 32..63 ({field:#x}) are not the operand {old:#x}"
                ));
            }
        }
        let a = r.addend.unwrap_or(i64::from(old));
        let v = r.kind.field(s.wrapping_add(a as u64));
        inst.operands[k] = Operand::Imm(i64::from(v));
        if let Some(e) = &mut inst.encoding {
            *e = (*e & !(u128::from(u32::MAX) << FIELD_SHIFT)) | (u128::from(v) << FIELD_SHIFT);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn func(lines: &[&str]) -> Function {
        let mut t = String::from("\n\tcode for sm_70\n\t\tFunction : k\n");
        for (i, l) in lines.iter().enumerate() {
            t.push_str(&format!(
                "        /*{:04x}*/                   {l}\n",
                i * 16
            ));
        }
        let file = ptxc::ir::sass_text::parse_file(&t).unwrap();
        let sm = ptxc::targets::lookup_sm("sm_70");
        ptxc::ir::from_sass(&file.functions[0], sm).unwrap()
    }

    fn reloc(offset: u32, kind: RelocKind, addend: Option<i64>) -> Reloc {
        Reloc {
            function: Some("k".into()),
            offset,
            symbol: "g".into(),
            kind,
            addend,
        }
    }

    fn imm(f: &Function, i: usize) -> Vec<Operand> {
        f.insts().nth(i).unwrap().operands.to_vec()
    }

    #[test]
    fn patches_the_immediate_and_the_encoding() {
        // libdevice_math.sm_70: the two MOVs of __cudart_i2opi_f's address.
        let f = func(&[
            "MOV R13, 0x0 ;  /* 0x00000000000d7802 */\n /* 0x000fe20000000f00 */",
            "IADD3 R1, R1, 0x8, RZ ;",
            "MOV R19, 0x0 ;  /* 0x0000000000137802 */\n /* 0x000fe40000000f00 */",
            "EXIT ;",
        ]);
        let sym = |n: &str| (n == "g").then_some(0x1_2345_6780_u64);
        let rs = [
            reloc(0x00, RelocKind::Abs32Lo32, None),
            reloc(0x10, RelocKind::Abs32Lo32, None),
            reloc(0x20, RelocKind::Abs32Hi32, None),
        ];
        let p = apply(&f, &rs, &sym).unwrap();
        assert_eq!(imm(&p, 0)[1], Operand::Imm(0x2345_6780));
        // REL: the field's old value (8) is the addend.
        assert_eq!(imm(&p, 1)[2], Operand::Imm(0x2345_6788));
        assert_eq!(imm(&p, 2)[1], Operand::Imm(0x1));
        assert_eq!(
            p.insts().next().unwrap().encoding,
            Some(0x000fe20000000f00_23456780000d7802)
        );
        assert_eq!(
            p.insts().nth(2).unwrap().encoding,
            Some(0x000fe40000000f00_0000000100137802)
        );
        // Nothing else changed.
        assert_eq!(p.insts().nth(3), f.insts().nth(3));
        // RELA: the explicit addend replaces the field.
        let p = apply(&f, &[reloc(0x10, RelocKind::Abs32Lo32, Some(-0x80))], &sym).unwrap();
        assert_eq!(imm(&p, 1)[2], Operand::Imm(0x2345_6700));
        // Another function's relocation is not applied.
        let mut other = reloc(0, RelocKind::Abs32Lo32, None);
        other.function = Some("other".into());
        assert_eq!(apply(&f, &[other], &sym).unwrap(), f);
    }

    #[test]
    fn refuses_what_it_cannot_patch() {
        let f = func(&["MOV R13, 0x0 ;", "EXIT ;", "FADD R1, R1, 1.5 ;"]);
        let sym = |n: &str| (n == "g").then_some(0x1000_u64);
        let err = |r: Reloc| apply(&f, &[r], &sym).unwrap_err();
        assert!(err(reloc(0x10, RelocKind::Abs32Lo32, None))
            .contains("EXIT has no 32-bit immediate operand"));
        assert!(err(reloc(0x20, RelocKind::Abs32Lo32, None))
            .contains("FADD has no 32-bit immediate operand"));
        assert!(err(reloc(0x30, RelocKind::Abs32Lo32, None)).contains("past the end"));
        assert!(err(reloc(0x8, RelocKind::Abs32Lo32, None)).contains("instruction boundary"));
        let mut r = reloc(0, RelocKind::Abs32Lo32, None);
        r.symbol = "nope".into();
        assert!(err(r).contains("no module variable 'nope'"));
        // An encoding whose field is not the operand.
        let f = func(&["MOV R13, 0x4 ;  /* 0x00000000000d7802 */\n /* 0x000fe20000000f00 */"]);
        assert!(apply(&f, &[reloc(0, RelocKind::Abs32Lo32, None)], &sym)
            .unwrap_err()
            .contains("are not the operand"));
    }

    #[test]
    fn kind_names() {
        for k in [
            RelocKind::Abs32Lo32,
            RelocKind::Abs32Hi32,
            RelocKind::Abs32_32,
        ] {
            assert_eq!(RelocKind::from_name(k.name()), Some(k));
        }
        assert_eq!(RelocKind::from_name("R_CUDA_ABS55_16_34"), None);
    }
}
