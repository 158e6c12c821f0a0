use interp_macros::filter;

filter! {
    pub struct Bad {
        name: "bad",
        support: 1.0,
        border: clamp,
        radius: 2.0,
        weight: |x| 1.0 - abs(x),
    }
}

fn main() {}
