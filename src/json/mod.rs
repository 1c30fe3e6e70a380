//! JSON, hand-rolled: a non-recursive validating reader that finds members
//! without copying, and a compact writer. Neither uses `core::fmt`.
//!
//! [`validate`] checks a whole document in one pass with an explicit,
//! fixed-size stack (a bit per level), so no input can overflow the call
//! stack. After that, a [`Value`] is just the bytes of one value: members
//! and elements are found by skipping over validated text, and strings are
//! unescaped only when asked.
//!
//! What that costs: a value is skipped over by each level that walks past
//! it, so a number five levels down (a GeoJSON polygon's coordinate) is
//! passed six times, counting the validation, where serde_json reads it
//! once. A module that calls [`parse`] skips a container's numbers,
//! literals and white space eight bytes a turn, and its strings and
//! brackets at about the cost it would without (a module that parses no
//! document, such as one reading only its arguments, links none of it). Author trial 98's
//! five-level GeoJSON still took about twice the official module's work
//! (docs/SIZE.md in the repository).

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
pub use to_json::{ArrayWriter, JsonBytes, Null, ObjectWriter, ToJson, array, object};
pub use validator::{MAX_DEPTH, ReadError, ReadErrorKind, validate};
pub use value::{Array, Elements, Kind, Members, Object, Str, Value, parse};
pub use writer::JsonWriter;
