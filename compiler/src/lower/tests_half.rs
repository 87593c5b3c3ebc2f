//! half.rs, atom16.rs and atom_spin.rs against ptxas 11.8's sequences: the lowered
//! listing contains, in order, the instructions ptxas emits for the form
//! (quoted from oracle/tests/half_vendor/*.O3.sass and the measurements
//! cited in half.rs/atom16.rs), register numbers, `.reuse` and the `.64`
//! address suffix left out; and the refusals name the target.

use super::tests::listing;
use super::*;
use crate::targets::lookup_sm;

const ARCHS: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];

/// A kernel: `%h1..%h3` b16 and `%r1..%r3` b32 loaded from the parameter
/// buffer, `body` writes `%h4` / `%r4` / `%p1`, `%p2`, which are stored.
fn kernel(body: &str) -> String {
    format!(
        ".version 7.8\n.target sm_90\n.address_size 64\n\
         .visible .entry k(.param .u64 pa)\n{{\n\
         .reg .b16 %h<8>;\n.reg .b32 %r<8>;\n.reg .pred %p<4>;\n.reg .b64 %rd<4>;\n\
         ld.param.u64 %rd1, [pa]; ld.global.b64 %rd2, [%rd1+40];\n\
         ld.global.b16 %h1, [%rd1]; ld.global.b16 %h2, [%rd1+2]; ld.global.b16 %h3, [%rd1+4];\n\
         ld.global.b32 %r1, [%rd1+8]; ld.global.b32 %r2, [%rd1+12]; ld.global.b32 %r3, [%rd1+16];\n\
         mov.b16 %h4, 0; mov.b32 %r4, 0; setp.eq.u32 %p1, %r1, 7; setp.eq.u32 %p2, %r2, 7;\n\
         {body}\n\
         st.global.b16 [%rd1+20], %h4; st.global.b32 [%rd1+24], %r4;\n\
         selp.b32 %r5, 1, 0, %p1; selp.b32 %r6, 1, 0, %p2; st.global.b32 [%rd1+28], %r5; st.global.b32 [%rd1+32], %r6;\n\
         ret;\n}}\n"
    )
}

/// One SASS line without register numbers, `.reuse` and `.64` (virtual
/// `%rN`/`%pN` read as `R`/`P`).
fn norm(l: &str) -> String {
    let l = l
        .trim()
        .trim_end_matches(';')
        .trim()
        .replace(".reuse", "")
        .replace(".64", "")
        .replace("%r", "R")
        .replace("%p", "P");
    let mut out = String::new();
    let mut chars = l.chars().peekable();
    let mut prev: Option<char> = None;
    while let Some(c) = chars.next() {
        out.push(c);
        let starts = matches!(c, 'R' | 'P' | 'B')
            && !prev.is_some_and(|p| p.is_ascii_alphanumeric() || p == '_' || p == '.');
        if starts && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
            while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                chars.next();
            }
        }
        prev = Some(c);
    }
    out
}

fn lower(body: &str, sm: &str) -> Result<String, String> {
    let ks = lower_source(
        "t.ptx",
        &kernel(body),
        lookup_sm(sm).unwrap(),
        &LowerOptions::default(),
    )
    .map_err(|e| e.to_string())?;
    Ok(listing(&ks[0]))
}

/// `want` (ptxas lines) occur in order in the lowering of `body` on `sm`.
fn has_sequence(body: &str, sm: &str, want: &[&str]) {
    let got = lower(body, sm).unwrap_or_else(|e| panic!("{sm}: {body}: {e}"));
    let lines: Vec<String> = got.lines().map(norm).collect();
    let mut at = 0;
    for w in want {
        let w = norm(w);
        match lines[at..].iter().position(|l| *l == w) {
            Some(k) => at += k + 1,
            None => panic!(
                "{sm}: {body}: `{w}` missing (in order) from\n{}",
                lines.join("\n")
            ),
        }
    }
}

fn refused(body: &str, sm: &str, needs: &str) {
    match lower(body, sm) {
        Ok(l) => panic!("{sm}: {body} lowered:\n{l}"),
        Err(e) => assert!(e.contains(needs) && e.contains(sm), "{sm}: {e}"),
    }
}

