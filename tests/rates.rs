//! The rates example's unit tests (its `#[cfg(test)] mod tests`: HTTP
//! answered by `testing::call_with_http`, the volume a mounted temporary
//! directory), which run only where a test target includes the example.
//! The real module runs in `tests/e2e/tests/rates.rs`, in wasmtime against
//! a server.

#[path = "../examples/rates.rs"]
mod rates;
