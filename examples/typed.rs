//! The `typed` package with plain accessors: `validated!` checks the
//! arguments against the hand-written schema before `order_total` runs, so
//! the tool reads fields it knows are there and in range.
//! `examples/typed_serde.rs` is the same package with miniserde structs.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]

use subako_tiny::{Args, JsonWriter, Package, Reply, Tool, ToolError};

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

fn order_total(args: &Args<'_>) -> Result<Reply, ToolError> {
    // `validated!` has checked every field read here; the accessors'
    // own checks only restate it.
    let currency = args.str("currency")?;
    let discount = discount(args.opt_str("coupon")?.as_deref())?;
    let mut sum = 0.0;
    let mut lines = 0;
    for item in args.array("items")?.iter() {
        let item = item.as_object().map(Args::new).ok_or_else(|| ToolError::invalid_input(&["/items: each line must be an object"]))?;
        sum += item.int("qty", 1, 1000)? as f64 * item.float("unit_price")?;
        lines += 1;
    }
    let total = to_minor_unit(sum * discount, &currency)?;
    let mut out = JsonWriter::new();
    out.begin_object().key("currency").string(&currency).key("lines").uint(lines).key("total").float(total).end_object();
    Ok(Reply::json(out))
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
fn to_minor_unit(amount: f64, currency: &str) -> Result<f64, ToolError> {
    let scale = if currency == "JPY" { 1.0 } else { 100.0 };
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
        run: subako_tiny::validated!(ORDER_TOTAL_INPUT, order_total),
    }],
);

subako_tiny::main!(PACKAGE);
