use interp_runtime::filter;

// A const named like a param, a let named like the weight's argument or a built-in.
filter! {
    pub struct Bad {
        name: "bad",
        support: 1.0,
        param a = 0.5,
        const a = 1.0,
        weight: |x| {
            let x = 2.0;
            let PI = 3.0;
            let sinc = 1.0;
            x * a
        },
    }
}

fn main() {}
