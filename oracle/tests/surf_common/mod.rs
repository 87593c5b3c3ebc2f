//! What the surface tests (lower_surface.rs, lower_surf_array.rs,
//! lower_sust_p.rs) share: the kernel that walks the item buffer, the
//! `.bN x vK` shapes, and the JSON spelling of element bits.
#![allow(dead_code)]

/// A kernel over surfaces `sa`, `sb`: each lane walks the items (`crd`,
/// 16 bytes each, read into `%r10..%r13`) from `%tid.x` in steps of
/// `%ntid.x` until `n`, running `pick` (the handle choice, into `%rd6`)
/// and `body` (the access) per item; `val` and `out` are in `%rd4`, `%rd5`.
pub fn loop_kernel(pick: &str, body: &str) -> String {
    format!(
        r#".version 7.8
.target sm_80
.address_size 64
.visible .entry k(.param .u64 sa, .param .u64 sb, .param .u64 crd, .param .u64 val, .param .u64 out, .param .u32 n)
{{
.reg .b32 %r<40>;
.reg .b64 %rd<40>;
.reg .b16 %h<40>;
.reg .pred %p<4>;
ld.param.u64 %rd1, [sa];
ld.param.u64 %rd2, [sb];
ld.param.u64 %rd3, [crd];
ld.param.u64 %rd4, [val];
ld.param.u64 %rd5, [out];
ld.param.u32 %r1, [n];
mov.u32 %r2, %tid.x;
mov.u32 %r3, %ntid.x;
LOOP:
setp.ge.u32 %p2, %r2, %r1;
@%p2 bra DONE;
{pick}mul.wide.u32 %rd7, %r2, 16;
add.s64 %rd8, %rd3, %rd7;
ld.global.v4.u32 {{%r10, %r11, %r12, %r13}}, [%rd8];
{body}add.u32 %r2, %r2, %r3;
bra LOOP;
DONE:
ret;
}}
"#
    )
}

/// The `.bN x vK` shapes the lowering takes (at most 16 bytes).
pub const SHAPES: [(u32, usize); 11] = [
    (8, 1),
    (8, 2),
    (8, 4),
    (16, 1),
    (16, 2),
    (16, 4),
    (32, 1),
    (32, 2),
    (32, 4),
    (64, 1),
    (64, 2),
];

/// Element bits as the launch spec's JSON hex strings.
pub fn bits_json(v: &[u64], bits: u32) -> String {
    let digits = (bits / 4) as usize;
    let items: Vec<String> = v.iter().map(|x| format!("\"0x{x:0digits$x}\"")).collect();
    format!("[{}]", items.join(", "))
}
