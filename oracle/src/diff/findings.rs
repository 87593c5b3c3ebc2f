//! The findings directory. A failing configuration is written to disk
//! before anything else is done with it, atomically, and never overwrites
//! an earlier finding:
//!
//! 1. [`FindingsDir::write_pending`]: `DIR/pending/<id>-<n>/` (the id
//!    hashes the PTX, the launch and the configuration; `<n>` makes each
//!    write its own directory) with `program.ptx`,
//!    `program.launch.json` (its `ptx` names `program.ptx`, so `ptxdiff
//!    check` and `ptxdiff diff` run it as is), `program.expected.json` (the
//!    oracle's outputs), `program.json` (name, seed, generator features),
//!    `config.json` and `verdict.json`. The files are written and synced
//!    in a temporary directory beside it, which is then renamed into place.
//! 2. [`FindingsDir::add_blame`]: `blame.json`, written to a temporary
//!    file, synced, renamed.
//! 3. [`FindingsDir::settle`]: `signature.json` likewise, then the
//!    directory is renamed to `DIR/<signature slug>/` unless a finding with
//!    that signature exists; then it is a duplicate: the first finding's
//!    `duplicates` count goes up (atomically) and the pending directory is
//!    removed. The engine settles findings in program order on one thread,
//!    so which finding is "first" does not depend on the job count.

use std::fs;
use std::hash::{Hash, Hasher};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::blame::Blame;
use super::json::{self, Obj};
use super::matrix::Config;
use super::signature::Signature;
use super::verdict::Verdict;
use super::Program;
use crate::launch::{LaunchSpec, OutputSet};

/// The files of a finding.
pub const PTX: &str = "program.ptx";
pub const LAUNCH: &str = "program.launch.json";
pub const EXPECTED: &str = "program.expected.json";
pub const META: &str = "program.json";
pub const CONFIG: &str = "config.json";
pub const VERDICT: &str = "verdict.json";
pub const BLAME: &str = "blame.json";
pub const SIGNATURE: &str = "signature.json";
pub const DUPLICATES: &str = "duplicates";
pub const PENDING: &str = "pending";

fn unique_suffix() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    fs::File::open(dir)?.sync_all()
}

fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = fs::File::create(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// Writes `path` atomically: a temporary file beside it, synced, renamed
/// over it, the directory synced.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(".{name}.tmp-{}", unique_suffix()));
    write_synced(&tmp, bytes)?;
    fs::rename(&tmp, path).inspect_err(|_| {
        let _ = fs::remove_file(&tmp);
    })?;
    sync_dir(dir)
}

/// How a pending finding settled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Settled {
    /// The first with its signature: it now lives here.
    New(PathBuf),
    /// Another finding has the signature: its duplicate count is now
    /// `count`.
    Duplicate { of: PathBuf, count: u64 },
}

/// A findings directory.
#[derive(Clone, Debug)]
pub struct FindingsDir {
    pub root: PathBuf,
}

/// The content id of a finding: program text, launch and configuration.
pub fn finding_id(p: &Program, cfg: &Config) -> String {
    let mut h = rustc_hash::FxHasher::default();
    p.ptx.hash(&mut h);
    p.spec.to_json_string().hash(&mut h);
    cfg.label().hash(&mut h);
    format!("{:016x}", h.finish())
}

impl FindingsDir {
    /// Opens (creating) `root` and `root/pending`.
    pub fn new(root: impl Into<PathBuf>) -> io::Result<FindingsDir> {
        let root = root.into();
        fs::create_dir_all(root.join(PENDING))?;
        Ok(FindingsDir { root })
    }

