//! The exchange on the host, where this crate deliberately differs from the
//! official SDK (the `official-deviation` blocks of the golden transcript)
//! and the cases the transcript cannot show.

#[path = "../examples/hello.rs"]
mod hello;

use serde_json::{Value, json};
use subako_tiny::testing;

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn run(stdin: &str) -> Vec<String> {
    let (stdout, code) = subako_tiny::execute(&hello::PACKAGE, &["hello"], stdin.as_bytes());
    assert_eq!(code, 0);
    let stdout = String::from_utf8(stdout).unwrap();
    assert!(stdout.is_empty() || stdout.ends_with('\n'));
    stdout.lines().map(str::to_string).collect()
}

fn one(line: &str) -> String {
    let mut out = run(&format!("{line}\n"));
    assert_eq!(out.len(), 1, "{out:?}");
    out.remove(0)
}

fn discover(id: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"server/discover","params":{{{META}}}}}"#)
}

/// hello's greeting for `arguments`, which must succeed.
fn greeting(arguments: &str) -> String {
    let called = testing::call(&hello::PACKAGE, "greet", arguments);
    assert!(!called.is_error(), "{}", called.line());
    let structured: Value = serde_json::from_str(called.structured().unwrap()).unwrap();
    structured["message"].as_str().unwrap().to_string()
}

#[test]
fn any_json_number_or_string_id_is_echoed_byte_for_byte() {
    // The official SDK reads ids as i64 or string, and refuses the first seven.
    for id in [
        "18446744073709551615",
        "9223372036854775808",
        "-9223372036854775809",
        "1.5",
        "1.0",
        "1e2",
        "-0",
        "0",
        "-5",
        r#""a\"b\\c\n\u00e9\/""#,
        r#""\ud83d\ude00""#,
        r#""""#,
    ] {
        let answer = one(&discover(id));
        assert!(answer.starts_with(&format!(r#"{{"id":{id},"jsonrpc":"2.0","result":"#)), "{id}: {answer}");
    }
}

#[test]
fn ids_of_other_kinds_make_the_line_no_message() {
    for id in ["true", "[1]", r#"{"a":1}"#] {
        let answer: Value = serde_json::from_str(&one(&discover(id))).unwrap();
        assert_eq!(answer["id"], Value::Null, "{id}");
        assert_eq!(answer["error"]["code"], -32600, "{id}");
    }
    // A null id is no id: the message is a notification.
    assert!(run(&format!("{}\n", discover("null"))).is_empty());
}

#[test]
fn arguments_must_be_an_object() {
    // serde would build the struct from an array by position; we refuse it.
    for (arguments, kind) in [(r#"["Ada"]"#, "an array"), ("null", "null"), ("3", "a number"), (r#""Ada""#, "a string")]
    {
        let called = testing::call(&hello::PACKAGE, "greet", arguments);
        assert!(called.is_error(), "{arguments}");
        assert!(called.text().starts_with("invalid input: arguments must be an object, not "), "{}", called.text());
        assert!(called.text().ends_with(kind), "{arguments}: {}", called.text());
        assert_eq!(called.structured(), None);
    }
}

#[test]
fn numbers_beyond_f64_are_still_json() {
    // serde_json refuses 1e400 anywhere on the line; JSON itself has no range.
    assert_eq!(greeting(r#"{"name":"Ada","n":1e400}"#), "Hello, Ada!");
}

#[test]
fn nesting_is_limited_like_serde_json() {
    let nested = |depth: usize| format!(r#"{{"name":"Ada","deep":{}{}}}"#, "[".repeat(depth), "]".repeat(depth));
    // The line itself has 4 levels above the arrays (message, params, arguments, and the arrays start in arguments).
    assert_eq!(greeting(&nested(124)), "Hello, Ada!");
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"greet","arguments":{},{META}}}}}"#,
        nested(125)
    );
    let refused: Value = serde_json::from_str(&one(&line)).unwrap();
    assert_eq!(refused["error"]["code"], -32700);
    assert!(refused["error"]["message"].as_str().unwrap().contains("recursion limit"), "{refused}");
    // A million levels cannot overflow the stack: the reader does not recurse.
    let deep = format!("{}\n", "[".repeat(1_000_000));
    let refused: Value = serde_json::from_str(&run(&deep)[0]).unwrap();
    assert_eq!(refused["error"]["code"], -32700);
}

#[test]
fn escaped_keys_and_names_are_read_as_their_values() {
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"m\u0065thod":"tools\/call","params":{{"n\u0061me":"gr\u0065et","arguments":{{"\u006eame":"\u00c5sa"}},{META}}}}}"#
    );
    let answer: Value = serde_json::from_str(&one(&line)).unwrap();
    assert_eq!(answer["result"]["structuredContent"]["message"], "Hello, Åsa!");
}

