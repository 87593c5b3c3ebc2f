//! `ptxdiff bench run`: the engine's throughput figures on generated
//! programs (printed, never asserted as timings).

mod common;
use common::ptxdiff_out as ptxdiff;

#[test]
fn bench_run_prints_rates_for_one_job_and_every_core() {
    let (code, out, err) = ptxdiff(&["bench", "run", "--count", "6", "--seed", "3"]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "bench run: 6 generated programs (seeds 3..), matrix 'fuzz', vendor off"
    );
    assert!(
        lines[1].starts_with("  1 job(s): 6 programs, 12 configuration runs in "),
        "{out}"
    );
    assert!(
        lines[1].contains(" programs/s, ") && lines[1].contains(" runs/s "),
        "{out}"
    );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores > 1 {
        assert!(
            lines[2].starts_with(&format!("  {cores} job(s): 6 programs")),
            "{out}"
        );
        assert!(
            lines[3].starts_with(&format!("  speedup on {cores} cores: ")),
            "{out}"
        );
    }
    assert!(!out.contains("note:"), "a generated program failed:\n{out}");
}

#[test]
fn bench_run_arguments_are_checked() {
    let (code, _, err) = ptxdiff(&["bench", "run", "--count", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("--count: 'x' is not a number"), "{err}");
    let (code, _, err) = ptxdiff(&["bench", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("the benchmarks are `size` and `run`"), "{err}");
}
