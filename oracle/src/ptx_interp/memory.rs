//! The interpreter's memory: global (the launch buffers plus module `.global`
//! variables), per-CTA shared, per-thread local (call frames), the constant
//! bank and the kernel parameter block; generic addresses map into them
//! through fixed windows.
//!
//! Generic windows (decision, documented for every runner): with 64-bit
//! addresses shared memory appears at `0x7f00_0000_0000`, local memory at
//! `0x7e00_0000_0000`, the constant bank at `0x7d00_0000_0000` and the kernel
//! parameters (`cvta.param`, PTX 7.7) at `0x7c00_0000_0000`; with 32-bit
//! addresses at `0xf000_0000`, `0xe000_0000`, `0xd000_0000` and `0xc000_0000`. Global
//! addresses are themselves (the launch places buffers from `0x1000_0000`).
//! Anything else is a fault.

use super::program::Space;
use crate::launch::MemoryImage;

#[derive(Clone, Copy, Debug)]
pub struct Windows {
    pub shared: u64,
    pub local: u64,
    pub konst: u64,
    pub param: u64,
    /// Size of each window.
    pub span: u64,
    /// log2 of the distance between consecutive windows: they lie at
    /// `param + i * stride` in the order param, const, local, shared.
    stride_log2: u32,
}

/// The spaces of the windows, in address order from `Windows::param`.
const WINDOW_SPACES: [Space; 4] = [
    Space::KernelParam,
    Space::Const,
    Space::Local,
    Space::Shared,
];

impl Windows {
    pub fn new(addr64: bool) -> Windows {
        if addr64 {
            Windows {
                shared: 0x7f00_0000_0000,
                local: 0x7e00_0000_0000,
                konst: 0x7d00_0000_0000,
                param: 0x7c00_0000_0000,
                span: 1 << 40,
                stride_log2: 40,
            }
        } else {
            Windows {
                shared: 0xf000_0000,
                local: 0xe000_0000,
                konst: 0xd000_0000,
                param: 0xc000_0000,
                span: 0x0800_0000,
                stride_log2: 28,
            }
        }
    }

    /// Resolves a generic address to (space, address in that space).
    #[inline]
    pub fn resolve(&self, addr: u64) -> (Space, u64) {
        // Every window lies at or above the parameter window's base.
        if addr < self.param {
            return (Space::Global, addr);
        }
        let d = addr - self.param;
        let (i, off) = (d >> self.stride_log2, d & ((1 << self.stride_log2) - 1));
        if i < 4 && off < self.span {
            (WINDOW_SPACES[i as usize], off)
        } else {
            (Space::Global, addr)
        }
    }

    /// `resolve` by a search of the windows (the reference it is tested
    /// against).
    #[cfg(test)]
    fn resolve_by_search(&self, addr: u64) -> (Space, u64) {
        if addr < self.param {
            return (Space::Global, addr);
        }
        for (base, space) in [
            (self.shared, Space::Shared),
            (self.local, Space::Local),
            (self.konst, Space::Const),
            (self.param, Space::KernelParam),
        ] {
            if addr >= base && addr - base < self.span {
                return (space, addr - base);
            }
        }
        (Space::Global, addr)
    }

    /// `cvta.space`: a space address to generic.
    pub fn to_generic(&self, space: Space, addr: u64) -> u64 {
        match space {
            Space::Shared => self.shared.wrapping_add(addr),
            Space::Local | Space::FrameParam => self.local.wrapping_add(addr),
            Space::Const => self.konst.wrapping_add(addr),
            Space::KernelParam => self.param.wrapping_add(addr),
            _ => addr,
        }
    }

    /// `cvta.to.space`: generic to a space address (no check: PTX leaves a
    /// wrong-space conversion undefined; the later access faults).
    pub fn from_generic(&self, space: Space, addr: u64) -> u64 {
        match space {
            Space::Shared => addr.wrapping_sub(self.shared),
            Space::Local | Space::FrameParam => addr.wrapping_sub(self.local),
            Space::Const => addr.wrapping_sub(self.konst),
            Space::KernelParam => addr.wrapping_sub(self.param),
            _ => addr,
        }
    }

    /// `isspacep.space`.
    pub fn is_space(&self, space: Space, addr: u64) -> bool {
        let (s, _) = self.resolve(addr);
        match space {
            Space::Local | Space::FrameParam => s == Space::Local,
            other => s == other,
        }
    }
}

/// Global memory: the launch image plus the module's `.global` variables,
/// seen as regions: the launch buffers in address order, then the variables.
pub struct GlobalMem {
    pub image: MemoryImage,
    pub vars_base: u64,
    pub vars: Vec<u8>,
    /// Each region's `[base, end)`.
    regions: Vec<(u64, u64)>,
    /// The region the last lookup found: accesses cluster, so it is tried
    /// first.
    last: usize,
}

