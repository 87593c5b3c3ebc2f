//! The opcode table: the single source of truth for every SASS opcode the
//! IR knows (docs/MODEL.md, Opcode table).
//!
//! One row per opcode ([`table.rs`](table)): its mnemonic, its index in the
//! ptxas's ROT13 name table where it has one, its category (ptxas's
//! "Opcode Categories"), its operand shapes ([`shape`]), the dotted modifiers
//! it accepts (each with the first SM that has it where that is later than
//! the opcode's: `HFMA2.BF16_V2` from sm_80, [`OpcodeInfo::mod_first_sm`]),
//! its side effects (what makes it un-removable), its latency class, and
//! the first SM that has it. Whether a target can execute an instruction
//! is [`Op::lacking`] of its opcode and modifiers: the lowering's
//! refusal, ConvertUnsupportedOps, the verifier, the SASS reader and the
//! simulator's fault all ask it. The SASS parser, the printer, the
//! verifier, the SM table's availability checks and the simulator's decoder
//! all read these rows; nothing else lists opcodes.
//!
//! ptxas's internal variants that SASS spells as one mnemonic plus a
//! modifier (`IMAD_WIDE` = `IMAD.WIDE`, `HADD2_F32` = `HADD2.F32`,
//! `CS2R_32`/`CS2R_64` = `CS2R[.32]`, `BAR_INDEXED` = `BAR` with a register,
//! `F2F_X` ...) are one row here, keyed by the SASS mnemonic; the row keeps
//! ptxas's index of the base form.

mod shape;
mod table;

pub use shape::{kind_matches, match_shape, unnamed, ShapeError, ShapeMatch};
pub use table::{Op, FOLDED_SEED_VARIANTS, OPCODES};

use crate::targets::SmInfo;

/// ptxas's opcode categories.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    IntAlu,
    Fp32,
    Fp64,
    Fp16,
    Conversion,
    DataMovement,
    SpecialFunction,
    Predicate,
    MemGlobal,
    MemShared,
    MemLocal,
    MemConstant,
    Atomic,
    Texture,
    Surface,
    Control,
    Sync,
    Warp,
    Tensor,
    Uniform,
    /// Graphics-pipeline, debug and compiler-internal opcodes that compute
    /// kernels never run.
    Other,
}

/// Side effects: what makes an instruction un-removable even when nothing
/// reads its destinations ([`OpcodeInfo::has_side_effects`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Effects(pub u16);

impl Effects {
    pub const NONE: Effects = Effects(0);
    /// Reads memory (removable when unused, but ordered against stores).
    pub const LOAD: Effects = Effects(1 << 0);
    pub const STORE: Effects = Effects(1 << 1);
    pub const ATOMIC: Effects = Effects(1 << 2);
    /// CTA-wide barrier (`BAR`).
    pub const BARRIER: Effects = Effects(1 << 3);
    /// Memory ordering point (`MEMBAR`, `DEPBAR`, `ERRBAR`).
    pub const FENCE: Effects = Effects(1 << 4);
    /// Warp convergence or collective control (`WARPSYNC`, `BSSY`, `BSYNC`, `BMOV`).
    pub const CONVERGENCE: Effects = Effects(1 << 5);
    /// Transfers control (`BRA`, `BRX`, `JMP`, `CALL`, `RET`, `EXIT`, ...).
    pub const CONTROL: Effects = Effects(1 << 6);
    /// Kept by ptxas's dead-code check although it looks pure
    /// (docs/MODEL.md, Removability: it excludes `OUT_FINAL` (93), `DMUL` (124) and one sm_90
    /// opcode (248)), or whose removal the hardware would notice
    /// (performance-monitor triggers, traps, nanosleep).
    pub const KEEP: Effects = Effects(1 << 7);
    /// Exchanges data between the lanes of a warp (`SHFL`, `VOTE`, `MATCH`,
    /// `REDUX`, and `R2UR`, which reads one active lane's register into a
    /// uniform register: the texture handle loop's `R2UR` names the handle
    /// of the lanes still active on that trip, so hoisting it out of the
    /// loop makes the loop spin forever): removable when unused, but never
    /// moved across divergence.
    pub const WARP: Effects = Effects(1 << 8);

    pub const fn union(self, o: Effects) -> Effects {
        Effects(self.0 | o.0)
    }
    pub const fn contains(self, o: Effects) -> bool {
        self.0 & o.0 == o.0
    }
    pub const fn intersects(self, o: Effects) -> bool {
        self.0 & o.0 != 0
    }
}

/// Fixed-latency opcodes complete in a known number of cycles; variable
/// ones (memory, MUFU, conversions, S2R, ...) are tracked by scoreboards.
/// The split matches the vendor SASS: every opcode marked `Variable` sets a
/// read or write scoreboard in its control bits in at least one corpus
/// instance, and no `Fixed` one does (tests/ir_opcode_table.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Latency {
    Fixed,
    Variable,
}

/// One row of the opcode table.
#[derive(Debug)]
pub struct OpcodeInfo {
    /// The SASS mnemonic, as cuobjdump prints it.
    pub name: &'static str,
    /// The index in ptxas's ROT13 opcode name table, where it lists one.
    pub seed_index: Option<u16>,
    pub category: Category,
    /// The first SM generation that has the opcode (ptxas's generation
    /// boundaries, refined by the vendor SASS where noted in the table).
    pub first_sm: u32,
    pub latency: Latency,
    pub effects: Effects,
    /// Operand shapes, tried in order (see [`shape`]). `*` accepts anything:
    /// the opcode's form is not modelled.
    pub shapes: &'static [&'static str],
    /// Every dotted modifier the opcode accepts.
    pub mods: &'static [&'static str],
    /// The modifiers that exist only from a later SM than the opcode,
    /// each with its first SM (the table's `"M" @ N`).
    pub mod_first_sm: &'static [(&'static str, u32)],
}

