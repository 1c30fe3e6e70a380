// The manual, in Markdown beside this file: each chapter is a module with
// no items, so `cargo doc` shows it, a vendored copy carries it (`src/**`),
// and its examples run as doctests.
#![doc = include_str!("README.md")]

#[doc = include_str!("writing-tools.md")]
pub mod writing_tools {}

#[doc = include_str!("schemas.md")]
pub mod schemas {}

#[doc = include_str!("http.md")]
pub mod http_requests {}

#[doc = include_str!("files.md")]
pub mod files {}

#[doc = include_str!("host-tests.md")]
pub mod host_tests {}

#[doc = include_str!("typed-tools.md")]
pub mod typed_tools {}

#[doc = include_str!("small-modules.md")]
pub mod small_modules {}

#[doc = include_str!("measuring.md")]
pub mod measuring {}

#[doc = include_str!("limits.md")]
pub mod limits {}

#[doc = include_str!("official-sdk.md")]
pub mod official_sdk {}

#[doc = include_str!("build.md")]
pub mod build {}
