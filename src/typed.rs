//! Typed tools (feature `miniserde`): a tool takes a
//! `miniserde::Deserialize` input and returns a `miniserde::Serialize`
//! output, and [`typed!`](crate::typed!) makes it a [`ToolFn`](crate::ToolFn).
//!
//! The crate re-exports miniserde ([`typed::miniserde`](miniserde)), so a
//! package needs no dependency of its own on it: turn the feature on (a
//! package made by `subako-tiny new` forwards it in its `[features]`:
//! add `"miniserde"` to `default` there),
//!
//! ```toml
//! subako-tiny = { path = "vendor/subako-tiny", default-features = false, features = ["dlmalloc", "panic-handler", "miniserde"] }
//! ```
//!
//! and bring the re-export into scope where the derives are (they name
//! `miniserde::…`). A package that depends on miniserde itself must turn
//! its default feature off, or std comes with it and the module does not
//! build (``found duplicate lang item `panic_impl` ``):
//!
//! ```toml
//! miniserde = { version = "0.1", default-features = false }
//! ```
//!
//! ```
//! use subako_tiny::typed::miniserde::{self, Deserialize, Serialize};
//! use subako_tiny::{Package, Tool, ToolError, testing};
//!
//! #[derive(Deserialize)]
//! struct Greeting {
//!     name: String,
//!     times: Option<u8>,
//! }
//!
//! #[derive(Serialize)]
//! struct Message {
//!     message: String,
//! }
//!
//! fn greet(input: Greeting) -> Result<Message, ToolError> {
//!     let times = usize::from(input.times.unwrap_or(1));
//!     Ok(Message { message: ["Hello, ", &input.name, "!"].concat().repeat(times) })
//! }
//!
//! const INPUT: &str = r#"{"type": "object", "required": ["name"],
//!     "properties": {"name": {"type": "string"}, "times": {"type": "integer", "minimum": 1, "maximum": 3}}}"#;
//!
//! const PACKAGE: Package =
//!     Package::new("hello", "0.1.0", "Says hello.", &[Tool::new("greet", "Greet someone.", INPUT, subako_tiny::typed!(greet))]);
//!
//! assert_eq!(testing::call(&PACKAGE, "greet", r#"{"name": "Ada"}"#).text(), r#"{"message":"Hello, Ada!"}"#);
//! // A bad input is told by where it is and what it is.
//! assert_eq!(testing::call(&PACKAGE, "greet", r#"{"name": 1}"#).text(), "invalid input: /name cannot be the number 1");
//! assert_eq!(testing::call(&PACKAGE, "greet", r#"{"name": "Ada", "times": 300}"#).text(),
//!     "invalid input: /times cannot be the number 300");
//! assert_eq!(testing::call(&PACKAGE, "greet", "{}").text(), "invalid input: / lacks a field the tool needs");
//! // Unknown fields are ignored.
//! assert!(!testing::call(&PACKAGE, "greet", r#"{"name": "Ada", "mood": "fine"}"#).is_error());
//!
//! // validated! checks the schema first: every rule it states, in its words.
//! const CHECKED: Package = Package::new("hello", "0.1.0", "Says hello.", &[subako_tiny::validated!(Tool::new(
//!     "greet", "Greet someone.", INPUT, subako_tiny::typed!(greet),
//! ))]);
//! assert_eq!(testing::call(&CHECKED, "greet", r#"{"name": "Ada", "times": 4}"#).text(),
//!     "invalid input: /times must be at most 3");
//! assert_eq!(testing::call(&CHECKED, "greet", "{}").text(), "invalid input: /name is required");
//! ```
//!
//! The arguments are read with the crate's own reader, which drives
//! miniserde's visitors, so a value a type refuses is named by its JSON
//! Pointer: `invalid input: /items/2/qty cannot be the string "3"`,
//! `/currency cannot be the string "GBP"`. A missing field is told by the
//! object that lacks it (miniserde does not say which field):
//! `invalid input: /items/2 lacks a field the tool needs`. Fields the type
//! does not have are ignored; to refuse them, say
//! `"additionalProperties": false` in the schema and wrap the tool in
//! [`validated!`](crate::validated), which also checks ranges, lengths and
//! the other rules the schema states, naming the field and the rule.

/// miniserde, as `typed!` and the derives use it: bring it into scope
/// (`use subako_tiny::typed::miniserde::{self, Deserialize, Serialize};`)
/// and the derives need no dependency of the package's own.
pub use miniserde;

use miniserde::de::Visitor;
use miniserde::ser::Fragment;
use miniserde::{Deserialize, Serialize};

