//! The `plot` package: draws a bar chart into a PNG in the session volume
//! and shows it to the model as a `resource_link`.
//!
//! The file is `/volume/tmp/plot/<title or "plot">-<n>.png`, numbered past
//! the charts already there: the volume outlives the call, memory does not.
//! A long title is cut, between characters, to a name of at most 255 bytes.
//!
//! The chart is drawn one row of pixels at a time straight into the PNG
//! encoder, which streams into the file: memory holds a row, never the
//! image. A run of like rows is drawn once and handed over as copies.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

use subako_tiny::fs::{self, errno};
use subako_tiny::json::Kind;
use subako_tiny::png::{Color, Writer};
use subako_tiny::{Args, Package, Reply, Tool, ToolError, text};

/// This package's own directory in the session volume.
const DIR: &str = "/volume/tmp/plot";
const MAX_VALUES: usize = 64;

const BACKGROUND: u8 = 0;
const INK: u8 = 1;
const BAR: u8 = 2;
const NEGATIVE_BAR: u8 = 3;
const PALETTE: [[u8; 3]; 4] = [[255, 255, 255], [34, 34, 34], [66, 133, 244], [219, 68, 55]];

/// A 5×7 font for ASCII 32..=126: five columns per glyph, bit 0 at the top.
#[rustfmt::skip]
const FONT: [[u8; 5]; 95] = [
    [0x00,0x00,0x00,0x00,0x00], [0x00,0x00,0x5F,0x00,0x00], [0x00,0x07,0x00,0x07,0x00], [0x14,0x7F,0x14,0x7F,0x14],
    [0x24,0x2A,0x7F,0x2A,0x12], [0x23,0x13,0x08,0x64,0x62], [0x36,0x49,0x55,0x22,0x50], [0x00,0x05,0x03,0x00,0x00],
    [0x00,0x1C,0x22,0x41,0x00], [0x00,0x41,0x22,0x1C,0x00], [0x08,0x2A,0x1C,0x2A,0x08], [0x08,0x08,0x3E,0x08,0x08],
    [0x00,0x50,0x30,0x00,0x00], [0x08,0x08,0x08,0x08,0x08], [0x00,0x60,0x60,0x00,0x00], [0x20,0x10,0x08,0x04,0x02],
    [0x3E,0x51,0x49,0x45,0x3E], [0x00,0x42,0x7F,0x40,0x00], [0x42,0x61,0x51,0x49,0x46], [0x21,0x41,0x45,0x4B,0x31],
    [0x18,0x14,0x12,0x7F,0x10], [0x27,0x45,0x45,0x45,0x39], [0x3C,0x4A,0x49,0x49,0x30], [0x01,0x71,0x09,0x05,0x03],
    [0x36,0x49,0x49,0x49,0x36], [0x06,0x49,0x49,0x29,0x1E], [0x00,0x36,0x36,0x00,0x00], [0x00,0x56,0x36,0x00,0x00],
    [0x08,0x14,0x22,0x41,0x00], [0x14,0x14,0x14,0x14,0x14], [0x00,0x41,0x22,0x14,0x08], [0x02,0x01,0x51,0x09,0x06],
    [0x32,0x49,0x79,0x41,0x3E], [0x7E,0x11,0x11,0x11,0x7E], [0x7F,0x49,0x49,0x49,0x36], [0x3E,0x41,0x41,0x41,0x22],
    [0x7F,0x41,0x41,0x22,0x1C], [0x7F,0x49,0x49,0x49,0x41], [0x7F,0x09,0x09,0x09,0x01], [0x3E,0x41,0x49,0x49,0x7A],
    [0x7F,0x08,0x08,0x08,0x7F], [0x00,0x41,0x7F,0x41,0x00], [0x20,0x40,0x41,0x3F,0x01], [0x7F,0x08,0x14,0x22,0x41],
    [0x7F,0x40,0x40,0x40,0x40], [0x7F,0x02,0x0C,0x02,0x7F], [0x7F,0x04,0x08,0x10,0x7F], [0x3E,0x41,0x41,0x41,0x3E],
    [0x7F,0x09,0x09,0x09,0x06], [0x3E,0x41,0x51,0x21,0x5E], [0x7F,0x09,0x19,0x29,0x46], [0x46,0x49,0x49,0x49,0x31],
    [0x01,0x01,0x7F,0x01,0x01], [0x3F,0x40,0x40,0x40,0x3F], [0x1F,0x20,0x40,0x20,0x1F], [0x3F,0x40,0x38,0x40,0x3F],
    [0x63,0x14,0x08,0x14,0x63], [0x07,0x08,0x70,0x08,0x07], [0x61,0x51,0x49,0x45,0x43], [0x00,0x7F,0x41,0x41,0x00],
    [0x02,0x04,0x08,0x10,0x20], [0x00,0x41,0x41,0x7F,0x00], [0x04,0x02,0x01,0x02,0x04], [0x40,0x40,0x40,0x40,0x40],
    [0x00,0x01,0x02,0x04,0x00], [0x20,0x54,0x54,0x54,0x78], [0x7F,0x48,0x44,0x44,0x38], [0x38,0x44,0x44,0x44,0x20],
    [0x38,0x44,0x44,0x48,0x7F], [0x38,0x54,0x54,0x54,0x18], [0x08,0x7E,0x09,0x01,0x02], [0x0C,0x52,0x52,0x52,0x3E],
    [0x7F,0x08,0x04,0x04,0x78], [0x00,0x44,0x7D,0x40,0x00], [0x20,0x40,0x44,0x3D,0x00], [0x7F,0x10,0x28,0x44,0x00],
    [0x00,0x41,0x7F,0x40,0x00], [0x7C,0x04,0x18,0x04,0x78], [0x7C,0x08,0x04,0x04,0x78], [0x38,0x44,0x44,0x44,0x38],
    [0x7C,0x14,0x14,0x14,0x08], [0x08,0x14,0x14,0x18,0x7C], [0x7C,0x08,0x04,0x04,0x08], [0x48,0x54,0x54,0x54,0x20],
    [0x04,0x3F,0x44,0x40,0x20], [0x3C,0x40,0x40,0x20,0x7C], [0x1C,0x20,0x40,0x20,0x1C], [0x3C,0x40,0x30,0x40,0x3C],
    [0x44,0x28,0x10,0x28,0x44], [0x0C,0x50,0x50,0x50,0x3C], [0x44,0x64,0x54,0x4C,0x44], [0x00,0x08,0x36,0x41,0x00],
    [0x00,0x00,0x7F,0x00,0x00], [0x00,0x41,0x36,0x08,0x00], [0x08,0x04,0x08,0x10,0x08],
];

