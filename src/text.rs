//! Text built from pieces, with the crate's own digit writers rather than
//! `core::fmt`: the one builder of every message the crate makes, and the
//! one place (with the reader's [`Str`](crate::json::Str)) that vouches
//! for the UTF-8 of bytes it joined.
//!
//! [`text!`](crate::text!) builds a [`Text`] in one expression;
//! [`fail!`](crate::fail!) returns it as a tool's error. Anything that takes
//! a message takes a [`Piece`]: a `str`, a number, or a tuple of pieces.
//!
//! ```
//! use subako_tiny::{Args, Reply, ToolError, fail, text};
//!
//! fn divide(args: &Args<'_>) -> Result<Reply, ToolError> {
//!     let (a, b) = (args.float("a")?, args.float("b")?);
//!     if b == 0.0 {
//!         fail!("cannot divide ", a, " by 0: pick another divisor");
//!     }
//!     Ok(Reply::text(text!(a, " / ", b, " = ", a / b).as_str()))
//! }
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::bytes::hex_upper;
use crate::json::num;
use crate::json::write::{escape_into, put, put_byte, put_scalar};

pub(crate) mod fixed;

/// Text built from pieces (`&str`, `String`, integers, floats, tuples of
/// them). Usually made with [`text!`](crate::text!); a module that never
/// builds one carries none of its code.
///
/// ```
/// use subako_tiny::text::Text;
///
/// let mut text = Text::new();
/// text.push("order ").push(&1042u32).push(" costs ").push(&12.5);
/// assert_eq!(text.as_str(), "order 1042 costs 12.5");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Text {
    bytes: Vec<u8>,
}

impl Text {
    /// Empty text.
    ///
    /// ```
    /// assert_eq!(subako_tiny::text::Text::new().as_str(), "");
    /// ```
    #[must_use]
    pub const fn new() -> Text {
        Text { bytes: Vec::new() }
    }

    /// Text made of `piece` (see [`Piece`]): one piece, or a tuple of them.
    ///
    /// ```
    /// use subako_tiny::text::Text;
    ///
    /// assert_eq!(Text::of(("page ", 2, " of ", 3u8)).as_str(), "page 2 of 3");
    /// ```
    #[must_use]
    pub fn of(piece: impl Piece) -> Text {
        let mut text = Text::new();
        piece.write_to(&mut text.bytes);
        text
    }

    /// Appends `piece`: text as it is, a number in decimal (see [`Piece`]).
    ///
    /// ```
    /// use subako_tiny::text::Text;
    ///
    /// let mut text = Text::new();
    /// text.push("n=").push(&-7i64);
    /// assert_eq!(text.as_str(), "n=-7");
    /// ```
    pub fn push<P: Piece + ?Sized>(&mut self, piece: &P) -> &mut Text {
        piece.write_to(&mut self.bytes);
        self
    }

    /// The text so far.
    ///
    /// ```
    /// assert_eq!(subako_tiny::text!("a", 1).as_str(), "a1");
    /// ```
    pub fn as_str(&self) -> &str {
        // SAFETY: a `Text` holds only what the crate's sealed pieces and
        // its own writers below put there: `str`s, chars, scalar values and
        // ASCII digits, each whole.
        unsafe { crate::sys::assume_utf8(&self.bytes) }
    }

    /// The text, as a `String`.
    ///
    /// ```
    /// let s: String = subako_tiny::text!("x", 2).into_string();
    /// assert_eq!(s, "x2");
    /// ```
    #[must_use]
    pub fn into_string(self) -> String {
        // SAFETY: as in `as_str`.
        unsafe { crate::sys::assume_utf8_string(self.bytes) }
    }

    /// The length in bytes.
    ///
    /// ```
    /// assert_eq!(subako_tiny::text!("é", 10).len(), 4);
    /// ```
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// True when the text is empty.
    ///
    /// ```
    /// assert!(subako_tiny::text!().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

impl Text {
    /// Room for `more` bytes beyond the text's length, in one block: for
    /// text whose length is known ahead, so the block is not grown (and its
    /// old copy held beside the new) on the way.
    pub(crate) fn reserve(&mut self, more: usize) {
        crate::sys::reserve(&mut self.bytes, more);
    }

