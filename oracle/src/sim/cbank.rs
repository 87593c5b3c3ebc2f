//! Constant banks.
//!
//! Bank 0 is built for each launch from the SM table's layout
//! ([`ptxc::target::CbankLayout`], the one source of those offsets): `%ntid`
//! at `ntid`, the initial stack pointer at `stack_pointer`, an opaque global
//! memory descriptor at `global_descriptor`, and the kernel parameters from
//! `param_base`, encoded by [`crate::launch::encode_params`]. SASS text has
//! no `.param` declarations, so each parameter's size and alignment come
//! from the launch spec's value (see [`param_decls`]).
//!
//! Banks 2 (ptxas' literal pool and jump tables) and 3 (the module's
//! `.const` data) are not in cuobjdump's text: they come from a
//! `NAME.sm_XX.banks.json` file beside the listing,
//! `{"banks": {"2": "<hex bytes>", "3": "<hex bytes>"}, "textures": {"<slot>":
//! "<texture name>"}}`. A missing file means no extra banks; an `LDC` (or a
//! constant operand) from an absent bank is a fault that names the bank.

use std::collections::BTreeMap;
use std::path::Path;

use crate::launch::{
    encode_params, AddressSize, ElemType, GlobalLayout, LaunchSpec, ParamDecl, ParamValue,
};
use ptxc::target::SmInfo;

/// Launch inputs that SASS text does not carry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimInputs {
    /// Constant banks other than 0, by bank number.
    pub banks: BTreeMap<u32, Vec<u8>>,
    /// Texture slots (`TLD ... 0x58 ...`, as a number) bound to textures of
    /// the launch spec, by name.
    pub textures: BTreeMap<u32, String>,
    /// Bytes of static shared memory the kernel declares (the PTX's
    /// `.shared` variables). `None`: unknown, see [`DEFAULT_STATIC_SHARED`].
    pub static_shared_bytes: Option<u32>,
}

/// Static shared memory assumed when [`SimInputs::static_shared_bytes`] is
/// unknown (SASS text declares none): 48 KiB, the static limit of a CTA.
/// Decision: accesses beyond the window (this plus the spec's
/// `dynamic_shared_bytes`, after the SM's `shared_base`) fault.
pub const DEFAULT_STATIC_SHARED: u32 = 48 * 1024;

impl SimInputs {
    /// Reads a `*.banks.json` file. A missing file gives no extra banks.
    pub fn from_banks_file(path: &Path) -> Result<SimInputs, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(SimInputs::default()),
            Err(e) => return Err(format!("cannot read '{}': {e}", path.display())),
        };
        SimInputs::from_banks_json(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parses the text of a `*.banks.json` file.
    pub fn from_banks_json(text: &str) -> Result<SimInputs, String> {
        let v = mini_json::parse(text)?;
        let top = v.as_object("the file")?;
        let mut out = SimInputs::default();
        for (k, val) in top {
            match k.as_str() {
                "banks" => {
                    for (b, hex) in val.as_object("banks")? {
                        let bank: u32 = b
                            .parse()
                            .map_err(|_| format!("banks: '{b}' is not a bank number"))?;
                        let hex = hex.as_str(&format!("banks.{b}"))?;
                        out.banks.insert(bank, parse_hex_bytes(hex, bank)?);
                    }
                }
                "textures" => {
                    for (s, name) in val.as_object("textures")? {
                        let slot: u32 = s
                            .parse()
                            .map_err(|_| format!("textures: '{s}' is not a decimal slot"))?;
                        out.textures
                            .insert(slot, name.as_str(&format!("textures.{s}"))?.to_string());
                    }
                }
                other => return Err(format!("unknown key '{other}'")),
            }
        }
        Ok(out)
    }
}

fn parse_hex_bytes(hex: &str, bank: u32) -> Result<Vec<u8>, String> {
    let h: Vec<u8> = hex.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let h = h.strip_prefix(b"0x").unwrap_or(&h);
    if !h.len().is_multiple_of(2) {
        return Err(format!("banks.{bank}: odd number of hex digits"));
    }
    h.chunks(2)
        .map(|c| {
            std::str::from_utf8(c)
                .ok()
                .and_then(|s| u8::from_str_radix(s, 16).ok())
                .ok_or_else(|| format!("banks.{bank}: bad hex digits"))
        })
        .collect()
}

