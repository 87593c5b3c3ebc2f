//! Tests of the pass manager, the pipeline tables, knobs and the command
//! line (what they assert is in each test's name).

use super::cli;
use super::pipeline::*;

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn text(level: Level, opt: &str) -> String {
    build(level, &Knobs::parse(opt).unwrap()).pm.text()
}

#[test]
fn add_pass_dedups_identical_instances_and_updates_flags() {
    let mut pm = PassManager::default();
    let a = PassRef {
        name: "dce",
        params: vec![],
        instance: 1,
    };
    let b = PassRef {
        instance: 2,
        ..a.clone()
    };
    assert!(pm.add_pass(a.clone(), true, false));
    assert!(pm.add_pass(b, true, false));
    assert!(!pm.add_pass(a, false, true));
    assert_eq!(pm.passes.len(), 2);
    assert_eq!(pm.passes[0].1, BARRIER);
    assert_eq!(pm.passes[1].1, FUNCTION_PASS);
    assert_eq!(pm.text(), "dce,dce");
}

#[test]
fn levels_follow_the_tier_tables() {
    assert_eq!(text(Level::O0, ""), "");
    let shown = |r: &Row| -> String {
        if r.params.is_empty() {
            r.pass.to_string()
        } else {
            format!("{}<{}>", r.pass, r.params.join(";"))
        }
    };
    let t0: Vec<String> = TIER0.iter().map(shown).collect();
    let tn = |tier: u32| -> Vec<String> {
        TIER_N
            .iter()
            .filter(|r| r.gate != Gate::TierNot1 || tier != 1)
            .map(shown)
            .collect()
    };
    // The pre-optimization rows on by default (a `^knob` row is off).
    let pre: Vec<String> = PRE
        .iter()
        .filter(|r| !r.knob.is_some_and(|k| k.starts_with('^')))
        .map(shown)
        .collect();
    assert_eq!(pre, ["always-inline"]);
    // The default language path's rows close every optimizing level.
    let path: Vec<String> = PATH_DEFAULT.iter().map(shown).collect();
    for (level, tier) in [(Level::O1, 1), (Level::O2, 2), (Level::O3, 3)] {
        let want = [pre.clone(), t0.clone(), tn(tier), path.clone()]
            .concat()
            .join(",");
        assert_eq!(text(level, ""), want, "{level:?}");
    }
    // Tier 1 skips the tier != 1 rows: SimplifyCFG (row 14),
    // LoopIndexSplit (15) and Sink (19).
    assert_eq!(tn(2).len(), tn(1).len() + 3);
    assert_eq!(build(Level::O3, &Knobs::default()).features, 6);
    assert_eq!(build(Level::O2, &Knobs::default()).features, 0);
}

#[test]
fn module_passes_are_recorded_as_module_kind_with_the_barrier_bit() {
    let p = build(Level::O3, &Knobs::default());
    let mut modules = Vec::new();
    for (r, flags) in &p.pm.passes {
        let module = crate::nvopt::passes::is_module_pass(r.name);
        assert_eq!(
            *flags,
            if module { BARRIER } else { FUNCTION_PASS },
            "{}",
            r.name
        );
        if module {
            modules.push(r.name);
        }
    }
    // The pre-optimization and tier rows, then the default path's.
    assert_eq!(
        modules,
        [
            "always-inline",
            "ipconstprop",
            "ipconstprop",
            "inline",
            "ipconstprop",
            "deadargelim",
            "deadargelim",
            "inline"
        ]
    );
    let l = parse_passes("inline,dce,deadargelim", &Knobs::default()).unwrap();
    let flags: Vec<u8> = l.pm.passes.iter().map(|(_, f)| *f).collect();
    assert_eq!(flags, [BARRIER, FUNCTION_PASS, BARRIER]);
    // The extra DeadArgElim trigger is off unless given; the inliner
    // knobs drop their rows (on the ptx path, which adds no module pass).
    assert!(!text(Level::O2, "-lang=ptx").contains("deadargelim"));
    assert!(
        text(Level::O2, "-lang=ptx -extra-deadargelim").starts_with("deadargelim,always-inline,")
    );
    assert!(!text(Level::O2, "-no-inline-b").contains("always-inline"));
    assert!(!text(Level::O2, "-lang=ptx -no-inline-c")
        .split(',')
        .any(|p| p == "inline"));
    assert!(!text(Level::O2, "-no-ipconst").contains("ipconstprop"));
}

