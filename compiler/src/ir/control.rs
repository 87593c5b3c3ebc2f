//! Per-instruction control codes (Volta and later): the stall count, the
//! yield bit, the write and read scoreboards an instruction sets, the
//! scoreboards it waits on, and the operand-reuse flags.
//!
//! # Where they live in the vendor encoding
//!
//! The top 23 bits of the 128-bit instruction word (bits 105..=127), the
//! layout of "Dissecting the NVIDIA Volta GPU Architecture via
//! Microbenchmarking" (Jia et al. 2018, section 2.2), which this file checks
//! against the corpus (`tests` below and `compiler/tests/ir_control_vendor.rs`):
//!
//! | bits | field |
//! |---|---|
//! | 105..=108 | stall cycles before the next instruction issues (0..15) |
//! | 109 | yield bit (kept raw: ptxas sets it on most short-stall instructions; the hazard model does not use it) |
//! | 110..=112 | write scoreboard (0..5; 7 = none): released when the result is written |
//! | 113..=115 | read scoreboard (0..5; 7 = none): released when the sources have been read |
//! | 116..=121 | wait mask: the scoreboards to wait on before issuing |
//! | 122..=125 | operand-reuse flags, one per source slot A, B, C, D |
//!
//! Corpus checks (ptxas 11.8, sm_70..sm_90): every variable-latency opcode
//! sets a scoreboard and no fixed-latency one does
//! (`tests/ir_vendor_sass.rs`); every instruction that waits on a scoreboard
//! waits on one that an earlier instruction set; stall 0 occurs only on the
//! `NOP`/`BRA` padding after the last `EXIT`; the reuse bits agree with the
//! `.reuse` marks cuobjdump prints on the operands.
//!
//! # In the IR and its text
//!
//! An instruction read from a cuobjdump listing keeps its encoding, and its
//! control codes are the encoding's bits ([`Inst::control`](super::Inst::control));
//! a compiler-made instruction carries a [`Control`] of its own (or none).
//! The IR's printout writes the latter as a trailing comment after the `;`,
//! `/*ctrl B--2---:R-:W0:Y:S04:U---- */` (the layout of the community SASS
//! assemblers' `[B------:R-:W-:Y:S04]`), which the parser reads back.

use std::fmt;

/// The number of scoreboards (dependency barriers) per warp.
pub const SCOREBOARDS: u8 = 6;
/// The largest stall count.
pub const MAX_STALL: u8 = 15;

const CTRL_SHIFT: u32 = 105;
const CTRL_MASK: u128 = (1 << 23) - 1;

/// One instruction's control codes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Control {
    /// Cycles from this instruction's issue to the next one's (0..=15).
    pub stall: u8,
    /// The raw yield bit.
    pub yield_bit: bool,
    /// The scoreboard released when a variable-latency result is written.
    pub write_sb: Option<u8>,
    /// The scoreboard released when a variable-latency instruction has read
    /// its sources (stores read their data late).
    pub read_sb: Option<u8>,
    /// Bit `k`: wait for scoreboard `k` before issuing.
    pub wait: u8,
    /// Bit `k`: source slot `k` (A, B, C, D) goes to the reuse cache.
    pub reuse: u8,
}

impl Control {
    /// The control codes in a Volta+ encoding.
    pub fn decode(enc: u128) -> Control {
        let c = (enc >> CTRL_SHIFT) & CTRL_MASK;
        let sb = |v: u128| (v < u128::from(SCOREBOARDS)).then_some(v as u8);
        Control {
            stall: (c & 0xf) as u8,
            yield_bit: c >> 4 & 1 != 0,
            write_sb: sb(c >> 5 & 7),
            read_sb: sb(c >> 8 & 7),
            wait: (c >> 11 & 0x3f) as u8,
            reuse: (c >> 17 & 0xf) as u8,
        }
    }

    /// `enc` with its control bits replaced by `self` (bits 126..127 kept).
    pub fn encode_into(self, enc: u128) -> u128 {
        let sb = |s: Option<u8>| u128::from(s.map_or(7, |s| s.min(7)));
        let c = u128::from(self.stall & 0xf)
            | u128::from(self.yield_bit) << 4
            | sb(self.write_sb) << 5
            | sb(self.read_sb) << 8
            | u128::from(self.wait & 0x3f) << 11
            | u128::from(self.reuse & 0xf) << 17;
        enc & !(CTRL_MASK << CTRL_SHIFT) | c << CTRL_SHIFT
    }

    /// Whether scoreboard `sb` is in the wait mask.
    pub fn waits_on(&self, sb: u8) -> bool {
        self.wait >> sb & 1 != 0
    }

