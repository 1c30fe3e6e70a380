//! The `rates` package: currency conversion over an HTTP JSON API
//! (`GET {api}/latest?base=FROM`, Frankfurter's shape by default), and a
//! history of the conversions kept in the session volume, where it outlives
//! the call that wrote it (each call is a fresh instance).
//!
//! Unknown input members are refused with `Args::only` rather than with
//! `validated!`: the tools check few rules, and the validator would cost
//! a large part of a module that should stay small (the guide's "Typed
//! tools", `subako_tiny::guide::typed_tools`).
//! Text is built with `text!`, replies with `Reply::object`, and nothing is
//! collected: `push`, `collect` and `format!` link alloc's growth routines.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

use subako_tiny::fs::{self, errno};
use subako_tiny::http::Request;
use subako_tiny::prelude::*;

/// Where rates come from when the call names no `api`.
const DEFAULT_API: &str = "https://api.frankfurter.app";
/// This package's own directory in the session volume.
const DIR: &str = "/volume/tmp/rates";
/// One successful conversion per line, as `convert` answered it.
const HISTORY: &str = "/volume/tmp/rates/history.jsonl";

/// A currency code: three uppercase ASCII letters.
fn currency<'a>(args: &Args<'a>, field: &str) -> Result<Cow<'a, str>, ToolError> {
    let code = args.str(field)?;
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(ToolError::invalid_input(("`", field, "` must be three uppercase letters, such as EUR")));
    }
    Ok(code)
}

fn convert(args: &Args<'_>) -> Result<Reply, ToolError> {
    args.only(&["amount", "from", "to", "api"])?;
    let amount = args.float("amount")?;
    if !(amount > 0.0 && amount <= 1e12) {
        return Err(ToolError::invalid_input("`amount` must be a number above 0 and at most 1000000000000"));
    }
    let (from, to, api) = (currency(args, "from")?, currency(args, "to")?, args.str_or("api", DEFAULT_API)?);
    let url = text!(api.strip_suffix('/').unwrap_or(&api), "/latest?base=", from);

    let response = Request::get(url.as_str()).header("accept", "application/json").timeout_ms(10_000).send_ok()?;
    let answer = response.json()?;
    // The API leaves the base out of its rates: FROM to FROM is 1.
    let rate = match answer.at(&["rates", &to]).and_then(|v| v.as_f64()) {
        Some(rate) if rate.is_finite() && rate > 0.0 => rate,
        None if from == to => 1.0,
        _ => fail!("no rate for \"", to, "\" in the answer from ", url),
    };
    let result = amount * rate;
    if !result.is_finite() {
        fail!(amount, " ", from, " at ", rate, " is beyond what a number holds: convert a smaller amount");
    }
    let date = answer.at(&["date"]).and_then(|v| v.as_str());

    let reply = Reply::object(|o| {
        o.field("amount", amount).field("from", &from).field("to", &to).field("rate", rate).field("result", result);
        match date {
            Some(date) => o.field("date", date),
            None => o.field("date", ""),
        }
    });
    fs::create_dir_all(DIR)
        .and_then(|()| fs::append_line(HISTORY, reply.structured().unwrap_or(b"{}")))
        // The conversion in the message, for the model to use still.
        .map_err(|e| {
            ToolError::from(text!(
                amount,
                " ",
                from,
                " = ",
                result,
                " ",
                to,
                ", but the history could not be written: ",
                e.message()
            ))
        })?;
    Ok(reply)
}

fn history(args: &Args<'_>) -> Result<Reply, ToolError> {
    args.only(&["limit"])?;
    let limit = args.opt_int("limit", 1, 100)?.unwrap_or(10) as usize;
    let text = match fs::read(HISTORY) {
        Ok(text) => text,
        // No conversion yet.
        Err(e) if e.errno() == Some(errno::NOENT) => Vec::new(),
        Err(e) => return Err(e.into()),
    };
    // Whole JSON objects only: a write cut short by a full volume is
    // skipped, and so is a line that is no object (another tool of the
    // session may write the volume) or one a strict reader refuses (a
    // member twice, a number past f64), which would sink the whole reply.
    // The last `limit`: count them, then skip to them.
    let entry = |line: &Value<'_>| line.as_object().is_some() && line.is_interoperable();
    let mut skip = json::lines(&text).filter(entry).count().saturating_sub(limit);
    Ok(Reply::object(|o| {
        o.array("entries", |a| {
            for line in json::lines(&text) {
                if entry(&line) {
                    if skip == 0 {
                        a.push(line);
                    } else {
                        skip -= 1;
                    }
                }
            }
            a
        })
    }))
}

