//! The generator's control, loop, warp and call forms (oracle::gen
//! control.rs, ivloop.rs, warp.rs, call.rs): each form is written over a
//! few hundred seeds, the programs that hold it run UB-free in the PTX
//! interpreter and lower with ptxc on every stats architecture, and the
//! induction-variable loops reach ptxc's loop phases (OriStrengthReduce,
//! OriLoopUnrolling, the OriHoistInvariants phases) on a good fraction of
//! the programs that have one.

use oracle::gen::stats::{lower_for, run_kind, STATS_ARCHS};
use oracle::gen::{generate, Family, GenConfig, GenProgram};
use ptxc::phases::table::lookup;

fn config(families: &[Family]) -> GenConfig {
    let mut cfg = GenConfig::default();
    cfg.families.allow = families.to_vec();
    cfg
}

/// Seeds `0..n` of the config, each checked: it completes in the
/// interpreter and lowers on every stats arch.
fn checked(cfg: &GenConfig, n: u64) -> Vec<GenProgram> {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    for seed in 0..n {
        let p = generate(seed, cfg);
        let (kind, detail) = run_kind(&p, cfg);
        // UB-free >= 99.9%: over a few hundred seeds, none may fail
        assert_eq!(
            kind,
            "completed",
            "seed {seed}: {}\n{}",
            detail.unwrap_or_default(),
            p.ptx
        );
        for arch in STATS_ARCHS {
            if let Err(e) = lower_for(&p, arch) {
                bad.push(format!("seed {seed} {arch}: {e}"));
            }
        }
        out.push(p);
    }
    // the issue's bar for lowering: >= 99%
    assert!(
        bad.len() as u64 * 100 <= n,
        "{} of {n} programs failed:\n{}",
        bad.len(),
        bad.join("\n")
    );
    out
}

/// Asserts each needle occurs in at least one program.
fn all_written(ps: &[GenProgram], needles: &[&str]) {
    for n in needles {
        assert!(
            ps.iter().any(|p| p.ptx.contains(n)),
            "no program of {} contains '{n}'",
            ps.len()
        );
    }
}

#[test]
fn warp_forms_are_written_run_and_lower() {
    let cfg = config(&[Family::Warp, Family::Int, Family::Pred]);
    let ps = checked(&cfg, 250);
    all_written(
        &ps,
        &[
            "match.any.sync.b32",
            "match.any.sync.b64",
            "match.all.sync.b32",
            "match.all.sync.b64",
            "vote.sync.uni.pred",
            "vote.sync.any.pred",
            "vote.sync.all.pred",
            "vote.sync.ballot.b32",
            "bar.red.popc.u32",
            "bar.red.and.pred",
            "bar.red.or.pred",
            "activemask.b32",
            "shfl.sync.idx.b32",
            "shfl.sync.up.b32",
            "shfl.sync.down.b32",
            "shfl.sync.bfly.b32",
            ", 0x0000ffff;",
            ", 0xffff0000;",
        ],
    );
    // a shuffle over 8-lane segments: c = (24 << 8) | 0x1f (PTX ISA,
    // shfl.sync; CUDA's width 8)
    all_written(&ps, &[", 6175, -1;"]);
}

#[test]
fn branches_use_uniform_and_negated_forms() {
    let cfg = config(&[Family::Branch, Family::Int, Family::Pred]);
    let ps = checked(&cfg, 200);
    all_written(&ps, &[" bra.uni $L_else", "bra.uni $L_endif", "@!%p"]);
    // `@p bra.uni` only on a CTA-uniform condition: the predicate of every
    // guarded bra.uni comes from the block index or the scalar parameter.
    for p in &ps {
        let lines: Vec<&str> = p.ptx.lines().collect();
        for (k, l) in lines.iter().enumerate() {
            let l = l.trim();
            if !(l.starts_with('@') && l.contains(" bra.uni ")) {
                continue;
            }
            let pred = l[1..].split_whitespace().next().unwrap();
            let pred = pred.trim_start_matches('!');
            let def = lines[..k]
                .iter()
                .rev()
                .find(|d| d.contains(&format!(" {pred},")))
                .unwrap_or_else(|| panic!("seed {:?}: no definition of {pred}", p.seed));
            assert!(
                def.contains("setp.") && def.contains(".u32"),
                "seed {:?}: {l} guarded by {def}",
                p.seed
            );
        }
    }
}

#[test]
fn calls_pass_wide_float_and_vector_parameters() {
    let cfg = config(&[Family::Call, Family::Int]);
    let ps = checked(&cfg, 200);
    all_written(
        &ps,
        &[
            ".param .b64 fc",
            ".param .f32 fd",
            ".param .f64 fc",
            ".param .align 8 .b8 fd[8]",
            "ld.param.v2.b32",
            "st.param.v2.b32 [param",
            "st.param.v2.b32 [fret+0]",
            "ld.param.b64",
            "st.param.f64 [param",
        ],
    );
}

