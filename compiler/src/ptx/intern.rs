//! Name interning: every identifier (register, label, variable, function) is a
//! `Sym`, an index into the module's name table. Names compare by index, and
//! runners can map a `Sym` straight to a slot.

use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(pub u32);

#[derive(Clone, Debug, Default)]
pub struct Interner {
    names: Vec<Box<str>>,
    map: FxHashMap<Box<str>, Sym>,
}

impl Interner {
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(&s) = self.map.get(name) {
            return s;
        }
        let s = Sym(self.names.len() as u32);
        self.names.push(name.into());
        self.map.insert(name.into(), s);
        s
    }

    pub fn get(&self, name: &str) -> Option<Sym> {
        self.map.get(name).copied()
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
