//! Where buffers live in global memory, and their initial bytes.
//!
//! corpus/LAUNCH_SPEC.md, "Addresses": "Buffers are placed in global memory
//! starting at 0x10000000 (so a 32-bit module can reach them), each aligned
//! to 256 bytes and followed by a 256-byte guard gap, in the order in which
//! params first names them, then the rest in name order. An access outside
//! every buffer (the guard gap included) is a memory fault".

use super::error::{ErrorKind, LaunchError};
use super::expected::{extract_outputs, OutputSet};
use super::init::init_bytes;
use super::spec::{LaunchSpec, ParamValue};
use super::surface::SurfaceImage;
use super::types::ElemType;

/// The first buffer's address.
pub const GLOBAL_BASE: u64 = 0x1000_0000;
/// Every buffer starts at a multiple of this.
pub const BUFFER_ALIGN: u64 = 256;
/// Bytes after each buffer that belong to no buffer.
pub const GUARD_BYTES: u64 = 256;
/// Every buffer ends at or below this address (4 GiB), so that a module
/// with `.address_size 32` reaches all of them (Decision, from "so a 32-bit
/// module can reach them"); the reader refuses larger specs.
pub const GLOBAL_LIMIT: u64 = 0x1_0000_0000;

/// One buffer's place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferPlacement {
    pub name: String,
    pub ty: ElemType,
    pub len: u64,
    /// the first byte's address (a multiple of 256)
    pub base: u64,
    /// size in bytes (`len * element size`); the guard gap is not included
    pub size: u64,
}

impl BufferPlacement {
    /// One past the last byte.
    pub fn end(&self) -> u64 {
        self.base + self.size
    }

    /// Whether `[addr, addr + n)` lies inside this buffer (see
    /// [`GlobalLayout::locate`] for `n == 0`).
    pub fn contains(&self, addr: u64, n: u64) -> bool {
        match addr.checked_add(n) {
            Some(end) => addr >= self.base && end <= self.end() && (n > 0 || addr < self.end()),
            None => false,
        }
    }
}

/// The placement of every buffer of a spec, in address order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalLayout {
    buffers: Vec<BufferPlacement>,
    end: u64,
}

fn align_up(x: u64, a: u64) -> u64 {
    x.div_ceil(a).saturating_mul(a)
}

impl GlobalLayout {
    /// Places the spec's buffers. Fails only for a spec built in code that
    /// the reader would refuse (duplicate names, more than 4 GiB).
    pub fn new(spec: &LaunchSpec) -> Result<GlobalLayout, LaunchError> {
        let invalid = |m: String| {
            LaunchError::new(ErrorKind::Invalid, "buffers", m).with_file(spec.file.as_deref())
        };
        for (i, b) in spec.buffers.iter().enumerate() {
            if spec.buffers[..i].iter().any(|c| c.name == b.name) {
                return Err(invalid(format!("buffer '{}' defined twice", b.name)));
            }
        }
        // "in the order in which params first names them"
        let mut order: Vec<&str> = Vec::new();
        for p in &spec.params {
            if let ParamValue::Buffer { name, .. } = p {
                if spec.buffer(name).is_some() && !order.contains(&name.as_str()) {
                    order.push(name);
                }
            }
        }
        // "then the rest in name order" (byte-wise order of the names)
        let mut rest: Vec<&str> = spec
            .buffers
            .iter()
            .map(|b| b.name.as_str())
            .filter(|n| !order.contains(n))
            .collect();
        rest.sort_unstable();
        order.extend(rest);

        let mut cursor = GLOBAL_BASE;
        let mut buffers = Vec::with_capacity(order.len());
        for name in order {
            let Some(b) = spec.buffer(name) else { continue };
            let base = align_up(cursor, BUFFER_ALIGN);
            let size = b.byte_len();
            buffers.push(BufferPlacement {
                name: b.name.clone(),
                ty: b.ty,
                len: b.len,
                base,
                size,
            });
            cursor = base.saturating_add(size).saturating_add(GUARD_BYTES);
        }
        if cursor > GLOBAL_LIMIT {
            return Err(invalid(format!(
                "the buffers end at {cursor:#x}, past the 4 GiB limit"
            )));
        }
        Ok(GlobalLayout {
            buffers,
            end: cursor,
        })
    }

    /// The placements in address order.
    pub fn buffers(&self) -> &[BufferPlacement] {
        &self.buffers
    }

    pub fn get(&self, name: &str) -> Option<&BufferPlacement> {
        self.buffers.iter().find(|b| b.name == name)
    }

