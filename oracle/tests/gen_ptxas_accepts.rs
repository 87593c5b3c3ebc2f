//! Every generated program is one ptxas accepts: the generator's menu is
//! derived from ptxc's validator, and a form the validator lets through but
//! ptxas 11.8 refuses is a false "vendor compile error" in every
//! differential run that meets it (found this way: `cvt.sat` between
//! integer types that cannot overflow, `setp.lo.b32`, `setp.bf16` below
//! sm_90, `rcp.approx.f64` without `.ftz`, `min.f16` below sm_80).
//! Skipped, with a message, when ptxas is not installed.

use oracle::gen::{generate, Bias, GenConfig};
use std::process::Command;

#[test]
fn ptxas_accepts_every_generated_program() {
    if !oracle::diff::vendor::available() {
        eprintln!("skipped: ptxas/cuobjdump not installed (scripts/install-toolchains.sh)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("gen-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut refused = Vec::new();
    let mut n = 0;
    for (mode, seeds) in [
        (Bias::None, 1..=160u64),
        (Bias::NanOrZero, 1..=20),
        (Bias::TexNodep, 1..=20),
        (Bias::HoistInvariants, 1..=20),
    ] {
        let cfg = GenConfig {
            mode,
            ..GenConfig::default()
        };
        for seed in seeds {
            let p = generate(seed, &cfg);
            let f = dir.join(format!("{}_{seed}.ptx", mode.name()));
            std::fs::write(&f, &p.ptx).unwrap();
            let out = Command::new("ptxas")
                .args(["-arch=sm_80", "-o", "/dev/null"])
                .arg(&f)
                .output()
                .expect("ptxas runs");
            n += 1;
            if !out.status.success() {
                let err = String::from_utf8_lossy(&out.stderr);
                // the refused line, for the message
                let line = err
                    .split("line ")
                    .nth(1)
                    .and_then(|s| s.split(';').next())
                    .and_then(|l| l.trim().parse::<usize>().ok())
                    .and_then(|l| p.ptx.lines().nth(l - 1))
                    .unwrap_or("")
                    .trim()
                    .to_string();
                refused.push(format!(
                    "{} seed {seed}: {} [{line}]",
                    mode.name(),
                    err.trim()
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        refused.is_empty(),
        "ptxas 11.8 refuses {} of {n} generated programs:\n{}",
        refused.len(),
        refused.join("\n")
    );
}