use crate::args::Args;
use crate::json::{JsonWriter, Kind, Value};
use crate::reply::{Reply, ToolError};
use crate::schema::validate::{Path, Walk};

/// Reads the arguments as `I`, runs `tool`, and writes its `O` as the
/// reply's JSON value. No arguments at all read as `{}`.
pub fn call<I: Deserialize, O: Serialize>(
    args: &Args<'_>,
    tool: impl FnOnce(I) -> Result<O, ToolError>,
) -> Result<Reply, ToolError> {
    let arguments = match args.object() {
        Some(object) => object.as_value(),
        None => Value { raw: b"{}" },
    };
    let mut input = None;
    read(arguments, I::begin(&mut input), &Path::ROOT)?;
    let Some(input) = input else {
        return Err(refused(&Path::ROOT, " does not fit the tool's input type"));
    };
    let output = tool(input)?;
    // One whole value, numbers written as the crate writes them: no check
    // is due.
    let mut out = JsonWriter::whole();
    write(&output, &mut out, 0)?;
    Ok(Reply::json(out))
}

/// Writes `value` as miniserde's `json::to_string` does (a derived struct
/// as an object of its fields, in order; a non-finite float as `null`),
/// with the crate's writer: miniserde's own would bring its escaper and
/// its float formatter into the module beside the crate's. Floats are
/// written as serde_json writes them (`1e+100`), as every reply's are.
/// Refused past the depth JSON readers take, rather than recursing on.
fn write(value: &dyn Serialize, out: &mut JsonWriter, depth: usize) -> Result<(), ToolError> {
    let fragment = value.begin();
    // A value `depth` down that opens an array or object is a level past
    // `depth`: refused there, even when empty (review 77: an empty one
    // at 126 levels went out).
    if depth >= crate::json::output::MAX_VALUE_DEPTH && matches!(fragment, Fragment::Seq(_) | Fragment::Map(_)) {
        return Err(ToolError::new(crate::text!(
            "the tool's output nests deeper than ",
            crate::json::output::MAX_VALUE_DEPTH,
            " levels, which JSON readers refuse"
        )));
    }
    match fragment {
        Fragment::Null => out.null(),
        Fragment::Bool(b) => out.bool(b),
        Fragment::Str(s) => out.string(&s),
        Fragment::U64(n) => out.uint(n),
        Fragment::I64(n) => out.int(n),
        Fragment::F64(x) => out.float(x),
        Fragment::Seq(mut items) => {
            out.begin_array();
            while let Some(item) = items.next() {
                write(item, out, depth + 1)?;
            }
            out.end_array()
        }
        Fragment::Map(mut members) => {
            out.begin_object();
            while let Some((key, item)) = members.next() {
                out.key(&key);
                write(item, out, depth + 1)?;
            }
            out.end_object()
        }
    };
    Ok(())
}

/// Feeds `value` to `visitor` as miniserde's own JSON reader would (the
/// same calls for the same text), naming where it is refused.
fn read(value: Value<'_>, visitor: &mut dyn Visitor, path: &Path<'_, '_>) -> Result<(), ToolError> {
    let taken = match value.kind() {
        Kind::Null => visitor.null(),
        Kind::Bool => visitor.boolean(value.as_bool() == Some(true)),
        Kind::String => match value.as_str() {
            Some(s) => visitor.string(&s.to_str()),
            None => Err(miniserde::Error),
        },
        Kind::Number => number(value, visitor),
        Kind::Array => {
            let Ok(mut seq) = visitor.seq() else {
                return Err(cannot_be(path, value));
            };
            if let Some(elements) = value.as_array() {
                for (index, element) in elements.iter().enumerate() {
                    let place = seq.element().map_err(|_| refused(path, " has more items than the tool takes"))?;
                    read(element, place, &path.element(index))?;
                }
            }
            return seq.finish().map_err(|_| refused(path, " has fewer items than the tool needs"));
        }
        Kind::Object => {
            let Ok(mut map) = visitor.map() else {
                return Err(cannot_be(path, value));
            };
            if let Some(object) = value.as_object() {
                // The validator's walk: a long string member is skipped
                // eight bytes a turn, whatever its script.
                for (key, member, _) in Walk::new(object, None) {
                    let path = path.member(key);
                    let place = map.key(&key.to_str()).map_err(|_| refused(&path, " is not a field the tool takes"))?;
                    read(member, place, &path)?;
                }
            }
            return map.finish().map_err(|_| refused(path, " lacks a field the tool needs"));
        }
    };
    taken.map_err(|_| cannot_be(path, value))
}

