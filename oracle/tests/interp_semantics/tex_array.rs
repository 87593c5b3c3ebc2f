//! Layered (array) textures: the launch spec's `layers`, `tex.a1d`,
//! `tex.a2d`, `tld4.a2d` and `txq.array_size`.
//!
//! Expected texels are computed on the host from the spec's `init` (iota:
//! element e holds e) and its layout (corpus/LAUNCH_SPEC.md: layer-major,
//! `((layer*h + y)*w + x)*channels + c`), with the rules written next to
//! each test:
//! * the array index is a `.u32` (PTX ISA tex: "The texture array index is
//!   a 32-bit unsigned integer"); an index at or above `layers` (a negative
//!   `.s32` included) faults: its result is undocumented (see
//!   `semantics::texture::layer_index`), so the rows here stay in range
//!   and `out_of_range_layers_fault` checks the fault;
//! * within a layer the address modes are those of the CUDA Programming
//!   Guide (clamp: clamp to [0, N-1]; wrap: i mod N; mirror: reflect;
//!   border: the border colour), re-derived here with host integers.

use super::harness::*;
use oracle::launch::LaunchSpec;
use oracle::ptx_interp::{Outcome, RunLimits};

/// Runs `body` once per row (one thread each) on texture `t` described by
/// `tex_json`. Each row holds four 32-bit inputs, loaded into `%i0..%i3`
/// (also available as `%g0..%g3` as .f32); the body leaves four 32-bit
/// results in `%o0..%o3`. Returns the outcome and the per-row results.
fn run_tex(tex_json: &str, body: &str, rows: &[[u32; 4]]) -> (Outcome, Vec<[u32; 4]>) {
    let n = rows.len();
    let src = format!(
        "{HEADER}.visible .entry k(.param .u64 p_out, .param .u64 p_in, .param .u64 p_tex)\n{{\n\
         \t.reg .b64 %out, %in, %tex, %t64;\n\
         \t.reg .b32 %tx, %i0, %i1, %i2, %i3, %o0, %o1, %o2, %o3;\n\
         \t.reg .f32 %g0, %g1, %g2, %g3, %h0, %h1, %h2, %h3;\n\
         \tld.param.u64 %out, [p_out];\n\tld.param.u64 %in, [p_in];\n\tld.param.u64 %tex, [p_tex];\n\
         \tcvta.to.global.u64 %out, %out;\n\tcvta.to.global.u64 %in, %in;\n\
         \tmov.u32 %tx, %tid.x;\n\tmul.wide.u32 %t64, %tx, 16;\n\
         \tadd.s64 %in, %in, %t64;\n\tadd.s64 %out, %out, %t64;\n\
         \tld.global.v4.u32 {{%i0, %i1, %i2, %i3}}, [%in];\n\
         \tmov.b32 %g0, %i0;\n\tmov.b32 %g1, %i1;\n\tmov.b32 %g2, %i2;\n\tmov.b32 %g3, %i3;\n\
         \tmov.u32 %o0, 0;\n\tmov.u32 %o1, 0;\n\tmov.u32 %o2, 0;\n\tmov.u32 %o3, 0;\n\
         {body}\n\
         \tst.global.v4.u32 [%out], {{%o0, %o1, %o2, %o3}};\n\tret;\n}}\n"
    );
    let input: Vec<String> = rows
        .iter()
        .flatten()
        .map(|x| format!("\"0x{x:x}\""))
        .collect();
    let spec = format!(
        r#"{{"kernel":"k","grid":[1],"block":[{n}],
            "params":[{{"buffer":"out"}},{{"buffer":"in"}},{{"texture":"t"}}],
            "buffers":{{"out":{{"type":"u32","len":{len},"init":"zeros"}},
                        "in":{{"type":"u32","len":{len},"init":{{"bits":[{bits}]}}}}}},
            "textures":{{"t":{tex_json}}}}}"#,
        len = 4 * n,
        bits = input.join(",")
    );
    let r = run_src(&src, &spec, &RunLimits::default());
    let bits = r
        .outputs
        .get("out")
        .map(|b| b.bits.clone())
        .unwrap_or_default();
    let res = bits
        .chunks(4)
        .map(|c| [c[0] as u32, c[1] as u32, c[2] as u32, c[3] as u32])
        .collect();
    (r.outcome, res)
}

