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
//! - Generic addresses use the PTX interpreter's 64-bit windows
//!   ([`crate::ptx_interp::memory::Windows`]): shared at
//!   `0x7f00_0000_0000 + offset`, local at `0x7e00_0000_0000 + offset`,
//!   anything else is global. So generic pointers behave alike in both
//!   runners.
//! - Every access must be naturally aligned (`LDG.E.64` to 8 bytes,
//!   `.128` to 16): a misaligned one is the interpreter's UB
//!   [`crate::ptx_interp::UbKind::Misaligned`].

use crate::launch::MemoryImage;
use crate::ptx_interp::memory::Windows;

/// Global memory during a run: the launch buffers (copied out of the
/// [`MemoryImage`] and back at the end), found by address with a one-entry
/// cache. Guard gaps and everything between buffers are unmapped.
pub struct GlobalMem {
    /// (base, bytes, name), by address.
    bufs: Vec<(u64, Vec<u8>, String)>,
    last: std::cell::Cell<usize>,
}

impl GlobalMem {
    pub fn new(img: &MemoryImage) -> GlobalMem {
        let bufs = img
            .layout()
            .buffers()
            .iter()
            .map(|b| {
                (
                    b.base,
                    img.buffer(&b.name).unwrap_or(&[]).to_vec(),
                    b.name.clone(),
                )
            })
            .collect();
        GlobalMem {
            bufs,
            last: std::cell::Cell::new(0),
        }
    }

    /// The buffer and offset holding all of `[a, a + n)`.
    #[inline]
    pub fn locate(&self, a: u64, n: u64) -> Option<(usize, usize)> {
        let hit = |i: usize| {
            let (base, data, _) = &self.bufs[i];
            let off = a.checked_sub(*base)?;
            (off.checked_add(n)? <= data.len() as u64).then_some((i, off as usize))
        };
        let l = self.last.get();
        if l < self.bufs.len() {
            if let Some(r) = hit(l) {
                return Some(r);
            }
        }
        let i = self.bufs.partition_point(|b| b.0 <= a).checked_sub(1)?;
        let r = hit(i)?;
        self.last.set(i);
        Some(r)
    }

    #[inline]
    pub fn bytes_mut(&mut self, buf: usize, off: usize, n: usize) -> &mut [u8] {
        &mut self.bufs[buf].1[off..off + n]
    }

    /// Writes the buffers back into the image.
    pub fn store_into(&self, img: &mut MemoryImage) {
        for (_, data, name) in &self.bufs {
            if let Some(d) = img.buffer_mut(name) {
                d.copy_from_slice(data);
            }
        }
    }
}

/// Local memory per thread.
pub const LOCAL_BYTES: u32 = 16 * 1024;

/// Shared and local memory of the CTA being run.
pub struct CtaMem {
    pub shared: Vec<u8>,
    pub shared_base: u32,
    /// Per thread of the CTA (linear thread index), allocated on first use.
    pub local: Vec<Vec<u8>>,
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

    pub fn local_mut(&mut self, thread: usize) -> &mut Vec<u8> {
        let l = &mut self.local[thread];
        if l.is_empty() {
            l.resize(LOCAL_BYTES as usize, 0);
        }
        l
    }
}

/// Resolves a generic address (see the module comment).
#[inline]
pub fn resolve_generic(a: u64) -> (u8, u64) {
    let w = Windows::new(true);
    if a >= w.shared && a - w.shared < w.span {
        (b's', a - w.shared)
    } else if a >= w.local && a - w.local < w.span {
        (b'l', a - w.local)
    } else {
        (b'g', a)
    }
}
