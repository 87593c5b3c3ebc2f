//! The register units an instruction defines and uses.
//!
//! A register unit is one 32-bit register or one predicate: a 64-bit value
//! in `R4:R5` is two units, `R4` and `R5`; a 128-bit one four. The zero and
//! true registers (`RZ`, `URZ`, `PT`, `UPT`) are never units: writes to them
//! are discarded and reads give a constant.
//!
//! [`defs`] are the units written by the destination operands (the first
//! `ndst` operands, as the opcode table's shapes split them, ptxas's
//! "destinations first" operand array). [`uses`] are the units read: source
//! register and predicate operands, the address registers inside memory
//! (`[R2.64+UR4]`, `desc[UR4]`), constant (`c[0x3][R9]`) and relative
//! (`BRX R2 -0x860`) operands — wherever they stand, destinations included
//! —, and the guard predicate.
//!
//! How many units a register operand covers comes from one table-driven
//! function, [`operand_width`]; each rule is documented there next to its
//! code, with the vendor evidence where the width is not written in the
//! text.
//!
//! Conservative corners (the analyses stay sound, never optimistic):
//! - a guarded instruction's definitions are partial: when the guard is
//!   false the old value survives, so liveness must not let them kill
//!   ([`kills`]); they still count as definitions;
//! - `CALL` reads every register as far as this file can tell: the ABI
//!   between a kernel and the `.func` bodies ptxas appends is not written
//!   down anywhere ([`reads_all_registers`]). Liveness refines this when the
//!   callee's code is in the function (see `liveness.rs`);
//! - an `UNDECODED` slot (an sm_90 encoding cuobjdump 11.8 printed without
//!   text) and the opcodes whose shapes the table does not model (`*`) may
//!   read anything: [`reads_all_registers`] is true for them, and their
//!   definitions are unknown (none are reported, which is the safe side for
//!   dead-code elimination);
//! - `P2R` reads, and `R2P` writes, the predicate file as a whole (the `PR`
//!   operand the text spells); P2R is treated as reading every predicate,
//!   R2P's writes are not reported.

use smallvec::SmallVec;

use super::inst::{Inst, Operand};
use super::opcode::Op;
use super::sass_text::{Pred, Reg};

/// One register unit: a 32-bit register or a predicate, physical or
/// virtual. `RZ`, `URZ`, `PT` and `UPT` have no unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegUnit {
    /// General register `R0..R254`.
    R(u8),
    /// Virtual general register `%rN`.
    VR(u32),
    /// Uniform register `UR0..UR62`.
    UR(u8),
    /// Virtual uniform register `%urN`.
    VUR(u32),
    /// Predicate `P0..P6`.
    P(u8),
    /// Virtual predicate `%pN`.
    VP(u32),
    /// Uniform predicate `UP0..UP6`.
    UP(u8),
    /// Virtual uniform predicate `%upN`.
    VUP(u32),
}

/// The register files, for filtering units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegFile {
    General,
    Uniform,
    Predicate,
    UniformPredicate,
}

impl RegUnit {
    pub fn file(self) -> RegFile {
        match self {
            RegUnit::R(_) | RegUnit::VR(_) => RegFile::General,
            RegUnit::UR(_) | RegUnit::VUR(_) => RegFile::Uniform,
            RegUnit::P(_) | RegUnit::VP(_) => RegFile::Predicate,
            RegUnit::UP(_) | RegUnit::VUP(_) => RegFile::UniformPredicate,
        }
    }

    pub fn is_virtual(self) -> bool {
        matches!(
            self,
            RegUnit::VR(_) | RegUnit::VUR(_) | RegUnit::VP(_) | RegUnit::VUP(_)
        )
    }

    /// The unit of a predicate, `None` for `PT`/`UPT`.
    pub fn of_pred(p: Pred) -> Option<RegUnit> {
        match p {
            Pred::P(n) => Some(RegUnit::P(n)),
            Pred::Up(n) => Some(RegUnit::UP(n)),
            Pred::V(n) => Some(RegUnit::VP(n)),
            Pred::Uv(n) => Some(RegUnit::VUP(n)),
            Pred::Pt | Pred::Upt => None,
        }
    }

    /// The `k`-th unit of a register operand starting at `r` (`R4`, k=1 is
    /// `R5`); `None` for `RZ`/`URZ` and for numbers past the file's end.
    pub fn of_reg(r: Reg, k: u8) -> Option<RegUnit> {
        let k32 = u32::from(k);
        match r {
            Reg::R(n) => u8::try_from(u32::from(n) + k32)
                .ok()
                .filter(|&m| m <= 254)
                .map(RegUnit::R),
            Reg::Ur(n) => u8::try_from(u32::from(n) + k32)
                .ok()
                .filter(|&m| m <= 62)
                .map(RegUnit::UR),
            Reg::V(n) => n.checked_add(k32).map(RegUnit::VR),
            Reg::Uv(n) => n.checked_add(k32).map(RegUnit::VUR),
            Reg::Rz | Reg::Urz => None,
        }
    }
}

impl std::fmt::Display for RegUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegUnit::R(n) => write!(f, "R{n}"),
            RegUnit::VR(n) => write!(f, "%r{n}"),
            RegUnit::UR(n) => write!(f, "UR{n}"),
            RegUnit::VUR(n) => write!(f, "%ur{n}"),
            RegUnit::P(n) => write!(f, "P{n}"),
            RegUnit::VP(n) => write!(f, "%p{n}"),
            RegUnit::UP(n) => write!(f, "UP{n}"),
            RegUnit::VUP(n) => write!(f, "%up{n}"),
        }
    }
}

