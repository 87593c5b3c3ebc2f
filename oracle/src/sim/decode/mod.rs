//! The decoder: one [`ptxc::ir::Inst`] into its executable [`Kind`], once
//! per launch ([`super::program::decode`] builds the [`super::Program`]).
//! Operands are taken by the role the opcode table's shapes give them
//! ([`Roles`]), modifiers by name.
//!
//! | file | job |
//! |---|---|
//! | `operands.rs` | [`Dec`]: registers, predicates, immediates, constants, addresses; [`Roles`] |
//! | `modifiers.rs` | comparison, predicate combination, access size |
//! | `int.rs` | integer ALU |
//! | `moves.rs` | data movement, predicates, special registers |
//! | `warp.rs` | warp collectives |
//! | `memory.rs` | loads, stores, constants, atomics |
//! | `control.rs` | branches, calls, convergence, barriers |
//! | `texture.rs` | texture fetches and queries |
//! | `float.rs` | floating-point, half and conversion instructions |
//! | `surface.rs` | surface loads, stores and reductions |

mod control;
mod float;
mod int;
mod memory;
mod modifiers;
mod moves;
mod operands;
mod surface;
mod texture;
mod warp;

use ptxc::ir::sass_text::Reg;
use ptxc::ir::{Inst, Op};
use ptxc::targets::SmInfo;

use super::exec::float::fold;
use super::program::{Dst, Kind, Sop, Src};
use super::undecoded;

pub use operands::{parse_imm, DResult, Dec, ImmTy, Roles};

/// The executable form of `i` on `sm`: a [`Kind::Fault`] naming why when
/// `sm` lacks it or the simulator does not model it.
pub fn inst(d: &Dec<'_>, i: &Inst, sm: &SmInfo) -> Kind {
    if i.op == Op::UNDECODED {
        decode_undecoded(d, i, sm)
    } else if let Some(l) = i.lacking(sm) {
        Kind::Fault(l.message(sm).into())
    } else {
        match decode_inst(d, i) {
            Ok(k) => k,
            Err(e) => Kind::Fault(format!("{}: {e}", i.op).into()),
        }
    }
}

/// An encoding-only slot (`undecoded.rs`): sm_90's VIMNMX runs as IMNMX;
/// anything else faults when executed, naming the encoding.
fn decode_undecoded(d: &Dec<'_>, i: &Inst, sm: &SmInfo) -> Kind {
    let enc = i.encoding.unwrap_or(0);
    let v = match undecoded::decode(enc) {
        Ok(v) if sm.sm >= 90 => v,
        Ok(_) => {
            return Kind::Fault(
                format!("UNDECODED instruction slot {enc:#034x}: VIMNMX needs sm_90").into(),
            )
        }
        Err(e) => {
            return Kind::Fault(
                format!("UNDECODED instruction slot: cuobjdump printed only its encoding; {e}")
                    .into(),
            )
        }
    };
    let dst = if v.d == undecoded::RZ {
        Dst::None
    } else {
        Dst::R(d.regs.r(Reg::R(v.d)).expect("physical register"))
    };
    Kind::Imnmx {
        d: dst,
        a: Sop::plain(v.a_src()),
        b: Sop::plain(v.b_src()),
        signed: v.signed,
        pmin: v.pmin(),
    }
}

fn decode_inst(d: &Dec<'_>, i: &Inst) -> DResult<Kind> {
    let r = &Roles::of(i);
    use Op::*;
    Ok(match i.op {
        // One SM, no caches and no cluster: barriers of memory order and
        // errors and cache invalidation (`CCTL.IVALL`) change nothing.
        NOP | YIELD | MEMBAR | DEPBAR | ERRBAR | CGAERRBAR | NANOSLEEP | CCTL | CCTLL => Kind::Nop,
        IADD3 | UIADD3 => int::iadd3(d, i, r)?,
        IMAD | UIMAD => int::imad(d, i, r)?,
        LEA | ULEA => int::lea(d, i, r)?,
        LOP3 | ULOP3 => int::lop3(d, r)?,
        SHF | USHF => int::shf(d, i, r)?,
        PRMT | UPRMT => int::prmt(d, i, r)?,
        ISETP | UISETP => int::isetp(d, i, r)?,
        IMNMX => int::imnmx(d, i, r)?,
        IABS | POPC | UPOPC | BREV | UBREV => int::unary(d, i, r)?,
        FLO | UFLO => int::flo(d, i, r)?,
        SGXT | USGXT => int::sgxt(d, i, r)?,
        IDP => int::idp(d, i, r)?,
        VABSDIFF => int::vabsdiff(d, i, r)?,
        BMSK => int::bmsk(d, i, r)?,
        SEL | USEL | FSEL => moves::sel(d, i, r)?,
        P2R => moves::p2r(d, i)?,
        R2P => moves::r2p(d, i)?,
        PLOP3 | UPLOP3 => moves::plop3(d, r)?,
        MOV | UMOV => moves::mov(d, r)?,
        R2UR => moves::r2ur(d, r)?,
        ULDC => moves::uldc(d, i, r)?,
        CS2R => moves::cs2r(d, i, r)?,
        S2R | S2UR => moves::s2r(d, r)?,
        VOTE | VOTEU => warp::vote(d, i, r)?,
        SHFL => warp::shfl(d, i, r)?,
        MATCH => warp::match_(d, i, r)?,
        REDUX => warp::redux(d, i, r)?,
        LDG | LD | LDS | LDL => memory::ld(d, i, r)?,
        STG | ST | STS | STL => memory::st(d, i, r)?,
        LDC => memory::ldc(d, i, r)?,
        ATOM | ATOMG | ATOMS | RED | REDG => memory::atom(d, i, r)?,
        QSPC => memory::qspc(d, i, r)?,
        BRA => control::bra(d, i, r)?,
        JMP => control::jmp(d, r)?,
        BRX | JMX => control::brx(d, r)?,
        CALL => control::call(d, r)?,
        RET => control::ret(d, r)?,
        EXIT | KILL => Kind::Exit,
        BSSY => control::bssy(r)?,
        BSYNC => control::bsync(r)?,
        BREAK => control::brk(d, r)?,
        BMOV => control::bmov(d, i, r)?,
        WARPSYNC => control::warpsync(d, i, r)?,
        ENDCOLLECTIVE => Kind::EndCollective,
        BAR => control::bar(d, i, r)?,
        B2R => control::b2r(d, i, r)?,
        TEX | TLD | TLD4 => texture::tex(d, i, r)?,
        TXD => texture::txd(d, i, r)?,
        TXQ => texture::txq(d, i, r)?,
        F2F | F2I | I2F | I2FP | FRND | F2FP | FADD | FMUL | FFMA | FMNMX | FSET | FSETP | FCHK
        | MUFU | DADD | DMUL | DFMA | DSETP | HADD2 | HMUL2 | HFMA2 | HSETP2 | HSET2 | HMNMX2 => {
            let fi = float::decode(d, i, r)?;
            match fold(&fi) {
                // All operands immediate: the constant, computed once.
                Some(v) => Kind::Mov {
                    d: fi.d,
                    a: Src::Imm(v),
                },
                None => Kind::F(fi),
            }
        }
        // Surfaces (corpus/LAUNCH_SPEC.md "Surfaces"): decoded in surface.rs,
        // executed in exec/surf.rs.
        SULD | SUST | SURED => Kind::Surf(Box::new(surface::decode(d, i, r)?)),
        SUATOM => return Err("SUATOM is not modelled by the SASS simulator".into()),
        _ => return Err("not implemented in the simulator".into()),
    })
}
