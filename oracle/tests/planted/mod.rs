//! Planted bugs for the reducer's acceptance test and benchmark: five
//! different wrong rewrites, each attached to a different phase through
//! ptxc's test-only hook (`ptxc::phases::test_hooks`, cargo feature
//! `test-hooks`, enabled from oracle's dev-dependencies only), and the
//! search for a generated program each one breaks.
//!
//! Shared by `tests/reduce_planted.rs` and `benches/reduce_planted.rs`
//! (through `#[path]`).

#![allow(dead_code)]

use oracle::diff::run::run_oracle;
use oracle::diff::{run_config, Config, Program};
use oracle::gen::{generate, GenConfig};
use oracle::ptx_interp::RunLimits;
use oracle::reduce::predicate::signature_of;
use oracle::reduce::{Case, Predicate, Target};
use ptxc::ir::sass_text::SassOperand;
use ptxc::ir::Op;
use ptxc::phases::test_hooks::{self, Misbehave};
use ptxc::phases::{table, PhaseContext};

/// The first instruction with opcode `op`, in block order.
fn first_mut(cx: &mut PhaseContext, op: Op) -> Option<&mut ptxc::ir::Inst> {
    cx.function
        .blocks
        .iter_mut()
        .flat_map(|b| b.insts.iter_mut())
        .find(|i| i.op == op)
}

/// LT <-> GE, GT <-> LE, EQ <-> NE on the first ISETP that has one of
/// those tests.
pub fn flip_first_isetp(cx: &mut PhaseContext) -> u64 {
    const FLIPS: [(&str, &str); 6] = [
        ("LT", "GE"),
        ("GE", "LT"),
        ("GT", "LE"),
        ("LE", "GT"),
        ("EQ", "NE"),
        ("NE", "EQ"),
    ];
    for i in cx
        .function
        .blocks
        .iter_mut()
        .flat_map(|b| b.insts.iter_mut())
    {
        if i.op != Op::ISETP {
            continue;
        }
        for m in i.mods.iter_mut() {
            if let Some(&(_, to)) = FLIPS.iter().find(|(from, _)| from == m) {
                *m = Op::ISETP
                    .info()
                    .find_mod(to)
                    .expect("ISETP takes the flipped test");
                return 1;
            }
        }
    }
    0
}

/// Swaps the two compared sources of the first ISETP.
pub fn swap_isetp_sources(cx: &mut PhaseContext) -> u64 {
    let Some(i) = first_mut(cx, Op::ISETP) else {
        return 0;
    };
    let d = i.ndst as usize;
    if i.operands.len() < d + 2 || i.operands[d] == i.operands[d + 1] {
        return 0;
    }
    i.operands.swap(d, d + 1);
    1
}

/// Adds one to the first integer immediate of the first IADD3 that has one.
pub fn bump_iadd3_immediate(cx: &mut PhaseContext) -> u64 {
    for i in cx
        .function
        .blocks
        .iter_mut()
        .flat_map(|b| b.insts.iter_mut())
    {
        if i.op != Op::IADD3 {
            continue;
        }
        let d = i.ndst as usize;
        if let Some(SassOperand::Imm(v)) = i.operands[d..]
            .iter_mut()
            .find(|o| matches!(o, SassOperand::Imm(_)))
        {
            *v = v.wrapping_add(1);
            return 1;
        }
    }
    0
}

/// Removes the last global store.
pub fn drop_last_store(cx: &mut PhaseContext) -> u64 {
    for b in cx.function.blocks.iter_mut().rev() {
        if let Some(k) = b.insts.iter().rposition(|i| i.op == Op::STG) {
            b.insts.remove(k);
            return 1;
        }
    }
    0
}

/// A planted bug: what it does and the phase it hides in.
pub struct Plant {
    pub phase: &'static str,
    pub what: &'static str,
    pub bug: Misbehave,
}

pub const PLANTS: [Plant; 5] = [
    Plant {
        phase: "OriPerformLiveDeadFirst",
        what: "flips the first ISETP's comparison",
        bug: flip_first_isetp,
    },
    Plant {
        phase: "GvnCse",
        what: "swaps the first ISETP's sources",
        bug: swap_isetp_sources,
    },
    Plant {
        phase: "OriBackCopyPropagate",
        what: "adds 1 to the first IADD3 immediate",
        bug: bump_iadd3_immediate,
    },
    Plant {
        phase: "LateOriCommoning",
        what: "drops the last global store",
        bug: drop_last_store,
    },
    Plant {
        phase: "AllocateRegisters",
        what: "flips the first ISETP's comparison",
        bug: flip_first_isetp,
    },
];

/// The configuration the planted bugs are hunted and reduced under.
pub const CONFIG: &str = "ptxc sm_80 -O3 default";

impl Plant {
    pub fn install(&self) {
        test_hooks::install(table::lookup(self.phase), self.bug);
    }
}

/// A small generated program (few statements, one function at most).
pub fn small_gen_config() -> GenConfig {
    let mut g = GenConfig::default();
    g.sizes.stmts = 24;
    g.sizes.funcs = 0;
    g
}

/// The first seed from `from` whose program the installed plant makes fail
/// with the plant's phase blamed: the program and the reduction target
/// (same signature, on [`CONFIG`]). Call with the plant installed.
pub fn find_victim(
    plant: &Plant,
    from: u64,
    tries: u64,
    gen: &GenConfig,
) -> Option<(u64, Case, Target)> {
    let cfg = Config::parse(CONFIG).unwrap();
    let limits = RunLimits::default();
    for seed in from..from + tries {
        let g = generate(seed, gen);
        let p = Program::new(format!("gen-{seed}"), g.ptx.clone(), g.spec.clone());
        let Ok(oracle) = run_oracle(&p, &limits) else {
            continue;
        };
        let v = run_config(&p, &oracle, &cfg, &limits).verdict;
        if !v.is_failure() {
            continue;
        }
        let sig = signature_of(&p, &oracle, &cfg, &v, &limits);
        if sig.stage != plant.phase {
            continue;
        }
        let case = Case::parse(&p.name, &p.ptx, p.spec.clone()).ok()?;
        let target = Target {
            config: cfg.clone(),
            predicate: Predicate::SameSignature(sig),
            limits,
        };
        return Some((seed, case, target));
    }
    None
}
