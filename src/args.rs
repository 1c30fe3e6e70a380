//! Typed access to a call's arguments. Every failure is a [`ToolError`]
//! starting `invalid input` and naming the field, which the model reads.

use alloc::borrow::Cow;

use crate::json::lookup::members;
use crate::json::validator::KnownEnds;
use crate::json::{Array, Kind, Object, Value};
use crate::reply::ToolError;
use crate::text::concat;

/// A JSON object of arguments: a call's own, or one nested inside them.
/// It borrows the request line; nothing is copied until asked for.
#[derive(Clone, Copy, Debug)]
pub struct Args<'a> {
    object: Option<Object<'a>>,
    /// What validating the request line learned of where its values end.
    ends: Option<&'a KnownEnds>,
}

/// `"invalid input: `field` must be MIN to MAX characters long"`, an open
/// end left unsaid.
fn length_error(field: &str, min: usize, max: usize) -> ToolError {
    let mut text = crate::text!("invalid input: `", field, "` must be ");
    if max == usize::MAX {
        text.push("at least ").push(&min);
    } else if min == 0 {
        text.push("at most ").push(&max);
    } else {
        text.push(&min).push(" to ").push(&max);
    }
    text.push(if max == 1 || (max == usize::MAX && min == 1) { " character long" } else { " characters long" });
    text.into()
}

/// The strings of an array argument, unescaped (borrowed where they have no
/// escapes): what [`Args::strs`] checked and hands out.
#[derive(Clone, Debug)]
pub struct Strs<'a> {
    items: crate::json::Elements<'a>,
    len: usize,
}

impl<'a> Iterator for Strs<'a> {
    type Item = Cow<'a, str>;

    fn next(&mut self) -> Option<Cow<'a, str>> {
        let item = self.items.next()?;
        self.len -= 1;
        item.as_str().map(|s| s.to_str())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len, Some(self.len))
    }
}

impl ExactSizeIterator for Strs<'_> {}

/// `"invalid input: `field` must be WHAT"`.
#[deprecated(note = "use `ToolError::invalid_input((\"`\", field, \"` must be \", what))`")]
#[doc(hidden)]
pub fn must_be(field: &str, what: &str) -> ToolError {
    wrong(field, what)
}

/// `"invalid input: `field` must be WHAT"`.
#[inline(never)]
pub(crate) fn wrong(field: &str, what: &str) -> ToolError {
    ToolError::from(concat("invalid input: `", field, "` must be ", what))
}

fn missing(field: &str) -> ToolError {
    ToolError::from(concat("invalid input: missing field `", field, "`", ""))
}

impl<'a> Args<'a> {
    /// Arguments from an object.
    pub fn new(object: Object<'a>) -> Args<'a> {
        Args { object: Some(object), ends: None }
    }

    /// The arguments of a request line, with where its validation saw
    /// values end: a member's value found there is skipped without reading
    /// it again.
    pub(crate) fn of_request(object: Object<'a>, ends: &'a KnownEnds) -> Args<'a> {
        Args { object: Some(object), ends: Some(ends) }
    }