/// A short list of units (most instructions touch few).
pub type Units = SmallVec<[RegUnit; 8]>;

fn has_any(inst: &Inst, mods: &[&str]) -> bool {
    inst.mods.iter().any(|m| mods.contains(m))
}

/// The width, in 32-bit registers, that a `.8 .. .128` / `.U8 .. .64` size
/// modifier gives a memory or constant access: `.64` is a pair, `.128` a
/// quad, everything else (`.U8`, `.S16`, `.32`, none) one register.
fn size_width(inst: &Inst) -> u8 {
    if inst.has_mod("128") {
        4
    } else if has_any(inst, &["64", "S64", "U64", "F64"]) {
        2
    } else {
        1
    }
}

/// Whether a memory operand of `inst` is a 64-bit (generic or global)
/// address. `[R2.64]` says so in the text. The global-memory opcodes with
/// `.E` ("extended", 64-bit addressing) use a 64-bit address whatever the
/// text shows: cuobjdump prints `[R2]` for it on sm_70/sm_75 (all
/// `LDG.E`/`STG.E`) and for `ATOMG`/`RED` on every SM; the address is
/// built with a carry pair (`IADD3 R4, P0, ...` + `IADD3.X R5, ...`) in
/// each such listing.
fn mem_is_wide(inst: &Inst, base_wide: bool) -> bool {
    base_wide
        || (inst.has_mod("E")
            && matches!(
                inst.op,
                Op::LDG | Op::STG | Op::LD | Op::ST | Op::ATOM | Op::ATOMG | Op::RED | Op::REDG
            ))
}

/// The coordinate registers of a surface access's `[Rc]`: `x` (bytes),
/// then `y`, `z` for `.2D`/`.3D` (ptxas 11.8: `SULD.D.BA.3D.128.STRONG.SM.IGN
/// R4, [R4], R12` after `MOV R4, R2 ; MOV R5, R3 ; MOV R6, R3`,
/// oracle/tests/surf_vendor/surf_ld.O0.sm_80.sass); the arrays add the
/// layer index after them: `.1D_ARRAY` `[x, layer]`, `.2D_ARRAY` `[x, y,
/// layer]` (`SULD.D.BA.2D_ARRAY.64.STRONG.SM.IGN R2, [R12]` with R12 = x,
/// R13 = y, R14 = the index, surf_vendor/surf_array2.sm_80.sass).
fn surface_dims(inst: &Inst) -> u8 {
    if inst.has_mod("2D_ARRAY") {
        3
    } else if inst.has_mod("1D_ARRAY") {
        2
    } else if inst.has_mod("3D") {
        3
    } else if inst.has_mod("2D") {
        2
    } else {
        1
    }
}

/// The number of channels a texture instruction returns: the popcount of
/// its last integer immediate (the channel mask, `0x1` = R, `0xf` = RGBA).
fn tex_channels(inst: &Inst) -> u8 {
    // A fetch's mask follows its shape operand; ptxas omits it for all four
    // channels (`TLD.SCR.LZ R6, R4, R4, R6, 0x0, 0x58, ARRAY_2D`,
    // oracle/tests/tex_array_vendor/). TXQ's mask is its last immediate.
    let after_shape = inst
        .operands
        .iter()
        .position(|o| matches!(o, Operand::TexShape(_)));
    let mask = match after_shape {
        Some(t) => match inst.operands.get(t + 1) {
            Some(Operand::Imm(m)) => Some(*m),
            _ => None,
        },
        None => inst.operands.iter().rev().find_map(|o| match o {
            Operand::Imm(m) => Some(*m),
            _ => None,
        }),
    };
    mask.map_or(4, |m| (m & 0xf).count_ones() as u8)
}

/// The coordinates within one image of a texture shape operand (`1D`,
/// `2D`, `3D`, `ARRAY_1D`, `ARRAY_2D`) and whether an array index comes
/// first.
fn tex_geometry(inst: &Inst) -> (u8, bool) {
    inst.operands
        .iter()
        .find_map(|o| match o {
            Operand::TexShape(s) => {
                let (layered, d) = match s.strip_prefix("ARRAY_") {
                    Some(d) => (true, d),
                    None => (false, s.as_str()),
                };
                d[..1].parse::<u8>().ok().map(|n| (n, layered))
            }
            _ => None,
        })
        .unwrap_or((3, false))
}

/// The width of source `src` of a texture fetch (TEX, TLD, TLD4). The
/// values [array index, coordinates, LOD (`.LL`) or texel offsets
/// (`.AOFFI`)] fill two register groups Ra and Rb, then comes the handle
/// (ptxas 11.8, oracle/tests/tex_array_vendor/; the simulator's
/// `decode_tex` reads the same layout):
/// * `.SCR` (slot) forms: Ra the first two values, at most the index and
///   coordinates, Rb (when printed) the rest (`TEX.SCR.LL R6, R4, R4, R10,
///   ..., ARRAY_2D`: R4 = index, R5 = x, R10 = y, R11 = LOD;
///   `TLD.SCR.LZ.AOFFI RZ, R8, R8, R23, ..., 2D`: R23 the offsets; a 1D
///   `.AOFFI` fetch has x alone in Ra); with two values in all, Ra holds
///   the first and Rb the second (`TLD.SCR.LZ P1, R22, R20, R7, R6, ...,
///   2D`: x = R7, y = R6; `TLD4.SCR.R P5, R10, R8, R9, R8, ..., 2D`,
///   oracle/tests/tex_resident_vendor/resident.sm_80.O3.sass); without
///   Rb, Ra holds every value;
/// * handle forms (`UR4` or an sm_70 general-register handle, the last
///   register source): Ra the index and coordinates, Rb the rest (`TEX.LL
///   R6, R4, R4, R7, UR4, 0x0, ARRAY_2D`); a uniform handle is a pair,
///   a general-register handle its low word.
fn tex_src_width(inst: &Inst, src: usize, uniform: bool) -> u8 {
    let (dims, layered) = tex_geometry(inst);
    let coords = dims + u8::from(layered);
    let n = coords + u8::from(inst.has_mod("LL") || inst.has_mod("AOFFI"));
    let nregs = inst
        .srcs()
        .iter()
        .take_while(|o| matches!(o, Operand::Reg(_)))
        .count();
    if inst.has_mod("SCR") {
        let ra = if n == 2 { 1 } else { coords.min(2) };
        match src {
            0 if nregs >= 2 => ra,
            0 => n,
            _ => n.saturating_sub(ra).max(1),
        }
    } else if src + 1 == nregs {
        if uniform {
            2
        } else {
            1
        }
    } else {
        match src {
            0 if nregs >= 3 => coords,
            0 => n,
            _ => n.saturating_sub(coords).max(1),
        }
    }
}

