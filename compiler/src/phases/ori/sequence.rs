//! The ORI sequence builder (docs/MODEL.md, ORI sequence) and its diff
//! detection.
//!
//! Opcodes are phase indices of the PhaseManager's table (ptxas's ORI
//! name lookup returns 158, the PhaseManager's NOP sentinel, for an
//! unknown name: one index space). The base sequence ([`BASE`]) is the
//! ptxas's default interleaving:
//!
//! ```text
//! [OriPerformLiveDead] [swap x6] [OriCopyProp] [cpy1] [dce1]
//! [OriPerformLiveDead] [OriCopyProp] [cpy2] [dce2]
//! [OriPerformLiveDead] [OriCopyProp] [cpy3] [dce3] [OriPerformLiveDead]
//! ```
//!
//! with swap = OriSwapOperands (140), cpy = OriLocalCopyForward (141),
//! dce = OriDeadCodeScan (142), OriPerformLiveDead = 143, OriCopyProp =
//! 144: 19 entries.
//!
//! The three modes, as ptxas's recovered pseudocode has them:
//!
//! - NamedPhases: 304 slots; slot `i < 243` is `p<i>` when given, else
//!   `base[i + 13]` (158 past the end of this base, which is shorter than
//!   ptxas's); slots 243..=303 get the hardcoded opcodes `i + 13`
//!   (256..=316: the description says 256..303 for the same 61 slots, which cannot
//!   both hold; the `i + 13` offset is the one its code shows). Opcodes
//!   past the table run as NOPs.
//! - shuffle: for each base entry `i`, OriPerformLiveDead first when `i`
//!   equals dce1, dce2 or dce3, then OriCopyProp when `i` equals cpy1, cpy2
//!   or cpy3, then the entry; then `reps` rounds of six swaps: for round
//!   `r` and class `k`, `o = (swapk + r) % count` is exchanged with
//!   `(o + r + 1) % count`.
//! - default: the base, copied.
//!
//! The diff: the popcount of `dest[i] ^ original[i]` summed over the
//! sequence, with the original the base padded with zeros (ptxas's
//! zero-initialized array); `modified` when it is not 0.

use super::knob::{OriKnobs, OriMode, NAMED_SLOTS};
use crate::phases::table::{self, lookup, NOP};

/// OriSwapOperands, OriLocalCopyForward, OriDeadCodeScan,
/// OriPerformLiveDead, OriCopyProp (the table's rows, as opcodes).
const SWAP: i32 = table::ORI_SWAP_OPERANDS as i32;
const CPY: i32 = table::ORI_LOCAL_COPY_FORWARD as i32;
const DCE: i32 = table::ORI_DEAD_CODE_SCAN as i32;
const LIVE_DEAD: i32 = table::ORI_PERFORM_LIVE_DEAD as i32;
const COPY_PROP: i32 = table::ORI_COPY_PROP as i32;

/// The default ORI sequence (see the module comment).
pub const BASE: [i32; 19] = [
    LIVE_DEAD, SWAP, SWAP, SWAP, SWAP, SWAP, SWAP, COPY_PROP, CPY, DCE, LIVE_DEAD, COPY_PROP, CPY,
    DCE, LIVE_DEAD, COPY_PROP, CPY, DCE, LIVE_DEAD,
];

/// NamedPhases' slot count.
pub const NAMED_COUNT: usize = 304;

/// A built sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OriSequence {
    pub mode: OriMode,
    pub opcodes: Vec<i32>,
    /// The popcount diff against the base.
    pub diff_bits: u32,
    /// Whether custom options were given (ptxas's knob 298).
    pub has_options: bool,
}

impl OriSequence {
    pub fn modified(&self) -> bool {
        self.diff_bits != 0
    }

    /// The `--phase-stats` line.
    pub fn summary(&self) -> String {
        format!(
            "ORI sequence: mode {}, {} entries, popcount diff against the default {} ({})",
            self.mode.name(),
            self.opcodes.len(),
            self.diff_bits,
            if self.modified() {
                "modified"
            } else {
                "unmodified"
            }
        )
    }
}

/// ptxas's diff: total set bits of `new[i] ^ old[i]` over `new`, with
/// `old` read as 0 past its end.
pub fn diff_bits(new: &[i32], old: &[i32]) -> u32 {
    let mut changes = 0;
    for (i, &n) in new.iter().enumerate() {
        let mut d = n ^ old.get(i).copied().unwrap_or(0);
        // popcount by clearing the lowest set bit, as ptxas does
        while d != 0 {
            d &= d - 1;
            changes += 1;
        }
    }
    changes
}

