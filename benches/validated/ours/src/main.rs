//! `count`: the characters of `text`, behind `validated!` (object keywords
//! and string bounds); `total`: an order of up to a hundred lines, each an
//! object, behind `validated!` with a described schema. benches/validated.sh
//! runs both beside the same tools on the official SDK (`../official`).
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

use subako_tiny::{Args, Package, Reply, Tool, ToolError, chars};

const INPUT: &str = r#"{"type":"object","properties":{"text":{"type":"string","minLength":1,"maxLength":1000000}},"required":["text"],"additionalProperties":false}"#;

/// `examples/typed`'s order: its schema, with descriptions as authors
/// write them for the model, and its pricing.
#[path = "../../../../examples/typed/order.rs"]
mod order;

fn total(args: &Args<'_>) -> Result<Reply, ToolError> {
    let discount = order::discount(args.opt_str("coupon")?.as_deref())?;
    let mut sum = 0.0;
    let mut lines = 0u64;
    for item in args.array("items")?.iter() {
        let item = item.as_object().map(Args::new).ok_or_else(|| ToolError::invalid_input("a line is not an object"))?;
        sum += item.int("qty", 1, 1000)? as f64 * item.float("unit_price")?;
        lines += 1;
    }
    let currency = args.str("currency")?;
    let total = order::to_minor_unit(sum * discount, &currency)?;
    Ok(Reply::object(|o| o.field("currency", &*currency).field("lines", lines).field("total", total)))
}

fn count(args: &Args<'_>) -> Result<Reply, ToolError> {
    let text = args.str("text")?;
    let n = chars::count(&text) as u64;
    Ok(Reply::object(|o| o.field("chars", n)))
}

pub const PACKAGE: Package = Package::new(
    "validated-count",
    "0.1.0",
    "Counts characters.",
    &[
        subako_tiny::validated!(Tool::new("count", "Count the characters of text.", INPUT, count)),
        subako_tiny::validated!(Tool::new("total", "Total an order.", order::ORDER_TOTAL_INPUT, total)),
    ],
);

subako_tiny::main!(PACKAGE);
