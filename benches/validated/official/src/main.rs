//! The official SDK's `count` and `total`: ../ours on the official SDK.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use subako_function_sdk::{ToolError, function, package};

#[derive(Deserialize, JsonSchema)]
struct CountInput {
    /// The text to count.
    #[schemars(length(min = 1, max = 1000000))]
    text: String,
}

#[derive(Serialize, JsonSchema)]
struct Counted {
    chars: u64,
}

/// A line of an order.
#[derive(Deserialize, JsonSchema)]
struct Line {
    /// The article's stock-keeping unit.
    #[schemars(length(min = 1, max = 32))]
    sku: String,
    /// How many.
    #[schemars(range(min = 1, max = 1000))]
    qty: u32,
    /// The price of one, in the order's currency.
    #[schemars(range(min = 0.0))]
    unit_price: f64,
}

#[derive(Deserialize, JsonSchema)]
enum Currency {
    EUR,
    USD,
    JPY,
}

#[derive(Deserialize, JsonSchema)]
struct OrderInput {
    /// The order's lines.
    #[schemars(length(min = 1, max = 100))]
    items: Vec<Line>,
    /// ISO 4217 code.
    currency: Currency,
    /// A coupon code: SAVE10 takes 10 % off. null means none.
    coupon: Option<String>,
}

#[derive(Serialize, JsonSchema)]
struct Total {
    currency: &'static str,
    lines: u64,
    total: f64,
}

/// Total an order.
#[function]
fn total(input: OrderInput) -> Result<Total, ToolError> {
    if input.items.iter().any(|line| line.sku.is_empty()) {
        return Err(ToolError::new("a line has no sku"));
    }
    let discount = match input.coupon.as_deref() {
        None => 1.0,
        Some("SAVE10") => 0.9,
        Some(other) => return Err(ToolError::new(format!("unknown coupon: {other}"))),
    };
    let sum: f64 = input.items.iter().map(|line| line.qty as f64 * line.unit_price).sum();
    let scale = if matches!(input.currency, Currency::JPY) { 1.0 } else { 100.0 };
    let total = (sum * discount * scale).round() / scale;
    let currency = match input.currency {
        Currency::EUR => "EUR",
        Currency::USD => "USD",
        Currency::JPY => "JPY",
    };
    Ok(Total { currency, lines: input.items.len() as u64, total })
}

/// Count the characters of text.
#[function]
fn count(input: CountInput) -> Result<Counted, ToolError> {
    Ok(Counted { chars: input.text.chars().count() as u64 })
}

package! {
    name: "validated-count",
    description: "Counts characters.",
    functions: [count, total],
}
