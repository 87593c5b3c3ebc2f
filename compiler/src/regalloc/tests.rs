//! Unit tests of the allocator on SASS text with virtual registers.