    /// Appends bytes of UTF-8 text that are whole chars (the caller's to
    /// keep: [`Text::as_str`] relies on it). Cheaper than pushing a `&str`
    /// sliced from the text, which checks both ends are char boundaries.
    pub(crate) fn push_chars(&mut self, s: &[u8]) {
        put(&mut self.bytes, s);
    }

    /// Appends a Unicode scalar value, a `char`'s code (the caller's to
    /// keep: [`Text::as_str`] relies on it).
    pub(crate) fn push_scalar(&mut self, c: u32) {
        debug_assert!(char::from_u32(c).is_some(), "{c:#x} is not a scalar value");
        put_scalar(&mut self.bytes, c);
    }
}

/// What the crate's messages hold beyond pieces: values the reader
/// validated, and strings quoted as JSON writes them.
impl Text {
    /// `value`'s JSON text, without its white space.
    pub(crate) fn push_json(&mut self, value: crate::json::Value<'_>) -> &mut Text {
        // The reader validated `value` as UTF-8 JSON; compacting drops
        // only ASCII white space between tokens.
        crate::json::write::compact_into(&mut self.bytes, value.raw());
        self
    }

    /// `token` as a JSON Pointer's reference token (RFC 6901): `~` and `/`
    /// escaped as `~0` and `~1`.
    pub(crate) fn push_pointer_token(&mut self, token: &str) -> &mut Text {
        // Each ASCII byte replaced stays ASCII; every other byte is kept.
        for &b in token.as_bytes() {
            match b {
                b'~' => put(&mut self.bytes, b"~0"),
                b'/' => put(&mut self.bytes, b"~1"),
                _ => crate::json::write::put_byte(&mut self.bytes, b),
            }
        }
        self
    }

