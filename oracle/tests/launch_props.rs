//! Properties of the launch module on arbitrary input: nothing panics, and
//! whatever reads as a spec writes back to an equal spec and builds memory,
//! parameters, textures and outputs without trouble.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

static CHANGED_BUT_VALID: AtomicUsize = AtomicUsize::new(0);

use oracle::launch::*;
use quickcheck::{QuickCheck, TestResult};

fn corpus_specs() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if let Some(name) = p.file_name().and_then(|n| n.to_str()) {
            let f = p.join(format!("{name}.launch.json"));
            if f.is_file() {
                out.push(std::fs::read_to_string(f).unwrap());
            }
        }
    }
    assert_eq!(out.len(), 16, "expected the 16 corpus specs");
    // plus a spec with every feature the corpus does not use
    out.push(
        r#"{"ptx": "m.ptx", "kernel": "k", "grid": [2, 2, 2], "block": [8, 4],
  "params": [{"u64": 18446744073709551615}, {"type": "f16", "bits": "0x7e00"}, {"buffer": "h", "offset": 2}, {"texture": "t"}, {"s8": -128}],
  "buffers": {"h": {"type": "f16", "len": 16, "init": {"special_mix": {"seed": 3}}},
              "i": {"type": "u8", "len": 300, "init": {"iota": {"start": 250, "step": 1}}},
              "q": {"type": "s64", "len": 4, "init": {"random": {"seed": 9, "min": -9223372036854775808, "max": 18446744073709551615}}},
              "v": {"type": "b16", "len": 2, "init": {"values": [-1, 65535]}}},
  "textures": {"t": {"type": "f32", "channels": 2, "dims": [4, 3, 2], "init": {"random": {"seed": 1, "min": 0, "max": 1}},
               "address_mode": ["wrap", "mirror", "border"], "filter": "linear", "normalized_coords": true, "border_color": [0.5, 0, 0, 1]}},
  "outputs": ["q", "h"], "dynamic_shared_bytes": 64, "compare": {"nan": "any", "ulps": 2}}"#
            .to_string(),
    );
    out
}

