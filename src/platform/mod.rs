//! Platform back ends: the only place with `unsafe` code.
//!
//! - `wasm`: wasm32 (WASI preview 1) through the raw `wasi` 0.11 calls, the
//!   module's start-up, its panic handler and its allocator.
//! - `host`: any other target, through std, so packages run and unit-test
//!   natively.

#[cfg(target_arch = "wasm32")]
mod wasm;
#[cfg(target_arch = "wasm32")]
pub use wasm::*;

#[cfg(not(target_arch = "wasm32"))]
mod host;
#[cfg(not(target_arch = "wasm32"))]
pub use host::*;

#[cfg(all(target_arch = "wasm32", feature = "lean-alloc"))]
mod bump;
