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

// Files: raw WASI calls on wasm32, std::fs over named mounts elsewhere.
#[cfg(target_arch = "wasm32")]
pub mod fs_wasi;
#[cfg(target_arch = "wasm32")]
pub use fs_wasi as fs_sys;
#[cfg(not(target_arch = "wasm32"))]
pub mod fs_host;
#[cfg(not(target_arch = "wasm32"))]
pub use fs_host as fs_sys;

pub mod http_raw;

/// `b` as a `str`, without checking it again: `b` comes from JSON text the
/// reader has validated (its strings are proven UTF-8, escapes decode to
/// whole code points). Skipping the re-check keeps `core::str::from_utf8`
/// out of modules.
pub(crate) fn validated_str(b: &[u8]) -> &str {
    debug_assert!(core::str::from_utf8(b).is_ok());
    // SAFETY: callers pass only bytes of validated JSON strings or numbers,
    // which are UTF-8 (see `json::read::validate`).
    unsafe { core::str::from_utf8_unchecked(b) }
}

/// As [`validated_str`], for decoded string contents and text the crate
/// wrote itself.
pub(crate) fn validated_string(b: alloc::vec::Vec<u8>) -> alloc::string::String {
    debug_assert!(core::str::from_utf8(&b).is_ok());
    // SAFETY: callers pass the decoded value of a validated JSON string
    // (validated UTF-8 runs plus whole code points from `push_utf8`), or
    // ASCII the crate wrote (digits, fixed words).
    unsafe { alloc::string::String::from_utf8_unchecked(b) }
}
