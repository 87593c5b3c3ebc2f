//! Constant banks.
//!
//! Bank 0 is built for each launch from the SM table's layout
//! ([`ptxc::targets::CbankLayout`], the one source of those offsets): `%ntid`
//! at `ntid`, `%nctaid` at `nctaid`, the initial stack pointer at `stack_pointer`, an opaque global
//! memory descriptor at `global_descriptor`, and the kernel parameters from
//! `param_base`, encoded by [`crate::launch::encode_params`]. SASS text has
//! no `.param` declarations, so each parameter's size and alignment come
//! from the launch spec's value (see [`param_decls`]).
//!
//! Banks 2 (ptxas' literal pool and jump tables) and 3 (the module's
//! `.const` data) are not in cuobjdump's text: they come from a
//! `NAME.sm_XX.banks.json` file beside the listing (written by
//! `scripts/build-kernels.sh`, which documents the fields),
//! `{"banks": {"2": "<hex bytes>", "3": "<hex bytes>"}, "textures": {"<slot>":
//! "<texture name>"}, "globals": [{"name": "G", "size": N, "align": A, "init":
//! "<hex bytes>"}], "relocs": [{"function": "F", "offset": O, "symbol": "G",
//! "kind": "R_CUDA_ABS32_LO_32", "addend": A}], "refs": [{"function": "F",
//! "offset": O, "symbol": "T", "kind": "R_CUDA_TEX_HEADER_INDEX"}]}`; every
//! key is optional, and so are a relocation's and a ref's `function` and a
//! relocation's `addend`. `refs` are the module `.texref`/`.surfref` words
//! of bank 0 (cuobjdump -elf's `.rel.nv.constant0.F`, [`RefWord`]). A missing file means
//! no extra banks; an `LDC` (or a constant operand) from an absent bank is
//! a fault that names the bank.
//!
//! Bank 4 holds the module `.global` variables' 64-bit addresses, variable
//! k's at `8 * k` ([`SimInputs::globals`] order): the compiler's lowering
//! reads them there (`ptxc::lower::LoweredKernel::globals`); vendor SASS
//! gets the addresses through relocations instead ([`super::reloc`]).

use std::collections::BTreeMap;
use std::path::Path;

use super::reloc::{Reloc, RelocKind};
use crate::launch::{
    encode_params, AddressSize, ElemType, GlobalLayout, LaunchSpec, ParamDecl, ParamValue,
};
use ptxc::targets::abi::{GlobalVar, RefKind};
use ptxc::targets::SmInfo;

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
    /// The module's `.global` variables, placed in global memory for the
    /// run ([`super::memory::place_globals`]), their addresses in bank 4.
    pub globals: Vec<GlobalVar>,
    /// Code relocations against them, applied before decoding.
    pub relocs: Vec<Reloc>,
    /// Module `.texref`/`.surfref` words of bank 0 ([`RefWord`]).
    pub refs: Vec<RefWord>,
    /// The module has 32-bit addresses (`.address_size 32`): buffer
    /// parameters are 4-byte addresses and the generic windows are the
    /// interpreter's 32-bit ones (`ptx_interp::memory::Windows::new(false)`).
    pub addr32: bool,
}

/// A bank-0 word that holds the handle of a module-level `.texref` /
/// `.surfref` (`ptxc::targets::abi::RefKind`; placed by the lowering,
/// res_ref.rs): ptxas relocates it with the bound
/// texture's / surface's header index (`R_CUDA_TEX_HEADER_INDEX` /
/// `R_CUDA_SURF_HEADER_INDEX` in `.rel.nv.constant0.KERNEL`,
/// oracle/tests/texref_vendor/*.rel.txt). The run writes the low word of
/// the handle of the launch's texture / surface named `name` there (the
/// part every SASS form reads: the slot forms and the sm_90 `ULDC` +
/// `UMOV URn+1, URZ` take 32 bits). DECISION: a name the launch does not
/// bind gets [`UNBOUND_REF`], which names no texture and no surface (the
/// interpreter gives such a reference handle 0, which every texture and
/// surface instruction refuses).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefWord {
    /// The kernel whose bank it is; `None`: whichever is run.
    pub function: Option<String>,
    pub offset: u32,
    pub name: String,
    pub kind: RefKind,
}

