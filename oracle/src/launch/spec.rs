//! The launch spec: its types, reading with validation, and writing.
//!
//! Every field of corpus/LAUNCH_SPEC.md is read here. Choices the spec leaves open
//! are marked "Decision:" next to the code that makes them.

use std::fs;
use std::path::{Path, PathBuf};

use super::error::{ErrorKind, LaunchError};
use super::json::{self, Kind, Member, Value};
use super::layout::{GLOBAL_BASE, GLOBAL_LIMIT};
use super::surface::SurfaceSpec;
use super::texture::{AddressMode, Filter, TextureSpec};
use super::types::ElemType;

/// A number as the spec means it for one element type: an exact integer for
/// integer types, an f64 (the one nearest to the decimal text) for floats.
#[derive(Clone, Copy, Debug)]
pub enum Scalar {
    Int(i128),
    Float(f64),
}

impl PartialEq for Scalar {
    /// Floats compare by bits (so -0.0 != 0.0 and a spec round trip is exact).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Scalar::Int(a), Scalar::Int(b)) => a == b,
            (Scalar::Float(a), Scalar::Float(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        }
    }
}

/// The initial contents of a buffer or texture (corpus/LAUNCH_SPEC.md, "Initial
/// contents"). Numbers are already checked against the element type.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// `"zeros"`
    Zeros,
    /// `{"iota": {"start": s, "step": d}}`: element i is `s + i*d`.
    Iota { start: Scalar, step: Scalar },
    /// `{"values": [...]}`: exactly `len` numbers.
    Values(Vec<Scalar>),
    /// `{"bits": ["0x…", ...]}`: exactly `len` raw patterns.
    Bits(Vec<u64>),
    /// `{"random": {"seed": n, "min": a, "max": b}}`; `range` is `(a, b)`.
    Random {
        seed: u64,
        range: Option<(Scalar, Scalar)>,
    },
    /// `{"special_mix": {"seed": n}}` (floats only).
    SpecialMix { seed: u64 },
}

/// One entry of `params`.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// `{"<type>": number}`
    Scalar { ty: ElemType, value: Scalar },
    /// `{"type": "<type>", "bits": "0x…"}`
    Bits { ty: ElemType, bits: u64 },
    /// `{"buffer": "name", "offset": bytes}` (offset 0 when absent)
    Buffer { name: String, offset: u64 },
    /// `{"texture": "name"}`
    Texture { name: String },
    /// `{"surface": "name"}`: the surface's handle, a `.u64` (this
    /// project's extension, corpus/LAUNCH_SPEC.md "Surfaces")
    Surface { name: String },
}

/// One entry of `buffers`.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferSpec {
    pub name: String,
    pub ty: ElemType,
    pub len: u64,
    pub init: Init,
}

impl BufferSpec {
    /// Size in bytes (`len * element size`).
    pub fn byte_len(&self) -> u64 {
        self.len.saturating_mul(self.ty.size() as u64)
    }
}

/// `compare.nan`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NanRule {
    /// every output bit for bit (the default)
    #[default]
    Bitwise,
    /// any NaN equals any NaN
    Any,
}

/// `compare`: `{"nan": "bitwise" | "any", "ulps": n}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CompareRule {
    pub nan: NanRule,
    /// float elements may differ by up to this many units in the last place
    pub ulps: u64,
}

/// A launch spec (`*.launch.json`).
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchSpec {
    /// The file it was read from, if any (used in error messages).
    pub file: Option<PathBuf>,
    /// The folder `ptx` is relative to (the spec file's folder).
    pub base_dir: PathBuf,
    /// `ptx`: the module, relative to the spec file. Optional: "A command
    /// line may name the module instead."
    pub ptx: Option<String>,
    /// `kernel`: the `.entry` to launch.
    pub kernel: String,
    /// `grid` as written, 1 to 3 dimensions; see [`LaunchSpec::grid`].
    pub grid_dims: Vec<u32>,
    /// `block` as written, 1 to 3 dimensions; see [`LaunchSpec::block`].
    pub block_dims: Vec<u32>,
    pub params: Vec<ParamValue>,
    /// `buffers` in the order written (names are unique).
    pub buffers: Vec<BufferSpec>,
    /// `textures` in the order written (names are unique).
    pub textures: Vec<TextureSpec>,
    /// `surfaces` in the order written (names are unique among buffers and
    /// surfaces); this project's extension (corpus/LAUNCH_SPEC.md, "Surfaces").
    pub surfaces: Vec<SurfaceSpec>,
    /// `outputs` as written; `None` when missing (= all buffers and
    /// surfaces).
    pub outputs: Option<Vec<String>>,
    pub dynamic_shared_bytes: u32,
    pub compare: CompareRule,
}

fn dims3(d: &[u32]) -> [u32; 3] {
    // "missing dimensions are 1"
    let mut out = [1u32; 3];
    for (o, v) in out.iter_mut().zip(d) {
        *o = *v;
    }
    out
}

impl LaunchSpec {
    /// Reads and validates a spec file; `ptx` is taken relative to its folder.
    pub fn from_file(path: impl AsRef<Path>) -> Result<LaunchSpec, LaunchError> {
        let path = path.as_ref();
        let text = read_text(path)?;
        let base = path.parent().unwrap_or_else(|| Path::new(""));
        parse_spec(&text, base)
            .map_err(|e| e.with_file(Some(path)))
            .map(|mut s| {
                s.file = Some(path.to_path_buf());
                s
            })
    }

    /// Reads and validates a spec from text; `ptx` is relative to `base_dir`.
    pub fn from_json_str(
        text: &str,
        base_dir: impl AsRef<Path>,
    ) -> Result<LaunchSpec, LaunchError> {
        parse_spec(text, base_dir.as_ref())
    }

    /// Grid size in CTAs, `[x, y, z]`, missing dimensions 1.
    pub fn grid(&self) -> [u32; 3] {
        dims3(&self.grid_dims)
    }

    /// Threads per CTA, `[x, y, z]`, missing dimensions 1.
    pub fn block(&self) -> [u32; 3] {
        dims3(&self.block_dims)
    }

    /// Threads in one CTA.
    pub fn threads_per_block(&self) -> u64 {
        self.block().iter().map(|&d| u64::from(d)).product()
    }

    /// CTAs in the grid.
    pub fn block_count(&self) -> u64 {
        self.grid().iter().map(|&d| u64::from(d)).product()
    }

    /// The module's path (`base_dir` joined with `ptx`), if `ptx` is given.
    pub fn ptx_path(&self) -> Option<PathBuf> {
        self.ptx.as_ref().map(|p| self.base_dir.join(p))
    }

    pub fn buffer(&self, name: &str) -> Option<&BufferSpec> {
        self.buffers.iter().find(|b| b.name == name)
    }

    pub fn texture(&self, name: &str) -> Option<&TextureSpec> {
        self.textures.iter().find(|t| t.name == name)
    }

    /// The buffers (and surfaces) compared after the run: `outputs` in the
    /// order written, or, when `outputs` is missing, every buffer ("Missing
    /// means all buffers") and every surface (Decision: surfaces are
    /// kernel-written memory like buffers), in name order (Decision: name
    /// order, as for placement).
    pub fn output_names(&self) -> Vec<&str> {
        match &self.outputs {
            Some(o) => o.iter().map(String::as_str).collect(),
            None => {
                let mut v: Vec<&str> = self.buffers.iter().map(|b| b.name.as_str()).collect();
                v.extend(self.surfaces.iter().map(|s| s.name.as_str()));
                v.sort_unstable();
                v
            }
        }
    }

    /// Checks a spec built or changed in code by the same rules as a file
    /// (it is written out and read back, so the messages are the reader's).
    pub fn validate(&self) -> Result<(), LaunchError> {
        parse_spec(&self.to_json_string(), &self.base_dir)
            .map(|_| ())
            .map_err(|e| e.with_file(self.file.as_deref()))
    }

    /// The spec as JSON, in the layout of the corpus files (one param and
    /// one buffer per line). Reading it back gives an equal spec.
    pub fn to_json_string(&self) -> String {
        write_spec(self)
    }
}

pub(super) fn read_text(path: &Path) -> Result<String, LaunchError> {
    let bytes = fs::read(path).map_err(|e| {
        LaunchError::new(ErrorKind::Io, "", format!("cannot read: {e}")).with_file(Some(path))
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let pos = e.utf8_error().valid_up_to();
        LaunchError::new(
            ErrorKind::Syntax,
            "",
            format!("not UTF-8 text (byte {pos})"),
        )
        .with_file(Some(path))
    })
}

// ---------------------------------------------------------------------------
// Reading

/// Reads JSON values with field paths and positions for messages.
pub(super) struct Ctx<'a> {
    pub text: &'a str,
}

/// `a.b`, or `b` at the top level.
pub(super) fn sub(field: &str, key: &str) -> String {
    if field.is_empty() {
        key.to_string()
    } else {
        format!("{field}.{key}")
    }
}

pub(super) fn idx(field: &str, i: usize) -> String {
    format!("{field}[{i}]")
}

