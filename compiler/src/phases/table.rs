//! The phase table: the 159 rows of ptxas's PhaseManager as data (docs/MODEL.md, Phase table).
//!
//! Indices 0..=138 carry ptxas's names at ptxas's indices (its static name
//! table), with its seven coarse groups. Indices 139..=157
//! are this compiler's architecture-specific phases (ptxas's 20 phases
//! that name themselves through `getName()`), named by what they do; 158 is
//! the NOP sentinel that an unknown name looks up to.
//!
//! | index | name | kind | what it is |
//! |---|---|---|---|
//! | 0 | `OriCheckInitialProgram` | real | the IR verifier on the lowered program (phases/check_initial.rs), accepting the opcodes phase 5 expands |
//! | 5 | `ConvertUnsupportedOps` | real | required: each opcode the target lacks replaced by a sequence it has (phases/convert_unsupported.rs: REDUX before sm_80, I2FP before sm_86); before every other code phase (`target-code`) |
//! | 139 | `OriRunNamedPhases` | orimanager | the ORI named-phase manager (docs/MODEL.md, ORI named-phase manager): builds the ORI sequence from the `ori` knobs and runs the phases it names |
//! | 140 | `OriSwapOperands` | inert | ORI swap rounds (swap1..swap6): operand canonicalization; not implemented |
//! | 141 | `OriLocalCopyForward` | inert | ORI copy rounds (cpy1..cpy3): local copy forwarding; not implemented |
//! | 142 | `OriDeadCodeScan` | real | ORI dead-code rounds (dce1..dce3): one scan removing what ir::remove::dead_instructions reports |
//! | 143 | `OriPerformLiveDead` | real | ORI liveness and dead-code removal (ptxas's injected OriPerformLiveDead), iterated |
//! | 144 | `OriCopyProp` | real | ORI global copy propagation (ptxas's injected OriCopyProp): phases/scalar/copy_prop.rs |
//! | 145 | `OptimizeNaNOrZero` | real | ptxas's scheduling-time NaN/zero peephole (phases/nan_or_zero.rs), behind the GEMM gate |
//! | 146 | `HoistInvariants` | real | ptxas's scheduling-time loop-invariant hoisting of address math and constant loads (phases/hoist_invariants.rs), more aggressive in GEMM loops |
//! | 147 | `ScheduleInstructions` | real | list scheduling per block on the dependence DAG, critical path first (crate::sched); no-op at -O0 |
//! | 148 | `AllocateRegisters` | real | register allocation with spilling (crate::regalloc): virtual to physical registers, spill code, spill areas in the frames; every -O level |
//! | 149 | `TexNodep` | real | ptxas's post-allocation texture peephole (phases/tex_nodep.rs): shared descriptor loads, coordinate copies, fetch clustering |
//! | 150 | `SpillToLocalMemory` | inert | spill code for values the allocator cannot place: done inside 148's rounds (spill everywhere needs the spill code coloured too) |
//! | 151 | `AssignScoreboards` | real | write/read scoreboards and wait masks in the control codes (crate::sched::scoreboard) |
//! | 152 | `ComputeStallCounts` | real | stall counts covering fixed latencies (crate::sched::stall) |
//! | 153 | `SetReuseFlags` | real | operand-reuse flags (crate::sched::reuse) |
//! | 154 | `VerifyAllocatedProgram` | real | after 148: no virtual register left, registers within the budget and not reserved, aligned pairs and quads, R1 written only by the frame code |
//! | 155 | `ComputeResourceUsage` | real | registers used, spill bytes, stack frame: what the driver reports |
//! | 156 | `PadFunctionEnd` | inert | the trailing self-branch and NOP padding; the emitter prints the listing as is |
//! | 157 | `EmitSassListing` | real | final emission: the IR as a SASS listing (ir::to_sass), the input of the driver's listing |
//! | 158 | `Nop` | sentinel | the NOP sentinel: what an unknown name looks up to |
//!
//! The table is a phase's one identity: a real row names the
//! implementation it runs ([`Impl`]), which the factory (`phase::create`)
//! builds with the row's index; code elsewhere that needs a particular
//! phase names it through a constant here or [`index_of`] (a compile-time
//! lookup by name), never by its number.
//!
//! Every row declares its ordering constraints ([`Constraint`]); an index
//! array that breaks one is refused by [`super::order::check_order`] with
//! the constraint's name. The rules:
//!
//! - [`Rule::First`] / [`Rule::Last`]: the phase stands first / last
//!   (NOP entries, index 158, are ignored);
//! - [`Rule::Required`]: the phase may be neither left out nor disabled;
//! - [`Rule::After`] / [`Rule::Before`]: every occurrence of the phase has
//!   an occurrence of each listed phase before / after it, when the listed
//!   phase is in the order at all;
//! - [`Rule::Precedes`]: every occurrence of each listed phase comes
//!   after the phase's first occurrence;
//! - [`Rule::AfterAllVregCreators`]: after every phase of the order whose
//!   row says it creates virtual registers (`creates_vregs`).
//!
//! The constraint names used: `verify-first`, `emission-last`, `required`,
//! `regalloc-after-vreg-creators`, `regalloc-after-movphi-removal`,
//! `post-regalloc`, `numbered-passes` (First before Second, Early before
//! Mid ...), `mercury-sequence` (ptxas's Mercury sub-pipeline 113..122
//! in order), `legalization` (SetAfterLegalization after every expansion),
//! `hook-position` (each AdvancedPhase hook at its insertion context),
//! `cfg-analysis-first` (control-flow phases after AnalyzeControlFlow),
//! `movphi-pairing`, `scheduling`, `late-conversion`,
//! `code-motion-before-scheduling` (the loop phases and if-conversion move,
//! copy and guard instructions: they run before ScheduleInstructions, whose
//! schedule they would undo), `control-codes`
//! (the control-code phases 151..153 come after every phase that may change
//! the code: [`CODE_PHASES`]; a phase moving, adding or removing
//! instructions after them would invalidate the scoreboards and stalls),
//! `target-code` (ConvertUnsupportedOps, required, runs before every phase
//! of [`TARGET_CODE_PHASES`] in the order: no later phase sees an opcode
//! the target lacks).

/// ptxas's seven coarse groups, and this compiler's two (docs/MODEL.md, Groups).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Group {
    InitialSetup,
    EarlyOptimization,
    MidOptimization,
    LateOptimization,
    SchedulingAndRegAlloc,
    PostScheduleAndCodegen,
    LateCleanup,
    ArchSpecific,
    Sentinel,
}

/// What the factory builds for a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A phase that does what its name says, built by the factory
    /// (`phase::create`) from the implementation the row names.
    Real(Impl),
    /// An explicit no-op: `is_no_op()` is true. Not implemented yet.
    Inert,
    /// One of the 16 AdvancedPhase hooks: a no-op unless a knob names a
    /// phase to run there.
    Hook,
    /// The ORI named-phase manager (runs the ORI sequence).
    OriManager,
    /// The NOP sentinel (158).
    Sentinel,
}

