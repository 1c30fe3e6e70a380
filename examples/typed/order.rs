//! What both `typed` examples share: the tool's hand-written schemas and
//! its pricing rules, so the two differ only in how they read arguments.
//! (A module file, not an example: it sits in a subfolder of `examples/`.)

use subako_tiny::ToolError;

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
        "coupon": {"description": "A coupon code: SAVE10 takes 10 % off. null means none.", "type": ["string", "null"]}
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

/// What the total is multiplied by: 0.9 with coupon SAVE10.
pub fn discount(coupon: Option<&str>) -> Result<f64, ToolError> {
    match coupon {
        None => Ok(1.0),
        Some("SAVE10") => Ok(0.9),
        Some(other) => Err(ToolError::from(subako_tiny::text!("unknown coupon: ", other))),
    }
}

/// `amount` rounded to the currency's minor unit (none for JPY, cents
/// otherwise), half away from zero.
pub fn to_minor_unit(amount: f64, currency: &str) -> Result<f64, ToolError> {
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