    /// `s` between double quotes, escaped as a JSON string.
    pub(crate) fn push_quoted(&mut self, s: &str) -> &mut Text {
        // Escaping replaces ASCII bytes with ASCII sequences and keeps
        // every other byte: UTF-8 stays UTF-8.
        crate::json::write::write_escaped(&mut self.bytes, s.as_bytes());
        self
    }
}

/// `pieces` joined into a `String`: the crate's own fixed messages.
#[inline(never)]
pub(crate) fn join(pieces: &[&str]) -> String {
    Text::of(pieces).into_string()
}

/// Four pieces joined: the crate's own messages, one function for all of
/// them, taking its pieces as arguments rather than a tuple or an array
/// built at each call.
#[inline(never)]
pub(crate) fn concat(a: &str, b: &str, c: &str, d: &str) -> String {
    let mut text = Text::new();
    text.push(a).push(b).push(c).push(d);
    text.into_string()
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

/// `&text` wherever a `&str` is taken (`fs::read(&text!(dir, "/notes.jsonl"))`),
/// as `&String` is.
///
/// ```
/// fn words(s: &str) -> usize {
///     s.split(' ').count()
/// }
/// let text = subako_tiny::text!("a b ", 3);
/// assert_eq!(words(&text), 3);
/// assert!(text.ends_with('3'));
/// ```
impl core::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<Text> for String {
    fn from(text: Text) -> String {
        text.into_string()
    }
}

impl core::fmt::Display for Text {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Something [`Text`] can hold: text as it is, integers in decimal
/// (`-42`), floats in the shortest form that reads back as the same value,
/// as JSON writes them (`12.5`, `1.0`, `1e+100`), and `NaN`, `inf`, `-inf`
/// for the floats JSON cannot hold (not as `format!("{x}")` lays them out,
/// `1` and `100000000000000000000`: [`plain`] does that); a float with a
/// fixed number of decimals made by [`fixed`] (`12.50`); text cut short by [`clip`]; a tuple of up
/// to eight pieces, or an array or slice of `&str`, is their
/// concatenation. (No `f32`: widened, `0.1f32` would read
/// `0.10000000149011612`; convert it as you mean it.)
///
/// Sealed: [`Text`] trusts every piece to write UTF-8, so only the crate's
/// own kinds are pieces; write anything else as a `str` first.
///
/// ```
/// use subako_tiny::ToolError;
///
/// let error = ToolError::invalid_input(("`qty` must be at most ", 1000, ", not ", 1500));
/// assert_eq!(error.message(), "invalid input: `qty` must be at most 1000, not 1500");
/// ```
pub trait Piece: sealed::Sealed {
    /// Appends the piece, as UTF-8, to `out`.
    fn write_to(&self, out: &mut Vec<u8>);

    /// Appends the piece as the inside of a JSON string: escaped where it
    /// needs it (digits never do).
    #[doc(hidden)]
    fn write_escaped_to(&self, out: &mut Vec<u8>) {
        self.write_to(out)
    }
}

/// `bytes` percent-encoded but for the unreserved `A-Za-z0-9-._~` and
/// `kept` (`/` for a path, or 0).
pub(crate) fn percent_encode(out: &mut Vec<u8>, bytes: &[u8], kept: u8) {
    for &b in bytes {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') || b == kept && b != 0 {
            put_byte(out, b);
        } else {
            put(out, &[b'%', hex_upper(b >> 4), hex_upper(b)]);
        }
    }
}

/// What may be a [`Piece`]; a module above this one that defines a piece
/// seals its own type here, so that this module imports none of them.
pub(crate) mod sealed {
    /// What may be a [`Piece`](super::Piece).
    pub trait Sealed {}
    impl<P: Sealed + ?Sized> Sealed for &P {}
    impl Sealed for str {}
    impl Sealed for alloc::string::String {}
    impl Sealed for alloc::borrow::Cow<'_, str> {}
    impl Sealed for super::Text {}
    impl Sealed for crate::json::Str<'_> {}
    impl Sealed for char {}
    impl Sealed for f64 {}
    impl Sealed for super::Fixed {}
    impl Sealed for super::Plain {}
    impl Sealed for super::Clip<'_> {}
    impl Sealed for super::ZeroPadded {}
    impl Sealed for [&str] {}
    impl<const N: usize> Sealed for [&str; N] {}
    macro_rules! sealed {
        ($($t:ty),*) => {$(impl Sealed for $t {})*};
    }
    sealed!(u8, u16, u32, usize, u64, i8, i16, i32, i64, isize);
    macro_rules! tuples {
        ($(($($p:ident),+))*) => {$(impl<$($p: super::Piece),+> Sealed for ($($p,)+) {})*};
    }
    tuples!((A)(A, B)(A, B, C)(A, B, C, D)(A, B, C, D, E)(A, B, C, D, E, F)(A, B, C, D, E, F, G)(
        A, B, C, D, E, F, G, H
    ));
}

impl<P: Piece + ?Sized> Piece for &P {
    fn write_to(&self, out: &mut Vec<u8>) {
        (**self).write_to(out)
    }

    fn write_escaped_to(&self, out: &mut Vec<u8>) {
        (**self).write_escaped_to(out)
    }
}

impl Piece for str {
    fn write_to(&self, out: &mut Vec<u8>) {
        put(out, self.as_bytes())
    }

    fn write_escaped_to(&self, out: &mut Vec<u8>) {
        escape_into(out, self.as_bytes())
    }
}

impl Piece for String {
    fn write_to(&self, out: &mut Vec<u8>) {
        self.as_str().write_to(out)
    }

    fn write_escaped_to(&self, out: &mut Vec<u8>) {
        self.as_str().write_escaped_to(out)
    }
}

impl Piece for alloc::borrow::Cow<'_, str> {
    fn write_to(&self, out: &mut Vec<u8>) {
        (**self).write_to(out)
    }

    fn write_escaped_to(&self, out: &mut Vec<u8>) {
        (**self).write_escaped_to(out)
    }
}

impl Piece for Text {
    fn write_to(&self, out: &mut Vec<u8>) {
        self.as_str().write_to(out)
    }

    fn write_escaped_to(&self, out: &mut Vec<u8>) {
        self.as_str().write_escaped_to(out)
    }
}

/// A string read from JSON: unescaped into text, and into a JSON string
/// with the escapes JSON needs and no others, as serde_json (the official
/// SDK) writes it: a `\u00e9` read is written `é`, so the model reads the
/// text, not its escapes. A string with no escape is copied as it is.
impl Piece for crate::json::Str<'_> {
    fn write_to(&self, out: &mut Vec<u8>) {
        self.unescape_onto(out)
    }

