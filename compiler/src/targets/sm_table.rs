//! One row per SM target.
//!
//! PTX versions: the first PTX ISA version that supports each target, from the
//! PTX ISA "PTX Module Directives: .target" table (collected in
//! docs/SEMANTICS.md, "PTX versions per target").
//! Address width: ptxas refuses `.address_size 32` on sm_90 and later
//! (docs/MODEL.md, Compilation driver, phase 12; observed with ptxas 11.8).
//!
//! Constant bank 0 layout, read off the vendor SASS in `corpus/kernels/`
//! (ptxas 11.8, cuobjdump; `tests/targets_sm_table_vs_vendor.rs` re-derives it
//! from every kernel x architecture):
//! - kernel parameters start at `c[0x0][0x160]` on sm_70..sm_89 and at
//!   `c[0x0][0x210]` on sm_90 (e.g. gather_2d: `IMAD.WIDE R8, R5, R2,
//!   c[0x0][0x160]` on sm_80);
//! - the first instruction of every kernel loads the stack pointer R1 from
//!   `c[0x0][0x28]` (`IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]` / `MOV` /
//!   `LDC` on sm_90);
//! - `%ntid.x` is `c[0x0][0x0]` and `%ntid.y` `c[0x0][0x4]` (matmul_tiled);
//! - global accesses on sm_80..sm_89 go through the memory descriptor loaded
//!   by `ULDC.64 URn, c[0x0][0x118]` (UR4 usually), on sm_90 `c[0x0][0x208]`;
//!   sm_70/sm_75 SASS has none;
//! - uniform registers (UR0..UR62) appear from sm_75 on (docs/SEMANTICS.md, Control codes);
//! - shared-memory addresses start at 0 on sm_70..sm_89 and at 0x400 on
//!   sm_90, whose first KiB of the CTA's shared window is reserved: every
//!   sm_90 kernel with shared memory builds its addresses from `UMOV UR4,
//!   0x400` (sort_scan.sm_90.sass: `UMOV UR4, 0x400; UIADD3 UR4, UR4, 0x80`
//!   puts the 1 KiB dynamic array after the 128 bytes of static shared data,
//!   where sort_scan.sm_80.sass uses offset 0x80). The upper byte of an
//!   sm_90 shared address holds the CTA's rank in its cluster
//!   (`S2UR UR5, SR_CgaCtaId; UPRMT UR4, UR5, 0x654, UR4`), 0 without
//!   clusters.
//! - the driver's texture and surface information tables (what `txq` /
//!   `suq` of a non-dimension field read, ptxc::targets::abi::resinfo): their
//!   64-bit addresses are at `c[0x0][0x70]` / `c[0x0][0x80]` on
//!   sm_70..sm_89 and `c[0x0][0xf0]` / `c[0x0][0x100]` on sm_90 (ptxas
//!   11.8: `txq.channel_data_type` is `... IADD3 R2, P0, R3, c[0x0][0x70]`
//!   then `LDG.E.CONSTANT`, sm_90 `ULDC.64 UR8, c[0x0][0xf0]`; `suq.depth`
//!   reads `c[0x0][0x80]`, sm_90 `c[0x0][0x100]`).
//!
//! Registers and shared memory: CUDA C++ Programming Guide, "Technical
//! Specifications per Compute Capability": 255 registers per thread on
//! every listed target; "maximum amount of shared memory per thread block"
//! (opt-in) 48 KB on 5.x/6.x, 96 KB on 7.0/7.2, 64 KB on 7.5, 163 KB on
//! 8.0/8.7, 99 KB on 8.6/8.9/12.0, 227 KB on 9.0/10.0; per SM 64/96/64 KB
//! on 5.0/5.2/5.3, 64/96/64 KB on 6.0/6.1/6.2, 96 KB on 7.x but 64 KB on
//! 7.5, 164 KB on 8.0/8.7, 100 KB on 8.6/8.9/12.0, 228 KB on 9.0/10.0. The
//! vendor SASS agrees: no corpus listing names a register above R254.
//!
//! Rows outside sm_70..sm_90 have no vendor SASS in the corpus; their
//! constant-bank fields are `None` until measured.

use super::PtxVersion;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmInfo {
    /// The target name as written in `.target`, e.g. `sm_90a`.
    pub name: &'static str,
    /// The numeric SM version, e.g. 90 for `sm_90a`.
    pub sm: u32,
    /// Architecture-specific (`a`) variant.
    pub arch_specific: bool,
    /// First PTX ISA version that accepts this target.
    pub min_ptx: PtxVersion,
    /// Whether `.address_size 32` is allowed.
    pub allows_32bit_addresses: bool,
    /// Uniform datapath registers exist (sm_75+).
    pub uniform_registers: bool,
    /// Constant bank 0 layout (see the module comment), where measured.
    pub cbank: Option<CbankLayout>,
    /// General registers a thread may use (R0..R254; RZ is R255).
    pub max_registers: u32,
    /// Shared memory one CTA may use, with the opt-in carve-out, in bytes.
    pub max_shared_per_block: u32,
    /// Shared memory per SM, in bytes.
    pub shared_per_sm: u32,
}

