use interp_runtime::filter;

// Sampling is chosen per call (`Options`), not declared with the filter.
filter! {
    pub struct Bad {
        name: "bad",
        support: 1.0,
        border: clamp,
        antialias: true,
        align_corners: true,
        mapping: area,
        weight: |x| 1.0 - abs(x),
    }
}

fn main() {}
