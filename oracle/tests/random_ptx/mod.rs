//! Random PTX programs over the instructions that have fast forms in the
//! interpreter (`oracle::ptx_interp::fast`): integer, float, compare,
//! select, move, convert, load and store in every space (generic addresses
//! too), guards, forward branches and barriers, in 64- and 32-bit address
//! modes; a quarter leave registers unwritten, a quarter use misaligned and
//! out-of-bounds offsets. Shared by tests/interp_fast_path.rs and
//! examples/interp_dump.rs.

#![allow(dead_code)]

use oracle::launch::LaunchSpec;
use std::fmt::Write as _;
use std::path::Path;

/// splitmix64
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

/// Registers the random body may write (the prologue's are read-only).
const R32: [&str; 8] = ["%r1", "%r2", "%r3", "%r4", "%r5", "%r6", "%r7", "%r8"];
const R64: [&str; 4] = ["%rd7", "%rd8", "%rd9", "%rd10"];
const F32: [&str; 4] = ["%f1", "%f2", "%f3", "%f4"];
const F64: [&str; 2] = ["%fd1", "%fd2"];
const P: [&str; 3] = ["%p1", "%p2", "%p3"];

fn imm32(r: &mut Rng) -> String {
    let v = [
        0u64,
        1,
        2,
        3,
        4,
        31,
        32,
        63,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
    ][r.below(11)];
    if r.below(2) == 0 {
        v.to_string()
    } else {
        (r.next() as u32).to_string()
    }
}

fn src32(r: &mut Rng) -> String {
    if r.below(4) == 0 {
        imm32(r)
    } else {
        // %r0 is the thread id, always written.
        ["%r0", R32[r.below(8)]][usize::from(r.below(3) != 0)].to_string()
    }
}

fn src64(r: &mut Rng) -> String {
    match r.below(5) {
        0 => (r.next() % 300).to_string(),
        1 => "%rd6".to_string(),
        _ => R64[r.below(4)].to_string(),
    }
}

fn srcf(r: &mut Rng) -> String {
    if r.below(4) == 0 {
        [
            "0f3F800000",
            "0f00000000",
            "0fBF000000",
            "0f7F800000",
            "0f7FC00000",
            "0f00000001",
        ][r.below(6)]
        .to_string()
    } else {
        F32[r.below(4)].to_string()
    }
}

/// An address operand `[base+off]` into a random space; `wild`: offsets
/// that may be misaligned or out of bounds.
fn address(r: &mut Rng, a64: bool, wild: bool) -> (&'static str, String) {
    let off = if wild {
        [0i64, 4, 8, 2, 3, 60, 248, 252, 256, 1 << 12, -4][r.below(11)]
    } else {
        [0i64, 8, 16, 24, 32][r.below(5)]
    };
    let (space, base) = match r.below(9) {
        0 => ("shared", "sh".to_string()),
        1 => ("shared", if a64 { "%rd2" } else { "%a2" }.to_string()),
        2 => ("local", "loc".to_string()),
        3 => ("local", if a64 { "%rd3" } else { "%a3" }.to_string()),
        4 => ("", if a64 { "%rd4" } else { "%a4" }.to_string()),
        5 => ("", if a64 { "%rd5" } else { "%a5" }.to_string()),
        6 => ("global", if a64 { "%rd6" } else { "%a6" }.to_string()),
        7 => ("global", if a64 { "%rd1" } else { "%a1" }.to_string()),
        _ => ("", if a64 { R64[r.below(4)] } else { "%r5" }.to_string()),
    };
    let a = if off == 0 {
        format!("[{base}]")
    } else if off < 0 {
        format!("[{base}{off}]")
    } else {
        format!("[{base}+{off}]")
    };
    (space, a)
}

fn dot(space: &str) -> String {
    if space.is_empty() {
        String::new()
    } else {
        format!(".{space}")
    }
}

