//! Decoding of the sm_90 instructions that cuobjdump 11.8 prints as bare
//! encodings (`Op::UNDECODED` IR instructions with `encoding: Some(u128)`,
//! the first printed word being the low 64 bits).
//!
//! Exactly one instruction is recognised: sm_90's integer min/max (here
//! called VIMNMX), in three operand forms. Everything else keeps faulting,
//! naming the encoding.
//!
//! # Evidence
//!
//! Every encoding-only slot of the corpus (31 slots in atomic_hist_max,
//! block_reduce, int_bitops, switch_local, tex_stencil, warp_vote_xor at
//! sm_90) has base opcode `0x048` in bits 0..8 of the low word, in three
//! forms (bits 0..11):
//!
//! | form | b operand | sample (low word, high word) |
//! |---|---|---|
//! | `0x248` | register Rb, bits 32..39 | `0x0000000807037248 0x000fe40007fe0000` |
//! | `0x848` | 32-bit immediate, bits 32..63 | `0x0000003f06047848 0x002fc80003fe0100` |
//! | `0xc48` | uniform register URb, bits 32..39 | `0x0000000e00037c48 0x000fe2000bfe0100` |
//!
//! with Rd in bits 16..23 and Ra in bits 24..31 (255 = RZ; e.g.
//! `0x00000004ff077248` reads RZ). The forms mirror sm_89's IMNMX
//! (`0x217`/`0x817`/`0xc17`, same register fields), and IMNMX never appears
//! in the sm_90 listings: at the same place of the same kernel, sm_89 has an
//! IMNMX where sm_90 has one of these slots, with the same registers and
//! immediates (block_reduce, switch_local `IMNMX.U32 R9, R9, 0x3, PT` =
//! `0x0000000309097848`, tex_stencil `IMNMX R5, R0, UR4, PT` ...). Hence
//! sm_90's VIMNMX (the opcode PTX 7.8+ documents as the sm_90 min/max).
//!
//! High word (bits 64..127), beyond the scheduling/reuse control bits
//! 105..127 (hi bits 41..63), which do not affect the result:
//!
//! * bits 87..90 (hi 23..26): the predicate selecting min (true) or max
//!   (false), index in 87..89 (7 = PT) and negation in 90, exactly where
//!   IMNMX has it: sm_89 `...0x07800200` = `!PT` (max), `...0x03800200` =
//!   `PT` (min); sm_90 `...0x07fe0000` / `...0x03fe0000`. Only `PT` and
//!   `!PT` occur; other predicates are not accepted (unseen, so unverified).
//! * bit 72 (hi bit 8, `0x100`): SIGNEDNESS, set = signed. Evidence, slot
//!   by slot against the sm_89 listing of the same kernel:
//!   block_reduce (6 slots, all clear) <-> `IMNMX.U32` x6; switch_local (4,
//!   clear) <-> `IMNMX.U32 R9, R9, 0x3, PT` x4; tex_stencil (10, set) <->
//!   `IMNMX` x10; warp_vote_xor (5, set) <-> `IMNMX` x5; int_bitops, which
//!   computes both: `0x0000000807037248 ..07fe0000` (clear, max) and
//!   `0x00000000070c7248 ..03fe0000` (clear, min) <-> `IMNMX.U32 ... !PT`
//!   / `IMNMX.U32 ... PT`, `0x0000000007177248 ..03fe0100` and
//!   `0x0000001407197248 ..07fe0100` (set) <-> signed `IMNMX ... PT` /
//!   `IMNMX ... !PT`; the kernel's expected output (int_bitops.expected.json,
//!   signed and unsigned min/max of the same inputs, which differ for
//!   negative values) matches only with set = signed. (sm_89's IMNMX has
//!   its signedness one bit higher, `0x200`; that bit is clear in every
//!   sm_90 sample.)
//! * the remaining bits are constant in every sample and are required to
//!   be: hi bits 0..40 = `0x007e0000` (register and immediate forms) or
//!   `0x087e0000` (uniform form: bit 91 is the uniform-operand flag, also
//!   set in sm_89's `IMNMX R, R, UR, P`, `0x0b800200`), outside the
//!   predicate and signedness fields. Bits 81..86 (`0x7e0000`, all ones)
//!   are presumably two predicate destinations set to PT (VIMNMX can report
//!   which operand it chose); not modelled, hence required to be PT.
//! * low word bits 12..15: the guard (7 = PT, no guard: all samples); a
//!   guarded slot is refused. Register/uniform forms: bits 40..63 zero.
//!   Register numbers: 255 = RZ, uniform 63 = URZ.

use super::program::{PSrc, Src};

/// The b operand of a VIMNMX.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BOperand {
    /// A general register (255 = RZ).
    R(u8),
    /// A uniform register (63 = URZ).
    Ur(u8),
    Imm(u32),
}

