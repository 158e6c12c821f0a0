use interp_runtime::filter;

// Planning multiplies the support by the scale: it is bounded (MAX_SUPPORT = 1024).
filter! {
    pub struct Bad {
        name: "bad",
        support: 1e30,
        weight: |x| 1.0 - abs(x),
    }
}

fn main() {}
