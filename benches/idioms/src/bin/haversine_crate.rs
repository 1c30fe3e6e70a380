//! A great-circle distance (haversine) with `float::sin`, `cos`, `asin` and `sqrt`.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        let (lat, lon) = (name.len() as f64 * 0.01, name.len() as f64 * 0.02);
        let (s, c) = (subako_tiny::float::sin(lat / 2.0), subako_tiny::float::cos(lat));
        let h = s * s + c * subako_tiny::float::cos(0.8) * subako_tiny::float::sin(lon / 2.0) * subako_tiny::float::sin(lon / 2.0);
        let d = 2.0 * 6371.0 * subako_tiny::float::asin(subako_tiny::float::sqrt(h));
        if d > 100.0 { "far" } else { "near" }
    }
}
