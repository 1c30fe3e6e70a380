//! The request a failure answers: while a tool runs and its answer is
//! written, the id's text and the package's result prefix, kept as
//! pointers and lengths for the panic handler, which may allocate nothing
//! (the heap may be what ran out).

use core::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

// The id's text, in the request line (null when no answer is pending), and
// the package's result prefix that follows it.
static CALL_ID: AtomicPtr<u8> = AtomicPtr::new(core::ptr::null_mut());
static CALL_ID_LEN: AtomicUsize = AtomicUsize::new(0);
static RESULT_PREFIX: AtomicPtr<u8> = AtomicPtr::new(core::ptr::null_mut());
static RESULT_PREFIX_LEN: AtomicUsize = AtomicUsize::new(0);

/// Keeps `id` and `prefix` as the pending request's until [`answered`].
/// `id` must stay where it is, unchanged, until then: it is the request
/// line's, which the caller neither writes nor frees before the answer is
/// written (nothing unwinds on wasm32, so a failure ends the process with
/// the line still in place).
#[inline(always)]
pub fn answering(id: &[u8], prefix: &'static [u8]) {
    RESULT_PREFIX_LEN.store(prefix.len(), Ordering::Relaxed);
    RESULT_PREFIX.store(prefix.as_ptr() as *mut u8, Ordering::Relaxed);
    CALL_ID_LEN.store(id.len(), Ordering::Relaxed);
    CALL_ID.store(id.as_ptr() as *mut u8, Ordering::Relaxed);
}

/// The answer is written: no request is pending.
#[inline(always)]
pub fn answered() {
    CALL_ID.store(core::ptr::null_mut(), Ordering::Relaxed);
}

/// Writes `head`, then the pending request's id and result prefix, to
/// stdout, and forgets the request: how its failure's answer starts.
/// False, writing nothing, when no request is pending.
#[inline(always)]
pub fn write_pending(head: &[u8]) -> bool {
    let id = CALL_ID.swap(core::ptr::null_mut(), Ordering::Relaxed);
    if id.is_null() {
        return false;
    }
    // SAFETY: `answering` stored the id's text, which stays in place until
    // `answered` clears the pointer (its caller's promise), and the result
    // prefix, a static.
    let (id, prefix) = unsafe {
        (
            core::slice::from_raw_parts(id, CALL_ID_LEN.load(Ordering::Relaxed)),
            core::slice::from_raw_parts(
                RESULT_PREFIX.load(Ordering::Relaxed),
                RESULT_PREFIX_LEN.load(Ordering::Relaxed),
            ),
        )
    };
    let _ = super::write_all(super::STDOUT, head);
    let _ = super::write_all(super::STDOUT, id);
    let _ = super::write_all(super::STDOUT, prefix);
    true
}