    /// Where the request's validation saw values end, if these are a
    /// request's arguments.
    pub(crate) fn ends(&self) -> Option<&'a KnownEnds> {
        self.ends
    }

    /// No arguments at all, as a call without `arguments` has.
    pub const fn empty() -> Args<'static> {
        Args { object: None, ends: None }
    }

    /// The member `field`, read in one walk of the arguments.
    fn member(&self, field: &str) -> Option<Value<'a>> {
        let [found, ..] = members(self.object.map(|o| o.as_value()), field.as_bytes(), self.ends);
        found
    }

    /// The arguments as one JSON object, if the call sent any.
    pub fn object(&self) -> Option<Object<'a>> {
        self.object
    }

    /// The raw value of `field`; `None` when absent or `null` (as serde
    /// reads an `Option`).
    pub fn value(&self, field: &str) -> Option<Value<'a>> {
        self.member(field).filter(|v| !v.is_null())
    }

    /// Whether the call sent `field` as `null`. Every accessor reads a
    /// `null` as absent, as serde reads an `Option`; a tool for which
    /// `null` means something of its own (clear the value) asks this.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"assignee": null, "status": "open"}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.opt_str("assignee").unwrap(), None);
    /// assert!(args.is_null("assignee"));
    /// assert!(!args.is_null("status") && !args.is_null("priority"));
    /// ```
    pub fn is_null(&self, field: &str) -> bool {
        self.member(field).is_some_and(|v| v.is_null())
    }

    /// Refuses a member that `known` does not name, as a schema with
    /// `"additionalProperties": false` does, and as serde's
    /// `deny_unknown_fields` words it.
    ///
    /// # Errors
    /// For the first member not in `known`, named with those `known` holds,
    /// in serde's words (`expected `a``, `expected `a` or `b``, `expected
    /// one of `a`, `b`, `c``, `there are no fields`).
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"city": "Oslo", "days": 3}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert!(args.only(&["city", "days", "units"]).is_ok());
    /// assert_eq!(args.only(&["city"]).unwrap_err().message(), "invalid input: unknown field `days`, expected `city`");
    /// assert_eq!(
    ///     args.only(&["city", "units", "lang"]).unwrap_err().message(),
    ///     "invalid input: unknown field `days`, expected one of `city`, `units`, `lang`"
    /// );
    /// assert!(Args::empty().only(&[]).is_ok());
    /// ```
    pub fn only(&self, known: &[&str]) -> Result<(), ToolError> {
        let Some(object) = self.object else { return Ok(()) };
        match object.iter().find(|(key, _)| !known.iter().any(|k| key.eq_str(k))) {
            Some((key, _)) => {
                // serde's words, the fields a model may send included
                // (author trial 93: "unknown field `name`" left it to guess
                // `station`).
                // `concat`, which every message shares, rather than a
                // writer of its own: a list's few pieces copied again each.
                let n = known.len();
                let mut text = concat(
                    "invalid input: unknown field `",
                    &key.to_str(),
                    "`, ",
                    match n {
                        0 => "there are no fields",
                        1 | 2 => "expected `",
                        _ => "expected one of `",
                    },
                );
                for (i, k) in known.iter().enumerate() {
                    let between = if i == 0 {
                        ""
                    } else if n == 2 {
                        "` or `"
                    } else {
                        "`, `"
                    };
                    text = concat(&text, between, k, if i + 1 == n { "`" } else { "" });
                }
                Err(ToolError::from(text))
            }
            None => Ok(()),
        }
    }

    fn required(&self, field: &str) -> Result<Value<'a>, ToolError> {
        match self.member(field) {
            Some(v) => Ok(v),
            None => Err(missing(field)),
        }
    }

    /// The string `field`, unescaped (borrowed when it has no escapes).
    ///
    /// # Errors
    /// When `field` is absent, or is anything but a string (`null`
    /// included).
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"name": "Ada", "age": 36}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.str("name").unwrap(), "Ada");
    /// assert_eq!(args.str("age").unwrap_err().message(), "invalid input: `age` must be a string");
    /// assert_eq!(args.str("city").unwrap_err().message(), "invalid input: missing field `city`");
    /// ```
    pub fn str(&self, field: &str) -> Result<Cow<'a, str>, ToolError> {
        let v = self.required(field)?;
        let plain = self.ends.is_some_and(|ends| ends.plain_end(v.raw(), 0).is_some());
        v.as_str().map(|s| s.unescaped(plain)).ok_or_else(|| wrong(field, Kind::String.article_name()))
    }

    /// The string `field`, or `default` when it is absent or `null`.
    ///
    /// # Errors
    /// When `field` is present and not a string.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"units": "metric", "lang": null}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.str_or("units", "imperial").unwrap(), "metric");
    /// assert_eq!(args.str_or("lang", "en").unwrap(), "en");
    /// ```
    pub fn str_or(&self, field: &str, default: &'a str) -> Result<Cow<'a, str>, ToolError> {
        Ok(self.opt_str(field)?.unwrap_or(Cow::Borrowed(default)))
    }

    /// The string `field`, of `min` to `max` characters (Unicode scalar
    /// values, as JSON Schema's `minLength` and `maxLength` count them).
    ///
    /// # Errors
    /// When `field` is absent, not a string, or of another length; the
    /// message states the bounds.
    ///
    /// # Panics
    /// In a debug build, when the bounds hold no value (`min` above `max`,
    /// or a NaN): an author's slip, which would refuse every input.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(r#"{"title": "お茶の時間", "tag": ""}"#.as_bytes()).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.str_chars("title", 1, 5).unwrap(), "お茶の時間");
    /// assert_eq!(args.str_chars("title", 1, 4).unwrap_err().message(), "invalid input: `title` must be 1 to 4 characters long");
    /// assert_eq!(args.str_chars("tag", 1, usize::MAX).unwrap_err().message(), "invalid input: `tag` must be at least 1 character long");
    /// ```
    pub fn str_chars(&self, field: &str, min: usize, max: usize) -> Result<Cow<'a, str>, ToolError> {
        debug_check_bounds(min <= max, field);
        let s = self.str(field)?;
        let n = crate::chars::count(&s);
        if n >= min && n <= max {
            return Ok(s);
        }
        Err(length_error(field, min, max))
    }

    /// The array `field`, of `min` to `max` elements, each a string: an
    /// iterator over them, unescaped, that collects nothing.
    ///
    /// # Errors
    /// When `field` is absent, not an array, of another length, or holds
    /// something other than a string (named by its index).
    ///
    /// # Panics
    /// In a debug build, when the bounds hold no value (`min` above `max`,
    /// or a NaN): an author's slip, which would refuse every input.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"tags": ["tea", "gr\u00fcn"], "ids": ["a", 2]}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// let tags: Vec<_> = args.strs("tags", 1, 10).unwrap().collect();
    /// assert_eq!(tags, ["tea", "grün"]);
    /// assert_eq!(args.strs("tags", 3, 10).unwrap_err().message(), "invalid input: `tags` must hold 3 to 10 items");
    /// assert_eq!(args.strs("ids", 0, 10).unwrap_err().message(), "invalid input: `ids[1]` must be a string");
    /// ```
    pub fn strs(&self, field: &str, min: usize, max: usize) -> Result<Strs<'a>, ToolError> {
        debug_check_bounds(min <= max, field);
        let array = self.array(field)?;
        let mut n = 0;
        for item in array.iter() {
            if item.as_str().is_none() {
                return Err(ToolError::from(crate::text!(
                    "invalid input: `",
                    field,
                    "[",
                    n,
                    "]` must be ",
                    Kind::String.article_name()
                )));
            }
            n += 1;
        }
        if n < min || n > max {
            return Err(ToolError::from(crate::text!(
                "invalid input: `",
                field,
                "` must hold ",
                min,
                " to ",
                max,
                " items"
            )));
        }
        Ok(Strs { items: array.iter(), len: n })
    }

    /// The string `field`, or `None` when it is absent or `null`.
    ///
    /// # Errors
    /// When `field` is present and not a string.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"city": "Oslo", "street": null, "zip": 150}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.opt_str("city").unwrap().as_deref(), Some("Oslo"));
    /// assert_eq!(args.opt_str("street").unwrap(), None);
    /// assert_eq!(args.opt_str("country").unwrap(), None);
    /// assert!(args.opt_str("zip").is_err());
    /// ```
    pub fn opt_str(&self, field: &str) -> Result<Option<Cow<'a, str>>, ToolError> {
        self.value(field).map(|_| self.str(field)).transpose()
    }

    /// The string `field`, of `min` to `max` characters as
    /// [`str_chars`](Args::str_chars) counts them, or `None` when it is
    /// absent or `null`.
    ///
    /// # Errors
    /// When `field` is present and not a string of that length.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(r#"{"reading": "ゆき", "note": null}"#.as_bytes()).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.opt_str_chars("reading", 1, 20).unwrap().as_deref(), Some("ゆき"));
    /// assert_eq!(args.opt_str_chars("note", 1, 20).unwrap(), None);
    /// assert_eq!(args.opt_str_chars("reading", 3, 20).unwrap_err().message(), "invalid input: `reading` must be 3 to 20 characters long");
    /// ```
    #[inline]
    pub fn opt_str_chars(&self, field: &str, min: usize, max: usize) -> Result<Option<Cow<'a, str>>, ToolError> {
        // Whether or not the field was sent (review 92).
        debug_check_bounds(min <= max, field);
        self.value(field).map(|_| self.str_chars(field, min, max)).transpose()
    }

    /// The array `field` of `min` to `max` strings, as [`strs`](Args::strs)
    /// checks it, or `None` when it is absent or `null`.
    ///
    /// # Errors
    /// When `field` is present and not such an array.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"tags": ["tea", "rain"], "also": null, "ids": [1]}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// let tags: Vec<_> = args.opt_strs("tags", 0, 10).unwrap().into_iter().flatten().collect();
    /// assert_eq!(tags, ["tea", "rain"]);
    /// assert!(args.opt_strs("also", 0, 10).unwrap().is_none());
    /// assert!(args.opt_strs("missing", 0, 10).unwrap().is_none());
    /// assert_eq!(args.opt_strs("ids", 0, 10).unwrap_err().message(), "invalid input: `ids[0]` must be a string");
    /// ```
    #[inline]
    pub fn opt_strs(&self, field: &str, min: usize, max: usize) -> Result<Option<Strs<'a>>, ToolError> {
        // Whether or not the field was sent (review 92).
        debug_check_bounds(min <= max, field);
        self.value(field).map(|_| self.strs(field, min, max)).transpose()
    }

    /// The string `field`, which must be one of `choices` (a schema's
    /// `"enum"` of strings): the choice it equals, to `match` on.
    ///
    /// # Errors
    /// When `field` is absent, not a string, or none of the choices; the
    /// message lists them.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"lang": "ja", "units": "feet"}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.choice("lang", &["en", "ja", "fr"]).unwrap(), "ja");
    /// assert_eq!(
    ///     args.choice("units", &["metric", "imperial"]).unwrap_err().message(),
    ///     r#"invalid input: `units` must be one of "metric", "imperial", not "feet""#
    /// );
    /// ```
    pub fn choice<'c>(&self, field: &str, choices: &[&'c str]) -> Result<&'c str, ToolError> {
        let v = self.required(field)?;
        let s = v.as_str().ok_or_else(|| wrong(field, Kind::String.article_name()))?;
        if let Some(choice) = choices.iter().find(|c| s.eq_str(c)) {
            return Ok(choice);
        }
        let mut text = crate::text!("invalid input: `", field, "` must be one of ");
        for (i, choice) in choices.iter().enumerate() {
            text.push(if i == 0 { "" } else { ", " }).push_quoted(choice);
        }
        // What came, as serde's "unknown variant" names it (author trial
        // 42): a model that sent "JA" or "fr" sees which.
        text.push(", not \"").push(&crate::text::clip(&s.to_str(), 40)).push("\"");
        Err(text.into())
    }

    /// The string `field` as [`choice`](Args::choice) checks it, or `None`
    /// when it is absent or `null`.
    ///
    /// # Errors
    /// When `field` is present and not one of `choices`.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"lang": null}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.opt_choice("lang", &["en", "ja"]).unwrap().unwrap_or("en"), "en");
    /// ```
    #[inline]
    pub fn opt_choice<'c>(&self, field: &str, choices: &[&'c str]) -> Result<Option<&'c str>, ToolError> {
        self.value(field).map(|_| self.choice(field, choices)).transpose()
    }

    /// The integer `field`, from `min` to `max` inclusive.
    ///
    /// # Errors
    /// When `field` is absent, is not an integer written without a fraction
    /// or exponent, or is out of the range; the message states the range.
    ///
    /// # Panics
    /// In a debug build, when the bounds hold no value (`min` above `max`,
    /// or a NaN): an author's slip, which would refuse every input.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"limit": 20, "page": 0, "ratio": 1.5}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.int("limit", 1, 100).unwrap(), 20);
    /// assert_eq!(args.int("page", 1, 100).unwrap_err().message(), "invalid input: `page` must be an integer from 1 to 100");
    /// assert_eq!(
    ///     args.int("ratio", 0, 10).unwrap_err().message(),
    ///     "invalid input: `ratio` must be an integer from 0 to 10, written without a fraction or exponent"
    /// );
    /// // An open end is left unsaid.
    /// assert_eq!(args.int("page", 1, i64::MAX).unwrap_err().message(), "invalid input: `page` must be an integer of at least 1");
    /// ```
    pub fn int(&self, field: &str, min: i64, max: i64) -> Result<i64, ToolError> {
        // Whether or not the field was sent (review 92).
        debug_check_bounds(min <= max, field);
        let v = self.required(field)?;
        int_in(&v, field, min, max)
    }

    /// The integer `field`, from `min` to `max` inclusive, or `None` when
    /// it is absent or `null`.
    ///
    /// # Errors
    /// When `field` is present and not an integer in the range.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"limit": 5}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.opt_int("limit", 1, 100).unwrap(), Some(5));
    /// assert_eq!(args.opt_int("offset", 0, 1000).unwrap().unwrap_or(0), 0);
    /// assert!(args.opt_int("limit", 10, 100).is_err());
    /// ```
    pub fn opt_int(&self, field: &str, min: i64, max: i64) -> Result<Option<i64>, ToolError> {
        // Whether or not the field was sent (review 92).
        debug_check_bounds(min <= max, field);
        self.value(field).map(|v| int_in(&v, field, min, max)).transpose()
    }

    /// The number `field`, integer or not, as the nearest `f64`.
    ///
    /// # Errors
    /// When `field` is absent or is not a number.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"amount": 2.5, "count": 3, "label": "x"}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.float("amount").unwrap(), 2.5);
    /// assert_eq!(args.float("count").unwrap(), 3.0);
    /// assert_eq!(args.float("label").unwrap_err().message(), "invalid input: `label` must be a number");
    /// ```
    pub fn float(&self, field: &str) -> Result<f64, ToolError> {
        let v = self.required(field)?;
        float_in(&v, field, f64::NEG_INFINITY, f64::INFINITY)
    }

    /// The number `field` as the nearest `f64`, from `min` to `max`
    /// (both included): [`float`](Args::float) with bounds, as
    /// [`int`](Args::int) has them. An open end is `f64::NEG_INFINITY` or
    /// `f64::INFINITY`, and the message leaves it unsaid.
    ///
    /// # Errors
    /// When `field` is absent, not a number, or out of the range; the
    /// message states the bounds.
    ///
    /// # Panics
    /// In a debug build, when the bounds hold no value (`min` above `max`,
    /// or a NaN): an author's slip, which would refuse every input.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"score": 7.5, "weight": -1}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.float_in("score", 0.0, 10.0).unwrap(), 7.5);
    /// assert_eq!(args.float_in("score", 0.0, 5.0).unwrap_err().message(), "invalid input: `score` must be a number from 0 to 5");
    /// assert_eq!(
    ///     args.float_in("weight", 0.0, f64::INFINITY).unwrap_err().message(),
    ///     "invalid input: `weight` must be a number of at least 0"
    /// );
    /// ```
    #[inline]
    pub fn float_in(&self, field: &str, min: f64, max: f64) -> Result<f64, ToolError> {
        // Whether or not the field was sent (review 92).
        debug_check_bounds(min <= max, field);
        let v = self.required(field)?;
        float_in(&v, field, min, max)
    }

    /// The number `field` from `min` to `max`, as
    /// [`float_in`](Args::float_in) reads it, or `None` when it is absent or
    /// `null`.
    ///
    /// # Errors
    /// When `field` is present and not a number in the range.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"ratio": 0.25}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.opt_float_in("ratio", 0.0, 1.0).unwrap(), Some(0.25));
    /// assert_eq!(args.opt_float_in("missing", 0.0, 1.0).unwrap(), None);
    /// assert!(args.opt_float_in("ratio", 0.5, 1.0).is_err());
    /// ```
    #[inline]
    pub fn opt_float_in(&self, field: &str, min: f64, max: f64) -> Result<Option<f64>, ToolError> {
        // Whether or not the field was sent (review 92).
        debug_check_bounds(min <= max, field);
        self.value(field).map(|v| float_in(&v, field, min, max)).transpose()
    }

    /// The number `field`, above `min` (not equal to it) and at most
    /// `max`: a schema's `"exclusiveMinimum"`, as for an amount that must be
    /// positive (author trial 86 read `"exclusiveMinimum": 0` with
    /// [`float_in`](Args::float_in), which takes 0). An open end is an
    /// infinite bound, and the message leaves it unsaid. A number above
    /// `min` as written that an `f64` cannot tell from it (`1e-400` for 0)
    /// is refused, and the message says so.
    ///
    /// # Errors
    /// When `field` is absent, not a number, or out of the range; the
    /// message states the bounds.
    ///
    /// # Panics
    /// In a debug build, when the bounds hold no value (`min` above `max`,
    /// or a NaN): an author's slip, which would refuse every input.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"servings": 4, "none": 0, "many": 2000}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.float_above("servings", 0.0, f64::INFINITY).unwrap(), 4.0);
    /// assert_eq!(
    ///     args.float_above("none", 0.0, f64::INFINITY).unwrap_err().message(),
    ///     "invalid input: `none` must be a number above 0"
    /// );
    /// assert_eq!(
    ///     args.float_above("many", 0.0, 1000.0).unwrap_err().message(),
    ///     "invalid input: `many` must be a number above 0 and at most 1000"
    /// );
    /// ```
    pub fn float_above(&self, field: &str, min: f64, max: f64) -> Result<f64, ToolError> {
        // Whether or not the field was sent (review 92).
        debug_check_bounds(min < max, field);
        let v = self.required(field)?;
        float_above(&v, field, min, max)
    }

    /// The number `field` as [`float_above`](Args::float_above) reads it,
    /// or `None` when it is absent or `null`.
    ///
    /// # Errors
    /// When `field` is present and not a number in the range.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"weight": 0.5}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.opt_float_above("weight", 0.0, 1.0).unwrap(), Some(0.5));
    /// assert_eq!(args.opt_float_above("missing", 0.0, 1.0).unwrap(), None);
    /// assert!(args.opt_float_above("weight", 0.5, 1.0).is_err());
    /// ```
    pub fn opt_float_above(&self, field: &str, min: f64, max: f64) -> Result<Option<f64>, ToolError> {
        // Whether or not the field was sent (review 92).
        debug_check_bounds(min < max, field);
        self.value(field).map(|v| float_above(&v, field, min, max)).transpose()
    }

    /// The number `field` as the nearest `f64`, or `None` when it is absent
    /// or `null`.
    ///
    /// # Errors
    /// When `field` is present and not a number.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"scale": 0.5}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.opt_float("scale").unwrap(), Some(0.5));
    /// assert_eq!(args.opt_float("offset").unwrap(), None);
    /// ```
    pub fn opt_float(&self, field: &str) -> Result<Option<f64>, ToolError> {
        self.value(field).map(|_| self.float(field)).transpose()
    }

    /// The boolean `field`.
    ///
    /// # Errors
    /// When `field` is absent or is not `true` or `false`.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"dry_run": true, "verbose": "yes"}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert!(args.bool("dry_run").unwrap());
    /// assert_eq!(args.bool("verbose").unwrap_err().message(), "invalid input: `verbose` must be a boolean");
    /// ```
    pub fn bool(&self, field: &str) -> Result<bool, ToolError> {
        let v = self.required(field)?;
        v.as_bool().ok_or_else(|| wrong(field, Kind::Bool.article_name()))
    }

    /// The boolean `field`, or `None` when it is absent or `null`.
    ///
    /// # Errors
    /// When `field` is present and not `true` or `false`.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"dry_run": false}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.opt_bool("dry_run").unwrap(), Some(false));
    /// assert!(args.opt_bool("verbose").unwrap().unwrap_or(true));
    /// ```
    pub fn opt_bool(&self, field: &str) -> Result<Option<bool>, ToolError> {
        self.value(field).map(|_| self.bool(field)).transpose()
    }

    /// The object `field`, read with the same accessors; their errors name
    /// only the inner field.
    ///
    /// # Errors
    /// When `field` is absent or is not an object.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"point": {"x": 1, "y": 2}}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// let point = args.nested("point").unwrap();
    /// assert_eq!(point.int("y", 0, 10).unwrap(), 2);
    /// assert!(args.nested("size").is_err());
    /// ```
    pub fn nested(&self, field: &str) -> Result<Args<'a>, ToolError> {
        let v = self.required(field)?;
        v.as_object()
            .map(|object| Args { object: Some(object), ends: self.ends })
            .ok_or_else(|| wrong(field, Kind::Object.article_name()))
    }

    /// The object `field`, or `None` when it is absent or `null`.
    ///
    /// # Errors
    /// When `field` is present and not an object.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"options": {"depth": 2}, "filter": null}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// let depth = match args.opt_nested("options").unwrap() {
    ///     Some(options) => options.opt_int("depth", 1, 8).unwrap().unwrap_or(1),
    ///     None => 1,
    /// };
    /// assert_eq!(depth, 2);
    /// assert!(args.opt_nested("filter").unwrap().is_none());
    /// ```
    pub fn opt_nested(&self, field: &str) -> Result<Option<Args<'a>>, ToolError> {
        self.value(field).map(|_| self.nested(field)).transpose()
    }

    /// The array `field`, its elements read as [`Value`]s.
    ///
    /// # Errors
    /// When `field` is absent or is not an array.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"tags": ["a", "b"], "name": "x"}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// let tags: Vec<_> = args.array("tags").unwrap().iter().filter_map(|v| v.as_str()).map(|s| s.to_str()).collect();
    /// assert_eq!(tags, ["a", "b"]);
    /// assert_eq!(args.array("name").unwrap_err().message(), "invalid input: `name` must be an array");
    /// ```
    pub fn array(&self, field: &str) -> Result<Array<'a>, ToolError> {
        let v = self.required(field)?;
        v.as_array().ok_or_else(|| wrong(field, Kind::Array.article_name()))
    }

    /// The array `field`, or `None` when it is absent or `null`.
    ///
    /// # Errors
    /// When `field` is present and not an array.
    ///
    /// # Examples
    /// ```
    /// use subako_tiny::{Args, json};
    ///
    /// let arguments = json::parse(br#"{"ids": [3, 5]}"#).unwrap();
    /// let args = Args::new(arguments.as_object().unwrap());
    /// assert_eq!(args.opt_array("ids").unwrap().map(|ids| ids.len()), Some(2));
    /// assert!(args.opt_array("exclude").unwrap().is_none());
    /// ```
    pub fn opt_array(&self, field: &str) -> Result<Option<Array<'a>>, ToolError> {
        self.value(field).map(|_| self.array(field)).transpose()
    }
}

