//! The crate's float parser (`num::parse_f64`, `Value::as_f64`) against core's
//! `str::parse::<f64>`, bit for bit, on generated JSON number text: short
//! decimals, 17–19 digit mantissas, long mantissas (to 800 digits and past),
//! exact halfway points between adjacent `f64`s and their neighbours,
//! subnormals and the subnormal/normal boundary, exponents near and past
//! ±308/−324, powers of ten, integers near 2^53.
//!
//! And the crate's float writer (`write_f64`) against ryu's
//! shortest form with serde_json's signed exponent (what the writer wrote
//! before it had its own digits), byte for byte, on generated `f64`s: any
//! bit pattern, subnormals, powers of two and ten and their neighbours,
//! integers to 2^53 and past, 15–17 significant digits, decimals that end
//! in a 5 just past where a shortest form would cut, the extremes.
//!
//! And `text::fixed` against std's `format!("{x:.N}")`, byte for byte, on
//! the same generated `f64`s and on exact ties (a float whose value ends in
//! a 5 just past the decimals asked for), with 0 to 20 decimals and now and
//! then up to 255.
//!
//! Seeded, the same cases every run: `cargo test --release --test floats`
//! runs 1,000,000 of each (about a minute on one core for reading); a debug
//! `cargo test` runs the first 150,000 (the exact paths are slow unoptimized).
//! `FLOAT_CASES=N` and `FLOAT_SEED=S` change that.

use subako_tiny::__test::json_num as num;
use subako_tiny::json;

/// splitmix64: small, seeded, good enough to spread cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.next().is_multiple_of(one_in)
    }

    /// `lo..=hi` random digits.
    fn digits_in(&mut self, lo: i64, hi: i64) -> String {
        let n = self.range(lo, hi) as usize;
        self.digits(n)
    }

    fn digits(&mut self, n: usize) -> String {
        let mut s = String::with_capacity(n);
        // Now and then runs of 0s or 9s, which carry and borrow.
        let style = self.next() % 4;
        for i in 0..n {
            let d = match style {
                0 if i > 0 && !self.chance(8) => b'0',
                1 if !self.chance(8) => b'9',
                _ => b'0' + (self.next() % 10) as u8,
            };
            s.push(if i == 0 && d == b'0' { '1' } else { d as char });
        }
        s
    }
}

/// Decimal digits (no leading zero) of a big integer in base 10^9 limbs,
/// least significant first.
fn big_to_string(limbs: &[u64]) -> String {
    let mut s = String::new();
    let mut iter = limbs.iter().rev().skip_while(|&&l| l == 0);
    match iter.next() {
        Some(top) => s.push_str(&top.to_string()),
        None => return "0".into(),
    }
    for limb in iter {
        s.push_str(&format!("{limb:09}"));
    }
    s
}

fn big_mul(limbs: &mut Vec<u64>, f: u64) {
    let mut carry = 0;
    for limb in limbs.iter_mut() {
        let v = *limb * f + carry;
        *limb = v % 1_000_000_000;
        carry = v / 1_000_000_000;
    }
    while carry > 0 {
        limbs.push(carry % 1_000_000_000);
        carry /= 1_000_000_000;
    }
}

/// The exact decimal of `m · 2^p`: digits and a power of ten.
fn exact(m: u64, p: i32) -> (String, i32) {
    let mut limbs = vec![m % 1_000_000_000, m / 1_000_000_000 % 1_000_000_000, m / 1_000_000_000_000_000_000];
    if p >= 0 {
        let mut left = p;
        while left > 0 {
            let k = left.min(29);
            big_mul(&mut limbs, 1 << k);
            left -= k;
        }
        (big_to_string(&limbs), 0)
    } else {
        // m · 2^p = m · 5^-p · 10^p.
        let mut left = -p;
        while left > 0 {
            let k = left.min(13);
            big_mul(&mut limbs, 5u64.pow(k as u32));
            left -= k;
        }
        (big_to_string(&limbs), p)
    }
}

/// Adds `delta` (±1) to a digit string; `None` when it would reach zero.
fn bump(digits: &str, delta: i8) -> Option<String> {
    let mut d: Vec<u8> = digits.bytes().collect();
    let mut i = d.len();
    loop {
        if i == 0 {
            if delta > 0 {
                d.insert(0, b'1');
                break;
            }
            return None;
        }
        i -= 1;
        match (delta > 0, d[i]) {
            (true, b'9') => d[i] = b'0',
            (true, c) => {
                d[i] = c + 1;
                break;
            }
            (false, b'0') => d[i] = b'9',
            (false, c) => {
                d[i] = c - 1;
                break;
            }
        }
    }
    let s = String::from_utf8(d).unwrap();
    let s = s.trim_start_matches('0');
    (!s.is_empty()).then(|| s.to_string())
}

