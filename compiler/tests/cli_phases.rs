//! The phase pipeline's flags through the `ptxc` command line:
//! `--phase-stats`, `--dump-ir-before`, `--dump-ir-after`,
//! `--phase-order`, `--disable-phase`, `--knob`.

mod common;
use common::{kernel, ptxc, Out};

fn ok(args: &[&str]) -> Out {
    let r = ptxc(args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    r
}

fn fatal(args: &[&str], want: &str) {
    let r = ptxc(args);
    assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
    assert!(
        r.stderr.contains(&format!("ptxc fatal   : {want}")),
        "{args:?}: want `{want}`, got {}",
        r.stderr
    );
}

fn count_insts(listing: &str) -> usize {
    listing.lines().filter(|l| l.contains("*/ ")).count()
}

#[test]
fn phase_stats_prints_the_seed_format_measured() {
    let k = kernel("saxpy_div");
    let r = ok(&["-arch=sm_80", "--phase-stats", &k]);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines[0], "Phase statistics for function 'saxpy_div':");
    let parsed: Vec<_> = lines
        .iter()
        .filter_map(|l| ptxc::phases::stats::parse_line(l))
        .collect();
    // One line per phase of the default order, then the summary.
    assert_eq!(parsed.len(), ptxc::phases::table::DEFAULT_ORDER.len() + 1);
    for (line, &i) in parsed.iter().zip(ptxc::phases::table::DEFAULT_ORDER) {
        assert_eq!(line.0, ptxc::phases::table::name_of(i));
    }
    let summary = parsed.last().unwrap();
    assert_eq!(summary.0, "All Phases Summary");
    assert_eq!(summary.4, 100);
    // Measured for real: emission and value numbering (its control-flow
    // graph and fact sets) allocate, inert phases do not.
    let emit = parsed.iter().find(|p| p.0 == "EmitSassListing").unwrap();
    assert!(emit.1 > 0.0, "{emit:?}");
    let gvn = parsed.iter().find(|p| p.0 == "GvnCse").unwrap();
    assert!(gvn.1 > 0.0, "{gvn:?}");
    let inert = parsed
        .iter()
        .find(|p| p.0 == "PostFixForMercTargets")
        .unwrap();
    assert_eq!(inert.1, 0.0, "{inert:?}");
    assert!(summary.1 >= emit.1);
    let pool = lines
        .iter()
        .find_map(|l| l.trim().strip_prefix("[Pool Consumption = "))
        .unwrap();
    let mb: f64 = pool.strip_suffix(" MB]").unwrap().parse().unwrap();
    assert!(mb > 0.0);
    assert!(r.stderr.contains(
        "ORI sequence: mode default, 19 entries, popcount diff against the default 0 (unmodified)"
    ));
    // The listing is the same with and without statistics.
    assert_eq!(r.stdout, ok(&["-arch=sm_80", &k]).stdout);
}

/// `Fired NAME: N rewrites` lines: exactly the phases the library's run
/// recorded, with their counts, and the dead-code phases do fire on the
/// -O0 build of saxpy_div (clang -O0 leaves dead moves).
#[test]
fn phase_stats_prints_the_fired_counts() {
    let k = common::kernels_dir()
        .join("saxpy_div/saxpy_div.O0.ptx")
        .display()
        .to_string();
    let r = ok(&["-arch=sm_80", "--phase-stats", &k]);
    let printed: Vec<(String, u64)> = r
        .stderr
        .lines()
        .filter_map(|l| l.trim().strip_prefix("Fired "))
        .map(|l| {
            let (name, n) = l.split_once(": ").unwrap();
            (
                name.to_string(),
                n.strip_suffix(" rewrites").unwrap().parse().unwrap(),
            )
        })
        .collect();
    let src = std::fs::read_to_string(&k).unwrap();
    let m = ptxc::ptx::parse_checked("saxpy_div", &src).unwrap();
    let sm = ptxc::targets::lookup_sm("sm_80").unwrap();
    let kern = ptxc::lower::lower_module(&m, sm, &Default::default())
        .unwrap()
        .remove(0);
    let phased =
        ptxc::phases::run(&ptxc::phases::Plan::default(), kern.function, Some(sm)).unwrap();
    let want: Vec<(String, u64)> = phased
        .cx
        .fired
        .iter()
        .map(|(&i, &n)| (ptxc::phases::table::name_of(i).to_string(), n))
        .collect();
    assert_eq!(printed, want);
    let dce: u64 = want
        .iter()
        .filter(|(n, _)| n.contains("LiveDead"))
        .map(|(_, c)| c)
        .sum();
    assert_eq!(dce as usize, phased.cx.removed);
    assert!(dce > 0, "no dead code removed in saxpy_div.O0");
}

