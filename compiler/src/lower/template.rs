//! Vendor SASS fragments instantiated on virtual registers: the multi-
//! instruction sequences whose exact form matters (the IEEE division and
//! square-root paths), copied from the corpus listings in `seq/*.sass`
//! (`/*addr*/ TEXT ;` lines; `.reuse` flags and the convergence-barrier
//! instructions `BSSY`/`BSYNC`/`BMOV` are dropped, branch and call targets
//! become labels). A sequence with a slow path is bracketed by one `BSSY
//! B0, .L_cont` / `BSYNC B0` pair of its own (see [`Cx::instantiate`]).
//!
//! A sequence is a fast path, inlined at each use, and optionally a slow
//! path, emitted once per kernel after the kernel's code and its callees
//! and reached with `MOV ra, .L_ret ; CALL.REL.NOINC .L_slow` exactly as
//! ptxas does. The fast and slow paths communicate through the vendor's
//! physical registers, so every instance in a kernel maps each physical
//! register of the fragment to the same virtual register (pairs stay
//! aligned pairs): a use site copies its operands into the input registers,
//! runs the fast path, and copies the outputs out.

use rustc_hash::FxHashMap;

use crate::ir::sass_text::{parse_inst, Guard, Pred, Reg, SassOperand};
use crate::ir::{Op, Operand};

use super::builder::*;
use super::Cx;

/// A sequence: fast path, optional slow path, and its interface.
pub struct Seq {
    pub name: &'static str,
    pub fast: &'static str,
    /// The first address after the fast path (where it continues).
    pub end: u32,
    pub slow: Option<&'static str>,
    /// Physical input registers (32-bit words, pairs low first).
    pub inputs: &'static [u8],
    pub outputs: &'static [u8],
}

/// The per-kernel instance of a sequence: its register maps and the
/// slow path's label.
pub struct SubAbi {
    regs: FxHashMap<u8, u32>,
    preds: FxHashMap<u8, u32>,
    slow_label: u32,
    seq: &'static Seq,
}

struct Line {
    addr: u32,
    text: &'static str,
}

fn lines(text: &'static str) -> Vec<Line> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest = l.strip_prefix("/*")?;
            let (a, t) = rest.split_once("*/")?;
            Some(Line {
                addr: u32::from_str_radix(a, 16).ok()?,
                text: t.trim(),
            })
        })
        .collect()
}

impl SubAbi {
    fn vreg(&mut self, b: &mut Builder, n: u8) -> u32 {
        if let Some(&v) = self.regs.get(&n) {
            return v;
        }
        let base = b.vpair();
        self.regs.insert(n & !1, base);
        self.regs.insert(n | 1, base + 1);
        self.regs[&n]
    }

    fn vpred(&mut self, b: &mut Builder, n: u8) -> u32 {
        *self.preds.entry(n).or_insert_with(|| b.vpred())
    }
}

