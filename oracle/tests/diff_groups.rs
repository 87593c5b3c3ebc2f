//! One bug, one group: a single bug planted through ptxc's test-only hook
//! (every wait mask cleared after AssignScoreboards, the scoreboard
//! bug) fails many programs on every architecture class through many key
//! opcodes; a short `ptxdiff run` (the library function behind it) shows
//! it as one group blamed on AssignScoreboards, counting every failing run,
//! with every saved finding listed in it.
//!
//! The hook slot is process-wide: this file is its own test binary, and
//! its one test holds the hook throughout.

use oracle::commands::fuzz_run::{self, RunArgs};
use oracle::diff::groups::VerdictClass;
use oracle::diff::FindingsDir;
use ptxc::phases::{table, test_hooks, PhaseContext};

fn drop_waits(cx: &mut PhaseContext) -> u64 {
    let mut n = 0;
    for i in cx
        .function
        .blocks
        .iter_mut()
        .flat_map(|b| b.insts.iter_mut())
    {
        if let Some(mut c) = i.control().filter(|c| c.wait != 0) {
            c.wait = 0;
            i.set_control(c);
            n += 1;
        }
    }
    n
}

#[test]
fn a_planted_scoreboard_bug_is_one_group() {
    test_hooks::install(table::lookup("AssignScoreboards"), drop_waits);
    let dir = tempfile::tempdir().unwrap();
    let args = RunArgs {
        count: Some(6),
        seed: 40,
        jobs: 2,
        matrix: "smoke".into(),
        findings: dir.path().join("findings"),
        vendor: false,
        ..RunArgs::default()
    };
    let o = fuzz_run::run(&args, &mut |_| {}, &mut |_| {}).unwrap();
    test_hooks::clear();
    assert!(o.stats.failures() > 1, "{}", o.verdict_line());
    let g = &o.groups.groups;
    assert_eq!(g.len(), 1, "{}", o.groups.lines("findings").join("\n"));
    assert_eq!(g[0].key.stage, "AssignScoreboards");
    assert_eq!(g[0].key.class, VerdictClass::Hazard);
    assert_eq!(g[0].count(), o.stats.failures());
    assert!(
        o.verdict_line().ends_with("; 1 bug group)"),
        "{}",
        o.verdict_line()
    );
    // Nothing is lost: every saved finding is a member of the group.
    let mut saved: Vec<String> = FindingsDir::new(dir.path().join("findings"))
        .unwrap()
        .list()
        .unwrap()
        .iter()
        .map(|d| d.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut members: Vec<String> = g[0].members.iter().map(|(s, _)| s.slug()).collect();
    saved.sort();
    members.sort();
    assert_eq!(saved, members);
}