/// A line of text placed on the chart.
struct Label {
    x: i64,
    y: i64,
    scale: i64,
    /// Glyph indexes into `FONT`.
    glyphs: Vec<u8>,
}

impl Label {
    fn new(text: &str, scale: i64, max_width: i64) -> Label {
        let fit = (max_width / (6 * scale)).max(0) as usize;
        let glyphs = text
            .chars()
            .take(fit)
            .map(|c| if (' '..='~').contains(&c) { c as u8 - b' ' } else { b'?' - b' ' })
            .collect();
        Label { x: 0, y: 0, scale, glyphs }
    }

    /// `x` at scale 1, or nothing if it does not fit whole in `max_width`.
    fn number(x: f64, max_width: i64) -> Label {
        let text = number_label(x);
        let mut label = Label::new(&text, 1, max_width);
        if label.glyphs.len() < text.len() {
            label.glyphs.clear();
        }
        label
    }

    fn width(&self) -> i64 {
        (self.glyphs.len() as i64 * 6 - 1).max(0) * self.scale
    }

    fn height(&self) -> i64 {
        7 * self.scale
    }

    /// Sets the label's pixels that fall in row `y`.
    fn draw_row(&self, row: &mut [u8], y: i64) {
        if y < self.y || y >= self.y + self.height() {
            return;
        }
        let Some(bit) = (y - self.y).checked_div(self.scale) else { return };
        for (i, &glyph) in self.glyphs.iter().enumerate() {
            let columns = FONT.get(glyph as usize).copied().unwrap_or([0; 5]);
            for (c, column) in columns.iter().enumerate() {
                if column >> bit & 1 == 1 {
                    let x = self.x + (i as i64 * 6 + c as i64) * self.scale;
                    fill(row, x, x + self.scale, INK);
                }
            }
        }
    }
}

/// Colours `row[from..to]`, clipped to the row.
fn fill(row: &mut [u8], from: i64, to: i64, color: u8) {
    let len = row.len() as i64;
    let (from, to) = (from.clamp(0, len) as usize, to.clamp(0, len) as usize);
    if let Some(span) = row.get_mut(from..to) {
        span.fill(color);
    }
}

