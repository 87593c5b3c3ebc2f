//! Memory as SASS sees it: global (the launch buffers), per-CTA shared,
//! per-thread local and generic addresses.
//!
//! Decisions:
//! - Shared memory: a CTA's window is `[shared_base, shared_base + size)`
//!   where `shared_base` comes from the SM table (0x400 on sm_90) and
//!   `size` is the static shared size ([`super::SimInputs`], 48 KiB when
//!   unknown) plus the spec's `dynamic_shared_bytes`. The upper byte of an
//!   sm_90 shared address (the CTA's rank in its cluster, always 0 here) is
//!   part of the address: a non-zero one faults.
//! - Local memory: each thread owns [`LOCAL_BYTES`] bytes at local
//!   addresses `[0, LOCAL_BYTES)`; R1 (the stack pointer, `c[0x0][0x28]`)
//!   starts at the top. Anything outside faults. Contents start at zero
//!   (PTX leaves them undefined).
//! - A 32-bit word of a never-written register stored to local memory is
//!   not an error there: ptxas's callee-saved convention stores registers
//!   the caller may never have written (recursive `fact`, sm_80 -O3:
//!   `STL [R1+0x4], R17` on entry, `LDL R17, [R1+0x4]` before `RET`;
//!   corpus/regressions/recursion_then_shfl, oracle/tests/recursion_vendor).
//!   The word is marked undefined ([`CtaMem::local_undef`]) and a load of it
//!   leaves its destination lane never-written, so a later read of that
//!   register is still the UB it was (exec/mem.rs).
//! - Generic addresses use the PTX interpreter's 64-bit windows
//!   ([`crate::ptx_interp::memory::Windows`]): shared at
//!   `0x7f00_0000_0000 + address`, local at `0x7e00_0000_0000 + offset`,
//!   anything else is global. So generic pointers behave alike in both
//!   runners, except that on sm_90 a shared address, and so its generic
//!   address, is `shared_base` (0x400) above the interpreter's, as it is
//!   on the hardware (ptxas 11.8's sm_90 `cvta.shared` adds `SR_SWINLO` to
//!   the 0x400-based address; generic-atomic fallbacks take the low 24
//!   bits as the shared address): only a program that writes an address
//!   out can tell.
//! - Module `.global` variables ([`super::SimInputs::globals`]) are
//!   allocations of their own, placed by [`place_globals`] after the last
//!   buffer's guard gap, each with its own guard gap: accesses between or
//!   past them fault like accesses between buffers.
//! - Every access must be naturally aligned (`LDG.E.64` to 8 bytes,
//!   `.128` to 16): a misaligned one is the interpreter's UB
//!   [`crate::ptx_interp::UbKind::Misaligned`].

use crate::launch::{MemoryImage, BUFFER_ALIGN, GUARD_BYTES};
use crate::ptx_interp::memory::Windows;

/// Global memory during a run: the launch buffers (copied out of the
/// [`MemoryImage`] and back at the end) and the module's `.global`
/// variables, found by address with a one-entry cache. Guard gaps and
/// everything between allocations are unmapped.
pub struct GlobalMem {
    /// Allocations by address.
    bufs: Vec<Alloc>,
    last: std::cell::Cell<usize>,
}

struct Alloc {
    base: u64,
    data: Vec<u8>,
    name: String,
    /// A launch buffer (written back by [`GlobalMem::store_into`]), not a
    /// module variable.
    buffer: bool,
}

impl GlobalMem {
    pub fn new(img: &MemoryImage) -> GlobalMem {
        let bufs = img
            .layout()
            .buffers()
            .iter()
            .map(|b| Alloc {
                base: b.base,
                data: img.buffer(&b.name).unwrap_or(&[]).to_vec(),
                name: b.name.clone(),
                buffer: true,
            })
            .collect();
        GlobalMem {
            bufs,
            last: std::cell::Cell::new(0),
        }
    }

