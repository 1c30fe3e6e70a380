//! JSON, hand-rolled: a non-recursive validating reader that finds members
//! without copying, and a compact writer. Neither uses `core::fmt`.
//!
//! [`validate`] checks a whole document in one pass with an explicit,
//! fixed-size stack (a bit per level), so no input can overflow the call
//! stack. After that, a [`Value`] is just the bytes of one value: members
//! and elements are found by skipping over validated text, and strings are
//! unescaped only when asked.

pub(crate) mod float;
mod lines;
pub(crate) mod lookup;
pub(crate) mod num;
pub(crate) mod output;
pub(crate) mod scan;
mod to_json;
mod unescape;
pub(crate) mod validator;
mod value;
pub(crate) mod write;
mod writer;

pub use lines::{Containing, LineFields, Lines, SkipCount, lines};
pub use lookup::ElementFields;
pub use to_json::{ArrayWriter, JsonBytes, ObjectWriter, ToJson, array, object};
pub use validator::{MAX_DEPTH, ReadError, ReadErrorKind, validate};
pub use value::{Array, Elements, Kind, Members, Object, Str, Value, parse};
pub use writer::JsonWriter;