/// The width of source `src` of a `TXD` (gradient fetch, ptxas 11.8,
/// compiler/src/lower/tex_lod.rs): Ra holds the coordinates then the
/// array index, Rb the gradients (two per dimension), in the slot form
/// (`TXD R26, R24, R20, R24, 0x0, 0x5a, ARRAY_2D`: Ra = x, y, index; Rb =
/// 4 gradients) and the handle forms (`TXD R30, R28, R20, R28, UR6, 0x0,
/// ARRAY_2D`; the last register source is the handle: a uniform pair or an
/// sm_70 general-register low word).
fn txd_src_width(inst: &Inst, src: usize, uniform: bool) -> u8 {
    let (dims, layered) = tex_geometry(inst);
    let nregs = inst
        .srcs()
        .iter()
        .take_while(|o| matches!(o, Operand::Reg(_)))
        .count();
    match src {
        0 => dims + u8::from(layered),
        1 => 2 * dims,
        _ if uniform => 2,
        _ => {
            debug_assert_eq!(src + 1, nregs);
            1
        }
    }
}

/// Float type modifiers of the conversions, in text order.
fn float_types<'a>(inst: &'a Inst) -> impl Iterator<Item = &'static str> + 'a {
    inst.mods
        .iter()
        .copied()
        .filter(|m| matches!(*m, "F16" | "F32" | "F64" | "BF16"))
}

fn int_types<'a>(inst: &'a Inst) -> impl Iterator<Item = &'static str> + 'a {
    inst.mods.iter().copied().filter(|m| {
        matches!(
            *m,
            "U8" | "S8" | "U16" | "S16" | "U32" | "S32" | "U64" | "S64"
        )
    })
}

fn w64(t: Option<&str>) -> u8 {
    match t {
        Some("F64" | "U64" | "S64") => 2,
        _ => 1,
    }
}

/// The register alignment of a `width`-register operand: a pair starts at
/// an even register, a 3- or 4-register group (128-bit values, 3-component
/// texture/surface data) at a multiple of 4, as every ptxas 11.8 listing in
/// the corpus places them (`STG.E.128 [R2], R4`; surfaces:
/// `SUST.D.BA.3D.128.STRONG.SM.IGN [R12], R8, UR6, 0x0`, the 3D coordinates
/// at R12, oracle/tests/surf_vendor/surf_st.sm_90.sass). The verifier, the
/// register allocator and its checker all ask this.
pub fn alignment(width: u8) -> u32 {
    match width {
        0 | 1 => 1,
        2 => 2,
        w => u32::from(w).next_power_of_two(),
    }
}