impl<'a> Ctx<'a> {
    pub fn err(&self, pos: usize, field: &str, msg: impl Into<String>) -> LaunchError {
        LaunchError::new(ErrorKind::Invalid, field, msg).at(self.text, pos)
    }

    pub fn parse(&self) -> Result<Value, LaunchError> {
        json::parse(self.text).map_err(|e| {
            LaunchError::new(
                ErrorKind::Syntax,
                "",
                format!("invalid JSON: {}", e.message),
            )
            .at(self.text, e.pos)
        })
    }

    fn wrong_type(&self, v: &Value, field: &str, want: &str) -> LaunchError {
        self.err(
            v.pos,
            field,
            format!("expected {want}, found {}", v.kind.describe()),
        )
    }

    pub fn object<'v>(&self, v: &'v Value, field: &str) -> Result<&'v [Member], LaunchError> {
        match &v.kind {
            Kind::Object(m) => Ok(m),
            _ => Err(self.wrong_type(v, field, "an object")),
        }
    }

    pub fn array<'v>(&self, v: &'v Value, field: &str) -> Result<&'v [Value], LaunchError> {
        match &v.kind {
            Kind::Array(a) => Ok(a),
            _ => Err(self.wrong_type(v, field, "an array")),
        }
    }

    pub fn string<'v>(&self, v: &'v Value, field: &str) -> Result<&'v str, LaunchError> {
        match &v.kind {
            Kind::String(s) => Ok(s),
            _ => Err(self.wrong_type(v, field, "a string")),
        }
    }

    pub fn boolean(&self, v: &Value, field: &str) -> Result<bool, LaunchError> {
        match &v.kind {
            Kind::Bool(b) => Ok(*b),
            _ => Err(self.wrong_type(v, field, "true or false")),
        }
    }

    /// Any integer (exactly), 128-bit range.
    pub fn int(&self, v: &Value, field: &str) -> Result<i128, LaunchError> {
        match &v.kind {
            Kind::Number(t) => json::number_to_i128(t).map_err(|why| match why {
                "not an integer" => {
                    self.err(v.pos, field, format!("expected an integer, found {t}"))
                }
                _ => self.err(v.pos, field, format!("{t} is out of range")),
            }),
            _ => Err(self.wrong_type(v, field, "an integer")),
        }
    }

    /// An integer in `[lo, hi]`.
    pub fn int_in(
        &self,
        v: &Value,
        field: &str,
        lo: i128,
        hi: i128,
        what: &str,
    ) -> Result<i128, LaunchError> {
        let x = self.int(v, field)?;
        if x < lo || x > hi {
            return Err(self.err(
                v.pos,
                field,
                format!("{x} is out of range for {what} ({lo} to {hi})"),
            ));
        }
        Ok(x)
    }

    pub fn u64(&self, v: &Value, field: &str) -> Result<u64, LaunchError> {
        Ok(self.int_in(
            v,
            field,
            0,
            i128::from(u64::MAX),
            "an unsigned 64-bit integer",
        )? as u64)
    }

    pub fn u32(&self, v: &Value, field: &str) -> Result<u32, LaunchError> {
        Ok(self.int_in(
            v,
            field,
            0,
            i128::from(u32::MAX),
            "an unsigned 32-bit integer",
        )? as u32)
    }

    /// A finite number as the nearest f64.
    pub fn f64(&self, v: &Value, field: &str) -> Result<f64, LaunchError> {
        match &v.kind {
            Kind::Number(t) => json::number_to_f64(t)
                .map_err(|why| self.err(v.pos, field, format!("{t} is {why}"))),
            _ => Err(self.wrong_type(v, field, "a number")),
        }
    }

    /// Rejects members other than `allowed`.
    pub fn only_keys(
        &self,
        members: &[Member],
        allowed: &[&str],
        field: &str,
    ) -> Result<(), LaunchError> {
        for m in members {
            if !allowed.contains(&m.key.as_str()) {
                let shown = if field.is_empty() { "the spec" } else { field };
                return Err(self.err(
                    m.key_pos,
                    field,
                    format!(
                        "unknown field '{}' (fields of {shown}: {})",
                        m.key,
                        allowed.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    pub fn get<'v>(members: &'v [Member], key: &str) -> Option<&'v Value> {
        members.iter().find(|m| m.key == key).map(|m| &m.value)
    }

    pub fn require<'v>(
        &self,
        members: &'v [Member],
        key: &str,
        field: &str,
        obj_pos: usize,
    ) -> Result<&'v Value, LaunchError> {
        Self::get(members, key)
            .ok_or_else(|| self.err(obj_pos, field, format!("missing field '{key}'")))
    }

    /// A `"0x…"` pattern that fits in `ty`'s width.
    pub fn hex_bits(&self, v: &Value, field: &str, ty: ElemType) -> Result<u64, LaunchError> {
        let s = self.string(v, field)?;
        parse_hex_bits(s, ty).map_err(|m| self.err(v.pos, field, m))
    }
}

/// Parses `"0x…"` into a value of `ty`'s width. Decision: hex digits in
/// either case, `0x` or `0X`, any number of leading zeros; a value wider
/// than the type is an error, not truncated.
pub(super) fn parse_hex_bits(s: &str, ty: ElemType) -> Result<u64, String> {
    let Some(digits) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) else {
        return Err(format!("expected a hex bit pattern \"0x…\", found \"{s}\""));
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("\"{s}\" is not a hex bit pattern"));
    }
    let significant = digits.trim_start_matches('0');
    if significant.len() > 16 {
        return Err(format!("{s} does not fit in {} bits ({ty})", ty.bits()));
    }
    let v = if significant.is_empty() {
        0
    } else {
        u64::from_str_radix(significant, 16).map_err(|e| format!("\"{s}\": {e}"))?
    };
    if v & !ty.mask() != 0 {
        return Err(format!("{s} does not fit in {} bits ({ty})", ty.bits()));
    }
    Ok(v)
}

/// Decision: an integer value for an n-bit type may be anything in
/// [-2^(n-1), 2^n - 1] (the union of the signed and unsigned ranges, as PTX
/// immediates are), stored as its low n bits; `{"u32": -1}` is 0xffffffff.
/// Anything wider is an error rather than a silent wrap.
pub(super) fn int_range(ty: ElemType) -> (i128, i128) {
    let n = ty.bits();
    (-(1i128 << (n - 1)), (1i128 << n) - 1)
}

/// Decision: `random` bounds and `iota` start/step for integer types may be
/// anything in [-2^63, 2^64 - 1]: the spec does the arithmetic in 128 bits
/// "then stored in the type" (integers wrap), so a bound outside the type is
/// legal, but nothing needs more than 64 bits.
pub(super) const WIDE_INT: (i128, i128) = (i64::MIN as i128, u64::MAX as i128);

/// Numbers (Decision, for all numbers of a spec): the decimal text becomes
/// the nearest f64 (correctly rounded), and that f64 is rounded to nearest
/// into the element type ("converted to the type", "rounded to nearest into
/// the type (directly from f64 for f16)"), the way the corpus host programs
/// fill buffers from C++ double literals. Integers are read exactly.
///
/// A scalar of type `ty`: integer types take exact integers in
/// [`int_range`]; float types take any finite number (as the nearest f64).
fn scalar(
    ctx: &Ctx,
    v: &Value,
    field: &str,
    ty: ElemType,
    range: (i128, i128),
) -> Result<Scalar, LaunchError> {
    if ty.is_float() {
        Ok(Scalar::Float(ctx.f64(v, field)?))
    } else {
        let what = if range == WIDE_INT {
            "a 64-bit integer".to_string()
        } else {
            format!("{ty}")
        };
        Ok(Scalar::Int(ctx.int_in(v, field, range.0, range.1, &what)?))
    }
}