/// Offsets in constant bank 0 that SASS reads launch state from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CbankLayout {
    /// First kernel parameter.
    pub param_base: u32,
    /// Initial stack pointer (loaded into R1).
    pub stack_pointer: u32,
    /// `%ntid.x`; `.y` and `.z` follow at +4 and +8.
    pub ntid: u32,
    /// `%nctaid.x`; `.y` and `.z` follow at +4 and +8 (ptxas 11.8 reads
    /// `c[0x0][0xc]` for `%nctaid.x` on sm_70..sm_90: `IMAD R0, R5,
    /// c[0x0][0xc], R0` on sm_70..89, `LDC R0, c[0x0][0xc]` on sm_90).
    pub nctaid: u32,
    /// Global-memory descriptor read with `ULDC.64 UR4`, if the SM uses one.
    pub global_descriptor: Option<u32>,
    /// Not a bank offset: the first shared-memory address of a CTA's data
    /// (0, or 0x400 on sm_90, see the module comment).
    pub shared_base: u32,
    /// The 64-bit address of the driver's texture information table
    /// (`txq` of header and sampler fields; ptxc::targets::abi::resinfo).
    pub tex_info: u32,
    /// The 64-bit address of the driver's surface information table
    /// (`suq` of `.depth` and the format fields; ptxc::targets::abi::resinfo).
    pub surf_info: u32,
    /// `%nsmid` (ptxas 11.8, sm_70..sm_90: `MOV R9, c[0x0][0x10c]`,
    /// `LDC R9, c[0x0][0x10c]` on sm_90).
    pub nsmid: u32,
    /// `%dynamic_smem_size` (ptxas 11.8, sm_70..sm_90: `MOV R11,
    /// c[0x0][0x2c]`).
    pub dynamic_smem_size: u32,
    /// `%gridid`, 64-bit (ptxas 11.8, sm_70..sm_90: `MOV R6, c[0x0][0x30]
    /// ; MOV R7, c[0x0][0x34]`, `LDC.64 R2, c[0x0][0x30]` on sm_90).
    pub gridid: u32,
    /// `%envreg0`; `%envregN` is at `+4N` (ptxas 11.8: `%envreg0`
    /// `c[0x0][0x88]`, `%envreg31` `c[0x0][0x104]` on sm_70..sm_89;
    /// `c[0x0][0x40]` and `c[0x0][0xbc]` on sm_90).
    pub envreg: u32,
    /// The word `%total_smem_size` subtracts from `SR_SMEMSZ` (the
    /// CTA's reserved shared bytes): ptxas 11.8 on sm_80..sm_90 `S2R R8,
    /// SR_SMEMSZ ; IADD3 R8, R8, -c[0x0][0x114], RZ` (sm_90: `S2UR` and
    /// `LDC R8, c[0x0][0x114]`); `None` where it reads `SR_SMEMSZ` alone
    /// (sm_70, sm_75).
    pub reserved_smem: Option<u32>,
    /// The generic address of the module's constant bank 3 (its `.const`
    /// variables), 64-bit: ptxas 11.8 lowers `cvta.const` of `ctab` and a
    /// generic `ld` through it to `MOV R4, c[0x0][0x50] ; MOV R5,
    /// c[0x0][0x54] ; LD.E R5, [R4.64+0x4]` on sm_70..sm_89 (measured on
    /// sm_70, sm_75, sm_80, sm_86, sm_89) and `LDC.64 R2, c[0x0][0xd0] ;
    /// LD.E R3, [R2.64+0x4]` on sm_90.
    pub const_window: u32,
}

const VOLTA_TURING: CbankLayout = CbankLayout {
    param_base: 0x160,
    stack_pointer: 0x28,
    ntid: 0x0,
    nctaid: 0xc,
    global_descriptor: None,
    shared_base: 0,
    tex_info: 0x70,
    surf_info: 0x80,
    nsmid: 0x10c,
    dynamic_smem_size: 0x2c,
    gridid: 0x30,
    envreg: 0x88,
    reserved_smem: None,
    const_window: 0x50,
};
const AMPERE_ADA: CbankLayout = CbankLayout {
    param_base: 0x160,
    stack_pointer: 0x28,
    ntid: 0x0,
    nctaid: 0xc,
    global_descriptor: Some(0x118),
    shared_base: 0,
    tex_info: 0x70,
    surf_info: 0x80,
    nsmid: 0x10c,
    dynamic_smem_size: 0x2c,
    gridid: 0x30,
    envreg: 0x88,
    reserved_smem: Some(0x114),
    const_window: 0x50,
};
const HOPPER: CbankLayout = CbankLayout {
    param_base: 0x210,
    stack_pointer: 0x28,
    ntid: 0x0,
    nctaid: 0xc,
    global_descriptor: Some(0x208),
    shared_base: 0x400,
    tex_info: 0xf0,
    surf_info: 0x100,
    nsmid: 0x10c,
    dynamic_smem_size: 0x2c,
    gridid: 0x30,
    envreg: 0x40,
    reserved_smem: Some(0x114),
    const_window: 0xd0,
};