/// How many consecutive 32-bit registers operand `idx` of `inst` covers:
/// for a register operand, the value's width; for a memory operand, the
/// address's (its base and index registers); 1 for a constant-bank or
/// relative operand's register; 0 for operands that hold no register
/// (immediates, labels, predicates count 1 but never pair).
///
/// The rules, by opcode (everything not listed is 32-bit):
///
/// | opcode | rule |
/// |---|---|
/// | `IMAD.WIDE`, `UIMAD.WIDE` (any `.U32`/`.X`) | destination and the addend (third source) 64-bit; the two factors 32-bit |
/// | `IMAD.HI`, `UIMAD.HI` | the addend (third source) 64-bit: the high word of `a * b + c64` (the simulator's semantics, which reproduce the hardware's outputs on i64_hash's 64-bit division, `IMAD.WIDE.U32 R18, P0, R16, R23, R18` then `IMAD.HI.U32 R18, P1, R17, R21, R18`; found when rescheduling moved a write of R19 above the IMAD.HI) |
/// | `DADD`, `DMUL`, `DFMA` | every register operand 64-bit |
/// | `DSETP` | register sources 64-bit (destinations are predicates) |
/// | `FRND` | both sides 64-bit with `.F64` |
/// | `F2F.DST.SRC` | the first float type is the destination's, the second the source's (`F2F.F32.F64`: 32 <- 64); a single type applies to both |
/// | `F2I` | float types (`.F64`) describe the source, integer types (`.S64`, `.U64`) the destination |
/// | `I2F` | float types describe the destination, integer types the source (`I2F.F64.S64`: 64 <- 64) |
/// | `MUFU` | 32-bit always: `.RCP64H`/`.RSQ64H` work on the high word only |
/// | `HADD2`, `HFMA2`, `HMUL2`, `HSET2`, `HSETP2`, `F2FP`, `I2FP` | 32-bit (packed halves) |
/// | `SHF`, `USHF` | 32-bit: `.U64`/`.S64` funnel shifts take the two halves as separate operands |
/// | `LDC`, `ULDC`, `LDS`, `LDG`, `LDL`, `LD` | destination by size: `.64` pair, `.128` quad |
/// | `STS`, `STG`, `STL`, `ST` | the data source by size |
/// | `ATOM`, `ATOMG`, `ATOMS`, `RED`, `REDG` | destination and data sources 64-bit with `.64`/`.S64`/`.U64`/`.F64` |
/// | memory operands | the address is 64-bit with `Rn.64`, or with `.E` on a global-memory opcode (see `mem_is_wide`); a uniform index register of a 64-bit address is 64-bit too (`[R6.64+UR4]` after `ULDC.64 UR4`, gather_2d.sm_75); a `.U32` base is one register (`[R0.U32+UR4]`, resinfo_probe.sm_75); a `desc[URn]` descriptor is always a pair |
/// | `CS2R` | destination 64-bit unless `.32` |
/// | `MATCH` | the source a pair with `.U64` (`MATCH.ANY.U64 R10, R10`, ptxas 11.8 for `match.any.sync.b64`) |
/// | `BRX`, `JMX` | the target register is 64-bit: ptxas sign-extends the offset into the odd register right before each `BRX` (`SHF.R.S32.HI R3, RZ, 0x1f, R2` + `BRX R2 -0x830`, switch_local) |
/// | `RET` | the return-address register is a 64-bit pair: the caller writes only the low half (`MOV R4, 0xc0` + `CALL.REL.NOINC`), and the callee zeroes the high half right before returning (`IMAD.MOV.U32 R5, RZ, RZ, 0x0` + `RET.REL.NODEC R4 0x0`, double_noinline, i64_hash, saxpy_div, sort_scan) |
/// | `SULD`, `SUST`, `SURED` | the data (destination of SULD, first source of SUST/SURED) by size (`.64`/`.U64` pair, `.128` quad; `SUST.P` by its component mask: `.R` 1, `.RG` 2, none 4); the address `[Rc]` holds 1, 2 or 3 coordinates by `.1D`/`.2D`/`.3D` (2 or 3 by `.1D_ARRAY`/`.2D_ARRAY`: the coordinates, then the layer); the handle register is one word |
/// | `TEX`, `TLD`, `TLD4`, `TXQ`, `TXD` | destinations: the mask (last immediate) gives the channel count c; each non-`RZ` destination receives up to two channels, one register each, the first destination first; only `TLD.LZ RZ, Rd, ...` with mask `0x1` occurs in the corpus (Rd holds the texel: it is read next). Sources of TEX/TLD/TLD4: the two value groups Ra/Rb and the handle as [`tex_src_width`] lays them out (a uniform handle is the 64-bit bindless pair: `UMOV UR6, UR4` + `UMOV UR7, URZ` before `TLD.LZ .., UR6`, tex_stencil.sm_90); TXQ: the handle pair with `.B`, else the one-word level; TXD: [`txd_src_width`] |
pub fn operand_width(inst: &Inst, idx: usize) -> u8 {
    let Some(o) = inst.operands.get(idx) else {
        return 0;
    };
    let is_dst = idx < inst.ndst as usize;
    // Position among the sources (0-based) when a source.
    let src = idx.wrapping_sub(inst.ndst as usize);
    let r = match o {
        Operand::Mem(_) if matches!(inst.op, Op::SULD | Op::SUST | Op::SURED) => {
            return surface_dims(inst);
        }
        Operand::Mem(m) => {
            return if mem_is_wide(inst, m.base.is_some_and(|b| b.wide)) {
                2
            } else {
                1
            }
        }
        Operand::Reg(r) => r,
        Operand::Const(_) => return 1,
        Operand::RegRel { .. } => {
            return if matches!(inst.op, Op::BRX | Op::JMX | Op::RET | Op::CALL) {
                2
            } else {
                1
            };
        }
        Operand::Pred { .. } => return 1,
        _ => return 0,
    };
    let uniform = matches!(r.reg, Reg::Ur(_) | Reg::Urz | Reg::Uv(_));
    match inst.op {
        Op::IMAD | Op::UIMAD if inst.has_mod("WIDE") && (is_dst || src == 2) => 2,
        Op::IMAD | Op::UIMAD if inst.has_mod("HI") && src == 2 => 2,
        Op::DADD | Op::DMUL | Op::DFMA | Op::DSETP => 2,
        // `MATCH.ANY.U64 Rd, Ra`: the value is the pair Ra, Ra+1 (ptxas
        // 11.8 for `match.any.sync.b64`: `MATCH.ANY.U64 R10, R10`); one
        // word here let the liveness phases delete the high word's
        // definition (the generator's match.sync.b64, gen/warp.rs)
        Op::MATCH if !is_dst && src == 0 && inst.has_mod("U64") => 2,
        Op::FRND => w64(float_types(inst).next()),
        Op::F2F => {
            let mut t = float_types(inst);
            let d = t.next();
            let s = t.next().or(d);
            w64(if is_dst { d } else { s })
        }
        Op::F2I => w64(if is_dst {
            int_types(inst).next()
        } else {
            float_types(inst).next()
        }),
        Op::I2F => w64(if is_dst {
            float_types(inst).next()
        } else {
            int_types(inst).next()
        }),
        Op::LDC | Op::ULDC | Op::LDS | Op::LDG | Op::LDL | Op::LD if is_dst => size_width(inst),
        Op::STS | Op::STG | Op::STL | Op::ST => size_width(inst),
        Op::ATOM | Op::ATOMG | Op::ATOMS | Op::RED | Op::REDG => size_width(inst).min(2),
        // `SULD ... Rd, [Rc], Rh` / `SUST ... [Rc], Rs, Rh`: the data by the
        // size modifier (none, `.U8`, `.U16`: one register; `.64` a pair;
        // `.128` a quad), the handle one register (its low word).
        Op::SULD if is_dst => size_width(inst),
        // `SUST.P` (formatted): one register per component by the
        // component mask, `.R` 1, `.RG` 2, none 4 (ptxas 11.8:
        // `SUST.P.2D.STRONG.SM.TRAP [R2], R4` stores R4..R7,
        // oracle/tests/surfp_vendor/).
        Op::SUST if src == 1 && inst.has_mod("P") => {
            if inst.has_mod("R") {
                1
            } else if inst.has_mod("RG") {
                2
            } else {
                4
            }
        }
        Op::SUST | Op::SURED if src == 1 => size_width(inst),
        Op::CS2R => {
            if inst.has_mod("32") {
                1
            } else {
                2
            }
        }
        Op::TEX | Op::TLD | Op::TLD4 | Op::TXQ | Op::TXD => {
            if is_dst {
                let c = tex_channels(inst);
                // Channels go to the non-RZ destinations in order, two each.
                let before = inst.dsts()[..idx]
                    .iter()
                    .filter(
                        |d| matches!(d, Operand::Reg(r) if !matches!(r.reg, Reg::Rz | Reg::Urz)),
                    )
                    .count() as u8;
                c.saturating_sub(2 * before).min(2)
            } else if inst.op == Op::TXD {
                txd_src_width(inst, src, uniform)
            } else if inst.op != Op::TXQ {
                // `TEX.SCR.LL RZ, R4, R20, R23, 0x0, 0x66, 2D, 0x3` (ptxas
                // 11.8, sm_75: the LOD R23 alone, R24 written right after
                // the TEX is issued); `TLD.SCR.LZ.AOFFI RZ, R8, R8, R23,
                // ...` (R23: the packed texel offsets).
                tex_src_width(inst, src, uniform)
            } else if uniform {
                2
            } else {
                // `TXQ RZ, Rd, Rlod, ...` / `TXQ.B RZ, Rd, Rh, ...` (Rh:
                // the handle, Rh+1: the level).
                if inst.has_mod("B") {
                    2
                } else {
                    1
                }
            }
        }
        _ => 1,
    }
}

