//! Every declared mode the xtask checks and draws: the built-in ones, then those of the user's
//! crate `tests/user-mode` (declared outside interp-kernels).

use interp_runtime::{FilterVisitor, Mode};
use interp_user_mode::{CosineRamp, Welch2};

/// Where a mode is declared.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    BuiltIn,
    User,
}

impl Origin {
    /// Prefix of a label: nothing for built-in modes, `user` for the user's crate.
    pub fn prefix(self) -> &'static str {
        match self {
            Origin::BuiltIn => "",
            Origin::User => "user ",
        }
    }
}

/// `visitor` run with every declared mode's filter type, in order.
pub fn visit_all<V: FilterVisitor + Copy>(visitor: V) -> Vec<(Origin, V::Output)> {
    let mut out: Vec<_> = Mode::ALL.iter().map(|mode| (Origin::BuiltIn, mode.visit(visitor))).collect();
    out.push((Origin::User, visitor.visit::<Welch2>()));
    out.push((Origin::User, visitor.visit::<CosineRamp>()));
    out
}
