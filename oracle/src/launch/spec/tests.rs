use std::fs;
use std::path::PathBuf;

use super::*;
use crate::launch::error::{ErrorKind, LaunchError};
use crate::launch::texture::{AddressMode, Filter};
use crate::launch::types::ElemType;

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