/// Whether the instruction may read any register, as far as its operands
/// tell: `CALL` (the callee's register use is not in the instruction), an
/// `UNDECODED` slot, an opcode whose operand shapes are not modelled, and
/// `P2R` (reads the whole predicate file; see the module comment).
/// `CALL R off`: a call through a register (ptxc's indirect calls).
pub fn calls_through_register(inst: &Inst) -> bool {
    inst.op == Op::CALL
        && inst
            .srcs()
            .iter()
            .any(|o| matches!(o, Operand::RegRel { .. }))
}

pub fn reads_all_registers(inst: &Inst) -> bool {
    matches!(inst.op, Op::CALL | Op::UNDECODED) || !inst.op.info().is_modelled()
}

/// Whether the instruction's definitions overwrite the old values on every
/// execution: false when it is guarded by anything but `@PT` (the old value
/// survives where the guard is false).
pub fn kills(inst: &Inst) -> bool {
    match inst.guard {
        None => true,
        Some(g) => matches!(g.pred, Pred::Pt | Pred::Upt) && !g.negated,
    }
}

/// Whether the instruction never executes (`@!PT`).
pub fn never_executes(inst: &Inst) -> bool {
    inst.guard
        .is_some_and(|g| matches!(g.pred, Pred::Pt | Pred::Upt) && g.negated)
}

/// Calls `f` on each unit of a `width`-register operand starting at `r`.
fn visit_reg(r: Reg, width: u8, f: &mut impl FnMut(RegUnit)) {
    for k in 0..width.max(1) {
        if let Some(u) = RegUnit::of_reg(r, k) {
            f(u);
        }
    }
}

fn push_unit(out: &mut Units, u: Option<RegUnit>) {
    if let Some(u) = u {
        if !out.contains(&u) {
            out.push(u);
        }
    }
}

/// The units defined by destination operand `idx` (empty for `RZ`, `PT`,
/// barriers, and for a source index).
pub fn operand_defs(inst: &Inst, idx: usize) -> Units {
    let mut out = Units::new();
    operand_defs_into(inst, idx, &mut out);
    out
}

/// [`operand_defs`], appended to `out` (each unit once).
fn operand_defs_into(inst: &Inst, idx: usize, out: &mut Units) {
    visit_operand_defs(inst, idx, &mut |u| push_unit(out, Some(u)));
}

/// Calls `f` on each unit destination operand `idx` defines, in
/// [`operand_defs`]'s order (a unit may come twice only where the operand
/// names it twice, which no register operand does). Allocation-free: the
/// liveness steps number the units straight from it.
pub fn visit_operand_defs(inst: &Inst, idx: usize, f: &mut impl FnMut(RegUnit)) {
    if idx < inst.ndst as usize {
        match &inst.operands[idx] {
            Operand::Reg(r) => visit_reg(r.reg, operand_width(inst, idx), f),
            Operand::Pred { pred, .. } => {
                if let Some(u) = RegUnit::of_pred(*pred) {
                    f(u)
                }
            }
            _ => {}
        }
    }
}

