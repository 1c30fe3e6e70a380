//! Typed access to a call's arguments. Every failure is a [`ToolError`]
//! starting `invalid input` and naming the field, which the model reads.

use alloc::borrow::Cow;

use crate::json::{Array, Kind, Object, Value};
use crate::reply::ToolError;

/// A JSON object of arguments: a call's own, or one nested inside them.
/// It borrows the request line; nothing is copied until asked for.
#[derive(Clone, Copy, Debug)]
pub struct Args<'a> {
    object: Option<Object<'a>>,
}

/// `"invalid input: `field` must be WHAT"`.
pub fn must_be(field: &str, what: &str) -> ToolError {
    ToolError::four("invalid input: `", field, "` must be ", what)
}

fn missing(field: &str) -> ToolError {
    ToolError::four("invalid input: missing field `", field, "`", "")
}

impl<'a> Args<'a> {
    /// Arguments from an object.
    pub fn new(object: Object<'a>) -> Args<'a> {
        Args { object: Some(object) }
    }

    /// No arguments at all, as a call without `arguments` has.
    pub const fn empty() -> Args<'static> {
        Args { object: None }
    }

    /// The arguments as one JSON object, if the call sent any.
    pub fn object(&self) -> Option<Object<'a>> {
        self.object
    }

    /// The raw value of `field`; `None` when absent or `null` (as serde
    /// reads an `Option`).
    pub fn value(&self, field: &str) -> Option<Value<'a>> {
        self.object?.get(field).filter(|v| !v.is_null())
    }

    fn required(&self, field: &str) -> Result<Value<'a>, ToolError> {
        match self.object.and_then(|o| o.get(field)) {
            Some(v) => Ok(v),
            None => Err(missing(field)),
        }
    }

    pub fn str(&self, field: &str) -> Result<Cow<'a, str>, ToolError> {
        let v = self.required(field)?;
        v.as_str().map(|s| s.to_str()).ok_or_else(|| must_be(field, Kind::String.article_name()))
    }

    pub fn opt_str(&self, field: &str) -> Result<Option<Cow<'a, str>>, ToolError> {
        self.value(field).map(|_| self.str(field)).transpose()
    }

    /// An integer from `min` to `max`, inclusive.
    pub fn int(&self, field: &str, min: i64, max: i64) -> Result<i64, ToolError> {
        let v = self.required(field)?;
        int_in(&v, field, min, max)
    }

    pub fn opt_int(&self, field: &str, min: i64, max: i64) -> Result<Option<i64>, ToolError> {
        self.value(field).map(|v| int_in(&v, field, min, max)).transpose()
    }

    /// Any number, as the nearest `f64`.
    pub fn float(&self, field: &str) -> Result<f64, ToolError> {
        let v = self.required(field)?;
        v.as_f64().ok_or_else(|| must_be(field, Kind::Number.article_name()))
    }

    pub fn opt_float(&self, field: &str) -> Result<Option<f64>, ToolError> {
        self.value(field).map(|_| self.float(field)).transpose()
    }

    pub fn bool(&self, field: &str) -> Result<bool, ToolError> {
        let v = self.required(field)?;
        v.as_bool().ok_or_else(|| must_be(field, Kind::Bool.article_name()))
    }

    pub fn opt_bool(&self, field: &str) -> Result<Option<bool>, ToolError> {
        self.value(field).map(|_| self.bool(field)).transpose()
    }

    /// A nested object, read with the same accessors.
    pub fn nested(&self, field: &str) -> Result<Args<'a>, ToolError> {
        let v = self.required(field)?;
        v.as_object().map(Args::new).ok_or_else(|| must_be(field, Kind::Object.article_name()))
    }

    pub fn opt_nested(&self, field: &str) -> Result<Option<Args<'a>>, ToolError> {
        self.value(field).map(|_| self.nested(field)).transpose()
    }

    pub fn array(&self, field: &str) -> Result<Array<'a>, ToolError> {
        let v = self.required(field)?;
        v.as_array().ok_or_else(|| must_be(field, Kind::Array.article_name()))
    }

    pub fn opt_array(&self, field: &str) -> Result<Option<Array<'a>>, ToolError> {
        self.value(field).map(|_| self.array(field)).transpose()
    }
}

fn int_in(v: &Value<'_>, field: &str, min: i64, max: i64) -> Result<i64, ToolError> {
    match v.as_i64() {
        Some(n) if n >= min && n <= max => Ok(n),
        _ => {
            let mut range = alloc::vec::Vec::new();
            crate::json::write::put(&mut range, b"an integer from ");
            crate::json::num::write_i64(&mut range, min);
            crate::json::write::put(&mut range, b" to ");
            crate::json::num::write_i64(&mut range, max);
            // SAFETY: ASCII words and digits.
            let range = unsafe { crate::sys::validated_string(range) };
            Err(must_be(field, &range))
        }
    }
}