/// `x` as a short label: `12.5`, `3` (not `3.0`), `-0.25`.
fn number_label(x: f64) -> String {
    let text = text!(x).into_string();
    match text.strip_suffix(".0") {
        Some(whole) => String::from(whole),
        None => text,
    }
}

/// A bar: its columns and rows, and whether it stands below zero.
struct Bar {
    left: i64,
    right: i64,
    top: i64,
    bottom: i64,
    negative: bool,
}

struct Chart {
    width: i64,
    height: i64,
    /// The plot area: the y axis is at `left`, the zero line at `zero`.
    left: i64,
    right: i64,
    top: i64,
    bottom: i64,
    zero: i64,
    bars: Vec<Bar>,
    labels: Vec<Label>,
}

impl Chart {
    fn new(values: &[f64], title: Option<&str>, width: i64, height: i64) -> Chart {
        let scale = if width.min(height) >= 300 { 2 } else { 1 };
        let mut labels = Vec::new();
        let mut top = 10;
        if let Some(title) = title {
            let mut label = Label::new(title, scale, width - 8);
            label.x = (width - label.width()) / 2;
            label.y = 4 * scale;
            top = label.y + label.height() + 6 * scale;
            labels.push(label);
        }
        let lo = values.iter().fold(0.0f64, |m, &v| m.min(v));
        let mut hi = values.iter().fold(0.0f64, |m, &v| m.max(v));
        if hi - lo <= 0.0 {
            hi = lo + 1.0;
        }
        // The range's ends, labelled left of the axis when they fit.
        let mut hi_label = Label::number(hi, width / 4);
        let mut lo_label = Label::number(lo, width / 4);
        let left = 8 + hi_label.width().max(lo_label.width()) + 8;
        let (right, bottom) = (width - 10, height - 10);
        let bottom = bottom.max(top + 1);
        let span = (bottom - top) as f64;
        // In halves when `hi - lo` is past f64 (values near its ends),
        // which would make every bar's height NaN (review 66); only then,
        // as halving the tiniest values makes them 0 (review 68).
        let k = if (hi - lo).is_finite() { 1.0 } else { 0.5 };
        let (high, range) = (hi * k, hi * k - lo * k);
        let y_of = |v: f64| top + ((high - v * k) / range * span + 0.5) as i64;
        hi_label.x = left - 6 - hi_label.width();
        hi_label.y = top - 3;
        lo_label.x = left - 6 - lo_label.width();
        lo_label.y = bottom - 3;
        labels.push(hi_label);
        labels.push(lo_label);
        let zero = y_of(0.0);
        let slot = (right - left - 1) as f64 / values.len() as f64;
        let gap = slot * 0.15;
        let bars = values
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let start = (left + 1) as f64 + i as f64 * slot;
                let y = y_of(v);
                Bar {
                    left: (start + gap + 0.5) as i64,
                    right: (start + slot - gap + 0.5) as i64,
                    top: y.min(zero),
                    bottom: y.max(zero),
                    negative: v < 0.0,
                }
            })
            .collect();
        Chart { width, height, left, right, top, bottom, zero, bars, labels }
    }

    /// The first row after `y` that can differ from the one above it, or
    /// `height`: where `draw_row`'s tests below change their answer.
    fn next_change(&self, y: i64) -> i64 {
        let mut next = self.height;
        let mut see = |r: i64| {
            if r > y && r < next {
                next = r;
            }
        };
        for r in [self.top, self.top + 1, self.bottom, self.bottom + 1, self.zero, self.zero + 1] {
            see(r);
        }
        for bar in &self.bars {
            see(bar.top);
            see(bar.bottom);
        }
        // Any row of a label, and the one after it.
        for label in &self.labels {
            if label.y + label.height() > y {
                see(label.y.max(y + 1));
            }
        }
        next
    }

    /// Row `y` of the picture, as palette indexes.
    fn draw_row(&self, row: &mut [u8], y: i64) {
        row.fill(BACKGROUND);
        for bar in &self.bars {
            if y >= bar.top && y < bar.bottom {
                fill(row, bar.left, bar.right, if bar.negative { NEGATIVE_BAR } else { BAR });
            }
        }
        if y >= self.top && y <= self.bottom {
            fill(row, self.left, self.left + 1, INK);
        }
        if y == self.zero {
            fill(row, self.left, self.right + 1, INK);
        }
        if y == self.top || y == self.bottom {
            fill(row, self.left - 4, self.left, INK);
        }
        for label in &self.labels {
            label.draw_row(row, y);
        }
    }
}

