use interp_runtime::{filter, Filter};

filter! {
    /// A user's own filter: a raised-cosine window with a parameter, declared outside
    /// interp-runtime through its re-export of `filter!`.
    pub struct RaisedCosine {
        name: "raised-cosine",
        support: 1.5,
        param gain = 1.0,
        const HALF = 0.5,
        weight: |x| if abs(x) < SUPPORT { gain * (HALF + HALF * cos(PI * x / SUPPORT)) } else { 0.0 },
    }
}

filter! {
    /// No parameters: a unit struct.
    pub struct Tent {
        name: "tent",
        support: 1,
        weight: |x| max(0.0, 1.0 - abs(x)),
    }
}

fn main() {
    let filter = RaisedCosine::default();
    assert_eq!((filter.name(), filter.support()), ("raised-cosine", 1.5));
    assert_eq!(filter.weight(0.0), 1.0);
    assert_eq!(RaisedCosine::new(2.0).weight(0.0), 2.0);
    assert_eq!(RaisedCosine { gain: 3.0 }.weight(0.0), 3.0);
    assert_eq!(Tent.weight(0.25), 0.75);
    let _method: interp_runtime::Method = Tent.into();
}
