//! Calls (`call`): device functions `.func (.param RET fret) gfN(.param
//! .b32 fa, .param .b32 fb, EXTRA...)` with a generated body (integer,
//! float, predicate, branch and loop statements over the arguments),
//! called with LLVM's call sequence (`.param` arguments in a nested
//! block). The signature varies ([`Sig`]): up to two extra parameters of
//! `.b64`, `.f32`, `.f64` or a `.v2.b32` pair (an 8-byte aligned `.b8`
//! array written with `st.param.v2.b32` and read with `ld.param.v2.b32`,
//! as nvcc passes small structs: corpus/ptx/valid/159), and a `.b32`,
//! `.b64` or `.v2.b32` return value. Functions call no function, so the
//! call graph has no cycle (ptxc refuses recursion other than self-calls,
//! lower/call.rs); no kernel-only construct (barriers, warp operations,
//! shared or global memory) appears in a function body. (ptxc binds
//! `.reg` parameters of a `.func` as parameter words that `mov` cannot
//! name, so the `.param` form is the one both sides take.)

use super::emit::{Gen, Reg, RC};
use super::features::VType;

/// An extra parameter's kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Extra {
    B64,
    F32,
    F64,
    V2,
    /// A 16-bit parameter (`short`, `bool`, `half` arguments): `.param
    /// .b16`, stored with `st.param.b16`, read with `ld.param.u16` or
    /// `ld.param.b16` as nvcc and clang write them.
    B16,
}

const EXTRAS: [Extra; 5] = [Extra::B64, Extra::F32, Extra::F64, Extra::V2, Extra::B16];

/// A function's signature beyond `fa`, `fb`: extra parameters and the
/// return kind, packed into the `u32` that `Gen::funcs` keeps per function
/// (bits 0..2 and 3..5: extra parameter 1 and 2, 0 = none, else
/// `EXTRAS` index + 1; bits 6..7: return 0 = `.b32`, 1 = `.b64`, 2 =
/// `.v2.b32`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Sig {
    extras: [Option<Extra>; 2],
    ret: u32,
}

impl Sig {
    fn code(self) -> u32 {
        let e = |x: Option<Extra>| {
            x.map_or(0, |x| {
                EXTRAS.iter().position(|&y| y == x).unwrap() as u32 + 1
            })
        };
        e(self.extras[0]) | (e(self.extras[1]) << 3) | (self.ret << 6)
    }

    fn from_code(c: u32) -> Sig {
        let e = |v: u32| (v != 0).then(|| EXTRAS[(v - 1) as usize]);
        Sig {
            extras: [e(c & 7), e((c >> 3) & 7)],
            ret: (c >> 6) & 3,
        }
    }

    /// The `.param` declaration of the return value, named `name`.
    fn ret_decl(self, name: &str) -> String {
        match self.ret {
            0 => format!(".param .b32 {name}"),
            1 => format!(".param .b64 {name}"),
            _ => format!(".param .align 8 .b8 {name}[8]"),
        }
    }
}

/// The `.param` declaration of an extra parameter.
fn extra_decl(x: Extra, name: &str) -> String {
    match x {
        Extra::B64 => format!(".param .b64 {name}"),
        Extra::F32 => format!(".param .f32 {name}"),
        Extra::F64 => format!(".param .f64 {name}"),
        Extra::V2 => format!(".param .align 8 .b8 {name}[8]"),
        Extra::B16 => format!(".param .b16 {name}"),
    }
}

const EXTRA_NAMES: [&str; 2] = ["fc", "fd"];