/// Bounds that no value meets (`min` above `max`, or a NaN): an author's
/// slip that would refuse every input with a message no input can satisfy
/// ("from 5 to 1"). Caught where the author tests, in a debug build (as
/// `f64::clamp` catches it); a release module has no check to pay for.
#[inline(always)]
#[track_caller]
fn debug_check_bounds(meets_some: bool, what: &str) {
    debug_assert!(meets_some, "subako_tiny::Args: `{what}`'s bounds hold no value: min is above max, or one is NaN");
}

fn int_in(v: &Value<'_>, field: &str, min: i64, max: i64) -> Result<i64, ToolError> {
    let n = v.as_i64();
    match n {
        Some(n) if n >= min && n <= max => Ok(n),
        _ => {
            let mut text = crate::text!("invalid input: `", field, "` must be an integer");
            // An open end is left unsaid: "at least 1", not "from 1 to 9223372036854775807".
            match (min, max) {
                (i64::MIN, i64::MAX) => {}
                (min, i64::MAX) => drop(text.push(" of at least ").push(&min)),
                (i64::MIN, max) => drop(text.push(" of at most ").push(&max)),
                (min, max) => drop(text.push(" from ").push(&min).push(" to ").push(&max)),
            }
            // A number `as_i64` refuses: 2.0 or 1e2, which read as
            // allowed when in the range (the rest of the rule), or an
            // integer past i64's range on a side the words leave open
            // ("at least 1" is true of 99999999999999999999).
            if n.is_none() && is_number(v) {
                let raw = v.raw();
                if raw.iter().any(|&b| matches!(b, b'.' | b'e' | b'E')) {
                    text.push(", written without a fraction or exponent");
                } else if if raw.first() == Some(&b'-') { min == i64::MIN } else { max == i64::MAX } {
                    text.push(" within i64's range");
                }
            }
            Err(text.into())
        }
    }
}

