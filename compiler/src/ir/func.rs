//! Functions and basic blocks.

use super::inst::Inst;

/// A basic block: a label and its instructions. Control leaves a block
/// only at its end (a branch, return or exit), or falls through to the
/// next block in layout order.
#[derive(Debug, PartialEq, Eq)]
pub struct Block {
    /// The block's label; label operands name blocks by it.
    pub label: u32,
    pub insts: Vec<Inst>,
}

/// A function: blocks in layout order, the entry first. A kernel listing
/// from cuobjdump is one function that also holds its callees' code
/// (ptxas places `.func` bodies after the kernel's EXIT and reaches them
/// with `CALL.REL`).
#[derive(Debug, Default, Eq)]
pub struct Function {
    pub name: String,
    /// The `.headerflags` text of a vendor listing.
    pub header_flags: Option<String>,
    pub blocks: Vec<Block>,
}

/// As derived, plus a `clone_from` that reuses the target's vectors: the
/// analysis cache copies a whole function into its entry on each miss, and
/// the derived one (a fresh clone) spent its time allocating and zeroing
/// new pages.
impl Clone for Block {
    fn clone(&self) -> Block {
        Block {
            label: self.label,
            insts: self.insts.clone(),
        }
    }

    fn clone_from(&mut self, o: &Block) {
        self.label = o.label;
        self.insts.clone_from(&o.insts);
    }
}

impl Clone for Function {
    fn clone(&self) -> Function {
        Function {
            name: self.name.clone(),
            header_flags: self.header_flags.clone(),
            blocks: self.blocks.clone(),
        }
    }

    fn clone_from(&mut self, o: &Function) {
        self.name.clone_from(&o.name);
        self.header_flags.clone_from(&o.header_flags);
        self.blocks.clone_from(&o.blocks);
    }
}

/// Field-by-field equality, as derived, with the block shapes (labels and
/// lengths) compared before any instruction: the analysis cache compares
/// whole functions, and a pass that inserted or removed an instruction
/// anywhere is then told apart without walking the blocks before it.
impl PartialEq for Function {
    fn eq(&self, o: &Function) -> bool {
        self.blocks.len() == o.blocks.len()
            && self
                .blocks
                .iter()
                .zip(&o.blocks)
                .all(|(a, b)| a.label == b.label && a.insts.len() == b.insts.len())
            && self.name == o.name
            && self.header_flags == o.header_flags
            && self.blocks == o.blocks
    }
}

impl Function {
    /// The index of the block labelled `label`.
    /// The first block labelled `label`: a scan. A pass that looks up
    /// many labels takes a [`Function::label_index`] once instead (a scan
    /// per branch made the CFG quadratic in the blocks: a kernel of 2,000
    /// if-converted branches took a minute in OriDoPredication).
    pub fn block_index(&self, label: u32) -> Option<usize> {
        self.blocks.iter().position(|b| b.label == label)
    }

    /// Every label's first block, for lookups in constant time.
    pub fn label_index(&self) -> LabelIndex {
        let mut map = rustc_hash::FxHashMap::default();
        map.reserve(self.blocks.len());
        for (i, b) in self.blocks.iter().enumerate() {
            map.entry(b.label).or_insert(i);
        }
        LabelIndex(map)
    }

    /// All instructions in layout order.
    pub fn insts(&self) -> impl Iterator<Item = &Inst> {
        self.blocks.iter().flat_map(|b| b.insts.iter())
    }

    /// The byte address of each block's first instruction when laid out
    /// contiguously, 16 bytes per instruction (sm_70+ encodings), plus the
    /// end address.
    pub fn block_addresses(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.blocks.len() + 1);
        let mut a = 0u32;
        for b in &self.blocks {
            out.push(a);
            a += 16 * b.insts.len() as u32;
        }
        out.push(a);
        out
    }

    /// A label no block uses yet.
    pub fn fresh_label(&self) -> u32 {
        self.blocks.iter().map(|b| b.label + 1).max().unwrap_or(0)
    }
}

/// Labels to block indices ([`Function::label_index`]): what
/// [`Function::block_index`] answers, as of when it was taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelIndex(rustc_hash::FxHashMap<u32, usize>);

impl LabelIndex {
    #[inline]
    pub fn get(&self, label: u32) -> Option<usize> {
        self.0.get(&label).copied()
    }

    /// The number of distinct labels (fewer than the blocks when a label
    /// starts more than one block).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::{Block, Function};

    #[test]
    fn the_label_index_answers_what_block_index_does() {
        // Labels out of order, one repeated (the first block wins), and
        // labels that no block has.
        let labels = [7u32, 3, 9, 3, 0, 12, 7];
        let f = Function {
            blocks: labels
                .iter()
                .map(|&label| Block {
                    label,
                    insts: Vec::new(),
                })
                .collect(),
            ..Function::default()
        };
        let index = f.label_index();
        for l in 0..16 {
            assert_eq!(index.get(l), f.block_index(l), "label {l}");
        }
        assert_eq!(index.get(3), Some(1));
    }
}