/// Builds the sequence the knobs ask for.
pub fn build(k: &OriKnobs) -> OriSequence {
    let mode = k.effective_mode();
    let opcodes = match mode {
        OriMode::NamedPhases => named(k),
        OriMode::Shuffle => shuffle(k),
        OriMode::Default => BASE.to_vec(),
    };
    OriSequence {
        mode,
        diff_bits: diff_bits(&opcodes, &BASE),
        opcodes,
        has_options: k.has_options(),
    }
}

fn named(k: &OriKnobs) -> Vec<i32> {
    let mut dest = Vec::with_capacity(NAMED_COUNT);
    for i in 0..NAMED_SLOTS {
        dest.push(match k.slots.get(&i) {
            Some(&v) => v as i32,
            None => BASE.get(i + 13).copied().unwrap_or(i32::from(NOP)),
        });
    }
    for i in NAMED_SLOTS..NAMED_COUNT {
        dest.push(i as i32 + 13);
    }
    dest
}

fn shuffle(k: &OriKnobs) -> Vec<i32> {
    let (reps, swap, cpy, dce) = k.shuffle_params();
    let live_dead = i32::from(lookup("OriPerformLiveDead"));
    let copy_prop = i32::from(lookup("OriCopyProp"));
    let mut dest = Vec::with_capacity(BASE.len() * 3);
    for (i, &op) in BASE.iter().enumerate() {
        let i = i as u32;
        if dce[1] == i || dce[0] == i || dce[2] == i {
            dest.push(live_dead);
        }
        if cpy[1] == i || cpy[0] == i || cpy[2] == i {
            dest.push(copy_prop);
        }
        dest.push(op);
    }
    let count = dest.len();
    for r in 0..reps as usize {
        for &s in &swap {
            let o = (s as usize + r) % count;
            let p = (o + r + 1) % count;
            dest.swap(o, p);
        }
    }
    dest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(s: &str) -> OriSequence {
        build(&OriKnobs::parse(s).unwrap())
    }

    /// The sequence's opcodes are phase indices (the numbers this file's
    /// comments and `diff_bits` tests use): OriSwapOperands 140,
    /// OriLocalCopyForward 141, OriDeadCodeScan 142, OriPerformLiveDead 143,
    /// OriCopyProp 144, the NOP sentinel 158.
    const N: i32 = NOP as i32;

    #[test]
    fn the_injected_names_look_up_to_the_base_opcodes() {
        assert_eq!(i32::from(lookup("OriPerformLiveDead")), LIVE_DEAD);
        assert_eq!(i32::from(lookup("oricopyprop")), COPY_PROP);
        assert_eq!(lookup("OriNoSuchPass"), NOP);
        // The numbers the bit-level tests below are written with.
        assert_eq!(
            [SWAP, CPY, DCE, LIVE_DEAD, COPY_PROP, N],
            [140, 141, 142, 143, 144, 158]
        );
    }

    #[test]
    fn default_mode_copies_the_base() {
        let s = build(&OriKnobs::default());
        assert_eq!(s.mode, OriMode::Default);
        assert_eq!(s.opcodes, BASE);
        assert_eq!(s.diff_bits, 0);
        assert!(!s.modified());
        assert!(!s.has_options);
        // Keys the default mode does not read still count as options.
        let s = seq("reps=3");
        assert_eq!(s.opcodes, BASE);
        assert!(s.has_options && !s.modified());
    }

    #[test]
    fn shuffle_injects_as_the_pseudocode_does() {
        // dce2=5, cpy1=2; the absent dce1, dce3, cpy2, cpy3 read as 0.
        // i=0: dce1==0 -> 143, cpy2==0 -> 144, then base[0]=143
        // i=1: 140
        // i=2: cpy1==2 -> 144, then 140
        // i=3, i=4: 140, 140
        // i=5: dce2==5 -> 143, then 140
        // i=6: 140
        // i=7..18: the base's tail 144 141 142 143 144 141 142 143 144 141 142 143
        // reps absent = 0: no swaps. 19 + 4 = 23 entries.
        let s = seq("ori=shuffle,dce2=5,cpy1=2");
        assert_eq!(s.mode, OriMode::Shuffle);
        assert_eq!(
            s.opcodes,
            [
                LIVE_DEAD, COPY_PROP, LIVE_DEAD, SWAP, COPY_PROP, SWAP, SWAP, SWAP, LIVE_DEAD,
                SWAP, SWAP, COPY_PROP, CPY, DCE, LIVE_DEAD, COPY_PROP, CPY, DCE, LIVE_DEAD,
                COPY_PROP, CPY, DCE, LIVE_DEAD
            ]
        );
        assert!(s.modified());
    }

    #[test]
    fn one_injection_per_kind_even_when_several_rounds_match() {
        // dce1 = dce2 = dce3 = 1 inject one OriPerformLiveDead at i=1; the
        // cpy keys are absent (0): one OriCopyProp at i=0.
        let s = seq("shuffle=1,dce1=1,dce2=1,dce3=1");
        assert_eq!(
            &s.opcodes[..5],
            &[COPY_PROP, LIVE_DEAD, LIVE_DEAD, SWAP, SWAP]
        );
        assert_eq!(s.opcodes.len(), 21);
    }

    #[test]
    fn shuffle_swaps_as_the_pseudocode_does() {
        // Injections at 100 never match (19 base entries): count = 19.
        // base: 0:143 1..6:140 7:144 8:141 9:142 10:143 11:144 12:141
        //       13:142 14:143 15:144 16:141 17:142 18:143
        // r=0 (partner o+1): swap1 o=6: d6<->d7 (140,144) -> d6=144 d7=140
        //   swap2 o=7: d7<->d8 -> d7=141 d8=140; swap3 o=8: d8<->d9 -> d8=142 d9=140
        //   swap4 o=9: d9<->d10 -> d9=143 d10=140; swap5 o=17: d17<->d18 -> d17=143 d18=142
        //   swap6 o=18, partner 0: d18<->d0 -> d18=143 d0=142
        // after r=0: 142 140 140 140 140 140 144 141 142 143 140 144 141 142 143 144 141 143 143
        // r=1 (o=(s+1)%19, partner o+2): swap1 o=7,p=9: d7=143 d9=141
        //   swap2 o=8,p=10: d8=140 d10=142; swap3 o=9,p=11: d9=144 d11=141
        //   swap4 o=10,p=12: d10=141 d12=142; swap5 o=18,p=1: d18=140 d1=143
        //   swap6 o=0,p=2: d0=140 d2=142
        let s = seq(
            "ori=shuffle,reps=2,swap1=6,swap2=7,swap3=8,swap4=9,swap5=17,swap6=18,\
             dce1=100,dce2=100,dce3=100,cpy1=100,cpy2=100,cpy3=100",
        );
        assert_eq!(
            s.opcodes,
            [
                SWAP, LIVE_DEAD, DCE, SWAP, SWAP, SWAP, COPY_PROP, LIVE_DEAD, SWAP, COPY_PROP, CPY,
                CPY, DCE, DCE, LIVE_DEAD, COPY_PROP, CPY, LIVE_DEAD, SWAP
            ]
        );
        // The same multiset: swaps only permute.
        let (mut a, mut b) = (s.opcodes.clone(), BASE.to_vec());
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
    }

    #[test]
    fn named_phases_fills_304_slots() {
        // slot 0 = p0 = 16; slots 1..4 = base[14..18] = 143 144 141 142;
        // slot 5 = p5 = 142; slots 6..242: base[19..] is past the end -> 158;
        // slots 243..303 = 256..316.
        let s = seq("ori=NamedPhases,p0=16,p5=142");
        assert_eq!(s.mode, OriMode::NamedPhases);
        assert_eq!(s.opcodes.len(), 304);
        let first = i32::from(crate::phases::table::index_of("OriPerformLiveDeadFirst"));
        assert_eq!(first, 16);
        assert_eq!(
            &s.opcodes[..7],
            &[first, LIVE_DEAD, COPY_PROP, CPY, DCE, DCE, N]
        );
        assert!(s.opcodes[6..243].iter().all(|&o| o == N));
        assert_eq!(s.opcodes[243], 256);
        assert_eq!(s.opcodes[303], 316);
        // Without an override, slot 0 is base[13].
        assert_eq!(seq("NamedPhases=1").opcodes[0], DCE);
    }

    #[test]
    fn the_diff_is_a_popcount_of_xors() {
        assert_eq!(diff_bits(&[1, 2, 3], &[1, 3, 3]), 1);
        // 158 = 0b1001_1110 against the zero padding: 5 bits.
        assert_eq!(diff_bits(&[1, N], &[1]), 5);
        assert_eq!(diff_bits(&[], &[7]), 0);
        // 143 ^ 144 = 0b0001_1111 -> 5 bits; 140 ^ 143 = 0b11 -> 2.
        assert_eq!(diff_bits(&[COPY_PROP, LIVE_DEAD], &[LIVE_DEAD, SWAP]), 7);
        // The shuffle example of `shuffle_injects_as_the_pseudocode_does`,
        // first three entries against the base's: 143^143=0,
        // 144^140=0b11100 (3), 143^140 (2) -> 5 over that prefix.
        assert_eq!(diff_bits(&[LIVE_DEAD, COPY_PROP, LIVE_DEAD], &BASE[..3]), 5);
    }

    #[test]
    fn the_summary_line() {
        assert_eq!(
            build(&OriKnobs::default()).summary(),
            "ORI sequence: mode default, 19 entries, popcount diff against the default 0 (unmodified)"
        );
        assert!(seq("ori=shuffle,dce1=3").summary().ends_with("(modified)"));
    }
}
