//! `--emit-cvise-script`: an interestingness test for C-Vise (or C-Reduce)
//! that applies the same predicate as `ptxdiff reduce`, through `ptxdiff
//! interesting`, to the PTX file in the directory C-Vise runs it in. The
//! launch spec is copied beside the script (C-Vise only rewrites the PTX).
//!
//! ```text
//! ptxdiff reduce FINDING --emit-cvise-script interesting.sh
//! cp FINDING/program.ptx . && cvise --not-c interesting.sh program.ptx
//! ```

use std::path::Path;

use super::predicate::{Predicate, Target};
use crate::launch::LaunchSpec;

/// `s` as one single-quoted shell word.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The script text. `exe` runs `ptxdiff` (or a program that accepts the
/// same `interesting` arguments); `launch` is the spec's absolute path;
/// `ptx_name` is the file name C-Vise reduces.
pub fn script(exe: &[String], launch: &Path, ptx_name: &str, target: &Target) -> String {
    let mut words: Vec<String> = exe.iter().map(|w| shell_quote(w)).collect();
    words.push("interesting".into());
    for (flag, val) in [
        ("--ptx", ptx_name.to_string()),
        ("--launch", launch.display().to_string()),
        ("--config", target.config.label()),
    ] {
        words.push(flag.into());
        words.push(shell_quote(&val));
    }
    match &target.predicate {
        Predicate::SameSignature(s) => {
            words.push("--predicate same-signature --signature".into());
            words.push(shell_quote(&s.slug()));
        }
        Predicate::Cmd(c) => {
            words.push("--cmd".into());
            words.push(shell_quote(&c.display().to_string()));
        }
        p => words.push(format!("--predicate {}", p.name())),
    }
    words.push(format!("--fuel {}", target.limits.fuel));
    format!(
        "#!/bin/sh\n\
         # Interestingness test written by `ptxdiff reduce --emit-cvise-script`:\n\
         # exit 0 when {ptx_name} (in the current directory) is a defined program\n\
         # (the PTX interpreter runs it UB-free within fuel) for which the\n\
         # predicate '{}' holds under '{}'.\n\
         # Run: cvise --not-c THIS_SCRIPT {ptx_name}\n\
         exec {} >/dev/null\n",
        target.predicate.name(),
        target.config.label(),
        words.join(" ")
    )
}

/// Writes the script (executable) and the launch spec beside it as
/// `SCRIPT.launch.json`.
pub fn write(
    path: &Path,
    exe: &[String],
    spec: &LaunchSpec,
    ptx_name: &str,
    target: &Target,
) -> std::io::Result<()> {
    let launch = path.with_extension("launch.json");
    let spec = LaunchSpec {
        file: None,
        ptx: None,
        ..spec.clone()
    };
    std::fs::write(&launch, spec.to_json_string())?;
    let launch = std::fs::canonicalize(&launch)?;
    std::fs::write(path, script(exe, &launch, ptx_name, target))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_survives_quotes() {
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