fn float_in(v: &Value<'_>, field: &str, min: f64, max: f64) -> Result<f64, ToolError> {
    let x = v.as_f64();
    match x {
        Some(x) if x >= min && x <= max => Ok(x),
        _ => {
            let mut text = crate::text!("invalid input: `", field, "` must be a number");
            match (min == f64::NEG_INFINITY, max == f64::INFINITY) {
                (true, true) => {}
                (false, true) => drop(bound(text.push(" of at least "), min)),
                (true, false) => drop(bound(text.push(" of at most "), max)),
                (false, false) => drop(bound(bound(text.push(" from "), min).push(" to "), max)),
            }
            // A number `as_f64` refuses is past f64's range (`1e400`).
            if x.is_none() && is_number(v) {
                text.push(" within f64's range");
            }
            Err(text.into())
        }
    }
}

fn float_above(v: &Value<'_>, field: &str, min: f64, max: f64) -> Result<f64, ToolError> {
    let x = v.as_f64();
    match x {
        Some(x) if x > min && x <= max => Ok(x),
        _ => {
            let mut text = crate::text!("invalid input: `", field, "` must be a number");
            // An open end (an infinite bound) is left unsaid, as in `float_in`.
            let below = max != f64::INFINITY;
            match (min == f64::NEG_INFINITY, below) {
                (true, true) => drop(bound(text.push(" of at most "), max)),
                (true, false) => {}
                (false, below) => {
                    bound(text.push(" above "), min);
                    if below {
                        bound(text.push(" and at most "), max);
                    }
                }
            }
            // As in `float_in`: a number past f64's range (`1e400`).
            if x.is_none() && is_number(v) {
                text.push(" within f64's range");
            }
            // A number above the bound as written, which f64 rounds onto it
            // (`1e-400` is 0): said, since "above 0" is true of it (review 87).
            let raw = v.raw();
            let mut written = crate::text::Text::of("");
            if x == Some(min)
                && rounded(raw, min)
                && !(raw.first() == Some(&b'-') && min >= 0.0)
                && bound(&mut written, min).as_bytes() != raw
            {
                let raw = core::str::from_utf8(raw).unwrap_or_default();
                bound(text.push(": ").push(raw).push(" is "), min).push(" as a 64-bit float");
            }
            Err(text.into())
        }
    }
}

