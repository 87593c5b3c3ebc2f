//! Calls (`call`): device functions `.func (.param .b32 fret) gfN(.param
//! .b32 fa, .param .b32 fb)` with a generated body (integer, float,
//! predicate, branch and loop statements over the arguments), called with
//! LLVM's call sequence (`.param` arguments in a nested block). Functions
//! call no function, so the call graph has no cycle (ptxc refuses
//! recursion, lower/call.rs); no kernel-only construct (barriers, warp
//! operations, shared or global memory) appears in a function body. (ptxc
//! binds `.reg` parameters of a `.func` as parameter words that `mov`
//! cannot name, so the `.param` form is the one both sides take.)

use super::emit::{Gen, RC};
use super::features::VType;

impl Gen<'_, '_, '_> {
    /// Writes one device function; returns its text.
    pub fn device_function(&mut self, index: u32) -> String {
        let name = format!("gf{index}");
        let saved_body = std::mem::take(&mut self.body);
        let saved = (self.est, self.mult, self.depth, self.diverged, self.in_func);
        self.in_func = true;
        self.est = 0;
        self.mult = 1;
        self.depth = 1; // one level less nesting inside functions
        self.diverged = 1; // callers may be divergent
        let a = self.fresh(RC::B32);
        let b = self.fresh(RC::B32);
        let ret = self.fresh(RC::B32);
        self.ins(format!("ld.param.b32 {a}, [fa]"));
        self.ins(format!("ld.param.b32 {b}, [fb]"));
        self.define(a);
        self.define(b);
        let n = self.src.range(1, 5);
        for _ in 0..n {
            self.stmt();
        }
        // the result: xor of the last two 32-bit values
        let x = self.reg_of(VType::U32);
        let y = self.reg_of(VType::U32);
        self.ins(format!("xor.b32 {ret}, {x}, {y}"));
        self.ins(format!("st.param.b32 [fret+0], {ret}"));
        self.ins("ret");
        let body = std::mem::replace(&mut self.body, saved_body);
        (self.est, self.mult, self.depth, self.diverged, self.in_func) = saved;
        let mut text =
            format!(".func (.param .b32 fret) {name}(.param .b32 fa, .param .b32 fb)\n{{\n");
        for d in body.reg_decls() {
            text.push_str(&d);
            text.push('\n');
        }
        for l in &body.lines {
            text.push_str(l);
            text.push('\n');
        }
        text.push_str("}\n");
        self.funcs.push((name, 2));
        text
    }

    /// A call of one of the module's functions.
    pub fn call_stmt(&mut self) {
        if self.funcs.is_empty() || self.in_func {
            return;
        }
        let k = self.src.below(self.funcs.len() as u32) as usize;
        let name = self.funcs[k].0.clone();
        let a = self.reg_of(VType::U32);
        let b = self.reg_of(VType::U32);
        let d = self.dest(RC::B32);
        // `.uni` only where no thread-dependent branch encloses the call
        // (PTX ISA 9.7.12.3: `.uni` asserts the call is not divergent).
        let uni = if self.diverged == 0 { ".uni" } else { "" };
        // The call sequence of LLVM's NVPTX back end (double_noinline.ptx):
        // arguments and result in `.param` variables of a nested block.
        self.body.lines.push("\t{".into());
        self.body.lines.push("\t.param .b32 param0;".into());
        self.body.lines.push("\t.param .b32 param1;".into());
        self.body.lines.push("\t.param .b32 retval0;".into());
        self.ins(format!("st.param.b32 [param0+0], {a}"));
        self.ins(format!("st.param.b32 [param1+0], {b}"));
        self.ins(format!("call{uni} (retval0), {name}, (param0, param1)"));
        self.ins(format!("ld.param.b32 {}, [retval0+0]", d.0));
        self.body.lines.push("\t}".into());
        // the callee's instructions run too
        self.est += 30 * self.mult;
        self.finish(d);
    }
}
