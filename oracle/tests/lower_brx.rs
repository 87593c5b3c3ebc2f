//! The lowering of `brx.idx` with `.branchtargets`
//! (compiler/src/lower/control.rs), executed in the simulator against the
//! PTX interpreter (`seq_harness`) on sm_70, sm_80 and sm_90: each thread
//! takes the branch its own index selects (mixed indices in one warp),
//! falls through between targets, branches under a guard, and loops
//! through a second table; an index outside the table stops both runners.

mod seq_harness;

use oracle::ptx_interp::{self, Outcome, RunLimits};
use oracle::sim::SimInputs;
use ptxc::driver::lower_target;
use ptxc::lower::LowerOptions;
use seq_harness::*;

const ARCHS: [&str; 3] = ["sm_70", "sm_80", "sm_90"];

/// A kernel of `seq_harness::spec`'s shape (input `a`: u32 per thread,
/// output `d0`: u32).
fn kernel(body: &str) -> String {
    format!(
        r#".version 7.8
.target sm_80
.address_size 64
.visible .entry k(.param .u32 pn, .param .u64 pa, .param .u64 pd0)
{{
.reg .u32 %i, %n, %cx, %nx, %tx, %a, %d, %k, %j;
.reg .u64 %rp;
.reg .pred %p, %ex;
mov.u32 %cx, %ctaid.x;
mov.u32 %nx, %ntid.x;
mov.u32 %tx, %tid.x;
mad.lo.u32 %i, %cx, %nx, %tx;
ld.param.u32 %n, [pn];
setp.ge.u32 %ex, %i, %n;
@%ex bra DONE;
ld.param.u64 %rp, [pa];
mad.wide.u32 %rp, %i, 4, %rp;
ld.global.u32 %a, [%rp];
mov.u32 %d, 7;
{body}
OUT:
ld.param.u64 %rp, [pd0];
mad.wide.u32 %rp, %i, 4, %rp;
st.global.u32 [%rp], %d;
DONE:
ret;
}}
"#
    )
}

/// Five targets: 0 and 1 fall through into the next case, 2 jumps over
/// one, 3 and 4 reach the same join; then a guarded `brx` (taken for odd
/// indices only) and a loop that dispatches through a second table
/// `a % 3 + 1` times.
const BODY: &str = r#"
brx.idx %a, T1;
T1: .branchtargets C0, C1, C2, C3, C4;
C0:
add.u32 %d, %d, 1;
C1:
mul.lo.u32 %d, %d, 3;
bra J;
C2:
add.u32 %d, %d, 100;
bra C4;
C3:
xor.b32 %d, %d, 0x5a5a;
C4:
sub.u32 %d, %d, 9;
J:
and.b32 %k, %a, 1;
setp.ne.u32 %p, %k, 0;
@%p brx.idx %k, T2;
T2: .branchtargets G0, G1;
bra L;
G0:
add.u32 %d, %d, 1000;
bra L;
G1:
add.u32 %d, %d, 2000;
L:
rem.u32 %j, %a, 3;
LOOP:
brx.idx %j, T3;
T3: .branchtargets E0, E1, E2;
E0:
shl.b32 %d, %d, 1;
bra NEXT;
E1:
add.u32 %d, %d, 77;
bra NEXT;
E2:
xor.b32 %d, %d, 0xff;
NEXT:
setp.eq.u32 %p, %j, 0;
sub.u32 %j, %j, 1;
@!%p bra LOOP;
"#;

#[test]
fn brx_idx_takes_each_lanes_target() {
    let g = [op("brx", &["u32"], "u32", "")];
    // Every in-range index in every lane position (mixed within warps),
    // and uniform warps of each index.
    let mut idx: Vec<u64> = (0..640u64).map(|k| (k * 7 + k / 5) % 5).collect();
    for v in 0..5 {
        idx.extend(std::iter::repeat_n(v, 32));
    }
    let sp = spec(&g, &[idx]);
    let src = kernel(BODY);
    for arch in ARCHS {
        let d = differences(&src, &sp, arch).unwrap_or_else(|e| panic!("{arch}: {e}"));
        assert!(d.is_empty(), "{arch}: {:x?}", &d[..d.len().min(8)]);
    }
}

#[test]
fn brx_idx_out_of_range_stops_both_runners() {
    let g = [op("brx", &["u32"], "u32", "")];
    let sp = spec(&g, &[vec![0, 1, 5, 2]]);
    let src = kernel(BODY);
    let m = ptxc::ptx::parse_checked("brx", &src).unwrap();
    let limits = RunLimits::default();
    let want = ptx_interp::run(&m, &src, &sp, &limits).unwrap();
    assert_ne!(want.outcome, Outcome::Completed, "interpreter");
    for arch in ARCHS {
        let sm = ptxc::targets::lookup_sm(arch).unwrap();
        let ks = lower_target(&m, sm, &LowerOptions::default()).unwrap();
        let inputs = SimInputs::from_lowered(&ks[0]);
        let got = oracle::sim::run(&ks[0].function, sm, &sp, &inputs, &limits).unwrap();
        assert_ne!(got.outcome, Outcome::Completed, "{arch}");
    }
}