#[test]
fn the_last_of_duplicate_keys_wins_as_in_serde_json() {
    assert_eq!(greeting(r#"{"name":"A","name":"B"}"#), "Hello, B!");
}

#[test]
fn lines_end_in_lf_or_crlf_and_the_last_needs_no_newline() {
    let call = |id: u32| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"greet","arguments":{{"name":"x"}},{META}}}}}"#
        )
    };
    let out = run(&format!("{}\r\n{}\n{}", call(1), call(2), call(3)));
    let ids: Vec<Value> = out.iter().map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].clone()).collect();
    assert_eq!(ids, [json!(1), json!(2), json!(3)]);
}

#[test]
fn the_manifest_is_printed_pretty_without_reading_stdin() {
    let (stdout, code) = subako_tiny::execute(&hello::PACKAGE, &["hello", "--subako-manifest"], b"not read\n");
    assert_eq!(code, 0);
    assert_eq!(
        String::from_utf8(stdout).unwrap(),
        "{\n  \"abi\": 1,\n  \"name\": \"hello\",\n  \"description\": \"Says hello.\"\n}\n"
    );
}

#[test]
fn invalid_utf8_and_nul_bytes_are_parse_errors_and_serving_goes_on() {
    let mut stdin = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}\n\0\n".to_vec();
    stdin.extend_from_slice(format!("{}\n", discover("7")).as_bytes());
    let (stdout, code) = subako_tiny::execute(&hello::PACKAGE, &["hello"], &stdin);
    assert_eq!(code, 0);
    let out: Vec<Value> =
        String::from_utf8(stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(out.len(), 3);
    assert_eq!(out[0]["error"]["code"], -32700);
    assert_eq!(out[1]["error"]["code"], -32700);
    assert_eq!(out[2]["id"], 7);
}

#[test]
fn the_tool_list_sends_hand_written_schemas_on_one_line() {
    let line = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}"#);
    let answer = one(&line);
    // The example's input schema is written over several lines.
    assert!(answer.contains(r#""inputSchema":{"properties":{"name":{"description":"Who to greet.","type":"string"}},"required":["name"],"type":"object"}"#), "{answer}");
}

#[test]
fn a_tool_error_and_an_unknown_tool_are_results_not_protocol_errors() {
    let called = testing::call(&hello::PACKAGE, "gr\"eet", "{}");
    assert!(called.is_error());
    assert_eq!(called.text(), "unknown tool: gr\"eet");
    let answer: Value = serde_json::from_str(called.line()).unwrap();
    assert_eq!(answer["result"]["resultType"], "complete");
    // Without arguments the same: MCP lets a call leave them out.
    let line = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"gr\"eet",{META}}}}}"#);
    let answer: Value = serde_json::from_str(&one(&line)).unwrap();
    assert_eq!(answer["result"]["content"][0]["text"], "unknown tool: gr\"eet");
}

// --- `subako_tiny::testing::call` itself ---