    /// Step 1: the program, the configuration and the verdict, on disk.
    pub fn write_pending(
        &self,
        p: &Program,
        expected: &OutputSet,
        cfg: &Config,
        verdict: &Verdict,
    ) -> io::Result<PathBuf> {
        // Each failure gets a directory of its own, even when the same
        // program and configuration fail twice in one run: a shared one could
        // be settled (renamed away) by one report while the other's thread
        // still writes its blame into it. `settle` counts the second as a
        // duplicate of the first.
        let pending = self.root.join(PENDING);
        let id = format!(
            "{}-{}-{}",
            verdict.kind.name(),
            finding_id(p, cfg),
            unique_suffix()
        );
        let dest = pending.join(&id);
        let tmp = pending.join(format!(".tmp-{id}"));
        fs::create_dir(&tmp)?;
        let spec = LaunchSpec {
            file: None,
            ptx: Some(PTX.into()),
            ..p.spec.clone()
        };
        let features: Vec<String> = p.features.iter().map(|f| format!("{f:?}")).collect();
        let meta = Obj::new()
            .str("name", &p.name)
            .raw("seed", p.seed.map_or("null".into(), |s| s.to_string()))
            .raw("features", format!("[{}]", features.join(", ")))
            .render(2)
            + "\n";
        let files: [(&str, String); 6] = [
            (PTX, p.ptx.clone()),
            (LAUNCH, spec.to_json_string()),
            (EXPECTED, expected.to_json_string()),
            (META, meta),
            (CONFIG, json::config_json(cfg)),
            (VERDICT, json::verdict_json(verdict)),
        ];
        let written = (|| {
            for (name, text) in &files {
                write_synced(&tmp.join(name), text.as_bytes())?;
            }
            sync_dir(&tmp)?;
            fs::rename(&tmp, &dest)
        })();
        if let Err(e) = written {
            let _ = fs::remove_dir_all(&tmp);
            return Err(e);
        }
        sync_dir(&pending)?;
        Ok(dest)
    }

    /// Step 2: the blame.
    pub fn add_blame(&self, finding: &Path, blame: &Blame) -> io::Result<()> {
        write_atomic(&finding.join(BLAME), json::blame_json(blame).as_bytes())
    }

    /// Step 3: under its signature, or counted as a duplicate.
    pub fn settle(&self, pending: &Path, sig: &Signature) -> io::Result<Settled> {
        let target = self.root.join(sig.slug());
        // A pending directory already gone (removed by hand, or by a run
        // that stopped part-way) still counts as a duplicate of the target.
        let here = pending.exists();
        if here && !target.exists() {
            write_atomic(
                &pending.join(SIGNATURE),
                json::signature_json(sig).as_bytes(),
            )?;
            // rename(2) onto an existing non-empty directory fails: an
            // existing finding is never replaced.
            if fs::rename(pending, &target).is_ok() {
                sync_dir(&self.root)?;
                return Ok(Settled::New(target));
            }
        }
        let count = read_duplicates(&target)? + 1;
        write_atomic(&target.join(DUPLICATES), format!("{count}\n").as_bytes())?;
        if here {
            fs::remove_dir_all(pending)?;
        }
        Ok(Settled::Duplicate { of: target, count })
    }

    /// The settled findings, in name order.
    pub fn list(&self) -> io::Result<Vec<PathBuf>> {
        let mut v: Vec<PathBuf> = fs::read_dir(&self.root)?
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .filter(|e| {
                let n = e.file_name();
                let n = n.to_string_lossy();
                n != PENDING && !n.starts_with('.')
            })
            .map(|e| e.path())
            .collect();
        v.sort();
        Ok(v)
    }
}

fn read_duplicates(dir: &Path) -> io::Result<u64> {
    match fs::read_to_string(dir.join(DUPLICATES)) {
        Ok(s) => s.trim().parse().map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: not a count", dir.join(DUPLICATES).display()),
            )
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(e),
    }
}

/// A finding read back.
#[derive(Clone, Debug)]
pub struct Finding {
    pub dir: PathBuf,
    pub program: Program,
    pub expected: OutputSet,
    pub config: Config,
    pub verdict: Verdict,
    pub blame: Option<Blame>,
    pub signature: Option<Signature>,
    pub duplicates: u64,
}

