//! End-to-end checks of instruction forms whose result layout differs from
//! the common path: `set` with half-precision destinations, `redux.sync` on
//! `.f32`, and `cvt.pack` (two saturated fields in one register).

use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{self, Outcome, RunLimits};

/// Runs a one-thread kernel whose body writes `%r1` to out[0].
fn run(header: &str, body: &str, threads: u32) -> (Outcome, u64) {
    let src = format!(
        "{header}\n.address_size 64\n.visible .entry k(.param .u64 out)\n{{\n\t.reg .b32 %r<8>;\n\t.reg .b16 %h<4>;\n\
         \t.reg .f32 %f<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n\tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd1, %rd1;\n\
         {body}\n\tmov.u32 %r7, %tid.x;\n\tsetp.eq.u32 %p1, %r7, 0;\n\t@%p1 st.global.u32 [%rd1], %r1;\n\tret;\n}}\n"
    );
    let spec = format!(
        r#"{{"kernel": "k", "grid": [1], "block": [{threads}], "params": [{{"buffer": "out"}}],
            "buffers": {{"out": {{"type": "u32", "len": 1, "init": "zeros"}}}}}}"#
    );
    let spec = LaunchSpec::from_json_str(&spec, std::path::Path::new(".")).unwrap();
    let m = ptxc::ptx::parse_checked("w.ptx", &src).unwrap_or_else(|e| panic!("{e}"));
    let r = ptx_interp::run(&m, &src, &spec, &RunLimits::default()).unwrap();
    let out = r.outputs.get("out").unwrap().bits[0];
    (r.outcome, out)
}

const SM80: &str = ".version 7.8\n.target sm_80";

#[test]
fn set_writes_one_point_zero_in_half_precision() {
    // PTX ISA set: "the destination is 1.0 (float) or 0xffffffff (integer)
    // for true". f16 1.0 = 0x3c00; bf16 1.0 = 0x3f80.
    let body =
        "\tmov.f32 %f1, 0f3F800000;\n\tset.eq.f16.f32 %h1, %f1, %f1;\n\tcvt.u32.u16 %r1, %h1;";
    assert_eq!(run(SM80, body, 1), (Outcome::Completed, 0x3c00));
    let body =
        "\tmov.f32 %f1, 0f3F800000;\n\tset.lt.f16.f32 %h1, %f1, %f1;\n\tcvt.u32.u16 %r1, %h1;";
    assert_eq!(run(SM80, body, 1), (Outcome::Completed, 0));
    let body = "\tmov.f32 %f1, 0f3F800000;\n\tset.eq.u32.f32 %r1, %f1, %f1;";
    assert_eq!(run(SM80, body, 1), (Outcome::Completed, 0xffff_ffff));
}

#[test]
fn set_on_packed_halves_writes_each_lane() {
    // a = {lo 1.0, hi 2.0}, b = {lo 1.0, hi 3.0}: eq is true in the low lane only.
    let body = "\tmov.b32 %r2, 0x40003C00;\n\tmov.b32 %r3, 0x42003C00;\n\tset.eq.f16x2.f16x2 %r1, %r2, %r3;";
    assert_eq!(run(SM80, body, 1), (Outcome::Completed, 0x0000_3c00));
}

#[test]
fn redux_f32_min_over_the_warp() {
    // Each lane holds (float)(31 - lane): the minimum is 0.0; with .abs on
    // -(lane + 1) the maximum magnitude is 32.0 (0x42000000).
    let hdr = ".version 8.6\n.target sm_100a";
    let body = "\tmov.u32 %r2, %laneid;\n\tsub.s32 %r3, 31, %r2;\n\tcvt.rn.f32.s32 %f1, %r3;\n\tredux.sync.min.f32 %f2, %f1, -1;\n\tmov.b32 %r1, %f2;";
    assert_eq!(run(hdr, body, 32), (Outcome::Completed, 0));
    let body = "\tmov.u32 %r2, %laneid;\n\tadd.s32 %r3, %r2, 1;\n\tneg.s32 %r3, %r3;\n\tcvt.rn.f32.s32 %f1, %r3;\n\tredux.sync.max.abs.f32 %f2, %f1, -1;\n\tmov.b32 %r1, %f2;";
    assert_eq!(run(hdr, body, 32), (Outcome::Completed, 0x4200_0000));
}

#[test]
fn cvt_pack_packs_two_saturated_halves() {
    // PTX ISA cvt.pack: a and b saturate to .u16 (70000 -> 0xffff, 5 -> 5);
    // a's field is d[31:16], b's d[15:0].
    let body = "\tmov.u32 %r2, 70000;\n\tmov.u32 %r3, 5;\n\tcvt.pack.sat.u16.s32 %r1, %r2, %r3;";
    assert_eq!(run(SM80, body, 1), (Outcome::Completed, 0xffff_0005));
}

#[test]
fn call_with_register_and_memory_arguments_interleaved() {
    // The memory (`.param`) argument follows a register argument: it must
    // fill the callee's first `.param` parameter, with that parameter's size
    // (regression: it was sized by its position among all arguments).
    let src = ".version 7.8\n.target sm_80\n.address_size 64\n\
        .func (.param .b32 ret) f(.reg .b32 a, .param .b32 b)\n{\n\t.reg .b32 %r<3>;\n\
        \tld.param.b32 %r1, [b];\n\tsub.s32 %r2, a, %r1;\n\tst.param.b32 [ret], %r2;\n\tret;\n}\n\
        .visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n\
        \tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd1, %rd1;\n\tmov.u32 %r1, 100;\n\
        \t{\n\t.param .b32 pb;\n\t.param .b32 pr;\n\tst.param.b32 [pb], 58;\n\
        \tcall (pr), f, (%r1, pb);\n\tld.param.b32 %r2, [pr];\n\t}\n\
        \tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";
    let spec = r#"{"kernel": "k", "grid": [1], "block": [1], "params": [{"buffer": "out"}],
        "buffers": {"out": {"type": "u32", "len": 1, "init": "zeros"}}}"#;
    let spec = LaunchSpec::from_json_str(spec, std::path::Path::new(".")).unwrap();
    let m = ptxc::ptx::parse_checked("call.ptx", src).unwrap_or_else(|e| panic!("{e}"));
    let r = ptx_interp::run(&m, src, &spec, &RunLimits::default()).unwrap();
    assert_eq!(r.outcome, Outcome::Completed);
    assert_eq!(r.outputs.get("out").unwrap().bits[0], 42);
}
