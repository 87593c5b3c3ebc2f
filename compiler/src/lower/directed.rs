//! Division, reciprocal and square root with a directed rounding
//! (`.rz`, `.rm`, `.rp`; PTX ISA 9.7.3.8 div, 9.7.3.9 rcp, 9.7.3.11 sqrt),
//! f32 (with and without `.ftz`) and f64, as ptxas 11.8 writes them.
//!
//! Each form is ptxas 11.8's own sequence, read off `ptxas -arch=sm_80 -O3`
//! and `cuobjdump -sass` of a kernel that loads the operands, runs the one
//! instruction and stores the result (`seq/directed/NAME_{fast,slow}.sass`;
//! the kernel's parameter loads, `LDG`/`STG` and `EXIT` are left out, a
//! branch to a left-out line goes to the next kept one). Division and the
//! f64 forms call a subroutine for every input; sqrt.f32 and rcp.f32 have an
//! inline fast path (`MUFU.RSQ`/`MUFU.RCP`, Newton steps and a final
//! `FFMA.RZ/RM/RP`) and call the subroutine for inputs out of its range.
//! The interface registers are the kernel's `LDG` destinations (operands a,
//! then b) and its `STG` source. sm_70 and sm_90 listings of these forms are
//! in corpus/regressions/directed_rounding.
//!
//! Before this table the rounding modifier was ignored and every form was
//! lowered as `.rn` (issue 29: `div.rz.f32`, `sqrt.rm.f32`, `div.rz.f64`
//! gave wrong last bits).

use crate::ptx::isa::Opcode;
use crate::ptx::modifiers::Mod;
use crate::ptx::types::ScalarType;

use super::template::Seq;

/// The directed rounding of an instruction: 0 `.rz`, 1 `.rm`, 2 `.rp`;
/// `None` for `.rn` (and no modifier).
pub fn directed(i: &crate::ptx::ast::Instruction) -> Option<usize> {
    [Mod::Rz, Mod::Rm, Mod::Rp].iter().position(|&m| i.has(m))
}

/// The vendor sequence of `op` (div, sqrt, rcp) on `ty` with directed
/// rounding `rnd` (see [`directed`]), or `None` when there is none.
pub fn sequence(op: Opcode, ty: ScalarType, ftz: bool, rnd: usize) -> Option<&'static Seq> {
    let o = match op {
        Opcode::Div => 0,
        Opcode::Sqrt => 1,
        Opcode::Rcp => 2,
        _ => return None,
    };
    let v = match (ty, ftz) {
        (ScalarType::F32, false) => 0,
        (ScalarType::F32, true) => 1,
        (ScalarType::F64, false) => 2,
        _ => return None,
    };
    DIRECTED.get(o * 9 + v * 3 + rnd)
}

