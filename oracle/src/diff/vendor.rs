//! The `vendor` configuration: NVIDIA's ptxas compiles the program, its
//! cuobjdump listing runs in the simulator, so the vendor, ptxc and the
//! oracle are compared side by side. Only when `ptxas` and `cuobjdump` are
//! on the PATH ([`available`]); the matrices add vendor configurations
//! only then.
//!
//! A listing that reads constant banks 2 or 3 (module `.const` data,
//! relocated globals) needs the banks extracted from the cubin, and one of
//! a module with `.global` variables their addresses, which the loader
//! patches into the code (`.rel.text`, sim/reloc.rs; cuobjdump's `-sass`
//! shows `0x0`): neither is extracted here, so such a program is
//! [`VerdictKind::Unsupported`] for the vendor rather than a false fault.
//! So is a listing that reads the constant window (`cvta.const` of a
//! `.const` variable: `c[0x0][0x50]`, sm_90 `c[0x0][0xd0]`), which points
//! into bank 3.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use super::matrix::Config;
use super::run::{listing_function, simulate, OracleRun};
use super::verdict::{Verdict, VerdictKind};
use super::Program;
use crate::ptx_interp::RunLimits;
use crate::sim::SimInputs;
use ptxc::targets::SmInfo;

/// Whether `ptxas` and `cuobjdump` run (asked once per process).
pub fn available() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        ["ptxas", "cuobjdump"].iter().all(|t| {
            Command::new(t)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
    })
}

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch() -> std::io::Result<Scratch> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let d = std::env::temp_dir().join(format!(
        "ptxdiff-vendor-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&d)?;
    Ok(Scratch(d))
}

/// Compiles with ptxas (`-arch`, `-O`) and returns cuobjdump's listing.
pub fn compile(p: &Program, cfg: &Config) -> Result<String, String> {
    let dir = scratch().map_err(|e| format!("scratch directory: {e}"))?;
    let ptx = dir.0.join("program.ptx");
    let cubin = dir.0.join("program.cubin");
    std::fs::write(&ptx, &p.ptx).map_err(|e| format!("{}: {e}", ptx.display()))?;
    let mut cmd = Command::new("ptxas");
    cmd.arg(format!("-arch={}", cfg.arch.name))
        .arg(format!("-O{}", cfg.opt_level))
        .arg(&ptx)
        .arg("-o")
        .arg(&cubin);
    if let Some(n) = cfg.maxrregcount {
        cmd.arg(format!("--maxrregcount={n}"));
    }
    let o = cmd.output().map_err(|e| format!("ptxas: {e}"))?;
    if !o.status.success() {
        let err = String::from_utf8_lossy(&o.stderr);
        return Err(format!("ptxas: {}", err.lines().next().unwrap_or("failed")));
    }
    let o = Command::new("cuobjdump")
        .arg("-sass")
        .arg(&cubin)
        .output()
        .map_err(|e| format!("cuobjdump: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "cuobjdump: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    String::from_utf8(o.stdout).map_err(|_| "cuobjdump printed non-UTF-8 text".into())
}

/// The vendor configuration's verdict.
pub fn run_vendor(p: &Program, oracle: &OracleRun, cfg: &Config, limits: &RunLimits) -> Verdict {
    match compile(p, cfg) {
        Ok(sass) => judge_listing(p, oracle, cfg.arch, &sass, limits),
        Err(e) => Verdict::new(VerdictKind::CompileError, e),
    }
}

/// A vendor listing (cuobjdump text, compiled now or committed beside a
/// regression) run in the simulator and judged against the oracle.
pub fn judge_listing(
    p: &Program,
    oracle: &OracleRun,
    arch: &'static SmInfo,
    sass: &str,
    limits: &RunLimits,
) -> Verdict {
    if sass.contains("c[0x2]") || sass.contains("c[0x3]") {
        return Verdict::new(
            VerdictKind::Unsupported,
            "the vendor listing reads constant bank 2 or 3, which is not extracted from the cubin",
        );
    }
    // `cvta.const`: the generic address of bank 3, which the run places
    // only when it has the bank (sim/run.rs, `CbankLayout::const_window`).
    if let Some(c) = arch.cbank {
        let window = format!("c[0x0][{:#x}]", c.const_window);
        if sass.contains(&window) {
            return Verdict::new(
                VerdictKind::Unsupported,
                format!("the vendor listing reads the constant window {window} (cvta.const), whose bank 3 is not extracted from the cubin"),
            );
        }
    }
    if has_global_variables(&oracle.module) {
        return Verdict::new(
            VerdictKind::Unsupported,
            "the module has .global variables, whose relocated addresses are not extracted from the cubin",
        );
    }
    match listing_function(sass, &p.spec.kernel, arch) {
        Ok(f) => simulate(&f, arch, p, oracle, &SimInputs::default(), limits),
        Err(e) => Verdict::new(
            VerdictKind::Unsupported,
            format!("the vendor listing does not read: {e}"),
        ),
    }
}

/// Whether the module (the oracle's parse of it) declares a `.global`
/// variable.
fn has_global_variables(m: &ptxc::ptx::ast::Module) -> bool {
    m.globals()
        .any(|v| v.space == ptxc::ptx::ast::StateSpace::Global)
}