impl Finding {
    pub fn read(dir: &Path) -> Result<Finding, String> {
        let text = |name: &str| {
            fs::read_to_string(dir.join(name))
                .map_err(|e| format!("{}: {e}", dir.join(name).display()))
        };
        let optional = |name: &str| -> Result<Option<String>, String> {
            if dir.join(name).exists() {
                text(name).map(Some)
            } else {
                Ok(None)
            }
        };
        let mut program = Program::from_files(&dir.join(LAUNCH), None)?;
        program.name = dir.display().to_string();
        Ok(Finding {
            dir: dir.to_path_buf(),
            expected: OutputSet::from_json_str(&text(EXPECTED)?).map_err(|e| e.to_string())?,
            config: json::config_from_json(&text(CONFIG)?)?,
            verdict: json::verdict_from_json(&text(VERDICT)?)?,
            blame: optional(BLAME)?
                .map(|t| json::blame_from_json(&t))
                .transpose()?,
            signature: optional(SIGNATURE)?
                .map(|t| json::signature_from_json(&t))
                .transpose()?,
            duplicates: read_duplicates(dir).map_err(|e| e.to_string())?,
            program,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::verdict::VerdictKind;
    use crate::launch::BufferBits;

    fn program() -> Program {
        let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff_programs");
        Program::from_files(&d.join("cmp_sel.launch.json"), None).unwrap()
    }

    fn expected() -> OutputSet {
        OutputSet {
            buffers: vec![BufferBits {
                name: "y".into(),
                ty: crate::launch::ElemType::S32,
                bits: vec![1; 32],
            }],
        }
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn pending_blamed_settled_duplicated_and_read_back() {
        let root = tempfile::tempdir().unwrap();
        let fd = FindingsDir::new(root.path()).unwrap();
        let p = program();
        let c1 = Config::parse("ptxc sm_80 -O3 default").unwrap();
        let c2 = Config::parse("ptxc sm_86 -O3 default").unwrap();
        let v = Verdict::new(VerdictKind::Timeout, "out of fuel");
        let a = fd.write_pending(&p, &expected(), &c1, &v).unwrap();
        // The same finding again (the same program twice in one run): a
        // directory of its own, which no other report settles away.
        let again = fd.write_pending(&p, &expected(), &c1, &v).unwrap();
        assert_ne!(again, a);
        assert_eq!(names(&a), [CONFIG, EXPECTED, META, LAUNCH, PTX, VERDICT]);
        assert_eq!(names(&again), names(&a));
        assert_eq!(
            names(&root.path().join(PENDING)).len(),
            2,
            "no temporaries left"
        );
        let b = Blame {
            stage: "OriPerformLiveDeadFirst".into(),
            index: Some(ptxc::phases::table::index_of("OriPerformLiveDeadFirst")),
            departure: None,
            key_opcode: Some("BRA".into()),
            order_pair: None,
            steps: Vec::new(),
            context: None,
        };
        fd.add_blame(&a, &b).unwrap();
        let sig = Signature {
            kind: v.kind,
            stage: b.stage.clone(),
            arch_class: "sm_80+".into(),
            opcode: "BRA".into(),
        };
        let target = root.path().join(sig.slug());
        assert_eq!(fd.settle(&a, &sig).unwrap(), Settled::New(target.clone()));
        assert!(!a.exists());
        assert_eq!(
            fd.settle(&again, &sig).unwrap(),
            Settled::Duplicate {
                of: target.clone(),
                count: 1
            }
        );
        assert!(!again.exists());
        // Another configuration, same signature: counted, not written.
        let a2 = fd.write_pending(&p, &expected(), &c2, &v).unwrap();
        assert_ne!(a2, a);
        assert_eq!(
            fd.settle(&a2, &sig).unwrap(),
            Settled::Duplicate {
                of: target.clone(),
                count: 2
            }
        );
        assert!(!a2.exists());
        assert_eq!(fd.list().unwrap(), vec![target.clone()]);
        let f = Finding::read(&target).unwrap();
        assert_eq!(f.program.ptx, p.ptx);
        assert_eq!(f.program.spec.kernel, p.spec.kernel);
        assert_eq!(f.expected, expected());
        assert_eq!(f.config, c1);
        assert_eq!(f.verdict, v);
        assert_eq!(f.blame, Some(b));
        assert_eq!(f.signature, Some(sig));
        assert_eq!(f.duplicates, 2);
        // The launch in the finding runs the saved PTX as is.
        let spec = LaunchSpec::from_file(target.join(LAUNCH)).unwrap();
        assert_eq!(spec.ptx_path().unwrap(), target.join(PTX));
    }
}