impl Gen<'_, '_, '_> {
    /// Writes one device function; returns its text.
    pub fn device_function(&mut self, index: u32) -> String {
        let name = format!("gf{index}");
        let mut sig = Sig {
            extras: [None, None],
            ret: 0,
        };
        if self.src.chance(0.6) {
            // float parameters only of the program's float types (a type
            // deny list removes them from the module)
            let kinds: Vec<Extra> = EXTRAS
                .into_iter()
                .filter(|x| match x {
                    Extra::F32 => self.fs.has_type(VType::F32),
                    Extra::F64 => self.fs.has_type(VType::F64),
                    // `%h` registers only with f16 (as everywhere)
                    Extra::B16 => self.fs.has_type(VType::F16),
                    _ => true,
                })
                .collect();
            for slot in sig.extras.iter_mut() {
                if self.src.chance(0.6) {
                    *slot = Some(self.src.pick(&kinds));
                }
            }
            sig.ret = self.src.below(3);
        }
        let saved_body = std::mem::take(&mut self.body);
        let saved = (self.est, self.mult, self.depth, self.diverged, self.in_func);
        self.in_func = true;
        self.est = 0;
        self.mult = 1;
        self.depth = 1; // one level less nesting inside functions
        self.diverged = 1; // callers may be divergent
        let a = self.fresh(RC::B32);
        let b = self.fresh(RC::B32);
        self.ins(format!("ld.param.b32 {a}, [fa]"));
        self.ins(format!("ld.param.b32 {b}, [fb]"));
        self.define(a);
        self.define(b);
        for (k, x) in sig.extras.iter().enumerate() {
            let Some(x) = *x else { continue };
            let pn = EXTRA_NAMES[k];
            match x {
                Extra::V2 => {
                    let (x0, x1) = (self.fresh(RC::B32), self.fresh(RC::B32));
                    self.ins(format!("ld.param.v2.b32 {{{x0}, {x1}}}, [{pn}]"));
                    self.define(x0);
                    self.define(x1);
                }
                Extra::B16 => {
                    let r = self.fresh(RC::B16);
                    let ty = self.src.pick(&["u16", "b16"]);
                    self.ins(format!("ld.param.{ty} {r}, [{pn}]"));
                    self.define(r);
                }
                _ => {
                    let (rc, ty) = match x {
                        Extra::B64 => (RC::B64, "b64"),
                        Extra::F32 => (RC::F32, "f32"),
                        _ => (RC::F64, "f64"),
                    };
                    let r = self.fresh(rc);
                    self.ins(format!("ld.param.{ty} {r}, [{pn}]"));
                    self.define(r);
                }
            }
        }
        let n = self.src.range(1, 5);
        for _ in 0..n {
            self.stmt();
        }
        // the result: xor of the last two 32-bit values (and of a 64-bit one)
        let x = self.reg_of(VType::U32);
        let y = self.reg_of(VType::U32);
        let ret = self.fresh(RC::B32);
        self.ins(format!("xor.b32 {ret}, {x}, {y}"));
        match sig.ret {
            0 => self.ins(format!("st.param.b32 [fret+0], {ret}")),
            1 => {
                let w = self.fresh(RC::B64);
                self.ins(format!("mov.b64 {w}, {{{ret}, {x}}}"));
                let z = self.reg_of(VType::U64);
                self.ins(format!("xor.b64 {w}, {w}, {z}"));
                self.ins(format!("st.param.b64 [fret+0], {w}"));
            }
            _ => self.ins(format!("st.param.v2.b32 [fret+0], {{{ret}, {y}}}")),
        }
        self.ins("ret");
        let body = std::mem::replace(&mut self.body, saved_body);
        (self.est, self.mult, self.depth, self.diverged, self.in_func) = saved;
        let mut params = vec![".param .b32 fa".to_string(), ".param .b32 fb".to_string()];
        for (k, x) in sig.extras.iter().enumerate() {
            if let Some(x) = *x {
                params.push(extra_decl(x, EXTRA_NAMES[k]));
            }
        }
        let mut text = format!(
            ".func ({}) {name}({})\n{{\n",
            sig.ret_decl("fret"),
            params.join(", ")
        );
        for d in body.reg_decls() {
            text.push_str(&d);
            text.push('\n');
        }
        for l in &body.lines {
            text.push_str(l);
            text.push('\n');
        }
        text.push_str("}\n");
        self.funcs.push((name, sig.code()));
        text
    }

    /// A call of one of the module's functions.
    pub fn call_stmt(&mut self) {
        if self.funcs.is_empty() || self.in_func {
            return;
        }
        let k = self.src.below(self.funcs.len() as u32) as usize;
        let name = self.funcs[k].0.clone();
        let sig = Sig::from_code(self.funcs[k].1);
        let a = self.reg_of(VType::U32);
        let b = self.reg_of(VType::U32);
        // the arguments' values, before the call block opens
        let mut stores = Vec::new();
        for (j, x) in sig.extras.iter().enumerate() {
            let Some(x) = *x else { continue };
            let pn = format!("param{}", j + 2);
            let st = match x {
                Extra::B64 => format!("st.param.b64 [{pn}+0], {}", self.reg_of(VType::U64)),
                Extra::F32 => format!("st.param.f32 [{pn}+0], {}", self.reg_of(VType::F32)),
                Extra::F64 => format!("st.param.f64 [{pn}+0], {}", self.reg_of(VType::F64)),
                Extra::V2 => {
                    let x0 = self.reg_of(VType::U32);
                    let x1 = self.reg_of(VType::U32);
                    format!("st.param.v2.b32 [{pn}+0], {{{x0}, {x1}}}")
                }
                Extra::B16 => {
                    let v = self.reg_of(VType::U32);
                    let h = self.fresh(RC::B16);
                    self.ins(format!("cvt.u16.u32 {h}, {v}"));
                    format!("st.param.b16 [{pn}+0], {h}")
                }
            };
            stores.push((extra_decl(x, &pn), st, pn));
        }
        // `.uni` only where no thread-dependent branch encloses the call
        // (PTX ISA, call: `.uni` asserts the call is not divergent).
        let uni = if self.diverged == 0 { ".uni" } else { "" };
        // The call sequence of LLVM's NVPTX back end (double_noinline.ptx):
        // arguments and result in `.param` variables of a nested block.
        self.body.lines.push("\t{".into());
        self.body.lines.push("\t.param .b32 param0;".into());
        self.body.lines.push("\t.param .b32 param1;".into());
        for (decl, _, _) in &stores {
            self.body.lines.push(format!("\t{decl};"));
        }
        self.body
            .lines
            .push(format!("\t{};", sig.ret_decl("retval0")));
        self.ins(format!("st.param.b32 [param0+0], {a}"));
        self.ins(format!("st.param.b32 [param1+0], {b}"));
        let mut args = vec!["param0".to_string(), "param1".to_string()];
        for (_, st, pn) in stores {
            self.ins(st);
            args.push(pn);
        }
        self.ins(format!(
            "call{uni} (retval0), {name}, ({})",
            args.join(", ")
        ));
        let mut defs: Vec<(Reg, bool)> = Vec::new();
        match sig.ret {
            0 => {
                let d = self.dest(RC::B32);
                self.ins(format!("ld.param.b32 {}, [retval0+0]", d.0));
                defs.push(d);
            }
            1 => {
                let d = self.dest(RC::B64);
                self.ins(format!("ld.param.b64 {}, [retval0+0]", d.0));
                defs.push(d);
            }
            _ => {
                let d0 = self.fresh(RC::B32);
                let d1 = self.fresh(RC::B32);
                self.ins(format!("ld.param.v2.b32 {{{d0}, {d1}}}, [retval0+0]"));
                defs.push((d0, true));
                defs.push((d1, true));
            }
        }
        self.body.lines.push("\t}".into());
        // the callee's instructions run too
        self.est += 30 * self.mult;
        for d in defs {
            self.finish(d);
        }
    }
}
