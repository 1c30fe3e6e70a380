//! The `typed` package with plain accessors: `validated!` checks the
//! arguments against the hand-written schema before `order_total` runs, so
//! the tool reads fields it knows are there and in range.
//! `examples/typed_serde.rs` is the same package with miniserde structs.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

use subako_tiny::{Args, Package, Reply, Tool, ToolError};

#[path = "typed/order.rs"]
mod order;

pub use order::{ORDER_TOTAL_INPUT, ORDER_TOTAL_OUTPUT};
use order::{discount, to_minor_unit};

fn order_total(args: &Args<'_>) -> Result<Reply, ToolError> {
    // `validated!` has checked every field read here; the accessors'
    // own checks only restate it.
    let currency = args.str("currency")?;
    let discount = discount(args.opt_str("coupon")?.as_deref())?;
    let mut sum = 0.0;
    let mut lines = 0;
    for item in args.array("items")?.iter() {
        let item = item
            .as_object()
            .map(Args::new)
            .ok_or_else(|| ToolError::invalid_input("/items: each line must be an object"))?;
        sum += item.int("qty", 1, 1000)? as f64 * item.float("unit_price")?;
        lines += 1;
    }
    let total = to_minor_unit(sum * discount, &currency)?;
    Ok(Reply::object(|o| o.field("currency", &*currency).field("lines", lines).field("total", total)))
}

pub const PACKAGE: Package = Package::new(
    "typed",
    env!("CARGO_PKG_VERSION"),
    "Prices orders.",
    &[subako_tiny::validated!(Tool::new(
        "order_total",
        "Total an order: sum of qty × unit_price, 10 % off with coupon SAVE10, rounded to the currency's minor unit.",
        ORDER_TOTAL_INPUT,
        order_total,
    )
    .output_schema(ORDER_TOTAL_OUTPUT))],
);

subako_tiny::main!(PACKAGE);
