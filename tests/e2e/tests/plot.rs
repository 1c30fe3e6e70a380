//! The `plot` example in real wasmtime, through the runner: the PNG it
//! writes into a real temporary `/volume/tmp` is decoded by the `png` crate
//! and its pixels checked.

use serde_json::{Value, json};
use subako_tiny_e2e::example;
use subako_tiny_runner::{CallOptions, CallOutcome, Exit, Module, RunOptions, call, run};

const WHITE: [u8; 3] = [255, 255, 255];
const INK: [u8; 3] = [34, 34, 34];
const BAR: [u8; 3] = [66, 133, 244];
const NEGATIVE_BAR: [u8; 3] = [219, 68, 55];

fn module() -> Module {
    Module::from_file(example("plot")).expect("plot.wasm compiles")
}

fn session(volume: &tempfile::TempDir) -> CallOptions {
    CallOptions { package: Some("plot".into()), tmp_dir: Some(volume.path().to_path_buf()), ..CallOptions::default() }
}

fn plot(module: &Module, args: Value, opts: &CallOptions) -> CallOutcome {
    call(module, "plot", args, opts).expect("the runner runs the module")
}

fn error_text(outcome: &CallOutcome) -> String {
    let result = outcome.expect_ok();
    assert_eq!(result["isError"], json!(true), "{result}");
    result["content"][0]["text"].as_str().unwrap().to_string()
}

/// A decoded image as RGB rows.
struct Image {
    width: usize,
    height: usize,
    rgb: Vec<u8>,
}

impl Image {
    fn decode(bytes: &[u8]) -> Image {
        let mut decoder = png::Decoder::new(bytes);
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().expect("a PNG header");
        assert_eq!(reader.info().color_type, png::ColorType::Indexed);
        let mut rgb = vec![0; reader.output_buffer_size()];
        // The decoder checks every chunk's CRC and the zlib Adler-32.
        let frame = reader.next_frame(&mut rgb).expect("valid image data");
        assert_eq!(frame.color_type, png::ColorType::Rgb);
        rgb.truncate(frame.buffer_size());
        Image { width: frame.width as usize, height: frame.height as usize, rgb }
    }

    fn at(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    fn row(&self, y: usize) -> Vec<[u8; 3]> {
        (0..self.width).map(|x| self.at(x, y)).collect()
    }

    /// The `[start, end)` spans of `color` in row `y`.
    fn runs(&self, y: usize, color: [u8; 3]) -> Vec<(usize, usize)> {
        let row = self.row(y);
        let mut runs = Vec::new();
        let mut x = 0;
        while x < row.len() {
            if row[x] == color {
                let start = x;
                while x < row.len() && row[x] == color {
                    x += 1;
                }
                runs.push((start, x));
            } else {
                x += 1;
            }
        }
        runs
    }
}

/// The PNG the call linked, after checking the link and the JSON agree.
fn linked_image(outcome: &CallOutcome) -> (Value, Image) {
    let result = outcome.expect_ok();
    assert_eq!(result.get("isError"), None, "{result}");
    let value = result["structuredContent"].clone();
    let content = result["content"].as_array().unwrap();
    assert_eq!(content.len(), 2, "the JSON, then the image");
    assert_eq!(content[0]["type"], "text");
    assert_eq!(content[1]["type"], "resource_link");
    assert_eq!(outcome.links.len(), 1);
    let link = &outcome.links[0];
    assert_eq!(link.guest_path, value["path"].as_str().unwrap());
    let host_path = link.host_path.as_ref().expect("the link points into the preopened volume");
    let bytes = std::fs::read(host_path).unwrap();
    assert_eq!(value["bytes"], json!(bytes.len()));
    assert_eq!(link.size, Some(bytes.len() as u64));
    let image = Image::decode(&bytes);
    assert_eq!(value["width"], json!(image.width));
    assert_eq!(value["height"], json!(image.height));
    (value, image)
}

#[test]
fn a_default_chart_is_a_small_real_png() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let outcome = plot(&module, json!({"values": [3, 1, 4, 1, 5, 9, 2, 6]}), &session(&volume));
    let (value, image) = linked_image(&outcome);
    assert_eq!(value["path"], "/volume/tmp/plot/plot-1.png");
    assert_eq!(outcome.expect_ok()["content"][1]["uri"], "volume:///tmp/plot/plot-1.png");
    assert_eq!((image.width, image.height), (640, 400));
    assert!(value["bytes"].as_u64().unwrap() < 16 * 1024, "{value}");
    assert!(volume.path().join("plot/plot-1.png").is_file());

