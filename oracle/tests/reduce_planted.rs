//! The reducer's acceptance test (issue 9): five bugs planted in five
//! different phases through ptxc's test-only hook; for each, the first
//! small generated program the bug breaks is reduced under
//! `same-signature`. Every result must keep the signature, be a defined
//! program in the oracle, and the median size must be at most 8 PTX
//! instructions. The reduction must not depend on the job count.
//!
//! The hook slot is process-wide: the tests take [`LOCK`] (this file is its
//! own test binary).

mod planted;

use std::sync::Mutex;

use oracle::diff::run::run_oracle;
use oracle::reduce::{self, Judgement};
use planted::{find_victim, small_gen_config, PLANTS};

static LOCK: Mutex<()> = Mutex::new(());

fn options(jobs: usize) -> reduce::Options {
    reduce::Options {
        jobs,
        progress: false,
        ..reduce::Options::default()
    }
}

#[test]
fn planted_bugs_reduce_to_a_few_instructions_with_their_signature() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let gen = small_gen_config();
    let mut sizes = Vec::new();
    for plant in &PLANTS {
        plant.install();
        let (seed, case, mut target) = find_victim(plant, 0, 400, &gen)
            .unwrap_or_else(|| panic!("{}: no generated program fails", plant.phase));
        target.calibrate(&case).unwrap();
        let r = reduce::reduce(&case, &target, &options(2)).unwrap();
        let text = r.reduced.ptx();
        // The same bug: the reduced program still fails with the signature.
        assert_eq!(
            target.judge(&r.reduced),
            Judgement::Interesting,
            "{} (seed {seed}):\n{text}",
            plant.phase
        );
        // A defined program: the oracle runs it to completion.
        let p = r.reduced.program("reduced.ptx");
        assert!(
            run_oracle(&p, &target.limits).is_ok(),
            "{}:\n{text}",
            plant.phase
        );
        assert_eq!(r.after, r.reduced.size());
        assert!(r.after.instructions < r.before.instructions);
        eprintln!(
            "{}: seed {seed}, {} -> {} instructions, {} candidates\n{text}",
            plant.phase, r.before.instructions, r.after.instructions, r.tried
        );
        sizes.push(r.after.instructions);
    }
    ptxc::phases::test_hooks::clear();
    sizes.sort_unstable();
    let median = sizes[sizes.len() / 2];
    assert!(median <= 8, "median {median} over {sizes:?}");
}

#[test]
fn the_reduction_does_not_depend_on_the_job_count() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let plant = &PLANTS[0];
    plant.install();
    let (_, case, mut target) = find_victim(plant, 0, 400, &small_gen_config()).unwrap();
    target.calibrate(&case).unwrap();
    let one = reduce::reduce(&case, &target, &options(1)).unwrap();
    let two = reduce::reduce(&case, &target, &options(2)).unwrap();
    ptxc::phases::test_hooks::clear();
    assert_eq!(one.reduced.ptx(), two.reduced.ptx());
    assert_eq!(one.reduced.spec, two.reduced.spec);
    // Which candidates were judged depends on the batch size; which were
    // kept does not.
    assert_eq!(one.kept, two.kept);
}

#[test]
fn without_the_bug_the_original_is_not_interesting() {
    let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let plant = &PLANTS[0];
    plant.install();
    let (_, case, mut target) = find_victim(plant, 0, 400, &small_gen_config()).unwrap();
    ptxc::phases::test_hooks::clear();
    let e = target.calibrate(&case).unwrap_err();
    assert!(e.contains("not interesting under 'same-signature'"), "{e}");
}
