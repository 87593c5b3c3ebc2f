//! `cvt.pack.sat.{u8,s8}.s32.b32 d, a, b, c` and `cvt.pack.sat.{u16,s16}.s32
//! d, a, b` (PTX ISA, "Data Movement and Conversion Instructions: cvt.pack").
//!
//! Expected values come from the ISA's prose: a and b are converted "with
//! saturation" to the convert type (clamped to its MIN..MAX), b's result
//! fills the low field, a's the field above it, and with c "remaining bits
//! of d are copied from lower bits of c". The host side builds each field
//! with Rust's own narrowing casts (`as u8`, `as i8 as u8`, ...) after a
//! clamp, independently of the interpreter's code; a few rows are written
//! out by hand.
//!
//! The front end accepts the .u8/.s8 (with c) and .u16/.s16 (without c)
//! forms; the sub-byte .u4/.s4/.u2/.s2 forms are not parsed and so not
//! tested here.

use super::harness::*;

/// Host reference, one convert type at a time.
fn want_u8(a: i32, b: i32, c: u32) -> u32 {
    let fa = a.clamp(0, 255) as u8;
    let fb = b.clamp(0, 255) as u8;
    u32::from_le_bytes([fb, fa, c as u8, (c >> 8) as u8])
}
fn want_s8(a: i32, b: i32, c: u32) -> u32 {
    let fa = a.clamp(-128, 127) as i8 as u8;
    let fb = b.clamp(-128, 127) as i8 as u8;
    u32::from_le_bytes([fb, fa, c as u8, (c >> 8) as u8])
}
fn want_u16(a: i32, b: i32) -> u32 {
    let fa = a.clamp(0, 65535) as u16;
    let fb = b.clamp(0, 65535) as u16;
    (u32::from(fa) << 16) | u32::from(fb)
}
fn want_s16(a: i32, b: i32) -> u32 {
    let fa = a.clamp(-32768, 32767) as i16 as u16;
    let fb = b.clamp(-32768, 32767) as i16 as u16;
    (u32::from(fa) << 16) | u32::from(fb)
}

/// Operand values covering both saturation ends of every convert type.
const EDGES: &[i32] = &[
    0,
    1,
    -1,
    5,
    100,
    126,
    127,
    128,
    -127,
    -128,
    -129,
    254,
    255,
    256,
    -255,
    -256,
    32766,
    32767,
    32768,
    -32767,
    -32768,
    -32769,
    65534,
    65535,
    65536,
    70000,
    -70000,
    i32::MAX,
    i32::MIN,
    i32::MAX - 1,
    i32::MIN + 1,
];

/// c values whose every bit matters: only the low 16 bits may reach d.
const CS: &[u32] = &[0, 0xffff_ffff, 0x1234_5678, 0xa5a5_5a5a, 0x0000_8001];

fn u(x: u32) -> u64 {
    u64::from(x)
}

/// Pairs (a, b) from EDGES, each value in both positions, and c from CS.
fn triples() -> Vec<(i32, i32, u32)> {
    let mut v = Vec::new();
    for (k, &a) in EDGES.iter().enumerate() {
        let b = EDGES[(k * 7 + 3) % EDGES.len()];
        let c = CS[k % CS.len()];
        v.push((a, b, c));
        v.push((b, a, CS[(k + 2) % CS.len()]));
    }
    v
}

const DECLS3: &str = "\t.reg .b32 %a, %b, %c, %d;";

fn body3(inst: &str) -> String {
    format!(
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\tld.global.u32 %c, [%pc];\n\
         \t{inst} %d, %a, %b, %c;\n\tst.global.u32 [%pd], %d;"
    )
}

fn body2(inst: &str) -> String {
    format!(
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\
         \t{inst} %d, %a, %b;\n\tst.global.u32 [%pd], %d;"
    )
}