/// The implementation a [`Kind::Real`] row runs: what the factory
/// (`phase::create`) builds for it, with the row's index. One
/// implementation may serve several rows (the GeneralOptimize family, the
/// liveness and dead-code passes, the OriHoistInvariants family); its
/// parameters here are what tells those rows apart beyond their index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Impl {
    /// The IR verifier on the lowered program (phases/check_initial.rs).
    CheckInitialProgram,
    /// The control-flow facts (phases/control_flow.rs).
    AnalyzeControlFlow,
    /// The opcodes the target lacks replaced (phases/convert_unsupported.rs).
    ConvertUnsupportedOps,
    /// Liveness and dead-code removal (phases/live_dead.rs), for as many
    /// rounds as [`DeadCodeRounds`] says.
    LiveDead(DeadCodeRounds),
    /// The GeneralOptimize family (phases/scalar/general_optimize.rs).
    GeneralOptimize,
    /// phases/scalar/branch_opt.rs.
    OriBranchOpt,
    /// phases/scalar/gvn_cse.rs.
    GvnCse,
    /// phases/scalar/reassociate_and_common.rs.
    OriReassociateAndCommon,
    /// phases/scalar/late_commoning.rs.
    LateOriCommoning,
    /// phases/scalar/back_copy_prop.rs.
    OriBackCopyPropagate,
    /// phases/scalar/remove_nop.rs.
    OriRemoveNopCode,
    /// phases/scalar/copy_prop.rs.
    OriCopyProp,
    /// phases/loop_simplify.rs.
    LoopSimplification,
    /// phases/strength_reduce.rs.
    StrengthReduce,
    /// phases/unroll.rs.
    LoopUnrolling,
    /// The loop-invariant code motion family (phases/hoist.rs): `loads`,
    /// whether loads may move (the late rows) or pure instructions only
    /// (OriHoistInvariantsEarly).
    OriHoistInvariants {
        loads: bool,
    },
    /// If-conversion (phases/predication.rs).
    Predication,
    /// phases/place_blocks.rs.
    PlaceBlocksInSourceOrder,
    /// The scheduling-time NaN/zero peephole (phases/nan_or_zero.rs).
    OptimizeNaNOrZero,
    /// The scheduling-time hoisting peephole (phases/hoist_invariants.rs).
    HoistInvariants,
    /// The post-allocation texture peephole (phases/tex_nodep.rs).
    TexNodep,
    /// List scheduling (phases/sched.rs).
    ScheduleInstructions,
    /// The control-code phases (phases/sched.rs).
    AssignScoreboards,
    ComputeStallCounts,
    SetReuseFlags,
    /// Register allocation, its verifier, the resource usage
    /// (phases/regalloc.rs).
    AllocateRegisters,
    VerifyAllocatedProgram,
    ComputeResourceUsage,
    /// The final emission (phases/emit.rs).
    EmitSassListing,
}

/// How many rounds of dead-code removal a [`Impl::LiveDead`] row runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeadCodeRounds {
    /// As many as the NvOpt level says (`PhaseConfig::dead_code_rounds`).
    ByLevel,
    /// At most one (OriDeadCodeScan, one scan per ORI slot).
    AtMostOne,
}

