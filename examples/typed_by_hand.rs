//! The `typed` package with plain accessors and no schema validation: the
//! rules the schema states are checked by hand in `order_total`. Beside
//! `examples/typed.rs` (the same tool with `validated!`), it shows what the
//! validator costs in bytes and what it saves in code.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

use subako_tiny::{Args, Package, Reply, Tool, ToolError};

#[path = "typed/order.rs"]
mod order;

use order::{ORDER_TOTAL_INPUT, ORDER_TOTAL_OUTPUT, discount, to_minor_unit};

fn order_total(args: &Args<'_>) -> Result<Reply, ToolError> {
    let currency = args.choice("currency", &["EUR", "USD", "JPY"])?;
    let discount = discount(args.opt_str("coupon")?.as_deref())?;
    let items = args.array("items")?;
    if !(1..=100).contains(&items.len()) {
        return Err(ToolError::invalid_input("`items` must hold 1 to 100 lines"));
    }
    let mut sum = 0.0;
    let mut lines = 0;
    for item in items.iter() {
        let item = item
            .as_object()
            .map(Args::new)
            .ok_or_else(|| ToolError::invalid_input("each of `items` must be an object"))?;
        item.str_chars("sku", 1, 32)?;
        let unit_price = item.float("unit_price")?;
        if unit_price < 0.0 {
            return Err(ToolError::invalid_input("`unit_price` must be at least 0"));
        }
        sum += item.int("qty", 1, 1000)? as f64 * unit_price;
        lines += 1;
    }
    let total = to_minor_unit(sum * discount, currency)?;
    Ok(Reply::object(|o| o.field("currency", currency).field("lines", lines).field("total", total)))
}

pub const PACKAGE: Package = Package::new(
    "typed",
    env!("CARGO_PKG_VERSION"),
    "Prices orders.",
    &[Tool::new(
        "order_total",
        "Total an order: sum of qty × unit_price, 10 % off with coupon SAVE10, rounded to the currency's minor unit.",
        ORDER_TOTAL_INPUT,
        order_total,
    )
    .output_schema(ORDER_TOTAL_OUTPUT)],
);

subako_tiny::main!(PACKAGE);
