//! The weight body after validation: a small typed expression language of the distance `x`.

use proc_macro2::Ident;

/// A validated weight expression. Every name is resolved and every function known.
#[derive(Clone, Debug)]
pub enum WeightExpr {
    /// A numeric literal.
    Number(f64),
    /// `true` or `false`.
    Bool(bool),
    /// The distance parameter, a `let` binding or a declared constant.
    Name(Ident),
    /// `PI`.
    Pi,
    /// `SUPPORT`: the declaration's support.
    Support,
    Unary(UnaryOp, Box<WeightExpr>),
    Binary(BinaryOp, Box<WeightExpr>, Box<WeightExpr>),
    Call(Function, Vec<WeightExpr>),
    If {
        cond: Box<WeightExpr>,
        then: Box<WeightExpr>,
        otherwise: Box<WeightExpr>,
    },
    /// `{ let a = ..; let b = ..; value }`
    Block {
        bindings: Vec<(Ident, WeightExpr)>,
        value: Box<WeightExpr>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
}

impl BinaryOp {
    /// Whether both operands are numbers (else both are booleans).
    pub fn takes_numbers(self) -> bool {
        !matches!(self, BinaryOp::And | BinaryOp::Or)
    }
    /// Whether the result is a number (else a boolean).
    pub fn gives_number(self) -> bool {
        matches!(self, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div)
    }
}

/// The functions a weight body may call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Function {
    Abs,
    Sin,
    Cos,
    Exp,
    Sqrt,
    Floor,
    Min,
    Max,
    /// The normalized sinc, `sin(pi x) / (pi x)`, 1 at 0.
    Sinc,
}

impl Function {
    pub const ALL: [(&'static str, Function); 9] = [
        ("abs", Function::Abs),
        ("sin", Function::Sin),
        ("cos", Function::Cos),
        ("exp", Function::Exp),
        ("sqrt", Function::Sqrt),
        ("floor", Function::Floor),
        ("min", Function::Min),
        ("max", Function::Max),
        ("sinc", Function::Sinc),
    ];

    pub fn lookup(name: &str) -> Option<Function> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
    }

    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|(_, f)| *f == self).map(|(n, _)| *n).unwrap_or("?")
    }

    pub fn arity(self) -> usize {
        match self {
            Function::Min | Function::Max => 2,
            _ => 1,
        }
    }
}
