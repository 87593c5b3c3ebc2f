pub mod semantics;