/// The units operand `idx` reads: a source register or predicate, and the
/// registers inside an address, constant or relative operand in any
/// position.
pub fn operand_uses(inst: &Inst, idx: usize) -> Units {
    let mut out = Units::new();
    operand_uses_into(inst, idx, &mut out);
    out
}

/// [`operand_uses`], appended to `out` (each unit once).
fn operand_uses_into(inst: &Inst, idx: usize, out: &mut Units) {
    visit_operand_uses(inst, idx, &mut |u| push_unit(out, Some(u)));
}

/// Calls `f` on each unit operand `idx` reads, in [`operand_uses`]'s order
/// but with repeats (`[R2.64+R2]` gives R2 twice): the caller dedups if it
/// needs to. Allocation-free. The width is looked up only for the operands
/// that have registers to widen: most are immediates, destinations or
/// single registers of a constant.
pub fn visit_operand_uses(inst: &Inst, idx: usize, f: &mut impl FnMut(RegUnit)) {
    let is_dst = idx < inst.ndst as usize;
    let w = || operand_width(inst, idx);
    match &inst.operands[idx] {
        Operand::Reg(r) if !is_dst => visit_reg(r.reg, w(), f),
        Operand::Pred { pred, .. } if !is_dst => {
            if let Some(u) = RegUnit::of_pred(*pred) {
                f(u)
            }
        }
        Operand::Mem(m) => {
            if let Some(d) = m.desc {
                visit_reg(d, 2, f);
            }
            if let Some(b) = m.base {
                // `[R0.U32+UR4]`: a 32-bit base, the index a pair.
                visit_reg(b.reg, if b.u32 { 1 } else { w() }, f);
            }
            if let Some(i) = m.index {
                visit_reg(i, w(), f);
            }
        }
        Operand::Const(c) => {
            if let Some(r) = c.reg {
                visit_reg(r, 1, f);
            }
        }
        Operand::RegRel { reg, .. } => visit_reg(*reg, w(), f),
        _ => {}
    }
}

/// Every unit the instruction defines (guarded or not; see [`kills`]).
pub fn defs(inst: &Inst) -> Units {
    let mut out = Units::new();
    for i in 0..inst.ndst as usize {
        operand_defs_into(inst, i, &mut out);
    }
    out
}

/// Every unit the instruction reads through its operands and guard (see
/// [`reads_all_registers`] for the instructions that read more).
///
/// In one list: the guard, the operands' units, P2R's predicates (each
/// once), with no intermediate list of operand units: the scalar passes
/// ask this of every instruction they visit.
pub fn uses(inst: &Inst) -> Units {
    let mut out = Units::new();
    out.extend(inst.guard.and_then(|g| RegUnit::of_pred(g.pred)));
    for i in 0..inst.operands.len() {
        operand_uses_into(inst, i, &mut out);
    }
    if inst.op == Op::P2R {
        for n in 0..7 {
            push_unit(&mut out, Some(RegUnit::P(n)));
        }
    }
    out
}

