//! Great-circle distances (haversine) with `float::sin`, `cos`, `asin` and `sqrt`: one from a
//! fixed point for each byte of the name (benches/trig.sh passes a long one).
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        let (lat0, lon0) = (0.8267, 0.1490);
        let mut total = 0.0;
        for (i, b) in name.bytes().enumerate() {
            let (lat, lon) = (b as f64 * 0.01 - 0.6, (i % 360) as f64 * 0.0174 - 3.1);
            let (s1, s2) = (subako_tiny::float::sin((lat - lat0) / 2.0), subako_tiny::float::sin((lon - lon0) / 2.0));
            let h = s1 * s1 + subako_tiny::float::cos(lat) * subako_tiny::float::cos(lat0) * s2 * s2;
            total += 2.0 * 6371.0 * subako_tiny::float::asin(subako_tiny::float::sqrt(h));
        }
        if total > 100.0 { "far" } else { "near" }
    }
}