/// Whether number text `raw`, read as `x`, may be another number than
/// `x`: more significant digits than f64 tells apart (15), or a value
/// other than zero below the normal range (`1e-400`, which is 0).
fn rounded(raw: &[u8], x: f64) -> bool {
    // Digits from the first to the last that is not 0 (review 88: the
    // zeros of `1.0000000000000000` were counted).
    let (mut seen, mut significant, mut zeros) = (false, 0, 0);
    for &b in raw.iter().take_while(|&&b| b | 0x20 != b'e').filter(|b| b.is_ascii_digit()) {
        if b != b'0' {
            (seen, significant, zeros) = (true, significant + zeros + 1, 0);
        } else if seen {
            zeros += 1;
        }
    }
    significant > 15 || significant > 0 && x == 0.0
}

/// Appends bound `x` as a schema writes it: a whole number as an integer
/// (`10`, not the JSON writer's `10.0`; author trials 38 and 39 found
/// `from -90.0 to 90.0` beside a schema's `-90` and `90`).
fn bound(text: &mut crate::text::Text, x: f64) -> &mut crate::text::Text {
    // Every whole f64 below 2^63 in size is exactly an i64.
    if x.abs() < 9_223_372_036_854_775_808.0 && x == (x as i64) as f64 { text.push(&(x as i64)) } else { text.push(&x) }
}