fn instruction(r: &mut Rng, a64: bool, wild: bool, labels: &mut u32, body: &mut String) {
    let guard = match r.below(8) {
        0 => format!("@{} ", r.pick(&P)),
        1 => format!("@!{} ", r.pick(&P)),
        _ => String::new(),
    };
    let i = match r.below(24) {
        0..=3 => {
            let op = r.pick(&["add", "sub", "mul.lo", "min", "max", "shl", "shr"]);
            let ty = if op == "shl" {
                "b32"
            } else {
                r.pick(&["s32", "u32"])
            };
            format!("{op}.{ty} {}, {}, {}", r.pick(&R32), src32(r), src32(r))
        }
        4 => {
            let op = r.pick(&["and", "or", "xor"]);
            format!("{op}.b32 {}, {}, {}", r.pick(&R32), src32(r), src32(r))
        }
        5 => {
            let op = r.pick(&["add", "sub", "mul.lo", "min", "max", "and", "shl", "shr"]);
            let ty = if op == "and" || op == "shl" {
                "b64"
            } else {
                r.pick(&["s64", "u64"])
            };
            let b = if op.starts_with("sh") {
                src32(r)
            } else {
                src64(r)
            };
            format!("{op}.{ty} {}, {}, {b}", r.pick(&R64), src64(r))
        }
        6 => {
            let ty = r.pick(&["s32", "u32"]);
            format!("mul.wide.{ty} {}, {}, {}", r.pick(&R64), src32(r), src32(r))
        }
        7 => format!(
            "mad.lo.s32 {}, {}, {}, {}",
            r.pick(&R32),
            src32(r),
            src32(r),
            src32(r)
        ),
        8 => {
            let op = r.pick(&["abs.s32", "neg.s32", "not.b32"]);
            format!("{op} {}, {}", r.pick(&R32), src32(r))
        }
        9 => {
            let cmp = r.pick(&["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"]);
            let unsigned = cmp.len() == 2 && "lo ls hi hs".contains(cmp);
            if r.below(3) == 0 {
                let ty = if unsigned { "u64" } else { "s64" };
                format!("setp.{cmp}.{ty} {}, {}, {}", r.pick(&P), src64(r), src64(r))
            } else {
                let ty = if unsigned {
                    "u32"
                } else {
                    r.pick(&["s32", "u32"])
                };
                format!("setp.{cmp}.{ty} {}, {}, {}", r.pick(&P), src32(r), src32(r))
            }
        }
        10 => {
            let op = r.pick(&["and", "or", "xor"]);
            format!("{op}.pred {}, {}, {}", r.pick(&P), r.pick(&P), r.pick(&P))
        }
        11 => {
            let p = r.pick(&P);
            if r.below(2) == 0 {
                format!("selp.b32 {}, {}, {}, {p}", r.pick(&R32), src32(r), src32(r))
            } else {
                format!("selp.f32 {}, {}, {}, {p}", r.pick(&F32), srcf(r), srcf(r))
            }
        }
        12 => match r.below(4) {
            0 => format!("mov.u32 {}, {}", r.pick(&R32), src32(r)),
            1 => format!("mov.f32 {}, {}", r.pick(&F32), srcf(r)),
            2 => format!(
                "mov.u32 {}, {}",
                r.pick(&R32),
                r.pick(&[
                    "%tid.x",
                    "%ntid.x",
                    "%ctaid.x",
                    "%nctaid.x",
                    "%laneid",
                    "%warpid"
                ])
            ),
            _ => format!(
                "mov.{} {}, {}",
                if a64 { "u64" } else { "u32" },
                if a64 { r.pick(&R64) } else { "%r5" },
                r.pick(&["sh", "loc"])
            ),
        },
        13 => {
            let (d, s) = r
                .pick(&[
                    "s64.s32", "u64.u32", "u32.u64", "s32.s64", "u16.u32", "s8.s32",
                ])
                .split_once('.')
                .unwrap();
            let dst = if d.ends_with("64") {
                r.pick(&R64).to_string()
            } else {
                r.pick(&R32).to_string()
            };
            let src = if s.ends_with("64") {
                src64(r)
            } else {
                src32(r)
            };
            format!("cvt.{d}.{s} {dst}, {src}")
        }
        14 => {
            let sp = r.pick(&["shared", "local", "global"]);
            let to = if r.below(2) == 0 { ".to" } else { "" };
            if a64 {
                format!("cvta{to}.{sp}.u64 {}, {}", r.pick(&R64), src64(r))
            } else {
                format!("cvta{to}.{sp}.u32 %r5, {}", src32(r))
            }
        }
        15 => {
            let op = r.pick(&["add", "sub", "mul"]);
            let rnd = r.pick(&[".rn", ".rz", ".rm", "", ".ftz", ".sat"]);
            format!("{op}{rnd}.f32 {}, {}, {}", r.pick(&F32), srcf(r), srcf(r))
        }
        16 => {
            let rnd = r.pick(&[".rn", ".rz", ".rn.ftz", ".rp.sat"]);
            format!(
                "fma{rnd}.f32 {}, {}, {}, {}",
                r.pick(&F32),
                srcf(r),
                srcf(r),
                srcf(r)
            )
        }
        17 => {
            let op = r.pick(&["add.rn", "mul.rz", "fma.rn"]);
            let c = if op == "fma.rn" {
                format!(", {}", r.pick(&F64))
            } else {
                String::new()
            };
            format!(
                "{op}.f64 {}, {}, {}{c}",
                r.pick(&F64),
                r.pick(&F64),
                r.pick(&F64)
            )
        }
        18 => {
            let cmp = r.pick(&["lt", "ge", "equ", "neu", "nan", "num"]);
            let ftz = r.pick(&["", ".ftz"]);
            format!(
                "setp.{cmp}{ftz}.f32 {}, {}, {}",
                r.pick(&P),
                srcf(r),
                srcf(r)
            )
        }
        19 | 20 => {
            let (space, a) = address(r, a64, wild);
            let (ty, d) = match r.below(6) {
                0 => ("u32", r.pick(&R32).to_string()),
                1 => ("s32", r.pick(&R64).to_string()),
                2 => ("u8", r.pick(&R32).to_string()),
                3 => ("s16", r.pick(&R32).to_string()),
                4 => ("u64", r.pick(&R64).to_string()),
                _ => ("f32", r.pick(&F32).to_string()),
            };
            format!("ld{}.{ty} {d}, {a}", dot(space))
        }
        21 | 22 => {
            let (space, a) = address(r, a64, wild);
            let (ty, v) = match r.below(5) {
                0 => ("u32", src32(r)),
                1 => ("u8", R32[r.below(8)].to_string()),
                2 => ("b16", R32[r.below(8)].to_string()),
                3 => ("u64", src64(r)),
                _ => ("f32", srcf(r)),
            };
            format!("st{}.{ty} {a}, {v}", dot(space))
        }
        _ => {
            if r.below(4) == 0 {
                "bar.sync 0".to_string()
            } else {
                *labels += 1;
                // A forward branch over the next instruction.
                let l = *labels;
                let _ = writeln!(body, "\t{guard}bra L{l};");
                instruction(r, a64, wild, labels, body);
                let _ = writeln!(body, "L{l}:");
                return;
            }
        }
    };
    let _ = writeln!(body, "\t{guard}{i};");
}