    /// Position of `name` in [`GlobalLayout::buffers`].
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.buffers.iter().position(|b| b.name == name)
    }

    pub fn base_of(&self, name: &str) -> Option<u64> {
        self.get(name).map(|b| b.base)
    }

    /// One past the last guard gap.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// The buffer that holds all of `[addr, addr + n)`, as its index in
    /// [`GlobalLayout::buffers`] and the offset of `addr` in it; `None` when
    /// the range touches anything outside one buffer (a guard gap, another
    /// buffer, unmapped memory) or wraps around. An empty range (`n == 0`)
    /// is inside a buffer when `addr` is one of its bytes.
    pub fn locate(&self, addr: u64, n: u64) -> Option<(usize, u64)> {
        // the last buffer starting at or below addr
        let i = self
            .buffers
            .partition_point(|b| b.base <= addr)
            .checked_sub(1)?;
        let b = &self.buffers[i];
        b.contains(addr, n).then(|| (i, addr - b.base))
    }

    /// Whether `[addr, addr + n)` lies entirely inside one buffer.
    pub fn contains(&self, addr: u64, n: u64) -> bool {
        self.locate(addr, n).is_some()
    }
}

/// Global memory at the start of a launch: the layout and every buffer's
/// bytes. Also usable as the running memory: reads and writes by address
/// fail (return `None` / `false`) exactly where an access is a fault.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryImage {
    layout: GlobalLayout,
    data: Vec<Vec<u8>>,
    /// The spec's surfaces (name order), outside the global address space:
    /// reached through their handles only (corpus/LAUNCH_SPEC.md, "Surfaces").
    pub surfaces: Vec<SurfaceImage>,
}

impl MemoryImage {
    /// Places the buffers and fills them by their `init`.
    pub fn new(spec: &LaunchSpec) -> Result<MemoryImage, LaunchError> {
        let layout = GlobalLayout::new(spec)?;
        let data = layout
            .buffers
            .iter()
            .map(|p| match spec.buffer(&p.name) {
                Some(b) => init_bytes(&b.init, b.ty, b.len),
                None => Vec::new(),
            })
            .collect();
        Ok(MemoryImage {
            layout,
            data,
            surfaces: SurfaceImage::all(spec),
        })
    }

    pub fn layout(&self) -> &GlobalLayout {
        &self.layout
    }

    /// A buffer's bytes by name.
    pub fn buffer(&self, name: &str) -> Option<&[u8]> {
        self.layout.index_of(name).map(|i| self.data[i].as_slice())
    }

    pub fn buffer_mut(&mut self, name: &str) -> Option<&mut [u8]> {
        let i = self.layout.index_of(name)?;
        Some(self.data[i].as_mut_slice())
    }

    /// The `n` bytes at `addr`, or `None` if they are not all inside one buffer.
    pub fn read(&self, addr: u64, n: u64) -> Option<&[u8]> {
        let (i, off) = self.layout.locate(addr, n)?;
        let off = usize::try_from(off).ok()?;
        self.data[i].get(off..off.checked_add(usize::try_from(n).ok()?)?)
    }

    /// Writable view of the `n` bytes at `addr`, or `None` (a fault).
    pub fn slice_mut(&mut self, addr: u64, n: u64) -> Option<&mut [u8]> {
        let (i, off) = self.layout.locate(addr, n)?;
        let off = usize::try_from(off).ok()?;
        self.data[i].get_mut(off..off.checked_add(usize::try_from(n).ok()?)?)
    }

    /// The bytes of buffer `i` (its index in [`GlobalLayout::buffers`]).
    pub fn buffer_bytes(&self, i: usize) -> &[u8] {
        &self.data[i]
    }

    pub fn buffer_bytes_mut(&mut self, i: usize) -> &mut [u8] {
        &mut self.data[i]
    }

