//! The simulator's scoreboard check (`oracle::sim::hazard`): vendor
//! listings with one wait removed or one stall shortened must end in
//! [`Outcome::Hazard`] naming the instruction, the register and the
//! producer; functions without control codes are not checked.

use oracle::commands::sim::default_banks_path;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{HazardKind, Outcome, RunLimits};
use oracle::sim::SimInputs;
use ptxc::ir::regs::{defs, uses};
use ptxc::ir::sass_text::parse_file;
use ptxc::ir::{from_sass, Function};
use ptxc::pipe::latency::{latency, Lat};
use std::path::{Path, PathBuf};

fn dir(k: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/kernels")
        .join(k)
}

fn vendor(k: &str, arch: &str) -> (Function, LaunchSpec, SimInputs) {
    let p = dir(k).join(format!("{k}.{arch}.sass"));
    let text = std::fs::read_to_string(&p).unwrap();
    let file = parse_file(&text).unwrap();
    let f = from_sass(&file.functions[0], ptxc::targets::lookup_sm(arch)).unwrap();
    let spec = LaunchSpec::from_file(dir(k).join(format!("{k}.launch.json"))).unwrap();
    let inputs = SimInputs::from_banks_file(&default_banks_path(&p).unwrap()).unwrap();
    (f, spec, inputs)
}

fn run(f: &Function, arch: &str, spec: &LaunchSpec, inputs: &SimInputs) -> Outcome {
    let sm = ptxc::targets::lookup_sm(arch).unwrap();
    oracle::sim::run(f, sm, spec, inputs, &RunLimits::default())
        .unwrap()
        .outcome
}

/// The first (block, index) whose wait covers registers it reads from
/// earlier instructions of its block that set a waited scoreboard, with
/// those producers (their text) and the registers read from each.
fn a_needed_wait(f: &Function) -> (usize, usize, Vec<(String, Vec<String>)>) {
    for (b, blk) in f.blocks.iter().enumerate() {
        for (k, i) in blk.insts.iter().enumerate() {
            let c = i.control().unwrap();
            if c.wait == 0 {
                continue;
            }
            let used = uses(i);
            let mut producers = Vec::new();
            for p in 0..k {
                let pc = blk.insts[p].control().unwrap();
                if !pc.write_sb.is_some_and(|s| c.waits_on(s)) {
                    continue;
                }
                let regs: Vec<String> = defs(&blk.insts[p])
                    .into_iter()
                    .filter(|u| used.contains(u))
                    .map(|u| u.to_string())
                    .collect();
                if !regs.is_empty() {
                    producers.push((oracle::sim::program::inst_text(&blk.insts[p]), regs));
                }
            }
            if !producers.is_empty() {
                return (b, k, producers);
            }
        }
    }
    panic!("no wait covering a read");
}

#[test]
fn a_removed_wait_is_a_hazard_naming_consumer_register_and_producer() {
    for (k, arch) in [
        ("saxpy_div", "sm_70"),
        ("saxpy_div", "sm_80"),
        ("saxpy_div", "sm_90"),
        ("matmul_tiled", "sm_86"),
        ("sort_scan", "sm_75"),
    ] {
        let (mut f, spec, inputs) = vendor(k, arch);
        assert_eq!(
            run(&f, arch, &spec, &inputs),
            Outcome::Completed,
            "{k}.{arch}"
        );
        let (b, i, producers) = a_needed_wait(&f);
        let consumer = oracle::sim::program::inst_text(&f.blocks[b].insts[i]);
        let mut c = f.blocks[b].insts[i].control().unwrap();
        c.wait = 0;
        f.blocks[b].insts[i].set_control(c);
        match run(&f, arch, &spec, &inputs) {
            Outcome::Hazard { hazard, at } => {
                assert_eq!(hazard.kind, HazardKind::ReadBeforeWait, "{k}.{arch}");
                assert!(
                    producers
                        .iter()
                        .any(|(p, regs)| hazard.producer.ends_with(p.as_str())
                            && regs.contains(&hazard.register)),
                    "{k}.{arch}: {hazard:?} not one of {producers:?}"
                );
                assert!(hazard.scoreboard.is_some());
                assert!(at.instruction.ends_with(&consumer), "{k}.{arch}: {at:?}");
            }
            o => panic!("{k}.{arch}: {consumer}: expected a hazard, got {o:?}"),
        }
    }
}

#[test]
fn a_shortened_stall_is_a_read_too_early() {
    let arch = "sm_80";
    let (mut f, spec, inputs) = vendor("saxpy_div", arch);
    let sm = ptxc::targets::lookup_sm(arch).unwrap();
    // An instruction whose fixed-latency result the next one reads, and
    // which is executed (in the first block).
    let blk = &f.blocks[0];
    let k = (0..blk.insts.len() - 1)
        .find(|&k| {
            matches!(latency(&blk.insts[k], sm), Lat::Fixed(4))
                && defs(&blk.insts[k])
                    .iter()
                    .any(|u| uses(&blk.insts[k + 1]).contains(u))
                && blk.insts[k].control().unwrap().stall >= 2
        })
        .expect("a producer read by the next instruction");
    let producer = oracle::sim::program::inst_text(&blk.insts[k]);
    let mut c = f.blocks[0].insts[k].control().unwrap();
    c.stall = 1;
    f.blocks[0].insts[k].set_control(c);
    match run(&f, arch, &spec, &inputs) {
        Outcome::Hazard { hazard, .. } => {
            assert_eq!(
                hazard.kind,
                HazardKind::ReadTooEarly {
                    needed: 4,
                    elapsed: 1
                }
            );
            assert!(hazard.producer.ends_with(&producer), "{hazard:?}");
        }
        o => panic!("expected a hazard, got {o:?}"),
    }
}

#[test]
fn only_functions_with_control_codes_are_checked() {
    // The lowered IR has no control codes: not checked, it completes.
    let dirk = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let case = oracle::phase_check::corpus_cases(&dirk, &["sm_80"])
        .unwrap()
        .into_iter()
        .find(|c| c.name == "saxpy_div.ptx sm_80")
        .unwrap();
    let f = &case.kernel.function;
    assert!(f.insts().all(|i| i.control().is_none()));
    let inputs = SimInputs::from_lowered(&case.kernel);
    assert_eq!(run(f, "sm_80", &case.spec, &inputs), Outcome::Completed);
    // One instruction with codes makes the others' absence a hazard.
    let mut g = f.clone();
    g.blocks[0].insts[0].set_control(Default::default());
    match run(&g, "sm_80", &case.spec, &inputs) {
        Outcome::Hazard { hazard, .. } => assert_eq!(hazard.kind, HazardKind::MissingControl),
        o => panic!("expected a hazard, got {o:?}"),
    }
}
