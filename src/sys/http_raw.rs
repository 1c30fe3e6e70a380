//! The `subako_http` imports, raw, and one safe exchange over them.
//!
//! The worker performs HTTP requests on the guest's behalf. Its import
//! module `subako_http` holds two functions:
//!
//! - `request(ptr, len) -> i32` reads `len` bytes at `ptr` as a request in
//!   JSON, performs it, holds the answer (JSON too) and returns the
//!   answer's length in bytes;
//! - `read_response(ptr, len) -> i32` copies the held answer to `ptr`,
//!   where `len` must be that length, forgets it and returns 0.
//!
//! A negative return is a misuse of the ABI itself: [`ABI_OUT_OF_BOUNDS`],
//! [`ABI_NOTHING_HELD`] or [`ABI_LENGTH_MISMATCH`]. The platform's local
//! stub fails every request: `request` returns -1, `read_response` -2.
//! Off wasm32 there are no imports: [`exchange`] asks the calling thread's
//! test hook instead, or answers that there is no HTTP on the host.
//!
//! Only a module that calls [`exchange`] (or the imports) imports
//! anything from `subako_http`: the linker drops unused imports. What the
//! JSON means is `crate::http`'s business, not this file's.

use alloc::vec::Vec;

/// The range given lies outside the guest's memory. The platform's stub
/// also answers every `request` with it: no HTTP host is there.
pub const ABI_OUT_OF_BOUNDS: i32 = -1;
/// `read_response` ran with no answer held.
pub const ABI_NOTHING_HELD: i32 = -2;
/// `read_response`'s length is not the held answer's.
pub const ABI_LENGTH_MISMATCH: i32 = -3;

#[cfg(any(target_arch = "wasm32", doc))]
#[link(wasm_import_module = "subako_http")]
unsafe extern "C" {
    /// Reads the request JSON at `ptr..ptr + len`, performs the request and
    /// holds the answer. Returns the answer's length in bytes, or a
    /// negative ABI code.
    ///
    /// # Safety
    /// `ptr..ptr + len` must lie in this module's memory and be readable.
    pub fn request(ptr: i32, len: i32) -> i32;

    /// Copies the held answer to `ptr..ptr + len` (`len` must be the length
    /// [`request`] returned) and forgets it. Returns 0, or a negative ABI
    /// code.
    ///
    /// # Safety
    /// `ptr..ptr + len` must lie in this module's memory and may be
    /// overwritten by the host.
    pub fn read_response(ptr: i32, len: i32) -> i32;
}

/// Sends `request_json` and returns the worker's answer (JSON text), or the
/// code that either import returned instead (negative in the ABI).
#[cfg(target_arch = "wasm32")]
pub fn exchange(request_json: &[u8]) -> Result<Vec<u8>, i32> {
    let Ok(len) = i32::try_from(request_json.len()) else {
        return Err(ABI_OUT_OF_BOUNDS);
    };
    // SAFETY: the host reads `len` bytes from `request_json`, which is
    // alive and exactly that long for the whole call (wasm32 pointers are
    // 32 bits, so the cast keeps the address).
    let answer_len = unsafe { request(request_json.as_ptr() as i32, len) };
    if answer_len < 0 {
        return Err(answer_len);
    }
    let mut answer = alloc::vec![0u8; answer_len as usize];
    // SAFETY: `answer` is a live, writable buffer of exactly `answer_len`
    // bytes, which is all the host writes.
    match unsafe { read_response(answer.as_mut_ptr() as i32, answer_len) } {
        0 => Ok(answer),
        code => Err(code),
    }
}

/// Off the worker (a native build, a host test) the thread's HTTP hook
/// answers, when a test set one (`subako_tiny::testing::with_http`);
/// otherwise every request is answered with an error of kind `abi` that
/// says how to get HTTP.
#[cfg(not(target_arch = "wasm32"))]
pub fn exchange(request_json: &[u8]) -> Result<Vec<u8>, i32> {
    Ok(super::http_hook_answer(request_json).unwrap_or_else(|| NO_HTTP_ON_THE_HOST.to_vec()))
}

/// The host's answer to a request no hook answers.
#[cfg(not(target_arch = "wasm32"))]
pub const NO_HTTP_ON_THE_HOST: &[u8] = br#"{"error":{"kind":"abi","message":"no HTTP on the host: answer this tool's requests with subako_tiny::testing::call_with_http (or testing::with_http) in a test, or build the module for wasm32-wasip1 and run it with `subako-tiny call MODULE.wasm TOOL ARGS --allow-host HOST`"}}"#;