#[test]
fn dumps_before_and_after_a_phase_by_name() {
    let k = kernel("saxpy_div");
    let r = ok(&[
        "-arch=sm_80",
        "--dump-ir-before",
        "earlyorisimplelivedead",
        "--dump-ir-after",
        "EarlyOriSimpleLiveDead",
        "--dump-ir-after",
        "157",
        &k,
    ]);
    let before = r.stderr.find("Before EarlyOriSimpleLiveDead\n").unwrap();
    let after = r.stderr.find("After EarlyOriSimpleLiveDead\n").unwrap();
    let emit = r.stderr.find("After EmitSassListing\n").unwrap();
    assert!(before < after && after < emit);
    let b = &r.stderr[before..after];
    let a = &r.stderr[after..emit];
    assert!(b.contains("Function : saxpy_div"));
    // The dead-code phase removed something.
    assert!(count_insts(a) < count_insts(b), "{b}\n{a}");
    fatal(
        &["--dump-ir-before", "NoSuchPhase", &k],
        "--dump-ir-before: unknown phase 'NoSuchPhase'",
    );
    fatal(
        &["--dump-ir-after", "400", &k],
        "--dump-ir-after: phase index 400 is outside 0..158",
    );
}

#[test]
fn phase_order_lists_files_and_constraint_violations() {
    let k = kernel("saxpy_div");
    let full = ok(&["-arch=sm_80", &k]).stdout;
    // The minimal order: verify, convert (required) and emit, nothing
    // removed.
    let min = ok(&[
        "-arch=sm_80",
        "--phase-order",
        "OriCheckInitialProgram,ConvertUnsupportedOps,157",
        &k,
    ])
    .stdout;
    assert!(count_insts(&min) > count_insts(&full));
    // The same order from a file, with comments.
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("order.txt");
    std::fs::write(&f, "# verify, convert, then emit\n0\n5\nEmitSassListing\n").unwrap();
    let arg = format!("@{}", f.display());
    assert_eq!(ok(&["-arch=sm_80", "--phase-order", &arg, &k]).stdout, min);
    // The default order spelled out gives the default listing.
    let spelled: Vec<String> = ptxc::phases::table::DEFAULT_ORDER
        .iter()
        .map(|i| i.to_string())
        .collect();
    let spelled = spelled.join(",");
    assert_eq!(
        ok(&["-arch=sm_80", "--phase-order", &spelled, &k]).stdout,
        full
    );
    fatal(
        &["--phase-order", "16,0,5,157", &k],
        "phase order violates constraint `verify-first`: OriCheckInitialProgram (0) must run first",
    );
    fatal(
        &["--phase-order", "0,5,AllocateRegisters,OriSplitLiveRanges,157", &k],
        "phase order violates constraint `regalloc-after-vreg-creators`: AllocateRegisters (148) must run after OriSplitLiveRanges (19), which creates virtual registers",
    );
    fatal(
        &["--phase-order", "0,5,16", &k],
        "phase order violates constraint `required`: EmitSassListing (157) is missing from the order",
    );
    fatal(
        &["--phase-order", "0,157", &k],
        "phase order violates constraint `required`: ConvertUnsupportedOps (5) is missing from the order",
    );
    fatal(
        &["--phase-order", "0,16,5,157", &k],
        "phase order violates constraint `target-code`: ConvertUnsupportedOps (5) must run before OriPerformLiveDeadFirst (16)",
    );
    fatal(
        &["--disable-phase", "ConvertUnsupportedOps", &k],
        "cannot disable ConvertUnsupportedOps (5): constraint `required`",
    );
    fatal(
        &["--phase-order", "0,bogus,157", &k],
        "--phase-order: unknown phase 'bogus'",
    );
    fatal(
        &["--phase-order", "@/nonexistent/order.txt", &k],
        "--phase-order: cannot read the phase order file '/nonexistent/order.txt'",
    );
}

