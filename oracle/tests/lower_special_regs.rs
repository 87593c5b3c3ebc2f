//! `%nwarpid`, `%nsmid` and `%dynamic_smem_size` lowered by ptxc (ptxas
//! 11.8's forms: the immediate 64, `c[0x0][0x10c]`, `c[0x0][0x2c]`, the SM
//! table's `CbankLayout`) and run in the simulator, whose bank 0 holds the
//! interpreter's values, against the PTX interpreter on every target, for
//! two dynamic shared sizes.

mod pair_run;
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

/// `%gridid`, `%total_smem_size`, `%envreg0`/`%envreg31`, `%pm0`/`%pm7` and
/// `%pm3_64` (ptxas 11.8's forms, the SM table's `gridid`, `envreg` and
/// `reserved_smem` words: lower/operand.rs) beside an `isspacep.const` /
/// `.param` (whose window words the `%gridid` word displaced), against the
/// interpreter on every target at -O0 and after the whole -O3 phase
/// plan, for two static/dynamic shared sizes.
const ENV_PTX: &str = r#".version 7.8
.target sm_70
.address_size 64
.shared .align 4 .b8 buf[SIZE];
.const .b32 k4 = 9;
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<8>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r10, %tid.x;
	mul.wide.u32 %rd6, %r10, 56;
	add.s64 %rd1, %rd1, %rd6;
	mov.u64 %rd2, %gridid;
	mov.u32 %r1, %total_smem_size;
	mov.u32 %r2, %envreg0;
	mov.u32 %r3, %envreg31;
	mov.u32 %r4, %pm0;
	mov.u32 %r5, %pm7;
	mov.u64 %rd3, %pm3_64;
	mov.u32 %r8, buf;
	shl.b32 %r9, %r10, 2;
	add.u32 %r8, %r8, %r9;
	st.shared.u32 [%r8], %r1;
	mov.u64 %rd4, k4;
	cvta.const.u64 %rd4, %rd4;
	isspacep.const %p1, %rd4;
	isspacep.param %p2, %rd4;
	selp.u32 %r6, 1, 0, %p1;
	selp.u32 %r7, 1, 0, %p2;
	st.global.u64 [%rd1], %rd2;
	st.global.u32 [%rd1+8], %r1;
	st.global.u32 [%rd1+12], %r2;
	st.global.u32 [%rd1+16], %r3;
	st.global.u32 [%rd1+20], %r4;
	st.global.u32 [%rd1+24], %r5;
	st.global.u64 [%rd1+32], %rd3;
	st.global.u32 [%rd1+40], %r6;
	st.global.u32 [%rd1+44], %r7;
	ret;
}
"#;

#[test]
fn launch_environment_registers_match_the_interpreter_on_every_target() {
    let limits = RunLimits::default();
    for (size, dyn_bytes) in [(16u32, 0u32), (200, 96)] {
        let src = ENV_PTX.replace("SIZE", &size.to_string());
        let m = ptxc::ptx::parse_checked("env", &src).unwrap();
        let spec = LaunchSpec::from_json_str(
            &format!(
                r#"{{"kernel": "k", "grid": [1], "block": [4], "dynamic_shared_bytes": {dyn_bytes},
                   "params": [{{"buffer": "out"}}],
                   "buffers": {{"out": {{"type": "u32", "len": 56, "init": "zeros"}}}},
                   "outputs": ["out"]}}"#
            ),
            ".",
        )
        .unwrap();
        let want = ptx_interp::run(&m, &src, &spec, &limits).unwrap();
        assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
        let w = &want.outputs.get("out").unwrap().bits;
        // The interpreter's values (corpus/LAUNCH_SPEC.md "Special registers"): grid
        // 0, the static plus dynamic shared bytes, environment and counters
        // 0; the const-window test true, the param one false.
        let total = u64::from(size + dyn_bytes);
        assert_eq!(
            &w[..12],
            &[0, 0, total, 0, 0, 0, 0, 0, 0, 0, 1, 0],
            "size {size}"
        );
        for arch in ARCHS {
            let sm = ptxc::targets::lookup_sm(arch).unwrap();
            let ks = ptxc::driver::lower_target(&m, sm, &LowerOptions::default())
                .unwrap_or_else(|e| panic!("{arch}: {e}"));
            let k = &ks[0];
            let got =
                oracle::sim::run(&k.function, sm, &spec, &SimInputs::from_lowered(k), &limits)
                    .unwrap();
            assert_eq!(got.outcome, Outcome::Completed, "{arch}: {:?}", got.outcome);
            assert_eq!(
                &got.outputs.get("out").unwrap().bits,
                w,
                "{arch} size {size} dyn {dyn_bytes}"
            );
            let o3 =
                pair_run::lowered_o3(&src, &spec, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
            if let Some(d) = pair_run::agree(&want, &o3, false) {
                panic!("-O3 on {arch}, size {size} dyn {dyn_bytes}: {d}");
            }
        }
    }
}
