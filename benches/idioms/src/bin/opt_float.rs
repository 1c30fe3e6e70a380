//! `args.opt_float("x")`: reading a float argument (what parse_f64 must not cost more than).
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(args: &Args<'_>, _: &str) -> &'static str {
        match args.opt_float("x") {
            Ok(Some(x)) if x > 1.5 => "big",
            Ok(_) => "small",
            Err(_) => "not a number",
        }
    }
}
