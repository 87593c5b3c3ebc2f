//! The rows. Each line: mnemonic, ptxas's index (`-` when ptxas's base
//! table does not list it), category, first SM, latency, effects, shapes,
//! accepted modifiers (each with its own first SM where that is later).
//!
//! First SM: ptxas's generation ranges (docs/MODEL.md, Opcode generations) (base sm_70 set = indices 0..136;
//! sm_73, sm_82, sm_86, sm_89, sm_90 and sm_100 additions). Opcodes ptxas's table
//! does not place take the first architecture whose vendor SASS in
//! `corpus/kernels/` uses them, where that is where the hardware
//! generation introduced them: the uniform datapath (`ULDC`, `UMOV`,
//! `UIADD3`, `S2UR`, `VOTEU`, ...) from sm_75 (Turing; no sm_70 listing has
//! a uniform register); `F2FP` from sm_80, `HMNMX2` from sm_80 (ptxas 11.8
//! emits `HMNMX2.BF16_V2` for `min.bf16` on sm_80..sm_90 and refuses
//! `.bf16` below sm_80; measured, not in the corpus), `I2FP` from sm_86 (ptxas 11.8
//! emits `I2F` + `F2F`/`PRMT` before); `REDG` and `ENDCOLLECTIVE` from sm_90
//! (ptxas's table lists `ENDCOLLECTIVE` with the sm_100 additions, but ptxas 11.8
//! emits it for sm_90: block_reduce.sm_90.sass); `CGAERRBAR` from sm_90
//! (ptxas 11.8's `membar.gl` there: `MEMBAR.SC.GPU; ERRBAR; CGAERRBAR;
//! CCTL.IVALL`, where sm_70..sm_89 have no `CGAERRBAR`).
//!
//! Latency: `RED`/`REDG` are memory operations, but fire-and-forget: no
//! vendor instance sets a scoreboard (no result, operands read at issue),
//! so the scheduler treats them as fixed-latency.
//!
//! Modifier first SM: a modifier written `"M" @ N` exists on its opcode
//! from sm_N only (later than the opcode's own first SM; the others exist
//! wherever the opcode does). Measured with ptxas 11.8 (`ptxas -arch=sm_XX
//! -O3` + `cuobjdump -sass`, sm_70..sm_90): the first target it emits the
//! modifier for, where it refuses the PTX below that target:
//!
//! | modifier | from | ptxas 11.8 below it |
//! |---|---|---|
//! | `HFMA2.BF16_V2` | sm_80 | `fma.rn.bf16`, `neg`/`abs.bf16`: "Feature '.bf16' requires .target sm_80 or higher" |
//! | `HFMA2.RELU` | sm_80 | `fma.rn.relu.f16`: "Modifier '.relu' requires .target sm_80 or higher" |
//! | `HADD2`/`HMUL2.BF16_V2` | sm_90 | `add`/`mul.bf16`: "Feature 'add.bf16' requires .target sm_90 or higher" |
//! | `HSETP2`/`HSET2.BF16_V2` | sm_90 | `setp.bf16`: "Feature 'setp.bf16' requires .target sm_90 or higher" |
//! | `HMNMX2.XORSIGN`, `FMNMX.XORSIGN` | sm_86 | `min.xorsign.abs`: "Modifier '.xorsign' requires .target sm_86 or higher" (PTX ISA: `.xorsign.abs` needs sm_86) |
//! | `FMNMX.NAN` | sm_80 | `min.NaN.f32`: "Modifier '.NaN' requires .target sm_80 or higher" |
//! | `MUFU.TANH`, `MUFU.F16` | sm_75 | `tanh.approx.f32`: "Feature 'tanh' requires .target sm_75 or higher"; `ex2.approx.f16`: "Feature 'ex2.f16/f16x2' requires .target sm_75 or higher" |
//! | `MUFU.BF16` | sm_90 | `ex2.approx.ftz.bf16`: "Feature 'ex2.bf16' requires .target sm_90 or higher" |
//! | `ATOM`/`ATOMG`/`RED.BF16x2` | sm_90 | `atom`/`red.global.add.noftz.bf16x2`: "Instruction 'atom.add.bf16x2.global' requires .target sm_90 or higher" (`.F16x2` is emitted from sm_70) |
//!
//! `HMNMX2.BF16_V2` needs no mark: `HMNMX2` itself starts at sm_80.
//!
//! Shapes use the grammar of [`super::shape`]: destinations `=` sources.
//! Modifier lists hold every modifier the corpus uses plus the documented
//! siblings of each family (all comparisons, all rounding modes, all widths).