/// Whether `v` is a number: validated JSON starting as one does.
fn is_number(v: &Value<'_>) -> bool {
    matches!(v.raw().first(), Some(b'-' | b'0'..=b'9'))
}

#[cfg(test)]
mod tests {
    use super::Args;
    use crate::json;

    /// The lower bound is left out, the upper one included; anything but a
    /// number in the range is refused with the range in words.
    /// Bounds that hold no value are an author's slip, told in a debug
    /// build (review 87: `float_in("x", 5.0, 1.0)` refused every number
    /// "from 5 to 1", and a NaN bound every number with "from NaN").
    #[test]
    #[cfg(debug_assertions)]
    fn bounds_that_hold_no_value_are_caught_in_debug_builds() {
        extern crate std;
        let value = json::parse(br#"{"x": 3, "s": "abc", "l": ["a"]}"#).unwrap();
        let args = Args::new(value.as_object().unwrap());
        let slips: [(&str, &dyn Fn()); 12] = [
            ("int", &|| drop(args.int("x", 5, 1))),
            ("float_in", &|| drop(args.float_in("x", 5.0, 1.0))),
            ("float_in NaN", &|| drop(args.float_in("x", f64::NAN, 10.0))),
            ("float_above", &|| drop(args.float_above("x", 1.0, 1.0))),
            ("opt_float_in", &|| drop(args.opt_float_in("x", 0.0, f64::NAN))),
            ("str_chars", &|| drop(args.str_chars("s", 4, 2))),
            ("strs", &|| drop(args.strs("l", 3, 1))),
            // A field not sent is no excuse (review 92: only a sent one was checked).
            ("opt_int absent", &|| drop(args.opt_int("absent", 5, 1))),
            ("float_in absent", &|| drop(args.float_in("absent", 5.0, 1.0))),
            ("opt_float_above absent", &|| drop(args.opt_float_above("absent", 1.0, 1.0))),
            ("opt_str_chars absent", &|| drop(args.opt_str_chars("absent", 4, 2))),
            ("opt_strs absent", &|| drop(args.opt_strs("absent", 3, 1))),
        ];
        for (what, slip) in slips {
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(slip)).expect_err(what);
            let message = caught.downcast_ref::<alloc::string::String>().expect(what);
            assert!(message.ends_with("'s bounds hold no value: min is above max, or one is NaN"), "{what}: {message}");
        }
        // Bounds that hold one value, or open ends, are fine.
        assert_eq!(args.int("x", 3, 3).unwrap(), 3);
        assert_eq!(args.float_in("x", f64::NEG_INFINITY, f64::INFINITY).unwrap(), 3.0);
        assert!(args.float_above("x", f64::NEG_INFINITY, f64::INFINITY).is_ok());
    }