/// The word of a reference the launch does not bind.
pub const UNBOUND_REF: u32 = 0xffff_ffff;

/// Writes the reference words meant for kernel `kernel` into bank 0.
pub fn write_refs(
    b0: &mut [u8],
    refs: &[RefWord],
    kernel: &str,
    spec: &LaunchSpec,
) -> Result<(), String> {
    for r in refs {
        if r.function.as_deref().is_some_and(|n| n != kernel) {
            continue;
        }
        let end = r.offset as usize + 4;
        if !r.offset.is_multiple_of(4) || end > b0.len() {
            return Err(format!(
                "reference '{}': bank 0 offset {:#x} is not a word of the bank",
                r.name, r.offset
            ));
        }
        let h = match r.kind {
            RefKind::Texture => spec.texture_handle(&r.name),
            RefKind::Surface => spec.surface_handle(&r.name),
        };
        let w = h.map_or(UNBOUND_REF, |h| h as u32);
        b0[r.offset as usize..end].copy_from_slice(&w.to_le_bytes());
    }
    Ok(())
}

/// Static shared memory assumed when [`SimInputs::static_shared_bytes`] is
/// unknown (SASS text declares none): 48 KiB, the static limit of a CTA.
/// Decision: accesses beyond the window (this plus the spec's
/// `dynamic_shared_bytes`, after the SM's `shared_base`) fault.
pub const DEFAULT_STATIC_SHARED: u32 = 48 * 1024;

/// The constant bank of the module variables' addresses.
pub const GLOBALS_BANK: u32 = 4;

impl SimInputs {
    /// Bank 4 for module variables at `addrs`: each 64-bit address at
    /// `8 * k`. `None` when there are none.
    pub fn globals_bank(addrs: &[u64]) -> Option<Vec<u8>> {
        (!addrs.is_empty()).then(|| addrs.iter().flat_map(|a| a.to_le_bytes()).collect())
    }

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
                "globals" => {
                    for (i, g) in val.as_array("globals")?.iter().enumerate() {
                        out.globals.push(parse_global(g, &format!("globals[{i}]"))?);
                    }
                }
                "relocs" => {
                    for (i, r) in val.as_array("relocs")?.iter().enumerate() {
                        out.relocs.push(parse_reloc(r, &format!("relocs[{i}]"))?);
                    }
                }
                "refs" => {
                    for (i, r) in val.as_array("refs")?.iter().enumerate() {
                        out.refs.push(parse_ref(r, &format!("refs[{i}]"))?);
                    }
                }
                other => return Err(format!("unknown key '{other}'")),
            }
        }
        for r in &out.relocs {
            if !out.globals.iter().any(|g| g.name == r.symbol)
                && super::reloc::desc_size_symbol(&r.symbol).is_none()
            {
                return Err(format!(
                    "relocs: '{}' is not one of the globals (nor a driver size symbol)",
                    r.symbol
                ));
            }
        }
        Ok(out)
    }
}

/// The fields of one object, each key at most once, no other keys.
fn fields<'v>(
    v: &'v mini_json::V,
    what: &str,
    keys: &[&str],
) -> Result<Vec<Option<&'v mini_json::V>>, String> {
    let obj = v.as_object(what)?;
    for (k, _) in obj {
        if !keys.contains(&k.as_str()) {
            return Err(format!("{what}: unknown key '{k}'"));
        }
    }
    Ok(keys
        .iter()
        .map(|k| obj.iter().find(|(x, _)| x == k).map(|(_, v)| v))
        .collect())
}

fn need<'v>(
    v: Option<&'v mini_json::V>,
    what: &str,
    key: &str,
) -> Result<&'v mini_json::V, String> {
    v.ok_or_else(|| format!("{what}: missing '{key}'"))
}