use super::Category::*;
use super::Effects as E;
use super::Latency::{Fixed, Variable};
use super::OpcodeInfo;

macro_rules! opcodes {
    ($( $name:ident $seed:tt $cat:ident $sm:literal $lat:ident [$($eff:ident)|*]
        [$($shape:literal),*] $mods:tt );* $(;)?) => {
        /// An opcode: an index into [`OPCODES`].
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Op { $($name),* }

        /// The opcode table, indexed by [`Op`].
        pub static OPCODES: &[OpcodeInfo] = &[$(
            OpcodeInfo {
                name: stringify!($name),
                seed_index: opcodes!(@seed $seed),
                category: $cat,
                first_sm: $sm,
                latency: $lat,
                effects: E::NONE $(.union(E::$eff))*,
                shapes: &[$($shape),*],
                mods: opcodes!(@mods $mods),
                mod_first_sm: opcodes!(@modsms $mods),
            }
        ),*];

        pub(super) static ALL: &[Op] = &[$(Op::$name),*];

        pub(super) fn by_name(name: &str) -> Option<Op> {
            match name {
                $(stringify!($name) => Some(Op::$name),)*
                _ => None,
            }
        }
    };
    // A modifier written `"M" @ N` exists from sm_N only (see the module
    // comment); `@modsms` collects those pairs.
    (@mods [$($m:literal $(@ $msm:literal)?),*]) => { &[$($m),*] };
    (@modsms [$($m:literal $(@ $msm:literal)?),*]) => { &[$($( ($m, $msm), )?)*] };
    // `(cmp ..)`: the comparison and predicate-combining modifiers of
    // ISETP/FSETP/DSETP/HSETP2 and their set forms, plus the extras.
    (@mods (cmp $($m:literal $(@ $msm:literal)?),*)) => {
        &["F", "LT", "EQ", "LE", "GT", "NE", "GE", "T", "NUM", "NAN", "LTU", "EQU", "LEU",
          "GTU", "NEU", "GEU", "AND", "OR", "XOR", $($m),*]
    };
    (@modsms (cmp $($m:literal $(@ $msm:literal)?),*)) => { &[$($( ($m, $msm), )?)*] };
    (@seed -) => { None };
    (@seed $n:literal) => { Some($n) };
}