fn values(args: &Args<'_>) -> Result<Vec<f64>, ToolError> {
    let array = args.array("values")?;
    let must = || ToolError::invalid_input("`values` must be an array of 1 to 64 numbers");
    let mut values = Vec::new();
    for (i, item) in array.iter().enumerate() {
        // The element named, as the schema validator names one.
        let Some(v) = item.as_f64().filter(|v| v.is_finite()) else {
            let kind = item.kind();
            let (why, kind) = if kind == Kind::Number { (" within f64", "") } else { (", not ", kind.article_name()) };
            return Err(ToolError::invalid_input(("`values[", i, "]` must be a number", why, kind)));
        };
        if values.len() == MAX_VALUES {
            return Err(must());
        }
        values.push(v);
    }
    if values.is_empty() {
        return Err(must());
    }
    Ok(values)
}

/// The longest file name a volume takes, in bytes.
const MAX_NAME_BYTES: usize = 255;
/// The longest stem: what is left of a name after the longest `-<n>.png`.
const MAX_STEM_BYTES: usize = MAX_NAME_BYTES - "-18446744073709551615.png".len();

/// The file's stem: the title, made safe as one file name (at most 64
/// characters and as many whole ones as fit in [`MAX_STEM_BYTES`], no `/`,
/// no control characters, no leading `.`), or `plot`.
fn file_stem(title: Option<&str>) -> String {
    let mut stem = String::new();
    for c in title.unwrap_or("").chars().take(64) {
        if stem.len() + c.len_utf8() > MAX_STEM_BYTES {
            break;
        }
        let unsafe_here = c == '/' || c == '\\' || c.is_control() || (stem.is_empty() && c == '.');
        stem.push(if unsafe_here { '_' } else { c });
    }
    if stem.trim().is_empty() { String::from("plot") } else { stem }
}

/// The `n` in `<stem>-<n>.png`, for a name of that form.
fn file_number(name: &str, stem: &str) -> Option<u64> {
    let digits = name.strip_prefix(stem)?.strip_prefix('-')?.strip_suffix(".png")?;
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.bytes().fold(0, |n, d| n * 10 + (d - b'0') as u64))
}