pub const PACKAGE: Package = Package::new(
    "rates",
    env!("CARGO_PKG_VERSION"),
    "Converts currencies at the day's rates, and remembers the conversions of the session.",
    &[
        Tool::new("convert", "Convert an amount from one currency to another at the latest rate, and add it to the history.", r#"{
                "properties": {
                    "amount": {"description": "How much of `from` to convert.", "type": "number", "exclusiveMinimum": 0, "maximum": 1e12},
                    "from": {"description": "The currency to convert from: an ISO 4217 code such as EUR.", "type": "string", "pattern": "^[A-Z]{3}$"},
                    "to": {"description": "The currency to convert to: an ISO 4217 code such as USD.", "type": "string", "pattern": "^[A-Z]{3}$"},
                    "api": {"description": "The rates API's base URL (default https://api.frankfurter.app); the host must be one the function's network setting allows.", "type": "string"}
                },
                "required": ["amount", "from", "to"],
                "additionalProperties": false,
                "type": "object"
            }"#, convert).output_schema(
                r#"{
                "properties": {
                    "amount": {"type": "number"},
                    "from": {"type": "string"},
                    "to": {"type": "string"},
                    "rate": {"description": "How many `to` one `from` buys.", "type": "number"},
                    "result": {"description": "amount × rate.", "type": "number"},
                    "date": {"description": "The day the rate is for, as the API gives it.", "type": "string"}
                },
                "required": ["amount", "from", "to", "rate", "result", "date"],
                "type": "object"
            }"#,
            ),
        Tool::new("history", "The session's latest conversions, oldest first.", r#"{
                "properties": {
                    "limit": {"description": "How many conversions, counting back from the latest (default 10).", "type": "integer", "minimum": 1, "maximum": 100}
                },
                "additionalProperties": false,
                "type": "object"
            }"#, history).output_schema(
                r#"{"properties": {"entries": {"description": "What `convert` answered, one entry per conversion.", "type": "array", "items": {"type": "object"}}}, "required": ["entries"], "type": "object"}"#,
            ),
    ],
);

subako_tiny::main!(PACKAGE);