/// A decoded encoding-only slot: `VIMNMX{.U32} Rd, Ra, b, {!}PT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vimnmx {
    /// Destination register (255 = RZ).
    pub d: u8,
    /// First source register (255 = RZ).
    pub a: u8,
    pub b: BOperand,
    pub signed: bool,
    /// Min (true: `PT`) or max (false: `!PT`).
    pub min: bool,
}

pub const RZ: u8 = 255;
pub const URZ: u8 = 63;

/// Control bits (stall, yield, barriers, wait mask, reuse): hi bits 41..63.
const HI_CONTROL: u64 = !((1u64 << 41) - 1);
const HI_PRED: u64 = 0xf << 23;
const HI_SIGNED: u64 = 1 << 8;

/// Decodes an encoding-only slot, or says why it is not recognised.
pub fn decode(enc: u128) -> Result<Vimnmx, String> {
    let lo = enc as u64;
    let hi = (enc >> 64) as u64;
    let refuse = |why: &str| Err(format!("encoding {enc:#034x} is not modelled: {why}"));
    let form = lo & 0xfff;
    let (fixed_hi, b) = match form {
        0x248 => (0x007e_0000, BOperand::R((lo >> 32) as u8)),
        0x848 => (0x007e_0000, BOperand::Imm((lo >> 32) as u32)),
        0xc48 => (0x087e_0000, BOperand::Ur((lo >> 32) as u8)),
        _ => return refuse("only VIMNMX (0x248, 0x848, 0xc48) is known"),
    };
    if (lo >> 12) & 0xf != 0x7 {
        return refuse("a guarded VIMNMX is not modelled");
    }
    if form != 0x848 && lo >> 40 != 0 {
        return refuse("unexpected bits 40..63");
    }
    if let BOperand::Ur(u) = b {
        if u > URZ {
            return refuse("uniform register out of range");
        }
    }
    if hi & !HI_CONTROL & !HI_PRED & !HI_SIGNED != fixed_hi {
        return refuse("unexpected bits in the high word");
    }
    let min = match (hi >> 23) & 0xf {
        0x7 => true,
        0xf => false,
        _ => return refuse("a min/max predicate other than PT/!PT"),
    };
    Ok(Vimnmx {
        d: (lo >> 16) as u8,
        a: (lo >> 24) as u8,
        b,
        signed: hi & HI_SIGNED != 0,
        min,
    })
}

impl Vimnmx {
    /// The general registers it names (for the register map).
    pub fn regs(&self) -> impl Iterator<Item = u8> {
        let b = match self.b {
            BOperand::R(r) => r,
            _ => RZ,
        };
        [self.d, self.a, b].into_iter().filter(|&r| r != RZ)
    }

    /// The uniform register it names.
    pub fn uregs(&self) -> impl Iterator<Item = u8> {
        match self.b {
            BOperand::Ur(u) if u != URZ => Some(u),
            _ => None,
        }
        .into_iter()
    }

    /// The min/max predicate (`PT` = min).
    pub fn pmin(&self) -> PSrc {
        if self.min {
            PSrc::TRUE
        } else {
            PSrc::FALSE
        }
    }

    /// The b source.
    pub fn b_src(&self) -> Src {
        match self.b {
            BOperand::R(RZ) | BOperand::Ur(URZ) => Src::Imm(0),
            BOperand::R(r) => Src::R(u32::from(r)),
            BOperand::Ur(u) => Src::U(u32::from(u)),
            BOperand::Imm(v) => Src::Imm(v),
        }
    }

    /// The a source.
    pub fn a_src(&self) -> Src {
        if self.a == RZ {
            Src::Imm(0)
        } else {
            Src::R(u32::from(self.a))
        }
    }