/// A new file `<stem>-<n>.png`, numbered past those already in `DIR`.
fn new_plot_file(stem: &str) -> Result<(fs::File, String), ToolError> {
    fs::create_dir_all(DIR)?;
    let mut n = fs::read_dir(DIR)?.iter().filter_map(|name| file_number(name, stem)).max().unwrap_or(0);
    loop {
        n += 1;
        let path = text!(DIR, "/", stem, "-", n, ".png").into_string();
        match fs::File::create_new(&path) {
            Ok(file) => return Ok((file, path)),
            // Another call of this session got there first.
            Err(e) if e.errno() == Some(errno::EXIST) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

/// Encodes `chart` into `file`; its size in bytes.
fn write_png(chart: &Chart, file: fs::File) -> Result<u64, ToolError> {
    let mut png = Writer::new(file, chart.width as u32, chart.height as u32, Color::Indexed(&PALETTE))?;
    let mut row = alloc::vec![BACKGROUND; chart.width as usize];
    let mut y = 0;
    while y < chart.height {
        // The rows down to the next change are copies: one drawing, and the
        // encoder need not look at them.
        let next = chart.next_change(y);
        chart.draw_row(&mut row, y);
        png.write_rows(&row, (next - y) as u32)?;
        y = next;
    }
    Ok(png.finish()?.size()?)
}

fn plot(args: &Args<'_>) -> Result<Reply, ToolError> {
    let values = values(args)?;
    let title = args.opt_str("title")?;
    let width = args.opt_int("width", 64, 2000)?.unwrap_or(640);
    let height = args.opt_int("height", 64, 2000)?.unwrap_or(400);
    let chart = Chart::new(&values, title.as_deref(), width, height);

    let (file, path) = new_plot_file(&file_stem(title.as_deref()))?;
    let bytes = match write_png(&chart, file) {
        Ok(bytes) => bytes,
        Err(e) => {
            // Leave no half-written image behind.
            let _ = fs::remove_file(&path);
            return Err(e);
        }
    };

    let reply =
        Reply::object(|o| o.field("path", &path).field("width", width).field("height", height).field("bytes", bytes));
    Ok(reply.with_file(&path))
}

pub const PACKAGE: Package = Package::new(
    "plot",
    env!("CARGO_PKG_VERSION"),
    "Draws bar charts.",
    &[Tool::new("plot", "Draw a bar chart of the values as a PNG in the session volume and show it.", r#"{
            "properties": {
                "values": {"description": "The bars' heights, left to right.", "items": {"type": "number"}, "maxItems": 64, "minItems": 1, "type": "array"},
                "title": {"description": "A title above the chart (ASCII; other characters show as `?`). It also names the file.", "type": "string"},
                "width": {"description": "Pixels; 640 if absent.", "maximum": 2000, "minimum": 64, "type": "integer"},
                "height": {"description": "Pixels; 400 if absent.", "maximum": 2000, "minimum": 64, "type": "integer"}
            },
            "required": ["values"],
            "type": "object"
        }"#, plot).output_schema(
            r#"{
                "properties": {
                    "path": {"type": "string"},
                    "width": {"type": "integer"},
                    "height": {"type": "integer"},
                    "bytes": {"type": "integer"}
                },
                "required": ["path", "width", "height", "bytes"],
                "type": "object"
            }"#,
        )],
);

subako_tiny::main!(PACKAGE);

/// Natively, through the host back end: `cargo test --example plot`.
#[cfg(test)]
mod tests {
    use subako_tiny::testing;

    use super::{Chart, PACKAGE};

    #[test]
    fn rows_between_changes_are_copies() {
        let many: Vec<f64> = (0..64).map(|i| (i * 37 % 23) as f64 - 11.5).collect();
        let charts: [(&[f64], Option<&str>, i64, i64); 6] = [
            (&[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0], None, 640, 400),
            (&[-2.5, 4.0, -1.0, 0.5], Some("Profit"), 300, 200),
            (&[1.0], None, 64, 64),
            (&[0.0, 0.0], Some("flat"), 333, 77),
            (&[-5.0, -3.0], Some("~{|}`_^ and more"), 1999, 64),
            (&many, Some("mixed"), 777, 1234),
        ];
        for (values, title, width, height) in charts {
            let chart = Chart::new(values, title, width, height);
            let (mut row, mut copied) = (vec![0; width as usize], vec![0; width as usize]);
            let (mut drawn, mut next) = (0, 0);
            for y in 0..height {
                chart.draw_row(&mut row, y);
                if y == next {
                    (drawn, next) = (y, chart.next_change(y));
                    assert!(next > y);
                    copied.copy_from_slice(&row);
                }
                assert!(row == copied, "{values:?} {title:?} {width}×{height}: row {y} is not row {drawn}");
            }
            assert_eq!(next, height);
        }
    }

    #[test]
    fn draws_a_png_into_the_mounted_volume() {
        let volume = std::env::temp_dir().join(format!("subako-tiny-plot-example-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&volume);
        std::fs::create_dir_all(&volume).unwrap();
        subako_tiny::fs::mount("/volume/tmp", &volume);
        let called = testing::call(&PACKAGE, "plot", r#"{"values":[2,-1,3],"width":200,"height":100}"#);
        assert!(!called.is_error(), "{}", called.line());
        let bytes = std::fs::read(volume.join("plot/plot-1.png")).unwrap();
        let value =
            format!(r#"{{"path":"/volume/tmp/plot/plot-1.png","width":200,"height":100,"bytes":{}}}"#, bytes.len());
        assert_eq!(called.structured(), Some(value.as_str()));
        assert_eq!(
            called.content(),
            format!(
                r#"[{{"text":{},"type":"text"}},{{"name":"plot-1.png","type":"resource_link","uri":"volume:///tmp/plot/plot-1.png"}}]"#,
                serde_json::Value::from(value.as_str())
            )
        );
        let decoder = png::Decoder::new(&bytes[..]);
        let mut reader = decoder.read_info().unwrap();
        let mut pixels = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut pixels).unwrap();
        assert_eq!((info.width, info.height), (200, 100));
        // The next chart of the session is numbered past it.
        let next = testing::call(&PACKAGE, "plot", r#"{"values":[1],"title":"plot"}"#);
        assert!(next.structured().unwrap().starts_with(r#"{"path":"/volume/tmp/plot/plot-2.png","#), "{}", next.line());
        subako_tiny::fs::unmount("/volume/tmp");
        let _ = std::fs::remove_dir_all(&volume);
    }
}
