//! Package tables and schemas the build refuses: each case in tests/ui must
//! fail to compile with the message in its `.stderr` file, naming the tool
//! (or the `validated!` call) and the rule. Regenerate the messages with
//! `TRYBUILD=overwrite cargo test --test compile_fail` and review the diff.

#[test]
fn bad_tables_fail_the_build() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
