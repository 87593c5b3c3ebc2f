//! Integer comparison (PTX ISA "Comparison and Selection Instructions: setp", the integer
//! comparison operators).

use super::ty::{fit, value, IntTy};

/// Integer comparison operators of `setp`/`set`/`slct`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntCmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Lo,
    Ls,
    Hi,
    Hs,
}

/// `setp.cmp.type`'s test: `eq ne lt le gt ge` compare signed or unsigned per `t`; `lo ls hi hs`
/// ("lower, lower-or-same, higher, higher-or-same") are unsigned comparisons regardless of `t`.
#[inline]
pub fn compare(t: IntTy, op: IntCmp, a: u64, b: u64) -> bool {
    let (x, y) = (value(t, a), value(t, b));
    let (ux, uy) = (fit(t, a), fit(t, b));
    match op {
        IntCmp::Eq => ux == uy,
        IntCmp::Ne => ux != uy,
        IntCmp::Lt => x < y,
        IntCmp::Le => x <= y,
        IntCmp::Gt => x > y,
        IntCmp::Ge => x >= y,
        IntCmp::Lo => ux < uy,
        IntCmp::Ls => ux <= uy,
        IntCmp::Hi => ux > uy,
        IntCmp::Hs => ux >= uy,
    }
}
