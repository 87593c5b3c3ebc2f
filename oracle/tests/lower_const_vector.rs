//! 16-byte loads from `.const` (`ld.const.v4.u32`, `ld.const.v2.u64`),
//! lowered by ptxc as ptxas 11.8 does (`LDC.64 R4, c[0x3][R0]` and
//! `LDC.64 R6, c[0x3][R0+0x8]`: LDC has no 128-bit form;
//! compiler/src/lower/mem.rs) and run in the simulator on every target
//! at -O0 and -O3. ptxc used to refuse them ("LDC does not take modifier
//! `.128`"); the generator's `const` family writes them.
//!
//! Expected values: the table's words (host arithmetic), and the
//! interpreter's outputs.

mod pair_run;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, RunResult};
use pair_run::{interp, lowered, lowered_o3, same_outputs, ARCHS};

const N: u32 = 8;

const PTX: &str = r#".version 7.0
.target sm_70
.address_size 64
.const .align 16 .b32 ctab[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	mov.u32 %r0, %tid.x;
	and.b32 %r1, %r0, 3;
	mul.wide.u32 %rd1, %r1, 16;
	mov.u64 %rd2, ctab;
	add.s64 %rd2, %rd2, %rd1;
	ld.const.v4.u32 {%r2, %r3, %r4, %r5}, [%rd2];
	ld.const.v2.u64 {%rd3, %rd4}, [ctab+16];
	ld.param.u64 %rd0, [out];
	cvta.to.global.u64 %rd0, %rd0;
	mul.wide.u32 %rd1, %r0, 32;
	add.s64 %rd0, %rd0, %rd1;
	st.global.v4.u32 [%rd0], {%r2, %r3, %r4, %r5};
	st.global.v2.u64 [%rd0+16], {%rd3, %rd4};
	ret;
}
"#;

fn spec() -> LaunchSpec {
    let text = format!(
        r#"{{"kernel": "k", "grid": [1], "block": [{N}], "params": [{{"buffer": "out"}}],
  "buffers": {{"out": {{"type": "u32", "len": {}, "init": "zeros"}}}}, "outputs": ["out"]}}"#,
        8 * N
    );
    LaunchSpec::from_json_str(&text, ".").unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn check(what: &str, got: &RunResult) {
    assert_eq!(got.outcome, Outcome::Completed, "{what}: {:?}", got.outcome);
    let out = &got.outputs.get("out").unwrap().bits;
    for t in 0..N as usize {
        // words 4(t%4)+1 .. 4(t%4)+4 of the table, then words 5..8 (the
        // two u64 at byte 16, stored back in the same byte order)
        let row = 4 * (t as u64 % 4);
        let want: Vec<u64> = (1..=4).map(|k| row + k).chain(5..=8).collect();
        assert_eq!(out[8 * t..8 * t + 8], want[..], "{what}, thread {t}");
    }
}

#[test]
fn sixteen_byte_const_loads_on_every_target() {
    let sp = spec();
    let want = interp(PTX, &sp);
    check("the interpreter", &want);
    for arch in ARCHS {
        let o0 = lowered(PTX, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        check(&format!("-O0 on {arch}"), &o0);
        same_outputs(&want, &o0, &format!("-O0 on {arch}"));
        let o3 = lowered_o3(PTX, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        check(&format!("-O3 on {arch}"), &o3);
        same_outputs(&want, &o3, &format!("-O3 on {arch}"));
    }
}
