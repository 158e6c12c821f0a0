use interp_runtime::filter;

filter! {
    pub struct Bad {
        name: "bad",
        support: 1.0,
        weight: |x| if x < 1.0 { 1.0 },
    }
}

fn main() {}