    /// Maps a module variable's bytes at `base`; refuses an overlap with
    /// any allocation.
    pub fn add_variable(&mut self, base: u64, data: Vec<u8>, name: &str) -> Result<(), String> {
        let end = base
            .checked_add(data.len() as u64)
            .ok_or_else(|| format!("module variable '{name}' at {base:#x} wraps around"))?;
        if let Some(o) = self
            .bufs
            .iter()
            .find(|b| base < b.base + b.data.len() as u64 && b.base < end)
        {
            return Err(format!(
                "module variable '{name}' at {base:#x} overlaps '{}' at {:#x}",
                o.name, o.base
            ));
        }
        let i = self.bufs.partition_point(|b| b.base <= base);
        self.bufs.insert(
            i,
            Alloc {
                base,
                data,
                name: name.to_string(),
                buffer: false,
            },
        );
        Ok(())
    }

    /// The allocation and offset holding all of `[a, a + n)`.
    #[inline]
    pub fn locate(&self, a: u64, n: u64) -> Option<(usize, usize)> {
        let hit = |i: usize| {
            let b = &self.bufs[i];
            let off = a.checked_sub(b.base)?;
            (off.checked_add(n)? <= b.data.len() as u64).then_some((i, off as usize))
        };
        let l = self.last.get();
        if l < self.bufs.len() {
            if let Some(r) = hit(l) {
                return Some(r);
            }
        }
        let i = self.bufs.partition_point(|b| b.base <= a).checked_sub(1)?;
        let r = hit(i)?;
        self.last.set(i);
        Some(r)
    }

    #[inline]
    pub fn bytes_mut(&mut self, buf: usize, off: usize, n: usize) -> &mut [u8] {
        &mut self.bufs[buf].data[off..off + n]
    }

    /// The current bytes of the module variable `name`.
    pub fn variable(&self, name: &str) -> Option<&[u8]> {
        self.bufs
            .iter()
            .find(|b| !b.buffer && b.name == name)
            .map(|b| b.data.as_slice())
    }

    /// Writes the buffers back into the image (module variables are not
    /// outputs).
    pub fn store_into(&self, img: &mut MemoryImage) {
        for b in self.bufs.iter().filter(|b| b.buffer) {
            if let Some(d) = img.buffer_mut(&b.name) {
                d.copy_from_slice(&b.data);
            }
        }
    }
}

/// Alignment and guard gap of each module variable: the launch buffers'.
const VAR_ALIGN: u64 = BUFFER_ALIGN;
const VAR_GUARD: u64 = GUARD_BYTES;

/// Addresses of the module's `.global` variables, in order. Decision: the
/// first is where the PTX interpreter puts its module variables (the end
/// of the buffers' layout, rounded up to 256, plus 256; `ptx_interp::run`),
/// each at a multiple of 256 (or of its alignment, if larger) and followed
/// by a 256-byte guard gap, so no variable touches a buffer or another
/// variable. Fails when a variable's alignment is not a power of two.
pub fn place_globals(
    globals: &[ptxc::targets::abi::GlobalVar],
    layout_end: u64,
) -> Result<Vec<u64>, String> {
    let mut cursor = layout_end.div_ceil(VAR_ALIGN) * VAR_ALIGN + VAR_GUARD;
    let mut out = Vec::with_capacity(globals.len());
    for g in globals {
        if !g.align.is_power_of_two() {
            return Err(format!(
                "module variable '{}': alignment {} is not a power of two",
                g.name, g.align
            ));
        }
        let a = VAR_ALIGN.max(u64::from(g.align));
        let base = cursor.div_ceil(a) * a;
        out.push(base);
        cursor = base + u64::from(g.size) + VAR_GUARD;
    }
    Ok(out)
}

/// A module variable's initial bytes: `init`, zero-filled to `size` (an
/// empty `init` is a zero-initialised variable). Longer `init` is refused.
pub fn global_bytes(g: &ptxc::targets::abi::GlobalVar) -> Result<Vec<u8>, String> {
    if g.init.len() > g.size as usize {
        return Err(format!(
            "module variable '{}': {} bytes of initial data for {} bytes",
            g.name,
            g.init.len(),
            g.size
        ));
    }
    let mut b = g.init.clone();
    b.resize(g.size as usize, 0);
    Ok(b)
}

/// Local memory per thread: the hardware's 512 KiB (launch/limits.rs),
/// so that a frame the interpreter runs fits here too. Grown on use
/// ([`CtaMem::local_bytes`]): a thread pays for what it touches.
pub const LOCAL_BYTES: u32 = crate::launch::limits::LOCAL_BYTES_PER_THREAD as u32;

