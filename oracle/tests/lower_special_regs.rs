//! `%nwarpid`, `%nsmid` and `%dynamic_smem_size` lowered by ptxc (ptxas
//! 11.8's forms: the immediate 64, `c[0x0][0x10c]`, `c[0x0][0x2c]`, the SM
//! table's `CbankLayout`) and run in the simulator, whose bank 0 holds the
//! interpreter's values, against the PTX interpreter on every target, for
//! two dynamic shared sizes.

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, Outcome, RunLimits};
use oracle::sim::SimInputs;
use ptxc::lower::{lower_module, LowerOptions};

const ARCHS: [&str; 6] = ["sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"];

const PTX: &str = ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<6>;\n.reg .b64 %rd<4>;\nmov.u32 %r1, %tid.x;\nmov.u32 %r5, %ctaid.x;\nmad.lo.u32 %r1, %r5, 40, %r1;\nmov.u32 %r2, %nwarpid;\nmov.u32 %r3, %nsmid;\nmov.u32 %r4, %dynamic_smem_size;\nld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 12;\nadd.s64 %rd1, %rd1, %rd2;\nst.global.u32 [%rd1], %r2;\nst.global.u32 [%rd1+4], %r3;\nst.global.u32 [%rd1+8], %r4;\nret;\n}\n";

#[test]
fn special_registers_match_the_interpreter_on_every_target() {
    let m = ptxc::ptx::parse_checked("sr", PTX).unwrap();
    let limits = RunLimits::default();
    for dyn_bytes in [0u32, 96] {
        let spec = LaunchSpec::from_json_str(
            &format!(
                r#"{{"kernel": "k", "grid": [2], "block": [40], "dynamic_shared_bytes": {dyn_bytes},
                   "params": [{{"buffer": "out"}}],
                   "buffers": {{"out": {{"type": "u32", "len": 240, "init": "zeros"}}}},
                   "outputs": ["out"]}}"#
            ),
            ".",
        )
        .unwrap();
        let want = ptx_interp::run(&m, PTX, &spec, &limits).unwrap();
        assert_eq!(want.outcome, Outcome::Completed);
        let w = &want.outputs.get("out").unwrap().bits;
        // The interpreter's values (not vacuous: 64, 1, the dynamic size).
        assert_eq!(&w[..3], &[64, 1, u64::from(dyn_bytes)]);
        for arch in ARCHS {
            let sm = ptxc::targets::lookup_sm(arch).unwrap();
            let ks = lower_module(&m, sm, &LowerOptions::default()).unwrap();
            let k = &ks[0];
            let got =
                oracle::sim::run(&k.function, sm, &spec, &SimInputs::from_lowered(k), &limits)
                    .unwrap();
            assert_eq!(got.outcome, Outcome::Completed, "{arch}");
            assert_eq!(
                &got.outputs.get("out").unwrap().bits,
                w,
                "{arch} dyn {dyn_bytes}"
            );
        }
    }
}