/// Reads an `init` for `count` elements of `ty`.
pub(super) fn parse_init(
    ctx: &Ctx,
    v: &Value,
    field: &str,
    ty: ElemType,
    count: u64,
) -> Result<Init, LaunchError> {
    const KINDS: &str =
        "\"zeros\", or an object with one of iota, values, bits, random, special_mix";
    let members = match &v.kind {
        Kind::String(s) if s == "zeros" => return Ok(Init::Zeros),
        Kind::String(s) => {
            return Err(ctx.err(
                v.pos,
                field,
                format!("unknown init \"{s}\" (expected {KINDS})"),
            ))
        }
        Kind::Object(m) => m,
        _ => {
            return Err(ctx.err(
                v.pos,
                field,
                format!("expected {KINDS}, found {}", v.kind.describe()),
            ))
        }
    };
    if members.len() != 1 {
        return Err(ctx.err(
            v.pos,
            field,
            format!(
                "expected exactly one init kind, found {} fields",
                members.len()
            ),
        ));
    }
    let m = &members[0];
    let f = sub(field, &m.key);
    let body = &m.value;
    match m.key.as_str() {
        "iota" => {
            let o = ctx.object(body, &f)?;
            ctx.only_keys(o, &["start", "step"], &f)?;
            let start = ctx.require(o, "start", &f, body.pos)?;
            let step = ctx.require(o, "step", &f, body.pos)?;
            Ok(Init::Iota {
                start: scalar(ctx, start, &sub(&f, "start"), ty, WIDE_INT)?,
                step: scalar(ctx, step, &sub(&f, "step"), ty, WIDE_INT)?,
            })
        }
        "values" => {
            let a = ctx.array(body, &f)?;
            if a.len() as u64 != count {
                return Err(ctx.err(
                    body.pos,
                    &f,
                    format!("expected {count} numbers, found {}", a.len()),
                ));
            }
            let mut out = Vec::with_capacity(a.len());
            for (i, x) in a.iter().enumerate() {
                out.push(scalar(ctx, x, &idx(&f, i), ty, int_range(ty))?);
            }
            Ok(Init::Values(out))
        }
        "bits" => {
            let a = ctx.array(body, &f)?;
            if a.len() as u64 != count {
                return Err(ctx.err(
                    body.pos,
                    &f,
                    format!("expected {count} bit patterns, found {}", a.len()),
                ));
            }
            let mut out = Vec::with_capacity(a.len());
            for (i, x) in a.iter().enumerate() {
                out.push(ctx.hex_bits(x, &idx(&f, i), ty)?);
            }
            Ok(Init::Bits(out))
        }
        "random" => {
            let o = ctx.object(body, &f)?;
            ctx.only_keys(o, &["seed", "min", "max"], &f)?;
            let seed = ctx.u64(ctx.require(o, "seed", &f, body.pos)?, &sub(&f, "seed"))?;
            let range = match (Ctx::get(o, "min"), Ctx::get(o, "max")) {
                (None, None) => {
                    // Decision: the spec defines the bound-less form only for
                    // integers ("without min/max, the low bits of z"); a float
                    // buffer must give its range (raw random bits would be
                    // NaN-ridden; use bits or special_mix for specials).
                    if ty.is_float() {
                        return Err(ctx.err(
                            body.pos,
                            &f,
                            format!("a {ty} buffer needs 'min' and 'max' (only integer types may omit them)"),
                        ));
                    }
                    None
                }
                (Some(a), Some(b)) => {
                    let lo = scalar(ctx, a, &sub(&f, "min"), ty, WIDE_INT)?;
                    let hi = scalar(ctx, b, &sub(&f, "max"), ty, WIDE_INT)?;
                    // Decision: min <= max (an empty or reversed range is a mistake).
                    let reversed = match (lo, hi) {
                        (Scalar::Int(x), Scalar::Int(y)) => x > y,
                        (Scalar::Float(x), Scalar::Float(y)) => x > y,
                        _ => false,
                    };
                    if reversed {
                        return Err(ctx.err(b.pos, &sub(&f, "max"), "'max' is less than 'min'"));
                    }
                    Some((lo, hi))
                }
                (Some(_), None) => return Err(ctx.err(body.pos, &f, "'min' given without 'max'")),
                (None, Some(_)) => return Err(ctx.err(body.pos, &f, "'max' given without 'min'")),
            };
            Ok(Init::Random { seed, range })
        }
        "special_mix" => {
            // "(floats only)"
            if !ty.is_float() {
                return Err(ctx.err(
                    m.key_pos,
                    &f,
                    format!("special_mix is for float types only, not {ty}"),
                ));
            }
            let o = ctx.object(body, &f)?;
            ctx.only_keys(o, &["seed"], &f)?;
            let seed = ctx.u64(ctx.require(o, "seed", &f, body.pos)?, &sub(&f, "seed"))?;
            Ok(Init::SpecialMix { seed })
        }
        other => Err(ctx.err(
            m.key_pos,
            field,
            format!("unknown init kind '{other}' (expected {KINDS})"),
        )),
    }
}

fn parse_dims(ctx: &Ctx, v: &Value, field: &str) -> Result<Vec<u32>, LaunchError> {
    let a = ctx.array(v, field)?;
    if a.is_empty() || a.len() > 3 {
        return Err(ctx.err(
            v.pos,
            field,
            format!("expected 1 to 3 dimensions, found {}", a.len()),
        ));
    }
    let mut out = Vec::with_capacity(a.len());
    for (i, x) in a.iter().enumerate() {
        let d = ctx.u32(x, &idx(field, i))?;
        if d == 0 {
            return Err(ctx.err(x.pos, &idx(field, i), "must be at least 1"));
        }
        out.push(d);
    }
    Ok(out)
}

/// The hardware's launch limits (CUDA C++ Programming Guide, "Technical
/// Specifications per Compute Capability", 5.0 to 9.0): a grid of at most
/// 2^31-1 x 65535 x 65535 CTAs, a CTA of at most 1024 x 1024 x 64 and 1024
/// threads in all. A launch past them fails on the GPU, so no runner may
/// give it a verdict (and 4096 threads would be simulated as if real).
const GRID_MAX: [u32; 3] = [i32::MAX as u32, 65535, 65535];
const BLOCK_MAX: [u32; 3] = [1024, 1024, 64];

fn check_dims(
    ctx: &Ctx,
    v: &Value,
    field: &str,
    d: &[u32],
    max: &[u32; 3],
    total: Option<u64>,
) -> Result<(), LaunchError> {
    let a = ctx.array(v, field)?;
    for (i, (&x, &m)) in d.iter().zip(max).enumerate() {
        if x > m {
            return Err(ctx.err(
                a[i].pos,
                &idx(field, i),
                format!("{x} is more than the hardware's {m}"),
            ));
        }
    }
    let n: u64 = d.iter().map(|&x| u64::from(x)).product();
    if let Some(t) = total.filter(|&t| n > t) {
        return Err(ctx.err(v.pos, field, format!("{n} threads; a CTA has at most {t}")));
    }
    Ok(())
}

pub(super) fn elem_type(ctx: &Ctx, v: &Value, field: &str) -> Result<ElemType, LaunchError> {
    let s = ctx.string(v, field)?;
    ElemType::from_name(s).ok_or_else(|| {
        ctx.err(
            v.pos,
            field,
            format!("unknown type \"{s}\" (expected one of u8 s8 u16 s16 u32 s32 u64 s64 f16 f32 f64 b8 b16 b32 b64)"),
        )
    })
}

/// Decision: names must be non-empty (they are printed in reports and used
/// as `.texref` names).
fn check_name(ctx: &Ctx, m: &Member, field: &str) -> Result<(), LaunchError> {
    if m.key.is_empty() {
        return Err(ctx.err(m.key_pos, field, "a name must not be empty"));
    }
    Ok(())
}

fn parse_buffer(ctx: &Ctx, m: &Member, field: &str) -> Result<BufferSpec, LaunchError> {
    check_name(ctx, m, field)?;
    let f = sub(field, &m.key);
    let o = ctx.object(&m.value, &f)?;
    ctx.only_keys(o, &["type", "len", "init"], &f)?;
    let ty = elem_type(
        ctx,
        ctx.require(o, "type", &f, m.value.pos)?,
        &sub(&f, "type"),
    )?;
    let len_v = ctx.require(o, "len", &f, m.value.pos)?;
    // Decision: len 0 is allowed (the buffer still gets an address and a
    // guard gap; no access to it is inside it).
    let len = ctx.u64(len_v, &sub(&f, "len"))?;
    let fits = matches!(len.checked_mul(ty.size() as u64), Some(b) if b <= GLOBAL_LIMIT);
    if !fits {
        return Err(ctx.err(
            len_v.pos,
            &sub(&f, "len"),
            format!("{len} elements of {ty} do not fit in 4 GiB"),
        ));
    }
    // Decision: a missing init means zeros.
    let init = match Ctx::get(o, "init") {
        Some(v) => parse_init(ctx, v, &sub(&f, "init"), ty, len)?,
        None => Init::Zeros,
    };
    Ok(BufferSpec {
        name: m.key.clone(),
        ty,
        len,
        init,
    })
}

/// Decision: at most 1 GiB per texture or surface image.
const IMAGE_LIMIT: u64 = 1 << 30;

