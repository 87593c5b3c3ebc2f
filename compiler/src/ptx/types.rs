//! PTX fundamental types (PTX ISA 5.2 "Types").

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarType {
    B8,
    B16,
    B32,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    Tf32,
    F32,
    F64,
    Pred,
}

/// The class of a type, which decides the operand type-checking rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeKind {
    Bits,
    Unsigned,
    Signed,
    Float,
    Pred,
}

impl ScalarType {
    pub const ALL: [ScalarType; 21] = [
        ScalarType::B8,
        ScalarType::B16,
        ScalarType::B32,
        ScalarType::B64,
        ScalarType::B128,
        ScalarType::U8,
        ScalarType::U16,
        ScalarType::U32,
        ScalarType::U64,
        ScalarType::S8,
        ScalarType::S16,
        ScalarType::S32,
        ScalarType::S64,
        ScalarType::F16,
        ScalarType::F16x2,
        ScalarType::Bf16,
        ScalarType::Bf16x2,
        ScalarType::Tf32,
        ScalarType::F32,
        ScalarType::F64,
        ScalarType::Pred,
    ];

    pub fn name(self) -> &'static str {
        use ScalarType::*;
        match self {
            B8 => "b8",
            B16 => "b16",
            B32 => "b32",
            B64 => "b64",
            B128 => "b128",
            U8 => "u8",
            U16 => "u16",
            U32 => "u32",
            U64 => "u64",
            S8 => "s8",
            S16 => "s16",
            S32 => "s32",
            S64 => "s64",
            F16 => "f16",
            F16x2 => "f16x2",
            Bf16 => "bf16",
            Bf16x2 => "bf16x2",
            Tf32 => "tf32",
            F32 => "f32",
            F64 => "f64",
            Pred => "pred",
        }
    }

    /// Parses a type name without its dot.
    pub fn from_name(s: &str) -> Option<ScalarType> {
        ScalarType::ALL.iter().copied().find(|t| t.name() == s)
    }

    /// Size in bits (`.pred` counts as 1).
    pub fn bits(self) -> u32 {
        use ScalarType::*;
        match self {
            Pred => 1,
            B8 | U8 | S8 => 8,
            B16 | U16 | S16 | F16 | Bf16 => 16,
            B32 | U32 | S32 | F32 | F16x2 | Bf16x2 | Tf32 => 32,
            B64 | U64 | S64 | F64 => 64,
            B128 => 128,
        }
    }

    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    pub fn kind(self) -> TypeKind {
        use ScalarType::*;
        match self {
            B8 | B16 | B32 | B64 | B128 => TypeKind::Bits,
            U8 | U16 | U32 | U64 => TypeKind::Unsigned,
            S8 | S16 | S32 | S64 => TypeKind::Signed,
            F16 | F16x2 | Bf16 | Bf16x2 | Tf32 | F32 | F64 => TypeKind::Float,
            Pred => TypeKind::Pred,
        }
    }

    pub fn is_int(self) -> bool {
        matches!(self.kind(), TypeKind::Unsigned | TypeKind::Signed)
    }

    pub fn is_float(self) -> bool {
        self.kind() == TypeKind::Float
    }

    pub fn is_signed(self) -> bool {
        self.kind() == TypeKind::Signed
    }

    /// Integer or bit-size type of the given width, by kind.
    pub fn int_of(bits: u32, signed: bool) -> Option<ScalarType> {
        use ScalarType::*;
        Some(match (bits, signed) {
            (8, false) => U8,
            (16, false) => U16,
            (32, false) => U32,
            (64, false) => U64,
            (8, true) => S8,
            (16, true) => S16,
            (32, true) => S32,
            (64, true) => S64,
            _ => return None,
        })
    }

    /// The `.bN` type of the same size.
    pub fn bit_type(self) -> ScalarType {
        use ScalarType::*;
        match self.bits() {
            1 => Pred,
            8 => B8,
            16 => B16,
            32 => B32,
            64 => B64,
            _ => B128,
        }
    }

    /// The type twice as wide (for `.wide`), if any.
    pub fn widened(self) -> Option<ScalarType> {
        use ScalarType::*;
        Some(match self {
            U16 => U32,
            U32 => U64,
            S16 => S32,
            S32 => S64,
            B16 => B32,
            B32 => B64,
            _ => return None,
        })
    }

    /// Operand type-checking (PTX ISA 6.4.3 "Operand Type Information" and
    /// table "Type Checking Rules"): can a register declared `reg` be used where
    /// an instruction of type `self` expects an operand?
    /// - `.bX` accepts any type of size X;
    /// - `.uX`/`.sX` accept `.bX`, `.uX`, `.sX`;
    /// - `.fX` accepts `.fX` and `.bX` (and a `.bX`-declared register holds any `.fX`);
    /// - f16x2/bf16x2 live in 32-bit registers: `.b32`, `.u32`, `.s32`, `.f16x2`.
    pub fn accepts_register(self, reg: ScalarType) -> bool {
        use TypeKind::*;
        if self == reg {
            return true;
        }
        if self.kind() == Pred || reg.kind() == Pred {
            return false;
        }
        if self.bits() != reg.bits() {
            return false;
        }
        match (self.kind(), reg.kind()) {
            (Bits, _) | (_, Bits) => true,
            (Unsigned | Signed, Unsigned | Signed) => true,
            (Float, Float) => {
                // f16 vs bf16 of the same size: PTX holds both in .b16 registers;
                // ptxas accepts .f16 registers for .bf16 instructions (they are
                // "bit-size" storage since PTX 7.8). Same for the packed forms.
                matches!(
                    (self, reg),
                    (ScalarType::Bf16, ScalarType::F16)
                        | (ScalarType::F16, ScalarType::Bf16)
                        | (ScalarType::Bf16x2, ScalarType::F16x2)
                        | (ScalarType::F16x2, ScalarType::Bf16x2)
                )
            }
            (Float, Unsigned | Signed) | (Unsigned | Signed, Float) => {
                // Packed half types are "untyped" 32-bit containers.
                matches!(
                    self,
                    ScalarType::F16x2 | ScalarType::Bf16x2 | ScalarType::Tf32
                ) || matches!(reg, ScalarType::F16x2 | ScalarType::Bf16x2)
            }
            _ => false,
        }
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, ".{}", self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::ScalarType::*;

    #[test]
    fn type_checking_rules() {
        // PTX ISA table "Type Checking Rules" (relaxed rules for bit-size types).
        assert!(B32.accepts_register(F32));
        assert!(B32.accepts_register(S32));
        assert!(U32.accepts_register(S32));
        assert!(U32.accepts_register(B32));
        assert!(!U32.accepts_register(F32));
        assert!(!F32.accepts_register(U32));
        assert!(F32.accepts_register(B32));
        assert!(!F32.accepts_register(F64));
        assert!(!U32.accepts_register(U64));
        assert!(!B32.accepts_register(Pred));
        assert!(Pred.accepts_register(Pred));
        assert!(F16x2.accepts_register(B32));
        assert!(F16x2.accepts_register(U32));
    }

    #[test]
    fn sizes() {
        assert_eq!(F16x2.bits(), 32);
        assert_eq!(B128.bytes(), 16);
        assert_eq!(Pred.bits(), 1);
        assert_eq!(U16.widened(), Some(U32));
        assert_eq!(F32.widened(), None);
    }
}
