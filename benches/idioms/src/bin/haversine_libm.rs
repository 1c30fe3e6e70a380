//! A great-circle distance (haversine) with libm's `sin`, `cos`, `asin` and `sqrt`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        let (lat, lon) = (name.len() as f64 * 0.01, name.len() as f64 * 0.02);
        let (s, c) = (libm::sin(lat / 2.0), libm::cos(lat));
        let h = s * s + c * libm::cos(0.8) * libm::sin(lon / 2.0) * libm::sin(lon / 2.0);
        let d = 2.0 * 6371.0 * libm::asin(libm::sqrt(h));
        if d > 100.0 { "far" } else { "near" }
    }
}