fn parse_texture(ctx: &Ctx, m: &Member, field: &str) -> Result<TextureSpec, LaunchError> {
    check_name(ctx, m, field)?;
    let f = sub(field, &m.key);
    let o = ctx.object(&m.value, &f)?;
    ctx.only_keys(
        o,
        &[
            "type",
            "channels",
            "dims",
            "init",
            "address_mode",
            "filter",
            "normalized_coords",
            "border_color",
            "layers",
        ],
        &f,
    )?;
    let ty = elem_type(
        ctx,
        ctx.require(o, "type", &f, m.value.pos)?,
        &sub(&f, "type"),
    )?;
    // Decision: channels 1 to 4 (CUDA channel formats), default 1.
    let channels = parse_channels(ctx, o, &f, &[1, 2, 3, 4], "1 to 4")?;
    let dims_v = ctx.require(o, "dims", &f, m.value.pos)?;
    let dims = parse_dims(ctx, dims_v, &sub(&f, "dims"))?;
    let (layers, count) = image_layers(ctx, o, &f, &dims, dims_v, channels, ty, "texture")?;
    // The init covers dims[0]*dims[1]*dims[2]*channels elements (times
    // layers), x fastest, channels interleaved, layer 0 first (see
    // TextureSpec::layer_element_index).
    let init = match Ctx::get(o, "init") {
        Some(v) => parse_init(ctx, v, &sub(&f, "init"), ty, count)?,
        None => Init::Zeros,
    };
    // "address_mode": one per dimension. Decision: missing means "clamp" in
    // every dimension.
    let address_mode = match Ctx::get(o, "address_mode") {
        Some(v) => {
            let ff = sub(&f, "address_mode");
            let a = ctx.array(v, &ff)?;
            if a.len() != dims.len() {
                return Err(ctx.err(
                    v.pos,
                    &ff,
                    format!(
                        "expected one mode per dimension ({}), found {}",
                        dims.len(),
                        a.len()
                    ),
                ));
            }
            let mut modes = Vec::new();
            for (i, x) in a.iter().enumerate() {
                let s = ctx.string(x, &idx(&ff, i))?;
                modes.push(AddressMode::from_name(s).ok_or_else(|| {
                    ctx.err(
                        x.pos,
                        &idx(&ff, i),
                        format!(
                            "unknown address mode \"{s}\" (expected clamp, wrap, mirror or border)"
                        ),
                    )
                })?);
            }
            modes
        }
        None => vec![AddressMode::Clamp; dims.len()],
    };
    let filter = match Ctx::get(o, "filter") {
        Some(v) => {
            let s = ctx.string(v, &sub(&f, "filter"))?;
            Filter::from_name(s).ok_or_else(|| {
                ctx.err(
                    v.pos,
                    &sub(&f, "filter"),
                    format!("unknown filter \"{s}\" (expected point or linear)"),
                )
            })?
        }
        None => Filter::Point,
    };
    let normalized_coords = match Ctx::get(o, "normalized_coords") {
        Some(v) => ctx.boolean(v, &sub(&f, "normalized_coords"))?,
        None => false,
    };
    // Decision: border_color has exactly 4 numbers (r, g, b, a; CUDA's
    // float borderColor[4]); missing means [0, 0, 0, 0].
    let border_color = match Ctx::get(o, "border_color") {
        Some(v) => {
            let ff = sub(&f, "border_color");
            let a = ctx.array(v, &ff)?;
            if a.len() != 4 {
                return Err(ctx.err(v.pos, &ff, format!("expected 4 numbers, found {}", a.len())));
            }
            let mut c = [0.0f64; 4];
            for (i, x) in a.iter().enumerate() {
                c[i] = ctx.f64(x, &idx(&ff, i))?;
            }
            Some(c)
        }
        None => None,
    };
    Ok(TextureSpec {
        name: m.key.clone(),
        ty,
        channels,
        dims,
        init,
        address_mode,
        filter,
        normalized_coords,
        border_color,
        layers,
    })
}

/// One entry of `surfaces` (this project's extension, corpus/LAUNCH_SPEC.md
/// "Surfaces"): `{"type", "channels", "dims", "layers", "init"}`.
fn parse_surface(ctx: &Ctx, m: &Member, field: &str) -> Result<SurfaceSpec, LaunchError> {
    check_name(ctx, m, field)?;
    let f = sub(field, &m.key);
    let o = ctx.object(&m.value, &f)?;
    ctx.only_keys(o, &["type", "channels", "dims", "layers", "init"], &f)?;
    let ty = elem_type(
        ctx,
        ctx.require(o, "type", &f, m.value.pos)?,
        &sub(&f, "type"),
    )?;
    // Decision: 1, 2 or 4 channels, default 1 (the element sizes a CUDA
    // array bound to a surface has: cudaCreateChannelDesc formats of 1, 2
    // or 4 components; 3-component arrays are refused by the CUDA runtime).
    let channels = parse_channels(ctx, o, &f, &[1, 2, 4], "1, 2 or 4")?;
    let dims_v = ctx.require(o, "dims", &f, m.value.pos)?;
    let dims = parse_dims(ctx, dims_v, &sub(&f, "dims"))?;
    let (layers, count) = image_layers(ctx, o, &f, &dims, dims_v, channels, ty, "surface")?;
    let init = match Ctx::get(o, "init") {
        Some(v) => parse_init(ctx, v, &sub(&f, "init"), ty, count)?,
        None => Init::Zeros,
    };
    Ok(SurfaceSpec {
        name: m.key.clone(),
        ty,
        channels,
        dims,
        layers,
        init,
    })
}

fn parse_param(
    ctx: &Ctx,
    v: &Value,
    field: &str,
    buffers: &[BufferSpec],
    textures: &[TextureSpec],
    surfaces: &[SurfaceSpec],
) -> Result<ParamValue, LaunchError> {
    let o = ctx.object(v, field)?;
    if Ctx::get(o, "buffer").is_some() {
        ctx.only_keys(o, &["buffer", "offset"], field)?;
        let bv = ctx.require(o, "buffer", field, v.pos)?;
        let name = ctx.string(bv, &sub(field, "buffer"))?;
        let Some(b) = buffers.iter().find(|b| b.name == name) else {
            return Err(ctx.err(bv.pos, field, format!("unknown buffer '{name}'")));
        };
        let offset = match Ctx::get(o, "offset") {
            Some(ov) => {
                let off = ctx.u64(ov, &sub(field, "offset"))?;
                // Decision: the offset stays within the buffer (one past its
                // end allowed, as for a C pointer).
                if off > b.byte_len() {
                    return Err(ctx.err(
                        ov.pos,
                        &sub(field, "offset"),
                        format!(
                            "offset {off} is past the end of buffer '{name}' ({} bytes)",
                            b.byte_len()
                        ),
                    ));
                }
                off
            }
            None => 0,
        };
        return Ok(ParamValue::Buffer {
            name: name.to_string(),
            offset,
        });
    }
    if Ctx::get(o, "texture").is_some() {
        ctx.only_keys(o, &["texture"], field)?;
        let tv = ctx.require(o, "texture", field, v.pos)?;
        let name = ctx.string(tv, &sub(field, "texture"))?;
        if !textures.iter().any(|t| t.name == name) {
            return Err(ctx.err(tv.pos, field, format!("unknown texture '{name}'")));
        }
        return Ok(ParamValue::Texture {
            name: name.to_string(),
        });
    }
    if Ctx::get(o, "surface").is_some() {
        ctx.only_keys(o, &["surface"], field)?;
        let sv = ctx.require(o, "surface", field, v.pos)?;
        let name = ctx.string(sv, &sub(field, "surface"))?;
        if !surfaces.iter().any(|s| s.name == name) {
            return Err(ctx.err(sv.pos, field, format!("unknown surface '{name}'")));
        }
        return Ok(ParamValue::Surface {
            name: name.to_string(),
        });
    }
    if Ctx::get(o, "type").is_some() {
        ctx.only_keys(o, &["type", "bits"], field)?;
        let ty = elem_type(
            ctx,
            ctx.require(o, "type", field, v.pos)?,
            &sub(field, "type"),
        )?;
        let bv = ctx.require(o, "bits", field, v.pos)?;
        let bits = ctx.hex_bits(bv, &sub(field, "bits"), ty)?;
        return Ok(ParamValue::Bits { ty, bits });
    }
    if o.len() != 1 {
        return Err(ctx.err(
            v.pos,
            field,
            format!(
                "expected {{\"<type>\": number}}, {{\"type\": …, \"bits\": …}}, {{\"buffer\": …}}, {{\"texture\": …}} or {{\"surface\": …}}, found {} fields",
                o.len()
            ),
        ));
    }
    let m = &o[0];
    let Some(ty) = ElemType::from_name(&m.key) else {
        return Err(ctx.err(
            m.key_pos,
            field,
            format!("unknown parameter kind '{}' (expected a type such as \"u32\", or \"buffer\", \"texture\", \"surface\", \"type\")", m.key),
        ));
    };
    let value = scalar(ctx, &m.value, &sub(field, &m.key), ty, int_range(ty))?;
    Ok(ParamValue::Scalar { ty, value })
}