    fn write_escaped_to(&self, out: &mut Vec<u8>) {
        if self.is_plain() { put(out, self.raw()) } else { escape_into(out, self.to_str().as_bytes()) }
    }
}

impl Piece for char {
    fn write_to(&self, out: &mut Vec<u8>) {
        put_scalar(out, *self as u32)
    }

    fn write_escaped_to(&self, out: &mut Vec<u8>) {
        escape_into(out, self.encode_utf8(&mut [0; 4]).as_bytes())
    }
}

impl Piece for [&str] {
    fn write_to(&self, out: &mut Vec<u8>) {
        for piece in self {
            piece.write_to(out);
        }
    }

    fn write_escaped_to(&self, out: &mut Vec<u8>) {
        for piece in self {
            piece.write_escaped_to(out);
        }
    }
}

impl<const N: usize> Piece for [&str; N] {
    fn write_to(&self, out: &mut Vec<u8>) {
        self.as_slice().write_to(out)
    }

    fn write_escaped_to(&self, out: &mut Vec<u8>) {
        self.as_slice().write_escaped_to(out)
    }
}

/// Unsigned integers: through `usize` where they fit it, so a module on
/// wasm32 keeps to 32-bit arithmetic for them.
macro_rules! unsigned_pieces {
    ($($t:ty => $write:ident as $via:ty),*) => {$(
        impl Piece for $t {
            fn write_to(&self, out: &mut Vec<u8>) {
                num::$write(out, *self as $via)
            }
        }
    )*};
}

unsigned_pieces!(u8 => write_usize as usize, u16 => write_usize as usize, u32 => write_u64 as u64,
    usize => write_usize as usize, u64 => write_u64 as u64);

macro_rules! signed_pieces {
    ($($t:ty),*) => {$(
        impl Piece for $t {
            fn write_to(&self, out: &mut Vec<u8>) {
                num::write_i64(out, *self as i64)
            }
        }
    )*};
}

signed_pieces!(i8, i16, i32, i64, isize);

impl Piece for f64 {
    fn write_to(&self, out: &mut Vec<u8>) {
        let x = *self;
        if x.is_finite() {
            num::write_f64(out, x);
        } else {
            non_finite(out, x);
        }
    }
}

/// `NaN`, `inf` or `-inf`, as std writes them (and words and digits alike
/// need no escape in a JSON string).
fn non_finite(out: &mut Vec<u8>, x: f64) {
    put(
        out,
        if x.is_nan() {
            b"NaN"
        } else if x > 0.0 {
            b"inf"
        } else {
            b"-inf"
        },
    );
}

/// `x` as `format!("{x}")` and `x.to_string()` write it, as a [`Piece`]:
/// the same fewest digits that read back as `x` as a plain `f64` piece,
/// laid out as std lays them out rather than as JSON does: never an
/// exponent (`1e20` is `100000000000000000000`, `1e-7` is `0.0000001`),
/// no `.0` after a whole number (`3`, `-0`), `NaN`, `inf` and `-inf`. For
/// text that must match what std wrote (a file's lines, a key); without
/// `core::fmt` (the guide's price list has both prices).
///
/// ```
/// use subako_tiny::text::plain;
///
/// assert_eq!(subako_tiny::text!(plain(3.0), " ", 3.0).as_str(), "3 3.0");
/// assert_eq!(subako_tiny::text!(plain(1e20), " ", plain(1e-7), " ", plain(-0.0)).as_str(), "100000000000000000000 0.0000001 -0");
/// assert_eq!(subako_tiny::text!(plain(0.1 + 0.2), " ", plain(f64::NAN)).as_str(), "0.30000000000000004 NaN");
/// ```
#[must_use]
pub fn plain(x: f64) -> Plain {
    Plain(x)
}

/// A float to be written as `format!("{x}")` writes it: made by [`plain`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plain(pub f64);

impl Piece for Plain {
    fn write_to(&self, out: &mut Vec<u8>) {
        let x = self.0;
        if x.is_finite() {
            num::write_shortest::<true>(out, x);
        } else {
            non_finite(out, x);
        }
    }
}