#[test]
fn bf16_fma_min_max() {
    for sm in ARCHS {
        let cases: [(&str, &[&str]); 4] = [
            // half.sm_80.O3.sass (bf16_arith): HFMA2.BF16_V2 R0, R0.H0_H0, R5.H0_H0, R4.H0_H0
            (
                "fma.rn.bf16 %h4, %h1, %h2, %h3;",
                &["HFMA2.BF16_V2 R0, R0.H0_H0, R5.H0_H0, R4.H0_H0 ;"],
            ),
            (
                "fma.rn.relu.bf16x2 %r4, %r1, %r2, %r3;",
                &["HFMA2.BF16_V2.RELU R5, R4.reuse, R7.reuse, R6.reuse ;"],
            ),
            (
                "min.bf16 %h4, %h1, %h2;",
                &["HMNMX2.BF16_V2 R6, R0.reuse.H0_H0, R1.reuse.H0_H0, PT ;"],
            ),
            (
                "max.NaN.bf16x2 %r4, %r1, %r2;",
                &["HMNMX2.BF16_V2.NAN R5, R4, R5, !PT ;"],
            ),
        ];
        for (body, want) in cases {
            if sm < "sm_80" {
                refused(body, sm, "requires sm_80");
            } else {
                has_sequence(body, sm, want);
            }
        }
    }
}

#[test]
fn setp_half() {
    for sm in ARCHS {
        // Every target: HSETP2.LE.AND P0, P1, R0, R5, PT (setp.le.f16x2).
        has_sequence(
            "setp.le.f16x2 %p1|%p2, %r1, %r2;",
            sm,
            &["HSETP2.LE.AND P0, P1, R0, R5, PT ;"],
        );
        // ptxas 11.8 (sm_90): HSETP2.LT.AND P0, PT, R0.H0_H0, R5.H0_H0, PT
        has_sequence(
            "setp.lt.f16x2 %p1, %r1, %r2;",
            sm,
            &["HSETP2.LT.AND P0, PT, R0.H0_H0, R5.H0_H0, PT ;"],
        );
        has_sequence(
            "setp.ltu.ftz.or.f16x2 %p1|%p2, %r1, %r2, !%p1;",
            sm,
            &["HSETP2.LTU.FTZ.OR P0, P1, R0, R5, !P0 ;"],
        );
        if sm == "sm_90" {
            has_sequence(
                "setp.gtu.bf16x2 %p1|%p2, %r1, %r2;",
                sm,
                &["HSETP2.BF16_V2.GTU.AND P0, P1, R4, R5, PT ;"],
            );
            has_sequence(
                "setp.lt.bf16 %p1, %h1, %h2;",
                sm,
                &["HSETP2.BF16_V2.LT.AND P2, PT, R0.H0_H0, R1.H0_H0, PT ;"],
            );
        } else {
            // Our f32 route (half.rs): bf16 -> f32 is a 16-bit left shift.
            has_sequence(
                "setp.lt.bf16 %p1, %h1, %h2;",
                sm,
                &[
                    "SHF.L.U32 R0, R0, 0x10, RZ ;",
                    "SHF.L.U32 R1, R1, 0x10, RZ ;",
                    "FSETP.LT.AND P0, PT, R0, R1, PT ;",
                ],
            );
        }
    }
}

#[test]
fn ex2_tanh_half() {
    for sm in ARCHS {
        if sm == "sm_70" {
            // Our route: f32 conversion, MUFU.EX2, F2F back.
            has_sequence(
                "ex2.approx.f16 %h4, %h1;",
                sm,
                &[
                    "HADD2.F32 R0, -RZ, R0.H0_H0 ;",
                    "MUFU.EX2 R0, R0 ;",
                    "F2F.F16.F32 R0, R0 ;",
                ],
            );
            refused("tanh.approx.f16 %h4, %h1;", sm, "requires sm_75");
            // f32 too: MUFU.TANH is sm_75+ (ptxas 11.8 refuses tanh there).
            refused(
                ".reg .f32 %f<3>; mov.b32 %f1, %r1; tanh.approx.f32 %f2, %f1; mov.b32 %r4, %f2;",
                sm,
                "requires sm_75 or higher (ptxas 11.8",
            );
            continue;
        }
        // half.sm_75.O3.sass (sfu_f16x2).
        has_sequence(
            "ex2.approx.f16x2 %r4, %r1;",
            sm,
            &[
                "MUFU.EX2.F16 R5, R2 ;",
                "MUFU.EX2.F16 R6, R2.H1 ;",
                "PRMT R5, R5, 0x5410, R6 ;",
            ],
        );
        has_sequence("tanh.approx.f16 %h4, %h1;", sm, &["MUFU.TANH.F16 R4, R0 ;"]);
        if sm == "sm_90" {
            has_sequence(
                "tanh.approx.bf16 %h4, %h1;",
                sm,
                &["MUFU.TANH.BF16 R6, R0 ;"],
            );
        } else {
            refused("ex2.approx.ftz.bf16 %h4, %h1;", sm, "requires sm_90");
        }
    }
}