fn parse_spec(text: &str, base_dir: &Path) -> Result<LaunchSpec, LaunchError> {
    let ctx = Ctx { text };
    let root = ctx.parse()?;
    let top = ctx.object(&root, "")?;
    // Decision: a field the spec does not define is an error at every level
    // (a misspelt "output" would otherwise silently compare all buffers).
    ctx.only_keys(
        top,
        &[
            "ptx",
            "kernel",
            "grid",
            "block",
            "params",
            "buffers",
            "outputs",
            "dynamic_shared_bytes",
            "textures",
            "surfaces",
            "compare",
        ],
        "",
    )?;

    let ptx = match Ctx::get(top, "ptx") {
        Some(v) => {
            let s = ctx.string(v, "ptx")?;
            if s.is_empty() {
                return Err(ctx.err(v.pos, "ptx", "must not be empty"));
            }
            Some(s.to_string())
        }
        None => None,
    };
    let kv = ctx.require(top, "kernel", "", root.pos)?;
    let kernel = ctx.string(kv, "kernel")?.to_string();
    if kernel.is_empty() {
        return Err(ctx.err(kv.pos, "kernel", "must not be empty"));
    }
    let grid_v = ctx.require(top, "grid", "", root.pos)?;
    let grid_dims = parse_dims(&ctx, grid_v, "grid")?;
    check_dims(&ctx, grid_v, "grid", &grid_dims, &GRID_MAX, None)?;
    let block_v = ctx.require(top, "block", "", root.pos)?;
    let block_dims = parse_dims(&ctx, block_v, "block")?;
    check_dims(&ctx, block_v, "block", &block_dims, &BLOCK_MAX, Some(1024))?;

    // Decision: missing `buffers` / `textures` / `params` mean none.
    let mut buffers = Vec::new();
    if let Some(bv) = Ctx::get(top, "buffers") {
        for m in ctx.object(bv, "buffers")? {
            buffers.push(parse_buffer(&ctx, m, "buffers")?);
        }
        // Placement: each buffer takes its size rounded up to 256 plus the
        // 256-byte guard, whatever the order; all must end below 4 GiB
        // ("starting at 0x10000000 (so a 32-bit module can reach them)").
        let mut end = GLOBAL_BASE;
        for b in &buffers {
            end = end
                .saturating_add(b.byte_len().div_ceil(256).saturating_mul(256))
                .saturating_add(256);
        }
        if end > GLOBAL_LIMIT {
            return Err(ctx.err(
                bv.pos,
                "buffers",
                format!(
                    "the buffers need {} bytes of global memory with alignment and guard gaps; at most {} fit between 0x10000000 and 4 GiB",
                    end - GLOBAL_BASE,
                    GLOBAL_LIMIT - GLOBAL_BASE
                ),
            ));
        }
    }
    let mut textures = Vec::new();
    if let Some(tv) = Ctx::get(top, "textures") {
        for m in ctx.object(tv, "textures")? {
            textures.push(parse_texture(&ctx, m, "textures")?);
        }
    }
    let mut surfaces: Vec<SurfaceSpec> = Vec::new();
    if let Some(sv) = Ctx::get(top, "surfaces") {
        for m in ctx.object(sv, "surfaces")? {
            // Decision: a surface's name is not also a buffer's (both are
            // outputs, named alone in `outputs` and the expected file).
            if buffers.iter().any(|b| b.name == m.key) {
                return Err(ctx.err(
                    m.key_pos,
                    &sub("surfaces", &m.key),
                    format!("'{}' is already a buffer's name", m.key),
                ));
            }
            surfaces.push(parse_surface(&ctx, m, "surfaces")?);
        }
    }
    let mut params = Vec::new();
    if let Some(pv) = Ctx::get(top, "params") {
        for (i, p) in ctx.array(pv, "params")?.iter().enumerate() {
            params.push(parse_param(
                &ctx,
                p,
                &idx("params", i),
                &buffers,
                &textures,
                &surfaces,
            )?);
        }
    }
    let outputs = match Ctx::get(top, "outputs") {
        Some(ov) => {
            let mut names: Vec<String> = Vec::new();
            for (i, x) in ctx.array(ov, "outputs")?.iter().enumerate() {
                let f = idx("outputs", i);
                let n = ctx.string(x, &f)?;
                if !buffers.iter().any(|b| b.name == n) && !surfaces.iter().any(|s| s.name == n) {
                    return Err(ctx.err(x.pos, &f, format!("unknown buffer or surface '{n}'")));
                }
                if names.iter().any(|m| m == n) {
                    return Err(ctx.err(x.pos, &f, format!("buffer '{n}' listed twice")));
                }
                names.push(n.to_string());
            }
            Some(names)
        }
        None => None,
    };
    let dynamic_shared_bytes = match Ctx::get(top, "dynamic_shared_bytes") {
        Some(v) => ctx.u32(v, "dynamic_shared_bytes")?,
        None => 0,
    };
    let compare = match Ctx::get(top, "compare") {
        Some(cv) => {
            let o = ctx.object(cv, "compare")?;
            ctx.only_keys(o, &["nan", "ulps"], "compare")?;
            let nan = match Ctx::get(o, "nan") {
                Some(v) => match ctx.string(v, "compare.nan")? {
                    "bitwise" => NanRule::Bitwise,
                    "any" => NanRule::Any,
                    s => {
                        return Err(ctx.err(
                            v.pos,
                            "compare.nan",
                            format!("unknown rule \"{s}\" (expected \"bitwise\" or \"any\")"),
                        ))
                    }
                },
                None => NanRule::Bitwise,
            };
            let ulps = match Ctx::get(o, "ulps") {
                Some(v) => ctx.u64(v, "compare.ulps")?,
                None => 0,
            };
            CompareRule { nan, ulps }
        }
        None => CompareRule::default(),
    };
    Ok(LaunchSpec {
        file: None,
        base_dir: base_dir.to_path_buf(),
        ptx,
        kernel,
        grid_dims,
        block_dims,
        params,
        buffers,
        textures,
        surfaces,
        outputs,
        dynamic_shared_bytes,
        compare,
    })
}

// ---------------------------------------------------------------------------
// Writing

pub(super) fn scalar_text(s: &Scalar) -> String {
    match s {
        Scalar::Int(v) => v.to_string(),
        Scalar::Float(f) => json::f64_text(*f),
    }
}

/// `"0x…"` with all the digits of the element width, lower case.
pub(super) fn hex_text(ty: ElemType, bits: u64) -> String {
    format!("\"0x{:0width$x}\"", bits & ty.mask(), width = ty.size() * 2)
}

pub(super) fn init_text(init: &Init, ty: ElemType) -> String {
    let join = |v: Vec<String>| v.join(", ");
    match init {
        Init::Zeros => "\"zeros\"".to_string(),
        Init::Iota { start, step } => format!(
            "{{\"iota\": {{\"start\": {}, \"step\": {}}}}}",
            scalar_text(start),
            scalar_text(step)
        ),
        Init::Values(v) => format!(
            "{{\"values\": [{}]}}",
            join(v.iter().map(scalar_text).collect())
        ),
        Init::Bits(v) => format!(
            "{{\"bits\": [{}]}}",
            join(v.iter().map(|b| hex_text(ty, *b)).collect())
        ),
        Init::Random { seed, range: None } => format!("{{\"random\": {{\"seed\": {seed}}}}}"),
        Init::Random {
            seed,
            range: Some((a, b)),
        } => format!(
            "{{\"random\": {{\"seed\": {seed}, \"min\": {}, \"max\": {}}}}}",
            scalar_text(a),
            scalar_text(b)
        ),
        Init::SpecialMix { seed } => format!("{{\"special_mix\": {{\"seed\": {seed}}}}}"),
    }
}

fn param_text(p: &ParamValue) -> String {
    match p {
        ParamValue::Scalar { ty, value } => format!("{{\"{ty}\": {}}}", scalar_text(value)),
        ParamValue::Bits { ty, bits } => {
            format!("{{\"type\": \"{ty}\", \"bits\": {}}}", hex_text(*ty, *bits))
        }
        ParamValue::Buffer { name, offset: 0 } => format!("{{\"buffer\": {}}}", json::quote(name)),
        ParamValue::Buffer { name, offset } => {
            format!(
                "{{\"buffer\": {}, \"offset\": {offset}}}",
                json::quote(name)
            )
        }
        ParamValue::Texture { name } => format!("{{\"texture\": {}}}", json::quote(name)),
        ParamValue::Surface { name } => format!("{{\"surface\": {}}}", json::quote(name)),
    }
}

fn dims_text(d: &[u32]) -> String {
    format!(
        "[{}]",
        d.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
    )
}

fn texture_text(t: &TextureSpec) -> String {
    let modes: Vec<String> = t
        .address_mode
        .iter()
        .map(|m| format!("\"{}\"", m.name()))
        .collect();
    let mut s = format!(
        "{{\"type\": \"{}\", \"channels\": {}, \"dims\": {}, \"init\": {}, \"address_mode\": [{}], \"filter\": \"{}\", \"normalized_coords\": {}",
        t.ty,
        t.channels,
        dims_text(&t.dims),
        init_text(&t.init, t.ty),
        modes.join(", "),
        t.filter.name(),
        t.normalized_coords
    );
    if let Some(c) = &t.border_color {
        let c: Vec<String> = c.iter().map(|x| json::f64_text(*x)).collect();
        s.push_str(&format!(", \"border_color\": [{}]", c.join(", ")));
    }
    if let Some(n) = t.layers {
        s.push_str(&format!(", \"layers\": {n}"));
    }
    s.push('}');
    s
}

