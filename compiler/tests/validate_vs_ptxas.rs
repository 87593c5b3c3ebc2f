//! Validator rules measured against ptxas 11.8, pair by pair, so a rule
//! that drifts from what ptxas accepts fails here (the generator's menu is
//! derived from the validator, and a form ptxas refuses becomes a false
//! vendor compile error in every differential run).

fn accepts(target: &str, version: &str, body: &str) -> bool {
    let src = format!(
        ".version {version}\n.target {target}\n.address_size 64\n\
         .visible .entry k()\n{{\n\
         .reg .pred %p<4>; .reg .b16 %h<4>; .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .f64 %fd<4>;\n\
         {body}\nret;\n}}\n"
    );
    ptxc::ptx::parse_checked("t.ptx", &src).is_ok()
}

fn reg(t: &str) -> &'static str {
    match &t[1..] {
        "8" | "16" => "%h",
        "32" => "%r",
        _ => "%rd",
    }
}

/// `cvt.sat` between integer types: ptxas 11.8 at sm_80 (`ptxas
/// -arch=sm_80`, each pair in its own kernel), rows the destination, columns
/// the source, in the order u8 s8 u16 s16 u32 s32 u64 s64; `1`: accepted.
#[test]
fn cvt_sat_integer_pairs_as_ptxas() {
    const TYPES: [&str; 8] = ["u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"];
    const PTXAS: [&str; 8] = [
        "01111111", // u8
        "10111111", // s8
        "01011111", // u16
        "00101111", // s16
        "01010111", // u32
        "00001011", // s32
        "01010101", // u64
        "00000010", // s64
    ];
    for (d, row) in TYPES.iter().zip(PTXAS) {
        for (s, want) in TYPES.iter().zip(row.chars()) {
            let body = format!("cvt.sat.{d}.{s} {}1, {}2;", reg(d), reg(s));
            assert_eq!(
                accepts("sm_80", "7.0", &body),
                want == '1',
                "{body}: ptxas 11.8 {}",
                if want == '1' {
                    "accepts it"
                } else {
                    "refuses it"
                }
            );
        }
    }
}

/// Compare operators on bit types, `.bf16` compares, `rcp.approx.f64`,
/// `min`/`max.f16` and `neg`/`abs.bf16` gates: each line as ptxas 11.8
/// answered it (`Mismatch between instruction type and comparison
/// qualifier`, `Feature 'setp.bf16' requires .target sm_90 or higher`, ...).
#[test]
fn compare_and_half_gates_as_ptxas() {
    let cases: &[(&str, &str, &str, bool)] = &[
        ("sm_80", "7.0", "setp.lo.b32 %p1, %r1, %r2;", false),
        ("sm_80", "7.0", "setp.hs.and.b32 %p1, %r1, %r2, %p2;", false),
        ("sm_80", "7.0", "set.hi.u32.b16 %r1, %h1, %h2;", false),
        ("sm_80", "7.0", "setp.lo.u32 %p1, %r1, %r2;", true),
        ("sm_80", "7.0", "setp.eq.b32 %p1, %r1, %r2;", true),
        ("sm_80", "7.8", "setp.gt.bf16 %p1, %h1, %h2;", false),
        ("sm_80", "7.8", "set.gt.u32.bf16 %r1, %h1, %h2;", false),
        ("sm_90", "7.8", "setp.gt.bf16 %p1, %h1, %h2;", true),
        ("sm_90", "7.8", "set.gt.u32.bf16 %r1, %h1, %h2;", true),
        ("sm_90", "7.8", "setp.gt.ftz.bf16 %p1, %h1, %h2;", false),
        ("sm_80", "7.0", "rcp.approx.f64 %fd1, %fd2;", false),
        ("sm_80", "7.0", "rcp.approx.ftz.f64 %fd1, %fd2;", true),
        ("sm_70", "7.0", "min.bf16 %h1, %h1, %h1;", false),
        ("sm_80", "7.0", "min.bf16 %h1, %h1, %h1;", true),
        ("sm_75", "7.0", "min.f16 %h1, %h2, %h3;", false),
        ("sm_75", "7.0", "max.f16x2 %r1, %r2, %r3;", false),
        ("sm_80", "7.0", "max.ftz.f16 %h1, %h2, %h3;", true),
        ("sm_75", "7.0", "neg.bf16 %h1, %h2;", false),
        ("sm_75", "7.0", "abs.bf16x2 %r1, %r2;", false),
        ("sm_80", "7.0", "neg.bf16 %h1, %h2;", true),
    ];
    for &(target, version, body, want) in cases {
        assert_eq!(
            accepts(target, version, body),
            want,
            "{body} on {target} (PTX {version}): ptxas 11.8 {}",
            if want { "accepts it" } else { "refuses it" }
        );
    }
}
