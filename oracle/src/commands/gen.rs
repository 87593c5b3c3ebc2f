//! `ptxdiff gen [--seed S] [--count N] [--gen-config F] [--out DIR]
//! [--stats]`: prints generated programs (module text, then the launch
//! spec), writes them as `gen_S.ptx` + `gen_S.launch.json` into `--out`
//! (the spec names its module, so `ptxdiff interp DIR/gen_S.launch.json`
//! reruns it), or with `--stats` runs seeds S..S+N through the PTX
//! interpreter and ptxc's lowering and prints the figures (gen/stats.rs).

use crate::gen::stats::Stats;
use crate::gen::{generate, GenConfig};
use std::path::PathBuf;

/// Parsed command line.
#[derive(Clone, Debug, PartialEq)]
pub struct GenArgs {
    pub seed: u64,
    pub count: u64,
    pub config: Option<PathBuf>,
    pub out: Option<PathBuf>,
    pub stats: bool,
}

pub fn parse_args(args: &[String]) -> Result<GenArgs, String> {
    let mut g = GenArgs {
        seed: 0,
        count: 1,
        config: None,
        out: None,
        stats: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match a.as_str() {
            "--seed" => {
                let v = val("--seed")?;
                g.seed = v
                    .parse()
                    .map_err(|_| format!("--seed: '{v}' is not a u64"))?;
            }
            "--count" => {
                let v = val("--count")?;
                g.count = v
                    .parse()
                    .map_err(|_| format!("--count: '{v}' is not a u64"))?;
            }
            "--gen-config" => g.config = Some(val("--gen-config")?.into()),
            "--out" => g.out = Some(val("--out")?.into()),
            "--stats" => g.stats = true,
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(g)
}

/// Runs the command; `print` receives the output lines.
pub fn gen(args: &GenArgs, print: &mut dyn FnMut(&str)) -> Result<(), String> {
    let cfg = match &args.config {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read '{}': {e}", p.display()))?;
            GenConfig::from_json(&text).map_err(|e| format!("{}:{e}", p.display()))?
        }
        None => GenConfig::default(),
    };
    if args.stats {
        let s = Stats::over(args.seed, args.count, &cfg);
        print(&s.render());
        return Ok(());
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
    }
    for seed in args.seed..args.seed.saturating_add(args.count) {
        let p = generate(seed, &cfg);
        let name = format!("gen_{seed}");
        match &args.out {
            Some(dir) => {
                let mut spec = p.spec.clone();
                spec.ptx = Some(format!("{name}.ptx"));
                let ptx_path = dir.join(format!("{name}.ptx"));
                let spec_path = dir.join(format!("{name}.launch.json"));
                std::fs::write(&ptx_path, &p.ptx)
                    .map_err(|e| format!("cannot write '{}': {e}", ptx_path.display()))?;
                std::fs::write(&spec_path, spec.to_json_string())
                    .map_err(|e| format!("cannot write '{}': {e}", spec_path.display()))?;
                print(&format!(
                    "{}: {}",
                    spec_path.display(),
                    p.features.join(" ")
                ));
            }
            None => {
                print(&format!("// {name}: features {}", p.features.join(" ")));
                print(&p.ptx);
                print(&p.spec.to_json_string());
            }
        }
    }
    Ok(())
}
