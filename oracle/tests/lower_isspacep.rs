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
    assert_eq!(ptxc::lower::WINDOW_SPAN, w.span);
}