/// An ordering rule (see the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    First,
    Last,
    Required,
    After(&'static [u16]),
    Before(&'static [u16]),
    /// Every occurrence of each listed phase comes after the phase's
    /// first occurrence.
    Precedes(&'static [u16]),
    AfterAllVregCreators,
}

/// A named ordering constraint of one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Constraint {
    pub name: &'static str,
    pub rule: Rule,
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PhaseRow {
    pub index: u16,
    pub name: &'static str,
    pub group: Group,
    pub kind: Kind,
    /// Whether the phase may create virtual registers (register allocation
    /// must follow it).
    pub creates_vregs: bool,
    pub constraints: &'static [Constraint],
}

impl PhaseRow {
    /// Whether the phase does something (the rest are explicit no-ops).
    pub fn implemented(&self) -> bool {
        matches!(self.kind, Kind::Real(_) | Kind::OriManager)
    }
}

/// The number of phases, the sentinel included.
pub const PHASE_COUNT: usize = 159;
/// The index of the row named `name` (exact spelling), evaluated at
/// compile time: the way code outside this table names a phase, so no
/// index is typed twice. A name not in the table fails the build (in a
/// `const`) or panics. [`lookup`] is the command line's case-insensitive
/// form.
pub const fn index_of(name: &str) -> u16 {
    let mut i = 0;
    while i < ROWS.len() {
        if same_name(ROWS[i].name, name) {
            return ROWS[i].index;
        }
        i += 1;
    }
    panic!("index_of: no phase of that name in the table")
}

const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The NOP sentinel: an unknown name looks up to it.
pub const NOP: u16 = index_of("Nop");
/// OriCheckInitialProgram.
pub const CHECK_INITIAL: u16 = index_of("OriCheckInitialProgram");
/// AnalyzeControlFlow.
pub const ANALYZE_CONTROL_FLOW: u16 = index_of("AnalyzeControlFlow");
/// ConvertUnsupportedOps.
pub const CONVERT_UNSUPPORTED: u16 = index_of("ConvertUnsupportedOps");
/// The ORI named-phase manager.
pub const ORI_MANAGER: u16 = index_of("OriRunNamedPhases");
/// OriSwapOperands (the ORI swap rounds).
pub const ORI_SWAP_OPERANDS: u16 = index_of("OriSwapOperands");
/// OriLocalCopyForward (the ORI copy rounds).
pub const ORI_LOCAL_COPY_FORWARD: u16 = index_of("OriLocalCopyForward");
/// OriDeadCodeScan (the ORI manager's dceN rounds).
pub const ORI_DEAD_CODE_SCAN: u16 = index_of("OriDeadCodeScan");
/// OriPerformLiveDead (the ORI manager's injected liveness pass).
pub const ORI_PERFORM_LIVE_DEAD: u16 = index_of("OriPerformLiveDead");
/// OriCopyProp (the ORI manager's injected copy propagation).
pub const ORI_COPY_PROP: u16 = index_of("OriCopyProp");
/// ScheduleInstructions.
pub const SCHEDULE_INSTRUCTIONS: u16 = index_of("ScheduleInstructions");
/// AllocateRegisters.
pub const ALLOCATE_REGISTERS: u16 = index_of("AllocateRegisters");
/// The control-code phases: AssignScoreboards, ComputeStallCounts,
/// SetReuseFlags.
pub const CONTROL_CODE_PHASES: [u16; 3] = [
    index_of("AssignScoreboards"),
    index_of("ComputeStallCounts"),
    index_of("SetReuseFlags"),
];
/// The final emission.
pub const EMIT: u16 = index_of("EmitSassListing");

/// The 16 AdvancedPhase hooks (docs/MODEL.md, AdvancedPhase hooks), in index order.
pub const HOOKS: [u16; 16] = [
    4, 7, 47, 77, 82, 89, 92, 97, 101, 104, 106, 111, 115, 127, 134, 135,
];

/// The phases that may change the code before the control codes are
/// computed: everything the default order runs before AssignScoreboards
/// (0..=115 with the late-cleanup rows 132..=138 interleaved, and the
/// ORI/scheduling/allocation rows 139..=150).
pub const CODE_PHASES: &[u16] = &{
    let mut a = [0u16; 116 + 19];
    let mut i = 0;
    while i < 116 {
        a[i] = i as u16;
        i += 1;
    }
    while i < 116 + 19 {
        a[i] = (i - 116 + 132) as u16;
        i += 1;
    }
    a
};

/// The phases that must see target code only (every opcode one the
/// target has): every phase after ConvertUnsupportedOps in the table,
/// 6..=157, which its `target-code` constraint keeps after it. Phases
/// 0..=4 (the verifier, two inert rows, AnalyzeControlFlow, the hook
/// before the conversion) may see the lowering's target-independent code.
pub const TARGET_CODE_PHASES: &[u16] = &{
    let mut a = [0u16; 152];
    let mut i = 0;
    while i < 152 {
        a[i] = (i + 6) as u16;
        i += 1;
    }
    a
};

const fn c(name: &'static str, rule: Rule) -> Constraint {
    Constraint { name, rule }
}

const fn row(
    index: u16,
    name: &'static str,
    group: Group,
    kind: Kind,
    creates_vregs: bool,
    constraints: &'static [Constraint],
) -> PhaseRow {
    PhaseRow {
        index,
        name,
        group,
        kind,
        creates_vregs,
        constraints,
    }
}

/// The table, indexed by phase index (one row per line: index, name,
/// group, kind, creates virtual registers, constraints).
pub static PHASES: [PhaseRow; PHASE_COUNT] = ROWS;

/// [`PHASES`] as a constant, for [`index_of`] at compile time.
#[rustfmt::skip]
const ROWS: [PhaseRow; PHASE_COUNT] = [
    row(0, "OriCheckInitialProgram", Group::InitialSetup, Kind::Real(Impl::CheckInitialProgram), false, &[c("verify-first", Rule::First), c("required", Rule::Required)]),
    row(1, "ApplyNvOptRecipes", Group::InitialSetup, Kind::Inert, false, &[]),
    row(2, "PromoteFP16", Group::InitialSetup, Kind::Inert, false, &[]),
    row(3, "AnalyzeControlFlow", Group::InitialSetup, Kind::Real(Impl::AnalyzeControlFlow), false, &[]),
    row(4, "AdvancedPhaseBeforeConvUnSup", Group::InitialSetup, Kind::Hook, false, &[c("hook-position", Rule::Before(&[5]))]),
    row(5, "ConvertUnsupportedOps", Group::InitialSetup, Kind::Real(Impl::ConvertUnsupportedOps), true, &[c("required", Rule::Required), c("target-code", Rule::Precedes(TARGET_CODE_PHASES))]),
    row(6, "SetControlFlowOpLastInBB", Group::InitialSetup, Kind::Inert, false, &[c("cfg-analysis-first", Rule::After(&[3]))]),
    row(7, "AdvancedPhaseAfterConvUnSup", Group::InitialSetup, Kind::Hook, false, &[c("hook-position", Rule::After(&[5]))]),
    row(8, "OriCreateMacroInsts", Group::InitialSetup, Kind::Inert, true, &[]),
    row(9, "ReportInitialRepresentation", Group::InitialSetup, Kind::Inert, false, &[]),
    row(10, "EarlyOriSimpleLiveDead", Group::InitialSetup, Kind::Real(Impl::LiveDead(DeadCodeRounds::ByLevel)), false, &[]),
    row(11, "ReplaceUniformsWithImm", Group::InitialSetup, Kind::Inert, false, &[]),
    row(12, "OriSanitize", Group::InitialSetup, Kind::Inert, false, &[]),
    row(13, "GeneralOptimizeEarly", Group::EarlyOptimization, Kind::Real(Impl::GeneralOptimize), false, &[]),
    row(14, "DoSwitchOptFirst", Group::EarlyOptimization, Kind::Inert, false, &[c("cfg-analysis-first", Rule::After(&[3]))]),
    row(15, "OriBranchOpt", Group::EarlyOptimization, Kind::Real(Impl::OriBranchOpt), false, &[c("cfg-analysis-first", Rule::After(&[3]))]),
    row(16, "OriPerformLiveDeadFirst", Group::EarlyOptimization, Kind::Real(Impl::LiveDead(DeadCodeRounds::ByLevel)), false, &[]),
    row(17, "OptimizeBindlessHeaderLoads", Group::EarlyOptimization, Kind::Inert, false, &[]),
    row(18, "OriLoopSimplification", Group::EarlyOptimization, Kind::Real(Impl::LoopSimplification), false, &[c("cfg-analysis-first", Rule::After(&[3])), c("code-motion-before-scheduling", Rule::Before(&[147]))]),
    row(19, "OriSplitLiveRanges", Group::EarlyOptimization, Kind::Inert, true, &[]),
    row(20, "PerformPGO", Group::EarlyOptimization, Kind::Inert, false, &[]),
    row(21, "OriStrengthReduce", Group::EarlyOptimization, Kind::Real(Impl::StrengthReduce), true, &[c("code-motion-before-scheduling", Rule::Before(&[147]))]),
    row(22, "OriLoopUnrolling", Group::EarlyOptimization, Kind::Real(Impl::LoopUnrolling), true, &[c("cfg-analysis-first", Rule::After(&[3])), c("code-motion-before-scheduling", Rule::Before(&[147]))]),
    row(23, "GenerateMovPhi", Group::EarlyOptimization, Kind::Inert, true, &[]),
    row(24, "OriPipelining", Group::EarlyOptimization, Kind::Inert, true, &[]),
    row(25, "StageAndFence", Group::EarlyOptimization, Kind::Inert, false, &[]),
    row(26, "OriRemoveRedundantBarriers", Group::EarlyOptimization, Kind::Inert, false, &[]),
    row(27, "AnalyzeUniformsForSpeculation", Group::EarlyOptimization, Kind::Inert, false, &[]),
    row(28, "SinkRemat", Group::EarlyOptimization, Kind::Inert, true, &[]),
    row(29, "GeneralOptimize", Group::EarlyOptimization, Kind::Real(Impl::GeneralOptimize), false, &[c("numbered-passes", Rule::After(&[13]))]),
    row(30, "DoSwitchOptSecond", Group::EarlyOptimization, Kind::Inert, false, &[c("numbered-passes", Rule::After(&[14])), c("cfg-analysis-first", Rule::After(&[3]))]),
    row(31, "OriLinearReplacement", Group::EarlyOptimization, Kind::Inert, false, &[]),
    row(32, "CompactLocalMemory", Group::EarlyOptimization, Kind::Inert, false, &[]),
    row(33, "OriPerformLiveDeadSecond", Group::EarlyOptimization, Kind::Real(Impl::LiveDead(DeadCodeRounds::ByLevel)), false, &[c("numbered-passes", Rule::After(&[16]))]),
    row(34, "ExtractShaderConstsFirst", Group::EarlyOptimization, Kind::Inert, false, &[]),
    row(35, "OriHoistInvariantsEarly", Group::EarlyOptimization, Kind::Real(Impl::OriHoistInvariants { loads: false }), false, &[c("code-motion-before-scheduling", Rule::Before(&[147]))]),
    row(36, "EmitPSI", Group::EarlyOptimization, Kind::Inert, false, &[]),
    row(37, "GeneralOptimizeMid", Group::MidOptimization, Kind::Real(Impl::GeneralOptimize), false, &[c("numbered-passes", Rule::After(&[29]))]),
    row(38, "OptimizeNestedCondBranches", Group::MidOptimization, Kind::Inert, false, &[c("cfg-analysis-first", Rule::After(&[3]))]),
    row(39, "ConvertVTGReadWrite", Group::MidOptimization, Kind::Inert, false, &[]),
    row(40, "DoVirtualCTAExpansion", Group::MidOptimization, Kind::Inert, false, &[]),
    row(41, "MarkAdditionalColdBlocks", Group::MidOptimization, Kind::Inert, false, &[c("cfg-analysis-first", Rule::After(&[3]))]),
    row(42, "ExpandMbarrier", Group::MidOptimization, Kind::Inert, false, &[]),
    row(43, "ForwardProgress", Group::MidOptimization, Kind::Inert, false, &[]),
    row(44, "OptimizeUniformAtomic", Group::MidOptimization, Kind::Inert, false, &[]),
    row(45, "MidExpansion", Group::MidOptimization, Kind::Inert, true, &[]),
    row(46, "GeneralOptimizeMid2", Group::MidOptimization, Kind::Real(Impl::GeneralOptimize), false, &[c("numbered-passes", Rule::After(&[37]))]),
    row(47, "AdvancedPhaseEarlyEnforceArgs", Group::MidOptimization, Kind::Hook, false, &[c("hook-position", Rule::Before(&[48]))]),
    row(48, "EnforceArgumentRestrictions", Group::MidOptimization, Kind::Inert, false, &[]),
    row(49, "GvnCse", Group::MidOptimization, Kind::Real(Impl::GvnCse), true, &[]),
    row(50, "OriReassociateAndCommon", Group::MidOptimization, Kind::Real(Impl::OriReassociateAndCommon), false, &[]),
    row(51, "ExtractShaderConstsFinal", Group::MidOptimization, Kind::Inert, false, &[c("numbered-passes", Rule::After(&[34]))]),
    row(52, "OriReplaceEquivMultiDefMov", Group::MidOptimization, Kind::Inert, false, &[]),
    row(53, "OriPropagateVaryingFirst", Group::MidOptimization, Kind::Inert, false, &[]),
    row(54, "OriDoRematEarly", Group::MidOptimization, Kind::Inert, true, &[]),
    row(55, "LateExpansion", Group::MidOptimization, Kind::Inert, true, &[]),
    row(56, "SpeculativeHoistComInsts", Group::MidOptimization, Kind::Inert, false, &[]),
    row(57, "RemoveASTToDefaultValues", Group::MidOptimization, Kind::Inert, false, &[]),
    row(58, "GeneralOptimizeLate", Group::MidOptimization, Kind::Real(Impl::GeneralOptimize), false, &[c("numbered-passes", Rule::After(&[46]))]),
    row(59, "OriLoopFusion", Group::LateOptimization, Kind::Inert, false, &[]),
    row(60, "DoVTGMultiViewExpansion", Group::LateOptimization, Kind::Inert, false, &[]),
    row(61, "OriPerformLiveDeadThird", Group::LateOptimization, Kind::Real(Impl::LiveDead(DeadCodeRounds::ByLevel)), false, &[c("numbered-passes", Rule::After(&[33]))]),
    row(62, "OriRemoveRedundantMultiDefMov", Group::LateOptimization, Kind::Inert, false, &[]),
    row(63, "OriDoPredication", Group::LateOptimization, Kind::Real(Impl::Predication), false, &[c("code-motion-before-scheduling", Rule::Before(&[147]))]),
    row(64, "LateOriCommoning", Group::LateOptimization, Kind::Real(Impl::LateOriCommoning), false, &[]),
    row(65, "GeneralOptimizeLate2", Group::LateOptimization, Kind::Real(Impl::GeneralOptimize), false, &[c("numbered-passes", Rule::After(&[58]))]),
    row(66, "OriHoistInvariantsLate", Group::LateOptimization, Kind::Real(Impl::OriHoistInvariants { loads: true }), false, &[c("numbered-passes", Rule::After(&[35])), c("code-motion-before-scheduling", Rule::Before(&[147]))]),
    row(67, "DoKillMovement", Group::LateOptimization, Kind::Inert, false, &[]),
    row(68, "DoTexMovement", Group::LateOptimization, Kind::Inert, false, &[]),
    row(69, "OriDoRemat", Group::LateOptimization, Kind::Inert, true, &[c("numbered-passes", Rule::After(&[54]))]),
    row(70, "OriPropagateVaryingSecond", Group::LateOptimization, Kind::Inert, false, &[c("numbered-passes", Rule::After(&[53]))]),
    row(71, "OptimizeSyncInstructions", Group::LateOptimization, Kind::Inert, false, &[]),
    row(72, "LateExpandSyncInstructions", Group::LateOptimization, Kind::Inert, false, &[]),
    row(73, "ConvertAllMovPhiToMov", Group::LateOptimization, Kind::Inert, false, &[c("movphi-pairing", Rule::After(&[23]))]),
    row(74, "ConvertToUniformReg", Group::LateOptimization, Kind::Inert, false, &[]),
    row(75, "LateArchOptimizeFirst", Group::LateOptimization, Kind::Inert, false, &[]),
    row(76, "UpdateAfterOptimize", Group::LateOptimization, Kind::Inert, false, &[]),
    row(77, "AdvancedPhaseLateConvUnSup", Group::LateOptimization, Kind::Hook, false, &[c("hook-position", Rule::Before(&[78]))]),
    row(78, "LateExpansionUnsupportedOps", Group::LateOptimization, Kind::Inert, true, &[]),
    row(79, "OriHoistInvariantsLate2", Group::LateOptimization, Kind::Real(Impl::OriHoistInvariants { loads: true }), false, &[c("numbered-passes", Rule::After(&[66])), c("code-motion-before-scheduling", Rule::Before(&[147]))]),
    row(80, "ExpandJmxComputation", Group::LateOptimization, Kind::Inert, false, &[]),
    row(81, "LateArchOptimizeSecond", Group::LateOptimization, Kind::Inert, false, &[c("numbered-passes", Rule::After(&[75]))]),
    row(82, "AdvancedPhaseBackPropVReg", Group::LateOptimization, Kind::Hook, false, &[c("hook-position", Rule::Before(&[83]))]),
    row(83, "OriBackCopyPropagate", Group::LateOptimization, Kind::Real(Impl::OriBackCopyPropagate), false, &[]),
    row(84, "OriPerformLiveDeadFourth", Group::LateOptimization, Kind::Real(Impl::LiveDead(DeadCodeRounds::ByLevel)), false, &[c("numbered-passes", Rule::After(&[61]))]),
    row(85, "OriPropagateGmma", Group::LateOptimization, Kind::Inert, false, &[]),
    row(86, "InsertPseudoUseDefForConvUR", Group::LateOptimization, Kind::Inert, false, &[]),
    row(87, "FixupGmmaSequence", Group::LateOptimization, Kind::Inert, false, &[]),
    row(88, "OriHoistInvariantsLate3", Group::LateOptimization, Kind::Real(Impl::OriHoistInvariants { loads: true }), false, &[c("numbered-passes", Rule::After(&[79])), c("code-motion-before-scheduling", Rule::Before(&[147]))]),
    row(89, "AdvancedPhaseSetRegAttr", Group::LateOptimization, Kind::Hook, false, &[c("hook-position", Rule::Before(&[90]))]),
    row(90, "OriSetRegisterAttr", Group::LateOptimization, Kind::Inert, false, &[]),
    row(91, "OriCalcDependantTex", Group::LateOptimization, Kind::Inert, false, &[]),
    row(92, "AdvancedPhaseAfterSetRegAttr", Group::LateOptimization, Kind::Hook, false, &[c("hook-position", Rule::After(&[90]))]),
    row(93, "LateExpansionUnsupportedOps2", Group::LateOptimization, Kind::Inert, true, &[c("numbered-passes", Rule::After(&[78]))]),
    row(94, "FinalInspectionPass", Group::LateOptimization, Kind::Inert, false, &[]),
    row(95, "SetAfterLegalization", Group::LateOptimization, Kind::Inert, false, &[c("legalization", Rule::After(&[5, 45, 55, 78, 93, 132, 137]))]),
    row(96, "ReportBeforeScheduling", Group::SchedulingAndRegAlloc, Kind::Inert, false, &[]),
    row(97, "AdvancedPhasePreSched", Group::SchedulingAndRegAlloc, Kind::Hook, false, &[c("hook-position", Rule::Before(&[147]))]),
    row(98, "BackPropagateVEC2D", Group::SchedulingAndRegAlloc, Kind::Inert, false, &[]),
    row(99, "OriDoSyncronization", Group::SchedulingAndRegAlloc, Kind::Inert, false, &[]),
    row(100, "ApplyPostSyncronizationWars", Group::SchedulingAndRegAlloc, Kind::Inert, false, &[]),
    row(101, "AdvancedPhaseAllocReg", Group::SchedulingAndRegAlloc, Kind::Hook, false, &[c("hook-position", Rule::Before(&[148]))]),
    row(102, "ReportAfterRegisterAllocation", Group::SchedulingAndRegAlloc, Kind::Inert, false, &[c("post-regalloc", Rule::After(&[148]))]),
    row(103, "Get64bRegComponents", Group::SchedulingAndRegAlloc, Kind::Inert, false, &[c("post-regalloc", Rule::After(&[148]))]),
    row(104, "AdvancedPhasePostExpansion", Group::SchedulingAndRegAlloc, Kind::Hook, false, &[c("hook-position", Rule::After(&[103]))]),
    row(105, "ApplyPostRegAllocWars", Group::SchedulingAndRegAlloc, Kind::Inert, false, &[c("post-regalloc", Rule::After(&[148]))]),
    row(106, "AdvancedPhasePostSched", Group::PostScheduleAndCodegen, Kind::Hook, false, &[c("hook-position", Rule::After(&[147]))]),
    row(107, "OriRemoveNopCode", Group::PostScheduleAndCodegen, Kind::Real(Impl::OriRemoveNopCode), false, &[]),
    row(108, "OptimizeHotColdInLoop", Group::PostScheduleAndCodegen, Kind::Inert, false, &[c("cfg-analysis-first", Rule::After(&[3]))]),
    row(109, "OptimizeHotColdFlow", Group::PostScheduleAndCodegen, Kind::Inert, false, &[c("cfg-analysis-first", Rule::After(&[3]))]),
    row(110, "PostSchedule", Group::PostScheduleAndCodegen, Kind::Inert, false, &[]),
    row(111, "AdvancedPhasePostFixUp", Group::PostScheduleAndCodegen, Kind::Hook, false, &[c("hook-position", Rule::After(&[110]))]),
    row(112, "PlaceBlocksInSourceOrder", Group::PostScheduleAndCodegen, Kind::Real(Impl::PlaceBlocksInSourceOrder), false, &[c("cfg-analysis-first", Rule::After(&[3]))]),
    row(113, "PostFixForMercTargets", Group::PostScheduleAndCodegen, Kind::Inert, false, &[]),
    row(114, "FixUpTexDepBarAndSync", Group::PostScheduleAndCodegen, Kind::Inert, false, &[c("mercury-sequence", Rule::After(&[113]))]),
    row(115, "AdvancedScoreboardsAndOpexes", Group::PostScheduleAndCodegen, Kind::Hook, false, &[c("hook-position", Rule::Before(&[116]))]),
    row(116, "ProcessO0WaitsAndSBs", Group::PostScheduleAndCodegen, Kind::Inert, false, &[c("mercury-sequence", Rule::After(&[114]))]),
    row(117, "MercEncodeAndDecode", Group::PostScheduleAndCodegen, Kind::Inert, false, &[c("mercury-sequence", Rule::After(&[116]))]),
    row(118, "MercExpandInstructions", Group::PostScheduleAndCodegen, Kind::Inert, false, &[c("mercury-sequence", Rule::After(&[117]))]),
    row(119, "MercGenerateWARs1", Group::PostScheduleAndCodegen, Kind::Inert, false, &[c("mercury-sequence", Rule::After(&[118]))]),
    row(120, "MercGenerateOpex", Group::PostScheduleAndCodegen, Kind::Inert, false, &[c("mercury-sequence", Rule::After(&[119]))]),
    row(121, "MercGenerateWARs2", Group::PostScheduleAndCodegen, Kind::Inert, false, &[c("numbered-passes", Rule::After(&[119])), c("mercury-sequence", Rule::After(&[120]))]),
    row(122, "MercGenerateSassUCode", Group::PostScheduleAndCodegen, Kind::Inert, false, &[c("mercury-sequence", Rule::After(&[121]))]),
    row(123, "ComputeVCallRegUse", Group::PostScheduleAndCodegen, Kind::Inert, false, &[]),
    row(124, "CalcRegisterMap", Group::PostScheduleAndCodegen, Kind::Inert, false, &[c("post-regalloc", Rule::After(&[148]))]),
    row(125, "UpdateAfterPostRegAlloc", Group::PostScheduleAndCodegen, Kind::Inert, false, &[c("post-regalloc", Rule::After(&[148]))]),
    row(126, "ReportFinalMemoryUsage", Group::PostScheduleAndCodegen, Kind::Inert, false, &[]),
    row(127, "AdvancedPhaseOriPhaseEncoding", Group::PostScheduleAndCodegen, Kind::Hook, false, &[c("hook-position", Rule::Before(&[122]))]),
    row(128, "UpdateAfterFormatCodeList", Group::PostScheduleAndCodegen, Kind::Inert, false, &[]),
    row(129, "DumpNVuCodeText", Group::PostScheduleAndCodegen, Kind::Inert, false, &[]),
    row(130, "DumpNVuCodeHex", Group::PostScheduleAndCodegen, Kind::Inert, false, &[]),
    row(131, "DebuggerBreak", Group::PostScheduleAndCodegen, Kind::Inert, false, &[]),
    row(132, "UpdateAfterConvertUnsupportedOps", Group::LateCleanup, Kind::Inert, false, &[c("late-conversion", Rule::After(&[78]))]),
    row(133, "MergeEquivalentConditionalFlow", Group::LateCleanup, Kind::Inert, false, &[c("cfg-analysis-first", Rule::After(&[3]))]),
    row(134, "AdvancedPhaseAfterMidExpansion", Group::LateCleanup, Kind::Hook, false, &[c("hook-position", Rule::After(&[45]))]),
    row(135, "AdvancedPhaseLateExpandSyncInstructions", Group::LateCleanup, Kind::Hook, false, &[c("hook-position", Rule::After(&[72]))]),
    row(136, "LateMergeEquivalentConditionalFlow", Group::LateCleanup, Kind::Inert, false, &[c("cfg-analysis-first", Rule::After(&[3]))]),
    row(137, "LateExpansionUnsupportedOpsMid", Group::LateCleanup, Kind::Inert, true, &[c("late-conversion", Rule::After(&[78]))]),
    row(138, "OriSplitHighPressureLiveRanges", Group::LateCleanup, Kind::Inert, true, &[]),
    row(139, "OriRunNamedPhases", Group::ArchSpecific, Kind::OriManager, true, &[]),
    row(140, "OriSwapOperands", Group::ArchSpecific, Kind::Inert, false, &[]),
    row(141, "OriLocalCopyForward", Group::ArchSpecific, Kind::Inert, false, &[]),
    row(142, "OriDeadCodeScan", Group::ArchSpecific, Kind::Real(Impl::LiveDead(DeadCodeRounds::AtMostOne)), false, &[]),
    row(143, "OriPerformLiveDead", Group::ArchSpecific, Kind::Real(Impl::LiveDead(DeadCodeRounds::ByLevel)), false, &[]),
    row(144, "OriCopyProp", Group::ArchSpecific, Kind::Real(Impl::OriCopyProp), false, &[]),
    row(145, "OptimizeNaNOrZero", Group::ArchSpecific, Kind::Real(Impl::OptimizeNaNOrZero), false, &[c("scheduling", Rule::Before(&[147]))]),
    row(146, "HoistInvariants", Group::ArchSpecific, Kind::Real(Impl::HoistInvariants), false, &[c("scheduling", Rule::After(&[147]))]),
    row(147, "ScheduleInstructions", Group::ArchSpecific, Kind::Real(Impl::ScheduleInstructions), false, &[c("scheduling", Rule::Before(&[151, 152, 153]))]),
    row(148, "AllocateRegisters", Group::ArchSpecific, Kind::Real(Impl::AllocateRegisters), false, &[c("regalloc-after-vreg-creators", Rule::AfterAllVregCreators), c("regalloc-after-movphi-removal", Rule::After(&[73]))]),
    row(149, "TexNodep", Group::ArchSpecific, Kind::Real(Impl::TexNodep), false, &[c("post-regalloc", Rule::After(&[148]))]),
    row(150, "SpillToLocalMemory", Group::ArchSpecific, Kind::Inert, false, &[c("post-regalloc", Rule::After(&[148]))]),
    row(151, "AssignScoreboards", Group::ArchSpecific, Kind::Real(Impl::AssignScoreboards), false, &[c("post-regalloc", Rule::After(&[148])), c("control-codes", Rule::After(CODE_PHASES))]),
    row(152, "ComputeStallCounts", Group::ArchSpecific, Kind::Real(Impl::ComputeStallCounts), false, &[c("post-regalloc", Rule::After(&[148])), c("control-codes", Rule::After(CODE_PHASES))]),
    row(153, "SetReuseFlags", Group::ArchSpecific, Kind::Real(Impl::SetReuseFlags), false, &[c("post-regalloc", Rule::After(&[148])), c("control-codes", Rule::After(CODE_PHASES))]),
    row(154, "VerifyAllocatedProgram", Group::ArchSpecific, Kind::Real(Impl::VerifyAllocatedProgram), false, &[c("post-regalloc", Rule::After(&[148]))]),
    row(155, "ComputeResourceUsage", Group::ArchSpecific, Kind::Real(Impl::ComputeResourceUsage), false, &[c("post-regalloc", Rule::After(&[148, 154]))]),
    row(156, "PadFunctionEnd", Group::ArchSpecific, Kind::Inert, false, &[]),
    row(157, "EmitSassListing", Group::ArchSpecific, Kind::Real(Impl::EmitSassListing), false, &[c("emission-last", Rule::Last), c("required", Rule::Required)]),
    row(158, "Nop", Group::Sentinel, Kind::Sentinel, false, &[]),
];

/// The default index array: every phase but the ORI sub-passes (140..=144,
/// which run inside the ORI sequence of phase 139) and the sentinel, in
/// ptxas's index order except where a phase's insertion context puts it
/// elsewhere: the hooks 134/135 after the expansions they follow, the late
/// cleanup phases 132..=138 at their points in the late pipeline, the ORI
/// manager after legalization, scheduling (145..=147) after the
/// pre-scheduling hook, register allocation (148) at the AllocReg hook with
/// the post-allocation phases after it, and emission last.
pub static DEFAULT_ORDER: &[u16] = &[
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 133, 39, 40, 41, 42, 43, 44, 45, 134, 46,
    47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70,
    71, 72, 135, 73, 74, 75, 76, 77, 78, 132, 137, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90,
    91, 92, 93, 136, 138, 94, 95, 139, 96, 97, 145, 147, 146, 98, 99, 100, 101, 148, 150, 102, 103,
    104, 105, 149, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 151, 152, 116, 117, 118, 119,
    120, 121, 153, 127, 122, 123, 124, 125, 126, 128, 129, 130, 131, 154, 155, 156, 157,
];

/// The row of `index`, if there is one.
pub fn row_of(index: u16) -> Option<&'static PhaseRow> {
    PHASES.get(usize::from(index))
}

/// The name of `index` (`"?"` past the table).
pub fn name_of(index: u16) -> &'static str {
    row_of(index).map_or("?", |r| r.name)
}

