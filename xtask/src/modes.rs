//! Every filter the xtask draws: the built-in modes' filters, then those of the user's crate
//! `tests/user-mode` (declared outside interp-runtime with `filter!`).

use std::sync::Arc;

use interp_runtime::{Filter, Method, Mode};
use interp_user_mode::{CosineRamp, Welch};

/// Where a filter is declared.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    BuiltIn,
    User,
}

/// Every declared filter, in order: each filter-mode's (as called without antialias), then
/// the user's.
pub fn all_filters() -> Vec<(Origin, Arc<dyn Filter>)> {
    let mut out: Vec<(Origin, Arc<dyn Filter>)> = Mode::ALL
        .iter()
        .filter_map(|mode| match mode.method(false) {
            Method::Filter(filter) => Some((Origin::BuiltIn, filter)),
            _ => None,
        })
        .collect();
    out.push((Origin::User, Arc::new(Welch)));
    out.push((Origin::User, Arc::new(CosineRamp::default())));
    out
}