/// Every unit named anywhere in the instruction (for building a function's
/// unit numbering).
pub fn mentioned(inst: &Inst) -> Units {
    let mut out = uses(inst);
    for u in defs(inst) {
        push_unit(&mut out, Some(u));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::sass_text::parse_inst;

    fn inst(text: &str) -> Inst {
        let si = parse_inst(text).unwrap();
        let op = Op::from_name(&si.opcode).unwrap();
        let mods: Vec<&str> = si.mods.iter().map(|s| s.as_str()).collect();
        Inst::new(op, &mods, si.guard, si.operands).unwrap()
    }

    fn names(u: &Units) -> Vec<String> {
        let mut v: Vec<String> = u.iter().map(|u| u.to_string()).collect();
        v.sort();
        v
    }

    // The earlier two-list form of [`uses`], kept as the test's reference.
    /// [`uses`], given [`operand_uses_all`] of `inst`: the guard first, then
    /// the operands' units, then (for `P2R`) the whole predicate file.
    fn uses_from(inst: &Inst, operand_uses: &Units) -> Units {
        let mut out = Units::new();
        let guard = inst.guard.and_then(|g| RegUnit::of_pred(g.pred));
        out.extend(guard);
        out.extend(operand_uses.iter().copied().filter(|u| Some(*u) != guard));
        if inst.op == Op::P2R {
            for n in 0..7 {
                push_unit(&mut out, Some(RegUnit::P(n)));
            }
        }
        out
    }

    /// The units the instruction's operands read, each once: [`uses`] without
    /// the guard and without `P2R`'s implicit predicate reads.
    fn operand_uses_all(inst: &Inst) -> Units {
        let mut out = Units::new();
        for i in 0..inst.operands.len() {
            operand_uses_into(inst, i, &mut out);
        }
        out
    }

    /// The one-list [`uses`] agrees with [`uses_from`] over
    /// [`operand_uses_all`], order included (the unit numbering follows
    /// it).
    #[test]
    fn uses_in_one_list_keeps_the_order() {
        for text in [
            "@P0 IADD3 R2, P1, R0, R1, RZ ;",
            "@!P1 IADD3.X R3, R4, R5, RZ, P1, !PT ;",
            "@P2 LDG.E R0, desc[UR4][R2.64+UR6] ;",
            "P2R R10, RZ, 0x7f ;",
            "@P3 SEL R4, R4, R4, P3 ;",
            "DFMA R4, |R2|, -R4, R2 ;",
        ] {
            let i = inst(text);
            assert_eq!(uses(&i), uses_from(&i, &operand_uses_all(&i)), "{text}");
        }
    }

    #[test]
    fn plain_alu() {
        let i = inst("IADD3 R2, P0, R0, R1, RZ ;");
        assert_eq!(names(&defs(&i)), ["P0", "R2"]);
        assert_eq!(names(&uses(&i)), ["R0", "R1"]);
        let i = inst("@!P1 IADD3.X R3, R4, R5, RZ, P0, !PT ;");
        assert_eq!(names(&defs(&i)), ["R3"]);
        // The guard and the carry-in are uses; !PT is no unit.
        assert_eq!(names(&uses(&i)), ["P0", "P1", "R4", "R5"]);
        assert!(!kills(&i));
        assert!(kills(&inst("IADD3 R3, R4, R5, RZ ;")));
        assert!(kills(&inst("@PT IADD3 R3, R4, R5, RZ ;")));
        assert!(never_executes(&inst("@!PT SHFL.IDX PT, RZ, RZ, RZ, RZ ;")));
    }

    #[test]
    fn wide_pairs() {
        // IMAD.WIDE: 64-bit destination and addend, 32-bit factors.
        let i = inst("IMAD.WIDE.U32.X R12, R3, -0x61c88647, R14, P0 ;");
        assert_eq!(names(&defs(&i)), ["R12", "R13"]);
        assert_eq!(names(&uses(&i)), ["P0", "R14", "R15", "R3"]);
        // DFMA: all pairs.
        let i = inst("DFMA R4, |R2|, -R4, 1 ;");
        assert_eq!(names(&defs(&i)), ["R4", "R5"]);
        assert_eq!(names(&uses(&i)), ["R2", "R3", "R4", "R5"]);
        // DSETP: predicate destinations, pair sources.
        let i = inst("DSETP.GT.AND P0, PT, R2, R6, PT ;");
        assert_eq!(names(&defs(&i)), ["P0"]);
        assert_eq!(names(&uses(&i)), ["R2", "R3", "R6", "R7"]);
        // MUFU.RCP64H works on the high word only.
        let i = inst("MUFU.RCP64H R9, R11 ;");
        assert_eq!(
            (names(&defs(&i)), names(&uses(&i))),
            (vec!["R9".into()], vec!["R11".into()])
        );
        // Conversions: the type on the matching side.
        let i = inst("F2F.F32.F64 R15, R12 ;");
        assert_eq!(
            (names(&defs(&i)), names(&uses(&i))),
            (vec!["R15".into()], vec!["R12".into(), "R13".into()])
        );
        let i = inst("F2F.F64.F32 R12, R15 ;");
        assert_eq!(names(&defs(&i)), ["R12", "R13"]);
        assert_eq!(names(&uses(&i)), ["R15"]);
        let i = inst("F2I.U32.F64.CEIL R4, R6 ;");
        assert_eq!(names(&defs(&i)), ["R4"]);
        assert_eq!(names(&uses(&i)), ["R6", "R7"]);
        let i = inst("F2I.S64 R4, R7 ;");
        assert_eq!(names(&defs(&i)), ["R4", "R5"]);
        assert_eq!(names(&uses(&i)), ["R7"]);
        let i = inst("I2F.F64.S64 R10, R12 ;");
        assert_eq!(names(&defs(&i)), ["R10", "R11"]);
        assert_eq!(names(&uses(&i)), ["R12", "R13"]);
        let i = inst("I2F.S64.RM R3, R12 ;");
        assert_eq!(names(&defs(&i)), ["R3"]);
        assert_eq!(names(&uses(&i)), ["R12", "R13"]);
        // SHF.U64 takes the halves separately.
        let i = inst("SHF.R.U64 R10, R4, 0x3, R5 ;");
        assert_eq!(names(&defs(&i)), ["R10"]);
        assert_eq!(names(&uses(&i)), ["R4", "R5"]);
        // CS2R writes a pair unless .32.
        assert_eq!(names(&defs(&inst("CS2R R16, SRZ ;"))), ["R16", "R17"]);
        assert_eq!(names(&defs(&inst("CS2R.32 R16, SRZ ;"))), ["R16"]);
        // HFMA2 is one register.
        assert_eq!(
            names(&uses(&inst("HFMA2 R4, R7.H0_H0, R8, R10 ;"))),
            ["R10", "R7", "R8"]
        );
    }

    #[test]
    fn memory_widths() {
        let i = inst("LDS.U.128 R12, [R18+0x30] ;");
        assert_eq!(names(&defs(&i)), ["R12", "R13", "R14", "R15"]);
        assert_eq!(names(&uses(&i)), ["R18"]);
        let i = inst("STG.E.64 [R10.64+0x10], R2 ;");
        assert!(defs(&i).is_empty());
        assert_eq!(names(&uses(&i)), ["R10", "R11", "R2", "R3"]);
        // sm_70 spelling: .E global access, 64-bit address printed as [R2].
        let i = inst("STG.E.SYS [R2], R5 ;");
        assert_eq!(names(&uses(&i)), ["R2", "R3", "R5"]);
        // Local and shared addresses are 32-bit.
        assert_eq!(
            names(&uses(&inst("STL.64 [R1+0x10], R2 ;"))),
            ["R1", "R2", "R3"]
        );
        assert_eq!(
            names(&uses(&inst("ATOMS.POPC.INC.32 RZ, [R10+URZ] ;"))),
            ["R10"]
        );
        // A uniform index of a 64-bit address is a pair too.
        let i = inst("LDG.E.CONSTANT.SYS R8, [R6.64+UR4] ;");
        assert_eq!(names(&uses(&i)), ["R6", "R7", "UR4", "UR5"]);
        let i = inst("LDG.E.CONSTANT.SYS R6, [UR4+0x4] ;");
        assert_eq!(names(&uses(&i)), ["UR4", "UR5"]);
        let i = inst("LDG.E R0, desc[UR4][R2.64+0x10] ;");
        assert_eq!(names(&uses(&i)), ["R2", "R3", "UR4", "UR5"]);
        assert_eq!(
            names(&defs(&inst("LDC.64 R4, c[0x0][0x210] ;"))),
            ["R4", "R5"]
        );
        assert_eq!(
            names(&defs(&inst("ULDC.64 UR4, c[0x0][0x118] ;"))),
            ["UR4", "UR5"]
        );
        assert_eq!(names(&uses(&inst("LDC R2, c[0x3][R9+0x4] ;"))), ["R9"]);
        // 32-bit CAS: compare and swap values are separate operands.
        let i = inst("ATOMG.E.CAS.STRONG.GPU PT, R3, [R4], R8, R9 ;");
        assert_eq!(names(&defs(&i)), ["R3"]);
        assert_eq!(names(&uses(&i)), ["R4", "R5", "R8", "R9"]);
        let i = inst("ATOM.E.ADD.F64 P0, R2, [R4.64], R6 ;");
        assert_eq!(names(&defs(&i)), ["P0", "R2", "R3"]);
        assert_eq!(names(&uses(&i)), ["R4", "R5", "R6", "R7"]);
    }

    #[test]
    fn control_and_texture() {
        assert_eq!(names(&uses(&inst("BRX R2 -0x830 ;"))), ["R2", "R3"]);
        assert_eq!(names(&uses(&inst("RET.REL.NODEC R4 0x0 ;"))), ["R4", "R5"]);
        assert!(reads_all_registers(&inst("CALL.REL.NOINC 0x100 ;")));
        assert!(!reads_all_registers(&inst("BRA 0x100 ;")));
        // One channel, in the second destination; 1D coordinate; 64-bit handle.
        let i = inst("TLD.LZ RZ, R8, R4, UR6, 0x0, 1D, 0x1 ;");
        assert_eq!(names(&defs(&i)), ["R8"]);
        assert_eq!(names(&uses(&i)), ["R4", "UR6", "UR7"]);
        let i = inst("TLD.SCR.LZ RZ, R4, R4, 0x0, 0x58, 1D, 0x1 ;");
        assert_eq!(names(&defs(&i)), ["R4"]);
        assert_eq!(names(&uses(&i)), ["R4"]);
        let i = inst("TEX.SCR.LL R4, R8, R2, R6, 0x0, 0x5a, 2D, 0xf ;");
        assert_eq!(names(&defs(&i)), ["R4", "R5", "R8", "R9"]);
        assert_eq!(names(&uses(&i)), ["R2", "R3", "R6"]);
        // `.AOFFI`: the second source is one word of packed offsets.
        let i = inst("TLD.SCR.LZ.AOFFI RZ, R8, R8, R23, 0x0, 0x66, 2D, 0x3 ;");
        assert_eq!(names(&defs(&i)), ["R8", "R9"]);
        assert_eq!(names(&uses(&i)), ["R23", "R8", "R9"]);
        // Virtual pairs.
        let i = inst("IMAD.WIDE %r4, %r1, 0x4, %r2 ;");
        assert_eq!(names(&defs(&i)), ["%r4", "%r5"]);
        assert_eq!(names(&uses(&i)), ["%r1", "%r2", "%r3"]);
        assert_eq!(operand_width(&i, 0), 2);
        assert_eq!(operand_width(&i, 1), 1);
        assert_eq!(operand_width(&i, 2), 0);
        assert_eq!(operand_width(&i, 3), 2);
    }

    #[test]
    fn surface_accesses() {
        // ptxas 11.8 spellings (oracle/tests/surf_vendor/surf_ld.O0.sm_80.sass,
        // surf_st.sm_90.sass, surf_st.sm_70.sass):
        // `.128` data is a quad, 3D coordinates three registers.
        let i = inst("SULD.D.BA.3D.128.STRONG.SM.IGN R4, [R8], R12 ;");
        assert_eq!(names(&defs(&i)), ["R4", "R5", "R6", "R7"]);
        assert_eq!(names(&uses(&i)), ["R10", "R12", "R8", "R9"]);
        let i = inst("SULD.D.BA.2D.U8.STRONG.SM.IGN R8, [R8], 0x0, 0x58 ;");
        assert_eq!(names(&defs(&i)), ["R8"]);
        assert_eq!(names(&uses(&i)), ["R8", "R9"]);
        let i = inst("SUST.D.BA.2D.64.STRONG.SM [R18], R8, UR6, 0x0 ;");
        assert!(defs(&i).is_empty());
        assert_eq!(names(&uses(&i)), ["R18", "R19", "R8", "R9", "UR6"]);
        let i = inst("SURED.D.BA.1D.ADD.U64.STRONG.SYS.TRAP [R3], R12, 0x0, 0x58 ;");
        assert_eq!(names(&uses(&i)), ["R12", "R13", "R3"]);
        let i = inst("SURED.D.BA.1D.ADD.STRONG.SYS.TRAP [R7], R0, R8 ;");
        assert_eq!(names(&uses(&i)), ["R0", "R7", "R8"]);
        // 3-register coordinate groups sit at a multiple of 4.
        assert_eq!(
            alignment(operand_width(
                &inst("SUST.D.BA.3D.128.STRONG.SM.IGN [R12], R8, UR6, 0x0 ;"),
                0
            )),
            4
        );
        assert!(!reads_all_registers(&i));
    }
}