/// Test cases per property: the default, or `LAUNCH_FUZZ_CASES` for a
/// longer run.
fn cases(default: u64) -> u64 {
    std::env::var("LAUNCH_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs everything downstream of a successfully read spec; must not panic.
fn exercise(spec: &LaunchSpec) {
    // written and read back: equal
    let w = spec.to_json_string();
    let back = LaunchSpec::from_json_str(&w, &spec.base_dir)
        .unwrap_or_else(|e| panic!("rewritten spec rejected: {e}\n{w}"));
    assert_eq!(&back, spec);
    assert!(spec.validate().is_ok());
    let _ = (
        spec.grid(),
        spec.block(),
        spec.output_names(),
        spec.ptx_path(),
    );
    let layout = GlobalLayout::new(spec).expect("a read spec has a layout");
    // build memory only when small (a valid spec may ask for up to 4 GiB)
    let bytes: u64 = spec.buffers.iter().map(|b| b.byte_len()).sum();
    if bytes <= 1 << 24 {
        let mem = MemoryImage::new(spec).unwrap();
        let outs = mem.outputs(spec).unwrap();
        assert!(outs.check_against(spec).is_ok());
        assert!(compare(&outs, &outs, &spec.compare).is_empty());
        let text = outs.to_json_string();
        assert_eq!(OutputSet::from_json_str(&text).unwrap(), outs);
        for b in layout.buffers() {
            if b.size > 0 {
                assert_eq!(
                    mem.read(b.base, b.size).map(<[u8]>::len),
                    Some(b.size as usize)
                );
            }
            assert!(!layout.contains(b.end(), 1));
            assert!(!layout.contains(b.base.wrapping_sub(1), 1));
        }
    }
    let tex: u64 = spec
        .textures
        .iter()
        .map(|t| t.element_count() * t.ty.size() as u64)
        .sum();
    if tex <= 1 << 24 {
        for t in TextureImage::all(spec) {
            assert_eq!(
                spec.texture_by_handle(t.handle).map(|s| &s.name),
                Some(&t.spec.name)
            );
        }
    }
    // parameters against declarations of the right widths
    let decls: Vec<ParamDecl> = spec
        .params
        .iter()
        .map(|p| match p {
            ParamValue::Scalar { ty, .. } | ParamValue::Bits { ty, .. } => ParamDecl::scalar(*ty),
            _ => ParamDecl::scalar(ElemType::U64),
        })
        .collect();
    encode_params(spec, &layout, &decls, AddressSize::A64).unwrap();
    // and wrong ones: errors, not panics
    let _ = encode_params(spec, &layout, &decls, AddressSize::A32);
    let _ = encode_params(
        spec,
        &layout,
        &decls[..decls.len().saturating_sub(1)],
        AddressSize::A64,
    );
}

#[test]
fn corpus_specs_exercise() {
    for s in corpus_specs() {
        exercise(&LaunchSpec::from_json_str(&s, "").unwrap());
    }
}

#[test]
fn arbitrary_bytes_never_panic() {
    fn prop(bytes: Vec<u8>) -> bool {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(s) = LaunchSpec::from_json_str(&text, "") {
            exercise(&s);
        }
        let _ = OutputSet::from_json_str(&text);
        true
    }
    QuickCheck::new()
        .tests(cases(3000))
        .max_tests(cases(3000))
        .quickcheck(prop as fn(Vec<u8>) -> bool);
}

/// Pieces that make mutations land on interesting values.
const TOKENS: [&str; 40] = [
    "\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "-",
    "0",
    "1",
    "-1",
    "0.5",
    "1e999",
    "1e-999",
    "18446744073709551616",
    "-9223372036854775809",
    "4294967296",
    "1e20",
    "null",
    "true",
    "\"zeros\"",
    "\"x\"",
    "\"y\"",
    "\"\"",
    "\"0x\"",
    "\"0xffffffffffffffffff\"",
    "\"buffer\"",
    "\"texture\"",
    "\"type\"",
    "\"bits\"",
    "{\"iota\": {\"start\": 1, \"step\": 3}}",
    "{\"values\": []}",
    "{\"bits\": [\"0x1\"]}",
    "{\"random\": {\"seed\": 1}}",
    "{\"special_mix\": {\"seed\": 2}}",
    "\\u0000",
    "\"f16\"",
    "\"b64\"",
    "[1, 2, 3, 4]",
    "\u{e9}",
];

fn mutate(base: &str, ops: &[(u8, u16, u8)]) -> String {
    let mut t: Vec<char> = base.chars().collect();
    for &(op, pos, arg) in ops {
        let len = t.len();
        let at = if len == 0 {
            0
        } else {
            pos as usize % (len + 1)
        };
        match op % 6 {
            0 => {
                // delete a short run
                let end = (at + 1 + arg as usize % 8).min(len);
                if at < end {
                    t.drain(at..end);
                }
            }
            1 => {
                let tok = TOKENS[arg as usize % TOKENS.len()];
                t.splice(at..at, tok.chars());
            }
            2 => {
                // replace the character with a token
                if at < len {
                    let tok = TOKENS[arg as usize % TOKENS.len()];
                    t.splice(at..at + 1, tok.chars());
                }
            }
            3 => {
                // change a digit
                if let Some(i) = (at..len).chain(0..at).find(|&i| t[i].is_ascii_digit()) {
                    t[i] = char::from(b'0' + arg % 10);
                }
            }
            4 => {
                // duplicate a run
                let end = (at + 1 + arg as usize % 32).min(len);
                let run: Vec<char> = t[at.min(len)..end].to_vec();
                t.splice(at..at, run);
            }
            _ => {
                // a raw character
                t.insert(at, char::from(arg));
            }
        }
    }
    t.into_iter().collect()
}

#[test]
fn mutated_specs_never_panic() {
    fn prop(which: u8, ops: Vec<(u8, u16, u8)>) -> TestResult {
        static BASES: OnceLock<Vec<String>> = OnceLock::new();
        let bases = BASES.get_or_init(corpus_specs);
        let base = &bases[which as usize % bases.len()];
        // a few mutations at a time, so that many results are still specs
        let n = 1 + (which as usize / bases.len()) % 3;
        let text = mutate(base, &ops[..ops.len().min(n)]);
        match LaunchSpec::from_json_str(&text, "") {
            Ok(s) => {
                if s != LaunchSpec::from_json_str(base, "").unwrap() {
                    CHANGED_BUT_VALID.fetch_add(1, Ordering::Relaxed);
                }
                exercise(&s)
            }
            Err(e) => {
                // errors are located and named
                assert!(!e.to_string().is_empty());
                if e.kind == ErrorKind::Syntax {
                    assert!(e.line_col.is_some());
                }
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(cases(4000))
        .max_tests(cases(4000))
        .quickcheck(prop as fn(u8, Vec<(u8, u16, u8)>) -> TestResult);
    // the property must have reached `exercise` with specs that differ
    // from the corpus ones, not only error paths
    let changed = CHANGED_BUT_VALID.load(Ordering::Relaxed);
    assert!(changed >= 100, "only {changed} mutated specs were valid");
    eprintln!("{changed} mutated specs were valid");
}

#[test]
fn mutated_expected_files_never_panic() {
    fn prop(ops: Vec<(u8, u16, u8)>) -> bool {
        let base = "{\"buffers\": {\n  \"y\": {\"type\": \"f32\", \"bits\": [\"0x3f800000\", \"0x00000001\"]},\n  \"h\": {\"type\": \"u8\", \"bits\": [\"0xff\"]}\n}}\n";
        if let Ok(e) = OutputSet::from_json_str(&mutate(base, &ops)) {
            let w = e.to_json_string();
            assert_eq!(OutputSet::from_json_str(&w).unwrap(), e);
            let _ = summarize(
                &compare(&e, &OutputSet::default(), &CompareRule::default()),
                &e,
            );
        }
        true
    }
    QuickCheck::new()
        .tests(cases(3000))
        .max_tests(cases(3000))
        .quickcheck(prop as fn(Vec<(u8, u16, u8)>) -> bool);
}