    // Background in the corners.
    for (x, y) in [(0, 0), (639, 0), (0, 399), (639, 399)] {
        assert_eq!(image.at(x, y), WHITE, "({x}, {y})");
    }
    // The zero line (the x axis) runs along the bottom of the plot area,
    // with every bar standing on it.
    let axis_y = (0..400).rev().find(|&y| image.runs(y, INK).iter().any(|&(a, b)| b - a > 500)).expect("an x axis");
    let bars = image.runs(axis_y - 1, BAR);
    assert_eq!(bars.len(), 8, "one bar per value just above the axis");
    // The y axis: one ink column through the plot area, left of the bars.
    let (axis_x, _) = image.runs(200, INK)[0];
    assert!(axis_x < bars[0].0);
    assert_eq!(image.at(axis_x, axis_y - 100), INK);
    assert_eq!(image.at(axis_x + 1, axis_y - 100), WHITE);
    // Heights follow the values: 9 (the 6th) is the tallest, 1s the shortest.
    let height_of = |(a, b): (usize, usize)| {
        let x = (a + b) / 2;
        (0..axis_y).rev().take_while(|&y| image.at(x, y) == BAR).count()
    };
    let heights: Vec<usize> = bars.iter().map(|&bar| height_of(bar)).collect();
    let tallest = heights[5];
    for (h, v) in heights.iter().zip([3, 1, 4, 1, 5, 9, 2, 6]) {
        let expected = tallest as f64 * v as f64 / 9.0;
        assert!((*h as f64 - expected).abs() <= 2.0, "{heights:?}");
    }
    // A bar's middle, and the gap between two bars.
    assert_eq!(image.at((bars[5].0 + bars[5].1) / 2, axis_y - tallest / 2), BAR);
    assert_eq!(image.at((bars[0].1 + bars[1].0) / 2, axis_y - 2), WHITE);
}

/// Values whose range is past what an f64 holds are drawn to scale:
/// `hi - lo` is infinite for them, and every bar came out of zero height
/// with the zero line at the top (review 66).
#[test]
fn values_near_the_ends_of_f64_are_drawn() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let heights = |values: Value| {
        let outcome = plot(&module, json!({ "values": values }), &session(&volume));
        let (_, image) = linked_image(&outcome);
        bar_heights(&image)
    };
    let tall = heights(json!([1e308, -1e308, 5e307]));
    // 1e308 and -1e308 reach the top and the bottom from a zero line
    // half way; 5e307 is half as tall.
    assert!(tall.len() == 3 && tall[0] > 150 && tall[1] > 150, "{tall:?}");
    assert!(tall[0].abs_diff(tall[1]) <= 2 && tall[2].abs_diff(tall[0] / 2) <= 2, "{tall:?}");
    // The tiniest values too: halving them made them 0 (review 68).
    let tiny = heights(json!([1e-323, 5e-324, -5e-324]));
    assert!(
        tiny.len() == 3 && tiny[0] > 100 && tiny[1].abs_diff(tiny[0] / 2) <= 2 && tiny[2].abs_diff(tiny[1]) <= 2,
        "{tiny:?}"
    );
}

/// Each bar's height in pixels, left to right.
fn bar_heights(image: &Image) -> Vec<usize> {
    // Each bar's middle column, left to right, and how many of its pixels
    // are a bar's colour.
    let bar = |c: [u8; 3]| c == BAR || c == NEGATIVE_BAR;
    let mut middles: Vec<usize> = (0..image.height)
        .flat_map(|y| image.runs(y, BAR).into_iter().chain(image.runs(y, NEGATIVE_BAR)))
        .map(|(a, b)| (a + b) / 2)
        .collect();
    middles.sort();
    middles.dedup_by(|a, b| a.abs_diff(*b) < 10);
    middles.iter().map(|&x| (0..image.height).filter(|&y| bar(image.at(x, y))).count()).collect()
}

