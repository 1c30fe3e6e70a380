//! The plot package written with the official SDK, for size comparison with
//! subako-tiny's `examples/plot.rs`. The chart drawing and file naming
//! (copied from that example by build.rs), the PNG encoder (`src/png.rs`)
//! and the number labels (`src/json/num.rs`, `src/json/float.rs`) are subako-tiny's own code, so
//! the two modules differ only in the SDK: input, output, files, protocol.

extern crate alloc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use subako_function_sdk::{Answer, ToolError, function, package};

use png::{Color, Writer};

// Whole modules of subako-tiny: this package uses part of each.
#[allow(dead_code)]
#[path = "../../../src/png.rs"]
mod png;

#[allow(dead_code)]
#[path = "../../../src/json/num.rs"]
mod num;

// What `num.rs` writes floats with.
#[allow(dead_code)]
#[path = "../../../src/json/float.rs"]
mod float;

/// What `src/json/num.rs` needs of subako-tiny's JSON writer.
mod write {
    pub fn put_byte(out: &mut Vec<u8>, byte: u8) {
        out.push(byte);
    }

    pub fn put(out: &mut Vec<u8>, bytes: &[u8]) {
        out.extend_from_slice(bytes);
    }
}

/// What `src/png.rs` needs of subako-tiny's `fs`, over std.
mod fs {
    pub struct File(pub std::fs::File);

    #[derive(Debug)]
    pub struct FsError(pub std::io::Error);

    impl File {
        pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), FsError> {
            std::io::Write::write_all(&mut self.0, bytes).map_err(FsError)
        }
    }

    impl From<FsError> for crate::reply::ToolError {
        fn from(e: FsError) -> Self {
            crate::reply::ToolError(e.0.to_string())
        }
    }
}

/// What `src/png.rs` needs of subako-tiny's `reply`.
mod reply {
    pub struct ToolError(pub String);

    impl From<String> for ToolError {
        fn from(message: String) -> ToolError {
            ToolError(message)
        }
    }
}

/// What `src/json/num.rs` needs of subako-tiny's `bytes`.
mod bytes {
    pub fn u64_digits(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
        let mut at = buf.len();
        loop {
            at -= 1;
            buf[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                return &buf[at..];
            }
        }
    }
}

/// What `src/png.rs` and the chart's label need of subako-tiny's `text`.
mod text {
    pub struct Text(pub Vec<u8>);

    impl Text {
        pub fn into_string(self) -> String {
            String::from_utf8(self.0).unwrap_or_default()
        }
    }

    pub fn concat(a: &str, b: &str, c: &str, d: &str) -> String {
        [a, b, c, d].concat()
    }
}

/// The chart's number label, written by subako-tiny's own float writer, as
/// `text!(x)` writes it there.
macro_rules! text {
    ($x:expr) => {{
        let mut out = Vec::new();
        crate::num::write_f64(&mut out, $x);
        crate::text::Text(out)
    }};
}

include!(concat!(env!("OUT_DIR"), "/chart.rs"));

#[derive(Deserialize, JsonSchema)]
struct PlotInput {
    /// The bars' heights, left to right.
    values: Vec<f64>,
    /// A title above the chart (ASCII; other characters show as `?`). It also names the file.
    title: Option<String>,
    /// Pixels; 640 if absent.
    width: Option<i64>,
    /// Pixels; 400 if absent.
    height: Option<i64>,
}

#[derive(Serialize, JsonSchema)]
struct Plotted {
    path: String,
    width: i64,
    height: i64,
    bytes: u64,
}

fn dimension(field: &str, value: Option<i64>, default: i64) -> Result<i64, ToolError> {
    match value {
        None => Ok(default),
        Some(v) if (64..=2000).contains(&v) => Ok(v),
        Some(_) => Err(ToolError::new(format!("invalid input: `{field}` must be an integer from 64 to 2000"))),
    }
}

fn io_error(e: std::io::Error) -> ToolError {
    ToolError::new(e.to_string())
}

fn png_error(e: png::PngError<fs::FsError>) -> ToolError {
    ToolError::new(reply::ToolError::from(e).0)
}

/// A new file `<stem>-<n>.png`, numbered past those already in `DIR`.
fn new_plot_file(stem: &str) -> Result<(std::fs::File, String), ToolError> {
    std::fs::create_dir_all(DIR).map_err(io_error)?;
    let mut n = std::fs::read_dir(DIR)
        .map_err(io_error)?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| file_number(&name, stem))
        .max()
        .unwrap_or(0);
    loop {
        n += 1;
        let path = format!("{DIR}/{stem}-{n}.png");
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((file, path)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io_error(e)),
        }
    }
}

/// Encodes `chart` into `file`; its size in bytes.
fn write_png(chart: &Chart, file: std::fs::File) -> Result<u64, ToolError> {
    let mut png = Writer::new(fs::File(file), chart.width as u32, chart.height as u32, Color::Indexed(&PALETTE))
        .map_err(png_error)?;
    let mut row = vec![BACKGROUND; chart.width as usize];
    for y in 0..chart.height {
        chart.draw_row(&mut row, y);
        png.write_row(&row).map_err(png_error)?;
    }
    let file = png.finish().map_err(png_error)?;
    file.0.metadata().map(|m| m.len()).map_err(io_error)
}

/// Draw a bar chart of the values as a PNG in the session volume and show it.
#[function]
fn plot(input: PlotInput) -> Result<Answer<Plotted>, ToolError> {
    let values = input.values;
    if values.is_empty() || values.len() > MAX_VALUES || values.iter().any(|v| !v.is_finite()) {
        return Err(ToolError::new("invalid input: `values` must be an array of 1 to 64 numbers"));
    }
    let width = dimension("width", input.width, 640)?;
    let height = dimension("height", input.height, 400)?;
    let chart = Chart::new(&values, input.title.as_deref(), width, height);

    let (file, path) = new_plot_file(&file_stem(input.title.as_deref()))?;
    let bytes = match write_png(&chart, file) {
        Ok(bytes) => bytes,
        Err(e) => {
            // Leave no half-written image behind.
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
    };
    Ok(Answer::new(Plotted { path: path.clone(), width, height, bytes }).with_image_file(path))
}

package! {
    name: "plot",
    description: "Draws bar charts.",
    functions: [plot],
}