fn write_spec(s: &LaunchSpec) -> String {
    let mut out = String::from("{\n");
    if let Some(p) = &s.ptx {
        out.push_str(&format!("  \"ptx\": {},\n", json::quote(p)));
    }
    out.push_str(&format!("  \"kernel\": {},\n", json::quote(&s.kernel)));
    out.push_str(&format!("  \"grid\": {},\n", dims_text(&s.grid_dims)));
    out.push_str(&format!("  \"block\": {},\n", dims_text(&s.block_dims)));
    let items: Vec<String> = s
        .params
        .iter()
        .map(|p| format!("    {}", param_text(p)))
        .collect();
    if items.is_empty() {
        out.push_str("  \"params\": [],\n");
    } else {
        out.push_str(&format!("  \"params\": [\n{}\n  ],\n", items.join(",\n")));
    }
    let items: Vec<String> = s
        .buffers
        .iter()
        .map(|b| {
            format!(
                "    {}: {{\"type\": \"{}\", \"len\": {}, \"init\": {}}}",
                json::quote(&b.name),
                b.ty,
                b.len,
                init_text(&b.init, b.ty)
            )
        })
        .collect();
    if items.is_empty() {
        out.push_str("  \"buffers\": {},\n");
    } else {
        out.push_str(&format!(
            "  \"buffers\": {{\n{}\n  }},\n",
            items.join(",\n")
        ));
    }
    if !s.textures.is_empty() {
        let items: Vec<String> = s
            .textures
            .iter()
            .map(|t| format!("    {}: {}", json::quote(&t.name), texture_text(t)))
            .collect();
        out.push_str(&format!(
            "  \"textures\": {{\n{}\n  }},\n",
            items.join(",\n")
        ));
    }
    if !s.surfaces.is_empty() {
        let items: Vec<String> = s
            .surfaces
            .iter()
            .map(|t| {
                let mut x = format!(
                    "    {}: {{\"type\": \"{}\", \"channels\": {}, \"dims\": {}",
                    json::quote(&t.name),
                    t.ty,
                    t.channels,
                    dims_text(&t.dims)
                );
                if let Some(n) = t.layers {
                    x.push_str(&format!(", \"layers\": {n}"));
                }
                x.push_str(&format!(", \"init\": {}}}", init_text(&t.init, t.ty)));
                x
            })
            .collect();
        out.push_str(&format!(
            "  \"surfaces\": {{\n{}\n  }},\n",
            items.join(",\n")
        ));
    }
    if let Some(o) = &s.outputs {
        let names: Vec<String> = o.iter().map(|n| json::quote(n)).collect();
        out.push_str(&format!("  \"outputs\": [{}],\n", names.join(", ")));
    }
    out.push_str(&format!(
        "  \"dynamic_shared_bytes\": {},\n",
        s.dynamic_shared_bytes
    ));
    let nan = match s.compare.nan {
        NanRule::Bitwise => "bitwise",
        NanRule::Any => "any",
    };
    if s.compare.ulps == 0 {
        out.push_str(&format!("  \"compare\": {{\"nan\": \"{nan}\"}}\n"));
    } else {
        out.push_str(&format!(
            "  \"compare\": {{\"nan\": \"{nan}\", \"ulps\": {}}}\n",
            s.compare.ulps
        ));
    }
    out.push_str("}\n");
    out
}

// ---------------------------------------------------------------------------

/// The optional `"channels"` of a texture or surface: one of `allowed`
/// (named `words` in the error), default 1.
fn parse_channels(
    ctx: &Ctx,
    o: &[Member],
    f: &str,
    allowed: &[u32],
    words: &str,
) -> Result<u32, LaunchError> {
    let Some(v) = Ctx::get(o, "channels") else {
        return Ok(1);
    };
    let c = ctx.u32(v, &sub(f, "channels"))?;
    if !allowed.contains(&c) {
        return Err(ctx.err(
            v.pos,
            &sub(f, "channels"),
            format!("expected {words} channels, found {c}"),
        ));
    }
    Ok(c)
}

