//! `ptxdiff promote FINDING [--name NAME] [--regressions DIR]`: a finding
//! becomes a regression. FINDING is a findings directory (its `reduced/`
//! program is taken when there is one) or a reducer's output directory
//! (`reduce.json` beside the program). Written to `DIR/NAME/` (default
//! `corpus/regressions/`): `NAME.ptx` (a header comment says where it came
//! from), `NAME.launch.json`, and `NAME.verdict.json`, the expected verdict
//! while the bug is open (the configuration and the signature it fails
//! with); the signature goes into `DIR/known.json` so nightly runs count
//! it as known. `oracle/tests/diff_regressions.rs` runs every directory: an
//! open bug must still fail with its signature (and every other
//! configuration pass or fail the same way); once fixed, delete
//! `NAME.verdict.json` and the known.json entry, and every configuration
//! must pass.

use std::fs;
use std::path::{Path, PathBuf};

use crate::diff::findings::{self, Finding};
use crate::diff::json::Obj;
use crate::diff::known::Known;
use crate::diff::{Config, Program};
use crate::launch::LaunchSpec;
use crate::ptx_interp::RunLimits;
use crate::reduce::finding::{failing_signature, read_summary};

#[derive(Clone, Debug)]
pub struct PromoteArgs {
    pub finding: PathBuf,
    pub name: Option<String>,
    pub regressions: PathBuf,
}

pub fn parse_args(args: &[String]) -> Result<PromoteArgs, String> {
    let mut finding = None;
    let mut name = None;
    let mut regressions = PathBuf::from("corpus/regressions");
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut val = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--name" => name = Some(val()?),
            "--regressions" => regressions = val()?.into(),
            s if !s.starts_with('-') && finding.is_none() => finding = Some(PathBuf::from(s)),
            s => return Err(format!("unknown option '{s}'")),
        }
    }
    let finding = finding.ok_or("give the finding directory")?;
    if let Some(n) = &name {
        if n.is_empty() || n == "open" || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(format!(
                "--name: '{n}' is not a directory name (letters, digits, _)"
            ));
        }
    }
    Ok(PromoteArgs {
        finding,
        name,
        regressions,
    })
}

/// The program, its configuration and signature slug, and what it came
/// from.
struct Source {
    program: Program,
    config: Config,
    signature: String,
    from: String,
}

fn source(dir: &Path) -> Result<Source, String> {
    let reduced = if dir.join("reduce.json").exists() {
        Some(dir.to_path_buf())
    } else if dir.join("reduced").join("reduce.json").exists() {
        Some(dir.join("reduced"))
    } else {
        None
    };
    if let Some(r) = reduced {
        let (label, sig) = read_summary(&r.join("reduce.json"))?;
        let config = Config::parse(&label)?;
        let program = Program::from_files(&r.join(findings::LAUNCH), None)?;
        let signature = match sig {
            Some(s) => s,
            None => failing_signature(&program, &config, &RunLimits::default())?.slug(),
        };
        return Ok(Source {
            program,
            config,
            signature,
            from: format!("{} (reduced)", dir.display()),
        });
    }
    let f = Finding::read(dir)?;
    let signature = match &f.signature {
        Some(s) => s.slug(),
        None => failing_signature(&f.program, &f.config, &RunLimits::default())?.slug(),
    };
    Ok(Source {
        program: f.program,
        config: f.config,
        signature,
        from: dir.display().to_string(),
    })
}

/// Reads `NAME.verdict.json`: (configuration label, signature slug).
pub fn read_verdict(path: &Path) -> Result<(String, String), String> {
    let f = crate::diff::json::read_string_fields(path, &["config", "signature"])?;
    match (&f[0], &f[1]) {
        (Some(c), Some(s)) => Ok((c.clone(), s.clone())),
        _ => Err(format!(
            "{}: needs string fields 'config' and 'signature'",
            path.display()
        )),
    }
}

/// A directory name from a signature: `mismatch--AllocateRegisters--sm_80+--IMAD`
/// -> `allocateregisters_imad_mismatch`.
fn default_name(sig: &str) -> String {
    let parts: Vec<&str> = sig.split("--").collect();
    let pick = |k: usize| parts.get(k).copied().unwrap_or("");
    let raw = format!("{}_{}_{}", pick(1), pick(3), pick(0));
    raw.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect::<String>()
        .split('_')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}

pub fn run(a: &PromoteArgs) -> Result<Vec<String>, String> {
    let src = source(&a.finding)?;
    let base = a
        .name
        .clone()
        .unwrap_or_else(|| default_name(&src.signature));
    let mut name = base.clone();
    if a.name.is_none() {
        let mut k = 2;
        while a.regressions.join(&name).exists() {
            name = format!("{base}_{k}");
            k += 1;
        }
    }
    let dest = a.regressions.join(&name);
    if dest.exists() {
        return Err(format!("{} exists; choose another --name", dest.display()));
    }
    let known_path = a.regressions.join("known.json");
    let mut known = Known::read(&known_path)?;
    if let Some(other) = known.0.get(&src.signature) {
        return Err(format!(
            "signature {} is already known as regression '{other}'",
            src.signature
        ));
    }
    let header = format!(
        "// {name}: promoted by `ptxdiff promote` from {}.\n// Expected verdict while open: '{}' fails with {}.\n",
        src.from,
        src.config.label(),
        src.signature
    );
    let spec = LaunchSpec {
        file: None,
        ptx: Some(format!("{name}.ptx")),
        ..src.program.spec.clone()
    };
    let verdict = Obj::new()
        .str("config", &src.config.label())
        .str("signature", &src.signature)
        .render(2)
        + "\n";
    let tmp = a
        .regressions
        .join(format!(".{name}.tmp-{}", std::process::id()));
    let err = |e: std::io::Error| format!("{}: {e}", tmp.display());
    fs::create_dir_all(&tmp).map_err(err)?;
    fs::write(tmp.join(format!("{name}.ptx")), header + &src.program.ptx).map_err(err)?;
    fs::write(
        tmp.join(format!("{name}.launch.json")),
        spec.to_json_string(),
    )
    .map_err(err)?;
    fs::write(tmp.join(format!("{name}.verdict.json")), verdict).map_err(err)?;
    fs::rename(&tmp, &dest).map_err(|e| format!("{}: {e}", dest.display()))?;
    known.0.insert(src.signature.clone(), name.clone());
    known.write(&known_path)?;
    Ok(vec![format!(
        "promoted {} to {} (expected: '{}' fails with {}); {} updated",
        src.from,
        dest.display(),
        src.config.label(),
        src.signature,
        known_path.display()
    )])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_signature() {
        assert_eq!(
            default_name("mismatch--AllocateRegisters--sm_80+--IMAD"),
            "allocateregisters_imad_mismatch"
        );
        assert_eq!(default_name("ice--lower--sm_70+---"), "lower_ice");
    }
}