/// JSON text for `digits · 10^exp` (digits without leading zeros), in one of
/// several spellings.
fn spell(rng: &mut Rng, digits: &str, exp: i64) -> String {
    let e = match rng.next() % 4 {
        0 => "e",
        1 => "E",
        2 => "e+",
        _ => "E+",
    };
    let exp_text = |x: i64| if x < 0 { format!("{}{x}", &e[..1]) } else { format!("{e}{x}") };
    let n = digits.len() as i64;
    match rng.next() % 4 {
        // 1234e-5
        0 => format!("{digits}{}", exp_text(exp)),
        // 1.234e-2
        1 if n > 1 => format!("{}.{}{}", &digits[..1], &digits[1..], exp_text(exp + n - 1)),
        // Plain, when that is not too long: 12.34, 0.001234, 1234000
        2 | 3 if (0..40).contains(&exp) => format!("{digits}{}", "0".repeat(exp as usize)),
        2 | 3 if exp < 0 && -exp < n => {
            let point = (n + exp) as usize;
            format!("{}.{}", &digits[..point], &digits[point..])
        }
        2 | 3 if exp < 0 && -exp - n < 400 => format!("0.{}{digits}", "0".repeat((-exp - n) as usize)),
        // 0.1234e-1, or trailing zeros moved into the text.
        _ if rng.chance(2) => format!("0.{digits}{}", exp_text(exp + n)),
        _ => format!("{digits}000{}", exp_text(exp - 3)),
    }
}

/// A random finite positive `f64`: any bit pattern, or one near the
/// subnormal boundary, the least subnormal or the largest finite.
fn any_f64(rng: &mut Rng) -> f64 {
    let bits = match rng.next() % 8 {
        // Subnormals.
        0 => rng.next() % (1 << 52),
        // The subnormal/normal boundary.
        1 => ((1i64 << 52) + rng.range(-64, 64)) as u64,
        // The least subnormals and the largest finite values.
        2 => rng.range(0, 64) as u64,
        3 => 0x7FEF_FFFF_FFFF_FFFF - rng.range(0, 64) as u64,
        _ => rng.next() % 0x7FF0_0000_0000_0000,
    };
    f64::from_bits(bits)
}

/// Mantissa and power of two of a finite positive `f64`: x = m · 2^q.
fn decompose(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let biased = (bits >> 52) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 { (fraction, -1074) } else { (fraction | 1 << 52, biased - 1075) }
}

