//! A kernel at the parser's nesting limit (256 levels of blocks,
//! compiler/src/ptx/parser/mod.rs `MAX_NESTING`) runs in both runners, in a
//! test thread's 2 MiB stack in a debug build: the interpreter's decoder
//! and the lowering recurse over blocks, and the limit is chosen so that
//! they fit. The values come from the PTX's meaning.

mod pair_run;
use oracle::ptx_interp::Outcome;
use pair_run::{agree_on_every_target, interp, out_spec};

#[test]
fn a_kernel_nested_256_deep_runs_in_both_runners() {
    // Each level declares its own %r1 shadowing the outer one and adds to
    // the outer %acc: the result counts the levels.
    let levels = 255;
    let mut body = String::new();
    for _ in 0..levels {
        body.push_str("{\n.reg .b32 %r1;\nadd.u32 %acc, %acc, 1;\nmov.u32 %r1, %acc;\n");
    }
    body.push_str("st.global.u32 [%rd1], %r1;\n");
    body.push_str(&"}\n".repeat(levels));
    let src = format!(
        ".version 7.8\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 out)\n{{\n.reg .b32 %acc;\n.reg .b32 %r1;\n.reg .b64 %rd1;\nld.param.u64 %rd1, [out];\nmov.u32 %acc, 1000;\n{body}ret;\n}}\n"
    );
    let sp = out_spec(1, 1, 0);
    let want = interp(&src, &sp);
    assert_eq!(want.outcome, Outcome::Completed, "{:?}", want.outcome);
    assert_eq!(
        want.outputs.get("out").unwrap().bits,
        [1000 + levels as u64]
    );
    agree_on_every_target(&src, &sp, &want);
}