impl GlobalMem {
    pub fn new(image: MemoryImage, vars_base: u64, vars: Vec<u8>) -> GlobalMem {
        let mut regions: Vec<(u64, u64)> = image
            .layout()
            .buffers()
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let len = b.size.min(image.buffer_bytes(i).len() as u64);
                (b.base, b.base + len)
            })
            .collect();
        regions.push((vars_base, vars_base + vars.len() as u64));
        GlobalMem {
            image,
            vars_base,
            vars,
            regions,
            last: 0,
        }
    }

    /// The size of each region.
    pub fn region_sizes(&self) -> impl Iterator<Item = usize> + '_ {
        self.regions.iter().map(|&(b, e)| (e - b) as usize)
    }

    /// The region holding all of `[addr, addr + n)` (`n >= 1`) and the offset
    /// of `addr` in it; None where an access is a fault.
    #[inline]
    pub fn locate(&mut self, addr: u64, n: u64) -> Option<(usize, usize)> {
        let end = addr.checked_add(n)?;
        let (b, e) = self.regions[self.last];
        if addr >= b && end <= e && n > 0 {
            return Some((self.last, (addr - b) as usize));
        }
        let r = self
            .regions
            .iter()
            .position(|&(b, e)| addr >= b && end <= e && n > 0)?;
        self.last = r;
        Some((r, (addr - self.regions[r].0) as usize))
    }

    /// The bytes of a region.
    #[inline]
    pub fn bytes(&self, region: usize) -> &[u8] {
        if region + 1 < self.regions.len() {
            self.image.buffer_bytes(region)
        } else {
            &self.vars
        }
    }

    #[inline]
    pub fn bytes_mut(&mut self, region: usize) -> &mut [u8] {
        if region + 1 < self.regions.len() {
            self.image.buffer_bytes_mut(region)
        } else {
            &mut self.vars
        }
    }
}

/// Reads `n` (1..=8) little-endian bytes.
#[inline]
pub fn load_le(bytes: &[u8]) -> u64 {
    match bytes.len() {
        1 => u64::from(bytes[0]),
        2 => u64::from(u16::from_le_bytes([bytes[0], bytes[1]])),
        4 => u64::from(u32::from_le_bytes(bytes.try_into().unwrap())),
        8 => u64::from_le_bytes(bytes.try_into().unwrap()),
        _ => bytes
            .iter()
            .enumerate()
            .fold(0, |v, (i, &b)| v | u64::from(b) << (8 * i)),
    }
}

#[inline]
pub fn store_le(dst: &mut [u8], v: u64) {
    match dst.len() {
        1 => dst[0] = v as u8,
        2 => dst.copy_from_slice(&(v as u16).to_le_bytes()),
        4 => dst.copy_from_slice(&(v as u32).to_le_bytes()),
        8 => dst.copy_from_slice(&v.to_le_bytes()),
        _ => {
            for (i, b) in dst.iter_mut().enumerate() {
                *b = (v >> (8 * i)) as u8;
            }
        }
    }
}

/// A byte range in a plain vector, or None (fault).
#[inline]
pub fn range(buf: &[u8], addr: u64, n: u64) -> Option<&[u8]> {
    let end = addr.checked_add(n)?;
    buf.get(addr as usize..end as usize)
}

#[inline]
pub fn range_mut(buf: &mut [u8], addr: u64, n: u64) -> Option<&mut [u8]> {
    let end = addr.checked_add(n)?;
    buf.get_mut(addr as usize..end as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_round_trip_and_classify() {
        for w in [Windows::new(true), Windows::new(false)] {
            for space in [
                Space::Shared,
                Space::Local,
                Space::Const,
                Space::KernelParam,
            ] {
                let g = w.to_generic(space, 0x40);
                assert_eq!(w.resolve(g), (space, 0x40));
                assert!(w.is_space(space, g));
                assert!(!w.is_space(Space::Global, g));
                assert_eq!(w.from_generic(space, g), 0x40);
            }
            assert_eq!(w.resolve(0x1000_0000), (Space::Global, 0x1000_0000));
            assert!(w.is_space(Space::Global, 0x1000_0000));
        }
    }

    #[test]
    fn resolve_matches_a_search_of_the_windows() {
        for w in [Windows::new(true), Windows::new(false)] {
            let bases = [w.param, w.konst, w.local, w.shared];
            for b in bases {
                for d in [0, 1, w.span - 1, w.span, w.span + 1, 2 * w.span] {
                    for a in [b.wrapping_sub(d), b.wrapping_add(d)] {
                        assert_eq!(w.resolve(a), w.resolve_by_search(a), "{a:#x}");
                    }
                }
            }
            for a in [0, u64::MAX, u64::MAX / 2, 0xffff_ffff, 0x1_0000_0000] {
                assert_eq!(w.resolve(a), w.resolve_by_search(a), "{a:#x}");
            }
        }
    }

    #[test]
    fn little_endian_helpers() {
        let mut b = [0u8; 4];
        store_le(&mut b, 0x1122_3344);
        assert_eq!(b, [0x44, 0x33, 0x22, 0x11]);
        assert_eq!(load_le(&b), 0x1122_3344);
        assert!(range(&b, 2, 4).is_none());
        assert!(range(&b, u64::MAX, 2).is_none());
    }
}