/// Fraction of the programs with an induction-variable loop in which each
/// loop phase rewrote something (ptxc -O3, sm_80).
#[test]
fn iv_loops_reach_the_loop_phases() {
    let cfg = config(&[Family::Loop, Family::Int, Family::Int64]);
    let ps = checked(&cfg, 160);
    let with_iv: Vec<&GenProgram> = ps.iter().filter(|p| p.ptx.contains("$L_ivloop")).collect();
    assert!(with_iv.len() >= 40, "{} IV-loop programs", with_iv.len());
    all_written(
        &ps,
        &[
            "mul.hi.u32",
            "mad.hi.s32",
            "mul.wide.s32",
            "mad.wide.u32",
            "shl.b32",
            "shr.s32",
            "mul.lo.s64",
            "add.s64",
            "sub.s64",
            "bra.uni $L_ivloop",
            "setp.ne.b64",
            "setp.lt.s32",
        ],
    );
    // (phase, least percentage): about half of what the generator reached
    // when this was written (19, 39 and 27 of 56 programs), so an
    // unrelated change of the random stream does not trip it, while loops
    // the phases stop accepting do
    let phases = [
        ("OriStrengthReduce", 15),
        ("OriLoopUnrolling", 35),
        ("OriHoistInvariantsEarly", 20),
    ];
    let arch = ptxc::targets::lookup_sm("sm_80").unwrap();
    let opts = ptxc::driver::DriverOptions {
        arch: Some(arch),
        opt_level: 3,
        ..Default::default()
    };
    let mut hits = vec![0usize; phases.len()];
    for p in &with_iv {
        let r = ptxc::driver::compile("gen.ptx", &p.ptx, &opts, None);
        let out = r
            .result
            .unwrap_or_else(|e| panic!("seed {:?}: {e:?}", p.seed));
        for (k, (name, _)) in phases.iter().enumerate() {
            let i = lookup(name);
            if out
                .functions
                .iter()
                .any(|f| f.fired.get(&i).is_some_and(|&n| n > 0))
            {
                hits[k] += 1;
            }
        }
    }
    for (k, (name, pct)) in phases.iter().enumerate() {
        eprintln!("{name}: {} of {}", hits[k], with_iv.len());
        assert!(
            hits[k] * 100 >= pct * with_iv.len(),
            "{name} fired in {} of {} IV-loop programs (want >= {pct}%)",
            hits[k],
            with_iv.len()
        );
    }
}

/// The first ptxc miscompilation the new warp forms found (generator seeds
/// 57, 223, 249, 292 and 300 of the default config, fuzz matrix):
/// `match.{any,all}.sync.b64` over values whose low words agree and high
/// words differ. The register model counted `MATCH.U64`'s source as one
/// word, so EarlyOriSimpleLiveDead deleted the high word's definition and
/// every lane matched (ptxas 11.8's listing in the simulator agrees with
/// the interpreter). Expected values from the ISA (match.sync): lanes
/// whose 64-bit values are equal, `{7, lane & 1}` here, so match.any gives
/// the even lanes 0x55555555 and the odd ones 0xaaaaaaaa, match.all 0; the
/// simulator's result must agree with the interpreter's on every target.
#[test]
fn match_sync_b64_reads_the_high_word() {
    use oracle::commands::check::{check_classified, CheckKind};
    use oracle::ptx_interp::RunLimits;
    let ptx = "\
.version 7.0
.target sm_70
.address_size 64

.visible .entry k(.param .u64 p_out)
{
\t.reg .b32 %r<8>;
\t.reg .b64 %rd<8>;
\tld.param.u64 %rd1, [p_out];
\tcvta.to.global.u64 %rd1, %rd1;
\tmov.u32 %r1, %tid.x;
\tand.b32 %r2, %r1, 1;
\tmov.u32 %r3, 7;
\tmov.b64 %rd2, {%r3, %r2};
\tbar.warp.sync -1;
\tmatch.all.sync.b64 %r4, %rd2, -1;
\tmov.b64 %rd3, {%r3, %r3};
\tmatch.all.sync.b64 %r5, %rd3, -1;
\tmatch.any.sync.b64 %r6, %rd2, -1;
\tmul.wide.u32 %rd4, %r1, 16;
\tadd.s64 %rd5, %rd1, %rd4;
\tst.global.v4.u32 [%rd5], {%r4, %r5, %r6, %r1};
\tret;
}
";
    let launch = r#"{
  "ptx": "m.ptx",
  "kernel": "k",
  "grid": [1],
  "block": [32],
  "params": [{"buffer": "out"}],
  "buffers": {"out": {"type": "u32", "len": 128, "init": "zeros"}},
  "outputs": ["out"]
}"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("m.ptx"), ptx).unwrap();
    let spec = dir.path().join("m.launch.json");
    std::fs::write(&spec, launch).unwrap();
    // the interpreter's values, from the ISA
    let m = ptxc::ptx::parse_checked("m.ptx", ptx).unwrap();
    let s = oracle::launch::LaunchSpec::from_file(&spec).unwrap();
    let r = oracle::ptx_interp::run(&m, ptx, &s, &RunLimits::default()).unwrap();
    let bits = &r.outputs.get("out").unwrap().bits;
    for lane in 0..32u64 {
        let any = if lane % 2 == 0 {
            0x5555_5555
        } else {
            0xaaaa_aaaa
        };
        let want = [0, 0xffff_ffff, any, lane];
        let l = lane as usize;
        assert_eq!(&bits[4 * l..4 * l + 4], &want, "lane {lane}");
    }
    for arch in ["sm_70", "sm_80", "sm_90"] {
        let (v, kind) =
            check_classified(&spec, Some(arch), &[], None, &RunLimits::default()).unwrap();
        assert_eq!(kind, CheckKind::Agree, "{arch}: {}", v.line);
    }
}