opcodes! {
    // --- ptxas's base table (sm_70), in its order ---
    ERRBAR 0 Sync 70 Fixed [FENCE] ["="] [];
    IMAD 1 IntAlu 70 Fixed [] ["R:d [P:co] = S:a S:b S:c [P:ci]"] ["WIDE", "HI", "X", "U32", "MOV", "SHL", "IADD"];
    IADD3 3 IntAlu 70 Fixed [] ["R:d [P:co0] [P:co1] = S:a S:b S:c [P:ci0] [P:ci1]"] ["X"];
    BMSK 4 IntAlu 70 Fixed [] ["R:d = S:pos S:width"] ["W"];
    SGXT 5 IntAlu 70 Fixed [] ["R:d = S:a S:n"] ["U32", "W"];
    LOP3 6 IntAlu 70 Fixed [] ["[P:pd] R:d = S:a S:b S:c I:lut P:pin"] ["LUT"];
    ISETP 7 IntAlu 70 Fixed [] ["P:p P:q = S:a S:b P:ps [P:ex]"] (cmp "U32", "EX");
    IABS 8 IntAlu 70 Fixed [] ["R:d = S:a"] [];
    LEA 9 IntAlu 70 Fixed [] ["R:d [P:co] = S:a S:b S:c S:sh [P:ci]", "R:d [P:co] = S:a S:b S:sh [P:ci]", "R:d [P:co] = S:a S:b [P:ci]"] ["HI", "X", "SX32"];
    SHF 10 IntAlu 70 Fixed [] ["R:d = S:lo S:sh S:hi"] ["L", "R", "HI", "W", "U32", "S32", "U64", "S64"];
    FFMA 11 Fp32 70 Fixed [] ["R:d = S:a S:b S:c"] ["FTZ", "SAT", "RN", "RZ", "RM", "RP"];
    FADD 12 Fp32 70 Fixed [] ["R:d = S:a S:b"] ["FTZ", "SAT", "RN", "RZ", "RM", "RP"];
    FMUL 13 Fp32 70 Fixed [] ["R:d = S:a S:b"] ["FTZ", "SAT", "RN", "RZ", "RM", "RP", "D2", "D4", "D8", "M2", "M4", "M8"];
    FMNMX 14 Fp32 70 Fixed [] ["R:d = S:a S:b P:ps"] ["FTZ", "NAN" @ 80, "XORSIGN" @ 86];
    FSWZADD 15 Fp32 70 Fixed [] ["*"] [];
    FSET 16 Fp32 70 Fixed [] ["R:d = S:a S:b P:ps"] (cmp "FTZ", "BF");
    FSEL 17 Fp32 70 Fixed [] ["R:d = S:a S:b P:p"] [];
    FSETP 18 Fp32 70 Fixed [] ["P:p P:q = S:a S:b P:ps"] (cmp "FTZ");
    MOV 19 DataMovement 70 Fixed [] ["R:d = S:a [I:mask]", "R:d = L:a"] [];
    SEL 20 DataMovement 70 Fixed [] ["R:d = S:a S:b P:p"] [];
    P2R 21 Predicate 70 Fixed [] ["R = S S [S]"] ["B1", "B2", "B3"];
    R2P 22 Predicate 70 Fixed [] ["= S S"] ["B1", "B2", "B3"];
    PLOP3 23 Predicate 70 Fixed [] ["P:p P:q = P:a P:b P:c I:lut1 I:lut2"] ["LUT"];
    PRMT 24 IntAlu 70 Fixed [] ["R:d = S:a S:sel S:b"] ["F4E", "B4E", "RC8", "ECL", "ECR", "RC16"];
    NOP 25 Other 70 Fixed [] ["="] [];
    VOTE 26 Warp 70 Fixed [WARP] ["[R:d] [P:pd] = P:src"] ["ALL", "ANY", "EQ"];
    CS2R 27 DataMovement 70 Fixed [] ["R:d = Z:sr"] ["32"];
    PMTRIG 29 Other 70 Fixed [KEEP] ["*"] [];
    PSMTEST 30 Other 70 Fixed [KEEP] ["*"] [];
    VABSDIFF 31 IntAlu 70 Fixed [] ["R:d = S:a S:b S:c"] ["U32"];
    VABSDIFF4 32 IntAlu 70 Fixed [] ["*"] [];
    IDP 33 IntAlu 70 Fixed [] ["R:d = S:a S:b S:c"] ["4A", "2A", "LO", "HI", "U8", "S8", "U16", "S16"];
    IDE 34 IntAlu 70 Fixed [] ["*"] [];
    I2I 35 Conversion 70 Variable [] ["R = S"] ["U8", "S8", "U16", "S16", "U32", "S32", "SAT"];
    I2IP 36 Conversion 70 Fixed [] ["R = S S"] ["U8", "S8", "U16", "S16", "S32", "SAT"];
    IMNMX 37 IntAlu 70 Fixed [] ["R:d = S:a S:b P:pmin"] ["U32"];
    POPC 38 IntAlu 70 Variable [] ["R:d = S:a"] [];
    FLO 39 IntAlu 70 Variable [] ["R:d [P:pd] = S:a"] ["U32", "SH"];
    FCHK 40 Fp32 70 Variable [] ["P:p = S:a S:b"] ["DIVIDE"];
    IPA 41 Other 70 Variable [] ["*"] [];
    MUFU 42 SpecialFunction 70 Variable [] ["R:d = S:a"] ["COS", "SIN", "EX2", "LG2", "RCP", "RSQ", "RCP64H", "RSQ64H", "SQRT", "TANH" @ 75, "F16" @ 75, "BF16" @ 90];
    F2F 43 Conversion 70 Variable [] ["R:d = S:a"] ["F16", "F32", "F64", "BF16", "RN", "RZ", "RM", "RP", "FTZ", "SAT", "ROUND", "FLOOR", "CEIL", "TRUNC"];
    F2I 45 Conversion 70 Variable [] ["R:d = S:a"] ["F16", "F32", "F64", "U8", "S8", "U16", "S16", "U32", "S32", "U64", "S64", "TRUNC", "FLOOR", "CEIL", "FTZ", "NTZ"];
    I2F 47 Conversion 70 Variable [] ["R:d = S:a"] ["F16", "F32", "F64", "U8", "S8", "U16", "S16", "U32", "S32", "U64", "S64", "RN", "RZ", "RM", "RP"];
    FRND 49 Conversion 70 Variable [] ["R:d = S:a"] ["F16", "F32", "F64", "TRUNC", "FLOOR", "CEIL", "FTZ"];
    AL2P 51 Other 70 Variable [] ["*"] [];
    BREV 53 IntAlu 70 Variable [] ["R:d = S:a"] [];
    BMOV 56 Control 70 Fixed [CONVERGENCE] ["R:d = B:b", "B:b = S:a"] ["32", "CLEAR"];
    S2R 57 DataMovement 70 Variable [] ["R:d = Z:sr"] [];
    B2R 58 Sync 70 Variable [BARRIER] ["R:d [P:pd] = [I]"] ["RESULT"];
    R2B 59 Sync 70 Fixed [BARRIER] ["*"] [];
    LEPC 60 DataMovement 70 Fixed [] ["R ="] [];
    BAR 61 Sync 70 Fixed [BARRIER] ["= [S:id] [S:count] [P:p]"] ["SYNC", "ARV", "RED", "POPC", "AND", "OR", "DEFER_BLOCKING"];
    SETCTAID 63 Other 70 Fixed [KEEP] ["*"] [];
    SETLMEMBASE 64 Other 70 Fixed [KEEP] ["*"] [];
    GETLMEMBASE 65 DataMovement 70 Fixed [] ["R ="] [];
    DEPBAR 66 Sync 70 Fixed [FENCE] ["= K [I]"] ["LE"];
    BRA 67 Control 70 Fixed [CONTROL] ["= [P:p] [U:mask] L:target"] ["U", "DIV", "INC", "DEC", "CONV"];
    BRX 68 Control 70 Fixed [CONTROL] ["= W:target"] ["U"];
    JMP 69 Control 70 Fixed [CONTROL] ["= L:target"] ["U"];
    JMX 70 Control 70 Fixed [CONTROL] ["= W:target"] ["U"];
    CALL 71 Control 70 Fixed [CONTROL] ["= L:target", "= S:target", "= W:target"] ["REL", "ABS", "NOINC"];
    RET 72 Control 70 Fixed [CONTROL] ["= W:target"] ["REL", "ABS", "NODEC"];
    BSSY 73 Control 70 Fixed [CONVERGENCE] ["B:b = L:target"] [];
    BREAK 74 Control 70 Fixed [CONVERGENCE] ["= [P:p] B:b"] [];
    BPT 75 Control 70 Fixed [KEEP | CONTROL] ["*"] ["TRAP"];
    KILL 76 Control 70 Fixed [CONTROL] ["="] [];
    EXIT 77 Control 70 Fixed [CONTROL] ["="] [];
    RTT 78 Control 70 Fixed [CONTROL] ["*"] [];
    BSYNC 79 Control 70 Fixed [CONVERGENCE] ["= B:b"] [];
    MATCH 80 Warp 70 Variable [WARP] ["[P:pd] R:d = S:a"] ["ALL", "ANY", "U32", "U64"];
    NANOSLEEP 81 Sync 70 Fixed [KEEP] ["= S"] [];
    NANOTRAP 82 Sync 70 Fixed [KEEP] ["*"] [];
    TEX 83 Texture 70 Variable [LOAD] ["[P:nonresident] R:d1 R:d0 = *"] ["SCR", "LZ", "LL", "B", "AOFFI", "DC", "NODEP", "NDV"];
    TLD 84 Texture 70 Variable [LOAD] ["[P:nonresident] R:d1 R:d0 = *"] ["SCR", "LZ", "LL", "AOFFI", "MS", "CL", "NODEP"];
    TLD4 85 Texture 70 Variable [LOAD] ["[P:nonresident] R:d1 R:d0 = *"] ["SCR", "R", "G", "B", "A", "AOFFI", "PTP", "DC", "NODEP"];
    TMML 86 Texture 70 Variable [LOAD] ["*"] [];
    TXD 87 Texture 70 Variable [LOAD] ["[P:nonresident] R:d1 R:d0 = *"] ["NODEP"];
    TXQ 88 Texture 70 Variable [LOAD] ["R:d1 R:d0 = *"] ["SCR", "NODEP", "B"];
    LDC 89 MemConstant 70 Variable [LOAD] ["R:d = C:c"] ["U8", "S8", "U16", "S16", "32", "64", "IL", "IS", "ISL"];
    ALD 90 Other 70 Variable [LOAD] ["*"] [];
    AST 91 Other 70 Variable [STORE] ["*"] [];
    OUT 92 Other 70 Variable [STORE] ["*"] [];
    OUT_FINAL 93 Other 70 Variable [STORE | KEEP] ["*"] [];
    LDS 94 MemShared 70 Variable [LOAD] ["R:d = M:addr"] ["U8", "S8", "U16", "S16", "32", "64", "128", "U"];
    STS 95 MemShared 70 Variable [STORE] ["= M:addr S:v"] ["U8", "S8", "U16", "S16", "8", "16", "32", "64", "128"];
    LDG 96 MemGlobal 70 Variable [LOAD] ["R:d = M:addr"] ["E", "U8", "S8", "U16", "S16", "32", "64", "128", "CONSTANT", "STRONG", "WEAK", "SYS", "GPU", "CTA", "SM", "EF", "EL", "LU", "EU", "NA", "LTC64B", "LTC128B", "LTC256B", "ZD", "MMIO", "PRIVATE"];
    STG 97 MemGlobal 70 Variable [STORE] ["= M:addr S:v"] ["E", "U8", "S8", "U16", "S16", "8", "16", "32", "64", "128", "STRONG", "WEAK", "SYS", "GPU", "CTA", "SM", "EF", "EL", "LU", "EU", "NA", "MMIO", "PRIVATE"];
    LDL 98 MemLocal 70 Variable [LOAD] ["R:d = M:addr"] ["U8", "S8", "U16", "S16", "32", "64", "128", "LU", "EF", "EL", "EU", "NA"];
    STL 99 MemLocal 70 Variable [STORE] ["= M:addr S:v"] ["U8", "S8", "U16", "S16", "8", "16", "32", "64", "128", "EF", "EL", "EU", "NA"];
    LD 100 MemGlobal 70 Variable [LOAD] ["R:d = M:addr"] ["E", "U8", "S8", "U16", "S16", "32", "64", "128", "CONSTANT", "STRONG", "WEAK", "SYS", "GPU", "CTA", "SM", "EF", "EL", "LU", "EU", "NA", "MMIO", "PRIVATE"];
    ST 101 MemGlobal 70 Variable [STORE] ["= M:addr S:v"] ["E", "U8", "S8", "U16", "S16", "8", "16", "32", "64", "128", "STRONG", "WEAK", "SYS", "GPU", "CTA", "SM", "EF", "EL", "LU", "EU", "NA", "MMIO", "PRIVATE"];
    ATOM 102 Atomic 70 Variable [ATOMIC] ["[P:pd] R:d = M:addr S:b [S:c]"] ["E", "ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "CAS", "SAFEADD", "F32", "F64", "FTZ", "RN", "F16x2", "BF16x2" @ 90, "S32", "U32", "64", "S64", "U64", "STRONG", "SYS", "GPU", "CTA", "SM"];
    ATOMG 103 Atomic 70 Variable [ATOMIC] ["[P:pd] R:d = M:addr S:b [S:c]"] ["E", "ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "CAS", "SAFEADD", "F32", "F64", "FTZ", "RN", "F16x2", "BF16x2" @ 90, "S32", "U32", "64", "S64", "U64", "STRONG", "SYS", "GPU", "CTA", "SM"];
    RED 104 Atomic 70 Fixed [ATOMIC] ["= M:addr S:b"] ["E", "ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "F32", "F64", "FTZ", "RN", "F16x2", "BF16x2" @ 90, "S32", "U32", "64", "S64", "U64", "STRONG", "SYS", "GPU", "CTA", "SM"];
    ATOMS 105 Atomic 70 Variable [ATOMIC] ["R:d = M:addr [S:b] [S:c]"] ["ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "CAS", "CAST", "SPIN", "POPC", "S32", "U32", "32", "64", "S64", "U64"];
    QSPC 106 Other 70 Variable [] ["P:pd R:r = M:addr"] ["E", "S", "L", "G"];
    CCTL 108 MemGlobal 70 Variable [KEEP] ["*"] ["IVALL", "IVALLP", "WBALL", "IV", "WB", "E"];
    CCTLL 109 MemLocal 70 Variable [KEEP] ["*"] [];
    CCTLT 110 Texture 70 Variable [KEEP] ["*"] [];
    MEMBAR 111 Sync 70 Fixed [FENCE] ["="] ["SC", "ALL", "CTA", "GPU", "SYS", "VC"];
    SULD 112 Surface 70 Variable [LOAD] ["R:d = M:coords S:surf [I:slot]"] ["D", "BA", "1D", "2D", "3D", "1D_ARRAY", "2D_ARRAY", "U8", "U16", "64", "128", "STRONG", "WEAK", "CTA", "SM", "GPU", "SYS", "TRAP", "IGN"];
    SUST 113 Surface 70 Variable [STORE] ["= M:coords R:data S:surf [I:slot]"] ["D", "BA", "P", "1D", "2D", "3D", "1D_ARRAY", "2D_ARRAY", "U8", "U16", "64", "128", "STRONG", "WEAK", "CTA", "SM", "GPU", "SYS", "R", "RG", "TRAP", "IGN"];
    SUATOM 114 Surface 70 Variable [ATOMIC] ["*"] [];
    SURED 115 Surface 70 Variable [ATOMIC] ["= M:coords R:data S:surf [I:slot]"] ["D", "BA", "1D", "2D", "3D", "ADD", "MIN", "MAX", "AND", "OR", "S32", "U64", "STRONG", "SYS", "TRAP", "IGN"];
    PIXLD 116 Other 70 Variable [] ["*"] [];
    ISBERD 117 Other 70 Variable [] ["*"] [];
    ISBEWR 118 Other 70 Variable [STORE] ["*"] [];
    SHFL 119 Warp 70 Variable [WARP] ["P:pd R:d = S:a S:b S:c"] ["IDX", "UP", "DOWN", "BFLY"];
    WARPSYNC 120 Sync 70 Fixed [CONVERGENCE] ["= [S:mask] [L:target]"] ["ALL", "COLLECTIVE"];
    YIELD 121 Control 70 Fixed [] ["="] [];
    DFMA 122 Fp64 70 Variable [] ["R:d = S:a S:b S:c"] ["RN", "RZ", "RM", "RP"];
    DADD 123 Fp64 70 Variable [] ["R:d = S:a S:b"] ["RN", "RZ", "RM", "RP"];
    DMUL 124 Fp64 70 Variable [KEEP] ["R:d = S:a S:b"] ["RN", "RZ", "RM", "RP"];
    DSETP 125 Fp64 70 Variable [] ["P:p P:q = S:a S:b P:ps"] (cmp);
    HADD2 126 Fp16 70 Fixed [] ["R:d = S:a S:b"] ["F32", "FTZ", "SAT", "BF16_V2" @ 90, "MMA"];
    HFMA2 128 Fp16 70 Fixed [] ["R:d = S:a S:b S:c", "R:d = S:a S:b S:chi S:clo"] ["MMA", "FTZ", "SAT", "BF16_V2" @ 80, "F32", "RELU" @ 80];
    HMUL2 129 Fp16 70 Fixed [] ["R:d = S:a S:b"] ["FTZ", "SAT", "BF16_V2" @ 90, "F32", "MMA"];
    HSET2 130 Fp16 70 Fixed [] ["R:d = S:a S:b P:ps"] (cmp "FTZ", "BF", "BF16_V2" @ 90);
    HSETP2 131 Fp16 70 Fixed [] ["P:p P:q = S:a S:b P:ps"] (cmp "FTZ", "H_AND", "BF16_V2" @ 90);
    HMMA 132 Tensor 70 Variable [] ["*"] [];
    IMMA 134 Tensor 75 Variable [] ["*"] [];
    // --- uniform datapath (Turing, sm_75) ---
    S2UR - Uniform 75 Variable [] ["U:d = Z:sr"] [];
    R2UR - Uniform 75 Variable [WARP] ["U:d = R:a"] [];
    ULDC - Uniform 75 Fixed [] ["U:d = C:c"] ["U8", "S8", "U16", "S16", "32", "64"];
    UMOV - Uniform 75 Fixed [] ["U:d = S:a"] [];
    UIADD3 - Uniform 75 Fixed [] ["U:d [Q:co0] [Q:co1] = S:a S:b S:c [P:ci0] [P:ci1]"] ["X"];
    UIMAD - Uniform 75 Fixed [] ["U:d = S:a S:b S:c"] ["WIDE", "HI", "U32", "X", "MOV"];
    ULOP3 - Uniform 75 Fixed [] ["[Q:pd] U:d = S:a S:b S:c I:lut P:pin"] ["LUT"];
    USHF - Uniform 75 Fixed [] ["U:d = S:lo S:sh S:hi"] ["L", "R", "HI", "W", "U32", "S32", "U64", "S64"];
    UPRMT - Uniform 75 Fixed [] ["U:d = S:a S:sel S:b"] [];
    USEL - Uniform 75 Fixed [] ["U:d = S:a S:b P:p"] [];
    UISETP - Uniform 75 Fixed [] ["Q:p Q:q = S:a S:b P:ps [P:ex]"] (cmp "U32", "EX");
    ULEA - Uniform 75 Fixed [] ["U:d [Q:co] = S:a S:b S:c S:sh [P:ci]", "U:d [Q:co] = S:a S:b S:sh [P:ci]", "U:d [Q:co] = S:a S:b [P:ci]"] ["HI", "X", "SX32"];
    USGXT - Uniform 75 Fixed [] ["U:d = S:a S:n"] ["U32", "W"];
    UFLO - Uniform 75 Fixed [] ["U:d = S:a"] ["U32", "SH"];
    UPOPC - Uniform 75 Fixed [] ["U:d = S:a"] [];
    UBREV - Uniform 75 Fixed [] ["U:d = S:a"] [];
    UPLOP3 - Uniform 75 Fixed [] ["Q:p Q:q = P:a P:b P:c I:lut1 I:lut2"] ["LUT"];
    VOTEU - Uniform 75 Fixed [WARP] ["[U:d] [Q:pd] = P:src"] ["ALL", "ANY", "EQ"];
    // --- later generations (see the module comment) ---
    F2FP - Conversion 80 Fixed [] ["R:d = S:a S:b"] ["F16", "F32", "BF16", "PACK_AB", "RELU"];
    HMNMX2 - Fp16 80 Fixed [] ["R:d = S:a S:b P:ps"] ["FTZ", "NAN", "BF16_V2", "XORSIGN" @ 86];
    I2FP - Conversion 86 Fixed [] ["R:d = S:a"] ["F32", "S32", "U32", "RN", "RZ", "RM", "RP"];
    REDUX - Warp 80 Variable [WARP] ["U:d = R:a"] ["SUM", "MIN", "MAX", "AND", "OR", "XOR", "S32"];
    REDG - Atomic 90 Fixed [ATOMIC] ["= M:addr S:b"] ["E", "ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "F32", "F64", "FTZ", "RN", "F16x2", "BF16x2", "S32", "U32", "64", "S64", "U64", "STRONG", "SYS", "GPU", "CTA", "SM"];
    ENDCOLLECTIVE - Sync 90 Fixed [CONVERGENCE] ["="] [];
    CGAERRBAR - Sync 90 Fixed [FENCE] ["="] [];
    // --- not an opcode: an instruction slot that cuobjdump printed as an
    // encoding with no text (it lacks text for some sm_90 opcodes). Kept so
    // that addresses stay right; the simulator refuses to execute it.
    UNDECODED - Other 70 Fixed [KEEP] ["="] [];
}

/// The mnemonic and index of each ptxas base-table entry that the table
/// folds into another row's modifiers (documented, checked in tests).
pub const FOLDED_SEED_VARIANTS: &[(&str, u16, &str)] = &[
    ("IMAD_WIDE", 2, "IMAD.WIDE"),
    ("CS2R_64", 28, "CS2R"),
    ("F2F_X", 44, "F2F"),
    ("F2I_X", 46, "F2I"),
    ("I2F_X", 48, "I2F"),
    ("FRND_X", 50, "FRND"),
    ("AL2P_INDEXED", 52, "AL2P"),
    ("BMOV_B", 54, "BMOV"),
    ("BMOV_R", 55, "BMOV"),
    ("BAR_INDEXED", 62, "BAR"),
    ("CCTL_NO_SB", 107, "CCTL"),
    ("HADD2_F32", 127, "HADD2.F32"),
    ("HMMA_32", 133, "HMMA"),
    ("INTRINSIC", 135, "(compiler pseudo-opcode, never in SASS)"),
];
