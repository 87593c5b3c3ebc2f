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

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// Two interners are equal when they hold the same names in the same order.
impl PartialEq for Interner {
    fn eq(&self, other: &Self) -> bool {
        self.names == other.names
    }
}
impl Eq for Interner {}
