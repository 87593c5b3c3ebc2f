//! Nesting of brackets (blocks, initializer lists, operand lists) is bounded
//! by the parser (`MAX_NESTING`, 256, compiler/src/ptx/parser/mod.rs): past
//! it, one error at the bracket that goes too deep, and parsing goes on
//! after the nest. 100,000 nested `{` used to overflow the stack and abort.
//! At the limit, the front end, the printer's round trip and the whole -O3
//! compile run in a test thread (2 MiB of stack) of a debug build.

const HEAD: &str = ".version 7.8\n.target sm_80\n.address_size 64\n";

/// A kernel whose body holds `depth - 1` nested blocks (the body is the
/// first level) around one store, then a second kernel.
fn nested_blocks(depth: usize) -> String {
    let inner = "st.global.u32 [%rd1], %r1;";
    format!(
        "{HEAD}.visible .entry k(.param .u64 out)\n{{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [out];\nmov.u32 %r1, 5;\n{}{inner}{}\nret;\n}}\n.visible .entry k2()\n{{\nret;\n}}\n",
        "{".repeat(depth - 1),
        "}".repeat(depth - 1)
    )
}

fn errors(src: &str) -> Vec<String> {
    let (_, diags) = ptxc::ptx::parse_and_validate(src);
    diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}:{} {}", d.span.lo, d.span.hi, d.message))
        .collect()
}

#[test]
fn blocks_at_the_limit_go_through_the_whole_compiler() {
    let src = nested_blocks(256);
    let m = ptxc::ptx::parse_checked("deep.ptx", &src).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.functions().count(), 2);
    ptxc::ptx::check_round_trip(&src).unwrap();
    let opts = ptxc::cli::parse_args(&["-O3".to_string(), "-arch=sm_80".to_string()])
        .unwrap()
        .unwrap();
    let listing = ptxc::driver::compile("deep.ptx", &src, &opts.driver, None)
        .result
        .unwrap_or_else(|e| panic!("{e}"))
        .sass;
    assert_eq!(listing.matches("STG.E").count(), 1, "{listing}");
}

#[test]
fn one_block_too_deep_is_one_error_at_its_bracket_and_the_rest_parses() {
    let src = nested_blocks(257);
    let e = errors(&src);
    assert_eq!(e.len(), 1, "{e:?}");
    // The 256th `{` of the nest (the body is the first level).
    let at = src.match_indices('{').nth(256).unwrap().0;
    assert_eq!(
        e[0],
        format!("{at}:{} brackets nested more than 256 deep", at + 1)
    );
    let (m, _) = ptxc::ptx::parse_and_validate(&src);
    assert!(m.functions().any(|f| m.name(f.name) == "k2"), "k2 lost");
}

#[test]
fn a_hundred_thousand_nested_brackets_are_an_error_not_a_crash() {
    let d = 100_000;
    let blocks = nested_blocks(d);
    let init = format!(
        "{HEAD}.global .u32 g[1] = {}1{};\n.visible .entry k()\n{{\nret;\n}}\n",
        "{".repeat(d),
        "}".repeat(d)
    );
    let parens = format!(
        "{HEAD}.visible .entry k()\n{{\n.reg .b32 %r<2>;\nmov.u32 %r1, {}%r0{};\nret;\n}}\n",
        "(".repeat(d),
        ")".repeat(d)
    );
    let vectors = format!(
        "{HEAD}.visible .entry k()\n{{\n.reg .b32 %r<2>;\nmov.u32 %r1, {}%r0{};\nret;\n}}\n",
        "{".repeat(d),
        "}".repeat(d)
    );
    for (what, src) in [
        ("blocks", blocks),
        ("initializer", init),
        ("parentheses", parens),
        ("vector", vectors),
    ] {
        let e = errors(&src);
        assert!(
            e.iter()
                .any(|m| m.ends_with("brackets nested more than 256 deep")),
            "{what}: {e:?}"
        );
        // No cascade of stray closing brackets.
        assert!(
            e.len() <= 2,
            "{what}: {} errors: {:?}",
            e.len(),
            &e[..e.len().min(5)]
        );
        // The entry after the nest is still there.
        let (m, _) = ptxc::ptx::parse_and_validate(&src);
        assert!(m.functions().count() >= 1, "{what}");
    }
}
