//! The keyword tables the walk looks keywords up in by hash: the bounds it
//! compares in pairs, and the subset `validated!` checks.

use super::NONE;
use crate::schema::keywords::hash;

/// The bounds a schema's [`Frame`](super::Frame) keeps, lower then upper:
/// a pair leaves nothing between them when the lower is above the upper
/// (or, for the exclusive pair, not below it).
pub(crate) const BOUNDS: [&str; 12] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
];

/// Which of [`BOUNDS`] the keyword hashed `h` is, or `NONE`: comparisons
/// with constants, which cost no steps.
pub(super) const fn bound_index(h: u64) -> usize {
    macro_rules! index {
        ($($n:literal)*) => {
            $(if h == const { hash(BOUNDS[$n]) } {
                return $n;
            })*
        };
    }
    index!(0 1 2 3 4 5 6 7 8 9 10 11);
    NONE
}

/// The keyword hashed `h` is one `validated!` checks, or an annotation.
pub(super) const fn in_validated_subset(h: u64) -> bool {
    macro_rules! any {
        ($($word:literal)*) => {
            $(h == const { hash($word) })||*
        };
    }
    any!("type" "properties" "required" "additionalProperties" "items" "minItems" "maxItems" "minLength"
        "maxLength" "minimum" "maximum" "exclusiveMinimum" "exclusiveMaximum" "enum" "const" "description" "title"
        "default" "examples" "deprecated" "readOnly" "writeOnly" "$schema" "$comment" "format")
}
