//! The lowering of `dp4a`, `dp2a`, `sad`, `bmsk`, `szext` and `fns`
//! (compiler/src/lower/int_misc.rs), executed in the simulator against the
//! PTX interpreter with the harness of `lower_sequences.rs`
//! (`seq_harness`): every output word must agree bit for bit.
//!
//! Domains:
//! - 32-bit operands: all pairs of the edge values (the third operand
//!   cycling through its edges) on sm_70, sm_80 and sm_90, plus
//!   [`RANDOM`] seeded random inputs on sm_80; `dp4a`/`dp2a` also all
//!   4-byte patterns over the bytes {0, 1, 0x7f, 0x80, 0x81, 0xfe, 0xff}
//!   of both operands (the sign and overflow corners of each lane).
//! - `sad.u16`/`.s16`: the reduced exhaustive 16-bit binary domain of
//!   `lower_sequences.rs` for `(a, b)` (every `a` against 12 structured
//!   `b`, every `b` against 6 structured `a`; 1,179,648 pairs) with `c`
//!   running through all 65,536 values cyclically (`c` only enters
//!   through the final 16-bit add, so one full sweep of it is the
//!   complete domain for that add).
//! - `bmsk`, `szext`: every pair `(a, b)` with both in 0..=70 (every
//!   position and width, including 32 and past it) plus the edge pairs and
//!   random inputs.
//! - `fns`: every base 0..=35 (and 0xffffffff) and offset -34..=34 (and
//!   INT_MIN, INT_MIN + 1, INT_MAX, ±100) for 40 structured masks, plus
//!   random triples.

mod seq_harness;

use seq_harness::*;

const ARCHS: [&str; 3] = ["sm_70", "sm_80", "sm_90"];

#[test]
fn dp4a_dp2a() {
    let mut v = Vec::new();
    for ta in ["u32", "s32"] {
        for tb in ["u32", "s32"] {
            let out = if ta == "s32" || tb == "s32" {
                "s32"
            } else {
                "u32"
            };
            v.push(op(
                &format!("dp4a.{ta}.{tb}"),
                &["u32", "u32", "u32"],
                out,
                &format!("dp4a.{ta}.{tb} %d, %a, %b, %c;"),
            ));
            for m in ["lo", "hi"] {
                v.push(op(
                    &format!("dp2a.{m}.{ta}.{tb}"),
                    &["u32", "u32", "u32"],
                    out,
                    &format!("dp2a.{m}.{ta}.{tb} %d, %a, %b, %c;"),
                ));
            }
        }
    }
    // Byte-structured operands: all 7^4 words a against 7^4 / 7 words b
    // (bytes chosen independently), c cycling through the 32-bit edges.
    let bytes = [0u64, 1, 0x7f, 0x80, 0x81, 0xfe, 0xff];
    let words: Vec<u64> = (0..7usize.pow(4))
        .map(|k| (0..4).fold(0u64, |w, i| w | bytes[(k / 7usize.pow(i)) % 7] << (8 * i)))
        .collect();
    let bsel: Vec<u64> = words.iter().step_by(7).copied().collect();
    let mut inp = pairs(&words, &bsel);
    let e = edge_int(32);
    inp.push((0..inp[0].len()).map(|j| e[j % e.len()]).collect());
    let groups: Vec<&[Op]> = v.chunks(12).collect();
    for g in groups {
        run(g);
        check(g, &inp, &["sm_80"]);
    }
    // The byte corners on every target, fewer of them.
    let small: Vec<Vec<u64>> = inp
        .iter()
        .map(|x| x.iter().step_by(41).copied().collect())
        .collect();
    for g in v.chunks(12) {
        check(g, &small, &ARCHS);
    }
}

#[test]
fn sad_32_64() {
    run_all(vec![
        op(
            "sad.u32",
            &["u32", "u32", "u32"],
            "u32",
            "sad.u32 %d, %a, %b, %c;",
        ),
        op(
            "sad.s32",
            &["s32", "s32", "s32"],
            "s32",
            "sad.s32 %d, %a, %b, %c;",
        ),
    ]);
    run_all(vec![
        op(
            "sad.u64",
            &["u64", "u64", "u64"],
            "u64",
            "sad.u64 %d, %a, %b, %c;",
        ),
        op(
            "sad.s64",
            &["s64", "s64", "s64"],
            "s64",
            "sad.s64 %d, %a, %b, %c;",
        ),
    ]);
}