fn expect_rows(title: &str, got: &(Outcome, Vec<[u32; 4]>), want: &[[u32; 4]], notes: &[String]) {
    assert_eq!(got.0, Outcome::Completed, "[{title}] outcome");
    let mut errs = Vec::new();
    for (k, w) in want.iter().enumerate() {
        if got.1[k] != *w {
            errs.push(format!(
                "[{title}] row {k} ({}): expected {w:08x?} got {:08x?}",
                notes[k], got.1[k]
            ));
        }
    }
    count(want.len());
    assert!(
        errs.is_empty(),
        "{} mismatches:\n{}",
        errs.len(),
        errs.join("\n")
    );
}

/// Host layer rule: a `.u32` index below `layers` (the tests use only
/// those).
fn layer_of(index: u32, layers: u32) -> u32 {
    assert!(
        index < layers,
        "out-of-range layer {index} in a passing row"
    );
    index
}

/// Host address modes (CUDA Programming Guide, "Texture Fetching").
#[derive(Clone, Copy, Debug)]
enum Mode {
    Clamp,
    Wrap,
    Mirror,
    Border,
}

fn addr(i: i64, n: i64, m: Mode) -> Option<i64> {
    match m {
        Mode::Clamp => Some(i.max(0).min(n - 1)),
        Mode::Wrap => Some(((i % n) + n) % n),
        Mode::Mirror => {
            let p = ((i % (2 * n)) + 2 * n) % (2 * n);
            Some(if p < n { p } else { 2 * n - 1 - p })
        }
        Mode::Border => (0..n).contains(&i).then_some(i),
    }
}

const W: u32 = 4;
const H: u32 = 2;
const L: u32 = 3;

/// iota texel value of (layer, x, y) of a 1-channel W x H x L f32 texture.
fn texel(layer: u32, x: u32, y: u32) -> f32 {
    ((layer * H + y) * W + x) as f32
}

fn f32b(x: f32) -> u32 {
    x.to_bits()
}

/// `.s32` coordinates select texels directly (no normalization); the
/// out-of-range x/y go through clamp. Layer indices cover each layer.
#[test]
fn tex_a2d_integer_coordinates_select_the_layer() {
    let _c = rows_of("tex_a2d_integer_coordinates_select_the_layer");
    let tex = format!(
        r#"{{"type":"f32","dims":[{W},{H}],"layers":{L},"init":{{"iota":{{"start":0,"step":1}}}},
            "address_mode":["clamp","clamp"]}}"#
    );
    let body = "\ttex.a2d.v4.f32.s32 {%h0, %h1, %h2, %h3}, [%tex, {%i0, %i1, %i2, %i3}];\n\
                \tmov.b32 %o0, %h0;\n\tmov.b32 %o1, %h1;\n\tmov.b32 %o2, %h2;\n\tmov.b32 %o3, %h3;";
    let indices: [i32; 3] = [0, 1, 2];
    let xy: [(i32, i32); 4] = [(0, 0), (3, 1), (-2, 0), (9, 5)];
    let mut rows = Vec::new();
    let mut want = Vec::new();
    let mut notes = Vec::new();
    for &ix in &indices {
        for &(x, y) in &xy {
            rows.push([ix as u32, x as u32, y as u32, 0]);
            let l = layer_of(ix as u32, L);
            let tx = addr(i64::from(x), i64::from(W), Mode::Clamp).unwrap() as u32;
            let ty = addr(i64::from(y), i64::from(H), Mode::Clamp).unwrap() as u32;
            // one channel: g, b, a are 0
            want.push([f32b(texel(l, tx, ty)), 0, 0, 0]);
            notes.push(format!("index {ix} -> layer {l}, ({x}, {y})"));
        }
    }
    let got = run_tex(&tex, body, &rows);
    expect_rows("tex.a2d .s32", &got, &want, &notes);
}

