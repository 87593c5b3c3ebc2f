//! End-to-end semantics of the PTX interpreter (`oracle::ptx_interp::run`):
//! small PTX kernels whose expected outputs are computed independently of
//! the interpreter, from host arithmetic or from the PTX ISA text (the
//! reasoning is in a comment next to the value).
//!
//! Most tests are tables: one thread per row, each row with its inputs and
//! expected outputs (see `harness::table_errors`). A table reports every
//! mismatching row at once.
//!
//! Row counts: `cargo test -p oracle --test interp_semantics -- --test-threads=1 --nocapture 2>&1 | grep -o 'ROWS.*'`.

// Tables index outputs by thread id; negated float comparisons spell out
// the unordered PTX comparisons on purpose.
#![allow(
    clippy::needless_range_loop,
    clippy::type_complexity,
    clippy::neg_cmp_op_on_partial_ord,
    clippy::excessive_precision,
    clippy::vec_init_then_push,
    clippy::manual_is_multiple_of
)]

#[path = "interp_semantics/calls.rs"]
mod calls;
#[path = "interp_semantics/conv.rs"]
mod conv;
#[path = "interp_semantics/cvt_pack.rs"]
mod cvt_pack;
#[path = "interp_semantics/float.rs"]
mod float;
#[path = "interp_semantics/float_forms.rs"]
mod float_forms;
#[path = "interp_semantics/harness.rs"]
mod harness;
#[path = "interp_semantics/int_ops.rs"]
mod int_ops;
#[path = "interp_semantics/mem.rs"]
mod mem;
#[path = "interp_semantics/mem_shapes.rs"]
mod mem_shapes;
#[path = "interp_semantics/misc.rs"]
mod misc;
#[path = "interp_semantics/surface.rs"]
mod surface;
#[path = "interp_semantics/tex_array.rs"]
mod tex_array;
#[path = "interp_semantics/ub.rs"]
mod ub;
#[path = "interp_semantics/warp.rs"]
mod warp;
