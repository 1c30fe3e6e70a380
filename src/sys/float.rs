//! The float operations wasm has as single instructions, which core does
//! not offer on stable (`f64::sqrt`, `floor`, … are std's): on wasm32
//! wasi-libc's functions, which the crate links already and which compile
//! to `f64.sqrt`, `f64.floor`, `f64.ceil`, `f64.trunc` and `f64.nearest`
//! (and the `f32` ones); elsewhere std's. And the functions std's `f64`
//! methods call on wasm32 (`sin`, `exp`, `pow`…): wasi-libc's, which are
//! std's there, so the answers are std's bit for bit.

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

    // SAFETY: wasi-libc's math functions (musl's) take any `double`,
    // touch no memory but their own stack, and never set errno (musl's
    // math library does not), so no value a caller passes can make them
    // undefined: declared safe to call. They are what std's `f64::sin`,
    // `exp`, `powf`… call on wasm32.
    unsafe extern "C" {
        pub safe fn sin(x: f64) -> f64;
        pub safe fn cos(x: f64) -> f64;
        pub safe fn tan(x: f64) -> f64;
        pub safe fn asin(x: f64) -> f64;
        pub safe fn acos(x: f64) -> f64;
        pub safe fn atan(x: f64) -> f64;
        pub safe fn atan2(y: f64, x: f64) -> f64;
        pub safe fn exp(x: f64) -> f64;
        pub safe fn exp2(x: f64) -> f64;
        pub safe fn log(x: f64) -> f64;
        pub safe fn log2(x: f64) -> f64;
        pub safe fn log10(x: f64) -> f64;
        pub safe fn pow(x: f64, y: f64) -> f64;
        pub safe fn hypot(x: f64, y: f64) -> f64;
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
    pub fn sin(x: f64) -> f64 {
        x.sin()
    }
    pub fn cos(x: f64) -> f64 {
        x.cos()
    }
    pub fn tan(x: f64) -> f64 {
        x.tan()
    }
    pub fn asin(x: f64) -> f64 {
        x.asin()
    }
    pub fn acos(x: f64) -> f64 {
        x.acos()
    }
    pub fn atan(x: f64) -> f64 {
        x.atan()
    }
    pub fn atan2(y: f64, x: f64) -> f64 {
        y.atan2(x)
    }
    pub fn exp(x: f64) -> f64 {
        x.exp()
    }
    pub fn exp2(x: f64) -> f64 {
        x.exp2()
    }
    pub fn log(x: f64) -> f64 {
        x.ln()
    }
    pub fn log2(x: f64) -> f64 {
        x.log2()
    }
    pub fn log10(x: f64) -> f64 {
        x.log10()
    }
    pub fn pow(x: f64, y: f64) -> f64 {
        x.powf(y)
    }
    pub fn hypot(x: f64, y: f64) -> f64 {
        x.hypot(y)
    }
}

pub(crate) use imp::{acos, asin, atan, atan2, cos, exp, exp2, hypot, log, log2, log10, pow, sin, tan};
pub(crate) use imp::{ceil, ceilf, floor, floorf, rint, rintf, sqrt, sqrtf, trunc, truncf};