/// All constant banks of one launch.
#[derive(Clone, Debug, Default)]
pub struct Banks {
    pub banks: BTreeMap<u32, Vec<u8>>,
}

impl Banks {
    /// `n` little-endian bytes (1..=8) of bank `bank` at `off`.
    pub fn read(&self, bank: u32, off: i64, n: u32) -> Result<u64, String> {
        let Some(b) = self.banks.get(&bank) else {
            return Err(format!(
                "constant bank {bank} is missing (cuobjdump text does not carry it: give a banks file)"
            ));
        };
        let ok = off >= 0 && (off as u64) + u64::from(n) <= b.len() as u64;
        if !ok {
            return Err(format!(
                "constant bank {bank} read of {n} bytes at {off:#x} is outside the bank ({} bytes)",
                b.len()
            ));
        }
        let o = off as usize;
        Ok(b[o..o + n as usize]
            .iter()
            .rev()
            .fold(0u64, |v, &x| (v << 8) | u64::from(x)))
    }
}

/// The parameter declarations implied by the spec's values: SASS has no
/// `.param` declarations. Pointers (buffers, textures) are 8 bytes aligned
/// 8; scalars have their type's natural size and alignment.
pub fn param_decls(spec: &LaunchSpec) -> Vec<ParamDecl> {
    spec.params
        .iter()
        .map(|p| match p {
            ParamValue::Scalar { ty, .. } | ParamValue::Bits { ty, .. } => ParamDecl::scalar(*ty),
            ParamValue::Buffer { .. } | ParamValue::Texture { .. } => {
                ParamDecl::scalar(ElemType::U64)
            }
        })
        .collect()
}

/// Size of constant bank 0 (the hardware's 64 KiB).
pub const BANK0_BYTES: usize = 0x1_0000;

/// Bank 0 for a launch: ntid, stack pointer, descriptor, parameters.
pub fn bank0(
    sm: &SmInfo,
    spec: &LaunchSpec,
    layout: &GlobalLayout,
    stack_top: u32,
) -> Result<Vec<u8>, String> {
    let c = sm.cbank.ok_or_else(|| {
        format!(
            "{}: the SM table has no constant-bank layout for this target",
            sm.name
        )
    })?;
    let mut b = vec![0u8; BANK0_BYTES];
    let put = |b: &mut Vec<u8>, off: u32, bytes: &[u8]| {
        b[off as usize..off as usize + bytes.len()].copy_from_slice(bytes);
    };
    let block = spec.block();
    for (i, n) in block.iter().enumerate() {
        put(&mut b, c.ntid + 4 * i as u32, &n.to_le_bytes());
    }
    put(&mut b, c.stack_pointer, &stack_top.to_le_bytes());
    // The generic windows the compiler's `cvta.shared`/`cvta.local` read
    // (ptxc::lower::mem::{SHARED_WINDOW, LOCAL_WINDOW}; DECISION documented
    // in ptxc::lower): the interpreter's 64-bit window bases.
    let w = crate::ptx_interp::memory::Windows::new(true);
    put(&mut b, ptxc::lower::SHARED_WINDOW, &w.shared.to_le_bytes());
    put(&mut b, ptxc::lower::LOCAL_WINDOW, &w.local.to_le_bytes());
    if let Some(d) = c.global_descriptor {
        // Opaque: no instruction reads its bits except to pass it along.
        put(&mut b, d, &0x0000_0000_0000_0000u64.to_le_bytes());
    }
    let params = encode_params(spec, layout, &param_decls(spec), AddressSize::A64)
        .map_err(|e| e.to_string())?;
    let end = c.param_base as usize + params.bytes.len();
    if end > b.len() {
        return Err("the parameters do not fit in constant bank 0".into());
    }
    b[c.param_base as usize..end].copy_from_slice(&params.bytes);
    Ok(b)
}

/// Just enough JSON for the banks file: objects of strings.
mod mini_json {
    pub enum V {
        Str(String),
        Obj(Vec<(String, V)>),
    }