    #[test]
    fn a_float_above_a_bound() {
        let value =
            json::parse(br#"{"zero": 0, "neg": -0.0, "tiny": 5e-324, "top": 1e3, "huge": 1e400, "s": "5"}"#).unwrap();
        let args = Args::new(value.as_object().unwrap());
        let read = |field, max| args.float_above(field, 0.0, max).map_err(|e| alloc::string::String::from(e.message()));
        assert_eq!(read("tiny", f64::INFINITY), Ok(5e-324));
        assert_eq!(read("top", 1e3), Ok(1e3));
        assert_eq!(read("zero", f64::INFINITY).unwrap_err(), "invalid input: `zero` must be a number above 0");
        assert_eq!(read("neg", 1.5).unwrap_err(), "invalid input: `neg` must be a number above 0 and at most 1.5");
        assert_eq!(read("top", 999.0).unwrap_err(), "invalid input: `top` must be a number above 0 and at most 999");
        assert_eq!(
            read("huge", f64::INFINITY).unwrap_err(),
            "invalid input: `huge` must be a number above 0 within f64's range"
        );
        assert_eq!(read("s", f64::INFINITY).unwrap_err(), "invalid input: `s` must be a number above 0");
        // Above the bound as written, on it as an f64: said (review 87).
        let near = json::parse(br#"{"a": 1e-400, "b": 0.0, "c": 1.0000000000000001, "d": 2e-324, "e": 1.0}"#).unwrap();
        let near = Args::new(near.as_object().unwrap());
        let said = |field, min| -> alloc::string::String {
            near.float_above(field, min, f64::INFINITY).unwrap_err().message().into()
        };
        assert_eq!(said("a", 0.0), "invalid input: `a` must be a number above 0: 1e-400 is 0 as a 64-bit float");
        assert_eq!(said("d", 0.0), "invalid input: `d` must be a number above 0: 2e-324 is 0 as a 64-bit float");
        // Not above it as written either, or the bound itself: nothing more
        // to say (review 88).
        assert_eq!(said("b", 0.0), "invalid input: `b` must be a number above 0");
        assert_eq!(said("e", 1.0), "invalid input: `e` must be a number above 1");
        let exact =
            json::parse(br#"{"a": 1.0000000000000000, "b": -1e-400, "c": 5e-324, "d": 0.30000000000000004}"#).unwrap();
        let exact = Args::new(exact.as_object().unwrap());
        let plain = |field, min: f64| {
            let said: alloc::string::String =
                exact.float_above(field, min, f64::INFINITY).unwrap_err().message().into();
            assert!(!said.contains("64-bit"), "{said}");
        };
        plain("a", 1.0);
        plain("b", 0.0);
        plain("c", 5e-324);
        plain("d", 0.1 + 0.2);
        assert_eq!(
            said("c", 1.0),
            "invalid input: `c` must be a number above 1: 1.0000000000000001 is 1 as a 64-bit float"
        );
        // An infinite lower bound is an open end.
        assert_eq!(
            args.float_above("s", f64::NEG_INFINITY, 9.0).unwrap_err().message(),
            "invalid input: `s` must be a number of at most 9"
        );
        assert_eq!(read("missing", f64::INFINITY).unwrap_err(), "invalid input: missing field `missing`");
        assert_eq!(args.opt_float_above("missing", 0.0, 1.0).map_err(|_| ()), Ok(None));
    }

    /// Both bounds are included, either end may be open, and anything but
    /// a number in the range is refused with the range in words.
    #[test]
    fn a_float_in_a_range() {
        let value = json::parse(br#"{"lo": 0, "hi": 10.0, "neg": -0.0, "big": 1e300, "s": "5"}"#).unwrap();
        let args = Args::new(value.as_object().unwrap());
        let read =
            |field, min, max| args.float_in(field, min, max).map_err(|e| alloc::string::String::from(e.message()));
        assert_eq!(read("lo", 0.0, 10.0), Ok(0.0));
        assert_eq!(read("hi", 0.0, 10.0), Ok(10.0));
        assert_eq!(read("neg", 0.0, 10.0).map(f64::to_bits), Ok((-0.0f64).to_bits()));
        assert_eq!(read("big", f64::NEG_INFINITY, f64::INFINITY), Ok(1e300));
        assert_eq!(
            read("big", f64::NEG_INFINITY, 1e6).unwrap_err(),
            "invalid input: `big` must be a number of at most 1000000"
        );
        assert_eq!(read("s", 0.0, 10.0).unwrap_err(), "invalid input: `s` must be a number from 0 to 10");
        assert_eq!(read("s", f64::NEG_INFINITY, f64::INFINITY).unwrap_err(), "invalid input: `s` must be a number");
        assert_eq!(read("none", 0.0, 1.0).unwrap_err(), "invalid input: missing field `none`");
        // A number past f64's range is refused, not read as infinite (it
        // would be written back as `null`), with words that say why.
        let value = json::parse(br#"{"inf": 1e400, "minf": -1e999}"#).unwrap();
        let args = Args::new(value.as_object().unwrap());
        let past = " within f64's range";
        for field in ["inf", "minf"] {
            let said = args.float(field).map_err(|e| alloc::string::String::from(e.message()));
            assert_eq!(said, Err(["invalid input: `", field, "` must be a number", past].concat()));
            let said = args.float_in(field, 0.0, 1.0).map_err(|e| alloc::string::String::from(e.message()));
            assert_eq!(said, Err(["invalid input: `", field, "` must be a number from 0 to 1", past].concat()));
        }
        assert_eq!(args.opt_float_in("none", 0.0, 1.0).unwrap(), None);
    }

    /// A number written with a fraction or an exponent is refused (as
    /// serde refuses it) with words that say why, even when it is whole
    /// and in the range; a string, or an integer out of the range however
    /// long, is told the range.
    #[test]
    fn an_integer_with_a_fraction_or_exponent_is_told_so() {
        let value = json::parse(
            br#"{"whole": 2.0, "exp": 1e1, "neg": -2E0, "frac": 2.5, "huge": 99999999999999999999, "s": "2.0", "low": 0}"#,
        )
        .unwrap();
        let args = Args::new(value.as_object().unwrap());
        let read = |field| args.int(field, 1, 50).map_err(|e| alloc::string::String::from(e.message()));
        let why = |field: &str| {
            ["invalid input: `", field, "` must be an integer from 1 to 50, written without a fraction or exponent"]
                .concat()
        };
        let range = |field: &str| ["invalid input: `", field, "` must be an integer from 1 to 50"].concat();
        for field in ["whole", "exp", "neg", "frac"] {
            assert_eq!(read(field), Err(why(field)));
        }
        // Past i64 but written as an integer: the range says it.
        for field in ["huge", "s", "low"] {
            assert_eq!(read(field), Err(range(field)));
        }
        // Unless the range is open on the side it is past (author trial
        // 40, `id` of at least 1: "99999999999999999999 is at least 1").
        let value = json::parse(br#"{"huge": 99999999999999999999, "low": -99999999999999999999}"#).unwrap();
        let args = Args::new(value.as_object().unwrap());
        let read = |field, min, max| args.int(field, min, max).map_err(|e| alloc::string::String::from(e.message()));
        let past = |field: &str, range: &str| {
            ["invalid input: `", field, "` must be an integer", range, " within i64's range"].concat()
        };
        assert_eq!(read("huge", 1, i64::MAX), Err(past("huge", " of at least 1")));
        assert_eq!(read("huge", i64::MIN, i64::MAX), Err(past("huge", "")));
        assert_eq!(read("low", i64::MIN, 0), Err(past("low", " of at most 0")));
        assert_eq!(read("low", i64::MIN, i64::MAX), Err(past("low", "")));
        assert_eq!(read("low", 1, i64::MAX), Err("invalid input: `low` must be an integer of at least 1".into()));
        assert_eq!(read("huge", i64::MIN, 0), Err("invalid input: `huge` must be an integer of at most 0".into()));
    }

    /// A whole bound is written as an integer at any size an i64 holds,
    /// as a schema writes it (review 41: 2^53 was written `9007199254740992.0`).
    #[test]
    fn whole_bounds_are_written_as_integers() {
        let value = json::parse(br#"{"s": "x"}"#).unwrap();
        let args = Args::new(value.as_object().unwrap());
        let said = |min, max| alloc::string::String::from(args.float_in("s", min, max).unwrap_err().message());
        assert_eq!(
            said(9007199254740992.0, 1e17),
            "invalid input: `s` must be a number from 9007199254740992 to 100000000000000000"
        );
        assert_eq!(said(-1e18, 0.5), "invalid input: `s` must be a number from -1000000000000000000 to 0.5");
        assert_eq!(said(0.0, 1e19), "invalid input: `s` must be a number from 0 to 1e+19");
    }

    fn choice(arguments: &str, choices: &[&'static str]) -> Result<&'static str, alloc::string::String> {
        let value = json::parse(arguments.as_bytes()).unwrap();
        Args::new(value.as_object().unwrap()).choice("v", choices).map_err(|e| e.message().into())
    }

    #[test]
    fn a_choice_is_compared_unescaped_and_named_with_its_list_quoted() {
        let langs = ["en", "ja", "fr"];
        assert_eq!(choice(r#"{"v": "j\u0061"}"#, &langs), Ok("ja"));
        assert_eq!(choice(r#"{"v": "fr"}"#, &langs), Ok("fr"));
        let listed = r#"invalid input: `v` must be one of "en", "ja", "fr", not "#;
        for other in [r#""EN""#, r#""e""#, r#""enx""#, r#""""#] {
            assert_eq!(choice(&["{\"v\": ", other, "}"].concat(), &langs).unwrap_err(), [listed, other].concat());
        }
        // What came, unescaped, and cut short when long.
        assert_eq!(choice(r#"{"v": "\u0046R"}"#, &langs).unwrap_err(), [listed, r#""FR""#].concat());
        let long = "x".repeat(100);
        assert_eq!(
            choice(&["{\"v\": \"", &long, "\"}"].concat(), &langs).unwrap_err(),
            [listed, "\"", &long[..40], "…\""].concat()
        );
        assert_eq!(choice(r#"{"v": 1}"#, &langs).unwrap_err(), "invalid input: `v` must be a string");
        assert_eq!(choice(r#"{}"#, &langs).unwrap_err(), "invalid input: missing field `v`");
        // A choice that needs escaping is written as JSON writes it.
        assert_eq!(
            choice(r#"{"v": "x"}"#, &["say \"hi\"", "日本"]).unwrap_err(),
            r#"invalid input: `v` must be one of "say \"hi\"", "日本", not "x""#
        );
        assert_eq!(choice(r#"{"v": "say \"hi\""}"#, &["say \"hi\"", "日本"]), Ok("say \"hi\""));
    }
}
