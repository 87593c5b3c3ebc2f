//! `ptxdiff coverage`: the menu's figures add up, real PTX shapes never
//! generated are counted and explained (front end, off the menu), bad
//! files are reported and not fatal, the command line, and the nightly
//! report's coverage section.

mod common;
use common::{kernels, ptxdiff};

use oracle::commands::coverage::{measure, CoverageArgs, Why};
use oracle::gen::GenConfig;

fn args(count: u64, real: Vec<std::path::PathBuf>) -> CoverageArgs {
    CoverageArgs {
        count,
        seed: 0,
        arch: "sm_70".into(),
        config: None,
        real,
    }
}

#[test]
fn menu_figures_add_up() {
    let c = measure(&args(150, vec![kernels()]), &GenConfig::default()).unwrap();
    assert_eq!(c.programs, 150);
    assert!(c.writable > 1000, "{}", c.writable);
    assert_eq!(c.hit + c.never.len(), c.writable);
    assert_eq!(c.writable + c.unlowered.len(), c.menu_forms);
    for k in &c.never {
        assert!(
            !c.generated.contains_key(k),
            "{k} generated and listed as never"
        );
    }
    assert!(c.hit > 0 && c.hit <= c.generated.len());
    let r = c.real.as_ref().unwrap();
    let on_disk = walk(&kernels());
    assert_eq!(r.files + r.bad_files.len(), on_disk, "{:?}", r.bad_files);
    assert!(r.files > 0);
    assert!(r.missing.len() <= r.shapes);
    assert!(r.missing_instructions() <= r.instructions);
    for w in r.missing.windows(2) {
        assert!(w[0].count >= w[1].count, "not most frequent first");
    }
    for m in &r.missing {
        assert!(
            !c.generated.contains_key(&m.shape),
            "{} was generated",
            m.shape
        );
    }
    let text = c.render();
    assert!(text.starts_with("coverage: 150 programs, "), "{text}");
    assert!(
        text.contains(&format!(
            "menu: {}/{} writable forms generated",
            c.hit, c.writable
        )),
        "{text}"
    );
}

fn walk(d: &std::path::Path) -> usize {
    std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            if p.is_dir() {
                walk(&p)
            } else {
                usize::from(p.extension().is_some_and(|x| x == "ptx"))
            }
        })
        .sum()
}

#[test]
fn real_shapes_are_counted_and_explained() {
    let dir = tempfile::tempdir().unwrap();
    let head = ".version 7.0\n.target sm_70\n.address_size 64\n";
    std::fs::write(
        dir.path().join("a.ptx"),
        format!(
            "{head}.visible .entry k()\n{{\n\t.reg .f64 %fd<4>;\n\
             \tmov.f64 %fd1, 0d3FF0000000000000;\n\
             \tdiv.full.f64 %fd2, %fd1, %fd1;\n\
             \tbrkpt;\n\tbrkpt;\n\tret;\n}}\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.path().join("bad.ptx"), "this is not PTX {").unwrap();
    std::fs::write(dir.path().join("notes.txt"), "ignored").unwrap();
    let c = measure(&args(5, vec![dir.path().into()]), &GenConfig::default()).unwrap();
    let r = c.real.unwrap();
    assert_eq!(r.files, 1);
    assert_eq!(r.bad_files.len(), 1);
    assert!(r.bad_files[0].0.ends_with("bad.ptx"));
    assert_eq!(r.instructions, 5);
    let brkpt = r.missing.iter().find(|m| m.shape == "brkpt").unwrap();
    assert_eq!(brkpt.count, 2);
    assert!(matches!(brkpt.why, Why::OffMenu(_)), "{:?}", brkpt.why);
    // PTX ISA 9.7.3.8: div.full is .f32 only.
    let div = r
        .missing
        .iter()
        .find(|m| m.shape == "div.full.f64")
        .unwrap();
    assert!(matches!(div.why, Why::FrontEnd(_)), "{:?}", div.why);
    assert_eq!(r.missing[0].shape, "brkpt", "most frequent first");
}

#[test]
fn the_command_prints_its_figures_and_refuses_bad_options() {
    let (code, out) = ptxdiff(&["coverage", "--count", "20"]);
    assert_eq!(code, 0, "{out}");
    let mut lines = out.lines();
    assert!(
        lines.next().unwrap().starts_with("coverage: 20 programs, "),
        "{out}"
    );
    assert!(lines.next().unwrap().starts_with("menu: "), "{out}");
    let (code, out) = ptxdiff(&["coverage", "--arch", "sm_1"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("unknown target 'sm_1'"), "{out}");
}

#[test]
fn the_nightly_report_has_a_coverage_section() {
    let dir = tempfile::tempdir().unwrap();
    let a = oracle::commands::nightly::NightlyArgs {
        count: Some(2),
        jobs: 1,
        seed: Some(7),
        date: Some("2026-11-29".into()),
        out: dir.path().to_path_buf(),
        matrix: "smoke".into(),
        vendor: false,
        known: dir.path().join("known.json"),
        reduce_seconds: 5.0,
        ..Default::default()
    };
    let out = oracle::commands::nightly::run(&a, &mut |_| {}).unwrap();
    let md = std::fs::read_to_string(out.dir.join("summary.md")).unwrap();
    assert!(md.contains("## Generator coverage"), "{md}");
    assert!(md.contains("coverage: 2 programs, "), "{md}");
    let section = std::fs::read_to_string(out.dir.join("coverage.md")).unwrap();
    assert!(md.ends_with(&section));
}