/// A random kernel: the prologue names the buffers, shared and local
/// memory and their generic addresses; the epilogue stores registers to the
/// thread's slot of `out`.
pub fn program(seed: u64, a64: bool) -> String {
    let mut r = Rng(seed);
    let mut body = String::new();
    let mut labels = 0;
    // A quarter of the programs leave some registers unwritten, a quarter
    // use misaligned and out-of-bounds offsets.
    let (uninit, wild) = (seed % 4 == 1, seed % 8 >= 6);
    for reg in R32.iter().chain(&R64).chain(&F32) {
        if !uninit || r.below(3) != 0 {
            let ty = if reg.starts_with("%rd") {
                "u64"
            } else if reg.starts_with("%f") {
                "f32"
            } else {
                "u32"
            };
            let _ = writeln!(
                body,
                "\tld.global.{ty} {reg}, [{}+{}];",
                if a64 { "%rd1" } else { "%a1" },
                8 * r.below(8)
            );
        }
    }
    for p in P {
        if !uninit || r.below(4) != 0 {
            let _ = writeln!(body, "\tsetp.lt.u32 {p}, %r0, {};", r.below(80));
        }
    }
    for _ in 0..(10 + r.below(40)) {
        instruction(&mut r, a64, wild, &mut labels, &mut body);
    }
    let (at, ptr) = if a64 { ("64", "u64") } else { ("32", "u32") };
    let mut s = format!(
        ".version 7.8\n.target sm_80\n.address_size {at}\n\
         .visible .entry k(.param .{ptr} pout, .param .{ptr} pin)\n{{\n\
         \t.reg .b32 %r<9>;\n\t.reg .b64 %rd<11>;\n\t.reg .b32 %a<7>;\n\t.reg .f32 %f<5>;\n\
         \t.reg .f64 %fd<3>;\n\t.reg .pred %p<4>;\n\
         \t.shared .align 8 .b8 sh[256];\n\t.local .align 8 .b8 loc[64];\n\
         \tmov.u32 %r0, %tid.x;\n\tmov.f64 %fd1, 0d3FF8000000000000;\n\tmov.f64 %fd2, 0dC000000000000000;\n"
    );
    if a64 {
        s.push_str(
            "\tld.param.u64 %rd0, [pout];\n\tld.param.u64 %rd1, [pin];\n\
             \tcvta.to.global.u64 %rd0, %rd0;\n\tcvta.to.global.u64 %rd1, %rd1;\n\
             \tmov.u64 %rd2, sh;\n\tmov.u64 %rd3, loc;\n\tcvta.shared.u64 %rd4, %rd2;\n\
             \tcvta.local.u64 %rd5, %rd3;\n\tmul.wide.u32 %rd6, %r0, 64;\n\tadd.s64 %rd6, %rd0, %rd6;\n",
        );
    } else {
        s.push_str(
            "\tld.param.u32 %a0, [pout];\n\tld.param.u32 %a1, [pin];\n\
             \tmov.u32 %a2, sh;\n\tmov.u32 %a3, loc;\n\tcvta.shared.u32 %a4, %a2;\n\
             \tcvta.local.u32 %a5, %a3;\n\tmul.lo.u32 %a6, %r0, 64;\n\tadd.u32 %a6, %a0, %a6;\n",
        );
    }
    s.push_str(&body);
    let slot = if a64 { "%rd6" } else { "%a6" };
    for (k, reg) in R32.iter().enumerate() {
        let _ = writeln!(s, "\tst.global.u32 [{slot}+{}], {reg};", 4 * k);
    }
    for (k, reg) in R64.iter().enumerate() {
        let _ = writeln!(s, "\tst.global.u64 [{slot}+{}], {reg};", 32 + 8 * k);
    }
    s.push_str("\tret;\n}\n");
    s
}

pub fn spec(grid: u32, block: u32) -> LaunchSpec {
    let threads = grid * block;
    let json = format!(
        r#"{{"kernel": "k", "grid": [{grid}], "block": [{block}],
            "params": [{{"buffer": "out"}}, {{"buffer": "in"}}],
            "buffers": {{"out": {{"type": "u64", "len": {}, "init": "zeros"}},
                         "in": {{"type": "u64", "len": 8, "init": {{"random": {{"seed": 5, "min": 0, "max": 1000}}}}}}}}}}"#,
        threads * 8
    );
    LaunchSpec::from_json_str(&json, Path::new(".")).unwrap()
}

/// The program for `seed`: (source, grid, block).
pub fn case(seed: u64) -> (String, u32, u32) {
    let (grid, block) = [(1, 1), (1, 32), (2, 40), (1, 64)][(seed % 4) as usize];
    (program(seed, seed % 4 != 3), grid, block)
}