impl Cx<'_> {
    fn sub_abi(&mut self, seq: &'static Seq) -> &mut SubAbi {
        if !self.subs.contains_key(seq.name) {
            let slow_label = self.b.new_label();
            self.subs.insert(
                seq.name,
                SubAbi {
                    regs: FxHashMap::default(),
                    preds: FxHashMap::default(),
                    slow_label,
                    seq,
                },
            );
            if seq.slow.is_some() {
                self.sub_queue.push(seq.name);
            }
        }
        self.subs.get_mut(seq.name).expect("inserted")
    }

    /// Runs `seq` on `inputs` (one operand per input word), writing its
    /// outputs to the virtual registers `outputs`.
    pub fn instantiate(&mut self, seq: &'static Seq, inputs: &[Operand], outputs: &[u32]) -> R {
        self.sub_abi(seq);
        let mut abi = self.subs.remove(seq.name).expect("inserted");
        let ins: Vec<u32> = seq
            .inputs
            .iter()
            .map(|&n| abi.vreg(&mut self.b, n))
            .collect();
        let outs: Vec<u32> = seq
            .outputs
            .iter()
            .map(|&n| abi.vreg(&mut self.b, n))
            .collect();
        self.subs.insert(seq.name, abi);
        for (x, &v) in inputs.iter().zip(&ins) {
            self.mov(v, x.clone())?;
        }
        let cont = self.b.new_label();
        // Lanes that take the slow path run it out of line, at higher
        // addresses; `BSSY B0, cont` ... `BSYNC B0` makes them rejoin the
        // others before anything after the sequence runs, as in ptxas'
        // listings (f64sqrt_fast.sass `BSSY B0, 0x230`). Without it a
        // warp-synchronous instruction after a divergent slow path (VOTE
        // after div.rn.f64, generator seed 2240) ran on half a warp.
        if seq.slow.is_some() {
            self.b.emit(
                Op::BSSY,
                &[],
                [SassOperand::Barrier(0), Operand::Label(cont)],
            )?;
        }
        self.emit_lines(seq, seq.fast, Some((seq.end, cont)))?;
        self.b.start_block(cont);
        if seq.slow.is_some() {
            self.b.emit(Op::BSYNC, &[], [SassOperand::Barrier(0)])?;
        }
        for (&d, &v) in outputs.iter().zip(&outs) {
            self.mov(d, r(v))?;
        }
        Ok(())
    }

    /// Emits fragment lines; `cont` maps addresses at or after `end` to
    /// the continuation label.
    fn emit_lines(&mut self, seq: &'static Seq, text: &'static str, cont: Option<(u32, u32)>) -> R {
        let ls = lines(text);
        let mut abi = self.subs.remove(seq.name).expect("instantiated");
        let res = (|| -> R {
            let mut labels: FxHashMap<u32, u32> = FxHashMap::default();
            let slow_entry = seq.slow.and_then(|s| lines(s).first().map(|l| l.addr));
            // Targets inside the fragment.
            for (k, l) in ls.iter().enumerate() {
                let si = parse_inst(&format!("{};", l.text.trim_end_matches(';').trim())).map_err(
                    |e| super::LowerError::new(self.b.span, format!("{}: {e}", seq.name)),
                )?;
                let next_is_call = ls.get(k + 1).is_some_and(|n| n.text.starts_with("CALL"));
                if si.opcode == "BRA" || (si.opcode == "MOV" && next_is_call) {
                    if let Some(SassOperand::Imm(a)) = si.operands.last() {
                        let a = *a as u32;
                        if ls.iter().any(|x| x.addr == a) && !labels.contains_key(&a) {
                            labels.insert(a, self.b.new_label());
                        }
                    }
                }
            }
            let slow_label = abi.slow_label;
            let target = |labels: &FxHashMap<u32, u32>, a: u32| -> Option<u32> {
                if let Some(&l) = labels.get(&a) {
                    return Some(l);
                }
                if Some(a) == slow_entry {
                    return Some(slow_label);
                }
                match cont {
                    Some((end, c)) if a >= end => Some(c),
                    _ => None,
                }
            };
            let mut after_transfer = false;
            for (k, l) in ls.iter().enumerate() {
                if let Some(&lab) = labels.get(&l.addr) {
                    self.b.start_block(lab);
                } else if after_transfer {
                    let lab = self.b.new_label();
                    self.b.start_block(lab);
                }
                after_transfer = false;
                let si = parse_inst(&format!("{};", l.text.trim_end_matches(';').trim())).map_err(
                    |e| super::LowerError::new(self.b.span, format!("{}: {e}", seq.name)),
                )?;
                if matches!(si.opcode.as_str(), "BSSY" | "BSYNC" | "BMOV") {
                    continue;
                }
                let op = Op::from_name(&si.opcode).ok_or_else(|| {
                    super::LowerError::new(
                        self.b.span,
                        format!("{}: opcode {}", seq.name, si.opcode),
                    )
                })?;
                let next_is_call = ls.get(k + 1).is_some_and(|n| n.text.starts_with("CALL"));
                let is_target_op =
                    matches!(op, Op::BRA | Op::CALL) || (op == Op::MOV && next_is_call);
                let nops = si.operands.len();
                let mut ops = Vec::with_capacity(nops);
                for (j, o) in si.operands.into_iter().enumerate() {
                    ops.push(match o {
                        SassOperand::Imm(a) if is_target_op && j + 1 == nops => {
                            match target(&labels, a as u32) {
                                Some(t) => Operand::Label(t),
                                None => {
                                    return Err(super::LowerError::new(
                                        self.b.span,
                                        format!("{}: target {a:#x} outside the fragment", seq.name),
                                    ))
                                }
                            }
                        }
                        o => self.map_operand(&mut abi, o),
                    });
                }
                let guard = si.guard.map(|g| Guard {
                    pred: self.map_pred(&mut abi, g.pred),
                    negated: g.negated,
                });
                let mods: Vec<&str> = si.mods.iter().map(String::as_str).collect();
                self.b.emit_g(guard, op, &mods, ops)?;
                if matches!(op, Op::BRA | Op::RET | Op::EXIT) {
                    after_transfer = true;
                }
                if op == Op::CALL {
                    after_transfer = true;
                }
            }
            Ok(())
        })();
        self.subs.insert(seq.name, abi);
        res
    }

    fn map_pred(&mut self, abi: &mut SubAbi, p: Pred) -> Pred {
        match p {
            Pred::P(n) => Pred::V(abi.vpred(&mut self.b, n)),
            p => p,
        }
    }

    fn map_reg(&mut self, abi: &mut SubAbi, r: Reg) -> Reg {
        match r {
            Reg::R(n) => Reg::V(abi.vreg(&mut self.b, n)),
            r => r,
        }
    }

    fn map_operand(&mut self, abi: &mut SubAbi, o: SassOperand) -> Operand {
        match o {
            SassOperand::Reg(mut x) => {
                x.reg = self.map_reg(abi, x.reg);
                x.reuse = false;
                SassOperand::Reg(x)
            }
            SassOperand::Pred { pred, not } => SassOperand::Pred {
                pred: self.map_pred(abi, pred),
                not,
            },
            SassOperand::RegRel { reg, offset } => SassOperand::RegRel {
                reg: self.map_reg(abi, reg),
                offset,
            },
            SassOperand::Mem(mut m) => {
                if let Some(b) = &mut m.base {
                    b.reg = self.map_reg(abi, b.reg);
                }
                SassOperand::Mem(m)
            }
            o => o,
        }
    }
}

/// Emits the slow paths requested by the kernel (after its callees).
pub fn emit_pending(cx: &mut Cx<'_>) -> R {
    let queue = std::mem::take(&mut cx.sub_queue);
    for name in queue {
        let (seq, label) = {
            let abi = &cx.subs[name];
            (abi.seq, abi.slow_label)
        };
        cx.b.start_block(label);
        cx.emit_lines(seq, seq.slow.expect("a slow path"), None)?;
    }
    Ok(())
}