/// The tools on the host: each request answered by the test
/// (`subako_tiny::testing::call_with_http`) through the crate's real answer
/// parser, and the session volume a temporary directory (`fs::mount`; the
/// mounts are the test thread's own).
#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use subako_tiny::http::{HttpErrorKind, Method, Response};
    use subako_tiny::testing::{self, CallResult};

    use super::PACKAGE;

    const LATEST: &str = r#"{"amount":1.0,"base":"EUR","date":"2026-12-01","rates":{"USD":1.0512,"JPY":158.3}}"#;

    /// A fresh directory mounted as /volume/tmp for this test's thread.
    fn volume(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("subako-tiny-rates-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        subako_tiny::fs::mount("/volume/tmp", &dir);
        dir
    }

    fn convert(arguments: &str, status: u16, body: &str) -> CallResult {
        testing::call_with_http(&PACKAGE, "convert", arguments, |_| Ok(Response::inline(status, body)))
    }

    fn error(called: &CallResult) -> &str {
        assert!(called.is_error(), "{}", called.line());
        called.text()
    }

    #[test]
    fn convert_asks_the_api_and_records_the_conversion() {
        let dir = volume("convert");
        let mut requests = 0;
        let arguments = r#"{"amount": 2, "from": "EUR", "to": "USD", "api": "http://127.0.0.1:9/"}"#;
        let called = testing::call_with_http(&PACKAGE, "convert", arguments, |request| {
            requests += 1;
            assert_eq!(request.method, Method::Get);
            assert_eq!(request.url, "http://127.0.0.1:9/latest?base=EUR");
            assert_eq!(request.header("accept"), Some("application/json"));
            Ok(Response::inline(200, LATEST).with_header("content-type", "application/json"))
        });
        assert_eq!(requests, 1);
        assert!(!called.is_error(), "{}", called.line());
        let expected = r#"{"amount":2.0,"from":"EUR","to":"USD","rate":1.0512,"result":2.1024,"date":"2026-12-01"}"#;
        assert_eq!(called.structured(), Some(expected));
        assert_eq!(std::fs::read_to_string(dir.join("rates/history.jsonl")).unwrap(), [expected, "\n"].concat());

        // The default API, a base to itself, and the history of both.
        let called =
            testing::call_with_http(&PACKAGE, "convert", r#"{"amount": 0.5, "from": "EUR", "to": "EUR"}"#, |request| {
                assert_eq!(request.url, "https://api.frankfurter.app/latest?base=EUR");
                Ok(Response::inline(200, LATEST))
            });
        assert_eq!(
            called.structured(),
            Some(r#"{"amount":0.5,"from":"EUR","to":"EUR","rate":1.0,"result":0.5,"date":"2026-12-01"}"#)
        );
        let history = testing::call(&PACKAGE, "history", "{}");
        assert_eq!(
            history.structured(),
            Some(
                [
                    r#"{"entries":["#,
                    expected,
                    r#",{"amount":0.5,"from":"EUR","to":"EUR","rate":1.0,"result":0.5,"date":"2026-12-01"}]}"#
                ]
                .concat()
                .as_str()
            )
        );
        let last = testing::call(&PACKAGE, "history", r#"{"limit": 1}"#);
        assert!(last.structured().unwrap().starts_with(r#"{"entries":[{"amount":0.5,"#), "{}", last.line());
        subako_tiny::fs::unmount("/volume/tmp");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_status_that_is_not_2xx_names_it_and_the_url() {
        let called = convert(r#"{"amount": 1, "from": "EUR", "to": "USD", "api": "https://h"}"#, 503, "busy");
        assert_eq!(error(&called), "GET https://h/latest?base=EUR answered 503: busy");
    }

    #[test]
    fn a_body_that_is_not_json_is_an_error() {
        let arguments = r#"{"amount": 1, "from": "EUR", "to": "USD", "api": "https://h"}"#;
        for (body, message) in [
            (
                "<html>oops</html>",
                "the response body (status 200) is not JSON (expected value at byte 0): <html>oops</html>",
            ),
            (
                r#"{"rates": "#,
                r#"the response body (status 200) is not JSON (EOF while parsing a value at byte 10): {"rates": "#,
            ),
            ("[1, 2]", r#"no rate for "USD" in the answer from https://h/latest?base=EUR"#),
            (
                r#"{"base": "EUR", "rates": [1.05]}"#,
                r#"no rate for "USD" in the answer from https://h/latest?base=EUR"#,
            ),
        ] {
            assert_eq!(error(&convert(arguments, 200, body)), message, "{body}");
        }
    }

    #[test]
    fn a_currency_missing_from_the_answer_is_named() {
        let called = convert(r#"{"amount": 1, "from": "EUR", "to": "XYZ"}"#, 200, LATEST);
        assert_eq!(
            error(&called),
            r#"no rate for "XYZ" in the answer from https://api.frankfurter.app/latest?base=EUR"#
        );
        let called = convert(r#"{"amount": 1, "from": "EUR", "to": "USD"}"#, 200, r#"{"rates": {"USD": "1.05"}}"#);
        assert_eq!(
            error(&called),
            r#"no rate for "USD" in the answer from https://api.frankfurter.app/latest?base=EUR"#
        );
    }

    /// A result beyond f64 is refused, not written as the `null` its schema
    /// forbids (and not recorded).
    #[test]
    fn a_result_beyond_a_number_is_an_error() {
        let dir = volume("huge");
        let called = convert(r#"{"amount": 1e12, "from": "EUR", "to": "USD"}"#, 200, r#"{"rates": {"USD": 1e300}}"#);
        assert_eq!(
            error(&called),
            "1000000000000.0 EUR at 1e+300 is beyond what a number holds: convert a smaller amount"
        );
        assert!(!dir.join("rates/history.jsonl").exists());
        subako_tiny::fs::unmount("/volume/tmp");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_input_is_refused_before_any_request() {
        let cases = [
            (
                r#"{"amount": 1, "from": "EUR", "to": "USD", "extra": 1}"#,
                "invalid input: unknown field `extra`, expected one of `amount`, `from`, `to`, `api`",
            ),
            (r#"{"from": "EUR", "to": "USD"}"#, "invalid input: missing field `amount`"),
            (
                r#"{"amount": 0, "from": "EUR", "to": "USD"}"#,
                "invalid input: `amount` must be a number above 0 and at most 1000000000000",
            ),
            (
                r#"{"amount": 1e13, "from": "EUR", "to": "USD"}"#,
                "invalid input: `amount` must be a number above 0 and at most 1000000000000",
            ),
            (r#"{"amount": "1", "from": "EUR", "to": "USD"}"#, "invalid input: `amount` must be a number"),
            (
                r#"{"amount": 1, "from": "eur", "to": "USD"}"#,
                "invalid input: `from` must be three uppercase letters, such as EUR",
            ),
            (
                r#"{"amount": 1, "from": "EUR", "to": "US"}"#,
                "invalid input: `to` must be three uppercase letters, such as EUR",
            ),
            (r#"{"amount": 1, "from": "EUR", "to": "USD", "api": 7}"#, "invalid input: `api` must be a string"),
        ];
        for (arguments, message) in cases {
            let called = testing::call_with_http(&PACKAGE, "convert", arguments, |_| panic!("no request expected"));
            assert_eq!(error(&called), message, "{arguments}");
        }
        assert_eq!(
            error(&testing::call(&PACKAGE, "history", r#"{"limit": 0}"#)),
            "invalid input: `limit` must be an integer from 1 to 100"
        );
        assert_eq!(
            error(&testing::call(&PACKAGE, "history", r#"{"n": 1}"#)),
            "invalid input: unknown field `n`, expected `limit`"
        );
    }

    #[test]
    fn http_failures_are_the_crates_errors() {
        let called =
            testing::call_with_http(&PACKAGE, "convert", r#"{"amount": 1, "from": "EUR", "to": "USD"}"#, |_| {
                Err(HttpErrorKind::HostNotAllowed.into())
            });
        assert_eq!(
            error(&called),
            "HTTP request failed (host_not_allowed): GET https://api.frankfurter.app/latest?base=EUR: the HTTP hook \
             answered host_not_allowed"
        );
    }

    #[test]
    fn history_is_empty_before_any_conversion_and_a_write_error_is_readable() {
        let dir = volume("history");
        assert_eq!(testing::call(&PACKAGE, "history", "{}").structured(), Some(r#"{"entries":[]}"#));
        // A cut-short line (a full volume) is skipped; limit counts back from the latest.
        let lines: String = (1..=12).map(|i| format!("{{\"amount\":{i}}}\n")).collect();
        std::fs::create_dir_all(dir.join("rates")).unwrap();
        std::fs::write(dir.join("rates/history.jsonl"), lines + "{\"amount\":1").unwrap();
        let called = testing::call(&PACKAGE, "history", "{}");
        let ten: Vec<String> = (3..=12).map(|i| format!("{{\"amount\":{i}}}")).collect();
        assert_eq!(called.structured().unwrap(), format!("{{\"entries\":[{}]}}", ten.join(",")));
        // Lines that are JSON but no object (another tool's) are left out:
        // `entries` holds objects (review 66: `5` went out, against the
        // tool's own output schema).
        let lines = "{\"amount\":1}\n5\n[{\"amount\":2}]\n\"x\"\n{\"amount\":3}\n{\"amount\":4}\nnull\n";
        std::fs::write(dir.join("rates/history.jsonl"), lines).unwrap();
        let called = testing::call(&PACKAGE, "history", "{}");
        assert_eq!(called.structured().unwrap(), r#"{"entries":[{"amount":1},{"amount":3},{"amount":4}]}"#);
        // `limit` counts the objects alone (review 68: the last two lines
        // counted and then left out gave no entry).
        let called = testing::call(&PACKAGE, "history", r#"{"limit": 2}"#);
        assert_eq!(called.structured().unwrap(), r#"{"entries":[{"amount":3},{"amount":4}]}"#);
        // Lines a strict reader refuses are left out too: copied in, they
        // made the whole history an error (review 66).
        let lines = "{\"amount\":1}\n{\"amount\":2,\"amount\":3}\n{\"amount\":1e400}\n{\"amount\":4}\n";
        // And one nested so deep that, two levels down in the reply, the
        // reply would be too deep (review 72).
        let deep = format!("{}1{}\n", "{\"a\":".repeat(124), "}".repeat(124));
        let lines = [lines, &deep].concat();
        std::fs::write(dir.join("rates/history.jsonl"), lines).unwrap();
        let called = testing::call(&PACKAGE, "history", "{}");
        assert_eq!(called.structured().unwrap(), r#"{"entries":[{"amount":1},{"amount":4}]}"#);
        // Where the directory should be, a file: the write fails, readably.
        std::fs::remove_dir_all(dir.join("rates")).unwrap();
        std::fs::write(dir.join("rates"), "not a directory").unwrap();
        let called = convert(r#"{"amount": 1, "from": "EUR", "to": "USD"}"#, 200, LATEST);
        let message = error(&called);
        assert!(
            message.starts_with(
                "1.0 EUR = 1.0512 USD, but the history could not be written: create directory /volume/tmp/rates: "
            ),
            "{message}"
        );
        assert!(error(&testing::call(&PACKAGE, "history", "{}")).starts_with("read /volume/tmp/rates/history.jsonl: "));
        subako_tiny::fs::unmount("/volume/tmp");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
