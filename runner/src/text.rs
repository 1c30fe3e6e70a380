//! Plain-text tables and numbers, as every report prints them.

/// Bytes in a KiB and a MiB.
pub const KIB: usize = 1 << 10;
pub const MIB: usize = 1 << 20;

/// 12345 → "12,345".
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count with thousands separators, `-` for none.
pub fn count(n: Option<u64>) -> String {
    n.map_or("-".into(), |n| thousands(n as usize))
}

/// A number with `digits` decimals and thousands separators, `-` for none.
pub fn decimal(v: Option<f64>, digits: usize) -> String {
    let Some(v) = v else { return "-".into() };
    let s = format!("{:.digits$}", v.abs());
    let (int, frac) = s.split_once('.').map_or((s.as_str(), None), |(i, f)| (i, Some(f)));
    let mut out =
        if v < 0.0 && s.bytes().any(|b| b.is_ascii_digit() && b != b'0') { "-".to_string() } else { String::new() };
    out += &thousands(int.parse().unwrap_or(0));
    if let Some(f) = frac {
        out.push('.');
        out += f;
    }
    out
}

/// Text columns two spaces apart, each line after `indent`, the header
/// underlined with dashes; the columns in `left` align left, the others right.
pub fn table(headers: &[&str], rows: &[Vec<String>], left: &[usize], indent: &str) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: Vec<String>| {
        let s: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let pad = " ".repeat(widths[i].saturating_sub(c.chars().count()));
                if left.contains(&i) { format!("{c}{pad}") } else { format!("{pad}{c}") }
            })
            .collect();
        format!("{indent}{}\n", s.join("  ").trim_end())
    };
    let mut out = line(headers.iter().map(|h| h.to_string()).collect());
    out += &line(widths.iter().map(|w| "-".repeat(*w)).collect());
    for r in rows {
        out += &line(r.clone());
    }
    out
}

/// b/a, when both exist and a is not zero.
pub fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) if x != 0.0 => Some(y / x),
        _ => None,
    }
}
