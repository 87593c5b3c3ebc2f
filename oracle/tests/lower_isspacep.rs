//! The lowering of `isspacep` (compiler/src/lower/space.rs), executed in
//! the simulator against the PTX interpreter (`seq_harness`): every output
//! word must agree bit for bit, on sm_70, sm_80 and sm_90.
//!
//! Domains:
//! - Raw addresses: for each generic window the interpreter documents
//!   (ptx_interp/memory.rs: param `0x7c00_0000_0000`, const
//!   `0x7d00_0000_0000`, local `0x7e00_0000_0000`, shared
//!   `0x7f00_0000_0000`, each `1 << 40` bytes) its first and last bytes,
//!   the bytes just outside, the middle, and the same addresses with a high
//!   bit flipped; plus 0, the launch buffers' region, `u64::MAX` and
//!   seeded random words (most of them global).
//! - Addresses from `cvta`: each space's variable (and a global buffer)
//!   converted to generic at several offsets, then tested against every
//!   space, so the lowering's own `cvta` and `isspacep` stay consistent
//!   with the interpreter's.

mod seq_harness;

use seq_harness::*;

const ARCHS: [&str; 3] = ["sm_70", "sm_80", "sm_90"];

const SPACES: [&str; 7] = [
    "global",
    "shared",
    "shared::cta",
    "shared::cluster",
    "local",
    "const",
    "param",
];

fn raw_addresses() -> Vec<u64> {
    let span = 1u64 << 40;
    let mut v = vec![0, 1, 0x1000_0000, 0x1000_0004, u64::MAX, 0x8000_0000_0000];
    for base in [
        0x7c00_0000_0000u64,
        0x7d00_0000_0000,
        0x7e00_0000_0000,
        0x7f00_0000_0000,
    ] {
        for a in [
            base - 1,
            base,
            base + 1,
            base + 0xffff_ffff,
            base + 0x1_0000_0000,
            base + span / 2,
            base + span - 1,
            base + span,
        ] {
            v.extend([a, a ^ (1 << 63), a ^ (1 << 47), a ^ (1 << 32)]);
        }
    }
    let mut rng = Rng(0x15_5bace);
    for _ in 0..2000 {
        v.push(rng.next());
        // Random offsets inside the window region.
        v.push(0x7c00_0000_0000 + rng.next() % (5 * span));
    }
    v
}

#[test]
fn isspacep_raw_addresses_agree() {
    let ops: Vec<Op> = SPACES
        .iter()
        .map(|s| {
            op(
                &format!("isspacep.{s}"),
                &["u64"],
                "u32",
                &format!("isspacep.{s} %p, %a;\nselp.u32 %d, 1, 0, %p;"),
            )
        })
        .collect();
    // Tests that can fail: the raw set holds addresses of every space.
    let inputs = vec![raw_addresses()];
    check(&ops, &inputs, &ARCHS);
}

/// A kernel of `seq_harness::spec`'s shape (inputs `a`: one u64 offset per
/// thread, output `d0`: u32): thread `i` converts the address of each
/// space's variable plus `a[i]` to generic and stores one bit per
/// (source space, tested space).
fn cvta_kernel() -> String {
    let tested = ["global", "shared", "local", "const", "param"];
    let mut body = String::new();
    let mut bit = 0;
    for (src, addr) in [
        ("shared", "smem"),
        ("local", "depot"),
        ("const", "cdata"),
        ("global", "%g"),
    ] {
        body.push_str(&format!(
            "mov.u64 %t, {addr};\nadd.u64 %t, %t, %a;\ncvta.{src}.u64 %t, %t;\n"
        ));
        for s in tested {
            body.push_str(&format!(
                "isspacep.{s} %p, %t;\nselp.u32 %v, {}, 0, %p;\nor.b32 %d, %d, %v;\n",
                1u32 << bit
            ));
            bit += 1;
        }
    }
    format!(
        r#".version 7.8
.target sm_80
.address_size 64
.const .align 4 .b8 cdata[64] = {{1, 2, 3}};
.visible .entry k(.param .u32 pn, .param .u64 pa, .param .u64 pd0)
{{
.shared .align 4 .b8 smem[64];
.local .align 4 .b8 depot[64];
.reg .u32 %i, %n, %cx, %nx, %tx, %d, %v;
.reg .u64 %rp, %a, %t, %g;
.reg .pred %p, %ex;
mov.u32 %cx, %ctaid.x;
mov.u32 %nx, %ntid.x;
mov.u32 %tx, %tid.x;
mad.lo.u32 %i, %cx, %nx, %tx;
ld.param.u32 %n, [pn];
setp.ge.u32 %ex, %i, %n;
@%ex bra DONE;
ld.param.u64 %g, [pa];
mad.wide.u32 %rp, %i, 8, %g;
ld.global.u64 %a, [%rp];
mov.u32 %d, 0;
{body}ld.param.u64 %rp, [pd0];
mad.wide.u32 %rp, %i, 4, %rp;
st.global.u32 [%rp], %d;
DONE:
ret;
}}
"#
    )
}