fn sorted_names() -> &'static [(&'static str, u16)] {
    static SORTED: std::sync::OnceLock<Vec<(&'static str, u16)>> = std::sync::OnceLock::new();
    SORTED.get_or_init(|| {
        let mut v: Vec<(&'static str, u16)> = PHASES.iter().map(|r| (r.name, r.index)).collect();
        v.sort_by(|a, b| cmp_ignore_case(a.0, b.0));
        v
    })
}

fn cmp_ignore_case(a: &str, b: &str) -> std::cmp::Ordering {
    a.bytes()
        .map(|c| c.to_ascii_lowercase())
        .cmp(b.bytes().map(|c| c.to_ascii_lowercase()))
}

/// ptxas's name lookup (docs/MODEL.md, PhaseManager): the index of a phase name, case-insensitively,
/// by binary search over the names sorted case-insensitively; 158 (the NOP
/// sentinel) for an unknown name.
pub fn lookup(name: &str) -> u16 {
    let t = sorted_names();
    let (mut lo, mut hi) = (0isize, t.len() as isize - 1);
    while lo <= hi {
        let mid = (lo + hi) / 2;
        match cmp_ignore_case(t[mid as usize].0, name) {
            std::cmp::Ordering::Equal => return t[mid as usize].1,
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid - 1,
        }
    }
    NOP
}

/// [`lookup`], but `None` for a name that is not in the table ("Nop"
/// itself resolves to 158).
pub fn find(name: &str) -> Option<u16> {
    let i = lookup(name);
    (i != NOP || name.eq_ignore_ascii_case(PHASES[usize::from(NOP)].name)).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ptxas's static phase name table, copied from its description (the independent
    /// source): index i holds the name at position i.
    const SEED_NAMES: [&str; 139] = [
        "OriCheckInitialProgram",
        "ApplyNvOptRecipes",
        "PromoteFP16",
        "AnalyzeControlFlow",
        "AdvancedPhaseBeforeConvUnSup",
        "ConvertUnsupportedOps",
        "SetControlFlowOpLastInBB",
        "AdvancedPhaseAfterConvUnSup",
        "OriCreateMacroInsts",
        "ReportInitialRepresentation",
        "EarlyOriSimpleLiveDead",
        "ReplaceUniformsWithImm",
        "OriSanitize",
        "GeneralOptimizeEarly",
        "DoSwitchOptFirst",
        "OriBranchOpt",
        "OriPerformLiveDeadFirst",
        "OptimizeBindlessHeaderLoads",
        "OriLoopSimplification",
        "OriSplitLiveRanges",
        "PerformPGO",
        "OriStrengthReduce",
        "OriLoopUnrolling",
        "GenerateMovPhi",
        "OriPipelining",
        "StageAndFence",
        "OriRemoveRedundantBarriers",
        "AnalyzeUniformsForSpeculation",
        "SinkRemat",
        "GeneralOptimize",
        "DoSwitchOptSecond",
        "OriLinearReplacement",
        "CompactLocalMemory",
        "OriPerformLiveDeadSecond",
        "ExtractShaderConstsFirst",
        "OriHoistInvariantsEarly",
        "EmitPSI",
        "GeneralOptimizeMid",
        "OptimizeNestedCondBranches",
        "ConvertVTGReadWrite",
        "DoVirtualCTAExpansion",
        "MarkAdditionalColdBlocks",
        "ExpandMbarrier",
        "ForwardProgress",
        "OptimizeUniformAtomic",
        "MidExpansion",
        "GeneralOptimizeMid2",
        "AdvancedPhaseEarlyEnforceArgs",
        "EnforceArgumentRestrictions",
        "GvnCse",
        "OriReassociateAndCommon",
        "ExtractShaderConstsFinal",
        "OriReplaceEquivMultiDefMov",
        "OriPropagateVaryingFirst",
        "OriDoRematEarly",
        "LateExpansion",
        "SpeculativeHoistComInsts",
        "RemoveASTToDefaultValues",
        "GeneralOptimizeLate",
        "OriLoopFusion",
        "DoVTGMultiViewExpansion",
        "OriPerformLiveDeadThird",
        "OriRemoveRedundantMultiDefMov",
        "OriDoPredication",
        "LateOriCommoning",
        "GeneralOptimizeLate2",
        "OriHoistInvariantsLate",
        "DoKillMovement",
        "DoTexMovement",
        "OriDoRemat",
        "OriPropagateVaryingSecond",
        "OptimizeSyncInstructions",
        "LateExpandSyncInstructions",
        "ConvertAllMovPhiToMov",
        "ConvertToUniformReg",
        "LateArchOptimizeFirst",
        "UpdateAfterOptimize",
        "AdvancedPhaseLateConvUnSup",
        "LateExpansionUnsupportedOps",
        "OriHoistInvariantsLate2",
        "ExpandJmxComputation",
        "LateArchOptimizeSecond",
        "AdvancedPhaseBackPropVReg",
        "OriBackCopyPropagate",
        "OriPerformLiveDeadFourth",
        "OriPropagateGmma",
        "InsertPseudoUseDefForConvUR",
        "FixupGmmaSequence",
        "OriHoistInvariantsLate3",
        "AdvancedPhaseSetRegAttr",
        "OriSetRegisterAttr",
        "OriCalcDependantTex",
        "AdvancedPhaseAfterSetRegAttr",
        "LateExpansionUnsupportedOps2",
        "FinalInspectionPass",
        "SetAfterLegalization",
        "ReportBeforeScheduling",
        "AdvancedPhasePreSched",
        "BackPropagateVEC2D",
        "OriDoSyncronization",
        "ApplyPostSyncronizationWars",
        "AdvancedPhaseAllocReg",
        "ReportAfterRegisterAllocation",
        "Get64bRegComponents",
        "AdvancedPhasePostExpansion",
        "ApplyPostRegAllocWars",
        "AdvancedPhasePostSched",
        "OriRemoveNopCode",
        "OptimizeHotColdInLoop",
        "OptimizeHotColdFlow",
        "PostSchedule",
        "AdvancedPhasePostFixUp",
        "PlaceBlocksInSourceOrder",
        "PostFixForMercTargets",
        "FixUpTexDepBarAndSync",
        "AdvancedScoreboardsAndOpexes",
        "ProcessO0WaitsAndSBs",
        "MercEncodeAndDecode",
        "MercExpandInstructions",
        "MercGenerateWARs1",
        "MercGenerateOpex",
        "MercGenerateWARs2",
        "MercGenerateSassUCode",
        "ComputeVCallRegUse",
        "CalcRegisterMap",
        "UpdateAfterPostRegAlloc",
        "ReportFinalMemoryUsage",
        "AdvancedPhaseOriPhaseEncoding",
        "UpdateAfterFormatCodeList",
        "DumpNVuCodeText",
        "DumpNVuCodeHex",
        "DebuggerBreak",
        "UpdateAfterConvertUnsupportedOps",
        "MergeEquivalentConditionalFlow",
        "AdvancedPhaseAfterMidExpansion",
        "AdvancedPhaseLateExpandSyncInstructions",
        "LateMergeEquivalentConditionalFlow",
        "LateExpansionUnsupportedOpsMid",
        "OriSplitHighPressureLiveRanges",
    ];

    #[test]
    fn the_table_has_159_rows_indexed_in_order() {
        assert_eq!(PHASES.len(), 159);
        for (i, r) in PHASES.iter().enumerate() {
            assert_eq!(usize::from(r.index), i);
        }
    }

    #[test]
    fn the_seed_names_are_at_the_seed_indices() {
        for (i, n) in SEED_NAMES.iter().enumerate() {
            assert_eq!(PHASES[i].name, *n, "index {i}");
        }
    }

    #[test]
    fn names_are_unique_case_insensitively() {
        let mut seen = std::collections::HashSet::new();
        for r in &PHASES {
            assert!(seen.insert(r.name.to_ascii_lowercase()), "{}", r.name);
        }
    }

    #[test]
    fn groups_follow_the_seed_ranges() {
        let g = |i: usize| PHASES[i].group;
        assert_eq!(g(0), Group::InitialSetup);
        assert_eq!(g(12), Group::InitialSetup);
        assert_eq!(g(13), Group::EarlyOptimization);
        assert_eq!(g(36), Group::EarlyOptimization);
        assert_eq!(g(37), Group::MidOptimization);
        assert_eq!(g(59), Group::LateOptimization);
        assert_eq!(g(96), Group::SchedulingAndRegAlloc);
        assert_eq!(g(106), Group::PostScheduleAndCodegen);
        assert_eq!(g(132), Group::LateCleanup);
        assert_eq!(g(139), Group::ArchSpecific);
        assert_eq!(g(157), Group::ArchSpecific);
        assert_eq!(g(158), Group::Sentinel);
    }

    #[test]
    fn the_hooks_are_the_seeds_sixteen() {
        let hooks: Vec<u16> = PHASES
            .iter()
            .filter(|r| r.kind == Kind::Hook)
            .map(|r| r.index)
            .collect();
        assert_eq!(hooks, HOOKS);
        for h in HOOKS {
            let n = PHASES[usize::from(h)].name;
            assert!(n.starts_with("AdvancedPhase") || n == "AdvancedScoreboardsAndOpexes");
        }
    }

    #[test]
    fn exactly_the_listed_phases_are_implemented() {
        let real: Vec<u16> = PHASES
            .iter()
            .filter(|r| r.implemented())
            .map(|r| r.index)
            .collect();
        assert_eq!(
            real,
            [
                0, 3, 5, 10, 13, 15, 16, 18, 21, 22, 29, 33, 35, 37, 46, 49, 50, 58, 61, 63, 64,
                65, 66, 79, 83, 84, 88, 107, 112, 139, 142, 143, 144, 145, 146, 147, 148, 149, 151,
                152, 153, 154, 155, 157
            ]
        );
        assert_eq!(PHASES[158].kind, Kind::Sentinel);
    }

    #[test]
    fn lookup_is_case_insensitive_and_unknown_is_158() {
        for r in &PHASES {
            assert_eq!(lookup(r.name), r.index);
            assert_eq!(lookup(&r.name.to_ascii_uppercase()), r.index);
            assert_eq!(lookup(&r.name.to_ascii_lowercase()), r.index);
        }
        assert_eq!(lookup("oriperformlivedeadfirst"), 16);
        assert_eq!(lookup("MERCGENERATESASSUCODE"), 122);
        assert_eq!(lookup("NoSuchPhase"), 158);
        assert_eq!(lookup(""), 158);
        assert_eq!(lookup("OriCheckInitialProgramX"), 158);
        assert_eq!(find("nosuch"), None);
        assert_eq!(find("nop"), Some(158));
        assert_eq!(find("gvncse"), Some(49));
    }

    #[test]
    fn index_of_finds_every_row_by_its_exact_name() {
        for r in &PHASES {
            assert_eq!(index_of(r.name), r.index);
        }
        // The named constants are rows of the table under those names.
        for (i, name) in [
            (NOP, "Nop"),
            (CHECK_INITIAL, "OriCheckInitialProgram"),
            (CONVERT_UNSUPPORTED, "ConvertUnsupportedOps"),
            (ORI_MANAGER, "OriRunNamedPhases"),
            (SCHEDULE_INSTRUCTIONS, "ScheduleInstructions"),
            (ALLOCATE_REGISTERS, "AllocateRegisters"),
            (EMIT, "EmitSassListing"),
        ] {
            assert_eq!(name_of(i), name);
        }
        assert_eq!(
            CONTROL_CODE_PHASES.map(name_of),
            ["AssignScoreboards", "ComputeStallCounts", "SetReuseFlags"]
        );
    }

    #[test]
    #[should_panic(expected = "no phase of that name")]
    fn index_of_refuses_a_name_not_in_the_table() {
        // Exact spelling only: the command line's lookup is the
        // case-insensitive one.
        index_of("emitsasslisting");
    }

    #[test]
    fn real_rows_name_their_implementation_and_only_they_do() {
        let families = [
            (Impl::GeneralOptimize, "GeneralOptimize"),
            (Impl::LiveDead(DeadCodeRounds::ByLevel), "LiveDead"),
            (
                Impl::OriHoistInvariants { loads: true },
                "OriHoistInvariantsLate",
            ),
        ];
        for (imp, prefix) in families {
            for r in PHASES.iter().filter(|r| r.kind == Kind::Real(imp)) {
                assert!(r.name.contains(prefix), "{}: {imp:?}", r.name);
            }
        }
        assert_eq!(
            PHASES[usize::from(index_of("OriHoistInvariantsEarly"))].kind,
            Kind::Real(Impl::OriHoistInvariants { loads: false })
        );
        assert_eq!(
            PHASES[usize::from(ORI_DEAD_CODE_SCAN)].kind,
            Kind::Real(Impl::LiveDead(DeadCodeRounds::AtMostOne))
        );
    }

    #[test]
    fn the_default_order_holds_every_phase_but_the_ori_subpasses_once() {
        let mut v = DEFAULT_ORDER.to_vec();
        v.sort_unstable();
        let want: Vec<u16> = (0..158).filter(|i| !(140..=144).contains(i)).collect();
        assert_eq!(v, want);
        assert_eq!(DEFAULT_ORDER[0], CHECK_INITIAL);
        assert_eq!(*DEFAULT_ORDER.last().unwrap(), EMIT);
    }
}