    /// Parses the text [`fmt::Display`] writes: `B--2---:R-:W0:Y:S04:U----`.
    pub fn parse(s: &str) -> Result<Control, String> {
        let bad =
            || format!("malformed control codes `{s}` (expected e.g. `B--2---:R-:W0:Y:S04:U----`)");
        let f: Vec<&str> = s.split(':').collect();
        let [b, r, w, y, st, u] = f[..] else {
            return Err(bad());
        };
        let digits = |field: &str, tag: char, n: usize| -> Result<u8, String> {
            let body = field.strip_prefix(tag).ok_or_else(bad)?;
            if body.len() != n {
                return Err(bad());
            }
            let mut m = 0u8;
            for (k, ch) in body.chars().enumerate() {
                match ch {
                    '-' => {}
                    c if c.to_digit(10) == Some(k as u32) => m |= 1 << k,
                    _ => return Err(bad()),
                }
            }
            Ok(m)
        };
        let one = |field: &str, tag: char| -> Result<Option<u8>, String> {
            match field.strip_prefix(tag).ok_or_else(bad)? {
                "-" => Ok(None),
                d => match d.parse::<u8>() {
                    Ok(v) if d.len() == 1 && v < SCOREBOARDS => Ok(Some(v)),
                    _ => Err(bad()),
                },
            }
        };
        let stall = st
            .strip_prefix('S')
            .filter(|d| d.len() == 2)
            .and_then(|d| d.parse::<u8>().ok())
            .filter(|&v| v <= MAX_STALL)
            .ok_or_else(bad)?;
        let yield_bit = match y {
            "Y" => true,
            "-" => false,
            _ => return Err(bad()),
        };
        Ok(Control {
            stall,
            yield_bit,
            write_sb: one(w, 'W')?,
            read_sb: one(r, 'R')?,
            wait: digits(b, 'B', 6)?,
            reuse: digits(u, 'U', 4)?,
        })
    }
}

impl fmt::Display for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mask = |m: u8, n: u8| -> String {
            (0..n)
                .map(|k| {
                    if m >> k & 1 != 0 {
                        char::from(b'0' + k)
                    } else {
                        '-'
                    }
                })
                .collect()
        };
        let one = |s: Option<u8>| s.map_or("-".to_string(), |v| v.to_string());
        write!(
            f,
            "B{}:R{}:W{}:{}:S{:02}:U{}",
            mask(self.wait, SCOREBOARDS),
            one(self.read_sb),
            one(self.write_sb),
            if self.yield_bit { "Y" } else { "-" },
            self.stall,
            mask(self.reuse, 4)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bit arithmetic on synthetic words (vendor words are decoded by
    /// hand in tests/ir_control_vendor.rs).
    #[test]
    fn decode_and_encode_are_inverse() {
        let c = Control {
            stall: 11,
            yield_bit: true,
            write_sb: Some(2),
            read_sb: None,
            wait: 0b100101,
            reuse: 0b0110,
        };
        let enc = c.encode_into(0x1234_5678_9abc_def0_1234_5678_9abc_def0);
        assert_eq!(Control::decode(enc), c);
        // The instruction bits below 105 and above 125 are kept.
        let low = (1u128 << 105) - 1;
        assert_eq!(enc & low, 0x1234_5678_9abc_def0_1234_5678_9abc_def0 & low);
        assert_eq!(enc >> 126, 0x1234_5678_9abc_def0_1234_5678_9abc_def0 >> 126);
        // Field positions, one bit at a time.
        assert_eq!(Control::decode(1 << 105).stall, 1);
        assert!(Control::decode(1 << 109).yield_bit);
        assert_eq!(Control::decode(3u128 << 110).write_sb, Some(3));
        assert_eq!(Control::decode(7u128 << 110).write_sb, None);
        assert_eq!(Control::decode(5u128 << 113).read_sb, Some(5));
        assert_eq!(Control::decode(1u128 << 121).wait, 0b100000);
        assert_eq!(Control::decode(1u128 << 125).reuse, 0b1000);
    }

    #[test]
    fn text_round_trips_and_rejects_junk() {
        let c = Control {
            stall: 4,
            yield_bit: true,
            write_sb: Some(0),
            read_sb: Some(5),
            wait: 0b000100,
            reuse: 0b0001,
        };
        assert_eq!(c.to_string(), "B--2---:R5:W0:Y:S04:U0---");
        assert_eq!(Control::parse(&c.to_string()), Ok(c));
        assert_eq!(
            Control::parse(&Control::default().to_string()),
            Ok(Control::default())
        );
        for bad in [
            "",
            "B------:R-:W-:Y:S16:U----",
            "B------:R6:W-:Y:S01:U----",
            "B1-----:R-:W-:Y:S01:U----",
            "B------:R-:W-:Y:S1:U----",
            "B------:R-:W-:Q:S01:U----",
            "B------:R-:W-:Y:S01",
        ] {
            assert!(Control::parse(bad).is_err(), "{bad}");
        }
    }
}
