//! Round-trip tests of the SASS text layer over the vendor corpus
//! (`corpus/kernels/*/*.sm_*.sass`, printed by cuobjdump from ptxas 11.8).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ptxc::ir::sass_text::{parse_file, parse_inst, print_file, print_function, SassOperand};
use quickcheck::{QuickCheck, TestResult};

const ARCHS: [&str; 6] = ["70", "75", "80", "86", "89", "90"];

fn corpus_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).expect("corpus/kernels") {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for arch in ARCHS {
            let stem = dir.file_name().unwrap().to_str().unwrap();
            let p = dir.join(format!("{stem}.sm_{arch}.sass"));
            if p.exists() {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn corpus() -> &'static [(PathBuf, String)] {
    static C: OnceLock<Vec<(PathBuf, String)>> = OnceLock::new();
    C.get_or_init(|| {
        corpus_files()
            .into_iter()
            .map(|p| {
                let t = std::fs::read_to_string(&p).unwrap();
                (p, t)
            })
            .collect()
    })
}

fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The instruction lines of a file: (line text, address, instruction text
/// between the `/*addr*/` comment and the `;`).
fn inst_lines(text: &str) -> Vec<(&str, u32, &str)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if !t.starts_with("/*") || t.starts_with("/* ") {
            continue;
        }
        let close = t.find("*/").unwrap();
        let addr = u32::from_str_radix(&t[2..close], 16).unwrap();
        let rest = &t[close + 2..];
        let semi = rest.find(';').unwrap();
        out.push((line, addr, &rest[..semi]));
    }
    out
}

#[test]
fn corpus_instructions_print_back_exactly() {
    let files = corpus();
    assert_eq!(files.len(), 96, "expected 96 corpus SASS files");
    let (mut n, mut bad) = (0usize, Vec::new());
    for (path, text) in files {
        for (_, _, body) in inst_lines(text) {
            n += 1;
            let want = normalize(&format!("{body} ;"));
            match parse_inst(body) {
                Ok(inst) => {
                    let got = inst.to_string();
                    if normalize(&got) != want {
                        bad.push(format!("{}: `{want}` printed as `{got}`", path.display()));
                    }
                    // The printer's spelling is exact except cuobjdump's
                    // doubled space after `+INF`/`-QNAN` before `;`.
                    assert_eq!(parse_inst(&got).as_ref(), Ok(&inst));
                }
                Err(e) => bad.push(format!("{}: `{want}`: {e}", path.display())),
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {n} failed:\n{}",
        bad.len(),
        bad[..bad.len().min(40)].join("\n")
    );
    assert_eq!(n, 15385);
    eprintln!("round-tripped {n} instructions");
}

#[test]
fn corpus_functions_round_trip() {
    let (mut nf, mut ni, mut nu) = (0, 0, 0);
    for (path, text) in corpus() {
        let file = parse_file(text).unwrap_or_else(|e| panic!("{}:{e}", path.display()));
        let name = path.file_name().unwrap().to_str().unwrap();
        let arch = name.rsplit('.').nth(1).unwrap();
        assert_eq!(file.arch.as_deref(), Some(arch), "{name}");

        // Function names and addresses match the file.
        let names: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("Function : "))
            .collect();
        let got: Vec<&str> = file.functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(got, names, "{name}");
        let addrs: Vec<u32> = inst_lines(text).iter().map(|l| l.1).collect();
        let got: Vec<u32> = file
            .functions
            .iter()
            .flat_map(|f| f.insts.iter().map(|i| i.addr))
            .collect();
        assert_eq!(got, addrs, "{name}");
        for f in &file.functions {
            assert!(f
                .header_flags
                .as_deref()
                .is_some_and(|h| h.contains(&format!("SM{}", &arch[3..]))));
            // Decoded and undecoded slots together cover 0, 0x10, 0x20, ...
            let mut slots: Vec<u32> = f.insts.iter().map(|i| i.addr).collect();
            slots.extend(f.undecoded.iter().map(|u| u.addr));
            slots.sort_unstable();
            for (k, a) in slots.iter().enumerate() {
                assert_eq!(*a as usize, k * 0x10, "{name}: {}", f.name);
            }
            assert!(f.insts.iter().all(|i| i.encoding.is_some()), "{name}");
            // The encoding pairs in the file are exactly ours.
            let words = text.matches("/* 0x").count();
            assert_eq!(words, 2 * slots.len(), "{name}");
            nu += f.undecoded.len();
            // parse(print(f)) == f
            let printed = print_function(f);
            let back = parse_file(&printed).unwrap_or_else(|e| panic!("{name}: {e}\n{printed}"));
            assert_eq!(back.functions, vec![f.clone()], "{name}");
            nf += 1;
            ni += f.insts.len();
        }
        assert_eq!(parse_file(&print_file(&file)).as_ref(), Ok(&file), "{name}");
    }
    assert_eq!((nf, ni), (96, 15385));
    eprintln!(
        "round-tripped {nf} functions, {ni} instructions, {nu} undecoded slots, {} files",
        corpus().len()
    );
}

fn kind(op: &SassOperand) -> &'static str {
    match op {
        SassOperand::Reg(r) if r.abs => "reg |abs|",
        SassOperand::Reg(r) if r.neg => "reg -neg",
        SassOperand::Reg(r) if r.not => "reg ~not",
        SassOperand::Reg(r) if r.sel.is_some() => "reg .sel",
        SassOperand::Reg(r) if r.reuse => "reg .reuse",
        SassOperand::Reg(_) => "reg",
        SassOperand::Pred { not: true, .. } => "pred !not",
        SassOperand::Pred { .. } => "pred",
        SassOperand::Barrier(_) => "barrier",
        SassOperand::Scoreboard(_) => "scoreboard",
        SassOperand::Special(_) => "special",
        SassOperand::Imm(_) => "imm int",
        SassOperand::FloatImm(_) => "imm float",
        SassOperand::Const(c) if c.reg.is_some() => "const [reg]",
        SassOperand::Const(_) => "const",
        SassOperand::Mem(m) if m.desc.is_some() => "mem desc",
        SassOperand::Mem(m) if m.index.is_some() => "mem base+ureg",
        SassOperand::Mem(_) => "mem",
        SassOperand::RegRel { .. } => "reg rel-offset",
        SassOperand::TexShape(_) => "tex shape",
        SassOperand::Label(_) => "label",
    }
}

/// Prints the operand census (run with `--nocapture`) and checks every
/// operand kind the corpus is known to hold is present.
#[test]
fn operand_census() {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, text) in corpus() {
        for f in parse_file(text).unwrap().functions {
            for i in &f.insts {
                for op in &i.operands {
                    *counts.entry(kind(op)).or_default() += 1;
                }
            }
        }
    }
    for (k, v) in &counts {
        eprintln!("{v:>7} {k}");
    }
    for k in [
        "reg",
        "pred",
        "imm int",
        "imm float",
        "const",
        "const [reg]",
        "mem",
        "special",
        "barrier",
    ] {
        assert!(counts.contains_key(k), "{k}");
    }
}

