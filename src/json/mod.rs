//! JSON, hand-rolled: a non-recursive validating reader that finds members
//! without copying, and a compact writer. Neither uses `core::fmt`.

pub(crate) mod float;
pub mod num;
pub mod read;
pub(crate) mod write;

pub use read::{Array, Kind, Lines, Object, ReadError, ReadErrorKind, Str, Value, lines, parse, validate};
pub use write::JsonWriter;