const KB: u32 = 1024;

/// (max shared per block, shared per SM) by SM version (module comment).
const fn shared_sizes(sm: u32) -> (u32, u32) {
    match sm {
        50 | 53 | 60 | 62 => (48 * KB, 64 * KB),
        52 | 61 => (48 * KB, 96 * KB),
        70 | 72 => (96 * KB, 96 * KB),
        75 => (64 * KB, 64 * KB),
        80 | 87 => (163 * KB, 164 * KB),
        86 | 89 | 120 => (99 * KB, 100 * KB),
        _ => (227 * KB, 228 * KB),
    }
}

const fn row(name: &'static str, sm: u32, a: bool, major: u8, minor: u8) -> SmInfo {
    SmInfo {
        name,
        sm,
        arch_specific: a,
        min_ptx: PtxVersion::new(major, minor),
        allows_32bit_addresses: sm < 90,
        uniform_registers: sm >= 75,
        cbank: None,
        max_registers: 255,
        max_shared_per_block: shared_sizes(sm).0,
        shared_per_sm: shared_sizes(sm).1,
    }
}

const fn with_cbank(r: SmInfo, c: CbankLayout) -> SmInfo {
    SmInfo {
        cbank: Some(c),
        ..r
    }
}

pub static SM_TABLE: &[SmInfo] = &[
    row("sm_50", 50, false, 4, 0),
    row("sm_52", 52, false, 4, 1),
    row("sm_53", 53, false, 4, 2),
    row("sm_60", 60, false, 5, 0),
    row("sm_61", 61, false, 5, 0),
    row("sm_62", 62, false, 5, 0),
    with_cbank(row("sm_70", 70, false, 6, 0), VOLTA_TURING),
    row("sm_72", 72, false, 6, 1),
    with_cbank(row("sm_75", 75, false, 6, 3), VOLTA_TURING),
    with_cbank(row("sm_80", 80, false, 7, 0), AMPERE_ADA),
    with_cbank(row("sm_86", 86, false, 7, 1), AMPERE_ADA),
    row("sm_87", 87, false, 7, 4),
    with_cbank(row("sm_89", 89, false, 7, 8), AMPERE_ADA),
    with_cbank(row("sm_90", 90, false, 7, 8), HOPPER),
    row("sm_90a", 90, true, 8, 0),
    row("sm_100", 100, false, 8, 6),
    row("sm_100a", 100, true, 8, 6),
    row("sm_120", 120, false, 8, 7),
    row("sm_120a", 120, true, 8, 7),
];

/// The row for a target name such as `sm_80`.
pub fn lookup_sm(name: &str) -> Option<&'static SmInfo> {
    SM_TABLE.iter().find(|r| r.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_follow_the_isa_table() {
        // Values from the PTX ISA .target table (docs/SEMANTICS.md, PTX versions per target).
        let want = [
            ("sm_70", "6.0"),
            ("sm_75", "6.3"),
            ("sm_80", "7.0"),
            ("sm_86", "7.1"),
            ("sm_89", "7.8"),
            ("sm_90", "7.8"),
            ("sm_90a", "8.0"),
            ("sm_100", "8.6"),
            ("sm_120", "8.7"),
        ];
        for (sm, v) in want {
            assert_eq!(lookup_sm(sm).unwrap().min_ptx.to_string(), v, "{sm}");
        }
        assert!(lookup_sm("sm_95").is_none());
    }

    #[test]
    fn thirty_two_bit_addressing_stops_at_sm_90() {
        assert!(lookup_sm("sm_89").unwrap().allows_32bit_addresses);
        assert!(!lookup_sm("sm_90").unwrap().allows_32bit_addresses);
        assert!(!lookup_sm("sm_90a").unwrap().allows_32bit_addresses);
        assert!(!lookup_sm("sm_120").unwrap().allows_32bit_addresses);
    }

    #[test]
    fn table_is_sorted_and_versions_known() {
        for w in SM_TABLE.windows(2) {
            assert!(w[0].sm <= w[1].sm && w[0].min_ptx <= w[1].min_ptx);
        }
        for r in SM_TABLE {
            assert!(r.min_ptx.is_known(), "{}", r.name);
        }
    }

    #[test]
    fn shared_memory_follows_the_programming_guide() {
        // CUDA C++ Programming Guide, technical specifications table.
        let want = [
            ("sm_70", 98_304, 98_304),
            ("sm_75", 65_536, 65_536),
            ("sm_80", 166_912, 167_936),
            ("sm_86", 101_376, 102_400),
            ("sm_89", 101_376, 102_400),
            ("sm_90", 232_448, 233_472),
        ];
        for (name, block, sm) in want {
            let r = lookup_sm(name).unwrap();
            assert_eq!(
                (r.max_shared_per_block, r.shared_per_sm),
                (block, sm),
                "{name}"
            );
            assert_eq!(r.max_registers, 255);
        }
    }
}