/// What a target lacks of an instruction ([`Op::lacking`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lacking {
    /// The opcode itself (first SM attached).
    Opcode(Op, u32),
    /// A modifier of an opcode the target has (first SM attached).
    Modifier(Op, &'static str, u32),
}

impl Lacking {
    /// `HFMA2.BF16_V2` / `REDUX`: what a listing spells.
    pub fn spelled(&self) -> String {
        match *self {
            Lacking::Opcode(op, _) => op.name().to_string(),
            Lacking::Modifier(op, m, _) => format!("{op}.{m}"),
        }
    }

    /// The opcode concerned.
    pub fn op(&self) -> Op {
        match *self {
            Lacking::Opcode(op, _) | Lacking::Modifier(op, _, _) => op,
        }
    }

    /// "HFMA2.BF16_V2 does not exist on sm_75 (from sm_80)".
    pub fn message(&self, sm: &SmInfo) -> String {
        let from = match *self {
            Lacking::Opcode(_, f) | Lacking::Modifier(_, _, f) => f,
        };
        format!(
            "{} does not exist on {} (from sm_{from})",
            self.spelled(),
            sm.name
        )
    }
}

impl OpcodeInfo {
    /// Whether removing the instruction could change what a program does,
    /// whatever its destinations' uses.
    pub fn has_side_effects(&self) -> bool {
        self.effects.intersects(
            Effects::STORE
                .union(Effects::ATOMIC)
                .union(Effects::BARRIER)
                .union(Effects::FENCE)
                .union(Effects::CONVERGENCE)
                .union(Effects::CONTROL)
                .union(Effects::KEEP),
        )
    }

    /// The `'static` spelling of `m` if the opcode accepts it.
    pub fn find_mod(&self, m: &str) -> Option<&'static str> {
        self.mods.iter().copied().find(|&x| x == m)
    }

    /// The first SM that has `.m` on this opcode: the modifier's own mark
    /// in the table, else the opcode's first SM.
    pub fn mod_first_sm(&self, m: &str) -> u32 {
        self.mod_first_sm
            .iter()
            .find(|&&(x, _)| x == m)
            .map_or(self.first_sm, |&(_, n)| n.max(self.first_sm))
    }

    /// Whether the shapes are modelled (not `*`).
    pub fn is_modelled(&self) -> bool {
        self.shapes != ["*"]
    }
}

impl Op {
    pub fn info(self) -> &'static OpcodeInfo {
        &OPCODES[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The opcode spelled `name`, if the table has it.
    pub fn from_name(name: &str) -> Option<Op> {
        table::by_name(name)
    }

    /// Whether `sm` has this opcode.
    pub fn available_on(self, sm: &SmInfo) -> bool {
        sm.sm >= self.info().first_sm
    }

    /// Whether this opcode is one of [`EXPANDED_WHERE_MISSING`]: emitted by
    /// the lowering on every target and replaced by phase 5
    /// ConvertUnsupportedOps where the target lacks it.
    pub fn expanded_where_missing(self) -> bool {
        EXPANDED_WHERE_MISSING.contains(&self)
    }

    /// The first part of the instruction `self.mods` that `sm` lacks: the
    /// opcode, else the first modifier whose first SM is later than
    /// `sm` (the table's modifier marks). `None`: `sm` can execute it.
    pub fn lacking<S: AsRef<str>>(self, mods: &[S], sm: &SmInfo) -> Option<Lacking> {
        if !self.available_on(sm) {
            return Some(Lacking::Opcode(self, self.info().first_sm));
        }
        self.lacking_modifier(mods, sm)
    }

    /// The first modifier of `mods` that `sm` lacks on this opcode,
    /// whether or not `sm` has the opcode.
    pub fn lacking_modifier<S: AsRef<str>>(self, mods: &[S], sm: &SmInfo) -> Option<Lacking> {
        let info = self.info();
        mods.iter().find_map(|m| {
            let m = m.as_ref();
            let &(name, first) = info.mod_first_sm.iter().find(|&&(x, _)| x == m)?;
            (sm.sm < first).then_some(Lacking::Modifier(self, name, first))
        })
    }

    /// Every opcode, in table order.
    pub fn all() -> impl Iterator<Item = Op> {
        (0..OPCODES.len()).map(|i| table::ALL[i])
    }
}

impl std::fmt::Display for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The opcodes the lowering emits on every target and phase 5
/// ConvertUnsupportedOps replaces by a sequence where the target lacks
/// them (`REDUX` for `redux.sync`, `I2FP` for a 32-bit int -> f32 `cvt`):
/// the lowering (`Builder::emit`), the IR verifier (before conversion) and
/// the phase's `CONVERSIONS` all read this one list.
pub const EXPANDED_WHERE_MISSING: &[Op] = &[Op::REDUX, Op::I2FP];

#[cfg(test)]
mod tests {
    use super::Op;
    use crate::targets::lookup_sm;

    #[test]
    fn opcode_availability_follows_generations() {
        let on = |op: Op, sm: &str| op.available_on(lookup_sm(sm).unwrap());
        assert!(on(Op::IMAD, "sm_70") && on(Op::BSSY, "sm_70"));
        assert!(!on(Op::ULDC, "sm_70") && on(Op::ULDC, "sm_75"));
        assert!(!on(Op::I2FP, "sm_80") && on(Op::I2FP, "sm_86"));
        assert!(!on(Op::REDG, "sm_86") && on(Op::REDG, "sm_90"));
    }
}