    /// `VIMNMX.U32 R3, R7, R8, !PT` for messages.
    pub fn text(&self) -> String {
        let r = |r: u8| {
            if r == RZ {
                "RZ".to_string()
            } else {
                format!("R{r}")
            }
        };
        let b = match self.b {
            BOperand::R(x) => r(x),
            BOperand::Ur(URZ) => "URZ".into(),
            BOperand::Ur(u) => format!("UR{u}"),
            BOperand::Imm(v) if (v as i32) < 0 => format!("-{:#x}", (v as i32).unsigned_abs()),
            BOperand::Imm(v) => format!("{v:#x}"),
        };
        format!(
            "VIMNMX{} {}, {}, {}, {}",
            if self.signed { "" } else { ".U32" },
            r(self.d),
            r(self.a),
            b,
            if self.min { "PT" } else { "!PT" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(lo: u64, hi: u64) -> u128 {
        u128::from(hi) << 64 | u128::from(lo)
    }

    fn t(lo: u64, hi: u64) -> String {
        decode(enc(lo, hi)).unwrap().text()
    }

    #[test]
    fn corpus_samples() {
        // int_bitops: unsigned max/min, signed min/max (sm_89: IMNMX.U32
        // R14/R17 ..., IMNMX R21/R23 ...).
        assert_eq!(
            t(0x0000000807037248, 0x000fe40007fe0000),
            "VIMNMX.U32 R3, R7, R8, !PT"
        );
        assert_eq!(
            t(0x00000000070c7248, 0x000fe40003fe0000),
            "VIMNMX.U32 R12, R7, R0, PT"
        );
        assert_eq!(
            t(0x0000000007177248, 0x000fe20003fe0100),
            "VIMNMX R23, R7, R0, PT"
        );
        assert_eq!(
            t(0x0000001407197248, 0x000fe40007fe0100),
            "VIMNMX R25, R7, R20, !PT"
        );
        // atomic_hist_max: immediate and RZ forms.
        assert_eq!(
            t(0x0000003f06047848, 0x002fc80003fe0100),
            "VIMNMX R4, R6, 0x3f, PT"
        );
        assert_eq!(
            t(0x00000004ff077248, 0x000fe40007fe0100),
            "VIMNMX R7, RZ, R4, !PT"
        );
        // switch_local: IMNMX.U32 R9, R9, 0x3, PT on sm_89.
        assert_eq!(
            t(0x0000000309097848, 0x000fca0003fe0000),
            "VIMNMX.U32 R9, R9, 0x3, PT"
        );
        // tex_stencil: negative immediates and the uniform form.
        assert_eq!(
            t(0xffffffff02067848, 0x000fe20007fe0100),
            "VIMNMX R6, R2, -0x1, !PT"
        );
        assert_eq!(
            t(0xfffffffe02077848, 0x000fe20007fe0100),
            "VIMNMX R7, R2, -0x2, !PT"
        );
        assert_eq!(
            t(0x0000000e00037c48, 0x000fe2000bfe0100),
            "VIMNMX R3, R0, UR14, PT"
        );
        assert_eq!(
            t(0x0000000e04047c48, 0x000fc4000bfe0100),
            "VIMNMX R4, R4, UR14, PT"
        );
        // block_reduce, warp_vote_xor.
        assert_eq!(
            t(0x0000000a07077248, 0x00afcc0007fe0000),
            "VIMNMX.U32 R7, R7, R10, !PT"
        );
        assert_eq!(
            t(0x0000000c0b177248, 0x002fe20007fe0100),
            "VIMNMX R23, R11, R12, !PT"
        );
    }

    #[test]
    fn fields() {
        let v = decode(enc(0x00000004ff077248, 0x000fe40007fe0100)).unwrap();
        assert_eq!(v.a_src(), Src::Imm(0));
        assert_eq!(v.b_src(), Src::R(4));
        assert_eq!(v.pmin(), PSrc::FALSE);
        assert_eq!(v.regs().collect::<Vec<_>>(), [7, 4]);
        let u = decode(enc(0x0000000e00037c48, 0x000fe2000bfe0100)).unwrap();
        assert_eq!(u.b_src(), Src::U(14));
        assert_eq!(u.uregs().collect::<Vec<_>>(), [14]);
        assert_eq!(u.pmin(), PSrc::TRUE);
    }

    #[test]
    fn refuses_everything_else() {
        let ok = (0x0000000807037248u64, 0x000fe40007fe0000u64);
        assert!(decode(enc(ok.0, ok.1)).is_ok());
        let bad = [
            // another opcode / form
            (0x0000000807037247, ok.1),
            (0x0000000807037448, ok.1),
            // guarded (@P0)
            (0x0000000807030248, ok.1),
            // bits 40..63 of a register form
            (0x0000010807037248, ok.1),
            // a real predicate (P0) instead of PT
            (ok.0, 0x000fe400047e0000),
            // sm_89's signedness bit
            (ok.0, 0x000fe40007fe0200),
            // another predicate (!P6)
            (ok.0, 0x000fe400077e0000),
            // a predicate destination other than PT
            (ok.0, 0x000fe40007fc0000),
            // the uniform flag on a register form
            (ok.0, 0x000fe4000ffe0000),
            // a register form's high word on the uniform form
            (0x0000000e00037c48, 0x000fe20003fe0100),
        ];
        for (lo, hi) in bad {
            let e = decode(enc(lo, hi)).unwrap_err();
            assert!(e.contains(&format!("{:#034x}", enc(lo, hi))), "{e}");
        }
        // Control bits do not matter.
        assert!(decode(enc(ok.0, ok.1 | 0xffff_fe00_0000_0000)).is_ok());
    }
}