/// `tex.a1d` with `.f32` (unnormalized, point) and `.s32` coordinates; an
/// f32 x selects texel floor(x) (Guide, nearest-point sampling).
#[test]
fn tex_a1d_float_and_integer_coordinates() {
    let _c = rows_of("tex_a1d_float_and_integer_coordinates");
    // 5 texels x 4 layers, 2 channels: element e holds 100 + e (u16)
    let (w, layers) = (5u32, 4u32);
    let tex = format!(
        r#"{{"type":"u16","channels":2,"dims":[{w}],"layers":{layers},
            "init":{{"iota":{{"start":100,"step":1}}}}}}"#
    );
    let val = |l: u32, x: u32, c: u32| 100 + (l * w + x) * 2 + c;
    let cases: [(i32, f32); 5] = [(0, 0.5), (1, 4.99), (3, 2.0), (2, -7.0), (2, 1e9)];
    let body = "\ttex.a1d.v4.u32.f32 {%o0, %o1, %o2, %o3}, [%tex, {%i0, %g1}];";
    let mut rows = Vec::new();
    let mut want = Vec::new();
    let mut notes = Vec::new();
    for &(ix, x) in &cases {
        rows.push([ix as u32, x.to_bits(), 0, 0]);
        let l = layer_of(ix as u32, layers);
        let tx = addr(x.floor() as i64, i64::from(w), Mode::Clamp).unwrap() as u32;
        want.push([val(l, tx, 0), val(l, tx, 1), 0, 0]);
        notes.push(format!("index {ix} x {x}"));
    }
    let got = run_tex(&tex, body, &rows);
    expect_rows("tex.a1d .f32", &got, &want, &notes);

    let body = "\ttex.a1d.v4.s32.s32 {%o0, %o1, %o2, %o3}, [%tex, {%i0, %i1}];";
    let cases: [(i32, i32); 4] = [(0, 0), (3, 4), (2, -1), (1, 99)];
    let mut rows = Vec::new();
    let mut want = Vec::new();
    let mut notes = Vec::new();
    for &(ix, x) in &cases {
        rows.push([ix as u32, x as u32, 0, 0]);
        let l = layer_of(ix as u32, layers);
        let tx = addr(i64::from(x), i64::from(w), Mode::Clamp).unwrap() as u32;
        want.push([val(l, tx, 0), val(l, tx, 1), 0, 0]);
        notes.push(format!("index {ix} x {x}"));
    }
    let got = run_tex(&tex, body, &rows);
    expect_rows("tex.a1d .s32", &got, &want, &notes);
}

/// Each address mode applies within the selected layer and never reaches a
/// neighbouring layer. Normalized coordinates (wrap and mirror need them):
/// u = x * N, texel floor(u) then the mode. x and y are multiples of 1/8 so
/// every product is exact.
#[test]
fn tex_a2d_address_modes_stay_in_the_layer() {
    let _c = rows_of("tex_a2d_address_modes_stay_in_the_layer");
    let border = [7.5f32, -1.0, 2.0, 3.0];
    let body = "\ttex.a2d.v4.f32.f32 {%h0, %h1, %h2, %h3}, [%tex, {%i0, %g1, %g2, %g3}];\n\
                \tmov.b32 %o0, %h0;\n\tmov.b32 %o1, %h1;\n\tmov.b32 %o2, %h2;\n\tmov.b32 %o3, %h3;";
    let xs: [f32; 6] = [-0.125, 0.0, 0.625, 1.0, 1.125, -1.375];
    let ys: [f32; 4] = [-0.25, 0.25, 0.75, 1.5];
    for (mode, name) in [
        (Mode::Clamp, "clamp"),
        (Mode::Wrap, "wrap"),
        (Mode::Mirror, "mirror"),
        (Mode::Border, "border"),
    ] {
        let tex = format!(
            r#"{{"type":"f32","dims":[{W},{H}],"layers":{L},"init":{{"iota":{{"start":0,"step":1}}}},
                "address_mode":["{name}","{name}"],"normalized_coords":true,
                "border_color":[7.5,-1.0,2.0,3.0]}}"#
        );
        let mut rows = Vec::new();
        let mut want = Vec::new();
        let mut notes = Vec::new();
        for ix in [0u32, 1, 2] {
            for (k, &x) in xs.iter().enumerate() {
                let y = ys[(k + ix as usize) % ys.len()];
                rows.push([ix, x.to_bits(), y.to_bits(), 0]);
                let l = layer_of(ix, L);
                let ux = (x * W as f32).floor() as i64;
                let uy = (y * H as f32).floor() as i64;
                let r = match (addr(ux, i64::from(W), mode), addr(uy, i64::from(H), mode)) {
                    (Some(tx), Some(ty)) => [f32b(texel(l, tx as u32, ty as u32)), 0, 0, 0],
                    // a border texel: the border colour's channels the
                    // texture has (r only), the others 0 (the model's
                    // documented channel rule)
                    _ => [f32b(border[0]), 0, 0, 0],
                };
                want.push(r);
                notes.push(format!("{name}: index {ix} ({x}, {y})"));
            }
        }
        let got = run_tex(&tex, body, &rows);
        expect_rows(&format!("tex.a2d {name}"), &got, &want, &notes);
    }
}