fn parse_global(v: &mini_json::V, what: &str) -> Result<GlobalVar, String> {
    let f = fields(v, what, &["name", "size", "align", "init"])?;
    let name = need(f[0], what, "name")?.as_str(what)?.to_string();
    let size = need(f[1], what, "size")?.as_u32(&format!("{what}.size"))?;
    let align = need(f[2], what, "align")?.as_u32(&format!("{what}.align"))?;
    if !align.is_power_of_two() {
        return Err(format!("{what}.align: {align} is not a power of two"));
    }
    let init = match f[3] {
        Some(h) => parse_hex(h.as_str(what)?, &format!("{what}.init"))?,
        None => Vec::new(),
    };
    if init.len() > size as usize {
        return Err(format!(
            "{what}.init: {} bytes for a variable of {size}",
            init.len()
        ));
    }
    Ok(GlobalVar {
        name,
        size,
        align,
        init,
    })
}

fn parse_reloc(v: &mini_json::V, what: &str) -> Result<Reloc, String> {
    let f = fields(v, what, &["function", "offset", "symbol", "kind", "addend"])?;
    let function = match f[0] {
        Some(n) => Some(n.as_str(&format!("{what}.function"))?.to_string()),
        None => None,
    };
    let offset = need(f[1], what, "offset")?.as_u32(&format!("{what}.offset"))?;
    let symbol = need(f[2], what, "symbol")?
        .as_str(&format!("{what}.symbol"))?
        .to_string();
    let kind_name = need(f[3], what, "kind")?.as_str(&format!("{what}.kind"))?;
    let kind = RelocKind::from_name(kind_name).ok_or_else(|| {
        format!("{what}.kind: relocation type '{kind_name}' is not supported (only R_CUDA_ABS32_LO_32, R_CUDA_ABS32_HI_32 and R_CUDA_ABS32_32)")
    })?;
    let addend = match f[4] {
        Some(a) => Some(a.as_i64(&format!("{what}.addend"))?),
        None => None,
    };
    Ok(Reloc {
        function,
        offset,
        symbol,
        kind,
        addend,
    })
}

fn parse_ref(v: &mini_json::V, what: &str) -> Result<RefWord, String> {
    let f = fields(v, what, &["function", "offset", "symbol", "kind"])?;
    let function = match f[0] {
        Some(n) => Some(n.as_str(&format!("{what}.function"))?.to_string()),
        None => None,
    };
    let offset = need(f[1], what, "offset")?.as_u32(&format!("{what}.offset"))?;
    let name = need(f[2], what, "symbol")?
        .as_str(&format!("{what}.symbol"))?
        .to_string();
    let kind_name = need(f[3], what, "kind")?.as_str(&format!("{what}.kind"))?;
    let kind = RefKind::from_reloc_name(kind_name).ok_or_else(|| {
        format!(
            "{what}.kind: '{kind_name}' is not R_CUDA_TEX_HEADER_INDEX or R_CUDA_SURF_HEADER_INDEX"
        )
    })?;
    Ok(RefWord {
        function,
        offset,
        name,
        kind,
    })
}

fn parse_hex_bytes(hex: &str, bank: u32) -> Result<Vec<u8>, String> {
    parse_hex(hex, &format!("banks.{bank}"))
}