/// `x` with `decimals` digits after the point, as a [`Piece`] and as a
/// JSON number ([`ToJson`](crate::json::ToJson): `o.field("price",
/// fixed(12.5, 2))` writes `12.50`; `null` for NaN and infinities): what
/// `format!("{x:.2}")` writes for `fixed(x, 2)`, which links `core::fmt`'s
/// float formatting (the guide's price list has both prices). The exact
/// value of `x` is rounded to the nearest, ties to even (`0.125` is
/// `0.12`, `0.375` is `0.38`), as std rounds it; a `-` before any negative
/// `x`, even one that rounds to zero; `NaN`, `inf` and `-inf` as they are.
/// So `-0.0` is `-0.00`, as std writes it: the sum of no floats
/// (`iter.sum::<f64>()` over nothing) is `-0.0`, so a total that may be
/// empty starts from `0.0` (`fold(0.0, |a, x| a + x)`).
///
/// What a tool writes (a few decimals of a number under 2^53) is worked
/// out in a `u64`, in less work than `{:.2}` takes; more decimals or larger
/// numbers in exact whole-number arithmetic, many times that
/// (`benches/floats.sh` measures both beside std's).
///
/// ```
/// use subako_tiny::text::fixed;
///
/// let mean = 2.0 / 3.0;
/// assert_eq!(subako_tiny::text!("mean ", fixed(mean, 2)).as_str(), "mean 0.67");
/// assert_eq!(subako_tiny::text!(fixed(1e21, 1), " ", fixed(2.5, 0), " ", fixed(-0.001, 2)).as_str(), "1000000000000000000000.0 2 -0.00");
/// let reply = subako_tiny::Reply::object(|o| o.field("mean", fixed(mean, 2)).field("none", fixed(f64::NAN, 2)));
/// assert_eq!(reply.structured(), Some(&b"{\"mean\":0.67,\"none\":null}"[..]));
/// let none: [f64; 0] = [];
/// assert_eq!(subako_tiny::text!(fixed(none.iter().sum(), 2), " ", fixed(none.iter().fold(0.0, |a, x| a + x), 2)).as_str(), "-0.00 0.00");
/// ```
#[must_use]
pub fn fixed(x: f64, decimals: u8) -> Fixed {
    Fixed { x, decimals }
}

/// A float to be written with a fixed number of decimals: made by
/// [`fixed`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fixed {
    pub(crate) x: f64,
    pub(crate) decimals: u8,
}

impl Piece for Fixed {
    fn write_to(&self, out: &mut Vec<u8>) {
        fixed::write_fixed(out, self.x, self.decimals)
    }
}

/// `n` in decimal with zeros before its digits to `width` characters, the
/// sign counted among them: what `format!("{n:0width$}")` writes
/// (`{:02}`, `{:04}`), for a time's fields or a numbered name, without
/// `core::fmt`. It takes an `i64`: pass a smaller integer type with
/// `i64::from` (`{:02}` takes any).
///
/// ```
/// use subako_tiny::text::zero_padded;
///
/// assert_eq!(subako_tiny::text!(zero_padded(7, 2), ":", zero_padded(5, 2)).as_str(), "07:05");
/// assert_eq!(subako_tiny::text!("note-", zero_padded(42, 4), " ", zero_padded(-42, 4), " ", zero_padded(12345, 2)).as_str(), "note-0042 -042 12345");
/// let (hours, minutes): (u32, u8) = (9, 5);
/// assert_eq!(subako_tiny::text!(zero_padded(i64::from(hours), 2), ":", zero_padded(i64::from(minutes), 2)).as_str(), "09:05");
/// ```
#[must_use]
pub fn zero_padded(n: i64, width: usize) -> ZeroPadded {
    ZeroPadded { n, width }
}

/// An integer with zeros before it: made by [`zero_padded`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZeroPadded {
    n: i64,
    width: usize,
}

impl Piece for ZeroPadded {
    fn write_to(&self, out: &mut Vec<u8>) {
        let mut buf = [0; 20];
        let digits = crate::bytes::u64_digits(self.n.unsigned_abs(), &mut buf);
        let negative = self.n < 0;
        if negative {
            out.push(b'-');
        }
        for _ in digits.len() + negative as usize..self.width {
            out.push(b'0');
        }
        put(out, digits);
    }
}