/// Linear filtering blends within the layer only (Guide, "Layered
/// Textures": "Texture filtering ... is done only within a layer, not
/// across layers"). Unnormalized x = 1.0 is halfway between texels 0 and 1
/// (xB = u - 0.5 = 0.5); y = 2.0 is past the last row (yB = 1.5: rows 1 and
/// 2, row 2 clamps onto row 1), so the result is the mean of row 1's texels
/// 0 and 1 of the selected layer: exact in f32.
#[test]
fn tex_a2d_linear_filtering_within_a_layer() {
    let _c = rows_of("tex_a2d_linear_filtering_within_a_layer");
    let tex = format!(
        r#"{{"type":"f32","dims":[{W},{H}],"layers":{L},"init":{{"iota":{{"start":0,"step":1}}}},
            "filter":"linear"}}"#
    );
    let body = "\ttex.a2d.v4.f32.f32 {%h0, %h1, %h2, %h3}, [%tex, {%i0, %g1, %g2, %g3}];\n\
                \tmov.b32 %o0, %h0;\n\tmov.b32 %o1, %h1;\n\tmov.b32 %o2, %h2;\n\tmov.b32 %o3, %h3;";
    let mut rows = Vec::new();
    let mut want = Vec::new();
    let mut notes = Vec::new();
    for ix in [0u32, 1, 2] {
        rows.push([ix, 1.0f32.to_bits(), 2.0f32.to_bits(), 0]);
        let l = layer_of(ix, L);
        want.push([f32b((texel(l, 0, 1) + texel(l, 1, 1)) / 2.0), 0, 0, 0]);
        notes.push(format!("index {ix}"));
    }
    let got = run_tex(&tex, body, &rows);
    expect_rows("tex.a2d linear", &got, &want, &notes);
}

/// `tld4.a2d`: the 2x2 footprint of the selected layer, in the order
/// [T(i, j+1), T(i+1, j+1), T(i+1, j), T(i, j)] with i = floor(u - 0.5),
/// j = floor(v - 0.5) (the model's documented order, see
/// `semantics::texture::tld4`), clamp at the edges.
#[test]
fn tld4_a2d_gathers_from_the_selected_layer() {
    let _c = rows_of("tld4_a2d_gathers_from_the_selected_layer");
    let tex = format!(
        r#"{{"type":"f32","dims":[{W},{H}],"layers":{L},"init":{{"iota":{{"start":0,"step":1}}}}}}"#
    );
    let body = "\ttld4.r.a2d.v4.f32.f32 {%h0, %h1, %h2, %h3}, [%tex, {%i0, %g1, %g2, %g3}];\n\
                \tmov.b32 %o0, %h0;\n\tmov.b32 %o1, %h1;\n\tmov.b32 %o2, %h2;\n\tmov.b32 %o3, %h3;";
    let mut rows = Vec::new();
    let mut want = Vec::new();
    let mut notes = Vec::new();
    for ix in [0u32, 1, 2] {
        for (x, y) in [(1.0f32, 1.0f32), (3.5, 0.25)] {
            rows.push([ix, x.to_bits(), y.to_bits(), 0]);
            let l = layer_of(ix, L);
            let i = (x - 0.5).floor() as i64;
            let j = (y - 0.5).floor() as i64;
            let t = |a: i64, b: i64| {
                let tx = addr(a, i64::from(W), Mode::Clamp).unwrap() as u32;
                let ty = addr(b, i64::from(H), Mode::Clamp).unwrap() as u32;
                f32b(texel(l, tx, ty))
            };
            want.push([t(i, j + 1), t(i + 1, j + 1), t(i + 1, j), t(i, j)]);
            notes.push(format!("index {ix} ({x}, {y})"));
        }
    }
    let got = run_tex(&tex, body, &rows);
    expect_rows("tld4.a2d", &got, &want, &notes);
}

