//! Currency conversion and its history written with the official SDK, for
//! size comparison with subako-tiny's own rates example.

use std::io::Write;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use subako_function_sdk::http::{self, Request, ResponseBody};
use subako_function_sdk::{ToolError, function, package};

const DEFAULT_API: &str = "https://api.frankfurter.app";
const DIR: &str = "/volume/tmp/rates";
const HISTORY: &str = "/volume/tmp/rates/history.jsonl";

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ConvertInput {
    /// How much of `from` to convert.
    #[schemars(range(max = 1e12), extend("exclusiveMinimum" = 0))]
    amount: f64,
    /// The currency to convert from: an ISO 4217 code such as EUR.
    #[schemars(regex(pattern = "^[A-Z]{3}$"))]
    from: String,
    /// The currency to convert to: an ISO 4217 code such as USD.
    #[schemars(regex(pattern = "^[A-Z]{3}$"))]
    to: String,
    /// The rates API's base URL (default https://api.frankfurter.app); the host must be one the function's network setting allows.
    api: Option<String>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
struct Conversion {
    amount: f64,
    from: String,
    to: String,
    /// How many `to` one `from` buys.
    rate: f64,
    /// amount × rate.
    result: f64,
    /// The day the rate is for, as the API gives it.
    date: String,
}

#[derive(Deserialize)]
struct Latest {
    rates: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(default)]
    date: String,
}

fn currency(field: &str, code: &str) -> Result<(), ToolError> {
    if code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase()) {
        Ok(())
    } else {
        Err(ToolError::new(format!("invalid input: `{field}` must be three uppercase letters, such as EUR")))
    }
}

/// Convert an amount from one currency to another at the latest rate, and add it to the history.
#[function]
fn convert(input: ConvertInput) -> Result<Conversion, ToolError> {
    if !(input.amount > 0.0 && input.amount <= 1e12) {
        return Err(ToolError::new("invalid input: `amount` must be a number above 0 and at most 1000000000000"));
    }
    currency("from", &input.from)?;
    currency("to", &input.to)?;
    let api = input.api.as_deref().unwrap_or(DEFAULT_API);
    let url = format!("{}/latest?base={}", api.trim_end_matches('/'), input.from);
    let mut request = Request::get(url.clone());
    request.headers.insert("accept".into(), "application/json".into());
    request.timeout_ms = Some(10_000);
    let response = http::request(&request)?;
    if !(200..300).contains(&response.status) {
        return Err(ToolError::new(format!("rates API answered {} for {url}", response.status)));
    }
    let text = match &response.body {
        ResponseBody::Inline { text } => text.as_str(),
        ResponseBody::File { .. } => "",
    };
    let latest: Latest = serde_json::from_str(text).map_err(|_| {
        ToolError::new(format!("rates API answered something that is not a JSON object for {url}"))
    })?;
    let rates = latest.rates.ok_or_else(|| ToolError::new(format!("no `rates` object in the answer for {url}")))?;
    let rate = match rates.get(&input.to).and_then(|v| v.as_f64()) {
        Some(rate) if rate.is_finite() && rate > 0.0 => rate,
        None if input.from == input.to => 1.0,
        _ => return Err(ToolError::new(format!("no rate for \"{}\" in the answer", input.to))),
    };
    let conversion = Conversion {
        amount: input.amount,
        from: input.from,
        to: input.to,
        rate,
        result: input.amount * rate,
        date: latest.date,
    };
    let mut line = serde_json::to_vec(&conversion).map_err(|e| ToolError::new(e.to_string()))?;
    line.push(b'\n');
    let written = std::fs::create_dir_all(DIR).and_then(|()| {
        std::fs::OpenOptions::new().create(true).append(true).open(HISTORY)?.write_all(&line)
    });
    written.map_err(|e| {
        ToolError::new(format!(
            "{} {} = {} {}, but the history could not be written: append {HISTORY}: {e}",
            conversion.amount, conversion.from, conversion.result, conversion.to
        ))
    })?;
    Ok(conversion)
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct HistoryInput {
    /// How many conversions, counting back from the latest (default 10).
    #[schemars(range(min = 1, max = 100))]
    limit: Option<u32>,
}

#[derive(Serialize, JsonSchema)]
struct History {
    /// What `convert` answered, one entry per conversion.
    entries: Vec<Conversion>,
}

/// The session's latest conversions, oldest first.
#[function]
fn history(input: HistoryInput) -> Result<History, ToolError> {
    let limit = input.limit.unwrap_or(10);
    if !(1..=100).contains(&limit) {
        return Err(ToolError::new("invalid input: `limit` must be an integer from 1 to 100"));
    }
    let text = match std::fs::read_to_string(HISTORY) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(ToolError::new(format!("read {HISTORY}: {e}"))),
    };
    // Whole JSON lines only: a write cut short by a full volume is skipped.
    let entries: Vec<Conversion> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let skip = entries.len().saturating_sub(limit as usize);
    Ok(History { entries: entries.into_iter().skip(skip).collect() })
}

package! {
    name: "rates",
    description: "Converts currencies at the day's rates, and remembers the conversions of the session.",
    functions: [convert, history],
}
