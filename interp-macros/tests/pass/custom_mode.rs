use interp_kernels::Filter;
use interp_macros::filter;

filter! {
    /// A user's own mode: a raised-cosine window, declared outside interp-kernels.
    pub struct RaisedCosine {
        name: "raised-cosine",
        support: 1.5,
        border: renormalize,
        antialias: true,
        const HALF = 0.5,
        weight: |x| if abs(x) < 1.5 { HALF + HALF * cos(PI * x / 1.5) } else { 0.0 },
    }
}

fn main() {
    assert_eq!(RaisedCosine::DESC.name, "raised-cosine");
    assert_eq!(RaisedCosine::weight_f64(0.0), 1.0);
}
