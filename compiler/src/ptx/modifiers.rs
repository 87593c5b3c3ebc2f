//! The instruction-modifier table: every dotted suffix an instruction may
//! carry (`.rn`, `.global`, `.v4`, `.s32`, ...), with its spelling and its
//! category. The lexer/parser map text to `Mod`, the validator reads the
//! categories, and the printer writes `Mod::text` back: this is the only
//! place a modifier is spelled. A spelling is one entry even where it means
//! different things to different opcodes (`.hi` is a comparison for `setp`
//! and the high half for `mul`; `.b` is a tld4 component and a surface
//! access kind); the opcode's validator gives it its meaning.

use super::types::ScalarType;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModCat {
    Type,
    Rounding,
    IntRounding,
    Cmp,
    BoolOp,
    Space,
    Cache,
    Order,
    Scope,
    Vector,
    Geometry,
    Query,
    Component,
    Misc,
}

macro_rules! modifiers {
    ($( $v:ident = $text:literal : $cat:ident ),* $(,)?) => {
        /// One instruction modifier.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Mod { $( $v ),* }

        impl Mod {
            pub const ALL: &'static [Mod] = &[ $( Mod::$v ),* ];

            /// The spelling without the leading dot.
            pub fn text(self) -> &'static str {
                match self { $( Mod::$v => $text ),* }
            }

            pub fn cat(self) -> ModCat {
                match self { $( Mod::$v => ModCat::$cat ),* }
            }

            /// Looks up a modifier by its spelling (without the dot).
            pub fn from_text(s: &str) -> Option<Mod> {
                static MAP: std::sync::OnceLock<super::intern::SpellingTable<Mod>> =
                    std::sync::OnceLock::new();
                MAP.get_or_init(|| super::intern::SpellingTable::new(Mod::ALL.iter().map(|&m| (m.text(), m))))
                    .get(s)
            }
        }
    };
}

