//! `ptxdiff bench run`: the engine's throughput figures on generated
//! programs (printed, never asserted as timings).

mod common;
use common::ptxdiff_out as ptxdiff;

#[test]
fn bench_run_prints_rates_for_one_job_and_every_core() {
    let (code, out, err) = ptxdiff(&["bench", "run", "--count", "6", "--seed", "3"]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("bench run: 6 generated programs (seeds 3..; ")
            && lines[0].ends_with(" PTX instructions each on average), matrix 'fuzz', vendor off"),
        "{out}"
    );
    assert!(mean_size(&out) > 20.0, "{out}");
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

/// The mean program size of the header line.
fn mean_size(out: &str) -> f64 {
    let h = out.lines().next().unwrap_or("");
    let tail = h.split("..; ").nth(1).unwrap_or("");
    tail.split(' ').next().unwrap_or("").parse().unwrap_or(-1.0)
}

#[test]
fn bench_run_takes_a_generator_configuration() {
    // Smaller programs: the size the rates are for is in the header.
    let dir = std::env::temp_dir().join(format!("bench-run-cfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("small.json");
    std::fs::write(&f, r#"{"sizes": {"stmts": 3, "funcs": 0}}"#).unwrap();
    let (code, small, err) = ptxdiff(&[
        "bench",
        "run",
        "--count",
        "4",
        "--gen-config",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{small}{err}");
    let (code, full, err) = ptxdiff(&["bench", "run", "--count", "4"]);
    assert_eq!(code, 0, "{full}{err}");
    let (a, b) = (mean_size(&small), mean_size(&full));
    assert!(a > 0.0 && a < b, "{small}\n{full}");
    let (code, _, err) = ptxdiff(&["bench", "run", "--gen-config", "/nonexistent.json"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot read '/nonexistent.json'"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
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