#[test]
fn atom16_loops() {
    for sm in ARCHS {
        // atom16.sm_80.O3.sass (add_f16_global).
        has_sequence(
            "atom.global.add.noftz.f16 %h4, [%rd1+6], %h1;",
            sm,
            &[
                "LOP3.LUT R2, R11, 0xfffffffd, RZ, 0xc0, !PT ;",
                "LOP3.LUT R6, R11, 0x2, RZ, 0xc0, !PT ;",
                "ISETP.EQ.U32.AND P0, PT, R6, RZ, PT ;",
                "IMAD.SHL.U32 R7, R6, 0x8, RZ ;",
                "SEL R6, R8, 0x7610, P0 ;",
                "HADD2 R8, R9, R0.H0_H0 ;",
                "PRMT R8, R9, R6, R8 ;",
                "ATOMG.E.CAS.STRONG.GPU PT, R8, [R2], R9, R8 ;",
                "ISETP.NE.U32.AND P0, PT, R8, R9, PT ;",
                "SHF.R.U32.HI R7, RZ, R7, R8 ;",
            ],
        );
        // atom16.sm_XX.O3.sass (cas_b16_shared).
        has_sequence(
            "atom.shared.cas.b16 %h4, [%r1], %h1, %h2;",
            sm,
            &[
                "SEL R7, R10, 0x5410, P0 ;",
                "PRMT R11, R9, R7, R4 ;",
                "PRMT R10, R9, R7, R0 ;",
                "PRMT R12, R10, R7, RZ ;",
                "ATOMS.CAS R11, [R6], R10, R11 ;",
                "PRMT R9, R11, R7, RZ ;",
                "ISETP.NE.U32.AND P0, PT, R9, R12, PT ;",
                "SHF.R.U32.HI R5, RZ, R8, R11 ;",
            ],
        );
        has_sequence(
            "atom.global.add.noftz.f16x2 %r4, [%rd1], %r1;",
            sm,
            &["ATOMG.E.ADD.F16x2.RN.STRONG.GPU PT, R5, [R4.64], R7 ;"],
        );
        if sm == "sm_90" {
            has_sequence(
                "atom.global.add.noftz.bf16 %h4, [%rd1+6], %h1;",
                sm,
                &[
                    "HADD2.BF16_V2 R8, R9, R0.H0_H0 ;",
                    "ATOMG.E.CAS.STRONG.GPU PT, R8, [R2], R9, R11 ;",
                ],
            );
        } else {
            refused(
                "atom.global.add.noftz.bf16 %h4, [%rd1+6], %h1;",
                sm,
                "requires sm_90",
            );
            refused(
                "atom.global.add.noftz.bf16x2 %r4, [%rd1+8], %r1;",
                sm,
                "requires sm_90",
            );
        }
        spin_loops(sm);
    }
}

