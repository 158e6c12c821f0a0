//! Compile-time diagnostics of `filter!`: each bad declaration fails with a spanned message,
//! and valid ones declared outside interp-runtime (through its re-export) compile.

#[test]
fn declarations() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/pass/*.rs");
}