/// One generated case: JSON number text.
fn case(rng: &mut Rng) -> String {
    let sign = if rng.chance(4) { "-" } else { "" };
    let text = match rng.next() % 16 {
        // Short decimals, as requests carry them.
        0..=2 => {
            let n = rng.range(1, 15) as usize;
            let digits = rng.digits(n);
            let exp = if rng.chance(4) { rng.range(-340, 320) } else { rng.range(-25, 10) };
            spell(rng, &digits, exp)
        }
        // 17–19 digit mantissas, anywhere in range.
        3 | 4 => {
            let digits = rng.digits_in(16, 20);
            let exp = rng.range(-345, 310);
            spell(rng, &digits, exp)
        }
        // Long mantissas, to 800 digits and a little past.
        5 => {
            let n = rng.range(20, 820) as usize;
            let digits = rng.digits(n);
            let exp = rng.range(-330, 310) - n as i64;
            spell(rng, &digits, exp)
        }
        // Halfway between x and the next f64, and one unit of the last
        // digit either side of it.
        6..=9 => {
            let (m, q) = decompose(any_f64(rng));
            let (half, exp) = exact(2 * m + 1, q - 1);
            let digits = match rng.next() % 4 {
                0 => bump(&half, 1).unwrap(),
                1 => bump(&half, -1).unwrap_or(half),
                _ => half,
            };
            let trimmed = digits.trim_end_matches('0');
            spell(rng, trimmed, exp as i64 + (digits.len() - trimmed.len()) as i64)
        }
        // Halfway, then zeros past the 800th digit and a last 1 (just above
        // halfway) or 0 (exactly it).
        10 => {
            let (m, q) = decompose(any_f64(rng));
            let (half, exp) = exact(2 * m + 1, q - 1);
            let zeros = rng.range(0, 900) as usize;
            let last = if rng.chance(4) { "0" } else { "1" };
            let digits = format!("{half}{}{last}", "0".repeat(zeros));
            let trimmed = digits.trim_end_matches('0');
            let exp = exp as i64 - (zeros + 1) as i64 + (digits.len() - trimmed.len()) as i64;
            spell(rng, trimmed, exp)
        }
        // Halfway, cut short: the first t digits.
        11 => {
            let (m, q) = decompose(any_f64(rng));
            let (digits, exp) = exact(2 * m + 1, q - 1);
            let t = rng.range(1, digits.len().min(40) as i64) as usize;
            let cut = digits[..t].trim_end_matches('0');
            let exp = exp as i64 + (digits.len() - cut.len()) as i64;
            spell(rng, cut, exp)
        }
        // Shortest round-trip text of an f64, as writers send it.
        12 => {
            let x = any_f64(rng);
            let text = format!("{x:e}");
            let (mantissa, exp) = text.split_once('e').unwrap();
            let digits: String = mantissa.chars().filter(|&c| c != '.').collect();
            let exp = exp.parse::<i64>().unwrap() - (digits.len() as i64 - 1);
            let digits = digits.trim_end_matches('0');
            let exp = exp + (mantissa.chars().filter(|&c| c != '.').count() - digits.len()) as i64;
            if digits.is_empty() { "0".into() } else { spell(rng, digits, exp) }
        }
        // Powers of ten, past both ends.
        13 => {
            let exp = rng.range(-400, 400);
            spell(rng, "1", exp)
        }
        // Integers near 2^53 (and 2^54, 2^64).
        14 => {
            let base: i128 = match rng.next() % 3 {
                0 => 1 << 53,
                1 => 1 << 54,
                _ => 1 << 64,
            };
            let n = base + rng.range(-3000, 3000) as i128;
            let digits = n.to_string();
            let trimmed = digits.trim_end_matches('0');
            spell(rng, trimmed, (digits.len() - trimmed.len()) as i64)
        }
        // Zeros, huge exponents, and numbers with their point far out.
        _ => match rng.next() % 6 {
            0 => "0".into(),
            1 => format!("0.{}", "0".repeat(rng.range(1, 30) as usize)),
            2 => format!("{}e{}", rng.digits_in(1, 30), if rng.chance(2) { "-99999999999" } else { "99999999999" }),
            3 => format!("0.{}1e{}", "0".repeat(rng.range(300, 1200) as usize), rng.range(0, 1400)),
            4 => format!("1{}e-{}", "0".repeat(rng.range(300, 1200) as usize), rng.range(0, 1600)),
            _ => format!("{}.{}e{}", rng.range(0, 9), rng.digits(3), rng.range(-1_000_000_000, 1_000_000_000)),
        },
    };
    format!("{sign}{text}")
}