#[test]
fn knobs_disable_rows_with_get_bool_option_rules() {
    let full = text(Level::O2, "");
    let licm = full.split(',').filter(|p| *p == "licm").count();
    assert!(licm > 0);
    for off in ["-do-licm=0", "-do-licm=false", "-do-licm=F", "-do-licm=no"] {
        assert!(!text(Level::O2, off).contains("licm"), "{off}");
    }
    for on in ["-do-licm", "-do-licm=1", "-do-licm=TRUE", "-do-licm=t"] {
        assert_eq!(text(Level::O2, on), full, "{on}");
    }
    assert!(!text(Level::O2, "-no-dce").split(',').any(|p| p == "dce"));
    assert_eq!(text(Level::O2, "-no-dce=0"), full);
    assert!(Knobs::parse("no-dce").is_err());
}

#[test]
fn passes_list_parses_names_and_pipelines() {
    let k = Knobs::default();
    assert_eq!(parse_passes("dce,sccp", &k).unwrap().pm.text(), "dce,sccp");
    assert_eq!(
        parse_passes("nvopt<O2>,dce", &k).unwrap().pm.text(),
        format!("{},dce", text(Level::O2, ""))
    );
    assert_eq!(
        parse_passes("default<O1>", &k).unwrap().pm.text(),
        text(Level::O1, "")
    );
    assert_eq!(
        parse_passes("dce,bogus", &k).err().unwrap(),
        "--passes: unknown pass 'bogus'"
    );
    assert!(parse_passes("dce<x>", &k).is_err());
    assert!(parse_passes("nvopt<O9>", &k).is_err());
    assert!(parse_passes("dce,,sccp", &k).is_err());
}

#[test]
fn command_line_errors_use_the_seed_texts() {
    let e = cli::parse_args(&s(&["-O2", "--passes=dce", "a.ptx"])).unwrap_err();
    assert_eq!(e, PASSES_WITH_O_ERROR);
    let e = cli::parse_args(&s(&["-Ofast-compile=max", "--passes=dce"])).unwrap_err();
    assert_eq!(e, PASSES_WITH_O_ERROR);
    let e = cli::parse_args(&s(&["-Ofast-compile=fast", "a.ptx"])).unwrap_err();
    assert_eq!(
        e,
        "-Ofast-compile called with unsupported level, only supports 0, min, mid, or max"
    );
    assert_eq!(
        cli::parse_args(&s(&["-Ofast-compile=mid"])).unwrap().level,
        Some(Level::Ofcmid)
    );
    assert_eq!(
        cli::parse_args(&s(&["-Ofast-compile=0"])).unwrap().level,
        None
    );
    assert!(cli::parse_args(&s(&["a.ptx", "b.ptx"])).is_err());
    assert!(cli::parse_args(&s(&["--bogus"])).is_err());
    assert!(cli::parse_args(&s(&["-o"])).is_err());
}

#[test]
fn print_pipeline_passes_without_input_prints_the_list() {
    let (out, err) = cli::run(&s(&["-O1", "--print-pipeline-passes"])).unwrap();
    assert_eq!(out, format!("{}\n", text(Level::O1, "")));
    assert_eq!(err, "");
    let (out, _) = cli::run(&s(&["--passes=dce,licm", "--print-pipeline-passes"])).unwrap();
    assert_eq!(out, "dce,licm\n");
}

