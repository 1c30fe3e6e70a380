//! The float operations wasm has as single instructions, which core does
//! not offer on stable (`f64::sqrt`, `floor`, … are std's): on wasm32
//! wasi-libc's functions, which the crate links already and which compile
//! to `f64.sqrt`, `f64.floor`, `f64.ceil`, `f64.trunc` and `f64.nearest`
//! (and the `f32` ones); elsewhere std's.

#[cfg(target_arch = "wasm32")]
mod imp {
    // SAFETY: wasi-libc's (musl's) functions of these names and C types
    // take any value (NaN, infinities and negatives included), touch no
    // memory and never set errno in this build: each is the one wasm
    // instruction. Nothing a caller passes can make them undefined, so they
    // are declared safe to call.
    unsafe extern "C" {
        pub safe fn sqrt(x: f64) -> f64;
        pub safe fn floor(x: f64) -> f64;
        pub safe fn ceil(x: f64) -> f64;
        pub safe fn trunc(x: f64) -> f64;
        /// Round to nearest, ties to even (the default rounding mode).
        pub safe fn rint(x: f64) -> f64;
        pub safe fn sqrtf(x: f32) -> f32;
        pub safe fn floorf(x: f32) -> f32;
        pub safe fn ceilf(x: f32) -> f32;
        pub safe fn truncf(x: f32) -> f32;
        pub safe fn rintf(x: f32) -> f32;
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    extern crate std;

    pub fn sqrt(x: f64) -> f64 {
        x.sqrt()
    }
    pub fn floor(x: f64) -> f64 {
        x.floor()
    }
    pub fn ceil(x: f64) -> f64 {
        x.ceil()
    }
    pub fn trunc(x: f64) -> f64 {
        x.trunc()
    }
    pub fn rint(x: f64) -> f64 {
        x.round_ties_even()
    }
    pub fn sqrtf(x: f32) -> f32 {
        x.sqrt()
    }
    pub fn floorf(x: f32) -> f32 {
        x.floor()
    }
    pub fn ceilf(x: f32) -> f32 {
        x.ceil()
    }
    pub fn truncf(x: f32) -> f32 {
        x.trunc()
    }
    pub fn rintf(x: f32) -> f32 {
        x.round_ties_even()
    }
}

pub(crate) use imp::{ceil, ceilf, floor, floorf, rint, rintf, sqrt, sqrtf, trunc, truncf};