/// The shared and generic packed adds (atom_spin.rs): ptxas 11.8's lines
/// from oracle/tests/atom_spin_vendor/spin.sm_XX.O3.sass (`add_f16x2_shared`,
/// `add_f16x2_generic`), with a register `b` where ptxas read a constant
/// and our deviations (atom_spin.rs): `HADD2` on sm_90 and in the local
/// path. The fallback addresses the generic address's low 24 bits as they
/// are on every target (sm_90's shared window holds the 0x400 base).
fn spin_loops(sm: &str) {
    let ld = if sm < "sm_80" { "LD.E.SYS" } else { "LD.E" };
    let st = if sm < "sm_80" { "ST.E.SYS" } else { "ST.E" };
    let lds = "LDS R2, [R0] ;";
    let cast = "ATOMS.CAST.SPIN R3, [R0], R2, R3 ;";
    let ldl = format!("{ld} R5, [R2] ;");
    let stl = format!("{st} [R2], R7 ;");
    has_sequence(
        "atom.shared.add.noftz.f16x2 %r4, [%r1], %r2;",
        sm,
        &[
            "LDS R4, [R0] ;",
            "HADD2 R5, R4, R3 ;",
            "ATOMS.CAST.SPIN R5, [R0], R4, R5 ;",
            "ISETP.EQ.U32.AND P0, PT, R5, 0x1, PT ;",
        ],
    );
    has_sequence(
        "atom.add.noftz.f16x2 %r4, [%rd2], %r2;",
        sm,
        &[
            "ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, R5, [R2], R5 ;",
            "QSPC.E.S P0, RZ, [R2] ;",
            "LOP3.LUT R0, R0, 0xffffff, RZ, 0xc0, !PT ;",
            lds,
            "HADD2 R3, R2, R5 ;",
            cast,
            "ISETP.EQ.U32.AND P0, PT, R3, 0x1, PT ;",
            &ldl,
            "HADD2 R7, R5, R7 ;",
            &stl,
        ],
    );
    has_sequence(
        "red.add.noftz.f16x2 [%rd2], %r2;",
        sm,
        &["ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, RZ, [R2], R5 ;"],
    );
    if sm == "sm_90" {
        has_sequence(
            "atom.shared.add.noftz.bf16x2 %r4, [%r1], %r2;",
            sm,
            &[
                "LDS R4, [R0] ;",
                "HADD2.BF16_V2 R5, R4, R3 ;",
                "ATOMS.CAST.SPIN R5, [R0], R4, R5 ;",
            ],
        );
        has_sequence(
            "atom.add.noftz.bf16x2 %r4, [%rd2], %r2;",
            sm,
            &["ATOM.E.ADD.BF16x2.RN.STRONG.GPU P0, R5, [R2], R7 ;"],
        );
    } else {
        refused(
            "atom.shared.add.noftz.bf16x2 %r4, [%r1], %r2;",
            sm,
            "requires sm_90",
        );
        refused("red.add.noftz.bf16x2 [%rd2], %r2;", sm, "requires sm_90");
    }
}

/// `neg`/`abs` on bf16/bf16x2: ptxas 11.8's `HFMA2.BF16_V2 d, -RZ.H0_H0,
/// RZ.H0_H0, -a` / `|a|` on sm_80..sm_90 (measured: `ptxas -arch=sm_XX`,
/// `cuobjdump -sass`); below sm_80 ptxas refuses ("Feature '.bf16'
/// requires .target sm_80 or higher") and so does the lowering: the
/// opcode table has no `HFMA2.BF16_V2` there.
#[test]
fn bf16_neg_abs() {
    let cases: [(&str, &str); 4] = [
        (
            "neg.bf16 %h4, %h1;",
            "HFMA2.BF16_V2 R5, -RZ.H0_H0, RZ.H0_H0, -R0.H0_H0 ;",
        ),
        (
            "abs.bf16 %h4, %h1;",
            "HFMA2.BF16_V2 R0, -RZ.H0_H0, RZ.H0_H0, |R0|.H0_H0 ;",
        ),
        (
            "neg.bf16x2 %r4, %r1;",
            "HFMA2.BF16_V2 R5, -RZ.H0_H0, RZ.H0_H0, -R0 ;",
        ),
        (
            "abs.bf16x2 %r4, %r1;",
            "HFMA2.BF16_V2 R5, -RZ.H0_H0, RZ.H0_H0, |R0| ;",
        ),
    ];
    for sm in ARCHS {
        for (body, want) in cases {
            if sm < "sm_80" {
                refused(body, sm, "requires sm_80 or higher (ptxas 11.8");
            } else {
                has_sequence(body, sm, &[want]);
            }
        }
    }
}