fn parse_hex(hex: &str, what: &str) -> Result<Vec<u8>, String> {
    let h: Vec<u8> = hex.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let h = h.strip_prefix(b"0x").unwrap_or(&h);
    if !h.len().is_multiple_of(2) {
        return Err(format!("{what}: odd number of hex digits"));
    }
    h.chunks(2)
        .map(|c| {
            std::str::from_utf8(c)
                .ok()
                .and_then(|s| u8::from_str_radix(s, 16).ok())
                .ok_or_else(|| format!("{what}: bad hex digits"))
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
pub fn param_decls(spec: &LaunchSpec, addr32: bool) -> Vec<ParamDecl> {
    spec.params
        .iter()
        .map(|p| match p {
            ParamValue::Scalar { ty, .. } | ParamValue::Bits { ty, .. } => ParamDecl::scalar(*ty),
            ParamValue::Buffer { .. } if addr32 => ParamDecl::scalar(ElemType::U32),
            ParamValue::Buffer { .. } | ParamValue::Texture { .. } | ParamValue::Surface { .. } => {
                ParamDecl::scalar(ElemType::U64)
            }
        })
        .collect()
}

/// Size of constant bank 0 (the hardware's 64 KiB).
pub const BANK0_BYTES: usize = 0x1_0000;

/// Bank 0 for a launch: ntid, nctaid, stack pointer, descriptor, parameters.
pub fn bank0(
    sm: &SmInfo,
    spec: &LaunchSpec,
    layout: &GlobalLayout,
    stack_top: u32,
    addr32: bool,
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
    for (i, n) in spec.block().iter().enumerate() {
        put(&mut b, c.ntid + 4 * i as u32, &n.to_le_bytes());
    }
    for (i, n) in spec.grid().iter().enumerate() {
        put(&mut b, c.nctaid + 4 * i as u32, &n.to_le_bytes());
    }
    put(&mut b, c.stack_pointer, &stack_top.to_le_bytes());
    // `%nsmid` and `%dynamic_smem_size` (the SM table's offsets, ptxas's
    // words): the interpreter's values, one SM and the launch's dynamic
    // shared bytes.
    put(&mut b, c.nsmid, &1u32.to_le_bytes());
    put(
        &mut b,
        c.dynamic_smem_size,
        &spec.dynamic_shared_bytes.to_le_bytes(),
    );
    // `%gridid`, `%envreg0..31` and the reserved shared size
    // `%total_smem_size` subtracts from `SR_SMEMSZ` (the SM table's
    // offsets, ptxas's words; corpus/LAUNCH_SPEC.md "Special registers"): the
    // interpreter's grid 0 and environment 0, and the reserved bytes below
    // the CTA's data (`shared_base`), which `SR_SMEMSZ` counts.
    put(&mut b, c.gridid, &0u64.to_le_bytes());
    for n in 0..32 {
        put(&mut b, c.envreg + 4 * n, &0u32.to_le_bytes());
    }
    if let Some(r) = c.reserved_smem {
        put(&mut b, r, &c.shared_base.to_le_bytes());
    }
    // The generic windows the compiler's `cvta.shared`/`cvta.local` read
    // (ptxc::targets::abi::{SHARED_WINDOW, LOCAL_WINDOW}; DECISION documented
    // in ptxc::lower): the interpreter's window bases (the 32-bit ones
    // for a 32-bit module, whose code reads their low words).
    let w = crate::ptx_interp::memory::Windows::new(!addr32);
    put(
        &mut b,
        ptxc::targets::abi::SHARED_WINDOW,
        &w.shared.to_le_bytes(),
    );
    put(
        &mut b,
        ptxc::targets::abi::LOCAL_WINDOW,
        &w.local.to_le_bytes(),
    );
    // `isspacep.const`/`.param` read these (ptxc::lower space.rs).
    put(
        &mut b,
        ptxc::targets::abi::CONST_WINDOW,
        &w.konst.to_le_bytes(),
    );
    put(
        &mut b,
        ptxc::targets::abi::PARAM_WINDOW,
        &w.param.to_le_bytes(),
    );
    if let Some(d) = c.global_descriptor {
        // Opaque: no instruction reads its bits except to pass it along.
        put(&mut b, d, &0x0000_0000_0000_0000u64.to_le_bytes());
    }
    let size = if addr32 {
        AddressSize::A32
    } else {
        AddressSize::A64
    };
    let params =
        encode_params(spec, layout, &param_decls(spec, addr32), size).map_err(|e| e.to_string())?;
    let end = c.param_base as usize + params.bytes.len();
    if end > b.len() {
        return Err("the parameters do not fit in constant bank 0".into());
    }
    b[c.param_base as usize..end].copy_from_slice(&params.bytes);
    Ok(b)
}

/// Just enough JSON for the banks file: objects, arrays, strings without
/// escapes and integers.
mod mini_json {
    pub enum V {
        Str(String),
        Num(i64),
        Arr(Vec<V>),
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
        pub fn as_array(&self, what: &str) -> Result<&[V], String> {
            match self {
                V::Arr(a) => Ok(a),
                _ => Err(format!("{what}: expected an array")),
            }
        }
        pub fn as_i64(&self, what: &str) -> Result<i64, String> {
            match self {
                V::Num(n) => Ok(*n),
                _ => Err(format!("{what}: expected an integer")),
            }
        }
        pub fn as_u32(&self, what: &str) -> Result<u32, String> {
            let n = self.as_i64(what)?;
            u32::try_from(n).map_err(|_| format!("{what}: {n} is out of range"))
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
            Some(b'[') if depth < 8 => {
                *i += 1;
                let mut a = Vec::new();
                ws(b, i);
                if b.get(*i) == Some(&b']') {
                    *i += 1;
                    return Ok(V::Arr(a));
                }
                loop {
                    a.push(value(b, i, depth + 1)?);
                    ws(b, i);
                    match b.get(*i) {
                        Some(b',') => *i += 1,
                        Some(b']') => {
                            *i += 1;
                            return Ok(V::Arr(a));
                        }
                        _ => return Err(format!("expected ',' or ']' at byte {i}")),
                    }
                }
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => {
                let s = *i;
                if b[*i] == b'-' {
                    *i += 1;
                }
                while *i < b.len() && b[*i].is_ascii_digit() {
                    *i += 1;
                }
                let t = std::str::from_utf8(&b[s..*i]).unwrap_or("");
                t.parse::<i64>()
                    .map(V::Num)
                    .map_err(|_| format!("bad integer '{t}' at byte {s}"))
            }
            _ => Err(format!(
                "expected a string, a number, an array or an object at byte {i}"
            )),
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
    fn refs_parse_and_write_the_handle_low_words() {
        let s = SimInputs::from_banks_json(
            r#"{"refs": [{"function": "k", "offset": 364, "symbol": "tb", "kind": "R_CUDA_TEX_HEADER_INDEX"},
                        {"offset": 368, "symbol": "sa", "kind": "R_CUDA_SURF_HEADER_INDEX"},
                        {"function": "k", "offset": 372, "symbol": "nope", "kind": "R_CUDA_TEX_HEADER_INDEX"},
                        {"function": "other", "offset": 376, "symbol": "ta", "kind": "R_CUDA_TEX_HEADER_INDEX"}]}"#,
        )
        .unwrap();
        assert_eq!(
            s.refs[0],
            RefWord {
                function: Some("k".into()),
                offset: 364,
                name: "tb".into(),
                kind: RefKind::Texture
            }
        );
        assert_eq!(s.refs[1].function, None);
        assert_eq!(s.refs[1].kind, RefKind::Surface);
        let spec = LaunchSpec::from_json_str(
            r#"{"kernel": "k", "grid": [1], "block": [1], "params": [],
                "textures": {"ta": {"type": "f32", "dims": [2]}, "tb": {"type": "f32", "dims": [2]}},
                "surfaces": {"sa": {"type": "u32", "dims": [2]}}}"#,
            Path::new("."),
        )
        .unwrap();
        let mut b0 = vec![0xaa_u8; 0x200];
        write_refs(&mut b0, &s.refs, "k", &spec).unwrap();
        let word = |o: usize| u32::from_le_bytes(b0[o..o + 4].try_into().unwrap());
        // The handles' low words: tb's, sa's; an unbound name's word names
        // nothing; another kernel's word is not written.
        assert_eq!(word(364), spec.texture_handle("tb").unwrap() as u32);
        assert_eq!(word(368), spec.surface_handle("sa").unwrap() as u32);
        assert_ne!(word(364), spec.texture_handle("ta").unwrap() as u32);
        assert_eq!(word(372), UNBOUND_REF);
        assert_eq!(word(376), 0xaaaa_aaaa);
        // Bad entries.
        let bad = |t: &str| SimInputs::from_banks_json(t).unwrap_err();
        assert!(
            bad(r#"{"refs": [{"offset": 4, "symbol": "t", "kind": "R_CUDA_ABS32_LO_32"}]}"#)
                .contains("R_CUDA_TEX_HEADER_INDEX")
        );
        assert!(
            bad(r#"{"refs": [{"offset": 4, "kind": "R_CUDA_TEX_HEADER_INDEX"}]}"#)
                .contains("symbol")
        );
        let odd = SimInputs::from_banks_json(
            r#"{"refs": [{"offset": 6, "symbol": "tb", "kind": "R_CUDA_TEX_HEADER_INDEX"}]}"#,
        )
        .unwrap();
        assert!(write_refs(&mut b0, &odd.refs, "k", &spec)
            .unwrap_err()
            .contains("not a word"));
    }

    #[test]
    fn banks_file_globals_and_relocs() {
        let s = SimInputs::from_banks_json(
            r#"{"banks": {"2": "192d4454fb21f93b"},
 "globals": [
  {"name": "t", "size": 6, "align": 4, "init": "4190433c"},
  {"name": "z", "size": 16, "align": 8, "init": ""}],
 "relocs": [
  {"function": "k", "offset": 464, "symbol": "t", "kind": "R_CUDA_ABS32_LO_32"},
  {"offset": 496, "symbol": "z", "kind": "R_CUDA_ABS32_HI_32", "addend": -8}]}"#,
        )
        .unwrap();
        assert_eq!(s.banks[&2].len(), 8);
        assert_eq!(
            s.globals,
            vec![
                GlobalVar {
                    name: "t".into(),
                    size: 6,
                    align: 4,
                    init: vec![0x41, 0x90, 0x43, 0x3c]
                },
                GlobalVar {
                    name: "z".into(),
                    size: 16,
                    align: 8,
                    init: vec![]
                }
            ]
        );
        assert_eq!(
            s.relocs,
            vec![
                Reloc {
                    function: Some("k".into()),
                    offset: 464,
                    symbol: "t".into(),
                    kind: RelocKind::Abs32Lo32,
                    addend: None
                },
                Reloc {
                    function: None,
                    offset: 496,
                    symbol: "z".into(),
                    kind: RelocKind::Abs32Hi32,
                    addend: Some(-8)
                }
            ]
        );
        let g = r#"{"name": "t", "size": 4, "align": 4, "init": ""}"#;
        let bad = |t: &str| SimInputs::from_banks_json(t).unwrap_err();
        assert!(bad(&format!(
            r#"{{"globals": [{g}], "relocs": [{{"offset": 0, "symbol": "t", "kind": "R_CUDA_ABS55_16_34"}}]}}"#
        ))
        .contains("'R_CUDA_ABS55_16_34' is not supported"));
        assert!(
            bad(r#"{"relocs": [{"offset": 0, "symbol": "u", "kind": "R_CUDA_ABS32_LO_32"}]}"#)
                .contains("'u' is not one of the globals")
        );
        assert!(
            bad(r#"{"globals": [{"name": "t", "size": 4, "align": 3}]}"#)
                .contains("not a power of two")
        );
        assert!(
            bad(r#"{"globals": [{"name": "t", "size": 1, "align": 1, "init": "0000"}]}"#)
                .contains("2 bytes for a variable of 1")
        );
        assert!(bad(r#"{"globals": [{"name": "t", "align": 1}]}"#).contains("missing 'size'"));
        assert!(
            bad(r#"{"globals": [{"name": "t", "size": -1, "align": 1}]}"#).contains("out of range")
        );
        assert!(bad(&format!(r#"{{"globals": [{g}], "relocs": [{{"offset": 0, "symbol": "t", "kind": "R_CUDA_ABS32_LO_32", "x": 1}}]}}"#))
            .contains("unknown key 'x'"));
        assert!(bad(r#"{"globals": {}}"#).contains("expected an array"));
        assert!(bad(r#"{"globals": [1,]}"#).contains("expected"));
        // The corpus file of libdevice_math: the table and its 4 relocations.
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../corpus/kernels/libdevice_math/libdevice_math.sm_90.banks.json");
        let c = SimInputs::from_banks_file(&p).unwrap();
        assert_eq!(c.globals.len(), 1);
        assert_eq!(c.globals[0].name, "__cudart_i2opi_f");
        assert_eq!(c.globals[0].init.len(), 24);
        assert_eq!(c.relocs.len(), 4);
        assert!(c.relocs.iter().all(|r| r.addend == Some(0)));
    }

    #[test]
    fn globals_bank_holds_the_addresses() {
        assert_eq!(SimInputs::globals_bank(&[]), None);
        let b = SimInputs::globals_bank(&[0x1000_0300, 0x1_0000_0000]).unwrap();
        let banks = Banks {
            banks: [(GLOBALS_BANK, b)].into_iter().collect(),
        };
        assert_eq!(banks.read(4, 0, 8).unwrap(), 0x1000_0300);
        assert_eq!(banks.read(4, 8, 8).unwrap(), 0x1_0000_0000);
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
