//! ptxas's peepholes (docs/MODEL.md, Peepholes) through the `ptxc` binary: each fires on its
//! targeted kernel in `corpus/peephole/` (counted by `--phase-stats` as
//! `Fired NAME: N rewrites`), and the -O and NvOpt levels gate them.

mod common;
use common::ptxc;
use std::path::Path;

/// (phase name, targeted kernel); tex_offsets, tex_offsets_2d: TexNodep's
/// texel-offset fold.
const TARGETS: [(&str, &str); 5] = [
    ("OptimizeNaNOrZero", "nan_zero_gemm"),
    ("HoistInvariants", "hoist_loop"),
    ("TexNodep", "tex_multi"),
    ("TexNodep", "tex_offsets"),
    ("TexNodep", "tex_offsets_2d"),
];

fn kernel(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../corpus/peephole/{name}/{name}.ptx"))
        .display()
        .to_string()
}

/// The `Fired PHASE: N rewrites` count in a `--phase-stats` run (0 when the
/// line is absent).
fn fired(args: &[&str], phase: &str) -> u64 {
    let dir = tempfile::tempdir().unwrap();
    let o = dir.path().join("out.sass");
    let mut a = args.to_vec();
    let os = o.display().to_string();
    a.extend(["--phase-stats", "-o", &os]);
    let r = ptxc(&a);
    assert_eq!(r.code, 0, "{}", r.all());
    let prefix = format!("Fired {phase}: ");
    let counts: Vec<u64> = r
        .all()
        .lines()
        .filter_map(|l| l.trim().strip_prefix(&prefix))
        .map(|rest| rest.strip_suffix(" rewrites").unwrap().parse().unwrap())
        .collect();
    assert!(counts.len() <= 1, "{}", r.all());
    counts.first().copied().unwrap_or(0)
}

/// The generic loop-invariant code motion (OriHoistInvariants*, 35/66/79/88)
/// runs earlier in the default order and takes the same invariants out of
/// hoist_loop's loop, leaving HoistInvariants (146) nothing to do there: its
/// firing in the pipeline is checked with those four disabled (and alone,
/// on the default pipeline's IR, in oracle/tests/phases_peepholes_vs_sim.rs).
const GENERIC_LICM: [&str; 8] = [
    "--disable-phase",
    "OriHoistInvariantsEarly",
    "--disable-phase",
    "OriHoistInvariantsLate",
    "--disable-phase",
    "OriHoistInvariantsLate2",
    "--disable-phase",
    "OriHoistInvariantsLate3",
];

#[test]
fn each_peephole_fires_on_its_kernel_on_every_target() {
    for (phase, k) in TARGETS {
        let path = kernel(k);
        for arch in ["-arch=sm_70", "-arch=sm_80", "-arch=sm_90"] {
            let mut args = vec![arch, path.as_str()];
            if phase == "HoistInvariants" {
                args.extend(GENERIC_LICM);
            }
            assert!(fired(&args, phase) > 0, "{phase} on {k} {arch}");
        }
    }
}

/// In the default pipeline the generic hoisting gets hoist_loop's
/// invariants first (the reason for GENERIC_LICM above).
#[test]
fn generic_licm_takes_hoist_loops_invariants_first() {
    let path = kernel("hoist_loop");
    let args = ["-arch=sm_80", path.as_str()];
    assert!(fired(&args, "OriHoistInvariantsEarly") > 0);
    assert_eq!(fired(&args, "HoistInvariants"), 0);
}

#[test]
fn o0_nvopt_0_and_disabling_silence_them() {
    for (phase, k) in TARGETS {
        let path = kernel(k);
        assert_eq!(
            fired(&["-arch=sm_80", "-O0", &path], phase),
            0,
            "{phase} -O0"
        );
        assert_eq!(
            fired(&["-arch=sm_80", "--knob", "NvOptLevel=0", &path], phase),
            0,
            "{phase} NvOpt 0"
        );
        assert_eq!(
            fired(&["-arch=sm_80", "--disable-phase", phase, &path], phase),
            0,
            "{phase} disabled"
        );
    }
}

/// No loop at all, but 0 * inf to fold.
const NO_GEMM: &str = "
.version 7.8
.target sm_70
.address_size 64
.visible .entry no_gemm(.param .u64 out)
{
	.reg .f32 %f<4>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.f32 %f1, 0f00000000;
	mul.rn.f32 %f2, %f1, 0f7F800000;
	st.global.f32 [%rd2], %f2;
	ret;
}
";

#[test]
fn optimize_nan_or_zero_waits_for_a_gemm_loop_unless_nvopt_5() {
    let dir = tempfile::tempdir().unwrap();
    let k = dir.path().join("no_gemm.ptx");
    std::fs::write(&k, NO_GEMM).unwrap();
    let k = k.display().to_string();
    assert_eq!(fired(&["-arch=sm_80", &k], "OptimizeNaNOrZero"), 0);
    assert_eq!(
        fired(
            &["-arch=sm_80", "--knob", "NvOptLevel=5", &k],
            "OptimizeNaNOrZero"
        ),
        1
    );
}
