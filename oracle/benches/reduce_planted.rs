//! `cargo bench -p oracle --bench reduce_planted`: the reducer on planted
//! bugs (issue 9's acceptance). For each of five bugs planted in five
//! phases through ptxc's test-only hook, the first generated program the
//! bug breaks is reduced under `same-signature`; printed per case: the
//! size before and after, the candidates and the time; then the median
//! reduced size (target: at most 8 PTX instructions). When C-Vise is
//! installed, it reduces the same programs with the same predicate (this
//! binary, called back as its interestingness test) and its size and time
//! are printed beside ours.
//!
//! Options (after `--`): `--no-cvise`, `--cvise-timeout SECONDS` (per
//! case, default 600), `--stmts N` (generated program size, default 24).

#[path = "../tests/planted/mod.rs"]
mod planted;

use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use oracle::reduce::{self, cvise, Case};
use planted::{find_victim, small_gen_config, PLANTS};

/// Called back by C-Vise: `--interesting PLANT <ptxdiff interesting args>`.
fn interesting(args: &[String]) -> ExitCode {
    let Some(k) = args.first().and_then(|s| s.parse::<usize>().ok()) else {
        return ExitCode::from(2);
    };
    PLANTS[k].install();
    // The script's words after ours: `interesting --ptx ...`.
    let rest = match args.get(1).map(String::as_str) {
        Some("interesting") => &args[2..],
        _ => &args[1..],
    };
    match oracle::commands::reduce::interesting(rest) {
        Ok((true, _)) => ExitCode::SUCCESS,
        Ok((false, why)) => {
            eprintln!("{why}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

fn instructions_of(ptx: &str, spec: &oracle::launch::LaunchSpec) -> Option<usize> {
    Case::parse("cvise.ptx", ptx, spec.clone())
        .ok()
        .map(|c| c.size().instructions)
}

/// C-Vise on `case` with `script`; (instructions after, seconds).
fn run_cvise(
    k: usize,
    case: &Case,
    target: &reduce::Target,
    timeout: Duration,
) -> Result<(usize, f64), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let script = dir.path().join("interesting.sh");
    cvise::write(
        &script,
        &[
            exe.display().to_string(),
            "--interesting".into(),
            k.to_string(),
        ],
        &case.spec,
        "program.ptx",
        target,
    )
    .map_err(|e| e.to_string())?;
    let ptx = dir.path().join("program.ptx");
    std::fs::write(&ptx, case.ptx()).map_err(|e| e.to_string())?;
    // C-Vise refuses to start unless the original is interesting: check
    // it here, with the reason when it is not.
    let check = Command::new(&script)
        .current_dir(dir.path())
        .output()
        .map_err(|e| e.to_string())?;
    if !check.status.success() {
        return Err(format!(
            "the script rejects the original: {}",
            String::from_utf8_lossy(&check.stderr).trim()
        ));
    }
    let start = Instant::now();
    let status = Command::new("timeout")
        .arg(timeout.as_secs().to_string())
        .arg("cvise")
        .args(["--not-c", "--n", "2", "--tidy"])
        .arg(&script)
        // C-Vise takes the test case's bare name, in its working directory.
        .arg("program.ptx")
        .current_dir(dir.path())
        .output()
        .map_err(|e| format!("cannot run cvise: {e}"))?;
    let log = String::from_utf8_lossy(&status.stderr).into_owned();
    let status = status.status;
    let secs = start.elapsed().as_secs_f64();
    // 124: our timeout cut it (the file holds C-Vise's best so far).
    if !status.success() && status.code() != Some(124) {
        let last = log
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(format!("cvise exited with {status}: {last}"));
    }
    let text = std::fs::read_to_string(&ptx).map_err(|e| e.to_string())?;
    let n = instructions_of(&text, &case.spec)
        .ok_or_else(|| format!("C-Vise's result does not parse (status {status})"))?;
    Ok((n, secs))
}

fn have_cvise() -> bool {
    Command::new("cvise")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--interesting") {
        return interesting(&args[1..]);
    }
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let use_cvise = !args.iter().any(|a| a == "--no-cvise") && have_cvise();
    let cvise_timeout = Duration::from_secs(flag("--cvise-timeout").unwrap_or(600));
    let mut gen = small_gen_config();
    if let Some(n) = flag("--stmts") {
        gen.sizes.stmts = n as u32;
    }
    if !use_cvise {
        println!(
            "C-Vise: not run ({})",
            if have_cvise() {
                "--no-cvise"
            } else {
                "cvise is not installed"
            }
        );
    }
    println!(
        "{:<26} {:<38} {:>5} {:>11} {:>10} {:>8} {:>14}",
        "phase", "planted bug", "seed", "instrs", "candidates", "seconds", "C-Vise instrs/s"
    );
    let mut sizes = Vec::new();
    for (k, plant) in PLANTS.iter().enumerate() {
        plant.install();
        let Some((seed, case, mut target)) = find_victim(plant, 0, 400, &gen) else {
            println!(
                "{:<26} {:<38} no generated program in 400 seeds fails",
                plant.phase, plant.what
            );
            continue;
        };
        if let Err(e) = target.calibrate(&case) {
            println!("{:<26} {e}", plant.phase);
            continue;
        }
        let opts = reduce::Options {
            jobs: 0,
            progress: false,
            ..Default::default()
        };
        let r = match reduce::reduce(&case, &target, &opts) {
            Ok(r) => r,
            Err(e) => {
                println!("{:<26} reduce failed: {e}", plant.phase);
                continue;
            }
        };
        // The result keeps the signature and is a defined program.
        assert!(
            target.judge(&r.reduced).is_interesting(),
            "{}: the result lost the signature",
            plant.phase
        );
        sizes.push(r.after.instructions);
        let cv = if use_cvise {
            match run_cvise(k, &case, &target, cvise_timeout) {
                Ok((n, s)) => format!("{n} / {s:.1}"),
                Err(e) => format!("error: {e}"),
            }
        } else {
            "-".into()
        };
        println!(
            "{:<26} {:<38} {:>5} {:>4} -> {:<3} {:>10} {:>8.1} {:>14}",
            plant.phase,
            plant.what,
            seed,
            r.before.instructions,
            r.after.instructions,
            r.tried,
            r.elapsed.as_secs_f64(),
            cv
        );
    }
    ptxc::phases::test_hooks::clear();
    sizes.sort_unstable();
    if sizes.is_empty() {
        println!("no case reduced");
        return ExitCode::from(1);
    }
    let median = sizes[sizes.len() / 2];
    println!(
        "median reduced size: {median} PTX instructions over {} cases (target <= 8)",
        sizes.len()
    );
    ExitCode::SUCCESS
}
