use interp_macros::filter;

filter! {
    pub struct Bad {
        name: "bad",
        support: 1.0,
        border: clamp,
    }
}

fn main() {}
