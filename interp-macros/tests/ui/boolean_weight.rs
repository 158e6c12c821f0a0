use interp_runtime::filter;

filter! {
    pub struct Bad {
        name: "bad",
        support: 1.0,
        weight: |x| x < 1.0,
    }
}

fn main() {}