#[test]
fn disable_phase_removes_one_and_refuses_required_ones() {
    let k = kernel("saxpy_div");
    let full = ok(&["-arch=sm_80", &k]).stdout;
    // Every dead-code phase disabled: nothing is removed.
    let r = ok(&[
        "-arch=sm_80",
        "--disable-phase",
        "EarlyOriSimpleLiveDead",
        "--disable-phase",
        "OriPerformLiveDeadFirst",
        "--disable-phase",
        "33",
        "--disable-phase",
        "OriPerformLiveDeadThird",
        "--disable-phase",
        "OriPerformLiveDeadFourth",
        "--disable-phase",
        "OriRunNamedPhases",
        // The GeneralOptimize phases remove dead code too (one round each).
        "--disable-phase",
        "GeneralOptimizeEarly",
        "--disable-phase",
        "GeneralOptimize",
        "--disable-phase",
        "GeneralOptimizeMid",
        "--disable-phase",
        "GeneralOptimizeMid2",
        "--disable-phase",
        "GeneralOptimizeLate",
        "--disable-phase",
        "GeneralOptimizeLate2",
        &k,
    ]);
    assert!(count_insts(&r.stdout) > count_insts(&full));
    // Disabling one of several leaves the result alone.
    assert_eq!(
        ok(&[
            "-arch=sm_80",
            "--disable-phase",
            "OriPerformLiveDeadFirst",
            &k
        ])
        .stdout,
        full
    );
    fatal(
        &["--disable-phase", "EmitSassListing", &k],
        "cannot disable EmitSassListing (157): constraint `required`",
    );
    fatal(
        &["--disable-phase", "nosuch", &k],
        "--disable-phase: unknown phase 'nosuch'",
    );
}

