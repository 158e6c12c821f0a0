use interp_runtime::filter;

filter! {
    pub struct Bad {
        name: 3,
        support: -1.0,
        border: mirror,
        mapping: diagonal,
        weight: |x, y| x,
    }
}

fn main() {}