    /// Writes `bytes` at `addr`; `false` (and nothing written) if they do not
    /// all fall inside one buffer.
    pub fn write(&mut self, addr: u64, bytes: &[u8]) -> bool {
        match self.slice_mut(addr, bytes.len() as u64) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                true
            }
            None => false,
        }
    }

    /// The spec's outputs as typed bit patterns (see [`extract_outputs`]).
    pub fn outputs(&self, spec: &LaunchSpec) -> Result<OutputSet, LaunchError> {
        extract_outputs(spec, |name| {
            self.buffer(name).or_else(|| self.surface(name))
        })
    }

    /// A surface's bytes by name.
    pub fn surface(&self, name: &str) -> Option<&[u8]> {
        self.surfaces
            .iter()
            .find(|s| s.spec.name == name)
            .map(|s| s.data.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(t: &str) -> LaunchSpec {
        LaunchSpec::from_json_str(t, "").unwrap()
    }

    #[test]
    fn params_order_first_then_names() {
        // params name c, then a (twice); the rest (b, d) follow in name order
        let s = spec(
            r#"{"kernel": "k", "grid": [1], "block": [1],
            "params": [{"buffer": "c", "offset": 0}, {"u32": 1}, {"buffer": "a"}, {"buffer": "c"}, {"buffer": "a"}],
            "buffers": {"d": {"type": "u8", "len": 1}, "b": {"type": "f64", "len": 33},
                        "a": {"type": "u32", "len": 64}, "c": {"type": "u16", "len": 0}}}"#,
        );
        let l = GlobalLayout::new(&s).unwrap();
        let got: Vec<(&str, u64, u64)> = l
            .buffers()
            .iter()
            .map(|b| (b.name.as_str(), b.base, b.size))
            .collect();
        assert_eq!(
            got,
            [
                ("c", 0x1000_0000, 0),   // empty: next at 0 + 256 guard
                ("a", 0x1000_0100, 256), // 256 bytes + 256 guard
                ("b", 0x1000_0300, 264), // 264 bytes + 256 guard = 0x208 -> align to 0x1000_0600
                ("d", 0x1000_0600, 1),
            ]
        );
        assert_eq!(l.end(), 0x1000_0701);
        assert_eq!(l.base_of("b"), Some(0x1000_0300));
        assert_eq!(l.index_of("d"), Some(3));
        assert_eq!(l.base_of("zz"), None);
    }

    #[test]
    fn contains_excludes_guard_gaps() {
        let s = spec(
            r#"{"kernel": "k", "grid": [1], "block": [1],
            "buffers": {"x": {"type": "f32", "len": 256}, "y": {"type": "u8", "len": 5}}}"#,
        );
        let l = GlobalLayout::new(&s).unwrap();
        assert_eq!(l.base_of("x"), Some(0x1000_0000));
        assert_eq!(l.base_of("y"), Some(0x1000_0500)); // 1024 + 256 guard
        assert!(l.contains(0x1000_0000, 1024));
        assert_eq!(l.locate(0x1000_0004, 4), Some((0, 4)));
        assert!(l.contains(0x1000_03fc, 4));
        assert!(!l.contains(0x1000_03fd, 4)); // last byte in the guard gap
        assert!(!l.contains(0x1000_0400, 1)); // guard gap
        assert!(!l.contains(0x1000_04ff, 1)); // guard gap, last byte
        assert!(!l.contains(0x0fff_ffff, 1)); // below the first buffer
        assert!(!l.contains(0x0fff_ffff, 2)); // straddles the start
        assert!(!l.contains(0x1000_03f0, 0x200)); // runs into the next buffer
        assert!(l.contains(0x1000_0500, 5));
        assert!(!l.contains(0x1000_0500, 6)); // one past y's end
        assert!(!l.contains(0x1000_0505, 1));
        assert!(!l.contains(u64::MAX, 2)); // wraps
        assert!(!l.contains(0, 0));
        assert!(l.contains(0x1000_0504, 0));
        assert!(!l.contains(0x1000_0505, 0));
        assert_eq!(l.locate(0x1000_0502, 2), Some((1, 2)));
    }

    #[test]
    fn memory_reads_and_writes_fault_outside_buffers() {
        let s = spec(
            r#"{"kernel": "k", "grid": [1], "block": [1], "params": [{"buffer": "y"}],
            "buffers": {"x": {"type": "u16", "len": 3, "init": {"values": [1, 2, 65535]}},
                        "y": {"type": "u8", "len": 2, "init": {"bits": ["0xab", "0xcd"]}}}}"#,
        );
        let mut m = MemoryImage::new(&s).unwrap();
        assert_eq!(m.layout().base_of("y"), Some(0x1000_0000));
        assert_eq!(m.layout().base_of("x"), Some(0x1000_0200));
        assert_eq!(m.buffer("x"), Some(&[1u8, 0, 2, 0, 0xff, 0xff][..]));
        assert_eq!(m.read(0x1000_0000, 2), Some(&[0xab, 0xcd][..]));
        assert_eq!(m.read(0x1000_0001, 2), None);
        assert!(m.write(0x1000_0202, &[7, 8]));
        assert!(!m.write(0x1000_0205, &[7, 8]));
        assert!(!m.write(0x1000_0100, &[1])); // guard gap of y
        assert_eq!(m.buffer("x"), Some(&[1u8, 0, 7, 8, 0xff, 0xff][..]));
        m.buffer_mut("y").unwrap()[1] = 0;
        assert_eq!(m.read(0x1000_0001, 1), Some(&[0][..]));
    }

    #[test]
    fn code_built_specs_are_checked() {
        let mut s = spec(
            r#"{"kernel": "k", "grid": [1], "block": [1], "buffers": {"x": {"type": "u8", "len": 1}}}"#,
        );
        let dup = s.buffers[0].clone();
        s.buffers.push(dup);
        assert!(GlobalLayout::new(&s)
            .unwrap_err()
            .message
            .contains("defined twice"));
        s.buffers.pop();
        s.buffers[0].len = 1 << 40;
        assert!(MemoryImage::new(&s).unwrap_err().message.contains("4 GiB"));
    }
}
