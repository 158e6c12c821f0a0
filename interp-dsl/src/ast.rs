//! The raw declaration, exactly as written: keys are not interpreted yet.

use syn::{Attribute, Expr, Ident, Token, Visibility};

/// `#[doc] pub struct Name { key: value, param a = value, const NAME = value, ... }`
pub struct Declaration {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub struct_token: Token![struct],
    pub ident: Ident,
    pub entries: Vec<Entry>,
}

/// One comma-separated item of the body.
pub enum Entry {
    /// `key: value`
    Key { key: Ident, value: Expr },
    /// `param name = default`: a named parameter, a public field of the struct.
    Param { name: Ident, value: Expr },
    /// `const NAME = value`: a named constant usable in the weight body.
    Const { name: Ident, value: Expr },
}
