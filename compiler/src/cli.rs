//! The `ptxc` command line, ptxas-compatible where ptxas has the flag.
//! Flags are parsed by hand because ptxas spells them `-arch=sm_70`,
//! `-arch sm_70` and `--gpu-name sm_70`, which argument libraries do not mix.

use crate::ptx::{self, SourceFile};
use crate::target::{lookup_sm, SmInfo};

pub const USAGE: &str = "\
Usage: ptxc [options] FILE.ptx

Options:
  -arch=sm_XX, --gpu-name sm_XX   target SM (default: the module's .target)
  --parse-only                    parse and validate only; print diagnostics
  -h, --help                      print this help
  --version                       print the version
";

#[derive(Debug, Default)]
pub struct Options {
    pub input: Option<String>,
    pub arch: Option<&'static SmInfo>,
    pub parse_only: bool,
}

/// Parses the command line. Errors are ptxas-style one-line messages.
pub fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let arch_value = if let Some(v) = a
            .strip_prefix("-arch=")
            .or_else(|| a.strip_prefix("--gpu-name="))
        {
            Some(v.to_string())
        } else if a == "-arch" || a == "--gpu-name" {
            Some(
                it.next()
                    .ok_or_else(|| format!("option '{a}' needs a value"))?
                    .clone(),
            )
        } else {
            None
        };
        if let Some(v) = arch_value {
            o.arch = Some(lookup_sm(&v).ok_or_else(|| format!("unknown architecture '{v}'"))?);
            continue;
        }
        match a.as_str() {
            "--parse-only" => o.parse_only = true,
            "-h" | "--help" => {
                print!("{USAGE}");
                return Ok(None);
            }
            "--version" => {
                println!(
                    "ptxc: reference PTX compiler, version {}",
                    env!("CARGO_PKG_VERSION")
                );
                return Ok(None);
            }
            s if s.starts_with('-') => return Err(format!("unknown option '{s}'")),
            s => {
                if o.input.replace(s.to_string()).is_some() {
                    return Err("more than one input file".into());
                }
            }
        }
    }
    Ok(Some(o))
}

/// Runs the command line; returns the exit status.
pub fn run(args: &[String]) -> Result<u8, String> {
    let Some(opts) = parse_args(args)? else {
        return Ok(0);
    };
    let path = opts.input.ok_or("no input file")?;
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let (_module, diags) = ptx::parse_and_validate_for(&text, opts.arch);
    let src = SourceFile::new(&path, &text);
    eprint!("{}", ptx::diag::render_all(&diags, &src));
    if diags.iter().any(ptx::Diagnostic::is_error) {
        return Ok(1);
    }
    if !opts.parse_only {
        return Err("code generation is not implemented yet (issue 5); use --parse-only".into());
    }
    Ok(0)
}