/// `txq.array_size` is `layers` for a layered texture, 0 otherwise;
/// `txq.width`/`.height` are one layer's sizes.
#[test]
fn txq_array_size() {
    let _c = rows_of("txq_array_size");
    let body = "\ttxq.array_size.b32 %o0, [%tex];\n\ttxq.width.b32 %o1, [%tex];\n\
                \ttxq.height.b32 %o2, [%tex];\n\ttxq.depth.b32 %o3, [%tex];";
    let got = run_tex(r#"{"type":"u8","dims":[6,5],"layers":9}"#, body, &[[0; 4]]);
    expect_rows(
        "txq layered 2d",
        &got,
        &[[9, 6, 5, 0]],
        &["layers 9".into()],
    );
    let got = run_tex(r#"{"type":"u8","dims":[6],"layers":1}"#, body, &[[0; 4]]);
    expect_rows(
        "txq layered 1d",
        &got,
        &[[1, 6, 0, 0]],
        &["layers 1".into()],
    );
    let got = run_tex(r#"{"type":"u8","dims":[6,5]}"#, body, &[[0; 4]]);
    expect_rows(
        "txq not layered",
        &got,
        &[[0, 6, 5, 0]],
        &["no layers".into()],
    );
}

fn fault_message(o: &Outcome) -> String {
    match o {
        Outcome::Fault { message, .. } => message.clone(),
        other => panic!("expected a fault, got {other:?}"),
    }
}

/// Layered instructions need layered textures and the reverse; cube
/// geometries are refused with the reason.
#[test]
fn layering_mismatch_and_cube_fault_clearly() {
    let _c = rows_of("layering_mismatch_and_cube_fault_clearly");
    let flat = r#"{"type":"f32","dims":[4,2]}"#;
    let layered = r#"{"type":"f32","dims":[4,2],"layers":2}"#;
    let a2d = "\ttex.a2d.v4.f32.s32 {%h0, %h1, %h2, %h3}, [%tex, {%i0, %i1, %i2, %i3}];\n\tmov.b32 %o0, %h0;";
    let d2 = "\ttex.2d.v4.f32.s32 {%h0, %h1, %h2, %h3}, [%tex, {%i1, %i2}];\n\tmov.b32 %o0, %h0;";
    let t2d =
        "\ttld4.r.2d.v4.f32.f32 {%h0, %h1, %h2, %h3}, [%tex, {%g1, %g2}];\n\tmov.b32 %o0, %h0;";
    let cube = "\ttex.cube.v4.f32.f32 {%h0, %h1, %h2, %h3}, [%tex, {%g0, %g1, %g2, %g3}];\n\tmov.b32 %o0, %h0;";
    let m = fault_message(&run_tex(flat, a2d, &[[0; 4]]).0);
    check_eq(m.contains("not layered"), true, &m);
    let m = fault_message(&run_tex(layered, d2, &[[0; 4]]).0);
    check_eq(m.contains("is layered") && m.contains(".a2d"), true, &m);
    let m = fault_message(&run_tex(layered, t2d, &[[0; 4]]).0);
    check_eq(m.contains("is layered"), true, &m);
    let m = fault_message(&run_tex(layered, cube, &[[0; 4]]).0);
    check_eq(m.contains("cube") && m.contains("launch spec"), true, &m);
    let ms = "\ttex.2dms.v4.f32.s32 {%h0, %h1, %h2, %h3}, [%tex, {%i0, %i1, %i2, %i3}];\n\tmov.b32 %o0, %h0;";
    let m = fault_message(&run_tex(flat, ms, &[[0; 4]]).0);
    check_eq(m.contains("multi-sample"), true, &m);
    // the same instructions on the matching textures complete
    check_eq(
        run_tex(layered, a2d, &[[0; 4]]).0,
        Outcome::Completed,
        "a2d",
    );
    check_eq(run_tex(flat, d2, &[[0; 4]]).0, Outcome::Completed, "2d");
}

/// An array index at or past the last layer (`.s32` -1 is 0xffffffff)
/// stops the run with a fault naming it, for tex.a1d, tex.a2d and
/// tld4.a2d alike; the last layer itself reads.
#[test]
fn out_of_range_layers_fault() {
    let _c = rows_of("out_of_range_layers_fault");
    let a2 = format!(r#"{{"type":"f32","dims":[{W},{H}],"layers":{L}}}"#);
    let a1 = format!(r#"{{"type":"f32","dims":[{W}],"layers":{L}}}"#);
    let a2d = "\ttex.a2d.v4.f32.s32 {%h0, %h1, %h2, %h3}, [%tex, {%i0, %i1, %i2, %i3}];\n\tmov.b32 %o0, %h0;";
    let a1d = "\ttex.a1d.v4.f32.s32 {%h0, %h1, %h2, %h3}, [%tex, {%i0, %i1}];\n\tmov.b32 %o0, %h0;";
    let t4 = "\ttld4.r.a2d.v4.f32.f32 {%h0, %h1, %h2, %h3}, [%tex, {%i0, %g1, %g2, %g3}];\n\tmov.b32 %o0, %h0;";
    for (tex, body) in [(&a2, a2d), (&a1, a1d), (&a2, t4)] {
        for ix in [L, L + 1, u32::MAX] {
            let m = fault_message(&run_tex(tex, body, &[[ix, 0, 0, 0]]).0);
            check_eq(m.contains(&format!("array index {ix} outside")), true, &m);
        }
        check_eq(
            run_tex(tex, body, &[[L - 1, 0, 0, 0]]).0,
            Outcome::Completed,
            "last layer",
        );
    }
}

fn parse(json: &str) -> Result<LaunchSpec, String> {
    LaunchSpec::from_json_str(json, std::path::Path::new(".")).map_err(|e| e.to_string())
}

fn spec_with(tex: &str) -> String {
    format!(r#"{{"kernel":"k","grid":[1],"block":[1],"textures":{{"t":{tex}}}}}"#)
}

/// `layers` in the launch spec: accepted values, the default, the image
/// size it implies, and clear errors for bad values.
#[test]
fn launch_spec_layers_field() {
    let _c = rows_of("launch_spec_layers_field");
    let s = parse(&spec_with(
        r#"{"type":"u8","dims":[3,2],"layers":4,"init":{"iota":{"start":0,"step":1}}}"#,
    ))
    .unwrap();
    let t = s.texture("t").unwrap();
    check_eq(t.layers, Some(4), "layers parsed");
    check_eq(t.texel_count(), 24, "3*2*4 texels");
    let img = &oracle::launch::TextureImage::all(&s)[0];
    check_eq(img.data.len(), 24, "24 u8 elements");
    // layer 2, (x 1, y 1): element (2*2 + 1)*3 + 1 = 16
    check_eq(
        img.layer_element_bits(2, 1, 1, 0, 0),
        Some(16),
        "layer-major layout",
    );
    check_eq(img.layer_element_bits(4, 0, 0, 0, 0), None, "no layer 4");
    // the spec writer keeps `layers`
    let back = parse(&s.to_json_string()).unwrap();
    check_eq(
        back.texture("t").unwrap().layers,
        Some(4),
        "written and read back",
    );
    check_eq(
        s.to_json_string().contains("\"layers\": 4"),
        true,
        "written",
    );
    // a 1D layered texture and the default
    let s = parse(&spec_with(r#"{"type":"f32","dims":[8],"layers":1}"#)).unwrap();
    check_eq(s.texture("t").unwrap().layers, Some(1), "1D, 1 layer");
    let s = parse(&spec_with(r#"{"type":"f32","dims":[8]}"#)).unwrap();
    check_eq(s.texture("t").unwrap().layers, None, "default: not layered");
    // `values` must cover every layer: 3*2*2 = 12 elements
    let ok = parse(&spec_with(
        r#"{"type":"u8","dims":[3,2],"layers":2,"init":{"values":[0,1,2,3,4,5,6,7,8,9,10,11]}}"#,
    ));
    check_eq(ok.is_ok(), true, &format!("{ok:?}"));
    let short = parse(&spec_with(
        r#"{"type":"u8","dims":[3,2],"layers":2,"init":{"values":[0,1,2,3,4,5]}}"#,
    ))
    .unwrap_err();
    check_eq(short.contains("textures.t.init"), true, &short);

    for (bad, needle) in [
        (r#""layers":0"#, "at least 1 layer"),
        (r#""layers":-1"#, "layers"),
        (r#""layers":1.5"#, "layers"),
        (r#""layers":"2""#, "layers"),
        (r#""layers":4294967296"#, "layers"),
    ] {
        let e = parse(&spec_with(&format!(
            r#"{{"type":"f32","dims":[4,2],{bad}}}"#
        )))
        .unwrap_err();
        check_eq(
            e.contains("textures.t.layers") && e.contains(needle),
            true,
            &format!("{bad}: {e}"),
        );
    }
    let e = parse(&spec_with(r#"{"type":"f32","dims":[2,2,2],"layers":2}"#)).unwrap_err();
    check_eq(
        e.contains("textures.t.layers") && e.contains("1 or 2 dimensions"),
        true,
        &e,
    );
    // the size limit counts every layer: 2^15 * 2^13 f32 = 1 GiB, times 2
    let e = parse(&spec_with(
        r#"{"type":"f32","dims":[32768,8192],"layers":2}"#,
    ))
    .unwrap_err();
    check_eq(e.contains("larger than 1 GiB"), true, &e);
}
