//! Logic (PTX ISA 9.7.8) and byte permutation (9.7.9.7): and, or, xor, not, cnot, lop3 (SASS
//! `LOP3.LUT`, `PLOP3.LUT`), prmt (SASS `PRMT`).

use super::ty::{fit, IntTy};

/// `and.type` (9.7.8.1): bitwise AND.
#[inline]
pub fn and(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, a & b)
}

/// `or.type` (9.7.8.2): bitwise OR.
#[inline]
pub fn or(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, a | b)
}

/// `xor.type` (9.7.8.3): bitwise XOR.
#[inline]
pub fn xor(t: IntTy, a: u64, b: u64) -> u64 {
    fit(t, a ^ b)
}

/// `not.type` (9.7.8.4): bitwise complement (one's complement) within the width.
#[inline]
pub fn not(t: IntTy, a: u64) -> u64 {
    fit(t, !a)
}

/// `cnot.type` (9.7.8.5): "logical negation using C/C++ semantics": `d = (a==0) ? 1 : 0`.
#[inline]
pub fn cnot(t: IntTy, a: u64) -> u64 {
    u64::from(fit(t, a) == 0)
}

/// `lop3.b32 d, a, b, c, immLut` (9.7.8.6): arbitrary 3-input bitwise function. The ISA defines
/// `immLut = F(ta, tb, tc)` with `ta = 0xF0, tb = 0xCC, tc = 0xAA`; bit `k` of those constants is
/// `(k>>2)&1`, `(k>>1)&1`, `k&1` respectively, so result bit `j` is
/// `(immLut >> (a[j]<<2 | b[j]<<1 | c[j])) & 1`.
#[inline]
pub fn lop3(a: u32, b: u32, c: u32, lut: u8) -> u32 {
    let mut d = 0u32;
    for k in 0..8u32 {
        if (lut >> k) & 1 == 1 {
            let ta = if k & 4 != 0 { a } else { !a };
            let tb = if k & 2 != 0 { b } else { !b };
            let tc = if k & 1 != 0 { c } else { !c };
            d |= ta & tb & tc;
        }
    }
    d
}

/// `prmt` modes (9.7.9.7): the generic form and `.f4e .b4e .rc8 .ecl .ecr .rc16`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrmtMode {
    /// No mode: four 4-bit selectors in `c[15:0]`, selector bit 3 replicates the byte's sign.
    Default,
    /// Forward 4 extract.
    F4e,
    /// Backward 4 extract.
    B4e,
    /// Replicate 8.
    Rc8,
    /// Edge clamp left.
    Ecl,
    /// Edge clamp right.
    Ecr,
    /// Replicate 16.
    Rc16,
}

impl PrmtMode {
    /// Every mode, the generic form first and then the ISA's order (`.f4e .b4e .rc8 .ecl .ecr
    /// .rc16`, the rows of the table of [`prmt`]). The SASS simulator numbers `PRMT`'s modes
    /// this way (0 = no mode).
    pub const ALL: [PrmtMode; 7] = [
        PrmtMode::Default,
        PrmtMode::F4e,
        PrmtMode::B4e,
        PrmtMode::Rc8,
        PrmtMode::Ecl,
        PrmtMode::Ecr,
        PrmtMode::Rc16,
    ];
}

/// `prmt.b32{.mode} d, a, b, c` (9.7.9.7): pick four bytes of `{b, a}` = `{b7 b6 b5 b4, b3 b2 b1
/// b0}` (a = bytes 0..3, b = bytes 4..7).
///
/// Generic form: `ctl[i] = (c >> 4i) & 0xf` selects destination byte `i`; its 3 lsbs name the
/// source byte, its msb "defines if the byte value should be copied, or if the sign (msb of the
/// byte) should be replicated over all 8 bits of the target position"; `c[31:16]` is ignored.
///
/// Named modes use only `c[1:0]`; the ISA's table (destination bytes 3 2 1 0):
///
/// ```text
/// mode  c[1:0]=0   1         2         3
/// f4e   3 2 1 0    4 3 2 1   5 4 3 2   6 5 4 3
/// b4e   5 6 7 0    6 7 0 1   7 0 1 2   0 1 2 3
/// rc8   0 0 0 0    1 1 1 1   2 2 2 2   3 3 3 3
/// ecl   3 2 1 0    3 2 1 1   3 2 2 2   3 3 3 3
/// ecr   0 0 0 0    1 1 1 0   2 2 1 0   3 2 1 0
/// rc16  1 0 1 0    3 2 3 2   1 0 1 0   3 2 3 2
/// ```
///
/// (Cross-checked against SYCLomatic's hardware test `asm_prmt.cu`, whose lookup table is
/// `{0x3210,0x4321,0x5432,0x6543}, {0x5670,0x6701,0x7012,0x0123}, {0x0000,0x1111,0x2222,0x3333},
/// {0x3210,0x3211,0x3222,0x3333}, {0x0000,0x1110,0x2210,0x3210}, {0x1010,0x3232,0x1010,0x3232}`.)
/// "Note that the sign extension is only performed as part of generic form."
#[inline]
pub fn prmt(a: u32, b: u32, c: u32, mode: PrmtMode) -> u32 {
    const TABLE: [[u16; 4]; 6] = [
        [0x3210, 0x4321, 0x5432, 0x6543], // f4e
        [0x5670, 0x6701, 0x7012, 0x0123], // b4e
        [0x0000, 0x1111, 0x2222, 0x3333], // rc8
        [0x3210, 0x3211, 0x3222, 0x3333], // ecl
        [0x0000, 0x1110, 0x2210, 0x3210], // ecr
        [0x1010, 0x3232, 0x1010, 0x3232], // rc16
    ];
    let src = (u64::from(b) << 32) | u64::from(a);
    let (sel, sign_allowed) = match mode {
        PrmtMode::Default => (c & 0xffff, true),
        PrmtMode::F4e => (u32::from(TABLE[0][(c & 3) as usize]), false),
        PrmtMode::B4e => (u32::from(TABLE[1][(c & 3) as usize]), false),
        PrmtMode::Rc8 => (u32::from(TABLE[2][(c & 3) as usize]), false),
        PrmtMode::Ecl => (u32::from(TABLE[3][(c & 3) as usize]), false),
        PrmtMode::Ecr => (u32::from(TABLE[4][(c & 3) as usize]), false),
        PrmtMode::Rc16 => (u32::from(TABLE[5][(c & 3) as usize]), false),
    };
    let mut d = 0u32;
    for i in 0..4 {
        let ctl = (sel >> (4 * i)) & 0xf;
        let byte = ((src >> (8 * (ctl & 7))) & 0xff) as u32;
        let out = if sign_allowed && ctl & 8 != 0 {
            if byte & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            byte
        };
        d |= out << (8 * i);
    }
    d
}