/// At most `chars` characters of `s`, then `…` if that left any out: a
/// piece for quoting what a caller sent. A message goes to the model whole,
/// so `fail!("no entry for ", clip(&name, 40))` keeps a megabyte argument
/// from coming back as a megabyte of error. Characters are Unicode scalar
/// values, as `chars().count()` and `"maxLength"` count them.
///
/// ```
/// use subako_tiny::text::clip;
///
/// assert_eq!(subako_tiny::text!("no entry for \"", clip("東京都千代田区", 3), "\"").as_str(), "no entry for \"東京都…\"");
/// assert_eq!(subako_tiny::text!(clip("Oslo", 4), " ", clip("Oslo", 9), " [", clip("Oslo", 0), "]").as_str(), "Oslo Oslo […]");
/// let error = subako_tiny::ToolError::invalid_input(("no city \"", clip(&"x".repeat(1 << 20), 40), "\""));
/// assert_eq!(error.message().len(), "invalid input: no city \"\"".len() + 40 + "…".len());
/// ```
#[must_use]
pub fn clip(s: &str, chars: usize) -> Clip<'_> {
    let bytes = s.as_bytes();
    // The byte where the character after the first `chars` begins, if any:
    // every byte that does not continue a sequence begins a character.
    let mut seen = 0;
    for (at, &b) in bytes.iter().enumerate() {
        if b & 0xC0 != 0x80 {
            if seen == chars {
                return Clip { kept: crate::bytes::span(bytes, 0, at), cut: true };
            }
            seen += 1;
        }
    }
    Clip { kept: bytes, cut: false }
}

/// Text cut to a number of characters: made by [`clip`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clip<'a> {
    /// Whole characters of a `str`: UTF-8.
    kept: &'a [u8],
    cut: bool,
}

impl Piece for Clip<'_> {
    fn write_to(&self, out: &mut Vec<u8>) {
        put(out, self.kept);
        if self.cut {
            put(out, "…".as_bytes());
        }
    }

    fn write_escaped_to(&self, out: &mut Vec<u8>) {
        escape_into(out, self.kept);
        if self.cut {
            put(out, "…".as_bytes());
        }
    }
}

macro_rules! tuple_pieces {
    ($(($($p:ident $i:tt),+))*) => {$(
        impl<$($p: Piece),+> Piece for ($($p,)+) {
            fn write_to(&self, out: &mut Vec<u8>) {
                $(self.$i.write_to(out);)+
            }

            fn write_escaped_to(&self, out: &mut Vec<u8>) {
                $(self.$i.write_escaped_to(out);)+
            }
        }
    )*};
}

tuple_pieces!((A 0) (A 0, B 1) (A 0, B 1, C 2) (A 0, B 1, C 2, D 3) (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5) (A 0, B 1, C 2, D 3, E 4, F 5, G 6) (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7));

/// Builds a [`Text`] from pieces in one expression: string slices,
/// `String`s, integers and floats (any [`Piece`]), written without
/// `core::fmt`. It converts into a [`ToolError`](crate::ToolError) or a
/// `String`.
///
/// ```
/// use subako_tiny::{ToolError, text};
///
/// let base = "https://api.example.com";
/// let error = ToolError::from(text!("status ", 503, " for ", base, " after ", 2.5, " s"));
/// assert_eq!(error.message(), "status 503 for https://api.example.com after 2.5 s");
///
/// let n: u64 = 18_446_744_073_709_551_615;
/// assert_eq!(text!(n, " ", -7i8, " ", 1e100, " ", 'é').as_str(), "18446744073709551615 -7 1e+100 é");
/// ```
///
/// It joins; it does not format. A string piece that holds a `format!`
/// placeholder (`{}`, `{n}`, `{:?}`, `{{`) is refused at build time, where
/// it would be written as it is:
///
/// ```compile_fail
/// let n = 7;
/// subako_tiny::text!("rating {} is too high", n); // text!("rating ", n, " is too high")
/// ```
#[macro_export]
macro_rules! text {
    ($($piece:expr),* $(,)?) => {{
        $(const _: () = $crate::__private::no_placeholder(stringify!($piece));)*
        #[allow(unused_mut)] // `text!()` pushes nothing
        let mut text = $crate::text::Text::new();
        $(text.push(&$piece);)*
        text
    }};
}