#[test]
fn titles_sizes_and_negative_values() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let outcome = plot(
        &module,
        json!({"values": [-2.5, 4, -1, 0.5], "title": "Profit", "width": 300, "height": 200}),
        &session(&volume),
    );
    let (value, image) = linked_image(&outcome);
    assert_eq!(value["path"], "/volume/tmp/plot/Profit-1.png");
    assert_eq!((image.width, image.height), (300, 200));
    // The title is drawn in ink in the band above the plot.
    let title_ink: usize = (0..30).map(|y| image.runs(y, INK).len()).sum();
    assert!(title_ink > 10, "title pixels: {title_ink}");
    // Negative bars hang below the zero line, in their own colour.
    let axis_y = (0..200).find(|&y| image.runs(y, INK).iter().any(|&(a, b)| b - a > 200)).expect("a zero line");
    assert_eq!(image.runs(axis_y + 2, NEGATIVE_BAR).len(), 2);
    assert_eq!(image.runs(axis_y - 2, BAR).len(), 2);
    assert!(image.runs(axis_y - 2, NEGATIVE_BAR).is_empty());

    let tiny = plot(&module, json!({"values": [1], "width": 64, "height": 64}), &session(&volume));
    let (_, image) = linked_image(&tiny);
    assert_eq!((image.width, image.height), (64, 64));
    let big =
        plot(&module, json!({"values": (0..64).collect::<Vec<_>>(), "width": 2000, "height": 2000}), &session(&volume));
    let (value, image) = linked_image(&big);
    assert_eq!((image.width, image.height), (2000, 2000));
    assert_eq!(value["path"], "/volume/tmp/plot/plot-2.png", "numbered past plot-1 from the earlier call");
}

#[test]
fn names_are_percent_encoded_in_the_link() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let title = "Q1 + Q2 売上 100%";
    let outcome = plot(&module, json!({"values": [1, 2], "title": title}), &session(&volume));
    let (value, _) = linked_image(&outcome);
    let name = format!("{title}-1.png");
    assert_eq!(value["path"], format!("/volume/tmp/plot/{name}"));
    let link = &outcome.expect_ok()["content"][1];
    assert_eq!(link["name"], name);
    assert_eq!(link["uri"], "volume:///tmp/plot/Q1%20%2B%20Q2%20%E5%A3%B2%E4%B8%8A%20100%25-1.png");
    assert!(volume.path().join("plot").join(&name).is_file());
    // A `/` in the title cannot make a directory.
    let slashed = plot(&module, json!({"values": [1], "title": "a/b"}), &session(&volume));
    assert_eq!(linked_image(&slashed).0["path"], "/volume/tmp/plot/a_b-1.png");
}

/// A file name may be 255 bytes: the title's part of one is cut, between
/// characters, so that the number and `.png` fit after it.
#[test]
fn a_title_of_four_byte_characters_names_a_file_that_fits() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    // 64 characters, 256 bytes: the longest title the file name takes whole in characters.
    let clef = "\u{1d11e}";
    for (title, stem) in
        [(clef.repeat(64), clef.repeat(57)), (format!("a{}", clef.repeat(63)), format!("a{}", clef.repeat(57)))]
    {
        let outcome = plot(&module, json!({"values": [1, 2], "title": title}), &session(&volume));
        let (value, _) = linked_image(&outcome);
        let name = format!("{stem}-1.png");
        assert!(name.len() <= 255, "{} bytes", name.len());
        assert_eq!(value["path"], format!("/volume/tmp/plot/{name}"));
        assert!(volume.path().join("plot").join(&name).is_file());
    }
}

#[test]
fn bad_inputs_are_tool_errors() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let opts = session(&volume);
    let values_error = "invalid input: `values` must be an array of 1 to 64 numbers";
    for values in [json!([]), json!((0..65).collect::<Vec<_>>())] {
        assert_eq!(error_text(&plot(&module, json!({"values": values}), &opts)), values_error, "{values}");
    }
    // The element that is no number is named (review 66).
    for (values, error) in [
        (json!([1, "2"]), "`values[1]` must be a number, not a string"),
        (json!([null]), "`values[0]` must be a number, not null"),
        (json!([1, 2, [1]]), "`values[2]` must be a number, not an array"),
    ] {
        assert_eq!(error_text(&plot(&module, json!({"values": values}), &opts)), format!("invalid input: {error}"));
    }
    assert_eq!(error_text(&plot(&module, json!({}), &opts)), "invalid input: missing field `values`");
    assert_eq!(error_text(&plot(&module, json!({"values": 3}), &opts)), "invalid input: `values` must be an array");
    // 1e999 is valid JSON that no f64 holds (serde_json refuses to build it,
    // so the request line is written by hand).
    let line = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"plot","arguments":{"values":[1e999]},"#,
        r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
        "\n"
    );
    let run_opts = RunOptions {
        argv: vec!["plot".into()],
        stdin: line.as_bytes().to_vec(),
        preopens: vec![("/volume/tmp".into(), volume.path().to_path_buf(), false)],
        ..RunOptions::default()
    };
    let out = run(&module, &run_opts).unwrap();
    assert_eq!(out.exit, Exit::Code(0));
    let response: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(response["result"]["isError"], json!(true), "{response}");
    assert_eq!(response["result"]["content"][0]["text"], "invalid input: `values[0]` must be a number within f64");
    for (field, size) in [("width", 63), ("width", 2001), ("height", 0), ("height", 2001)] {
        assert_eq!(
            error_text(&plot(&module, json!({"values": [1], field: size}), &opts)),
            format!("invalid input: `{field}` must be an integer from 64 to 2000")
        );
    }
    assert_eq!(
        error_text(&plot(&module, json!({"values": [1], "width": 100.5}), &opts)),
        "invalid input: `width` must be an integer from 64 to 2000, written without a fraction or exponent"
    );
    assert_eq!(
        error_text(&plot(&module, json!({"values": [1], "title": 5}), &opts)),
        "invalid input: `title` must be a string"
    );
    assert!(!volume.path().join("plot").exists(), "no file for a refused call");
}

