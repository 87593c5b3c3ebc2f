//! The PTX instruction table: one row per opcode with its spelling, family and
//! the first PTX ISA version and SM that have it (PTX ISA chapter 9, each
//! instruction's "PTX ISA Notes" and "Target ISA Notes"). Modifier-level gates
//! (`shfl.sync` needs 6.0, `.NaN` needs sm_80, ...) live with the family
//! validators in `validate/`, next to the rule they refine.

use crate::targets::PtxVersion;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    Integer,
    Float,
    Compare,
    Logic,
    Data,
    Texture,
    Control,
    Sync,
    Misc,
}

pub struct OpInfo {
    pub name: &'static str,
    pub family: Family,
    pub min_ptx: PtxVersion,
    pub min_sm: u32,
}

macro_rules! opcodes {
    ($( $v:ident = $name:literal : $fam:ident, $maj:literal, $min:literal, sm $sm:literal; )*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Opcode { $( $v ),* }

        static TABLE: &[OpInfo] = &[ $( OpInfo {
            name: $name,
            family: Family::$fam,
            min_ptx: PtxVersion::new($maj, $min),
            min_sm: $sm,
        } ),* ];

        impl Opcode {
            pub const ALL: &'static [Opcode] = &[ $( Opcode::$v ),* ];

            pub fn from_name(s: &str) -> Option<Opcode> {
                static MAP: std::sync::OnceLock<super::intern::SpellingTable<Opcode>> =
                    std::sync::OnceLock::new();
                MAP.get_or_init(|| super::intern::SpellingTable::new(Opcode::ALL.iter().map(|&o| (o.name(), o))))
                    .get(s)
            }
        }
    };
}

