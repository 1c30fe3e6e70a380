//! The `typed` package with miniserde structs (feature `miniserde`, and
//! miniserde through the crate's re-export: no dependency of its own):
//! `typed!` reads the arguments into `Order` and writes `Total` back.
//! The types and the required fields are checked as they are read (a
//! refused value named by its pointer: `/items/0/qty cannot be the string
//! "3"`); the ranges the schema states are checked here, worded as
//! `validated!` words them. `examples/typed.rs` is the same package with
//! plain accessors.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

use subako_tiny::typed::miniserde::{self, Deserialize, Serialize};
use subako_tiny::{Package, Tool, ToolError};

#[path = "typed/order.rs"]
mod order;

use order::discount;
pub use order::{ORDER_TOTAL_INPUT, ORDER_TOTAL_OUTPUT};

#[derive(Deserialize)]
struct Order {
    items: Vec<Item>,
    currency: Currency,
    coupon: Option<String>,
}

#[derive(Deserialize)]
struct Item {
    sku: String,
    // Signed, so that a negative count reaches the range check below.
    qty: i64,
    unit_price: f64,
}

#[derive(Deserialize, Serialize, Clone, Copy, PartialEq, Eq)]
enum Currency {
    #[serde(rename = "EUR")]
    Eur,
    #[serde(rename = "USD")]
    Usd,
    #[serde(rename = "JPY")]
    Jpy,
}

#[derive(Serialize)]
struct Total {
    currency: Currency,
    lines: u64,
    total: f64,
}

fn order_total(order: Order) -> Result<Total, ToolError> {
    check_ranges(&order)?;
    let discount = discount(order.coupon.as_deref())?;
    let sum = order.items.iter().fold(0.0, |sum, item| sum + item.qty as f64 * item.unit_price);
    let total = to_minor_unit(sum * discount, order.currency)?;
    Ok(Total { currency: order.currency, lines: order.items.len() as u64, total })
}

/// What the schema says beyond types, in the order `validated!` checks it.
fn check_ranges(order: &Order) -> Result<(), ToolError> {
    match order.items.len() {
        0 => return Err(ToolError::invalid_input("/items must have at least 1 item")),
        101.. => return Err(ToolError::invalid_input("/items must have at most 100 items")),
        _ => {}
    }
    for (index, item) in order.items.iter().enumerate() {
        let at = |field: &str, rule: &str| ToolError::invalid_input(("/items/", index, "/", field, rule));
        match subako_tiny::chars::count(&item.sku) {
            0 => return Err(at("sku", " must be at least 1 character long")),
            33.. => return Err(at("sku", " must be at most 32 characters long")),
            _ => {}
        }
        match item.qty {
            ..1 => return Err(at("qty", " must be at least 1")),
            1001.. => return Err(at("qty", " must be at most 1000")),
            _ => {}
        }
        if item.unit_price < 0.0 {
            return Err(at("unit_price", " must be at least 0"));
        }
    }
    Ok(())
}

/// `amount` rounded to the currency's minor unit (none for JPY, cents
/// otherwise), half away from zero.
fn to_minor_unit(amount: f64, currency: Currency) -> Result<f64, ToolError> {
    order::to_minor_unit(amount, if currency == Currency::Jpy { "JPY" } else { "" })
}

pub const PACKAGE: Package = Package::new(
    "typed",
    env!("CARGO_PKG_VERSION"),
    "Prices orders.",
    &[Tool::new(
        "order_total",
        "Total an order: sum of qty × unit_price, 10 % off with coupon SAVE10, rounded to the currency's minor unit.",
        ORDER_TOTAL_INPUT,
        subako_tiny::typed!(order_total),
    )
    .output_schema(ORDER_TOTAL_OUTPUT)],
);

subako_tiny::main!(PACKAGE);