/// The optional `"layers"` of a texture or surface (`what`) and the
/// image's element count, `channels * dims... * layers`. "layers" (this
/// project's extension, corpus/LAUNCH_SPEC.md): `layers` consecutive images of
/// `dims`. Decision: at least 1 layer, and 1 or 2 dimensions (CUDA
/// Programming Guide, "Layered Textures": "A one-dimensional or
/// two-dimensional layered texture"; PTX has `.a1d` and `.a2d` only, for
/// `tex`, `tld4` and the surface instructions alike). Missing means not
/// layered. An image over 1 GiB is refused.
#[allow(clippy::too_many_arguments)]
fn image_layers(
    ctx: &Ctx,
    o: &[Member],
    f: &str,
    dims: &[u32],
    dims_v: &Value,
    channels: u32,
    ty: ElemType,
    what: &str,
) -> Result<(Option<u32>, u64), LaunchError> {
    let layers = match Ctx::get(o, "layers") {
        Some(v) => {
            let ff = sub(f, "layers");
            let n = ctx.u32(v, &ff)?;
            if n == 0 {
                return Err(ctx.err(
                    v.pos,
                    &ff,
                    format!("a layered {what} needs at least 1 layer"),
                ));
            }
            if what == "texture" && n > super::MAX_TEXTURE_LAYERS {
                return Err(ctx.err(
                    v.pos,
                    &ff,
                    format!(
                        "a layered texture has at most {} layers (CUDA's limit), found {n}",
                        super::MAX_TEXTURE_LAYERS
                    ),
                ));
            }
            if dims.len() > 2 {
                let ops = if what == "texture" {
                    "tex.a1d, tex.a2d"
                } else {
                    ".a1d, .a2d"
                };
                return Err(ctx.err(
                    v.pos,
                    &ff,
                    format!(
                        "layered {what}s have 1 or 2 dimensions ({ops}), found {} in dims",
                        dims.len()
                    ),
                ));
            }
            Some(n)
        }
        None => None,
    };
    let count = dims
        .iter()
        .fold(u64::from(channels), |acc, &d| {
            acc.saturating_mul(u64::from(d))
        })
        .saturating_mul(u64::from(layers.unwrap_or(1)));
    if count.saturating_mul(ty.size() as u64) > IMAGE_LIMIT {
        return Err(ctx.err(
            dims_v.pos,
            &sub(f, "dims"),
            format!("{what} larger than 1 GiB"),
        ));
    }
    Ok((layers, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) const SAXPY: &str = r#"{
  "ptx": "saxpy.ptx",
  "kernel": "saxpy",
  "grid": [4, 1, 1],
  "block": [64, 1, 1],
  "params": [
    {"u32": 256},
    {"f32": 2.5},
    {"buffer": "x"},
    {"buffer": "y", "offset": 16},
    {"type": "f32", "bits": "0x7fc00000"}
  ],
  "buffers": {
    "x": {"type": "f32", "len": 256, "init": {"random": {"seed": 1, "min": -8.0, "max": 8.0}}},
    "y": {"type": "f32", "len": 260, "init": {"iota": {"start": 0, "step": 0.5}}},
    "h": {"type": "u32", "len": 64, "init": "zeros"}
  },
  "outputs": ["y", "h"],
  "dynamic_shared_bytes": 0,
  "compare": {"nan": "bitwise"}
}"#;

    fn parse(t: &str) -> Result<LaunchSpec, LaunchError> {
        LaunchSpec::from_json_str(t, "/k")
    }

    /// The spec's own example, field by field.
    #[test]
    fn reads_the_example_of_launch_spec_md() {
        let s = parse(SAXPY).unwrap();
        assert_eq!(s.ptx_path(), Some(PathBuf::from("/k/saxpy.ptx")));
        assert_eq!(s.kernel, "saxpy");
        assert_eq!(s.grid(), [4, 1, 1]);
        assert_eq!(s.block(), [64, 1, 1]);
        assert_eq!(s.threads_per_block(), 64);
        assert_eq!(s.params.len(), 5);
        assert_eq!(
            s.params[0],
            ParamValue::Scalar {
                ty: ElemType::U32,
                value: Scalar::Int(256)
            }
        );
        assert_eq!(
            s.params[1],
            ParamValue::Scalar {
                ty: ElemType::F32,
                value: Scalar::Float(2.5)
            }
        );
        assert_eq!(
            s.params[3],
            ParamValue::Buffer {
                name: "y".into(),
                offset: 16
            }
        );
        assert_eq!(
            s.params[4],
            ParamValue::Bits {
                ty: ElemType::F32,
                bits: 0x7fc0_0000
            }
        );
        let names: Vec<&str> = s.buffers.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["x", "y", "h"]);
        assert_eq!(s.buffer("y").unwrap().len, 260);
        assert_eq!(
            s.buffer("y").unwrap().init,
            Init::Iota {
                start: Scalar::Float(0.0),
                step: Scalar::Float(0.5)
            }
        );
        assert_eq!(
            s.buffer("x").unwrap().init,
            Init::Random {
                seed: 1,
                range: Some((Scalar::Float(-8.0), Scalar::Float(8.0)))
            }
        );
        assert_eq!(s.buffer("h").unwrap().init, Init::Zeros);
        assert_eq!(s.output_names(), ["y", "h"]);
        assert_eq!(
            s.compare,
            CompareRule {
                nan: NanRule::Bitwise,
                ulps: 0
            }
        );
    }

    #[test]
    fn defaults() {
        let s = parse(
            r#"{"kernel": "k", "grid": [2, 3], "block": [32],
            "buffers": {"b": {"type": "u8", "len": 3}, "a": {"type": "b16", "len": 1}}}"#,
        )
        .unwrap();
        assert_eq!(s.grid(), [2, 3, 1]);
        assert_eq!(s.block(), [32, 1, 1]);
        assert_eq!(s.block_count(), 6);
        assert_eq!(s.ptx, None);
        assert_eq!(s.ptx_path(), None);
        assert!(s.params.is_empty());
        assert_eq!(s.dynamic_shared_bytes, 0);
        assert_eq!(s.compare, CompareRule::default());
        assert_eq!(s.buffer("b").unwrap().init, Init::Zeros);
        assert_eq!(s.buffer("a").unwrap().ty, ElemType::U16);
        // outputs missing: all buffers, in name order
        assert_eq!(s.output_names(), ["a", "b"]);
        let s = parse(r#"{"kernel": "k", "grid": [1], "block": [1], "outputs": [], "compare": {"nan": "any", "ulps": 4}, "dynamic_shared_bytes": 1024}"#).unwrap();
        assert!(s.output_names().is_empty());
        assert_eq!(
            s.compare,
            CompareRule {
                nan: NanRule::Any,
                ulps: 4
            }
        );
        assert_eq!(s.dynamic_shared_bytes, 1024);
    }

    #[test]
    fn integer_values_and_ranges() {
        let s = parse(r#"{"kernel": "k", "grid": [1], "block": [1], "params": [
            {"u32": -1}, {"s8": 255}, {"u64": 18446744073709551615}, {"s64": -9223372036854775808},
            {"s32": 1e3}, {"f16": 1}, {"type": "b64", "bits": "0XFFFFFFFFFFFFFFFF"}],
            "buffers": {"v": {"type": "u8", "len": 4, "init": {"values": [-128, 255, 0, 2.0e1]}}}}"#)
        .unwrap();
        assert_eq!(
            s.params[0],
            ParamValue::Scalar {
                ty: ElemType::U32,
                value: Scalar::Int(-1)
            }
        );
        assert_eq!(
            s.params[4],
            ParamValue::Scalar {
                ty: ElemType::S32,
                value: Scalar::Int(1000)
            }
        );
        assert_eq!(
            s.params[5],
            ParamValue::Scalar {
                ty: ElemType::F16,
                value: Scalar::Float(1.0)
            }
        );
        assert_eq!(
            s.params[6],
            ParamValue::Bits {
                ty: ElemType::U64,
                bits: u64::MAX
            }
        );
        assert_eq!(
            s.buffer("v").unwrap().init,
            Init::Values(vec![
                Scalar::Int(-128),
                Scalar::Int(255),
                Scalar::Int(0),
                Scalar::Int(20)
            ])
        );
    }

    fn err(t: &str) -> String {
        match parse(t) {
            Ok(_) => panic!("accepted: {t}"),
            Err(e) => e.to_string(),
        }
    }

    /// Replaces `from` by `to` in the example (which must contain it once).
    fn mutate(from: &str, to: &str) -> String {
        assert_eq!(SAXPY.matches(from).count(), 1, "{from}");
        SAXPY.replace(from, to)
    }

    /// Each kind of mistake gives a message that names the field, with the
    /// position of the offending text.
    #[test]
    fn error_messages() {
        let cases: Vec<(String, &str)> = vec![
            (mutate("{\"buffer\": \"x\"}", "{\"buffer\": \"q\"}"), "<launch spec>:9:16: params[2]: unknown buffer 'q'"),
            (
                mutate("\"y\": {\"type\": \"f32\", \"len\": 260, \"init\": {\"iota\": {\"start\": 0, \"step\": 0.5}}}", "\"y\": {\"type\": \"f32\", \"len\": 3, \"init\": {\"values\": [1, 2]}}"),
                "<launch spec>:15:55: buffers.y.init.values: expected 3 numbers, found 2",
            ),
            ("{\"kernel\": \"k\",\n \"grid\": [1], \"block\": [1],}".to_string(), "<launch spec>:2:28: invalid JSON: expected a member name in double quotes"),
            (mutate("\"kernel\": \"saxpy\",", "\"kernel\": \"saxpy\", \"kernal\": 1,"), "<launch spec>:3:22: unknown field 'kernal' (fields of the spec: ptx, kernel, grid, block, params, buffers, outputs, dynamic_shared_bytes, textures, surfaces, compare)"),
            (mutate("\"kernel\": \"saxpy\",", ""), "<launch spec>:1:1: missing field 'kernel'"),
            (mutate("[4, 1, 1]", "[4, 1, 1, 1]"), "<launch spec>:4:11: grid: expected 1 to 3 dimensions, found 4"),
            (mutate("[64, 1, 1]", "[64, 0]"), "<launch spec>:5:17: block[1]: must be at least 1"),
            // The hardware's launch limits.
            (mutate("[64, 1, 1]", "[64, 1, 65]"), "<launch spec>:5:20: block[2]: 65 is more than the hardware's 64"),
            (mutate("[64, 1, 1]", "[1025]"), "<launch spec>:5:13: block[0]: 1025 is more than the hardware's 1024"),
            (mutate("[64, 1, 1]", "[64, 32]"), "<launch spec>:5:12: block: 2048 threads; a CTA has at most 1024"),
            (mutate("[4, 1, 1]", "[2147483648]"), "<launch spec>:4:12: grid[0]: 2147483648 is more than the hardware's 2147483647"),
            (mutate("[4, 1, 1]", "[4, 65536]"), "<launch spec>:4:15: grid[1]: 65536 is more than the hardware's 65535"),
            (mutate("[4, 1, 1]", "\"4\""), "<launch spec>:4:11: grid: expected an array, found a string"),
            (mutate("{\"u32\": 256}", "{\"u33\": 256}"), "<launch spec>:7:6: params[0]: unknown parameter kind 'u33' (expected a type such as \"u32\", or \"buffer\", \"texture\", \"surface\", \"type\")"),
            (mutate("{\"u32\": 256}", "{\"u32\": 4294967296}"), "<launch spec>:7:13: params[0].u32: 4294967296 is out of range for u32 (-2147483648 to 4294967295)"),
            (mutate("{\"u32\": 256}", "{\"u32\": 2.5}"), "<launch spec>:7:13: params[0].u32: expected an integer, found 2.5"),
            (mutate("\"0x7fc00000\"", "\"0x17fc00000\""), "<launch spec>:11:29: params[4].bits: 0x17fc00000 does not fit in 32 bits (f32)"),
            (mutate("\"0x7fc00000\"", "\"7fc00000\""), "<launch spec>:11:29: params[4].bits: expected a hex bit pattern \"0x…\", found \"7fc00000\""),
            (mutate("\"offset\": 16", "\"offset\": 1041"), "<launch spec>:10:31: params[3].offset: offset 1041 is past the end of buffer 'y' (1040 bytes)"),
            (mutate("\"type\": \"u32\"", "\"type\": \"u31\""), "<launch spec>:16:19: buffers.h.type: unknown type \"u31\" (expected one of u8 s8 u16 s16 u32 s32 u64 s64 f16 f32 f64 b8 b16 b32 b64)"),
            (mutate("\"init\": \"zeros\"", "\"init\": \"ones\""), "<launch spec>:16:45: buffers.h.init: unknown init \"ones\" (expected \"zeros\", or an object with one of iota, values, bits, random, special_mix)"),
            (mutate("\"init\": \"zeros\"", "\"init\": {\"special_mix\": {\"seed\": 1}}"), "<launch spec>:16:46: buffers.h.init.special_mix: special_mix is for float types only, not u32"),
            (mutate("\"min\": -8.0, ", ""), "<launch spec>:14:57: buffers.x.init.random: 'max' given without 'min'"),
            (mutate("\"min\": -8.0, \"max\": 8.0", "\"min\": 8.0, \"max\": -8.0"), "<launch spec>:14:88: buffers.x.init.random.max: 'max' is less than 'min'"),
            (mutate("\"min\": -8.0, \"max\": 8.0", "\"min\": -8.0, \"max\": 8.0, \"mean\": 0"), "<launch spec>:14:94: buffers.x.init.random: unknown field 'mean' (fields of buffers.x.init.random: seed, min, max)"),
            (mutate("\"seed\": 1,", "\"seed\": -1,"), "<launch spec>:14:66: buffers.x.init.random.seed: -1 is out of range for an unsigned 64-bit integer (0 to 18446744073709551615)"),
            (mutate("[\"y\", \"h\"]", "[\"y\", \"z\"]"), "<launch spec>:18:20: outputs[1]: unknown buffer or surface 'z'"),
            (mutate("[\"y\", \"h\"]", "[\"y\", \"y\"]"), "<launch spec>:18:20: outputs[1]: buffer 'y' listed twice"),
            (mutate("\"bitwise\"", "\"exact\""), "<launch spec>:20:22: compare.nan: unknown rule \"exact\" (expected \"bitwise\" or \"any\")"),
            (mutate("{\"nan\": \"bitwise\"}", "{\"nan\": \"bitwise\", \"ulps\": -1}"), "<launch spec>:20:41: compare.ulps: -1 is out of range for an unsigned 64-bit integer (0 to 18446744073709551615)"),
            (mutate("\"len\": 64", "\"len\": 1073741824"), "<launch spec>:13:14: buffers: the buffers need 4294970368 bytes of global memory with alignment and guard gaps; at most 4026531840 fit between 0x10000000 and 4 GiB"),
            (mutate("\"len\": 64", "\"len\": 4611686018427387904"), "<launch spec>:16:33: buffers.h.len: 4611686018427387904 elements of u32 do not fit in 4 GiB"),
            (mutate("{\"f32\": 2.5}", "{\"f32\": 1e39999}"), "<launch spec>:8:13: params[1].f32: 1e39999 is out of the f64 range"),
            (mutate("{\"f32\": 2.5}", "{\"texture\": \"t\"}"), "<launch spec>:8:17: params[1]: unknown texture 't'"),
            (mutate("{\"f32\": 2.5}", "{}"), "<launch spec>:8:5: params[1]: expected {\"<type>\": number}, {\"type\": …, \"bits\": …}, {\"buffer\": …}, {\"texture\": …} or {\"surface\": …}, found 0 fields"),
            (mutate("\"init\": \"zeros\"", "\"init\": {\"iota\": {\"start\": 0, \"step\": 1}, \"zeros\": 1}"), "<launch spec>:16:45: buffers.h.init: expected exactly one init kind, found 2 fields"),
            (mutate("\"h\": {", "\"\": {"), "<launch spec>:16:5: buffers: a name must not be empty"),
            (mutate("\"init\": \"zeros\"", "\"init\": {\"values\": [1, 2]}"), "<launch spec>:16:56: buffers.h.init.values: expected 64 numbers, found 2"),
            ("[1, 2]".to_string(), "<launch spec>:1:1: expected an object, found an array"),
            ("{\"kernel\": \"k\", \"kernel\": \"j\"}".to_string(), "<launch spec>:1:17: invalid JSON: duplicate member 'kernel'"),
            ("".to_string(), "<launch spec>:1:1: invalid JSON: unexpected end of input, expected a value"),
        ];
        for (text, want) in cases {
            assert_eq!(err(&text), want, "\n{text}");
        }
    }

    #[test]
    fn texture_errors() {
        let base = r#"{"kernel": "k", "grid": [1], "block": [1], "textures": {"t": TEX}}"#;
        for (tex, want) in [
            (r#"{"dims": [4]}"#, "<launch spec>:1:62: textures.t: missing field 'type'"),
            (r#"{"type": "f32"}"#, "<launch spec>:1:62: textures.t: missing field 'dims'"),
            (r#"{"type": "f32", "dims": [4, 4, 4, 4]}"#, "<launch spec>:1:86: textures.t.dims: expected 1 to 3 dimensions, found 4"),
            (r#"{"type": "f32", "dims": [4], "channels": 3, "init": {"values": [1]}}"#, "<launch spec>:1:125: textures.t.init.values: expected 12 numbers, found 1"),
            (r#"{"type": "f32", "dims": [4], "channels": 5}"#, "<launch spec>:1:103: textures.t.channels: expected 1 to 4 channels, found 5"),
            (r#"{"type": "f32", "dims": [4, 2], "address_mode": ["clamp"]}"#, "<launch spec>:1:110: textures.t.address_mode: expected one mode per dimension (2), found 1"),
            (r#"{"type": "f32", "dims": [4], "address_mode": ["repeat"]}"#, "<launch spec>:1:108: textures.t.address_mode[0]: unknown address mode \"repeat\" (expected clamp, wrap, mirror or border)"),
            (r#"{"type": "f32", "dims": [4], "filter": "cubic"}"#, "<launch spec>:1:101: textures.t.filter: unknown filter \"cubic\" (expected point or linear)"),
            (r#"{"type": "f32", "dims": [4], "normalized_coords": 0}"#, "<launch spec>:1:112: textures.t.normalized_coords: expected true or false, found a number"),
            (r#"{"type": "f32", "dims": [4], "border_color": [0, 0]}"#, "<launch spec>:1:107: textures.t.border_color: expected 4 numbers, found 2"),
            (r#"{"type": "f32", "dims": [4], "wrap": true}"#, "<launch spec>:1:91: textures.t: unknown field 'wrap' (fields of textures.t: type, channels, dims, init, address_mode, filter, normalized_coords, border_color, layers)"),
            (r#"{"type": "f32", "dims": [4], "layers": 0}"#, "<launch spec>:1:101: textures.t.layers: a layered texture needs at least 1 layer"),
            (r#"{"type": "f32", "dims": [4], "layers": 2049}"#, "<launch spec>:1:101: textures.t.layers: a layered texture has at most 2048 layers (CUDA's limit), found 2049"),
            (r#"{"type": "f32", "dims": [4, 2, 2], "layers": 3}"#, "<launch spec>:1:107: textures.t.layers: layered textures have 1 or 2 dimensions (tex.a1d, tex.a2d), found 3 in dims"),
            (r#"{"type": "f32", "dims": [4], "layers": 2, "init": {"values": [1, 2, 3, 4]}}"#, "<launch spec>:1:123: textures.t.init.values: expected 8 numbers, found 4"),
        ] {
            assert_eq!(err(&base.replace("TEX", tex)), want, "{tex}");
        }
    }

    #[test]
    fn texture_fields() {
        let s = parse(r#"{"kernel": "k", "grid": [1], "block": [1], "params": [{"texture": "t"}],
          "textures": {"t": {"type": "u8", "channels": 4, "dims": [3, 2], "init": {"iota": {"start": 0, "step": 1}},
             "address_mode": ["wrap", "border"], "filter": "linear", "normalized_coords": true, "border_color": [1, 0.5, 0, -1]},
             "u": {"type": "f16", "dims": [2, 2, 2]}}}"#)
        .unwrap();
        let t = s.texture("t").unwrap();
        assert_eq!(t.ty, ElemType::U8);
        assert_eq!(t.channels, 4);
        assert_eq!(t.dims, [3, 2]);
        assert_eq!(t.address_mode, [AddressMode::Wrap, AddressMode::Border]);
        assert_eq!(t.filter, Filter::Linear);
        assert!(t.normalized_coords);
        assert_eq!(t.border_color, Some([1.0, 0.5, 0.0, -1.0]));
        let u = s.texture("u").unwrap();
        assert_eq!(u.channels, 1);
        assert_eq!(u.address_mode, [AddressMode::Clamp; 3]);
        assert_eq!(u.filter, Filter::Point);
        assert!(!u.normalized_coords);
        assert_eq!(u.border_color, None);
        assert_eq!(u.init, Init::Zeros);
        assert_eq!(s.params[0], ParamValue::Texture { name: "t".into() });
    }

    #[test]
    fn write_and_read_back() {
        let texts = [
            SAXPY.to_string(),
            r#"{"kernel": "k\"q", "grid": [1], "block": [1],
              "params": [{"s64": -5}, {"f64": -0.0}, {"type": "f16", "bits": "0x7c01"}, {"texture": "t"}],
              "buffers": {"z": {"type": "s8", "len": 2, "init": {"bits": ["0xff", "0x1"]}},
                          "a": {"type": "f16", "len": 3, "init": {"values": [1e-7, 65504, -0.0]}},
                          "m": {"type": "f64", "len": 8, "init": {"special_mix": {"seed": 18446744073709551615}}},
                          "r": {"type": "u64", "len": 8, "init": {"random": {"seed": 5}}},
                          "q": {"type": "s16", "len": 8, "init": {"iota": {"start": -9223372036854775808, "step": 18446744073709551615}}}},
              "textures": {"t": {"type": "f32", "dims": [2, 2], "border_color": [0, 1, 2, 3]}},
              "dynamic_shared_bytes": 7, "compare": {"ulps": 3}}"#
                .to_string(),
        ];
        for t in texts {
            let s = parse(&t).unwrap();
            let w = s.to_json_string();
            let back = parse(&w).unwrap_or_else(|e| panic!("{e}\n{w}"));
            assert_eq!(back, s, "{w}");
            assert_eq!(back.to_json_string(), w);
            assert!(s.validate().is_ok());
        }
        let mut s = parse(SAXPY).unwrap();
        s.outputs = Some(vec!["nope".into()]);
        assert_eq!(s.validate().unwrap_err().field, "outputs[0]");
    }

    #[test]
    fn from_file_reports_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.launch.json");
        fs::write(&p, SAXPY.replace("\"x\"}", "\"q\"}")).unwrap();
        let e = LaunchSpec::from_file(&p).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}:9:16: params[2]: unknown buffer 'q'", p.display())
        );
        fs::write(&p, SAXPY).unwrap();
        let s = LaunchSpec::from_file(&p).unwrap();
        assert_eq!(s.ptx_path(), Some(dir.path().join("saxpy.ptx")));
        assert_eq!(s.file.as_deref(), Some(p.as_path()));
        fs::write(&p, b"{\"kernel\": \"\xff\"}").unwrap();
        let e = LaunchSpec::from_file(&p).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert!(e.to_string().ends_with("not UTF-8 text (byte 12)"), "{e}");
        let e = LaunchSpec::from_file(dir.path().join("missing.json")).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Io);
    }
}