/// `min`/`max.xorsign.abs` on the half types and f32: ptxas 11.8's
/// `HMNMX2{.BF16_V2}{.FTZ}{.NAN}.XORSIGN d, |a|, |b|, PT|!PT` and
/// `FMNMX{.NAN}.XORSIGN` on sm_86..sm_90 (measured); below sm_86 ptxas
/// refuses ("Modifier '.xorsign' requires .target sm_86 or higher"), and
/// bf16 below sm_80 / f16x2 below sm_80 with their own messages.
#[test]
fn min_max_xorsign() {
    let cases: [(&str, &str, &str); 6] = [
        (
            "min.xorsign.abs.bf16 %h4, %h1, %h2;",
            "HMNMX2.BF16_V2.XORSIGN R0, |R0|.H0_H0, |R5|.H0_H0, PT ;",
            "sm_80",
        ),
        (
            "max.NaN.xorsign.abs.bf16x2 %r4, %r1, %r2;",
            "HMNMX2.BF16_V2.NAN.XORSIGN R5, |R0|, |R5|, !PT ;",
            "sm_80",
        ),
        (
            "min.xorsign.abs.f16 %h4, %h1, %h2;",
            "HMNMX2.XORSIGN R0, |R0|.H0_H0, |R5|.H0_H0, PT ;",
            "sm_86",
        ),
        (
            "min.ftz.NaN.xorsign.abs.f16x2 %r4, %r1, %r2;",
            "HMNMX2.FTZ.NAN.XORSIGN R5, |R0|, |R5|, PT ;",
            "sm_80",
        ),
        (
            "max.xorsign.abs.f16x2 %r4, %r1, %r2;",
            "HMNMX2.XORSIGN R5, |R0|, |R5|, !PT ;",
            "sm_80",
        ),
        (
            "mov.b32 %f2, %r1; mov.b32 %f3, %r2; max.NaN.xorsign.abs.f32 %f1, %f2, %f3; mov.b32 %r4, %f1;",
            "FMNMX.NAN.XORSIGN R5, |R0|, |R5|, !PT ;",
            "sm_86",
        ),
    ];
    for sm in ARCHS {
        for (body, want, low) in cases {
            let body = format!(".reg .f32 %f<4>; {body}");
            if sm < low {
                refused(&body, sm, &format!("requires {low} or higher (ptxas 11.8"));
            } else if sm < "sm_86" {
                refused(&body, sm, "requires sm_86 or higher (ptxas 11.8");
            } else {
                has_sequence(&body, sm, &[want]);
            }
        }
    }
}

/// `min`/`max.f16` on sm_80+: ptxas 11.8's `HMNMX2.FTZ.NAN R5,
/// R0.H0_H0, R5.H0_H0, PT` / `HMNMX2 R7, R0.H0_H0, R7.H0_H0, !PT`.
#[test]
fn f16_min_max_on_sm80() {
    for sm in ["sm_80", "sm_86", "sm_89", "sm_90"] {
        has_sequence(
            "min.ftz.NaN.f16 %h4, %h1, %h2;",
            sm,
            &["HMNMX2.FTZ.NAN R5, R0.H0_H0, R5.H0_H0, PT ;"],
        );
        has_sequence(
            "max.f16 %h4, %h1, %h3;",
            sm,
            &["HMNMX2 R7, R0.H0_H0, R7.H0_H0, !PT ;"],
        );
    }
}

/// Three-source `min`/`max` (PTX 8.8, sm_100; the validator refuses it
/// for every target of the SM table): the lowering refuses it too when
/// handed an unvalidated module, as ptxas 11.8 does ("Arguments mismatch
/// for instruction 'min'", every target).
#[test]
fn three_source_min_max_is_refused() {
    for (body, ty) in [
        ("min.bf16 %h4, %h1, %h2, %h3;", ".bf16"),
        ("max.f16x2 %r4, %r1, %r2, %r3;", ".f16x2"),
        ("min.f16 %h4, %h1, %h2, %h3;", ".f16"),
        ("mov.b32 %f1, %r1; max.f32 %f1, %f1, %f1, %f1;", ".f32"),
    ] {
        let src = kernel(&format!(".reg .f32 %f<4>; {body}"));
        let (m, diags) = crate::ptx::parse_and_validate(&src);
        assert!(diags.iter().any(|d| d.is_error()), "{body}: validated");
        for sm in ["sm_80", "sm_90"] {
            let e = lower_module(&m, lookup_sm(sm).unwrap(), &LowerOptions::default())
                .map(|_| ())
                .expect_err(body)
                .to_string();
            assert!(
                e.contains(&format!("{ty} with three sources is not lowered"))
                    && e.contains("Arguments mismatch"),
                "{sm}: {e}"
            );
        }
    }
}