    impl V {
        pub fn as_object(&self, what: &str) -> Result<&[(String, V)], String> {
            match self {
                V::Obj(m) => Ok(m),
                _ => Err(format!("{what}: expected an object")),
            }
        }
        pub fn as_str(&self, what: &str) -> Result<&str, String> {
            match self {
                V::Str(s) => Ok(s),
                _ => Err(format!("{what}: expected a string")),
            }
        }
    }

    pub fn parse(t: &str) -> Result<V, String> {
        let b = t.as_bytes();
        let mut i = 0;
        let v = value(b, &mut i, 0)?;
        ws(b, &mut i);
        if i != b.len() {
            return Err(format!("trailing text at byte {i}"));
        }
        Ok(v)
    }

    fn ws(b: &[u8], i: &mut usize) {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    }

    fn value(b: &[u8], i: &mut usize, depth: u32) -> Result<V, String> {
        ws(b, i);
        match b.get(*i) {
            Some(b'"') => string(b, i).map(V::Str),
            Some(b'{') if depth < 8 => {
                *i += 1;
                let mut m = Vec::new();
                ws(b, i);
                if b.get(*i) == Some(&b'}') {
                    *i += 1;
                    return Ok(V::Obj(m));
                }
                loop {
                    ws(b, i);
                    let k = string(b, i)?;
                    ws(b, i);
                    if b.get(*i) != Some(&b':') {
                        return Err(format!("expected ':' at byte {i}"));
                    }
                    *i += 1;
                    let v = value(b, i, depth + 1)?;
                    if m.iter().any(|(x, _): &(String, V)| *x == k) {
                        return Err(format!("duplicate key '{k}'"));
                    }
                    m.push((k, v));
                    ws(b, i);
                    match b.get(*i) {
                        Some(b',') => *i += 1,
                        Some(b'}') => {
                            *i += 1;
                            return Ok(V::Obj(m));
                        }
                        _ => return Err(format!("expected ',' or '}}' at byte {i}")),
                    }
                }
            }
            _ => Err(format!("expected a string or an object at byte {i}")),
        }
    }

    fn string(b: &[u8], i: &mut usize) -> Result<String, String> {
        if b.get(*i) != Some(&b'"') {
            return Err(format!("expected a string at byte {i}"));
        }
        *i += 1;
        let s = *i;
        while *i < b.len() && b[*i] != b'"' {
            if b[*i] == b'\\' {
                return Err(format!("escapes are not supported (byte {i})"));
            }
            *i += 1;
        }
        if *i >= b.len() {
            return Err("unterminated string".into());
        }
        let out = String::from_utf8_lossy(&b[s..*i]).into_owned();
        *i += 1;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn banks_file_parses() {
        let s = SimInputs::from_banks_json(
            r#"{"banks": {"2": "00010203", "3": ""}, "textures": {"88": "t"}}"#,
        )
        .unwrap();
        assert_eq!(s.banks[&2], vec![0, 1, 2, 3]);
        assert_eq!(s.banks[&3], Vec::<u8>::new());
        assert_eq!(s.textures[&88], "t");
        assert!(SimInputs::from_banks_json(r#"{"banks": {"x": "00"}}"#).is_err());
        assert!(SimInputs::from_banks_json(r#"{"banks": {"2": "0"}}"#).is_err());
        assert!(SimInputs::from_banks_json(r#"{"other": {}}"#).is_err());
        let none = SimInputs::from_banks_file(Path::new("/nonexistent/x.banks.json")).unwrap();
        assert!(none.banks.is_empty());
    }

    #[test]
    fn bank_reads_and_faults() {
        let mut b = Banks::default();
        b.banks.insert(2, vec![1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(b.read(2, 0, 4).unwrap(), 0x0403_0201);
        assert_eq!(b.read(2, 4, 4).unwrap(), 0x0807_0605);
        assert_eq!(b.read(2, 0, 8).unwrap(), 0x0807_0605_0403_0201);
        assert!(b.read(2, 6, 4).unwrap_err().contains("outside"));
        assert!(b.read(3, 0, 4).unwrap_err().contains("bank 3 is missing"));
    }
}
