//! Whole-process compile time: `ptxc -O0` against `ptxas -O0` (when
//! installed) on every corpus kernel (`corpus/kernels/NAME/NAME.ptx`), for
//! sm_80. Each command runs `REPS` times (after one warm-up); the median
//! wall time counts. Prints a line per kernel and the overall ratio (sum of
//! ptxc medians over sum of ptxas medians, over the kernels both compile).
//!
//! `cargo bench -p ptxc --bench compile_vs_ptxas`; `PTXC_BENCH_REPS=N`
//! changes the repetitions, `PTXC_BENCH_ARCH=sm_XX` the target.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Runs `cmd` `reps` times after a warm-up: median time and whether it succeeded.
fn time(mut cmd: impl FnMut() -> Command, reps: usize) -> (Duration, bool) {
    let ok = cmd().output().map(|o| o.status.success()).unwrap_or(false);
    let times = (0..reps)
        .map(|_| {
            let t = Instant::now();
            let _ = cmd().output();
            t.elapsed()
        })
        .collect();
    (median(times), ok)
}

fn ptxas() -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join("ptxas"))
        .find(|p| p.is_file())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let reps: usize = std::env::var("PTXC_BENCH_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let arch = std::env::var("PTXC_BENCH_ARCH").unwrap_or_else(|_| "sm_80".into());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let mut kernels: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    kernels.sort();
    let vendor = ptxas();
    let tmp = std::env::temp_dir().join(format!("ptxc-bench-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let ptxc_out = tmp.join("out.sass");
    let ptxas_out = tmp.join("out.cubin");
    let ptxc_bin = env!("CARGO_BIN_EXE_ptxc");
    println!(
        "compile time, whole process, -O0 -arch={arch}, median of {reps} ({})",
        match &vendor {
            Some(p) => format!("ptxas: {}", p.display()),
            None => "ptxas not installed: ptxc only".into(),
        }
    );
    println!(
        "{:<18} {:>10} {:>10} {:>7}",
        "kernel", "ptxc ms", "ptxas ms", "ratio"
    );
    let (mut sum_c, mut sum_v) = (Duration::ZERO, Duration::ZERO);
    for k in &kernels {
        let ptx = root.join(k).join(format!("{k}.ptx"));
        let (tc, okc) = time(
            || {
                let mut c = Command::new(ptxc_bin);
                c.args(["-O0", &format!("-arch={arch}"), "-o"])
                    .arg(&ptxc_out)
                    .arg(&ptx);
                c
            },
            reps,
        );
        let v = vendor.as_ref().map(|p| {
            time(
                || {
                    let mut c = Command::new(p);
                    c.args(["-O0", &format!("-arch={arch}"), "-o"])
                        .arg(&ptxas_out)
                        .arg(&ptx);
                    c
                },
                reps,
            )
        });
        let note = if okc { "" } else { "  (ptxc: error)" };
        match v {
            Some((tv, okv)) => {
                if okc && okv {
                    sum_c += tc;
                    sum_v += tv;
                }
                println!(
                    "{k:<18} {:>10.2} {:>10.2} {:>7.3}{note}",
                    ms(tc),
                    ms(tv),
                    tc.as_secs_f64() / tv.as_secs_f64()
                );
            }
            None => println!("{k:<18} {:>10.2} {:>10} {:>7}{note}", ms(tc), "-", "-"),
        }
    }
    if sum_v > Duration::ZERO {
        println!(
            "overall (kernels both compile): ptxc {:.2} ms, ptxas {:.2} ms, ratio ptxc/ptxas {:.3}",
            ms(sum_c),
            ms(sum_v),
            sum_c.as_secs_f64() / sum_v.as_secs_f64()
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
