//! The `typed` package with miniserde structs (feature `miniserde`):
//! `typed!` reads the arguments into `Order` and writes `Total` back.
//! miniserde checks the types and the required fields; the ranges the
//! schema states are checked here, worded as `validated!` words them.
//! `examples/typed.rs` is the same package with plain accessors.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;

use miniserde::{Deserialize, Serialize};
use subako_tiny::json::num::u64_digits;
use subako_tiny::{Package, Tool, ToolError};

pub const ORDER_TOTAL_INPUT: &str = r#"{
    "type": "object",
    "properties": {
        "items": {
            "description": "The order's lines.",
            "type": "array",
            "minItems": 1,
            "maxItems": 100,
            "items": {
                "type": "object",
                "properties": {
                    "sku": {"description": "The article's stock-keeping unit.", "type": "string", "minLength": 1, "maxLength": 32},
                    "qty": {"description": "How many.", "type": "integer", "minimum": 1, "maximum": 1000},
                    "unit_price": {"description": "The price of one, in the order's currency.", "type": "number", "minimum": 0}
                },
                "required": ["sku", "qty", "unit_price"]
            }
        },
        "currency": {"description": "ISO 4217 code.", "type": "string", "enum": ["EUR", "USD", "JPY"]},
        "coupon": {"description": "A coupon code: SAVE10 takes 10 % off.", "type": "string"}
    },
    "required": ["items", "currency"]
}"#;

pub const ORDER_TOTAL_OUTPUT: &str = r#"{
    "type": "object",
    "properties": {
        "currency": {"type": "string"},
        "lines": {"description": "How many lines the order has.", "type": "integer"},
        "total": {"description": "In the currency, rounded to its minor unit.", "type": "number"}
    },
    "required": ["currency", "lines", "total"]
}"#;

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
        0 => return Err(ToolError::invalid_input(&["/items must have at least 1 item"])),
        101.. => return Err(ToolError::invalid_input(&["/items must have at most 100 items"])),
        _ => {}
    }
    for (index, item) in order.items.iter().enumerate() {
        let at = |field: &str, rule: &str| {
            let mut digits = [0; 20];
            let index = u64_digits(index as u64, &mut digits);
            // ASCII digits are one char each.
            let index: String = index.iter().map(|&d| d as char).collect();
            ToolError::invalid_input(&["/items/", &index, "/", field, rule])
        };
        match item.sku.chars().count() {
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

/// What the total is multiplied by: 0.9 with coupon SAVE10.
fn discount(coupon: Option<&str>) -> Result<f64, ToolError> {
    match coupon {
        None => Ok(1.0),
        Some("SAVE10") => Ok(0.9),
        Some(other) => Err(ToolError::from_parts(&["unknown coupon: ", other])),
    }
}

/// `amount` rounded to the currency's minor unit (none for JPY, cents
/// otherwise), half away from zero.
fn to_minor_unit(amount: f64, currency: Currency) -> Result<f64, ToolError> {
    let scale = if currency == Currency::Jpy { 1.0 } else { 100.0 };
    let total = round_half_away(amount * scale) / scale;
    if total.is_finite() { Ok(total) } else { Err(ToolError::new("the total is too large")) }
}

/// `f64::round`, which lives in std: half away from zero.
fn round_half_away(x: f64) -> f64 {
    // From 2^52 on, every f64 is a whole number.
    if x.is_nan() || x.abs() >= 4_503_599_627_370_496.0 {
        return x;
    }
    let whole = x as i64 as f64;
    let fraction = x - whole;
    if fraction >= 0.5 {
        whole + 1.0
    } else if fraction <= -0.5 {
        whole - 1.0
    } else {
        whole
    }
}

pub const PACKAGE: Package = Package::new(
    "typed",
    env!("CARGO_PKG_VERSION"),
    "Prices orders.",
    &[Tool {
        name: "order_total",
        description: "Total an order: sum of qty × unit_price, 10 % off with coupon SAVE10, rounded to the currency's minor unit.",
        input_schema: ORDER_TOTAL_INPUT,
        output_schema: Some(ORDER_TOTAL_OUTPUT),
        run: subako_tiny::typed!(order_total),
    }],
);

subako_tiny::main!(PACKAGE);
