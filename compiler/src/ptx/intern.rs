//! Name interning: every identifier (register, label, variable, function) is a
//! `Sym`, an index into the module's name table. Names compare by index, and
//! runners can map a `Sym` straight to a slot.

use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

/// A fixed spelling table (modifiers, opcodes) with fast lookup: spellings
/// of up to 8 bytes are packed into a `u64` key (one multiply to hash, no
/// string compare); longer ones go through a string map.
pub struct SpellingTable<T: Copy> {
    short: FxHashMap<u64, T>,
    long: FxHashMap<&'static str, T>,
}

impl<T: Copy> SpellingTable<T> {
    pub fn new(entries: impl Iterator<Item = (&'static str, T)>) -> Self {
        let mut t = SpellingTable {
            short: FxHashMap::default(),
            long: FxHashMap::default(),
        };
        for (s, v) in entries {
            match pack(s) {
                Some(k) => t.short.insert(k, v),
                None => t.long.insert(s, v),
            };
        }
        t
    }

    #[inline]
    pub fn get(&self, s: &str) -> Option<T> {
        match pack(s) {
            Some(k) => self.short.get(&k).copied(),
            None => self.long.get(s).copied(),
        }
    }
}

/// The bytes of a string of length 1..=8 as a little-endian u64 (distinct
/// strings of different lengths differ: no spelling contains a NUL).
#[inline]
fn pack(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 8 {
        return None;
    }
    let mut k = 0u64;
    for (i, &c) in b.iter().enumerate() {
        k |= (c as u64) << (8 * i);
    }
    Some(k)
}

#[derive(Clone, Debug, Default)]
pub struct Interner {
    names: Vec<Box<str>>,
    /// Names of up to 8 bytes (most registers) keyed by their packed bytes.
    short: FxHashMap<u64, Sym>,
    map: FxHashMap<Box<str>, Sym>,
}

impl Interner {
    #[inline]
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(k) = pack(name) {
            if let Some(&s) = self.short.get(&k) {
                return s;
            }
            let s = self.push(name);
            self.short.insert(k, s);
            return s;
        }
        if let Some(&s) = self.map.get(name) {
            return s;
        }
        let s = self.push(name);
        self.map.insert(name.into(), s);
        s
    }

    fn push(&mut self, name: &str) -> Sym {
        let s = Sym(self.names.len() as u32);
        self.names.push(name.into());
        s
    }

    pub fn get(&self, name: &str) -> Option<Sym> {
        match pack(name) {
            Some(k) => self.short.get(&k).copied(),
            None => self.map.get(name).copied(),
        }
    }

    pub fn name(&self, s: Sym) -> &str {
        &self.names[s.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// The index of the names that can be members of a `%r<N>` range.
    pub fn numbered(&self) -> NumberedNames<'_> {
        let mut by_prefix: FxHashMap<&str, Vec<(u32, Sym)>> = FxHashMap::default();
        for (i, name) in self.names.iter().enumerate() {
            if let Some((prefix, k)) = split_numbered(name) {
                by_prefix
                    .entry(prefix)
                    .or_default()
                    .push((k, Sym(i as u32)));
            }
        }
        for members in by_prefix.values_mut() {
            members.sort_unstable();
        }
        NumberedNames { by_prefix }
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// `%r12` as (`%r`, 12): a non-empty prefix and a decimal number without a
/// leading zero. PTX ISA "Parameterized Variable Names": `.reg .b32 %r<100>`
/// declares `%r0`..`%r99`; `%r01` is not among them (the spelling ptxc
/// and the interpreter have always required).
pub fn split_numbered(name: &str) -> Option<(&str, u32)> {
    let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits == name.len() {
        return None;
    }
    let (prefix, num) = name.split_at(name.len() - digits);
    if num.len() > 1 && num.starts_with('0') {
        return None;
    }
    Some((prefix, num.parse().ok()?))
}

/// The interned names of the form `<prefix><k>` ([`split_numbered`]), by
/// prefix and sorted by k. A `.reg .b32 %r<N>;` declaration binds only its
/// members that the module names at all: a register no instruction names
/// needs no storage, and `%r<2000000000>` must not ask for two billion.
pub struct NumberedNames<'a> {
    by_prefix: FxHashMap<&'a str, Vec<(u32, Sym)>>,
}

impl NumberedNames<'_> {
    /// The named members of `prefix<n>`: (k, name) for k < n, in k order.
    pub fn members(&self, prefix: &str, n: u32) -> &[(u32, Sym)] {
        match self.by_prefix.get(prefix) {
            Some(all) => &all[..all.partition_point(|&(k, _)| k < n)],
            None => &[],
        }
    }
}

/// Two interners are equal when they hold the same names in the same order.
impl PartialEq for Interner {
    fn eq(&self, other: &Self) -> bool {
        self.names == other.names
    }
}
impl Eq for Interner {}

#[cfg(test)]
mod tests {
    use super::{split_numbered, Interner};

    #[test]
    fn numbered_names() {
        assert_eq!(split_numbered("%r13"), Some(("%r", 13)));
        assert_eq!(split_numbered("%rd0"), Some(("%rd", 0)));
        assert_eq!(split_numbered("%r013"), None);
        assert_eq!(split_numbered("%r"), None);
        assert_eq!(split_numbered("42"), None);
        assert_eq!(split_numbered("%r99999999999"), None);
    }

    #[test]
    fn range_members_are_the_named_ones_below_the_count_in_order() {
        let mut names = Interner::default();
        for n in [
            "%r7",
            "%rd1",
            "%r0",
            "%r1999999998",
            "%r01",
            "%r3",
            "x",
            "%r",
        ] {
            names.intern(n);
        }
        let index = names.numbered();
        let members = |p: &str, n: u32| -> Vec<&str> {
            index
                .members(p, n)
                .iter()
                .map(|&(_, s)| names.name(s))
                .collect()
        };
        assert_eq!(members("%r", 8), ["%r0", "%r3", "%r7"]);
        assert_eq!(members("%r", 7), ["%r0", "%r3"]);
        assert_eq!(
            members("%r", 2_000_000_000),
            ["%r0", "%r3", "%r7", "%r1999999998"]
        );
        assert_eq!(members("%rd", 2), ["%rd1"]);
        assert!(members("%p", 100).is_empty());
    }
}