/// Compares one text; panics with it on any difference.
fn check(text: &str) {
    let theirs: f64 = text.parse().unwrap_or_else(|e| panic!("core refuses {text:?}: {e}"));
    let value = json::parse(text.as_bytes()).unwrap_or_else(|e| panic!("not JSON: {text:?}: {e:?}"));
    // The &str reader takes what core takes, infinities included.
    let ours = subako_tiny::num::parse_f64(text).expect("a number reads as f64");
    assert_eq!(ours.to_bits(), theirs.to_bits(), "{text}: ours {ours:e}, core {theirs:e}");
    // The JSON accessor reads the same bits, and refuses a number past
    // f64's range as serde_json does.
    match value.as_f64() {
        Some(x) => assert_eq!(x.to_bits(), theirs.to_bits(), "{text}: as_f64 {x:e}, core {theirs:e}"),
        None => assert!(theirs.is_infinite(), "{text}: as_f64 refused a finite {theirs:e}"),
    }
    assert_eq!(value.as_f64().is_some(), theirs.is_finite(), "{text}");
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn a_million_generated_numbers_read_as_core_reads_them() {
    let cases = env("FLOAT_CASES", if cfg!(debug_assertions) { 150_000 } else { 1_000_000 });
    let mut rng = Rng(env("FLOAT_SEED", 0x5EED_F10A7));
    for _ in 0..cases {
        let text = case(&mut rng);
        check(&text);
    }
}

#[test]
fn the_edges() {
    for text in [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "0e0",
        "-0e-5",
        "0.000e99999",
        "1",
        "-1",
        "1e400",
        "-1e400",
        "1e309",
        "1e308",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792",
        "2.2250738585072014e-308",
        "2.2250738585072011e-308",
        "2.2250738585072012e-308",
        "2.225073858507201136057409796709131975934819546351645648e-308",
        "4.9406564584124654e-324",
        "5e-324",
        "2.4703282292062327e-324",
        "2.4703282292062328e-324",
        "2.47032822920623272088e-324",
        "3e-324",
        "7.4e-324",
        "1e-324",
        "1e-400",
        "1e-99999999999",
        "1e99999999999",
        "-1e-99999999999",
        "1E+2",
        "1e+0",
        "123456789012345678901234567890",
        "9007199254740992",
        "9007199254740993",
        "9007199254740993.0000000000000000000000000000001",
        "9007199254740995",
        "0.1",
        "0.2",
        "0.3",
        "19.99",
        "2.5e-1",
        "1e23",
        "8.988465674311579e307",
        "4.35679e-10",
        "1448997445238699",
        "2.2250738585072011e-308",
        "0.000000000000000000000000000000000000000001e42",
    ] {
        check(text);
    }
    // Hundreds of digits, and digits past 800 that decide.
    check(&format!("1{}e-1000", "0".repeat(1000)));
    check(&format!("1{}e-100000", "0".repeat(100_000)));
    check(&format!("0.{}1e100001", "0".repeat(100_000)));
    check(&format!("0.{}1e-99999999999999999999999", "0".repeat(1000)));
    check(&format!("{}e-99999999999999999999999", "9".repeat(5000)));
    check(&format!("{}e99999999999999999999999", "1".repeat(5000)));
    check("1e0000000000000000000000000000000000001");
    check("-1.5e-0000000000000000000000000000000000308");
    check(&format!("0.{}1e1001", "0".repeat(1000)));
    let half = "2.47032822920623272088284396434110686182529901307162382212792841250337753635104375932649918180817996189898282347722858865463328355177969898199387398005390939063150356595155702263922908583924491051844359318028499365361525003193704576782492193656236698636584807570015857692699037063119282795585513329278343384093519780155312465972635795746227664652728272200563740064854999770965994704540208281662262378573934507363390079677619305775067401763246736009689513405355374585166611342237666786041621596804619144672918403005300575308490487653917113865916462395249126236538818796362393732804238910186723484976682350898633885879256283027559956575244555072551893136908362547791869486679949683240497058210285131854513962138377228261454376934125320985913276672363281255";
    check(half);
    check(&format!("{half}{}", "0".repeat(500)));
    check(&format!("{}{}1", &half[..half.len() - 1], "0".repeat(600)).replace("81255", "81250"));
    check(&format!("{}{}1", &half[..half.len() - 1].replace("81255", "8125"), "0".repeat(900)));
}

/// What the writer wrote with ryu: its shortest form, the exponent signed
/// as serde_json signs it (`1e100` becomes `1e+100`).
fn reference(x: f64) -> String {
    if !x.is_finite() {
        return "null".into();
    }
    let text = ryu::Buffer::new().format_finite(x).to_string();
    match text.split_once('e') {
        Some((digits, exp)) if !exp.starts_with('-') => format!("{digits}e+{exp}"),
        _ => text,
    }
}

fn written(x: f64) -> String {
    let mut out = Vec::new();
    num::write_f64(&mut out, x);
    String::from_utf8(out).expect("ASCII")
}

/// Compares one value's text with ryu's and serde_json's, and its
/// `text::plain` with std's `format!("{x}")`; panics with it on any
/// difference.
fn check_written(x: f64) {
    let (ours, theirs) = (written(x), reference(x));
    assert_eq!(ours, theirs, "bits {:#018x}", x.to_bits());
    assert_eq!(ours, serde_json::to_string(&x).unwrap(), "serde_json, bits {:#018x}", x.to_bits());
    let plain = subako_tiny::text!(subako_tiny::text::plain(x));
    assert_eq!(plain.as_str(), format!("{x}"), "text::plain, bits {:#018x}", x.to_bits());
}

/// `x` moved `steps` f64s up (or down): neighbours, by bits, of a positive
/// finite `x`, kept finite and positive.
fn step(x: f64, steps: i64) -> f64 {
    let bits = (x.to_bits() as i64 + steps).clamp(1, 0x7FEF_FFFF_FFFF_FFFF);
    f64::from_bits(bits as u64)
}

/// One generated value to write: positive, finite (the sign is drawn after).
fn value(rng: &mut Rng) -> f64 {
    match rng.next() % 16 {
        // Any bit pattern of a finite f64.
        0..=3 => f64::from_bits(rng.next() % 0x7FF0_0000_0000_0000),
        // Subnormals, the subnormal/normal boundary, the extremes.
        4 | 5 => any_f64(rng),
        // Powers of two and their neighbours.
        6 => {
            let p =
                f64::from_bits(if rng.chance(8) { 1 << rng.range(0, 51) } else { (rng.range(1, 2046) as u64) << 52 });
            step(p, rng.range(-2, 2))
        }
        // Powers of ten and their neighbours.
        7 => {
            let p: f64 = format!("1e{}", rng.range(-323, 308)).parse().unwrap();
            step(p, rng.range(-2, 2))
        }
        // Integers to 2^53, then past it (where only some are f64s).
        8 => (rng.next() >> rng.range(11, 63)) as f64,
        9 => {
            (rng.next() >> rng.range(0, 10)) as f64
                * if rng.chance(2) { 1.0 } else { 2f64.powi(rng.range(1, 200) as i32) }
        }
        // 15–17 significant digits, anywhere in range.
        10 | 11 => {
            let digits = rng.digits_in(15, 17);
            let exp = if rng.chance(2) { rng.range(-30, 30) } else { rng.range(-340, 310) };
            format!("{digits}e{exp}").parse().unwrap()
        }
        // Halfway-looking: 15–17 digits then a 5 (the digit a shortest form
        // rounds at), or a short decimal, and their neighbours.
        12 | 13 => {
            let lo = if rng.chance(2) { 1 } else { 14 };
            let digits = rng.digits_in(lo, 17);
            let exp = if rng.chance(2) { rng.range(-25, 10) } else { rng.range(-340, 310) };
            let x: f64 = format!("{digits}5e{exp}").parse().unwrap();
            if x == 0.0 || x.is_infinite() { any_f64(rng) } else { step(x, rng.range(-1, 1)) }
        }
        // Short decimals, as tools write them, and their neighbours.
        14 => {
            let digits = rng.digits_in(1, 6);
            let x: f64 = format!("{digits}e{}", rng.range(-12, 12)).parse().unwrap();
            step(x, if rng.chance(2) { 0 } else { rng.range(-3, 3) })
        }
        // Halves and quarters past 2^52, where the exact value ends in 5.
        _ => ((1u64 << 52) + rng.next() % (1 << 52)) as f64 / [2.0, 4.0, 8.0][rng.next() as usize % 3],
    }
}

#[test]
fn a_million_generated_floats_write_as_ryu_and_serde_json_write_them() {
    let cases = env("FLOAT_CASES", if cfg!(debug_assertions) { 150_000 } else { 1_000_000 });
    let mut rng = Rng(env("FLOAT_SEED", 0x5EED_F10A7));
    for _ in 0..cases {
        let x = value(&mut rng);
        check_written(if rng.chance(4) { -x } else { x });
    }
}

#[test]
fn every_power_of_two_and_ten_and_their_neighbours_write_as_ryu_does() {
    for biased in 0..2047u64 {
        let p = if biased == 0 { f64::from_bits(1) } else { f64::from_bits(biased << 52) };
        for s in -3..=3 {
            check_written(step(p, s));
        }
    }
    for i in 0..52 {
        check_written(f64::from_bits(1 << i));
    }
    for e in -324..=309 {
        let p: f64 = format!("1e{e}").parse().unwrap();
        if p != 0.0 && p.is_finite() {
            for s in -3..=3 {
                check_written(step(p, s));
            }
        }
    }
}

#[test]
fn the_writers_edges() {
    let mut xs = vec![
        0.0,
        -0.0,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::MAX,
        f64::MIN,
        f64::EPSILON,
        5e-324,
        -5e-324,
        1e-323,
        f64::from_bits((1 << 52) - 1),
        f64::from_bits(0x7FEF_FFFF_FFFF_FFFE),
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        (1u64 << 53) as f64,
        ((1u64 << 53) - 1) as f64,
        ((1u64 << 53) + 2) as f64,
        u64::MAX as f64,
        i64::MIN as f64,
    ];
    // Where the layout changes: 1e-5 and 1e16 (and either side of them).
    for e in -8..=20 {
        let p: f64 = format!("1e{e}").parse().unwrap();
        xs.extend([p, step(p, -1), step(p, 1), p * 1.5, p * 9.5, p * 1.2345678901234567]);
    }
    // Every integer to 10^5 and a few runs past 2^53.
    xs.extend((0..100_000).map(|n| n as f64));
    for base in [1u64 << 53, 1 << 54, 1 << 60, 10_000_000_000_000_000] {
        xs.extend((0..1000).map(|n| (base + n) as f64));
    }
    for x in xs {
        check_written(x);
    }
}

/// The short path (numbers under 2^52 with at most 22 digits after the
/// point, read back by one division): every price to 10,000.00, every
/// value of six digits at each place from 10^-22 on, and the numbers up to
/// 2^52 · 10^-d at its edge, where the interval that reads back reaches a
/// whole unit, each with its neighbours.
#[test]
fn short_decimals_and_the_edge_of_the_short_path_write_as_ryu_does() {
    for cents in 0..=1_000_000u32 {
        check_written(f64::from(cents) / 100.0);
    }
    let mut rng = Rng(0x5407_7E57);
    for d in 0..=24 {
        let scale: f64 = format!("1e{d}").parse().unwrap();
        for _ in 0..20_000 {
            let x = rng.range(1, 999_999) as f64 / scale;
            for s in -2..=2 {
                check_written(step(x, s));
            }
        }
        let edge = (1u64 << 52) as f64 / scale;
        for s in -3000..=3000 {
            check_written(step(edge, s));
        }
    }
}

#[test]
fn floats_written_exactly() {
    for (x, text) in [
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (1.0, "1.0"),
        (-1.0, "-1.0"),
        (0.1, "0.1"),
        (0.3, "0.3"),
        (0.1 + 0.2, "0.30000000000000004"),
        (2.5, "2.5"),
        (19.99, "19.99"),
        (100.0, "100.0"),
        (123456.789, "123456.789"),
        (1e15, "1000000000000000.0"),
        (1234000000000000.0, "1234000000000000.0"),
        (9999999999999998.0, "9999999999999998.0"),
        (12345678901234567890.0, "1.2345678901234567e+19"),
        (0.1 + 0.7, "0.7999999999999999"),
        (0.00001234, "0.00001234"),
        (1.234e-6, "1.234e-6"),
        (8.98846567431158e307, "8.98846567431158e+307"),
        (1e16, "1e+16"),
        (9007199254740992.0, "9007199254740992.0"),
        (9007199254740993.0, "9007199254740992.0"),
        (1.2345e16, "1.2345e+16"),
        (1e100, "1e+100"),
        (1e-5, "0.00001"),
        (1.5e-5, "0.000015"),
        (1e-6, "1e-6"),
        (1e-7, "1e-7"),
        (1.25e-7, "1.25e-7"),
        (1e23, "1e+23"),
        (5e-324, "5e-324"),
        (-5e-324, "-5e-324"),
        (1e-323, "1e-323"),
        (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
        (f64::from_bits((1 << 52) - 1), "2.225073858507201e-308"),
        (f64::MAX, "1.7976931348623157e+308"),
        (f64::MIN, "-1.7976931348623157e+308"),
        (f64::EPSILON, "2.220446049250313e-16"),
        (f64::NAN, "null"),
        (f64::INFINITY, "null"),
        (f64::NEG_INFINITY, "null"),
    ] {
        assert_eq!(written(x), text, "{x:e}");
        if x.is_finite() {
            // And it reads back as itself.
            let back = json::parse(text.as_bytes()).unwrap().as_f64().unwrap();
            assert_eq!(back.to_bits(), x.to_bits(), "{text}");
        }
    }
}

fn fixed_text(x: f64, decimals: u8) -> String {
    subako_tiny::text!(subako_tiny::text::fixed(x, decimals)).into_string()
}

/// Compares one value's fixed-decimals text with std's.
fn check_fixed(x: f64, decimals: u8) {
    assert_eq!(
        fixed_text(x, decimals),
        format!("{x:.*}", usize::from(decimals)),
        "{decimals} decimals, bits {:#018x}",
        x.to_bits()
    );
}

/// A value whose exact decimal ends in a 5 at `decimals + 1` places or
/// near it: an integer plus `j / 2^k`, a tie when rounding to fewer than
/// `k` places can cut at it.
fn tie(rng: &mut Rng) -> f64 {
    let k = rng.range(1, 12) as i32;
    let whole = (rng.next() >> rng.range(12, 63)) as f64;
    let x = whole + (rng.next() % (1 << k)) as f64 / 2f64.powi(k);
    step(x.max(f64::from_bits(1)), if rng.chance(4) { rng.range(-1, 1) } else { 0 })
}

/// A float to round: a third of them [`tie`]s, a quarter negative.
fn to_round(rng: &mut Rng) -> f64 {
    let x = if rng.chance(3) { tie(rng) } else { value(rng) };
    if rng.chance(4) { -x } else { x }
}

#[test]
fn a_million_generated_floats_with_fixed_decimals_write_as_std_writes_them() {
    let cases = env("FLOAT_CASES", if cfg!(debug_assertions) { 150_000 } else { 1_000_000 });
    let mut rng = Rng(env("FLOAT_SEED", 0xF1_ED));
    for _ in 0..cases {
        let x = to_round(&mut rng);
        let decimals = match rng.next() % 64 {
            0 => rng.range(21, 255),
            1..=8 => rng.range(7, 20),
            _ => rng.range(0, 6),
        } as u8;
        check_fixed(x, decimals);
    }
}

/// The values at the edges of decimal rounding: zeros, the extremes,
/// NaN and infinities, ties, a double just below a tie (`1.005`), and the
/// integers around 2^53.
const EDGES: [f64; 23] = [
    0.0,
    -0.0,
    f64::MIN_POSITIVE,
    f64::MAX,
    f64::MIN,
    5e-324,
    -5e-324,
    f64::NAN,
    -f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    0.5,
    1.5,
    2.5,
    0.125,
    0.375,
    -0.001,
    1.005,
    9.995,
    0.045,
    ((1u64 << 53) - 1) as f64,
    (1u64 << 53) as f64,
    u64::MAX as f64,
];

#[test]
fn fixed_decimals_at_the_edges_write_as_std_writes_them() {
    let mut xs = EDGES.to_vec();
    for e in -8..=22 {
        let p: f64 = format!("1e{e}").parse().unwrap();
        xs.extend([p, step(p, -1), step(p, 1), p * 0.5, p * 9.5]);
    }
    xs.extend((0..2000).map(|n| n as f64 / 8.0));
    for x in xs {
        for decimals in (0..=24).chain([100, 255]) {
            check_fixed(x, decimals);
            check_fixed(-x, decimals);
        }
    }
}

/// `float::round_to::<D>` against std's `format!("{x:.D$}").parse::<f64>()`,
/// bit for bit, for one value at every `D` this test runs.
fn check_round_to(x: f64) {
    macro_rules! each {
        ($($d:literal)*) => {$(
            let ours = subako_tiny::float::round_to::<$d>(x);
            let std: f64 = format!("{x:.*}", $d).parse().unwrap();
            assert!(
                ours.to_bits() == std.to_bits() || ours.is_nan() && std.is_nan(),
                "round_to::<{}>({x:e}) (bits {:#018x}) = {ours:e}, std's {std:e}",
                $d,
                x.to_bits()
            );
        )*};
    }
    each!(0 1 2 3 4 5 6 8 10 12 15 16 17 18 20 21 22);
}

#[test]
fn generated_floats_rounded_to_decimals_read_as_std_reads_their_text() {
    let cases = env("FLOAT_CASES", if cfg!(debug_assertions) { 20_000 } else { 200_000 });
    let mut rng = Rng(env("FLOAT_SEED", 0x20_0D));
    for _ in 0..cases {
        check_round_to(to_round(&mut rng));
    }
}

#[test]
fn rounding_to_decimals_at_the_edges_reads_as_std_reads_its_text() {
    let mut xs = EDGES.to_vec();
    for e in -30..=30 {
        let p: f64 = format!("1e{e}").parse().unwrap();
        xs.extend([p, step(p, -1), step(p, 1), p * 0.5, p * 9.5, p * 0.9007199254740992]);
    }
    for k in -80..=80 {
        let p = 2f64.powi(k);
        xs.extend([p, step(p, -1), step(p, 1)]);
    }
    xs.extend((0..4000).map(|n| n as f64 / 64.0));
    for x in xs {
        check_round_to(x);
        check_round_to(-x);
    }
}
