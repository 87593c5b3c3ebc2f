//! What one launch may ask of the runners, checked the same way by the PTX
//! interpreter and the SASS simulator before anything is allocated: a
//! kernel over a limit does not set up (a clear error; the differential
//! engine's verdict is then "invalid program", run.rs), instead of the host
//! running out of memory.
//!
//! - Local memory: 512 KiB per thread, the hardware's limit (CUDA C++
//!   Programming Guide, "Technical Specifications per Compute Capability":
//!   "Maximum amount of local memory per thread: 512 KB", compute
//!   capability 5.0 to 9.0). ptxas 11.8 compiles a larger frame
//!   (`STACK:524304`, measured) that the driver then refuses to launch.
//!   The interpreter refuses an entry frame over it and faults on a call
//!   that would pass it; the simulator's local window is this size.
//! - Shared memory: the static and dynamic bytes of a CTA together at most
//!   the target's `max_shared_per_block` (the SM table: 227 KiB on sm_90
//!   with the opt-in carve-out); the interpreter, which has no target, the
//!   largest of any target.
//! - Module `.global` variables: 1 GiB in all. Decision, as for textures
//!   and surfaces (spec.rs): the runners hold them in host memory.

/// Local memory per thread, in bytes.
pub const LOCAL_BYTES_PER_THREAD: u64 = 512 * 1024;

/// All module `.global` variables together, in bytes.
pub const MODULE_VARIABLE_BYTES: u64 = 1 << 30;

/// The most shared memory any target gives a CTA (the interpreter's limit).
pub fn max_shared_any_target() -> u64 {
    ptxc::targets::SM_TABLE
        .iter()
        .map(|s| u64::from(s.max_shared_per_block))
        .max()
        .unwrap_or(0)
}

/// Err unless a CTA's `static_bytes + dynamic_bytes` of shared memory fit
/// `limit`.
pub fn check_shared(
    static_bytes: u64,
    dynamic_bytes: u32,
    limit: u64,
    what: &str,
) -> Result<(), String> {
    let total = static_bytes + u64::from(dynamic_bytes);
    if total > limit {
        return Err(format!(
            "the kernel needs {total} bytes of shared memory per CTA ({static_bytes} static, {dynamic_bytes} dynamic); {what} gives at most {limit}"
        ));
    }
    Ok(())
}

/// Err unless an entry's local frame fits a thread's local memory.
pub fn check_frame(frame_bytes: u64) -> Result<(), String> {
    if frame_bytes > LOCAL_BYTES_PER_THREAD {
        return Err(format!(
            "the kernel's local frame is {frame_bytes} bytes; a thread has at most {LOCAL_BYTES_PER_THREAD} bytes (512 KiB) of local memory"
        ));
    }
    Ok(())
}

/// Err unless module variables of `total` bytes fit.
pub fn check_module_variables(total: u64) -> Result<(), String> {
    if total > MODULE_VARIABLE_BYTES {
        return Err(format!(
            "the module's .global variables need {total} bytes; the runners hold at most {MODULE_VARIABLE_BYTES} (1 GiB)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_refuse_only_what_is_over() {
        assert!(check_frame(LOCAL_BYTES_PER_THREAD).is_ok());
        assert!(check_frame(LOCAL_BYTES_PER_THREAD + 1)
            .unwrap_err()
            .contains("512 KiB"));
        assert!(check_module_variables(MODULE_VARIABLE_BYTES).is_ok());
        assert!(check_module_variables(MODULE_VARIABLE_BYTES + 1).is_err());
        // sm_90's opt-in carve-out, 227 KiB (sm_table.rs), is the largest.
        assert_eq!(max_shared_any_target(), 227 * 1024);
        assert!(check_shared(1024, 226 * 1024, 227 * 1024, "x").is_ok());
        let e = check_shared(1024, 226 * 1024 + 1, 227 * 1024, "sm_90").unwrap_err();
        assert!(e.contains("1024 static") && e.contains("sm_90"), "{e}");
    }
}
