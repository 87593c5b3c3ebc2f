//! nvopt lift + print with no pass preserves semantics: for every corpus
//! kernel (clang -O3 and -O0 PTX) and generator seeds 0..200, the PTX
//! interpreter gives identical outputs before and after, and the printed
//! PTX is accepted by the front end. Also pins which functions are not
//! lifted (and why), so a lift regression cannot hide as "left unchanged".

mod nvopt_support;

use nvopt_support::*;
use ptxc::nvopt::{lift_module, print_module};

fn round_trip(m: &ptxc::ptx::ast::Module) -> ptxc::ptx::ast::Module {
    print_module(&lift_module(m))
}

#[test]
fn round_trip_preserves_corpus_results() {
    let inputs = corpus_inputs();
    assert_eq!(inputs.len(), 32);
    let fails = check_all(&inputs, &round_trip);
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn round_trip_preserves_generated_results() {
    let inputs = gen_inputs();
    let fails = check_all(&inputs, &round_trip);
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

/// Every function lifts, and its SSA form verifies.
#[test]
fn every_function_is_lifted() {
    let mut refused = Vec::new();
    let (mut lifted, mut bodies) = (0, 0);
    for i in all_inputs() {
        let m = ptxc::ptx::parse_checked(&i.name, &i.ptx).unwrap();
        bodies += m.functions().filter(|f| f.body.is_some()).count();
        for (_, f) in lift_module(&m).funcs {
            match f {
                Ok(f) => {
                    ptxc::nvopt::verify::verify(&f).unwrap_or_else(|e| panic!("{}: {e}", i.name));
                    lifted += 1
                }
                Err(e) => refused.push(format!("{}: {e}", i.name)),
            }
        }
    }
    assert_eq!(refused, Vec::<String>::new());
    assert_eq!(lifted, bodies);
}

/// A loop that swaps two registers: after copy propagation the loop
/// header's phis are `a = phi(a0, b)`, `b = phi(b0, a)`, a parallel copy
/// with a cycle (the swap problem) that the printer must break with a
/// temporary. Checked against host-computed values, before and after.
#[test]
fn swap_loop_survives_copy_propagation() {
    let ptx = "\
.version 7.0
.target sm_70
.address_size 64
.visible .entry swap(.param .u64 out)
{
 .reg .pred %p<2>;
 .reg .b32 %r<10>;
 .reg .b64 %rd<5>;
 ld.param.u64 %rd1, [out];
 cvta.to.global.u64 %rd2, %rd1;
 mov.u32 %r9, %tid.x;
 add.s32 %r1, %r9, 1;
 add.s32 %r2, %r9, 100;
 mov.u32 %r3, 0;
 mov.u32 %r6, 0;
L:
 mad.lo.s32 %r6, %r6, 7, %r1;
 mov.b32 %r4, %r1;
 mov.b32 %r1, %r2;
 mov.b32 %r2, %r4;
 add.s32 %r3, %r3, 1;
 setp.lt.u32 %p1, %r3, 5;
 @%p1 bra L;
 mul.wide.u32 %rd3, %r9, 12;
 add.s64 %rd4, %rd2, %rd3;
 st.global.u32 [%rd4], %r1;
 st.global.u32 [%rd4+4], %r2;
 st.global.u32 [%rd4+8], %r6;
 ret;
}
";
    let dir = std::env::temp_dir().join(format!("nvopt-swap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("swap.ptx"), ptx).unwrap();
    let spec = oracle::launch::LaunchSpec::from_json_str(
        r#"{"ptx": "swap.ptx", "kernel": "swap", "grid": [1], "block": [4],
            "params": [{"buffer": "out"}],
            "buffers": {"out": {"type": "u32", "len": 12, "init": "zeros"}},
            "outputs": ["out"]}"#,
        &dir,
    )
    .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    // Host: five iterations, a and b swap each time; acc = acc*7 + a.
    let mut want = Vec::new();
    for t in 0u32..4 {
        let (mut a, mut b, mut acc) = (t + 1, t + 100, 0u32);
        for _ in 0..5 {
            acc = acc.wrapping_mul(7).wrapping_add(a);
            std::mem::swap(&mut a, &mut b);
        }
        want.extend([u64::from(a), u64::from(b), u64::from(acc)]);
    }
    let before = run_text("swap", ptx, &spec).unwrap();
    assert_eq!(before.get("out").unwrap().bits, want);
    let m = ptxc::ptx::parse_checked("swap", ptx).unwrap();
    let mut lm = lift_module(&m);
    for (_, f) in &mut lm.funcs {
        let f = f.as_mut().unwrap();
        let ic = ptxc::nvopt::passes::by_name("instcombine").unwrap();
        let dce = ptxc::nvopt::passes::by_name("dce").unwrap();
        assert!(ic.run(f));
        dce.run(f);
        // The header has the two swapping phis.
        let swaps = f.blocks.iter().flat_map(|b| &b.phis).count();
        assert_eq!(swaps, 4, "{f:?}"); // a, b, i, acc
    }
    let out = ptxc::ptx::printer::print(&print_module(&lm));
    let after = run_text("swap<after>", &out, &spec).unwrap();
    assert_eq!(after.get("out").unwrap().bits, want, "{out}");
}