opcodes! {
    // Integer arithmetic (9.7.1).
    Add = "add": Integer, 1, 0, sm 0;
    Sub = "sub": Integer, 1, 0, sm 0;
    Mul = "mul": Integer, 1, 0, sm 0;
    Mad = "mad": Integer, 1, 0, sm 0;
    Mul24 = "mul24": Integer, 1, 0, sm 0;
    Mad24 = "mad24": Integer, 1, 0, sm 0;
    Sad = "sad": Integer, 1, 0, sm 0;
    Div = "div": Integer, 1, 0, sm 0;
    Rem = "rem": Integer, 1, 0, sm 0;
    Abs = "abs": Integer, 1, 0, sm 0;
    Neg = "neg": Integer, 1, 0, sm 0;
    Min = "min": Integer, 1, 0, sm 0;
    Max = "max": Integer, 1, 0, sm 0;
    Popc = "popc": Integer, 2, 0, sm 20;
    Clz = "clz": Integer, 2, 0, sm 20;
    Bfind = "bfind": Integer, 2, 0, sm 20;
    Fns = "fns": Integer, 6, 0, sm 30;
    Brev = "brev": Integer, 2, 0, sm 20;
    Bfe = "bfe": Integer, 2, 0, sm 20;
    Bfi = "bfi": Integer, 2, 0, sm 20;
    Bmsk = "bmsk": Integer, 7, 6, sm 70;
    Szext = "szext": Integer, 7, 6, sm 70;
    Dp4a = "dp4a": Integer, 5, 0, sm 61;
    Dp2a = "dp2a": Integer, 5, 0, sm 61;
    // Extended-precision integer arithmetic (9.7.2).
    Addc = "addc": Integer, 1, 2, sm 0;
    Subc = "subc": Integer, 1, 2, sm 0;
    Madc = "madc": Integer, 3, 0, sm 20;
    // Floating point (9.7.3, 9.7.4 half precision).
    Fma = "fma": Float, 1, 4, sm 0;
    Rcp = "rcp": Float, 1, 0, sm 0;
    Sqrt = "sqrt": Float, 1, 0, sm 0;
    Rsqrt = "rsqrt": Float, 1, 0, sm 0;
    Sin = "sin": Float, 1, 0, sm 0;
    Cos = "cos": Float, 1, 0, sm 0;
    Lg2 = "lg2": Float, 1, 0, sm 0;
    Ex2 = "ex2": Float, 1, 0, sm 0;
    Tanh = "tanh": Float, 7, 0, sm 75;
    Testp = "testp": Float, 2, 0, sm 20;
    Copysign = "copysign": Float, 2, 0, sm 20;
    // Comparison and selection (9.7.5).
    Set = "set": Compare, 1, 0, sm 0;
    Setp = "setp": Compare, 1, 0, sm 0;
    Selp = "selp": Compare, 1, 0, sm 0;
    Slct = "slct": Compare, 1, 0, sm 0;
    // Logic and shift (9.7.7).
    And = "and": Logic, 1, 0, sm 0;
    Or = "or": Logic, 1, 0, sm 0;
    Xor = "xor": Logic, 1, 0, sm 0;
    Not = "not": Logic, 1, 0, sm 0;
    Cnot = "cnot": Logic, 1, 0, sm 0;
    Lop3 = "lop3": Logic, 4, 3, sm 50;
    Shf = "shf": Logic, 3, 1, sm 32;
    Shl = "shl": Logic, 1, 0, sm 0;
    Shr = "shr": Logic, 1, 0, sm 0;
    // Data movement and conversion (9.7.8, 9.7.9).
    Mov = "mov": Data, 1, 0, sm 0;
    Prmt = "prmt": Data, 2, 0, sm 20;
    Ld = "ld": Data, 1, 0, sm 0;
    Ldu = "ldu": Data, 2, 0, sm 20;
    St = "st": Data, 1, 0, sm 0;
    Prefetch = "prefetch": Data, 2, 0, sm 20;
    Prefetchu = "prefetchu": Data, 2, 0, sm 20;
    Cvta = "cvta": Data, 2, 0, sm 20;
    Cvt = "cvt": Data, 1, 0, sm 0;
    Isspacep = "isspacep": Data, 2, 0, sm 20;
    // Texture and surface (9.7.10, 9.7.11).
    Tex = "tex": Texture, 1, 0, sm 0;
    Tld4 = "tld4": Texture, 2, 2, sm 20;
    Txq = "txq": Texture, 1, 5, sm 0;
    Suld = "suld": Texture, 1, 5, sm 20;
    Sust = "sust": Texture, 1, 5, sm 20;
    Sured = "sured": Texture, 1, 5, sm 20;
    Suq = "suq": Texture, 1, 5, sm 20;
    Istypep = "istypep": Texture, 4, 0, sm 30;
    // Control flow (9.7.12).
    Bra = "bra": Control, 1, 0, sm 0;
    Brx = "brx": Control, 6, 0, sm 30;
    Call = "call": Control, 1, 0, sm 0;
    Ret = "ret": Control, 1, 0, sm 0;
    Exit = "exit": Control, 1, 0, sm 0;
    // Synchronization and communication (9.7.13), warp-level (9.7.13.x).
    Bar = "bar": Sync, 1, 0, sm 0;
    Barrier = "barrier": Sync, 6, 0, sm 30;
    Membar = "membar": Sync, 1, 4, sm 0;
    Fence = "fence": Sync, 6, 0, sm 70;
    Atom = "atom": Sync, 1, 1, sm 0;
    Red = "red": Sync, 1, 2, sm 0;
    Vote = "vote": Sync, 1, 2, sm 0;
    Match = "match": Sync, 6, 0, sm 70;
    Shfl = "shfl": Sync, 3, 0, sm 30;
    Activemask = "activemask": Sync, 6, 2, sm 30;
    Redux = "redux": Sync, 7, 0, sm 80;
    // Miscellaneous (9.7.19).
    Trap = "trap": Misc, 1, 0, sm 0;
    Brkpt = "brkpt": Misc, 1, 0, sm 11;
    Nanosleep = "nanosleep": Misc, 6, 3, sm 70;
    Pmevent = "pmevent": Misc, 1, 4, sm 0;
}

impl Opcode {
    pub fn info(self) -> &'static OpInfo {
        &TABLE[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn family(self) -> Family {
        self.info().family
    }

    /// Ends the basic block (control transfer).
    pub fn is_terminator(self) -> bool {
        matches!(
            self,
            Opcode::Bra | Opcode::Brx | Opcode::Ret | Opcode::Exit | Opcode::Trap
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &op in Opcode::ALL {
            assert_eq!(Opcode::from_name(op.name()), Some(op));
        }
        assert_eq!(Opcode::from_name("addd"), None);
    }
}
