//! PTX ISA versions.

use std::fmt;

/// A PTX ISA version `major.minor`, ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PtxVersion {
    pub major: u8,
    pub minor: u8,
}

impl PtxVersion {
    pub const fn new(major: u8, minor: u8) -> Self {
        PtxVersion { major, minor }
    }

    /// Parses `"7.5"`; None if it is not `digits.digits`.
    pub fn parse(text: &str) -> Option<Self> {
        let (a, b) = text.split_once('.')?;
        if a.is_empty() || b.is_empty() || b.len() > 2 {
            return None;
        }
        Some(PtxVersion {
            major: a.parse().ok()?,
            minor: b.parse().ok()?,
        })
    }

    pub fn is_known(self) -> bool {
        KNOWN_PTX_VERSIONS.contains(&self)
    }
}

impl fmt::Display for PtxVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

const fn v(major: u8, minor: u8) -> PtxVersion {
    PtxVersion::new(major, minor)
}

/// Every PTX ISA version NVIDIA has published (PTX ISA document, "Release
/// Notes" chapter), 4.0 through 8.8. Older versions predate every target in
/// the SM table.
pub const KNOWN_PTX_VERSIONS: &[PtxVersion] = &[
    v(4, 0),
    v(4, 1),
    v(4, 2),
    v(4, 3),
    v(5, 0),
    v(6, 0),
    v(6, 1),
    v(6, 2),
    v(6, 3),
    v(6, 4),
    v(6, 5),
    v(7, 0),
    v(7, 1),
    v(7, 2),
    v(7, 3),
    v(7, 4),
    v(7, 5),
    v(7, 6),
    v(7, 7),
    v(7, 8),
    v(8, 0),
    v(8, 1),
    v(8, 2),
    v(8, 3),
    v(8, 4),
    v(8, 5),
    v(8, 6),
    v(8, 7),
    v(8, 8),
];
