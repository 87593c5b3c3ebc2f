//! Property tests: integer operations agree between the PTX interpreter and
//! the SM simulator. One PTX kernel (add, mul.wide, shf.wrap, prmt, setp
//! chains, 64-bit add and compare, shifts beyond the width, lop3, min, bfind,
//! popc, brev, mul.hi) and the SASS a compiler would emit for it, written by
//! hand, run on the same random inputs; every output word must agree.
//! Also: the parameter layout the simulator derives from a launch spec
//! (SASS has no `.param` declarations) equals the one the PTX declares, for
//! every kernel of the corpus.

use oracle::launch::{encode_params, AddressSize, ElemType, GlobalLayout, LaunchSpec, ParamDecl};
use oracle::ptx_interp::{self, Outcome, RunLimits};
use oracle::sim::{self, SimInputs};
use ptxc::ptx::ast::VarType;
use quickcheck::{QuickCheck, TestResult};

const PTX: &str = r#"
.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 pa, .param .u32 pb, .param .u32 pc)
{
    .reg .b32 %r<32>;
    .reg .b64 %rd<16>;
    .reg .pred %p<8>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [pa];
    ld.param.u32 %r2, [pb];
    ld.param.u32 %r3, [pc];
    add.s32 %r4, %r1, %r2;
    st.global.u32 [%rd1], %r4;
    mul.wide.s32 %rd2, %r1, %r2;
    st.global.u64 [%rd1+8], %rd2;
    shf.l.wrap.b32 %r5, %r1, %r2, %r3;
    st.global.u32 [%rd1+16], %r5;
    prmt.b32 %r6, %r1, %r2, %r3;
    st.global.u32 [%rd1+20], %r6;
    setp.lt.s32 %p1, %r1, %r2;
    setp.ge.and.u32 %p2, %r2, %r3, %p1;
    selp.u32 %r7, 1, 0, %p2;
    st.global.u32 [%rd1+24], %r7;
    mul.hi.s32 %r8, %r1, %r2;
    st.global.u32 [%rd1+28], %r8;
    mov.b64 %rd3, {%r1, %r2};
    mov.b64 %rd4, {%r3, %r1};
    add.s64 %rd5, %rd3, %rd4;
    st.global.u64 [%rd1+32], %rd5;
    setp.lt.s64 %p3, %rd3, %rd4;
    selp.u32 %r9, 1, 0, %p3;
    st.global.u32 [%rd1+40], %r9;
    shr.s32 %r10, %r1, %r3;
    st.global.u32 [%rd1+44], %r10;
    shl.b32 %r11, %r1, %r3;
    st.global.u32 [%rd1+48], %r11;
    lop3.b32 %r12, %r1, %r2, %r3, 0xe8;
    st.global.u32 [%rd1+52], %r12;
    min.s32 %r13, %r1, %r2;
    st.global.u32 [%rd1+56], %r13;
    bfind.u32 %r14, %r1;
    st.global.u32 [%rd1+60], %r14;
    popc.b32 %r15, %r1;
    st.global.u32 [%rd1+64], %r15;
    brev.b32 %r16, %r1;
    st.global.u32 [%rd1+68], %r16;
    mul.hi.u32 %r17, %r1, %r2;
    st.global.u32 [%rd1+72], %r17;
    sub.s64 %rd6, %rd3, %rd4;
    st.global.u64 [%rd1+80], %rd6;
    setp.ge.u64 %p4, %rd3, %rd4;
    selp.u32 %r18, 1, 0, %p4;
    st.global.u32 [%rd1+88], %r18;
    shr.u32 %r19, %r1, %r3;
    st.global.u32 [%rd1+92], %r19;
    ret;
}
"#;

/// Hand-written SASS for the kernel above (sm_80 layout: out at
/// c[0x0][0x160], a, b, c at 0x168, 0x16c, 0x170).
const SASS: &[&str] = &[
    "IMAD.MOV.U32 R2, RZ, RZ, c[0x0][0x160]",
    "IMAD.MOV.U32 R3, RZ, RZ, c[0x0][0x164]",
    "IMAD.MOV.U32 R5, RZ, RZ, c[0x0][0x168]",
    "IMAD.MOV.U32 R6, RZ, RZ, c[0x0][0x16c]",
    "IMAD.MOV.U32 R7, RZ, RZ, c[0x0][0x170]",
    "IADD3 R8, R5, R6, RZ",
    "STG.E [R2.64], R8",
    "IMAD.WIDE R8, R5, R6, RZ",
    "STG.E.64 [R2.64+0x8], R8",
    "SHF.L.W.U32.HI R8, R5, R7, R6",
    "STG.E [R2.64+0x10], R8",
    "PRMT R8, R5, R7, R6",
    "STG.E [R2.64+0x14], R8",
    "ISETP.LT.AND P0, PT, R5, R6, PT",
    "ISETP.GE.U32.AND P1, PT, R6, R7, P0",
    "SEL R8, RZ, 0x1, !P1",
    "STG.E [R2.64+0x18], R8",
    "IMAD.HI R8, R5, R6, RZ",
    "STG.E [R2.64+0x1c], R8",
    "IADD3 R8, P0, R5, R7, RZ",
    "IADD3.X R9, R6, R5, RZ, P0, !PT",
    "STG.E.64 [R2.64+0x20], R8",
    "ISETP.LT.U32.AND P0, PT, R5, R7, PT",
    "ISETP.LT.AND.EX P0, PT, R6, R5, PT, P0",
    "SEL R8, RZ, 0x1, !P0",
    "STG.E [R2.64+0x28], R8",
    "SHF.R.S32.HI R8, RZ, R7, R5",
    "STG.E [R2.64+0x2c], R8",
    "SHF.L.U32 R8, R5, R7, RZ",
    "STG.E [R2.64+0x30], R8",
    "LOP3.LUT R8, R5, R6, R7, 0xe8, !PT",
    "STG.E [R2.64+0x34], R8",
    "IMNMX R8, R5, R6, PT",
    "STG.E [R2.64+0x38], R8",
    "FLO.U32 R8, R5",
    "STG.E [R2.64+0x3c], R8",
    "POPC R8, R5",
    "STG.E [R2.64+0x40], R8",
    "BREV R8, R5",
    "STG.E [R2.64+0x44], R8",
    "IMAD.HI.U32 R8, R5, R6, RZ",
    "STG.E [R2.64+0x48], R8",
    "IADD3 R8, P0, R5, -R7, RZ",
    "IADD3.X R9, R6, ~R5, RZ, P0, !PT",
    "STG.E.64 [R2.64+0x50], R8",
    "ISETP.GE.U32.AND P0, PT, R5, R7, PT",
    "ISETP.GE.U32.AND.EX P0, PT, R6, R5, PT, P0",
    "SEL R8, RZ, 0x1, !P0",
    "STG.E [R2.64+0x58], R8",
    "SHF.R.U32.HI R8, RZ, R7, R5",
    "STG.E [R2.64+0x5c], R8",
    "EXIT",
];