/// Shared and local memory of the CTA being run.
pub struct CtaMem {
    pub shared: Vec<u8>,
    pub shared_base: u32,
    /// Per thread of the CTA (linear thread index): the top of its local
    /// window, grown on use ([`CtaMem::local_bytes`]).
    pub local: Vec<Vec<u8>>,
    /// Per thread: the local offsets of the 4-byte words holding a
    /// never-written register's value (module comment).
    pub local_undef: Vec<rustc_hash::FxHashSet<usize>>,
}

/// Which memory an access resolved to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Buffer index and offset in [`GlobalMem`].
    Global(usize, usize),
    Shared(usize),
    Local(usize),
}

impl CtaMem {
    pub fn new(shared_bytes: usize, shared_base: u32, threads: usize) -> CtaMem {
        CtaMem {
            shared: vec![0; shared_bytes],
            shared_base,
            local: vec![Vec::new(); threads],
            local_undef: vec![Default::default(); threads],
        }
    }

    /// Shared offset of address `a` for `n` bytes, if inside the window.
    #[inline]
    pub fn shared_off(&self, a: u64, n: u64) -> Option<usize> {
        let off = a.checked_sub(u64::from(self.shared_base))?;
        (off.checked_add(n)? <= self.shared.len() as u64).then_some(off as usize)
    }

    #[inline]
    pub fn local_off(a: u64, n: u64) -> Option<usize> {
        (a.checked_add(n)? <= u64::from(LOCAL_BYTES)).then_some(a as usize)
    }

    /// The `n` bytes of `thread`'s local memory at offset `o` (inside the
    /// window: [`CtaMem::local_off`]). A thread's vector holds the top of
    /// its window, `[LOCAL_BYTES - len, LOCAL_BYTES)`, grown on demand in
    /// 1 KiB steps: the stack grows down from the top (R1 starts at
    /// `LOCAL_BYTES`), so most threads touch a few hundred bytes and
    /// zero-filling the whole window on first use cost more than the run.
    /// Bytes never written read as zero either way.
    pub fn local_bytes(&mut self, thread: usize, o: usize, n: usize) -> &mut [u8] {
        const STEP: usize = 1024;
        let top = LOCAL_BYTES as usize;
        let l = &mut self.local[thread];
        let need = top - o;
        if l.len() < need {
            let len = need.div_ceil(STEP).saturating_mul(STEP).min(top);
            let mut grown = vec![0u8; len];
            grown[len - l.len()..].copy_from_slice(l);
            *l = grown;
        }
        let start = o - (top - l.len());
        &mut l[start..start + n]
    }
}

/// Resolves a generic address (see the module comment); `addr32`: the
/// module's 32-bit windows.
#[inline]
pub fn resolve_generic(a: u64, addr32: bool) -> (u8, u64) {
    let w = Windows::new(!addr32);
    if a >= w.shared && a - w.shared < w.span {
        (b's', a - w.shared)
    } else if a >= w.local && a - w.local < w.span {
        (b'l', a - w.local)
    } else {
        (b'g', a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_bytes_grow_down_and_keep_what_was_written() {
        let top = LOCAL_BYTES as usize;
        let mut m = CtaMem::new(0, 0, 2);
        m.local_bytes(0, top - 8, 4).copy_from_slice(&[1, 2, 3, 4]);
        assert_eq!(m.local[0].len(), 1024, "first use takes one step");
        // A store far below the top grows the vector; the old bytes stay
        // at their offsets and the new ones read as zero.
        m.local_bytes(0, 16, 4).copy_from_slice(&[9, 9, 9, 9]);
        assert_eq!(m.local[0].len(), top);
        assert_eq!(m.local_bytes(0, top - 8, 4), &[1, 2, 3, 4]);
        assert_eq!(m.local_bytes(0, 16, 4), &[9, 9, 9, 9]);
        assert_eq!(m.local_bytes(0, 1000, 8), &[0; 8]);
        assert_eq!(m.local_bytes(0, top - 4, 4), &[0; 4]);
        // Threads are separate.
        assert_eq!(m.local_bytes(1, top - 8, 4), &[0; 4]);
        assert_eq!(m.local_bytes(1, 0, 1), &[0]);
    }
}
