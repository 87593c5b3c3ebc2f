//! div/rcp/sqrt with a directed rounding: each form is lowered to ptxas
//! 11.8's own sequence (`directed.rs`), which carries the rounding on its
//! final `FFMA`/`DFMA` (`ptxas -arch=sm_80 -O3` of the one-instruction
//! kernels behind seq/directed/*.sass); before the fix every form was
//! lowered as `.rn` and no `.RZ/.RM/.RP` appeared.

use super::tests::lower_text;

fn one(form: &str, ty: &str, binary: bool) -> String {
    let (reg, w) = if ty == "f64" { ("fd", 8) } else { ("f", 4) };
    let srcs = if binary {
        format!("%{reg}0, %{reg}1")
    } else {
        format!("%{reg}0")
    };
    format!(
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 p)\n{{\n\
         .reg .b64 %rd<4>;\n.reg .{ty} %{reg}<4>;\n\
         ld.param.u64 %rd0, [p];\nld.global.{ty} %{reg}0, [%rd0];\nld.global.{ty} %{reg}1, [%rd0+{w}];\n\
         {form} %{reg}2, {srcs};\nst.global.{ty} [%rd0], %{reg}2;\nret;\n}}\n"
    )
}

#[test]
fn every_directed_form_is_the_vendor_sequence_with_its_rounding() {
    for op in ["div", "rcp", "sqrt"] {
        for (ty, ftz) in [("f32", ""), ("f32", ".ftz"), ("f64", "")] {
            for mode in ["rz", "rm", "rp"] {
                let form = format!("{op}.{mode}{ftz}.{ty}");
                let text = lower_text(&one(&form, ty, op == "div"), "sm_80");
                let fma = if ty == "f64" { "DFMA" } else { "FFMA" };
                let want = format!("{fma}.{}", mode.to_uppercase());
                assert!(text.contains(&want), "{form}: no {want} in\n{text}");
                assert!(text.contains("CALL.REL.NOINC"), "{form}: no subroutine");
            }
        }
    }
}

#[test]
fn directed_forms_are_not_the_round_to_nearest_code() {
    for op in ["div", "rcp", "sqrt"] {
        for (ty, ftz) in [("f32", ""), ("f32", ".ftz"), ("f64", "")] {
            let rn = lower_text(
                &one(&format!("{op}.rn{ftz}.{ty}"), ty, op == "div"),
                "sm_80",
            );
            for mode in ["rz", "rm", "rp"] {
                let form = format!("{op}.{mode}{ftz}.{ty}");
                let text = lower_text(&one(&form, ty, op == "div"), "sm_80");
                assert_ne!(text, rn, "{form} is lowered as .rn");
            }
        }
    }
}