#[test]
fn testing_call_answers_exactly_as_the_protocol_does() {
    // Pretty arguments are compacted onto one request line, escapes kept.
    let called = testing::call(&hello::PACKAGE, "greet", "{\n  \"name\": \"\\u00c5sa \\\"q\\\"\"\n}");
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"greet","arguments":{{"name":"\u00c5sa \"q\""}},{META}}}}}"#
    );
    assert_eq!(format!("{}\n", called.line()), run(&line).concat() + "\n");
    assert!(!called.is_error());
    assert_eq!(called.text(), r#"{"message":"Hello, Åsa \"q\"!"}"#);
    assert_eq!(called.structured(), Some(r#"{"message":"Hello, Åsa \"q\"!"}"#));
    assert_eq!(called.content(), r#"[{"text":"{\"message\":\"Hello, Åsa \\\"q\\\"!\"}","type":"text"}]"#);
    assert!(called.line().starts_with(r#"{"id":1,"jsonrpc":"2.0","result":{"_meta":"#), "{}", called.line());
}

#[test]
fn testing_call_reads_an_error_result() {
    let called = testing::call(&hello::PACKAGE, "greet", r#"{"name": 3}"#);
    assert!(called.is_error());
    assert_eq!(called.text(), "invalid input: `name` must be a string");
    assert_eq!(called.structured(), None);
}

#[test]
#[should_panic(expected = "testing::call(\"greet\"): the arguments are not JSON: EOF while parsing a value at byte 9")]
fn testing_call_refuses_arguments_that_are_not_json() {
    testing::call(&hello::PACKAGE, "greet", r#"{"name": "#);
}

#[test]
#[should_panic(
    expected = "testing::call(\"greet\"): the module answered with a JSON-RPC error, not a result: {\"error\":{\"code\":-32600,\"message\":\"line too long: over 100 bytes\"}"
)]
fn testing_call_refuses_a_json_rpc_error_and_quotes_it() {
    const SMALL: subako_tiny::Package = hello::PACKAGE.max_line(100);
    testing::call(&SMALL, "greet", r#"{"name": "Ada"}"#);
}

mod output {
    //! What a tool writes reaches stdout only as JSON every reader accepts.

    use subako_tiny::json::{self, JsonWriter};
    use subako_tiny::{Args, Package, Reply, Tool, ToolError, testing};

    fn half_written(_: &Args<'_>) -> Result<Reply, ToolError> {
        let mut out = JsonWriter::new();
        out.begin_object().key("rate");
        Ok(Reply::json(out))
    }

    fn unclosed(_: &Args<'_>) -> Result<Reply, ToolError> {
        let mut out = JsonWriter::new();
        out.begin_object().key("rates").begin_array().int(1);
        Ok(Reply::json(out))
    }

    /// Copies the JSON text of its argument `raw` (a string) into its reply.
    fn copies(args: &Args<'_>) -> Result<Reply, ToolError> {
        let text = args.str("raw")?;
        let copied = json::parse(text.as_bytes()).map_err(|_| ToolError::new("`raw` must hold JSON"))?;
        Ok(Reply::object(|o| o.field("copied", copied)))
    }

    /// Gives `raw` an empty text as an array's only element: written bare,
    /// it made `[]`, a valid answer with the element lost.
    fn empty_raw(_: &Args<'_>) -> Result<Reply, ToolError> {
        let mut value = JsonWriter::new();
        value.begin_object().key("items").begin_array().raw(b"").end_array().end_object();
        Ok(Reply::json(value))
    }

    /// Writes the field `a` twice: nothing stops it, and testing::call says so.
    fn twice(_: &Args<'_>) -> Result<Reply, ToolError> {
        Ok(Reply::object(|o| o.field("a", 1).field("a", 2)))
    }

    /// `n` objects, one in another, inside `o`.
    fn objects(o: &mut json::ObjectWriter, n: i64) -> &mut json::ObjectWriter {
        if n == 0 { o.field("leaf", 1) } else { o.object("a", |p| objects(p, n - 1)) }
    }

    /// `n` arrays and objects in turn, one in another, inside `a`.
    fn arrays(a: &mut json::ArrayWriter, n: i64) -> &mut json::ArrayWriter {
        match n {
            0 => a.push(1),
            1 => a.object(|o| o.field("x", 1)),
            _ if n % 2 == 0 => a.array(|b| arrays(b, n - 1)),
            _ => a.object(|o| o.array("a", |b| arrays(b, n - 2))),
        }
    }

    /// An object nested `n` deep under its root, by `ObjectWriter::object`.
    fn nest_objects(args: &Args<'_>) -> Result<Reply, ToolError> {
        let n = args.int("n", 0, 100_000)?;
        Ok(Reply::object(|o| objects(o, n)))
    }

    /// Arrays and objects nested `n` deep under the root's array.
    fn nest_arrays(args: &Args<'_>) -> Result<Reply, ToolError> {
        let n = args.int("n", 0, 100_000)?;
        Ok(Reply::object(|o| o.array("a", |a| arrays(a, n))))
    }

    /// `json::object` nested `n` deep under its root, put into the reply.
    fn nest_bytes(args: &Args<'_>) -> Result<Reply, ToolError> {
        let n = args.int("n", 0, 100_000)?;
        let inner = json::object(|o| objects(o, n));
        Ok(Reply::object(|o| o.field("b", &inner)))
    }

    /// `n` objects, one in another, inside `o`, the innermost holding an
    /// array of arrays.
    fn objects_to_arrays(o: &mut json::ObjectWriter, n: i64) -> &mut json::ObjectWriter {
        if n == 0 { o.field("leaf", vec![vec![1]]) } else { o.object("a", |p| objects_to_arrays(p, n - 1)) }
    }

    /// Objects nested `n` deep under the root, then an array of arrays:
    /// `n + 3` levels.
    fn nest_slices(args: &Args<'_>) -> Result<Reply, ToolError> {
        let n = args.int("n", 0, 100_000)?;
        Ok(Reply::object(|o| o.array("a", |a| a.object(|o| objects_to_arrays(o, n - 2)))))
    }

    /// `nest_objects`' reply, made inside a `json::object`'s closure.
    fn inside_apart(args: &Args<'_>) -> Result<Reply, ToolError> {
        let n = args.int("n", 0, 100_000)?;
        let mut reply = None;
        let _apart = json::object(|o| {
            reply = Some(Reply::object(|p| objects(p, n)));
            o.field("x", 1)
        });
        reply.ok_or_else(|| ToolError::new("no reply"))
    }

    /// `nest_objects`' reply, its closure making two values apart first,
    /// one in the other, the inner past what a reply may hold (review 79:
    /// counted twice, the counts let 126 levels out and refused 125).
    fn apart_in_apart(args: &Args<'_>) -> Result<Reply, ToolError> {
        let n = args.int("n", 0, 100_000)?;
        Ok(Reply::object(|o| {
            let _outer = json::object(|o| {
                let _inner = json::object(|p| objects(p, 200));
                o
            });
            let _thrown = JsonWriter::new().object(|p| objects(p, 200)).as_bytes().len();
            // A reply made and thrown away (review 80: it refused this one).
            let _reply = Reply::object(|p| objects(p, 200));
            objects(o, n)
        }))
    }

    /// An object `n + 1` deep written into the reply's own writer from
    /// inside another reply's closure, which is thrown away (review 81: it
    /// went out as a line serde_json refuses).
    fn captured_outer(args: &Args<'_>) -> Result<Reply, ToolError> {
        let n = args.int("n", 0, 100_000)?;
        Ok(Reply::object(|o| {
            let _thrown = Reply::object(|p| {
                objects(o, n);
                p
            });
            let _apart = json::object(|p| {
                p.field("x", 1);
                p
            });
            o
        }))
    }

    /// The inner reply of [`captured_outer`]'s kind, returned: its own
    /// value is `{"ok":1}` (review 81: refused for the outer's depth).
    fn captured_inner(args: &Args<'_>) -> Result<Reply, ToolError> {
        let n = args.int("n", 0, 100_000)?;
        let mut inner = None;
        let _outer = Reply::object(|o| {
            inner = Some(Reply::object(|p| {
                objects(o, n);
                p.field("ok", 1)
            }));
            o
        });
        inner.ok_or_else(|| ToolError::new("no reply"))
    }

    const ANY: &str = r#"{"type":"object"}"#;
    const PACKAGE: Package = Package::new(
        "out",
        "0.1.0",
        "Writes output.",
        &[
            Tool::new("half_written", "A key with no value.", ANY, half_written),
            Tool::new("unclosed", "An array and an object left open.", ANY, unclosed),
            Tool::new("copies", "Copies JSON text.", ANY, copies),
            Tool::new("twice", "Writes a field twice.", ANY, twice),
            Tool::new("empty_raw", "Gives raw an empty text.", ANY, empty_raw),
            Tool::new("nest_objects", "Nests objects.", ANY, nest_objects),
            Tool::new("nest_arrays", "Nests arrays.", ANY, nest_arrays),
            Tool::new("nest_bytes", "Nests a json::object.", ANY, nest_bytes),
            Tool::new("nest_slices", "Nests slices at the deepest level.", ANY, nest_slices),
            Tool::new("inside_apart", "Nests objects, inside a json::object's closure.", ANY, inside_apart),
            Tool::new("apart_in_apart", "Nests objects, after values apart.", ANY, apart_in_apart),
            Tool::new("captured_outer", "Nests objects in its writer from another's closure.", ANY, captured_outer),
            Tool::new("captured_inner", "A reply whose closure nests another's.", ANY, captured_inner),
        ],
    );

    /// The line stdout got, parsed by serde_json as one response.
    fn answer(tool: &str, arguments: &str) -> testing::CallResult {
        let called = testing::call(&PACKAGE, tool, arguments);
        let parsed: serde_json::Value = serde_json::from_str(called.line()).expect("stdout is JSON");
        assert_eq!(parsed["id"], 1, "{}", called.line());
        called
    }

    #[test]
    fn a_malformed_document_is_an_error_naming_the_tool_never_a_broken_line() {
        let called = answer("half_written", "{}");
        assert!(called.is_error());
        assert_eq!(
            called.text(),
            "tool `half_written` answered with structuredContent that is not JSON (EOF while parsing a value at byte 8): a JsonWriter needs an end_ for each begin_, a value for each key and valid JSON for each raw; Reply::object writes whole values"
        );
        let called = answer("unclosed", "{}");
        assert!(called.is_error());
        assert!(called.text().starts_with("tool `unclosed` answered with structuredContent that is not JSON (EOF while parsing a value at byte 11)"), "{}", called.text());
        let called = answer("empty_raw", "{}");
        assert!(called.is_error(), "{}", called.line());
        assert!(
            called.text().starts_with(
                "tool `empty_raw` answered with structuredContent that is not JSON (expected value at byte 10)"
            ),
            "{}",
            called.text()
        );
    }

    #[test]
    fn copied_json_text_is_checked_as_strict_readers_read_it() {
        let ok = answer("copies", r#"{"raw": "{\"a\": [1, 2.5e300, \"x\"]}"}"#);
        // Compact, as an answer's line must be.
        assert_eq!(ok.structured(), Some(r#"{"copied":{"a":[1,2.5e300,"x"]}}"#));
        let big = answer("copies", r#"{"raw": "[1e400]"}"#);
        assert!(big.is_error());
        assert_eq!(
            big.text(),
            "tool `copies` answered with structuredContent that holds the number 1e400 (at byte 11), beyond what an f64 holds, which JSON readers refuse: send it as a string"
        );
        let twice = answer("copies", r#"{"raw": "{\"x\": 1, \"x\": 2}"}"#);
        assert_eq!(
            twice.text(),
            r#"tool `copies` answered with structuredContent that has the member "x" twice in one object (at byte 17), which strict JSON readers refuse"#
        );
        // 125 levels inside `copied` put the value past what an answer line may nest.
        let deep = format!("{}{}", "[".repeat(125), "]".repeat(125));
        let too_deep = answer("copies", &format!(r#"{{"raw": "{deep}"}}"#));
        assert!(too_deep.text().contains("nests arrays and objects deeper than 125 levels"), "{}", too_deep.text());
        let fits = format!("{}{}", "[".repeat(124), "]".repeat(124));
        assert!(!answer("copies", &format!(r#"{{"raw": "{fits}"}}"#)).is_error());
    }

    /// Closures nest a value as deep as they are called: past what an
    /// answer line may hold, the call is an error naming the tool (review
    /// 76: 126 levels went out as a line serde_json refuses), whichever
    /// writer nests it.
    #[test]
    fn a_value_nested_by_closures_past_what_readers_take_is_an_error() {
        // The value's depth: the root, then each tool's levels below it.
        // Review 77: an array of arrays at the deepest level, and a reply
        // made inside a `json::object`'s closure (the first call of a
        // process: it went out as a line that was not JSON).
        for (tool, below_root) in [
            ("nest_objects", 0),
            ("nest_arrays", 1),
            ("nest_bytes", 1),
            ("nest_slices", 2),
            ("inside_apart", 0),
            ("apart_in_apart", 0),
            ("captured_outer", 0),
        ] {
            let fits = 124 - below_root;
            let called = answer(tool, &format!(r#"{{"n":{fits}}}"#));
            assert!(!called.is_error(), "{tool}: {}", called.text());
            let value: serde_json::Value = serde_json::from_str(called.structured().unwrap()).unwrap();
            assert!(value.is_object(), "{tool}");
            for n in [fits + 1, fits + 2, 1_000] {
                let called = answer(tool, &format!(r#"{{"n":{n}}}"#));
                assert!(called.is_error(), "{tool} {n}");
                assert!(
                    called.text().starts_with(&format!(
                        "tool `{tool}` answered with structuredContent that nests arrays and objects deeper than 125 levels"
                    )),
                    "{tool} {n}: {}",
                    called.text()
                );
            }
        }
    }

    /// A reply is judged by its own value, whatever another's closure
    /// wrote beside it (review 81).
    #[test]
    fn a_reply_is_judged_by_its_own_value() {
        for n in [124, 125, 1_000] {
            let called = answer("captured_inner", &format!(r#"{{"n":{n}}}"#));
            assert_eq!(called.structured(), Some(r#"{"ok":1}"#), "{n}: {}", called.text());
        }
    }

    /// Each testing::call is a fresh process, as each call is a fresh
    /// instance on the worker: a tool that copied JSON text earlier on the
    /// same thread (which turns on the strict check of replies) changes
    /// nothing for the next call. It made `twice` an isError result, where
    /// alone it panics the test for the member written twice.
    #[test]
    fn a_call_does_not_depend_on_the_calls_before_it_on_the_thread() {
        let alone = std::panic::catch_unwind(|| testing::call(&PACKAGE, "twice", "{}")).unwrap_err();
        let alone = alone.downcast_ref::<String>().unwrap().clone();
        assert!(alone.contains(r#"the member "a" twice in /"#), "{alone}");
        assert!(!answer("copies", r#"{"raw": "{\"x\": 1}"}"#).is_error());
        let after = std::panic::catch_unwind(|| testing::call(&PACKAGE, "twice", "{}")).unwrap_err();
        assert_eq!(after.downcast_ref::<String>(), Some(&alone));
    }
}

/// A message without `jsonrpc`, or with one that is not a string, is told
/// what the member must be (it said "must be a string" when it was missing).
#[test]
fn a_message_without_a_jsonrpc_string_is_told_what_it_must_be() {
    let said =
        r#"{"error":{"code":-32600,"message":"not a message: `jsonrpc` must be \"2.0\""},"id":null,"jsonrpc":"2.0"}"#;
    for line in ["{}", r#"{"id":1,"method":"tools/list"}"#, r#"{"jsonrpc":2,"id":1}"#, r#"{"jsonrpc":null}"#] {
        assert_eq!(one(line), said, "{line}");
    }
}

/// On one stdin the checks a reply gets only grow: a `JsonWriter` kept
/// from an earlier call is checked when a later call sends it (review 62:
/// with the checks cleared as each call started, its two lines went out
/// as they were), and so, once a module has copied JSON text in, is a
/// later reply of a member written twice (review 61 asked that a call be
/// answered as alone: on the platform each call is alone).
#[test]
fn a_session_s_checks_only_grow() {
    use std::sync::Mutex;
    use subako_tiny::{Args, JsonWriter, Package, Reply, Tool, ToolError};
    static KEPT: Mutex<Option<JsonWriter>> = Mutex::new(None);
    fn twice(_: &Args<'_>) -> Result<Reply, ToolError> {
        Ok(Reply::object(|o| o.field("a", 1).field("a", 2)))
    }
    fn keep(_: &Args<'_>) -> Result<Reply, ToolError> {
        let mut value = JsonWriter::new();
        value.raw(b"{\"b\":1}\n{\"c\":2}");
        *KEPT.lock().unwrap() = Some(value);
        Ok(Reply::text("kept"))
    }
    fn send(_: &Args<'_>) -> Result<Reply, ToolError> {
        Ok(Reply::json(KEPT.lock().unwrap().take().unwrap_or_default()))
    }
    const EMPTY: &str = r#"{"type": "object"}"#;
    const PACKAGE: Package = Package::new(
        "flags",
        "0.0.0",
        "Checks.",
        &[
            Tool::new("twice", "A member twice.", EMPTY, twice),
            Tool::new("keep", "Keeps a writer.", EMPTY, keep),
            Tool::new("send", "Sends the kept writer.", EMPTY, send),
        ],
    );
    let line = |id: u32, tool: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{}},{META}}}}}"#
        )
    };
    let stdin = [line(1, "twice"), line(2, "keep"), line(3, "send"), line(4, "twice")].join("\n") + "\n";
    let (stdout, code) = subako_tiny::execute(&PACKAGE, &["flags"], stdin.as_bytes());
    assert_eq!(code, 0);
    let answers: Vec<Value> =
        String::from_utf8(stdout).unwrap().lines().map(|l| serde_json::from_str(l).expect(l)).collect();
    assert_eq!(answers.len(), 4, "{answers:?}");
    // Alone (a fresh process, no writer made yet), a member twice goes out unchecked.
    assert_eq!(answers[0]["result"]["structuredContent"], json!({"a": 2}), "{}", answers[0]);
    let error = |n: usize| answers[n]["result"]["content"][0]["text"].as_str().unwrap().to_string();
    assert_eq!(answers[2]["result"]["isError"], json!(true), "{}", answers[2]);
    assert!(error(2).starts_with("tool `send` answered with structuredContent that is not JSON"), "{}", error(2));
    assert_eq!(answers[3]["result"]["isError"], json!(true), "{}", answers[3]);
    assert!(error(3).contains(r#"has the member "a" twice"#), "{}", error(3));
}