/// A number as miniserde reads it: an integer that fits `u64` as
/// nonnegative, one that fits `i64` below zero as negative, anything else
/// as a float (refused when it is beyond `f64`).
fn number(value: Value<'_>, visitor: &mut dyn Visitor) -> miniserde::Result<()> {
    let raw = value.raw();
    let integer = !raw.iter().any(|b| matches!(b, b'.' | b'e' | b'E'));
    if integer && let Some(n) = value.as_u64() {
        return visitor.nonnegative(n);
    }
    if integer
        && raw.first() == Some(&b'-')
        && let Some(n) = value.as_i64()
    {
        return visitor.negative(n);
    }
    match value.as_f64() {
        Some(x) if x.is_finite() => visitor.float(x),
        _ => Err(miniserde::Error),
    }
}

/// `invalid input: POINTER` and `rule`.
fn refused(path: &Path<'_, '_>, rule: &str) -> ToolError {
    let mut text = path.invalid_input();
    text.push(rule);
    ToolError::new(text.into_string())
}

/// Strings up to this many bytes are quoted in a message; longer ones are
/// just called strings.
const QUOTED: usize = 40;

/// `invalid input: POINTER cannot be` and what the value is: `the number
/// 300`, `the string "GBP"`, `null`, `an object`.
fn cannot_be(path: &Path<'_, '_>, value: Value<'_>) -> ToolError {
    let mut text = path.invalid_input();
    text.push(" cannot be ");
    match value.kind() {
        Kind::Null | Kind::Bool => text.push_json(value),
        Kind::Number if value.raw().len() <= QUOTED => text.push("the number ").push_json(value),
        Kind::String if value.raw().len() <= QUOTED => {
            let unescaped = value.as_str().map(|s| s.to_str()).unwrap_or_default();
            text.push("the string ").push_quoted(&unescaped)
        }
        kind => text.push(kind.article_name()),
    };
    ToolError::new(text.into_string())
}

/// What [`typed!`](crate::typed!) runs: a tool read through [`call`], on a
/// type of the macro's own, so that the function it makes can be named
/// after the tool's.
#[doc(hidden)]
pub trait Run {
    /// The tool, called with the arguments.
    fn run(args: &Args<'_>) -> Result<Reply, ToolError>;
}

/// A [`ToolFn`](crate::ToolFn) from a function of a `miniserde::Deserialize`
/// input to `Result<impl miniserde::Serialize, ToolError>`. Its function
/// is named after the tool's when that is a name (`PACKAGE::greet::typed`
/// in a size report).
#[macro_export]
macro_rules! typed {
    ($tool:ident $(,)?) => {{
        struct __SubakoTyped;
        impl $crate::typed::Run for __SubakoTyped {
            #[inline(always)]
            fn run(args: &$crate::Args<'_>) -> ::core::result::Result<$crate::Reply, $crate::ToolError> {
                $crate::typed::call(args, $tool)
            }
        }
        // A block of its own: `$tool` names the tool's function above.
        {
            // Never in a module: it runs in the compiler, and makes the
            // function's path `…::$tool::typed`.
            const fn $tool() -> $crate::ToolFn {
                fn typed(args: &$crate::Args<'_>) -> ::core::result::Result<$crate::Reply, $crate::ToolError> {
                    <__SubakoTyped as $crate::typed::Run>::run(args)
                }
                typed
            }
            $tool()
        }
    }};
    ($tool:expr $(,)?) => {{
        fn typed(args: &$crate::Args<'_>) -> ::core::result::Result<$crate::Reply, $crate::ToolError> {
            $crate::typed::call(args, $tool)
        }
        typed as $crate::ToolFn
    }};
}

#[cfg(test)]
mod tests {
    extern crate std;

    use std::string::{String, ToString};
    use std::vec::Vec;

    use super::miniserde::{self, Deserialize, Serialize};
    use crate::{Package, Reply, Tool, ToolError, testing};

    #[derive(Deserialize, Serialize, Debug, PartialEq)]
    struct Order {
        items: Vec<Item>,
        currency: Currency,
        coupon: Option<String>,
        note: Option<Vec<bool>>,
    }

    #[derive(Deserialize, Serialize, Debug, PartialEq)]
    struct Item {
        sku: String,
        qty: u16,
        delta: i8,
        unit_price: f64,
    }

    #[derive(Deserialize, Serialize, Debug, PartialEq)]
    enum Currency {
        #[serde(rename = "EUR")]
        Eur,
        #[serde(rename = "JPY")]
        Jpy,
    }