/// Returns from a tool with an error built from pieces, as
/// [`text!`](crate::text!) builds text: the one way to fail with a message
/// the model reads.
///
/// ```
/// use subako_tiny::{Args, Reply, ToolError, fail};
///
/// fn pick(args: &Args<'_>) -> Result<Reply, ToolError> {
///     let n = args.int("n", 0, i64::MAX)?;
///     if n % 2 == 1 {
///         fail!("`n` must be even, and ", n, " is odd: try ", n + 1);
///     }
///     Ok(Reply::text("even"))
/// }
///
/// let arguments = subako_tiny::json::parse(br#"{"n": 3}"#).unwrap();
/// let error = pick(&Args::new(arguments.as_object().unwrap())).unwrap_err();
/// assert_eq!(error.message(), "`n` must be even, and 3 is odd: try 4");
/// ```
///
/// As `text!`, it refuses a piece with a `format!` placeholder:
///
/// ```compile_fail
/// fn check(n: i64) -> Result<(), subako_tiny::ToolError> {
///     if n > 5 {
///         subako_tiny::fail!("rating {} is too high", n); // fail!("rating ", n, " is too high")
///     }
///     Ok(())
/// }
/// ```
#[macro_export]
macro_rules! fail {
    ($($piece:expr),+ $(,)?) => {
        return ::core::result::Result::Err($crate::ToolError::from($crate::text!($($piece),+)))
    };
}