fn sass_text() -> String {
    let mut s = String::from("\n\tcode for sm_80\n\t\tFunction : k\n");
    for (i, l) in SASS.iter().enumerate() {
        s.push_str(&format!("        /*{:04x}*/   {l} ;\n", i * 16));
    }
    s
}

fn agree(a: u32, b: u32, c: u32) -> TestResult {
    let spec = LaunchSpec::from_json_str(
        &format!(
            r#"{{"kernel": "k", "grid": [1], "block": [1],
              "params": [{{"buffer": "out"}}, {{"u32": {a}}}, {{"u32": {b}}}, {{"u32": {c}}}],
              "buffers": {{"out": {{"type": "u32", "len": 24, "init": "zeros"}}}}}}"#
        ),
        "",
    )
    .unwrap();
    let limits = RunLimits::default();
    let m = ptxc::ptx::parse_checked("k.ptx", PTX).unwrap();
    let i = ptx_interp::run(&m, PTX, &spec, &limits).unwrap();
    assert_eq!(i.outcome, Outcome::Completed, "{:?}", i.outcome);
    let sm = ptxc::targets::lookup_sm("sm_80").unwrap();
    let file = ptxc::ir::sass_text::parse_file(&sass_text()).unwrap();
    let f = ptxc::ir::from_sass(&file.functions[0], Some(sm)).unwrap();
    let s = sim::run(&f, sm, &spec, &SimInputs::default(), &limits).unwrap();
    assert_eq!(s.outcome, Outcome::Completed, "{:?}", s.outcome);
    let (x, y) = (
        &i.outputs.get("out").unwrap().bits,
        &s.outputs.get("out").unwrap().bits,
    );
    for k in 0..x.len() {
        if x[k] != y[k] {
            eprintln!(
                "a={a:#x} b={b:#x} c={c:#x}: word {k} (byte {:#x}): interp {:#x}, sim {:#x}",
                4 * k,
                x[k],
                y[k]
            );
            return TestResult::failed();
        }
    }
    TestResult::passed()
}

#[test]
fn integer_ops_agree_with_the_interpreter() {
    // Edge values plus random ones; small shift counts matter for c.
    let edges = [
        0,
        1,
        2,
        31,
        32,
        33,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0x1234_5678,
    ];
    for &a in &edges {
        for &b in &edges {
            for &c in &[0, 1, 4, 31, 32, 40, 0x3210, 0x7654, 0xffff_ffff] {
                assert!(!agree(a, b, c).is_failure(), "a={a:#x} b={b:#x} c={c:#x}");
            }
        }
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(agree as fn(u32, u32, u32) -> TestResult);
}

#[test]
fn spec_derived_param_layout_matches_the_ptx_declarations() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/kernels");
    let mut n = 0;
    for e in std::fs::read_dir(&root).unwrap() {
        let dir = e.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let k = dir.file_name().unwrap().to_string_lossy().into_owned();
        let spec = LaunchSpec::from_file(dir.join(format!("{k}.launch.json"))).unwrap();
        let src = std::fs::read_to_string(dir.join(format!("{k}.ptx"))).unwrap();
        let m = ptxc::ptx::parse_checked(&k, &src).unwrap();
        let f = m.function(&spec.kernel).unwrap();
        let from_ptx: Vec<ParamDecl> = f
            .params
            .iter()
            .map(|p| {
                let ty = match p.ty {
                    VarType::Scalar(t) => ElemType::from_name(t.name()).unwrap(),
                    _ => ElemType::U64,
                };
                match p.dims.first().copied().flatten() {
                    Some(len) => ParamDecl::array(ty, len as u32, p.align),
                    None => ParamDecl {
                        ty,
                        array_len: None,
                        align: p.align,
                    },
                }
            })
            .collect();
        let layout = GlobalLayout::new(&spec).unwrap();
        let want = encode_params(&spec, &layout, &from_ptx, AddressSize::A64).unwrap();
        let got = encode_params(
            &spec,
            &layout,
            &oracle::sim::cbank::param_decls(&spec, false),
            AddressSize::A64,
        )
        .unwrap();
        assert_eq!(got, want, "{k}");
        n += 1;
    }
    assert_eq!(n, 16);
}