#[test]
fn isspacep_of_cvta_addresses_agrees() {
    let g = [op("isspacep(cvta)", &["u64"], "u32", "")];
    let offsets: Vec<u64> = vec![0, 1, 4, 8, 31, 32, 60, 63];
    let sp = spec(&g, &[offsets]);
    let src = cvta_kernel();
    for arch in ARCHS {
        let d = differences(&src, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        assert!(d.is_empty(), "{arch}: {d:x?}");
    }
}

/// The window size the lowering assumes is the interpreter's.
#[test]
fn window_constants_match_the_interpreter() {
    let w = oracle::ptx_interp::memory::Windows::new(true);
    assert_eq!(ptxc::targets::abi::WINDOW_SPAN, w.span);
}

// ---- 32-bit addresses (`.address_size 32`) ----------------------------------

/// The targets with 32-bit addressing (ptxas 11.8 refuses it from sm_90).
const ARCHS32: [&str; 5] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89"];

/// `src` (a 64-bit kernel of the harness's shape) with 32-bit addresses:
/// `.u32` buffer parameters and address registers, `mad.lo` indexing.
fn to32(src: &str) -> String {
    let mut s = src
        .replace(".address_size 64", ".address_size 32")
        .replace(".param .u64 ", ".param .u32 ")
        .replace(".reg .u64 %rp", ".reg .u32 %rp")
        .replace("ld.param.u64 %rp", "ld.param.u32 %rp")
        .replace("ld.param.u64 %g", "ld.param.u32 %g")
        .replace("mad.wide.u32 %rp, %i, 8, %g", "mad.lo.u32 %rp, %i, 4, %g")
        .replace("ld.global.u64 %a", "ld.global.u32 %a")
        .replace("mov.u64 %t", "mov.u32 %t")
        .replace("add.u64 %t", "add.u32 %t");
    for w in [1, 2, 4, 8] {
        s = s.replace(
            &format!("mad.wide.u32 %rp, %i, {w}, %rp"),
            &format!("mad.lo.u32 %rp, %i, {w}, %rp"),
        );
    }
    for sp in ["shared", "local", "const", "global"] {
        s = s.replace(&format!("cvta.{sp}.u64"), &format!("cvta.{sp}.u32"));
    }
    assert!(!s.contains("u64"), "{s}");
    s
}

fn raw_addresses_32() -> Vec<u64> {
    let span = 0x0800_0000u64;
    let mut v = vec![0, 1, 0x1000_0000, 0x1000_0004, 0xffff_ffff, 0x8000_0000];
    for base in [0xc000_0000u64, 0xd000_0000, 0xe000_0000, 0xf000_0000] {
        for a in [
            base - 1,
            base,
            base + 1,
            base + span / 2,
            base + span - 1,
            base + span,
        ] {
            v.extend([a, a ^ (1 << 31), a ^ (1 << 27)]);
        }
    }
    // >= 1e5 random addresses (the issue's bar for 32-bit inputs).
    let mut rng = Rng(0x32_5bace);
    for _ in 0..50_000 {
        v.push(rng.next() & 0xffff_ffff);
        v.push(0xc000_0000 + rng.next() % (0x4000_0000));
    }
    v
}

#[test]
fn isspacep_raw_32_bit_addresses_agree() {
    let ops: Vec<Op> = SPACES
        .iter()
        .map(|s| {
            op(
                &format!("isspacep.{s}"),
                &["u32"],
                "u32",
                &format!("isspacep.{s} %p, %a;\nselp.u32 %d, 1, 0, %p;"),
            )
        })
        .collect();
    let src = to32(&kernel(&ops));
    let sp = spec(&ops, &[raw_addresses_32()]);
    for arch in ARCHS32 {
        let d = differences(&src, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        assert!(d.is_empty(), "{arch}: {:x?}", &d[..d.len().min(8)]);
    }
    // Not vacuous: the interpreter answers yes for every space somewhere.
    let m = ptxc::ptx::parse_checked("seq", &src).unwrap();
    let r = oracle::ptx_interp::run(&m, &src, &sp, &Default::default()).unwrap();
    for (k, b) in r.outputs.buffers.iter().enumerate() {
        assert!(b.bits.contains(&1), "{}: never inside", SPACES[k]);
        assert!(b.bits.contains(&0), "{}: always inside", SPACES[k]);
    }
}

#[test]
fn isspacep_of_32_bit_cvta_addresses_agrees() {
    // cvta and the 32-bit global loads and stores of the kernel itself
    // (ld.global.u32 / st.global.u32 through 32-bit registers: no `.E`).
    let g = [op("isspacep(cvta)", &["u32"], "u32", "")];
    let offsets: Vec<u64> = vec![0, 1, 4, 8, 31, 32, 60, 63];
    let sp = spec(&g, &[offsets]);
    let src = to32(&cvta_kernel());
    for arch in ARCHS32 {
        let d = differences(&src, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        assert!(d.is_empty(), "{arch}: {d:x?}");
    }
}

#[test]
fn window_constants_match_the_interpreter_32() {
    let w = oracle::ptx_interp::memory::Windows::new(false);
    assert_eq!(u64::from(ptxc::targets::abi::WINDOW_SPAN_32), w.span);
}

/// A 32-bit address register in a 64-bit module: ptxas 11.8 warns and
/// accesses through the 32-bit address (`LDG R0, [UR4]`, `STG [UR4], R0`,
/// sm_80 and sm_90); the interpreter's address is the register's value.
/// Buffers lie below 2^32, so the low word of a buffer address reaches it.
#[test]
fn a_32_bit_address_register_in_a_64_bit_module_agrees() {
    let g = [op(
        "ld/st via u32",
        &["u32"],
        "u32",
        "cvt.u32.u64 %v, %rp;\nst.global.u32 [%v], %a;\nld.global.u32 %d, [%v];\nadd.u32 %d, %d, 1;",
    )];
    let src = kernel(&g).replace(".reg .u32 %i,", ".reg .u32 %v, %i,");
    let inputs: Vec<u64> = (0..64).map(|k| k * 0x0101_0101).collect();
    let sp = spec(&g, &[inputs]);
    for arch in ["sm_70", "sm_80", "sm_90"] {
        let d = differences(&src, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        assert!(d.is_empty(), "{arch}: {d:x?}");
    }
}
