//! Memory that starts undefined: a thread's local memory (its call frames:
//! `.local` variables and the `.param` variables of function bodies and
//! calls) and a CTA's shared memory.
//!
//! PTX gives these spaces no initial contents: "variable initializers are
//! supported only for constant and global state spaces" (PTX ISA 5.4.4),
//! a CTA's shared memory and a thread's frame hold whatever the hardware
//! left there. A program whose result depends on such bytes has no defined
//! result, and a compiler may assume any value for them: ptxas 11.8
//! (sm_80, -O3) compiles a kernel that stores the never-set return value
//! of a call and a never-written `.local` word to global memory into two
//! `STG.E [R2.64], R1` (the stack pointer stored in both places, the loads
//! dropped). So the oracle treats a read of a byte no store wrote as undefined
//! behaviour ([`super::UbKind::UninitializedMemory`]), as it does a read of
//! a never-written register: such a program is invalid, the generator's
//! fault, and the reducer never keeps a candidate that has one.
//!
//! The bytes themselves read as 0 (what a run compares is deterministic
//! even where nothing checks); beside them, one byte per byte of memory
//! says whether a store wrote it.

/// Bytes plus, per byte, whether it was written.
#[derive(Clone, Debug, Default)]
pub struct UndefMem {
    bytes: Vec<u8>,
    /// 1 where written (a byte each, so a check of an access is a slice
    /// compare).
    written: Vec<u8>,
}

/// Why a read failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Some byte lies outside the memory (the caller's fault to report).
    Outside,
    /// In range, but this byte (the first) was never written.
    Unwritten(u64),
}

impl UndefMem {
    /// `len` bytes, none written.
    pub fn new(len: usize) -> UndefMem {
        UndefMem {
            bytes: vec![0; len],
            written: vec![0; len],
        }
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// `len` bytes again, none written (a new CTA's shared memory, a
    /// thread's fresh kernel frame).
    pub fn reset(&mut self, len: usize) {
        self.bytes.clear();
        self.bytes.resize(len, 0);
        self.written.clear();
        self.written.resize(len, 0);
    }

    /// Grows (with unwritten bytes: a new call frame) or shrinks (a
    /// finished call's frame is gone; growing again gives fresh bytes).
    pub fn resize(&mut self, len: usize) {
        self.bytes.resize(len, 0);
        self.written.resize(len, 0);
    }

    /// The `n` bytes at `addr`, every one of them written.
    #[inline]
    pub fn read(&self, addr: u64, n: u64) -> Result<&[u8], ReadError> {
        let r = span(addr, n, self.bytes.len()).ok_or(ReadError::Outside)?;
        let w = &self.written[r.clone()];
        if w.iter().all(|&b| b != 0) {
            Ok(&self.bytes[r])
        } else {
            let k = w.iter().position(|&b| b == 0).unwrap_or(0);
            Err(ReadError::Unwritten(addr + k as u64))
        }
    }

    /// The `n` bytes at `addr` to store into, marked written; `None` when
    /// some lie outside.
    #[inline]
    pub fn write(&mut self, addr: u64, n: u64) -> Option<&mut [u8]> {
        let r = span(addr, n, self.bytes.len())?;
        self.written[r.clone()].fill(1);
        Some(&mut self.bytes[r])
    }

    /// Whether `n` bytes at `addr` lie inside.
    pub fn contains(&self, addr: u64, n: u64) -> bool {
        span(addr, n, self.bytes.len()).is_some()
    }

    /// Copies `n` bytes from `from` to `to` with what is known of them (a
    /// `.param` argument into the callee's frame, a return value back):
    /// the copy of a never-written byte is never-written. Both ranges must
    /// lie inside.
    pub fn copy(&mut self, from: u64, n: u64, to: u64) {
        let (f, n, t) = (from as usize, n as usize, to as usize);
        self.bytes.copy_within(f..f + n, t);
        self.written.copy_within(f..f + n, t);
    }
}

/// `addr..addr + n` as indices, when inside `len`.
#[inline]
fn span(addr: u64, n: u64, len: usize) -> Option<std::ops::Range<usize>> {
    let end = addr.checked_add(n)?;
    (end <= len as u64).then_some(addr as usize..end as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_needs_every_byte_written() {
        let mut m = UndefMem::new(16);
        assert_eq!(m.read(4, 4), Err(ReadError::Unwritten(4)));
        m.write(4, 2).unwrap().copy_from_slice(&[1, 2]);
        assert_eq!(m.read(4, 4), Err(ReadError::Unwritten(6)));
        assert_eq!(m.read(4, 2), Ok(&[1u8, 2][..]));
        m.write(6, 2).unwrap().copy_from_slice(&[3, 4]);
        assert_eq!(m.read(4, 4), Ok(&[1u8, 2, 3, 4][..]));
        assert_eq!(m.read(14, 4), Err(ReadError::Outside));
        assert_eq!(m.read(u64::MAX, 2), Err(ReadError::Outside));
        assert!(m.write(15, 2).is_none());
    }

    #[test]
    fn copies_carry_the_written_marks_and_frames_come_back_unwritten() {
        let mut m = UndefMem::new(8);
        m.write(0, 2).unwrap().copy_from_slice(&[7, 8]);
        m.resize(16);
        m.copy(0, 4, 8);
        assert_eq!(m.read(8, 2), Ok(&[7u8, 8][..]));
        assert_eq!(m.read(8, 4), Err(ReadError::Unwritten(10)));
        m.write(12, 4).unwrap().fill(9);
        m.resize(8);
        m.resize(16);
        assert_eq!(m.read(12, 4), Err(ReadError::Unwritten(12)));
        m.reset(8);
        assert_eq!(m.read(0, 1), Err(ReadError::Unwritten(0)));
    }
}
