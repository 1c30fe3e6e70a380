//! `subako_tiny::num` against `str::parse`: the same `Ok`/`Err` for every
//! string, and for floats the same bits.
//!
//! - every string of up to 4 characters (5 in release builds) over an
//!   alphabet of digits, points, exponent letters, signs, the letters of
//!   `inf`/`nan`, spaces and other bytes;
//! - the special words in every mix of case, with signs and near misses;
//! - generated numbers: random digits and lengths (to 900 digits), points
//!   anywhere, exponents from none to twenty digits, leading zeros, signs,
//!   and each also damaged by one inserted, removed or replaced byte;
//! - integers at and past every type's bounds.
//!
//! Seeded, the same cases every run: `NUM_CASES=N` (default 50,000; in
//! release builds 3,000,000: `cargo test --release -p subako-tiny --test
//! num`) and `NUM_SEED=S`.

use subako_tiny::num;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len() as u64) as usize]
    }
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Every parser against std on `s`.
fn check(s: &str) {
    let want = s.parse::<f64>().ok().map(f64::to_bits);
    assert_eq!(num::parse_f64(s).map(f64::to_bits), want, "parse_f64({s:?})");
    assert_eq!(num::parse_i64(s), s.parse::<i64>().ok(), "parse_i64({s:?})");
    assert_eq!(num::parse_u64(s), s.parse::<u64>().ok(), "parse_u64({s:?})");
    assert_eq!(num::parse_i32(s), s.parse::<i32>().ok(), "parse_i32({s:?})");
    assert_eq!(num::parse_u32(s), s.parse::<u32>().ok(), "parse_u32({s:?})");
}

#[test]
fn every_short_string() {
    let alphabet = ["0", "1", "9", ".", "e", "E", "+", "-", "i", "N", "f", "a", " ", "_", "x", "é"];
    let longest = if cfg!(debug_assertions) { 4 } else { 5 };
    let mut strings = vec![String::new()];
    for _ in 0..longest {
        let mut longer = Vec::new();
        for s in &strings {
            check(s);
            for a in alphabet {
                longer.push(format!("{s}{a}"));
            }
        }
        strings = longer;
    }
    for s in &strings {
        check(s);
    }
}

#[test]
fn special_words() {
    for word in ["inf", "infinity", "nan"] {
        for mask in 0..1u32 << word.len() {
            let mixed: String = word
                .chars()
                .enumerate()
                .map(|(i, c)| if mask >> i & 1 == 1 { c.to_ascii_uppercase() } else { c })
                .collect();
            for sign in ["", "+", "-", "--", "+-", " "] {
                // A word only alone after the sign: not after a digit, a
                // point or an exponent's `e`.
                for head in ["", ".", "0", "1.", "e", "1e"] {
                    for tail in ["", "a", "0", " ", "."] {
                        check(&format!("{sign}{head}{mixed}{tail}"));
                    }
                }
            }
        }
        for cut in 0..word.len() {
            check(&word[..cut]);
        }
    }
    for s in ["infinit", "infinityy", "nann", "in", "na", "infnan", "inf.0", "1inf", "nan1", "NaN", "-NaN", "+iNfInItY"]
    {
        check(s);
    }
}

/// A number as core's grammar spells it, sometimes a little wrong.
fn number(rng: &mut Rng) -> String {
    let sign = rng.pick(&["", "", "", "-", "+"]);
    let digits = |rng: &mut Rng, n: u64| -> String {
        let style = rng.below(4);
        (0..n)
            .map(|_| match style {
                0 => '0',
                1 => '9',
                _ => (b'0' + rng.below(10) as u8) as char,
            })
            .collect()
    };
    let int_len = match rng.below(8) {
        0 => 0,
        1 => rng.below(900),
        2 => 16 + rng.below(8),
        _ => rng.below(12),
    };
    let frac_len = match rng.below(6) {
        0 => 0,
        1 => rng.below(400),
        _ => rng.below(12),
    };
    let mut s = String::from(sign);
    if rng.below(6) == 0 {
        s += &"0".repeat(rng.below(30) as usize);
    }
    s += &digits(rng, int_len);
    if frac_len > 0 || rng.below(3) == 0 {
        s.push('.');
        s += &digits(rng, frac_len);
    }
    if rng.below(2) == 0 {
        s += rng.pick(&["e", "E"]);
        s += rng.pick(&["", "+", "-"]);
        let exp_len = match rng.below(10) {
            0 => 0,
            1 => 5 + rng.below(16),
            _ => 1 + rng.below(3),
        };
        s += &digits(rng, exp_len);
    }
    if rng.below(8) == 0 {
        // Damage it.
        let mut bytes = s.into_bytes();
        let at = rng.below(bytes.len() as u64 + 1) as usize;
        // `/` and `:` are the bytes either side of the digits.
        let junk = b"0.eE+-_ x\x00\xff/:"[rng.below(13) as usize];
        match rng.below(3) {
            0 => bytes.insert(at, junk),
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ if at < bytes.len() => bytes[at] = junk,
            _ => {}
        }
        return String::from_utf8_lossy(&bytes).into_owned();
    }
    s
}

#[test]
fn generated_numbers() {
    let cases = env("NUM_CASES", if cfg!(debug_assertions) { 50_000 } else { 3_000_000 });
    let mut rng = Rng(env("NUM_SEED", 0x5EED_0F64));
    for _ in 0..cases {
        check(&number(&mut rng));
    }
}

/// Text of `f64`s themselves, as the shortest round trip and with every
/// digit: what a program reads back.
#[test]
fn written_floats() {
    let cases = env("NUM_CASES", if cfg!(debug_assertions) { 50_000 } else { 3_000_000 }) / 4;
    let mut rng = Rng(env("NUM_SEED", 0x5EED_0F64) ^ 1);
    for _ in 0..cases {
        let x = f64::from_bits(rng.next());
        check(&format!("{x}"));
        check(&format!("{x:e}"));
        check(&format!("{x:E}"));
        check(&format!("{x:.30}"));
    }
}

#[test]
fn integer_bounds() {
    let bounds: [i128; 8] = [
        0,
        i32::MIN as i128,
        i32::MAX as i128,
        u32::MAX as i128,
        i64::MIN as i128,
        i64::MAX as i128,
        u64::MAX as i128,
        u64::MAX as i128 * 10,
    ];
    for b in bounds {
        for delta in -2..=2 {
            let n = b + delta;
            for text in [n.to_string(), format!("+{n}"), format!("000{n}"), format!("-{n}"), format!("-000{n}")] {
                check(&text);
            }
        }
    }
    for s in ["", "+", "-", "-0", "+0", "--1", "+-1", "-+1", " 1", "1 ", "1_0", "0x1", "٣", "１"] {
        check(s);
    }
    check(&"9".repeat(40));
    check(&format!("-{}", "0".repeat(100)));
}