#[test]
fn sad_16() {
    for t in ["u16", "s16"] {
        let o = op(
            &format!("sad.{t}"),
            &[t, t, t],
            t,
            &format!("sad.{t} %d, %a, %b, %c;"),
        );
        let (mut ex, _) = inputs(&[t, t], 0);
        let n = ex[0].len();
        ex.push((0..n as u64).map(|j| j % 65536).collect());
        check(std::slice::from_ref(&o), &ex, &["sm_80"]);
        // Every target: the structured pairs, c from the 16-bit edges.
        let (second, first) = edge16();
        let mut p = pairs(&first, &second);
        let e = edge_int(16);
        p.push((0..p[0].len()).map(|j| e[j % e.len()]).collect());
        check(std::slice::from_ref(&o), &p, &ARCHS);
    }
}

#[test]
fn bmsk_szext() {
    let ops = vec![
        op(
            "bmsk.clamp",
            &["u32", "u32"],
            "u32",
            "bmsk.clamp.b32 %d, %a, %b;",
        ),
        op(
            "bmsk.wrap",
            &["u32", "u32"],
            "u32",
            "bmsk.wrap.b32 %d, %a, %b;",
        ),
        op(
            "szext.clamp.s32",
            &["u32", "u32"],
            "u32",
            "szext.clamp.s32 %d, %a, %b;",
        ),
        op(
            "szext.wrap.s32",
            &["u32", "u32"],
            "u32",
            "szext.wrap.s32 %d, %a, %b;",
        ),
        op(
            "szext.clamp.u32",
            &["u32", "u32"],
            "u32",
            "szext.clamp.u32 %d, %a, %b;",
        ),
        op(
            "szext.wrap.u32",
            &["u32", "u32"],
            "u32",
            "szext.wrap.u32 %d, %a, %b;",
        ),
    ];
    // Every position/width (and bit count) 0..=70 against every one; for
    // szext the value operand also takes the 32-bit edges.
    let small: Vec<u64> = (0..=70).collect();
    let mut p = pairs(&small, &small);
    let q = pairs(&edge_int(32), &small);
    p[0].extend(&q[0]);
    p[1].extend(&q[1]);
    check(&ops, &p, &ARCHS);
    run_all(ops);
}

#[test]
fn fns() {
    let o = op(
        "fns",
        &["u32", "u32", "s32"],
        "u32",
        "fns.b32 %d, %a, %b, %c;",
    );
    let mut masks: Vec<u64> = vec![
        0,
        1,
        0x8000_0000,
        0xffff_ffff,
        0x5555_5555,
        0xaaaa_aaaa,
        0x0000_ffff,
        0xffff_0000,
        0x8000_0001,
        0x0f0f_0f0f,
        0x1234_5678,
        0xdead_beef,
        0x0001_0000,
        0x7fff_fffe,
    ];
    let mut rng = Rng(0x0f05);
    while masks.len() < 40 {
        masks.push(rng.next() & rng.next() & 0xffff_ffff);
    }
    let mut bases: Vec<u64> = (0..=35).collect();
    bases.push(0xffff_ffff);
    let mut offs: Vec<u64> = (-34i64..=34).map(|x| x as u32 as u64).collect();
    offs.extend([
        0x8000_0000,
        0x8000_0001,
        0x7fff_ffff,
        100,
        (-100i32) as u32 as u64,
    ]);
    let (mut a, mut b, mut c) = (vec![], vec![], vec![]);
    for &m in &masks {
        for &x in &bases {
            for &y in &offs {
                a.push(m);
                b.push(x);
                c.push(y);
            }
        }
    }
    let ex = vec![a, b, c];
    check(std::slice::from_ref(&o), &ex, &["sm_80"]);
    let small: Vec<Vec<u64>> = ex
        .iter()
        .map(|x| x.iter().step_by(13).copied().collect())
        .collect();
    check(std::slice::from_ref(&o), &small, &ARCHS);
    // Random triples: random masks, bases 0..=31, offsets mostly small.
    let (mut a, mut b, mut c) = (vec![], vec![], vec![]);
    for _ in 0..RANDOM {
        a.push(rng.word(32));
        b.push(rng.next() % 32);
        let off = match rng.next() % 4 {
            0 => rng.word(32),
            _ => ((rng.next() % 67) as i64 - 33) as u32 as u64,
        };
        c.push(off);
    }
    check(std::slice::from_ref(&o), &[a, b, c], &["sm_80"]);
}
