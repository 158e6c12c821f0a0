use interp_macros::filter;

filter! {
    pub struct Bad {
        name: "bad",
        support: "two",
        border: clamp,
        weight: |x| 1.0 - abs(x),
    }
}

fn main() {}