modifiers! {
    // Types (PTX ISA 5.2).
    B8 = "b8": Type, B16 = "b16": Type, B32 = "b32": Type, B64 = "b64": Type, B128 = "b128": Type,
    U8 = "u8": Type, U16 = "u16": Type, U32 = "u32": Type, U64 = "u64": Type,
    S8 = "s8": Type, S16 = "s16": Type, S32 = "s32": Type, S64 = "s64": Type,
    F16 = "f16": Type, F16x2 = "f16x2": Type, Bf16 = "bf16": Type, Bf16x2 = "bf16x2": Type,
    Tf32 = "tf32": Type, F32 = "f32": Type, F64 = "f64": Type, Pred = "pred": Type,
    // Rounding (9.7.3 floating point, 9.7.9.21 cvt).
    Rn = "rn": Rounding, Rz = "rz": Rounding, Rm = "rm": Rounding, Rp = "rp": Rounding,
    Rna = "rna": Rounding,
    Rni = "rni": IntRounding, Rzi = "rzi": IntRounding, Rmi = "rmi": IntRounding, Rpi = "rpi": IntRounding,
    // Comparison operators (9.7.5 setp).
    Eq = "eq": Cmp, Ne = "ne": Cmp, Lt = "lt": Cmp, Le = "le": Cmp, Gt = "gt": Cmp, Ge = "ge": Cmp,
    Lo = "lo": Cmp, Ls = "ls": Cmp, Hi = "hi": Cmp, Hs = "hs": Cmp,
    Equ = "equ": Cmp, Neu = "neu": Cmp, Ltu = "ltu": Cmp, Leu = "leu": Cmp, Gtu = "gtu": Cmp,
    Geu = "geu": Cmp, Num = "num": Cmp, Nan = "nan": Cmp,
    // Boolean / logical operations (setp combine, atom, red, redux, bar.red).
    And = "and": BoolOp, Or = "or": BoolOp, Xor = "xor": BoolOp,
    // Atomic and reduction operations.
    Add = "add": Misc, Min = "min": Misc, Max = "max": Misc, Inc = "inc": Misc, Dec = "dec": Misc,
    Exch = "exch": Misc, Cas = "cas": Misc, Popc = "popc": Misc,
    // State spaces.
    Global = "global": Space, Shared = "shared": Space, SharedCta = "shared::cta": Space,
    SharedCluster = "shared::cluster": Space, Local = "local": Space, Const = "const": Space,
    Param = "param": Space, ParamEntry = "param::entry": Space, ParamFunc = "param::func": Space,
    // Cache operators and eviction priorities (9.7.9.1, 9.7.9.2).
    Ca = "ca": Cache, Cg = "cg": Cache, Cs = "cs": Cache, Lu = "lu": Cache, Cv = "cv": Cache,
    Wb = "wb": Cache, Wt = "wt": Cache, Nc = "nc": Cache,
    L1EvictNormal = "L1::evict_normal": Cache, L1EvictUnchanged = "L1::evict_unchanged": Cache,
    L1EvictFirst = "L1::evict_first": Cache, L1EvictLast = "L1::evict_last": Cache,
    L1NoAllocate = "L1::no_allocate": Cache, L2EvictNormal = "L2::evict_normal": Cache,
    L2EvictFirst = "L2::evict_first": Cache, L2EvictLast = "L2::evict_last": Cache,
    L2CacheHint = "L2::cache_hint": Cache, L2_64B = "L2::64B": Cache, L2_128B = "L2::128B": Cache,
    L2_256B = "L2::256B": Cache, L1 = "L1": Cache, L2 = "L2": Cache,
    // Memory consistency (8.x memory model).
    Volatile = "volatile": Order, Relaxed = "relaxed": Order, Acquire = "acquire": Order,
    Release = "release": Order, AcqRel = "acq_rel": Order, Sc = "sc": Order, Weak = "weak": Order,
    Mmio = "mmio": Order,
    Cta = "cta": Scope, Cluster = "cluster": Scope, Gpu = "gpu": Scope, Sys = "sys": Scope,
    Gl = "gl": Scope,
    // Vectors.
    V2 = "v2": Vector, V4 = "v4": Vector, V8 = "v8": Vector,
    // Texture and surface geometry.
    D1 = "1d": Geometry, D2 = "2d": Geometry, D3 = "3d": Geometry, A1d = "a1d": Geometry,
    A2d = "a2d": Geometry, Cube = "cube": Geometry, Acube = "acube": Geometry,
    D2ms = "2dms": Geometry, A2dms = "a2dms": Geometry,
    // txq / suq queries.
    Width = "width": Query, Height = "height": Query, Depth = "depth": Query,
    ChannelDataType = "channel_data_type": Query, ChannelOrder = "channel_order": Query,
    NormalizedCoords = "normalized_coords": Query, FilterMode = "filter_mode": Query,
    AddrMode0 = "addr_mode_0": Query, AddrMode1 = "addr_mode_1": Query,
    AddrMode2 = "addr_mode_2": Query, ArraySize = "array_size": Query,
    NumMipmapLevels = "num_mipmap_levels": Query, NumSamples = "num_samples": Query,
    ForceUnnormalizedCoords = "force_unnormalized_coords": Query,
    MemoryLayout = "memory_layout": Query,
    // tld4 components.
    R = "r": Component, G = "g": Component, Bc = "b": Component, A = "a": Component,
    // Everything else.
    Ftz = "ftz": Misc, Sat = "sat": Misc, Satfinite = "satfinite": Misc, Relu = "relu": Misc,
    Approx = "approx": Misc, Full = "full": Misc,
    Wide = "wide": Misc, Cc = "cc": Misc, Shiftamt = "shiftamt": Misc, Uni = "uni": Misc,
    NaNProp = "NaN": Misc, Xorsign = "xorsign": Misc, Abs = "abs": Misc,
    Sync = "sync": Misc, Aligned = "aligned": Misc, Arrive = "arrive": Misc, Red = "red": Misc,
    Warp = "warp": Misc, To = "to": Misc, Idx = "idx": Misc,
    Up = "up": Misc, Down = "down": Misc, Bfly = "bfly": Misc,
    All = "all": Misc, Any = "any": Misc, Ballot = "ballot": Misc,
    Wrap = "wrap": Misc, Clamp = "clamp": Misc, L = "l": Misc,
    F4e = "f4e": Misc, B4e = "b4e": Misc, Rc8 = "rc8": Misc, Ecl = "ecl": Misc, Ecr = "ecr": Misc,
    Rc16 = "rc16": Misc,
    Finite = "finite": Misc, Infinite = "infinite": Misc, Number = "number": Misc,
    Notanumber = "notanumber": Misc, Normal = "normal": Misc, Subnormal = "subnormal": Misc,
    Level = "level": Misc, Grad = "grad": Misc, Pack = "pack": Misc, P = "p": Misc,
    Trap = "trap": Misc, Zero = "zero": Misc, Mask = "mask": Misc, Texref = "texref": Misc,
    Samplerref = "samplerref": Misc, Surfref = "surfref": Misc, Proxy = "proxy": Misc,
    Alias = "alias": Misc, Noinc = "noinc": Misc, Noftz = "noftz": Misc,
}

impl Mod {
    /// The type this modifier names, if it is a type.
    pub fn as_type(self) -> Option<ScalarType> {
        if self.cat() == ModCat::Type {
            ScalarType::from_name(self.text())
        } else {
            None
        }
    }

    /// The modifier naming a type.
    pub fn of_type(t: ScalarType) -> Mod {
        Mod::from_text(t.name()).expect("every type has a modifier")
    }
}