/// For [`text!`] and [`fail!`]: the source of one piece (`stringify!`),
/// refused when it is a string literal holding a `format!` placeholder:
/// `{` then a name or position (or nothing) then `}` or `:`, or `{{`. The
/// macros join pieces and write such text as it is, so an author used to
/// `format!` would send the model `rating {} is too high7`. A `}}` alone
/// passes: JSON written out ends its nested objects so.
#[doc(hidden)]
pub const fn no_placeholder(piece: &str) {
    let b = piece.as_bytes();
    // Only a string literal's source: `"…"`, or raw, `r"…"` or `r#"…"#`.
    if !matches!(b, [b'"', ..] | [b'r', b'"' | b'#', ..]) {
        return;
    }
    let raw = b[0] == b'r';
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'\\' && !raw {
            // An escape, whose braces are not text: `\u{e9}` is `é`.
            i += 2;
            if b[i - 1] == b'u' {
                while i < b.len() && b[i] != b'}' {
                    i += 1;
                }
                i += 1;
            }
            continue;
        }
        if b[i] == b'{' {
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            if b[i + 1] == b'{' || j < b.len() && (b[j] == b'}' || b[j] == b':') {
                panic!(
                    "text! and fail! join pieces, they do not format: a string piece holds a format! placeholder \
                     (`{{}}`, `{{n}}`, `{{:?}}` or `{{{{`), which would be written as it is. Give each value as a \
                     piece of its own: fail!(\"rating \", n, \" is too high\"). A brace meant as text goes in a \
                     piece of its own: \"{{\", \"}}\""
                );
            }
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use alloc::borrow::Cow;
    use alloc::string::{String, ToString};

    use super::Text;
    use crate::ToolError;

    #[test]
    fn zero_padded_writes_what_format_writes() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut values = alloc::vec![0, 1, -1, 9, -9, 10, 42, -42, 99, 100, 12345, i64::MAX, i64::MIN, i64::MIN + 1];
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Every magnitude, both signs.
            values.push((state >> (state % 64)) as i64 * if state & 1 == 0 { 1 } else { -1 });
        }
        for n in values {
            for width in 0..=22 {
                let ours = crate::text!(super::zero_padded(n, width)).into_string();
                assert_eq!(ours, alloc::format!("{n:0width$}"), "{n} to {width}");
            }
        }
    }

    #[test]
    fn pieces_without_placeholders_pass() {
        for piece in [
            "n",
            "rows.len()",
            r#""plain text""#,
            r#""{""#,
            r#""}""#,
            r#""{ \"a\": 1 }""#,
            r#""a {b c}""#,
            r#""caf\u{e9} \u{1b}[31m \"{\" \\""#,
            r#""{\"a\":{\"b\":1}}""#,
            r##"r#"{"a":{"b":1}}"#"##,
            r#""}}""#,
            // An empty object's braces as two pieces (the guide's way).
            r#""{\"tags\": {""#,
            "r#\"x\"#",
            "if ok { \"yes\" } else { \"no\" }",
        ] {
            super::no_placeholder(piece);
        }
    }

    #[test]
    fn placeholders_in_string_pieces_are_refused() {
        extern crate std;
        for piece in [
            r#""{}""#,
            r#""a {n} b""#,
            r#""{0}""#,
            r#""{:?}""#,
            r#""{x:>4}""#,
            r#""{{""#,
            "r\"{}\"",
            r#"r"\u{e9}""#,
            r#""\\{n}""#,
        ] {
            let refused = std::panic::catch_unwind(|| super::no_placeholder(piece)).is_err();
            assert!(refused, "{piece} passed");
        }
    }

    #[test]
    fn text_writes_every_kind_of_piece() {
        let owned = String::from("owned");
        let borrowed: Cow<'_, str> = Cow::Borrowed("cow");
        let text = crate::text!("a", owned, &owned, borrowed, 'ß', '"');
        assert_eq!(text.as_str(), "aownedownedcowß\"");
        // An escape's braces and a JSON object's closing ones are text.
        assert_eq!(crate::text!("caf\u{e9} ", r#"{"a":{"b":1}}"#).as_str(), "café {\"a\":{\"b\":1}}");
        let ints = crate::text!(0u8, " ", u8::MAX, " ", u16::MAX, " ", u32::MAX, " ", u64::MAX, " ", usize::MAX);
        assert_eq!(ints.as_str(), ["0 255 65535 4294967295 18446744073709551615 ", &usize::MAX.to_string()].concat());
        let signed = crate::text!(i8::MIN, " ", i16::MIN, " ", i32::MIN, " ", i64::MIN, " ", -1isize, " ", 0i64);
        assert_eq!(signed.as_str(), "-128 -32768 -2147483648 -9223372036854775808 -1 0");
        let floats = crate::text!(
            1.0,
            " ",
            0.1,
            " ",
            -2.5e-7,
            " ",
            1e100,
            " ",
            f64::NAN,
            " ",
            f64::INFINITY,
            " ",
            -f64::INFINITY
        );
        assert_eq!(floats.as_str(), "1.0 0.1 -2.5e-7 1e+100 NaN inf -inf");
        assert_eq!(crate::text!().as_str(), "");
        assert_eq!(crate::text!("trailing comma", 1,).into_string(), "trailing comma1");
    }

    #[test]
    fn tuples_arrays_and_json_strings_are_pieces() {
        assert_eq!(Text::of(("a", 1, ("b", 2.5), 'c')).as_str(), "a1b2.5c");
        assert_eq!(Text::of(["x", "y", "z"]).as_str(), "xyz");
        let parts: &[&str] = &["p", "q"];
        assert_eq!(Text::of(parts).as_str(), "pq");
        assert_eq!(Text::of((1, 2, 3, 4, 5, 6, 7, 8)).as_str(), "12345678");
        let value = crate::json::parse(br#""caf\u00e9 \"x\"""#).unwrap();
        assert_eq!(Text::of(("s=", value.as_str().unwrap())).as_str(), "s=café \"x\"");
    }

    #[test]
    fn text_nests_converts_and_displays() {
        let inner = crate::text!("[", 3, "]");
        let outer = crate::text!("x", inner, "y");
        assert_eq!(outer.as_ref(), "x[3]y");
        assert_eq!(alloc::format!("<{outer}>"), "<x[3]y>");
        assert_eq!(outer.len(), 5);
        assert_eq!(String::from(outer.clone()), "x[3]y");
        assert_eq!(ToolError::from(outer), ToolError::new("x[3]y"));
        let mut built = Text::new();
        built.push("n=").push(&42).push(&", ").push(&-0.0);
        assert_eq!(built.as_str(), "n=42, -0.0");
    }
}
