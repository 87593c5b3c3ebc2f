//! Properties of the front end on generated inputs: token soup drawn from a
//! PTX vocabulary (so the parser gets deep, not just rejected at byte one)
//! never panics, and whatever parses without errors round-trips.

use quickcheck::{Arbitrary, Gen, QuickCheck};

const VOCAB: &[&str] = &[
    ".version 7.8",
    ".target sm_80",
    ".address_size 64",
    ".visible",
    ".entry",
    ".func",
    "k",
    "f",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ";",
    ":",
    "|",
    "!",
    "@",
    "+",
    "-",
    "<",
    ">",
    "=",
    "_",
    ".param",
    ".reg",
    ".pred",
    ".b32",
    ".u64",
    ".f32",
    ".s32",
    ".shared",
    ".global",
    ".align 4",
    "%r1",
    "%r2",
    "%rd1",
    "%p1",
    "%f1",
    "%tid.x",
    "%laneid",
    "L1",
    "L1:",
    "add.s32",
    "mov.u32",
    "ld.global.f32",
    "st.shared.v2.u32",
    "setp.lt.s32",
    "bra",
    "ret",
    "exit",
    "call",
    "0",
    "-1",
    "0x10",
    "0f3F800000",
    "1.5",
    "{%r1, %r2}",
    "[%rd1+4]",
    "%r<4>",
    "\n",
    " ",
    "/* c */",
    "// c\n",
    "\"s\"",
    ".pragma",
    "\"nounroll\"",
    "shfl.sync.bfly.b32",
    "tex.1d.v4.f32.s32",
    ".branchtargets",
];

#[derive(Clone, Debug)]
struct Soup(String);

impl Arbitrary for Soup {
    fn arbitrary(g: &mut Gen) -> Soup {
        let n = usize::arbitrary(g) % 120;
        let mut s = String::from(".version 7.8\n.target sm_80\n.address_size 64\n");
        for _ in 0..n {
            s.push_str(g.choose(VOCAB).unwrap());
            s.push(' ');
        }
        Soup(s)
    }
}

#[test]
fn token_soup_never_panics_and_round_trips() {
    fn prop(s: Soup) -> bool {
        let _ = ptxc::ptx::parse_and_validate(&s.0);
        ptxc::ptx::check_round_trip(&s.0).is_ok()
    }
    QuickCheck::new()
        .tests(3000)
        .quickcheck(prop as fn(Soup) -> bool);
}

#[test]
fn arbitrary_strings_never_panic() {
    fn prop(s: String) -> bool {
        let _ = ptxc::ptx::parse_and_validate(&s);
        ptxc::ptx::check_round_trip(&s).is_ok()
    }
    QuickCheck::new()
        .tests(3000)
        .quickcheck(prop as fn(String) -> bool);
}
