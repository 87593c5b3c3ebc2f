//! Which memory a generic-address `ATOM`/`RED` acts on, by its SASS
//! operation and type modifiers: the one rule that the lowering
//! (compiler/src/lower/atom_generic.rs, atom_spin.rs) and the SASS
//! simulator (oracle/src/sim: `ATOM` decode and exec/mem.rs `atomic`) share.
//!
//! Source: ptxas 11.8 (`-O3`, sm_70, 75, 80, 86, 89, 90, every target
//! alike) on one kernel per generic `atom`/`red` form that PTX allows
//! (script and per-form summary: oracle/tests/atom_generic_vendor/measure/;
//! listings: oracle/tests/atom_generic_vendor/*.sass). ptxas writes the
//! generic `ATOM` with `PT` as its predicate destination when the hardware
//! performs it on every space, and with `P0` followed by `@P0 BRA done`
//! and a software fallback where it may not:
//!
//! | PTX form (generic address) | SASS | fallback | reach |
//! |---|---|---|---|
//! | add.u32/.s32, min/max.u32/.s32, inc/dec.u32, and/or/xor.b32, exch.b32, cas.b32 | `ATOM.E.<op>[.S32] PT, ...` | none | [`Reach::All`] |
//! | add.noftz.f16/.bf16 (bf16: sm_90) | a 32-bit `ATOM.E.CAS PT` loop (lower/atom16.rs) | none | [`Reach::All`] |
//! | exch.b64, cas.b64 | `ATOM.E.EXCH.64`/`CAS.64 P0, ...` | `LD.E.64`/`ST.E.64` (local) | [`Reach::NotLocal`] |
//! | add.u64, min/max.u64/.s64, and/or/xor.b64 | `ATOM.E.<op>.64`/`.S64 P0, ...` | `QSPC.E.S`: `ATOMS.CAST.SPIN.64` loop (shared), `LD`/`ST` (local) | [`Reach::Global`] |
//! | add.f32 | `ATOM.E.ADD.F32.FTZ.RN P0, ...` | `QSPC.E.S`: `ATOMS.CAST.SPIN` loop on `FADD`, local `FADD` | [`Reach::Global`] |
//! | add.f64 | `ATOM.E.ADD.F64.RN P0, ...` | the same with `.64`, `DADD` | [`Reach::Global`] |
//! | add.noftz.f16x2/.bf16x2 | `ATOM.E.ADD.F16x2/.BF16x2.RN P0, ...` | the same, `HADD2` | [`Reach::Global`] |
//!
//! Not measured: the sm_90 `.noftz` min/max on f16/bf16 and their x2
//! forms (the script spells them without `.noftz`, which ptxas refuses).
//! (`red` forms alike, with `RZ` for the old value; sm_80+ turn
//! `red.{and,or,xor,min,max}.b32/u32/s32` into warp `REDUX` + one plain
//! `ATOM`.) A fallback is only correct if the hardware did not perform
//! the operation on those addresses: the guarded `ATOM` performs on the
//! spaces of its reach and clears its predicate for the other lanes,
//! leaving memory and its old-value register unchanged (UNCONFIRMED on
//! hardware beyond what ptxas's code implies).

/// The spaces a generic `ATOM`/`RED` performs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Every space (ptxas writes `PT` and no fallback).
    All,
    /// Global and shared addresses; local ones clear the predicate.
    NotLocal,
    /// Global addresses only; shared and local ones clear the predicate.
    Global,
}

/// The reach of a generic `ATOM`/`RED` with operation `op` (`"ADD"`,
/// `"MIN"`, ..., `"EXCH"`, `"CAS"`) and type modifier `ty` (`None` for
/// the unsigned 32-bit default, else `"S32"`, `"64"`, `"S64"`, `"F32"`,
/// `"F64"`, `"F16x2"`, `"BF16x2"`). See the module doc for the source.
pub fn generic_reach(op: &str, ty: Option<&str>) -> Reach {
    match ty {
        Some("F32" | "F64" | "F16x2" | "BF16x2") => Reach::Global,
        Some("64" | "S64" | "U64") => match op {
            "EXCH" | "CAS" => Reach::NotLocal,
            _ => Reach::Global,
        },
        _ => Reach::All,
    }
}

/// Whether the shared-memory `ATOMS` has operation `op` on type `ty` (the
/// arguments of [`generic_reach`]): exactly the forms whose generic `ATOM`
/// reaches shared memory. ptxas 11.8 (sm_80, sm_90 measured on
/// `atom.shared.*`) writes `ATOMS.<op>` for the 32-bit forms and
/// `exch`/`cas.b64` (`ATOMS.EXCH.64`, `ATOMS.CAS.64`), and an
/// `LDS`/`ATOMS.CAST.SPIN[.64]` loop for 64-bit add/min/max/and/or/xor and
/// f32/f64 add, the forms whose generic fallback is that same loop
/// (lower/atom_generic.rs); f16x2/bf16x2 likewise (lower/atom_spin.rs).
pub fn shared_has(op: &str, ty: Option<&str>) -> bool {
    generic_reach(op, ty) != Reach::Global
}

/// The type modifier among `mods` that [`generic_reach`] reads.
pub fn reach_type_mod<'a>(mods: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    mods.into_iter().find(|m| {
        matches!(
            *m,
            "S32" | "64" | "S64" | "U64" | "F32" | "F64" | "F16x2" | "BF16x2"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spot checks of the measured table (module doc).
    #[test]
    fn measured_rows() {
        assert_eq!(generic_reach("ADD", None), Reach::All);
        assert_eq!(generic_reach("MAX", Some("S32")), Reach::All);
        assert_eq!(generic_reach("CAS", None), Reach::All);
        assert_eq!(generic_reach("EXCH", Some("64")), Reach::NotLocal);
        assert!(shared_has("CAS", Some("64")) && shared_has("MIN", Some("S32")));
        assert!(!shared_has("ADD", Some("64")) && !shared_has("ADD", Some("F32")));
        assert!(!shared_has("XOR", Some("64")) && !shared_has("MAX", Some("S64")));
        assert_eq!(generic_reach("CAS", Some("64")), Reach::NotLocal);
        assert_eq!(generic_reach("ADD", Some("64")), Reach::Global);
        assert_eq!(generic_reach("MIN", Some("S64")), Reach::Global);
        assert_eq!(generic_reach("XOR", Some("64")), Reach::Global);
        assert_eq!(generic_reach("ADD", Some("F32")), Reach::Global);
        assert_eq!(generic_reach("ADD", Some("F64")), Reach::Global);
        assert_eq!(generic_reach("ADD", Some("BF16x2")), Reach::Global);
        assert_eq!(
            reach_type_mod(["E", "ADD", "F32", "FTZ", "RN"]),
            Some("F32")
        );
        assert_eq!(reach_type_mod(["E", "INC", "STRONG", "GPU"]), None);
    }
}