    fn echo(order: Order) -> Result<Order, ToolError> {
        Ok(order)
    }

    const PACKAGE: Package = Package::new(
        "orders",
        "0.0.0",
        "Echoes orders.",
        &[Tool::new("echo", "Echo.", r#"{"type": "object"}"#, crate::typed!(echo))],
    );

    /// The crate's reader feeds the visitors as miniserde's own reader does:
    /// the same inputs taken, giving the same values, and the same refused.
    #[test]
    fn reads_what_miniserde_reads() {
        let item = |sku: &str, qty: &str, delta: &str, price: &str| {
            ["{\"sku\":", sku, ",\"qty\":", qty, ",\"delta\":", delta, ",\"unit_price\":", price, "}"].concat()
        };
        let mut cases = Vec::new();
        for sku in [r#""A-1""#, r#""\u00e9\n\ud83d\ude00""#, "1", "null", "[]"] {
            for qty in ["0", "65535", "65536", "-1", "1.0", "1e2", "\"1\""] {
                for delta in ["-128", "127", "128", "-129", "-0", "0.5"] {
                    for price in [
                        "19.99",
                        "-0.0",
                        "1e308",
                        "1e400",
                        "-9223372036854775809",
                        "18446744073709551616",
                        "3",
                        "1e-7",
                        "1e21",
                        "0.1",
                    ] {
                        cases.push(item(sku, qty, delta, price));
                    }
                }
            }
        }
        let mut agreed = 0;
        for line in &cases {
            for tail in [
                r#""currency":"EUR""#,
                r#""currency":"GBP","coupon":null"#,
                r#""currency":"JPY","note":[true,false],"x":{"y":[1]}"#,
                r#""coupon":"C""#,
            ] {
                let arguments = ["{\"items\":[", line, "],", tail, "}"].concat();
                let theirs = miniserde::json::from_str::<Order>(&arguments).map(|o| miniserde::json::to_string(&o));
                let called = testing::call(&PACKAGE, "echo", &arguments);
                let ours =
                    if called.is_error() { Err(called.text().to_string()) } else { Ok(called.text().to_string()) };
                match (&ours, &theirs) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{arguments}"),
                    (Err(message), Err(_)) => assert!(message.starts_with("invalid input: /"), "{message}"),
                    _ => panic!("{arguments}: ours {ours:?}, miniserde's {theirs:?}"),
                }
                agreed += 1;
            }
        }
        assert_eq!(agreed, 5 * 7 * 6 * 10 * 4);
    }

    /// A linked list as deep as it is long.
    #[derive(Serialize)]
    struct Node {
        next: Option<std::boxed::Box<Node>>,
    }

    #[derive(Deserialize)]
    struct Depth {
        depth: u32,
    }

    /// Objects holding arrays of objects, the innermost array empty.
    #[derive(Serialize)]
    struct Kids {
        kids: std::vec::Vec<Kids>,
    }

    /// A value `depth` levels deep, for an even `depth`: an object and
    /// its array a wrap, the innermost array empty.
    fn kids(input: Depth) -> Result<Kids, ToolError> {
        let mut node = Kids { kids: std::vec::Vec::new() };
        for _ in 1..input.depth / 2 {
            node = Kids { kids: std::vec![node] };
        }
        Ok(node)
    }

    fn nested(input: Depth) -> Result<Node, ToolError> {
        let mut node = Node { next: None };
        for _ in 1..input.depth {
            node = Node { next: Some(std::boxed::Box::new(node)) };
        }
        Ok(node)
    }

    const NESTED: Package = Package::new(
        "nested",
        "0.0.0",
        "Nests.",
        &[
            Tool::new("nested", "Nest.", r#"{"type": "object"}"#, crate::typed!(nested)),
            Tool::new("kids", "Nest objects and arrays.", r#"{"type": "object"}"#, crate::typed!(kids)),
        ],
    );

    /// The output is written by the crate, as deep as JSON readers read and
    /// no deeper: past that, an error that says so rather than a recursion
    /// on to the stack's end.
    #[test]
    fn output_is_written_to_the_depth_readers_take_and_refused_past_it() {
        let max = crate::json::output::MAX_VALUE_DEPTH;
        let deepest = testing::call(&NESTED, "nested", &std::format!("{{\"depth\":{max}}}"));
        assert!(!deepest.is_error(), "{}", deepest.text());
        let expected = [r#"{"next":"#.repeat(max - 1), "{\"next\":null}".into(), "}".repeat(max - 1)].concat();
        assert_eq!(deepest.text(), expected);
        let deeper = testing::call(&NESTED, "nested", &std::format!("{{\"depth\":{}}}", max + 1));
        assert!(deeper.is_error());
        assert_eq!(
            deeper.text(),
            std::format!("the tool's output nests deeper than {max} levels, which JSON readers refuse")
        );
        // Objects and arrays in turn, the deepest an empty array (review
        // 77: at 126 levels it went out).
        for (levels, fits) in [(max - 1, true), (max + 1, false)] {
            let called = testing::call(&NESTED, "kids", &std::format!("{{\"depth\":{levels}}}"));
            assert_eq!(called.is_error(), !fits, "{levels}: {}", called.text());
        }
    }

    #[test]
    fn a_refused_value_is_named_by_its_pointer() {
        let refused = |arguments: &str| {
            let called = testing::call(&PACKAGE, "echo", arguments);
            assert!(called.is_error(), "{arguments}");
            called.text().to_string()
        };
        let good = r#"{"sku":"a","qty":1,"delta":0,"unit_price":1}"#;
        let with = |bad: &str| ["{\"currency\":\"EUR\",\"items\":[", good, ",", bad, "]}"].concat();
        let cases = [
            (with(r#"{"sku":"a","qty":"3","delta":0,"unit_price":1}"#), "/items/1/qty cannot be the string \"3\""),
            (with(r#"{"sku":"a","qty":70000,"delta":0,"unit_price":1}"#), "/items/1/qty cannot be the number 70000"),
            (with(r#"{"sku":"a","qty":1,"delta":-129,"unit_price":1}"#), "/items/1/delta cannot be the number -129"),
            (with(r#"{"sku":"a","qty":1.5,"delta":0,"unit_price":1}"#), "/items/1/qty cannot be the number 1.5"),
            (
                with(r#"{"sku":"a","qty":1,"delta":0,"unit_price":1e400}"#),
                "/items/1/unit_price cannot be the number 1e400",
            ),
            (with(r#"{"sku":null,"qty":1,"delta":0,"unit_price":1}"#), "/items/1/sku cannot be null"),
            (with(r#"{"sku":true,"qty":1,"delta":0,"unit_price":1}"#), "/items/1/sku cannot be true"),
            (with(r#"{"sku":{"a":1},"qty":1,"delta":0,"unit_price":1}"#), "/items/1/sku cannot be an object"),
            (with(r#"{"sku":"a","qty":1,"delta":0}"#), "/items/1 lacks a field the tool needs"),
            (with("[]"), "/items/1 cannot be an array"),
            (r#"{"currency":"G\u0042P","items":[]}"#.into(), "/currency cannot be the string \"GBP\""),
            (r#"{"currency":"a\"\\\n","items":[]}"#.into(), "/currency cannot be the string \"a\\\"\\\\\\n\""),
            (r#"{"currency":"ユーロユーロユーロユーロユーロ","items":[]}"#.into(), "/currency cannot be a string"),
            (r#"{"currency":"EUR","items":{}}"#.into(), "/items cannot be an object"),
            (r#"{"currency":"EUR","items":[],"note":[true,1]}"#.into(), "/note/1 cannot be the number 1"),
            (r#"{"currency":"EUR","items":[],"a/b~c":1,"coupon":7}"#.into(), "/coupon cannot be the number 7"),
            (r#"{"items":[]}"#.into(), "/ lacks a field the tool needs"),
        ];
        for (arguments, message) in cases {
            assert_eq!(refused(&arguments), ["invalid input: ", message].concat(), "{arguments}");
        }
    }

    fn traced(_: Order) -> Result<Reply, ToolError> {
        Err(ToolError::new(std::format!("{}", std::backtrace::Backtrace::force_capture())))
    }

    impl Serialize for Reply {
        fn begin(&self) -> miniserde::ser::Fragment<'_> {
            miniserde::ser::Fragment::Null
        }
    }

    const TRACED: Package = Package::new(
        "traced",
        "0.0.0",
        "Traces.",
        &[Tool::new("traced", "Trace.", r#"{"type": "object"}"#, crate::typed!(traced))],
    );

    /// The function `typed!` makes is named after the tool's.
    #[test]
    fn typed_functions_are_named_after_their_tools() {
        let arguments = r#"{"currency":"EUR","items":[]}"#;
        let trace = testing::call(&TRACED, "traced", arguments).text().to_string();
        assert!(trace.contains("TRACED::traced::typed"), "{trace}");
    }
}