#[test]
fn a_write_budget_stops_the_image_and_leaves_nothing_behind() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let tight = CallOptions { write_budget: Some(1000), ..session(&volume) };
    let outcome = plot(&module, json!({"values": [1, 2, 3]}), &tight);
    assert_eq!(
        error_text(&outcome),
        "write /volume/tmp/plot/plot-1.png: disk quota exceeded (EDQUOT): the call's file write budget is spent"
    );
    assert_eq!(std::fs::read_dir(volume.path().join("plot")).unwrap().count(), 0, "the partial file was removed");
}

/// FNV-1a (64-bit) of everything a decoder hands back: size, colour type,
/// bit depth, palette and the pixel rows as palette indexes.
fn pixel_digest(bytes: &[u8]) -> u64 {
    let mut decoder = png::Decoder::new(bytes);
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().expect("a PNG header");
    let palette = reader.info().palette.as_ref().expect("a palette").to_vec();
    let mut pixels = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut pixels).expect("valid image data");
    pixels.truncate(frame.buffer_size());
    let header = [frame.width.to_be_bytes(), frame.height.to_be_bytes()].concat();
    let kind = [frame.color_type as u8, frame.bit_depth as u8];
    [&header[..], &kind, &palette, &pixels]
        .iter()
        .flat_map(|part| part.iter())
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// The drawing and the encoding may change how they work, never what the
/// picture is: these digests are of the charts as the first release drew
/// them, whatever bytes the encoder now compresses them into.
#[test]
fn charts_decode_to_the_same_pixels_as_ever() {
    let module = module();
    let volume = tempfile::tempdir().unwrap();
    let cases = [
        (json!({"values": [3, 1, 4, 1, 5, 9, 2, 6]}), 0xc8c2286bdd348459),
        (json!({"values": [1]}), 0x66f4c99674bd3a7e),
        (json!({"values": [-2.5, 4, -1, 0.5], "title": "Profit", "width": 300, "height": 200}), 0xd282fb6482c00723),
        (json!({"values": (0..64).collect::<Vec<_>>(), "width": 2000, "height": 2000}), 0xf8e746d5d3bbe320),
        (json!({"values": [1], "width": 64, "height": 64}), 0x3f56a965a6c3a751),
        (json!({"values": [1, 2], "title": "Q1 + Q2 売上 100%"}), 0xeb7329a48946099c),
        (
            json!({"values": [1e6, -0.25, 3.75], "title": "A title far too long for so narrow a chart", "width": 120, "height": 90}),
            0x677764f5758343f2,
        ),
        (json!({"values": [0, 0, 0], "title": "flat", "width": 333, "height": 77}), 0x3b1261c1059427ed),
        (json!({"values": [-5, -3], "title": "~{|}`_^", "width": 1999, "height": 64}), 0x0ff650016d9c86f8),
        (
            json!({"values": (0..64).map(|i| (i * 37 % 23) as f64 - 11.5).collect::<Vec<_>>(), "title": "mixed", "width": 777, "height": 1234}),
            0xfe55093423bd6cea,
        ),
    ];
    let mut failed = Vec::new();
    for (args, want) in cases {
        let outcome = plot(&module, args.clone(), &session(&volume));
        let result = outcome.expect_ok();
        assert_eq!(result.get("isError"), None, "{result}");
        let bytes = std::fs::read(outcome.links[0].host_path.as_ref().unwrap()).unwrap();
        let got = pixel_digest(&bytes);
        if got != want {
            failed.push(format!("{args}: {got:#018x}"));
        }
    }
    assert!(failed.is_empty(), "different pixels:\n{}", failed.join("\n"));
}