/// Indexed by op (div, sqrt, rcp) * 9 + (f32, f32.ftz, f64) * 3 + (rz, rm, rp).
static DIRECTED: [Seq; 27] = [
    Seq {
        name: "div_rz_f32",
        fast: include_str!("seq/directed/div_rz_f32_fast.sass"),
        end: 0xa0,
        slow: Some(include_str!("seq/directed/div_rz_f32_slow.sass")),
        inputs: &[3, 4],
        outputs: &[6],
    },
    Seq {
        name: "div_rm_f32",
        fast: include_str!("seq/directed/div_rm_f32_fast.sass"),
        end: 0xa0,
        slow: Some(include_str!("seq/directed/div_rm_f32_slow.sass")),
        inputs: &[3, 4],
        outputs: &[6],
    },
    Seq {
        name: "div_rp_f32",
        fast: include_str!("seq/directed/div_rp_f32_fast.sass"),
        end: 0xa0,
        slow: Some(include_str!("seq/directed/div_rp_f32_slow.sass")),
        inputs: &[3, 4],
        outputs: &[6],
    },
    Seq {
        name: "div_rz_ftz_f32",
        fast: include_str!("seq/directed/div_rz_ftz_f32_fast.sass"),
        end: 0xa0,
        slow: Some(include_str!("seq/directed/div_rz_ftz_f32_slow.sass")),
        inputs: &[2, 5],
        outputs: &[6],
    },
    Seq {
        name: "div_rm_ftz_f32",
        fast: include_str!("seq/directed/div_rm_ftz_f32_fast.sass"),
        end: 0xa0,
        slow: Some(include_str!("seq/directed/div_rm_ftz_f32_slow.sass")),
        inputs: &[2, 5],
        outputs: &[6],
    },
    Seq {
        name: "div_rp_ftz_f32",
        fast: include_str!("seq/directed/div_rp_ftz_f32_fast.sass"),
        end: 0xa0,
        slow: Some(include_str!("seq/directed/div_rp_ftz_f32_slow.sass")),
        inputs: &[2, 5],
        outputs: &[6],
    },
    Seq {
        name: "div_rz_f64",
        fast: include_str!("seq/directed/div_rz_f64_fast.sass"),
        end: 0xe0,
        slow: Some(include_str!("seq/directed/div_rz_f64_slow.sass")),
        inputs: &[4, 5, 10, 11],
        outputs: &[2, 3],
    },
    Seq {
        name: "div_rm_f64",
        fast: include_str!("seq/directed/div_rm_f64_fast.sass"),
        end: 0xe0,
        slow: Some(include_str!("seq/directed/div_rm_f64_slow.sass")),
        inputs: &[4, 5, 6, 7],
        outputs: &[2, 3],
    },
    Seq {
        name: "div_rp_f64",
        fast: include_str!("seq/directed/div_rp_f64_fast.sass"),
        end: 0xe0,
        slow: Some(include_str!("seq/directed/div_rp_f64_slow.sass")),
        inputs: &[4, 5, 6, 7],
        outputs: &[2, 3],
    },
    Seq {
        name: "sqrt_rz_f32",
        fast: include_str!("seq/directed/sqrt_rz_f32_fast.sass"),
        end: 0x150,
        slow: Some(include_str!("seq/directed/sqrt_rz_f32_slow.sass")),
        inputs: &[2],
        outputs: &[5],
    },
    Seq {
        name: "sqrt_rm_f32",
        fast: include_str!("seq/directed/sqrt_rm_f32_fast.sass"),
        end: 0x150,
        slow: Some(include_str!("seq/directed/sqrt_rm_f32_slow.sass")),
        inputs: &[2],
        outputs: &[5],
    },
    Seq {
        name: "sqrt_rp_f32",
        fast: include_str!("seq/directed/sqrt_rp_f32_fast.sass"),
        end: 0x120,
        slow: Some(include_str!("seq/directed/sqrt_rp_f32_slow.sass")),
        inputs: &[2],
        outputs: &[5],
    },
    Seq {
        name: "sqrt_rz_ftz_f32",
        fast: include_str!("seq/directed/sqrt_rz_ftz_f32_fast.sass"),
        end: 0x150,
        slow: Some(include_str!("seq/directed/sqrt_rz_ftz_f32_slow.sass")),
        inputs: &[2],
        outputs: &[5],
    },
    Seq {
        name: "sqrt_rm_ftz_f32",
        fast: include_str!("seq/directed/sqrt_rm_ftz_f32_fast.sass"),
        end: 0x150,
        slow: Some(include_str!("seq/directed/sqrt_rm_ftz_f32_slow.sass")),
        inputs: &[2],
        outputs: &[5],
    },
    Seq {
        name: "sqrt_rp_ftz_f32",
        fast: include_str!("seq/directed/sqrt_rp_ftz_f32_fast.sass"),
        end: 0x120,
        slow: Some(include_str!("seq/directed/sqrt_rp_ftz_f32_slow.sass")),
        inputs: &[2],
        outputs: &[5],
    },
    Seq {
        name: "sqrt_rz_f64",
        fast: include_str!("seq/directed/sqrt_rz_f64_fast.sass"),
        end: 0xb0,
        slow: Some(include_str!("seq/directed/sqrt_rz_f64_slow.sass")),
        inputs: &[2, 3],
        outputs: &[2, 3],
    },
    Seq {
        name: "sqrt_rm_f64",
        fast: include_str!("seq/directed/sqrt_rm_f64_fast.sass"),
        end: 0xb0,
        slow: Some(include_str!("seq/directed/sqrt_rm_f64_slow.sass")),
        inputs: &[2, 3],
        outputs: &[2, 3],
    },
    Seq {
        name: "sqrt_rp_f64",
        fast: include_str!("seq/directed/sqrt_rp_f64_fast.sass"),
        end: 0xb0,
        slow: Some(include_str!("seq/directed/sqrt_rp_f64_slow.sass")),
        inputs: &[2, 3],
        outputs: &[2, 3],
    },
    Seq {
        name: "rcp_rz_f32",
        fast: include_str!("seq/directed/rcp_rz_f32_fast.sass"),
        end: 0x110,
        slow: Some(include_str!("seq/directed/rcp_rz_f32_slow.sass")),
        inputs: &[2],
        outputs: &[5],
    },
    Seq {
        name: "rcp_rm_f32",
        fast: include_str!("seq/directed/rcp_rm_f32_fast.sass"),
        end: 0x100,
        slow: Some(include_str!("seq/directed/rcp_rm_f32_slow.sass")),
        inputs: &[2],
        outputs: &[5],
    },
    Seq {
        name: "rcp_rp_f32",
        fast: include_str!("seq/directed/rcp_rp_f32_fast.sass"),
        end: 0x100,
        slow: Some(include_str!("seq/directed/rcp_rp_f32_slow.sass")),
        inputs: &[2],
        outputs: &[5],
    },
    Seq {
        name: "rcp_rz_ftz_f32",
        fast: include_str!("seq/directed/rcp_rz_ftz_f32_fast.sass"),
        end: 0x100,
        slow: Some(include_str!("seq/directed/rcp_rz_ftz_f32_slow.sass")),
        inputs: &[2],
        outputs: &[5],
    },
    Seq {
        name: "rcp_rm_ftz_f32",
        fast: include_str!("seq/directed/rcp_rm_ftz_f32_fast.sass"),
        end: 0x100,
        slow: Some(include_str!("seq/directed/rcp_rm_ftz_f32_slow.sass")),
        inputs: &[2],
        outputs: &[5],
    },
    Seq {
        name: "rcp_rp_ftz_f32",
        fast: include_str!("seq/directed/rcp_rp_ftz_f32_fast.sass"),
        end: 0x100,
        slow: Some(include_str!("seq/directed/rcp_rp_ftz_f32_slow.sass")),
        inputs: &[2],
        outputs: &[5],
    },
    Seq {
        name: "rcp_rz_f64",
        fast: include_str!("seq/directed/rcp_rz_f64_fast.sass"),
        end: 0xb0,
        slow: Some(include_str!("seq/directed/rcp_rz_f64_slow.sass")),
        inputs: &[4, 5],
        outputs: &[2, 3],
    },
    Seq {
        name: "rcp_rm_f64",
        fast: include_str!("seq/directed/rcp_rm_f64_fast.sass"),
        end: 0xb0,
        slow: Some(include_str!("seq/directed/rcp_rm_f64_slow.sass")),
        inputs: &[4, 5],
        outputs: &[2, 3],
    },
    Seq {
        name: "rcp_rp_f64",
        fast: include_str!("seq/directed/rcp_rp_f64_fast.sass"),
        end: 0xb0,
        slow: Some(include_str!("seq/directed/rcp_rp_f64_slow.sass")),
        inputs: &[4, 5],
        outputs: &[2, 3],
    },
];
