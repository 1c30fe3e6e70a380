//! What a hand-written schema may say, checked at build time.
//!
//! Everything here is a `const fn` over the schema's bytes (already known to
//! be JSON): no allocation, no recursion, `while` loops and a fixed stack of
//! open containers. [`check_tool_schema`] holds every tool's schemas to what
//! MCP clients accept and to what each keyword's value must be;
//! [`check_supported`] also holds a schema to the subset that
//! [`validated!`](crate::validated) checks at run time.
//!
//! Const evaluation counts a step for each turn of a loop and each call
//! (rustc stops one constant at 2,000,000): the walk looks at each byte
//! about once, tells keywords apart by hash (comparisons are free), and
//! does its rarer work (a duplicate key's search, a pair of bounds
//! compared) only when there is some to do.
//!
//! Here are the limits and the stack's frames; `walker` walks the schema,
//! `checks` says what each keyword's value and each closed schema must
//! be, `fault` words a refusal, `tables` holds the keyword tables,
//! `values` reads the schema in place and `numbers` compares its numbers.
// A `Fault` carries its message's text, built in const evaluation, where
// nothing can be boxed; it never reaches a module.
#![allow(clippy::result_large_err)]

mod checks;
mod fault;
mod numbers;
mod tables;
mod values;
mod walker;

pub use fault::Fault;
pub(crate) use tables::BOUNDS;
pub use walker::{check_supported, check_tool_schema};

/// Schemas nested deeper than this (objects in `properties`, `items`…) are
/// refused: hand-written schemas are shallow, and the stack is fixed.
pub const MAX_NESTING: usize = 32;

/// The most `properties` one schema lists under `validated!`: the
/// validator keeps a slot for each on the stack.
pub const MAX_PROPERTIES: usize = 64;

/// What the members or elements of an open container are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// A schema: keyword → value.
    Keywords,
    /// `properties` and the like: name → schema.
    Schemas,
    /// `anyOf` and the like: schemas.
    List,
}

/// `seg_at` of a frame entered as an array's element (`seg_end` is then
/// its index).
const INDEX: usize = usize::MAX;
const NONE: usize = usize::MAX;

/// An open container, and for a schema what its `required` check and its
/// bounds need.
#[derive(Clone, Copy)]
struct Frame {
    holds: Holds,
    /// The member name (between its quotes) it is the value of, or
    /// [`INDEX`] and its index in its array.
    seg_at: usize,
    seg_end: usize,
    /// Where it opens, to look for a key seen twice.
    open: usize,
    /// A bit for each key's hash, to find a key seen twice.
    keys: u64,
    /// Elements or members seen so far.
    count: usize,
    /// A schema's last `required`, `properties` and `type` values, or NONE.
    required: usize,
    properties: usize,
    type_at: usize,
    /// The values of the [`BOUNDS`] keywords, or NONE; and the keywords.
    bounded: bool,
    bounds: [usize; BOUNDS.len()],
    bound_keys: [usize; BOUNDS.len()],
}

const fn frame(holds: Holds, seg_at: usize, seg_end: usize, open: usize) -> Frame {
    Frame {
        holds,
        seg_at,
        seg_end,
        open,
        keys: 0,
        count: 0,
        required: NONE,
        properties: NONE,
        type_at: NONE,
        bounded: false,
        bounds: [NONE; BOUNDS.len()],
        bound_keys: [NONE; BOUNDS.len()],
    }
}

#[cfg(test)]
mod tests;