#[test]
fn bad_input_gets_a_located_diagnostic() {
    let dir = std::env::temp_dir().join(format!("nvopt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.ptx");
    std::fs::write(
        &path,
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n add.s32 %r1, 1, 2;\n ret;\n}\n",
    )
    .unwrap();
    let p = path.to_str().unwrap().to_string();
    let e = cli::run(&s(&[&p])).unwrap_err();
    assert!(
        e.starts_with(&format!("{p}:6:10: error: undeclared register '%r1'")),
        "{e}"
    );
    let e = cli::run(&s(&["/nonexistent/x.ptx"])).unwrap_err();
    assert!(e.starts_with("cannot read /nonexistent/x.ptx"), "{e}");
    // A good input is optimized to -o.
    let good = dir.join("good.ptx");
    std::fs::write(
        &good,
        ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<3>;\n ld.param.u64 %rd1, [p];\n mov.u32 %r1, 2;\n add.s32 %r2, %r1, 3;\n st.global.u32 [%rd1], %r2;\n ret;\n}\n",
    )
    .unwrap();
    let out = dir.join("out.ptx");
    let (o, e) = cli::run(&s(&[
        "-O2",
        good.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]))
    .unwrap();
    assert_eq!((o.as_str(), e.as_str()), ("", ""));
    let text = std::fs::read_to_string(&out).unwrap();
    crate::ptx::parse_checked("out.ptx", &text).unwrap();
    assert!(
        text.contains("st.global.u32 \t[%nvb64_0], %nvb32_0;"),
        "{text}"
    );
    assert!(text.contains("mov.b32 \t%nvb32_0, 5;"), "{text}");
    assert!(!text.contains("add.s32"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn loop_pass_rows_follow_the_seed_tiers_and_knobs() {
    // On the ptx path, which adds none of these passes.
    let o1 = text(Level::O1, "-lang=ptx");
    let o2 = text(Level::O2, "-lang=ptx");
    let count = |t: &str, p: &str| t.split(',').filter(|x| *x == p).count();
    // Tier 0 has Sink and LoopIndexSplit; tiers 2/3 add one more of each,
    // tier 1 does not (cicc: `tier != 1`; docs/MODEL.md, Tiers and optimization levels).
    for p in ["sink", "loop-index-split"] {
        assert_eq!((count(&o1, p), count(&o2, p)), (1, 2), "{p}");
    }
    for p in ["loop-simplify", "loop-unroll", "remat"] {
        assert_eq!((count(&o1, p), count(&o2, p)), (2, 2), "{p}");
    }
    for p in ["sinking2", "reassociate"] {
        assert_eq!((count(&o1, p), count(&o2, p)), (1, 1), "{p}");
    }
    // Knobs: cicc's names disable them; do-remat is inverted.
    for (knob, p) in [
        ("-no-sink", "sink"),
        ("-no-loopindexsplit", "loop-index-split"),
        ("-no-loopsimplify", "loop-simplify"),
        ("-no-loopunroll", "loop-unroll"),
        ("-do-remat=0", "remat"),
        ("-no-sinking2", "sinking2"),
        ("-no-reassoc", "reassociate"),
    ] {
        let t = text(Level::O2, &format!("-lang=ptx {knob}"));
        assert_eq!(count(&t, p), 0, "{knob}");
    }
    // Ofcmax: DCE and Sinking2.
    assert_eq!(text(Level::Ofcmax, ""), "dce,sinking2");
}

#[test]
fn integer_knobs_become_pass_parameters() {
    let t = text(Level::O1, "-remat-max-live-limit=50 -unroll-count=2");
    assert!(t.contains("remat<max-live-limit=50>"), "{t}");
    assert!(t.contains("loop-unroll<count=2>"), "{t}");
    assert!(!t.contains("remat,"), "{t}");
    for bad in [
        "-remat-max-live-limit",
        "-remat-max-live-limit=x",
        "-unroll-count=-1",
    ] {
        let e = Knobs::parse(bad).unwrap_err();
        assert!(e.contains("needs an unsigned integer value"), "{bad}: {e}");
    }
    let k = Knobs::default();
    assert_eq!(
        parse_passes("loop-unroll<threshold=300;count=4>,remat", &k)
            .unwrap()
            .pm
            .text(),
        "loop-unroll<threshold=300;count=4>,remat"
    );
    let e = parse_passes("loop-unroll<speed=3>", &k).err().unwrap();
    assert_eq!(e, "--passes: pass 'loop-unroll' takes no parameter 'speed'");
    let e = parse_passes("remat<use-limit=many>", &k).err().unwrap();
    assert_eq!(
        e,
        "--passes: pass 'remat': 'use-limit=many' is not an unsigned integer"
    );
    let e = parse_passes("sink<x=1>", &k).err().unwrap();
    assert!(e.contains("takes no parameters"), "{e}");
}

#[test]
fn memory_pass_rows_follow_their_knobs_and_levels() {
    let o3 = text(Level::O3, "");
    let first = "memory-space-opt<first-time;warnings>";
    let second = "memory-space-opt<second-time;warnings>";
    for p in ["gvn", "sroa", "dse", first, second] {
        assert!(o3.split(',').any(|x| x == p), "{p} in {o3}");
    }
    let off = text(Level::O3, "-do-ip-msp=0 -no-memspaceopt-b -no-sroa -no-dse");
    for p in ["sroa", "dse", first, second] {
        assert!(!off.split(',').any(|x| x == p), "{p} in {off}");
    }
    // Ofcmax forces -memory-space-opt=0; Ofcmid and Ofcmin run it.
    assert!(!text(Level::Ofcmax, "").contains("memory-space-opt"));
    assert!(text(Level::Ofcmid, "").split(',').any(|x| x == first));
    assert!(text(Level::Ofcmin, "").split(',').any(|x| x == first));
    let k = Knobs::default();
    assert_eq!(
        parse_passes("memory-space-opt<second-time;no-warnings>,sroa", &k)
            .unwrap()
            .pm
            .text(),
        "memory-space-opt<second-time;no-warnings>,sroa"
    );
    assert_eq!(
        parse_passes("memory-space-opt<fast>", &k).err().unwrap(),
        "invalid MemorySpaceOpt pass parameter 'fast'"
    );
    assert!(parse_passes("sroa<x>", &k).is_err());
}

#[test]
fn the_language_knob_selects_the_path() {
    let o3 = |opt: &str| text(Level::O3, opt);
    let tiers = text(Level::O3, "-lang=ptx");
    // The ptx path: NVVMPeephole, DCE, MemorySpaceOpt after the tiers.
    assert!(
        tiers.ends_with(",nvvm-peephole-optimizer,dce,memory-space-opt<first-time;warnings>"),
        "{tiers}"
    );
    let base = tiers
        .strip_suffix(",nvvm-peephole-optimizer,dce,memory-space-opt<first-time;warnings>")
        .unwrap()
        .to_string();
    let with = |rows: &[Row]| -> String {
        let names: Vec<&str> = rows.iter().map(|r| r.pass).collect();
        names.join(",")
    };
    let strip = |t: String| -> String {
        t.split(',')
            .map(|p| p.split('<').next().unwrap().to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let base_names = strip(base.clone());
    assert_eq!(
        strip(o3("-lang=mid")),
        format!("{base_names},{}", with(PATH_MID))
    );
    // Any other string (idn, empty, absent) takes the default path.
    let default = format!("{base_names},{}", with(PATH_DEFAULT));
    for opt in ["", "-lang=idn", "-lang=", "-lang"] {
        assert_eq!(strip(o3(opt)), default, "{opt}");
    }
    // The mid path starts with SROA and ends with remat; the default path
    // ends with the inliner (the CGSCC row with inlining).
    assert_eq!(PATH_MID.first().map(|r| r.pass), Some("sroa"));
    assert_eq!(PATH_MID.last().map(|r| r.pass), Some("remat"));
    assert_eq!(PATH_DEFAULT.last().map(|r| r.pass), Some("inline"));
    // The path rows keep their gates: -no-dce removes the ptx path's DCE.
    assert!(o3("-lang=ptx -no-dce")
        .ends_with(",nvvm-peephole-optimizer,memory-space-opt<first-time;warnings>"));
    // O0 and the fast-compile levels take no language path.
    for l in [Level::O0, Level::Ofcmax, Level::Ofcmid, Level::Ofcmin] {
        assert_eq!(text(l, "-lang=mid"), text(l, ""), "{l:?}");
        assert!(!text(l, "").contains("nvvm-peephole-optimizer"), "{l:?}");
    }
    // The knob changes what runs: the paths differ.
    assert_ne!(o3("-lang=ptx"), o3("-lang=mid"));
    assert_ne!(o3("-lang=mid"), o3(""));
}
