//! `chars::find(name, needle)` with a needle known only at run time (its
//! second half), as a search tool has it: for the panic-location check of
//! tests/e2e/tests/budgets.rs, which a constant needle would not reach.
#![cfg_attr(target_arch = "wasm32", no_std, no_main)]
subako_idioms::probe! {
    fn said(_: &Args<'_>, name: &str) -> &'static str {
        let needle = name.get(name.len() / 2..).unwrap_or_default();
        if subako_tiny::chars::find(name, needle).is_some_and(|at| at > 2) { "late" } else { "early" }
    }
}
