//! Recursion (recursion.rs, call_graph.rs): the saves around a self-call,
//! the barrier kept with `BMOV`, the one exit; the same around calls of a
//! cycle through a function pointer; mutual recursion through direct
//! calls still refused.

use super::tests::{lower_err, lower_text};

const FACT: &str = r#".version 7.8
.target sm_70
.address_size 64
.func (.param .b32 r) fact (.param .b32 n)
{
	.reg .b32 %t<5>;
	.reg .pred %p<2>;
	ld.param.b32 %t1, [n];
	setp.le.s32 %p1, %t1, 1;
	@%p1 bra BASE;
	sub.s32 %t2, %t1, 1;
	{
	.param .b32 a0;
	.param .b32 r0;
	st.param.b32 [a0], %t2;
	call (r0), fact, (a0);
	ld.param.b32 %t3, [r0];
	}
	mul.lo.s32 %t4, %t3, %t1;
	st.param.b32 [r], %t4;
	ret;
BASE:
	st.param.b32 [r], 1;
	ret;
}
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	{
	.param .b32 a0;
	.param .b32 r0;
	st.param.b32 [a0], %r1;
	call (r0), fact, (a0);
	ld.param.b32 %r2, [r0];
	}
	ld.param.u64 %rd1, [out];
	st.global.u32 [%rd1], %r2;
	ret;
}
"#;

#[test]
fn a_self_call_saves_what_is_live_across_it() {
    let t = lower_text(FACT, "sm_80");
    eprintln!("{t}");
    let lines: Vec<&str> = t.lines().map(str::trim).collect();
    let call = lines
        .iter()
        .rposition(|l| l.starts_with("CALL.REL.NOINC"))
        .unwrap();
    // The self-call: the area pushed, `n` (needed for the multiply) and
    // the return address and saved barrier stored before the argument
    // copy; loaded back after the result copy, the area popped.
    let before = &lines[..call];
    let push = before
        .iter()
        .rposition(|l| l.starts_with("IADD3 R1, R1, -0x10, RZ"))
        .expect("the save area pushed");
    let stores = before[push..]
        .iter()
        .filter(|l| l.starts_with("STL"))
        .count();
    assert_eq!(stores, 4, "n, the return address pair, the barrier copy");
    let after = &lines[call..];
    let pop = after
        .iter()
        .position(|l| l.starts_with("IADD3 R1, R1, 0x10, RZ"))
        .expect("the save area popped");
    let loads = after[..pop].iter().filter(|l| l.starts_with("LDL")).count();
    assert_eq!(loads, 4);
    // No region of its own around the self-call; the function's region
    // and the callers' barrier kept.
    assert!(!lines[call - 3..call].iter().any(|l| l.starts_with("BSSY")));
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("BMOV.32.CLEAR"))
            .count(),
        1
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("BMOV.32 B")).count(),
        1
    );
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("RET.REL.NODEC"))
            .count(),
        1
    );
}

#[test]
fn mutual_direct_recursion_is_refused_pointer_recursion_lowered() {
    let mutual = ".version 7.5\n.target sm_70\n.address_size 64\n.func g();\n.func f()\n{\ncall.uni g, ();\nret;\n}\n.func g()\n{\ncall.uni f, ();\nret;\n}\n.visible .entry k()\n{\ncall.uni f, ();\nret;\n}\n";
    let e = lower_err(mutual);
    assert!(
        e.contains("functions `f`, `g` call each other directly"),
        "{e}"
    );
    // `f` calls itself through a pointer: lowered as a self-call (no
    // region around it, the saves, the callers' barrier kept).
    let pointer = ".version 7.5\n.target sm_70\n.address_size 64\n.func (.param .b32 r) f (.param .b32 a)\n{\n.reg .b64 %fp;\n.reg .b32 %t;\nld.param.b32 %t, [a];\nmov.u64 %fp, f;\n{\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], 1;\np: .callprototype (.param .b32 _) _ (.param .b32 _);\ncall (pr), %fp, (pa), p;\n}\nst.param.b32 [r], %t;\nret;\n}\n.visible .entry k()\n{\n.param .b32 pa;\n.param .b32 pr;\nst.param.b32 [pa], 1;\ncall (pr), f, (pa);\nret;\n}\n";
    let t = lower_text(pointer, "sm_80");
    let lines: Vec<&str> = t.lines().map(str::trim).collect();
    let call = lines
        .iter()
        .position(|l| l.starts_with("CALL.REL.NOINC") && !l.contains(".L_"))
        .unwrap_or_else(|| panic!("no call through a register:\n{t}"));
    assert!(
        !lines[call - 4..call].iter().any(|l| l.starts_with("BSSY")),
        "{t}"
    );
    assert!(lines[..call].iter().any(|l| l.starts_with("STL")), "{t}");
    assert!(lines[call..].iter().any(|l| l.starts_with("LDL")), "{t}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("BMOV.32.CLEAR"))
            .count(),
        1,
        "{t}"
    );
}