/// Well-formed errors: line and column in range of the input.
fn error_in_range(text: &str, r: Result<impl Sized, ptxc::ir::sass_text::SassError>) -> bool {
    match r {
        Ok(_) => true,
        Err(e) => {
            let lines: Vec<&str> = text.split('\n').collect();
            e.line >= 1
                && e.line <= lines.len()
                && e.col >= 1
                && e.col <= lines[e.line - 1].len() + 1
        }
    }
}

#[test]
fn arbitrary_strings_never_panic() {
    fn prop(s: String) -> bool {
        error_in_range(&s, parse_file(&s)) && error_in_range(&s, parse_inst(&s))
    }
    QuickCheck::new()
        .tests(2000)
        .quickcheck(prop as fn(String) -> bool);
}

const ALPHABET: &[u8] = b" \t,;.[]|+-~!@*/0123456789abcdefxRPUZBSTc_HINFQ\xc3";

/// Each instruction line of the corpus with its second encoding line.
fn corpus_lines() -> &'static [String] {
    static L: OnceLock<Vec<String>> = OnceLock::new();
    L.get_or_init(|| {
        let mut out = Vec::new();
        for (_, t) in corpus() {
            let lines: Vec<&str> = t.lines().collect();
            for w in lines.windows(2) {
                let first = w[0].trim_start();
                if first.starts_with("/*") && !first.starts_with("/* ") {
                    out.push(format!("{}\n{}", w[0], w[1]));
                }
            }
        }
        out
    })
}

/// Applies up to four byte edits to a corpus line; the result must parse
/// (and then round-trip) or give an error with an in-range line:col.
fn mutation_prop(pick: usize, edits: Vec<(usize, u8, u8)>) -> TestResult {
    let lines = corpus_lines();
    let mut b: Vec<u8> = lines[pick % lines.len()].as_bytes().to_vec();
    for (at, op, ch) in edits.into_iter().take(4) {
        let at = at % (b.len() + 1);
        let ch = ALPHABET[ch as usize % ALPHABET.len()];
        match op % 3 {
            0 if at < b.len() => {
                b.remove(at);
            }
            1 => b.insert(at, ch),
            _ if at < b.len() => b[at] = ch,
            _ => {}
        }
    }
    let s = String::from_utf8_lossy(&b).into_owned();
    let text = format!("Function : k\n{s}");
    let r = parse_file(&text);
    if let Ok(f) = &r {
        if parse_file(&print_file(f)).as_ref() != Ok(f) {
            return TestResult::error(format!("no round trip: {s:?}"));
        }
    }
    TestResult::from_bool(error_in_range(&text, r))
}

#[test]
fn mutated_corpus_lines_error_cleanly() {
    QuickCheck::new()
        .tests(5000)
        .quickcheck(mutation_prop as fn(usize, Vec<(usize, u8, u8)>) -> TestResult);
}

/// The printed listing equals the vendor file up to whitespace (cuobjdump
/// writes `NOP;` and the final `BRA` without the space before `;`).
#[test]
fn printed_listing_matches_vendor_file() {
    let norm = |s: &str| normalize(s).replace(" ;", ";");
    for (path, text) in corpus() {
        let file = parse_file(text).unwrap();
        assert_eq!(norm(&print_file(&file)), norm(text), "{}", path.display());
    }
}
