//! Compile-time diagnostics of `filter!`: each bad declaration fails with a spanned message,
//! and a valid one declared outside interp-kernels compiles.

#[test]
fn declarations() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/pass/*.rs");
}
