//! `mov.b128` (PTX ISA 8.3 128-bit registers): the interpreter's registers
//! hold at most 64 bits, so it faults with a message instead of panicking
//! (it used to overflow a shift), and the lowering refuses it with one.

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, Outcome, RunLimits};

const SRC: &str = ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n.reg .b128 %q<2>;\n.reg .b64 %rd<5>;\nmov.b64 %rd1, 1;\nmov.b64 %rd2, 2;\nmov.b128 %q1, {%rd1, %rd2};\nmov.b128 {%rd3, %rd4}, %q1;\nld.param.u64 %rd1, [out];\nst.global.u64 [%rd1], %rd4;\nret;\n}\n";

#[test]
fn mov_b128_faults_with_a_message_and_is_refused_by_the_lowering() {
    let spec = LaunchSpec::from_json_str(
        r#"{"kernel": "k", "grid": [1], "block": [1], "params": [{"buffer": "out"}],
            "buffers": {"out": {"type": "u64", "len": 1, "init": "zeros"}}, "outputs": ["out"]}"#,
        ".",
    )
    .unwrap();
    let m = ptxc::ptx::parse_checked("b128", SRC).unwrap();
    let r = ptx_interp::run(&m, SRC, &spec, &RunLimits::default()).unwrap();
    match r.outcome {
        Outcome::Fault { message, .. } => {
            assert!(
                message.contains("128-bit mov is not supported"),
                "{message}"
            )
        }
        o => panic!("expected a fault, got {o:?}"),
    }
    let sm = ptxc::targets::lookup_sm("sm_80").unwrap();
    let e = ptxc::lower::lower_module(&m, sm, &ptxc::lower::LowerOptions::default()).unwrap_err();
    assert!(e.to_string().contains("128-bit mov is not lowered"), "{e}");
}