#[test]
fn knobs_nvopt_levels_hooks_and_ori() {
    let k = kernel("saxpy_div");
    let full = ok(&["-arch=sm_80", &k]).stdout;
    // NvOptLevel=0: the dead-code phases are no-ops, like -O0's.
    let lvl0 = ok(&["-arch=sm_80", "--knob", "NvOptLevel=0", &k]);
    assert!(count_insts(&lvl0.stdout) > count_insts(&full));
    // Above 5: ptxas's warning (docs/MODEL.md, NvOpt level), and the compile goes on at level 5.
    let r = ok(&["-arch=sm_80", "--knob", "NvOptLevel=9", &k]);
    assert!(
        r.stderr.contains("ptxc warning : Invalid nvopt level : 9."),
        "{}",
        r.stderr
    );
    assert_eq!(
        r.stdout,
        ok(&["-arch=sm_80", "--knob", "NvOptLevel=5", &k]).stdout
    );
    // A hook runs the phase it is given: with only verify, the hook and
    // emission, the hook's dead-code phase removes what the default does.
    let hooked = ok(&[
        "-arch=sm_80",
        "--phase-order",
        "0,5,AdvancedPhaseAllocReg,157",
        "--knob",
        "AdvancedPhaseAllocReg=OriPerformLiveDead,NvOptLevel=5",
        "--phase-stats",
        &k,
    ]);
    let min = ok(&["-arch=sm_80", "--phase-order", "0,5,157", &k]).stdout;
    assert!(count_insts(&hooked.stdout) < count_insts(&min));
    // ORI: a shuffled sequence is reported as modified and compiles.
    let r = ok(&[
        "-arch=sm_80",
        "--phase-stats",
        "--knob",
        "ori=shuffle,reps=4,swap1=3,dce2=5,cpy1=2",
        &k,
    ]);
    assert!(
        r.stderr.contains("ORI sequence: mode shuffle, 23 entries"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("(modified)"));
    let r = ok(&[
        "-arch=sm_80",
        "--phase-stats",
        "--knob",
        "ori=NamedPhases,p0=16",
        &k,
    ]);
    assert!(r
        .stderr
        .contains("ORI sequence: mode NamedPhases, 304 entries"));
    // Knob errors name the key.
    fatal(
        &["--knob", "reps=300", &k],
        "--knob: knob 'reps': value 300 is outside 0..256",
    );
    fatal(&["--knob", "swap9=1", &k], "--knob: unknown knob 'swap9'");
    fatal(
        &["--knob", "dce1", &k],
        "--knob: malformed knob 'dce1': expected key=value",
    );
    fatal(
        &["--knob", "NvOptLevel=x", &k],
        "--knob: knob 'NvOptLevel': 'x' is not a number",
    );
    fatal(
        &["--knob", "AdvancedPhasePreSched=nosuch", &k],
        "--knob: knob 'AdvancedPhasePreSched': unknown phase 'nosuch'",
    );
}

/// -O0 runs no optimizing phase: its listing is the one of verification,
/// the control codes (correct code needs them at every level) and
/// emission alone.
#[test]
fn o0_runs_no_dead_code_phase() {
    let k = kernel("saxpy_div");
    let o0 = ok(&["-arch=sm_80", "-O0", &k]).stdout;
    // The verifier, the conversion (5, required), register allocation
    // (148, 154, 155: at every level),
    // the control codes (151..153) and emission.
    let min = ok(&[
        "-arch=sm_80",
        "-O0",
        "--phase-order",
        "0,5,148,151,152,153,154,155,157",
        &k,
    ])
    .stdout;
    assert_eq!(o0, min);
}

#[test]
fn the_help_lists_the_phase_flags() {
    let r = ok(&["--help"]);
    for f in [
        "--phase-stats",
        "--dump-ir-before",
        "--dump-ir-after",
        "--phase-order",
        "--disable-phase",
        "--knob",
    ] {
        assert!(r.stdout.contains(f), "{f}");
    }
}

/// `ScheduleInstructions BB ...` lines (docs/MODEL.md, Scheduler statistics):
/// one per block of the scheduled function, as the library records them,
/// and none at -O0 where the scheduler is off.
#[test]
fn phase_stats_prints_the_scheduler_block_statistics() {
    let k = kernel("matmul_tiled");
    let r = ok(&["-arch=sm_80", "--phase-stats", &k]);
    let printed: Vec<&str> = r
        .stderr
        .lines()
        .filter_map(|l| l.trim().strip_prefix("ScheduleInstructions BB "))
        .collect();
    let src = std::fs::read_to_string(&k).unwrap();
    let m = ptxc::ptx::parse_checked("matmul_tiled", &src).unwrap();
    let sm = ptxc::targets::lookup_sm("sm_80").unwrap();
    let kern = ptxc::lower::lower_module(&m, sm, &Default::default())
        .unwrap()
        .remove(0);
    let phased =
        ptxc::phases::run(&ptxc::phases::Plan::default(), kern.function, Some(sm)).unwrap();
    let want: Vec<String> = phased
        .cx
        .schedule
        .iter()
        .map(|b| b.to_string().strip_prefix("BB ").unwrap().to_string())
        .collect();
    assert_eq!(printed, want);
    assert_eq!(want.len(), phased.cx.function.blocks.len());
    // The tiled loop multiplies and accumulates: some block counts MACs.
    assert!(phased.cx.schedule.iter().any(|b| b.mac_insts > 0));
    assert!(printed[0].starts_with(".L_x_0: Insts "), "{}", printed[0]);
    assert!(printed[0].contains(", LDG latency hiding: Num "));
    let r0 = ok(&["-arch=sm_80", "-O0", "--phase-stats", &k]);
    assert!(!r0.stderr.contains("ScheduleInstructions BB"));
}

/// The command line takes phase indices as well as names; the numbers
/// these tests pass (`--phase-order 0,5,157`, `--dump-ir-after 33`, ...)
/// and the indices the expected messages print are these rows.
#[test]
fn the_indices_on_these_command_lines_are_the_named_phases() {
    use ptxc::phases::table::index_of;
    for (i, name) in [
        (0, "OriCheckInitialProgram"),
        (5, "ConvertUnsupportedOps"),
        (16, "OriPerformLiveDeadFirst"),
        (19, "OriSplitLiveRanges"),
        (33, "OriPerformLiveDeadSecond"),
        (148, "AllocateRegisters"),
        (151, "AssignScoreboards"),
        (152, "ComputeStallCounts"),
        (153, "SetReuseFlags"),
        (154, "VerifyAllocatedProgram"),
        (155, "ComputeResourceUsage"),
        (157, "EmitSassListing"),
    ] {
        assert_eq!(index_of(name), i, "{name}");
    }
}