#[test]
fn cvt_pack_u8_and_s8_with_c() {
    let _c = rows_of("cvt_pack_u8_and_s8_with_c");
    let mut t = Tables::new();
    let mut rows = vec![
        // by hand: a = 300 -> 255 (0xff), b = -5 -> 0; c's low 16 bits 0xccdd
        row(
            &[i(300), i(-5), u(0xaabb_ccdd)],
            &[u(0xccdd_ff00)],
            "u8 by hand",
        ),
        row(
            &[i(i32::MIN), i(i32::MAX), u(0)],
            &[u(0x0000_00ff)],
            "u8 INT_MIN/INT_MAX",
        ),
        row(
            &[i(7), i(9), u(0xffff_ffff)],
            &[u(0xffff_0709)],
            "u8 in range, c all ones",
        ),
    ];
    for (a, b, c) in triples() {
        rows.push(row(&[i(a), i(b), u(c)], &[u(want_u8(a, b, c))], "u8 edges"));
    }
    t.t(
        "cvt.pack.sat.u8.s32.b32",
        DECLS3,
        &body3("cvt.pack.sat.u8.s32.b32"),
        rows,
    );
    let mut rows = vec![
        // by hand: a = -200 -> -128 (0x80), b = 100 (0x64); c low 16 bits 0x5678
        row(
            &[i(-200), i(100), u(0x1234_5678)],
            &[u(0x5678_8064)],
            "s8 by hand",
        ),
        row(
            &[i(i32::MAX), i(i32::MIN), u(0)],
            &[u(0x0000_7f80)],
            "s8 INT_MAX/INT_MIN",
        ),
        row(
            &[i(-1), i(-2), u(0x8001)],
            &[u(0x8001_fffe)],
            "s8 negatives in range",
        ),
    ];
    for (a, b, c) in triples() {
        rows.push(row(&[i(a), i(b), u(c)], &[u(want_s8(a, b, c))], "s8 edges"));
    }
    t.t(
        "cvt.pack.sat.s8.s32.b32",
        DECLS3,
        &body3("cvt.pack.sat.s8.s32.b32"),
        rows,
    );
    t.check();
}

#[test]
fn cvt_pack_u16_and_s16() {
    let _c = rows_of("cvt_pack_u16_and_s16");
    let mut t = Tables::new();
    let decls = "\t.reg .b32 %a, %b, %d;";
    let mut rows = vec![
        row(&[i(70000), i(5)], &[u(0xffff_0005)], "u16 by hand"),
        row(&[i(-1), i(65535)], &[u(0x0000_ffff)], "u16 negative -> 0"),
        row(
            &[i(i32::MIN), i(i32::MAX)],
            &[u(0x0000_ffff)],
            "u16 INT_MIN/INT_MAX",
        ),
    ];
    for (a, b, _) in triples() {
        rows.push(row(&[i(a), i(b)], &[u(want_u16(a, b))], "u16 edges"));
    }
    t.t(
        "cvt.pack.sat.u16.s32",
        decls,
        &body2("cvt.pack.sat.u16.s32"),
        rows,
    );
    let mut rows = vec![
        row(
            &[i(i32::MIN), i(i32::MAX)],
            &[u(0x8000_7fff)],
            "s16 INT_MIN/INT_MAX",
        ),
        row(&[i(-1), i(-2)], &[u(0xffff_fffe)], "s16 by hand"),
        row(&[i(40000), i(-40000)], &[u(0x7fff_8000)], "s16 both ends"),
    ];
    for (a, b, _) in triples() {
        rows.push(row(&[i(a), i(b)], &[u(want_s16(a, b))], "s16 edges"));
    }
    t.t(
        "cvt.pack.sat.s16.s32",
        decls,
        &body2("cvt.pack.sat.s16.s32"),
        rows,
    );
    t.check();
}

#[test]
fn cvt_pack_immediate_c_keeps_its_bits_and_chains() {
    let _c = rows_of("cvt_pack_immediate_c_keeps_its_bits_and_chains");
    let mut t = Tables::new();
    // An immediate c is a .b32: its low 16 bits (0x5678) land in d[31:16],
    // not a value narrowed to the convert type.
    let rows = vec![row(&[i(1), i(2)], &[u(0x5678_0102)], "immediate c")];
    t.t(
        "cvt.pack.sat.u8 immediate c",
        "\t.reg .b32 %a, %b, %d;",
        "\tld.global.u32 %a, [%pa];\n\tld.global.u32 %b, [%pb];\n\
         \tcvt.pack.sat.u8.s32.b32 %d, %a, %b, 0x12345678;\n\tst.global.u32 [%pd], %d;",
        rows,
    );
    // The ISA's example: pack(r5, r6, 0) then pack(r8, r9, that) gives
    // %r7 = { %r5, %r6, %r8, %r9 } from the most significant byte down.
    let rows = vec![row(
        &[i(0x11), i(0x22), i(0x33), i(0x44)],
        &[u(0x1122_3344)],
        "two packs, four bytes",
    )];
    t.t(
        "cvt.pack.sat.u8 chain",
        "\t.reg .b32 %r4, %r5, %r6, %r7, %r8, %r9;",
        "\tld.global.u32 %r5, [%pa];\n\tld.global.u32 %r6, [%pb];\n\
         \tld.global.u32 %r8, [%pc];\n\tld.global.u32 %r9, [%pz];\n\
         \tcvt.pack.sat.u8.s32.b32 %r4, %r5, %r6, 0;\n\
         \tcvt.pack.sat.u8.s32.b32 %r7, %r8, %r9, %r4;\n\tst.global.u32 [%pd], %r7;",
        rows,
    );
    t.check();
}
