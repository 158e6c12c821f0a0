use interp_runtime::filter;

filter! {
    pub struct Bad {
        name: "bad",
        support: 1.0,
        weight: |x| 1.0 - abs(y),
    }
}

fn main() {}
