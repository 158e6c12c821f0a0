//! Meaning: every key, value and weight body checked, all errors collected, each spanned on
//! the token at fault.

use std::collections::HashMap;

use proc_macro2::{Ident, Span};
use quote::ToTokens;
use syn::{Expr, Lit, Pat, Stmt};

use crate::ast::{Declaration, Entry};
use crate::model::{FilterModel, MAX_SUPPORT};
use crate::weight::{BinaryOp, Function, UnaryOp, WeightExpr};

const KEYS: [&str; 3] = ["name", "support", "weight"];

/// Keys of earlier versions and where their meaning went: sampling is chosen per call.
const MOVED_KEYS: [(&str, &str); 4] = [
    (
        "border",
        "the border rule is an option of each call (`Options::border`), not part of a filter",
    ),
    (
        "antialias",
        "antialiasing is an option of each call (`Options::antialias`), not part of a filter",
    ),
    (
        "align_corners",
        "align_corners is an option of each call (`Options::align_corners`); every filter accepts it",
    ),
    (
        "mapping",
        "nearest, nearest-exact and area are samplers (`Sampler::Nearest`, `Sampler::NearestExact`, `Sampler::Area`), not filters",
    ),
];

/// Integers above this are not all exact in f64.
const MAX_EXACT_INTEGER: u64 = 1 << 53;

/// All errors of one declaration, reported together.
#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn push(&mut self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        let error = syn::Error::new_spanned(tokens, message);
        self.push_error(error);
    }
    fn push_at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.push_error(syn::Error::new(span, message));
    }
    fn push_error(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }
}

/// Checks a declaration and builds its model, or returns every error found.
pub fn validate(declaration: &Declaration) -> syn::Result<FilterModel> {
    let mut errors = Errors::default();
    let mut values: HashMap<String, &Expr> = HashMap::new();
    let mut params: Vec<(Ident, f64)> = Vec::new();
    let mut constants: Vec<(Ident, WeightExpr)> = Vec::new();
    // Every name a later entry can see: parameters and constants, in declaration order.
    let mut scope = Scope::default();

    for entry in &declaration.entries {
        match entry {
            Entry::Key { key, value } => {
                let name = key.to_string();
                if let Some((_, moved)) = MOVED_KEYS.iter().find(|(k, _)| *k == name) {
                    errors.push(key, format!("`{name}` is not a filter key: {moved}"));
                } else if !KEYS.contains(&name.as_str()) {
                    errors.push(
                        key,
                        format!("unknown key `{name}`; expected one of: {}, `param`, `const`", KEYS.join(", ")),
                    );
                } else if let std::collections::hash_map::Entry::Vacant(slot) = values.entry(name.clone()) {
                    slot.insert(value);
                } else {
                    errors.push(key, format!("duplicate key `{name}`"));
                }
            }
            Entry::Param { name, value } => {
                let declared = scope.declare(name, "parameter", &mut errors);
                let default = number_literal(value, "a parameter's default", &mut errors);
                if let (true, Some(default)) = (declared, default) {
                    params.push((name.clone(), default));
                }
            }
            Entry::Const { name, value } => {
                let lowered = lower(value, &scope, &mut errors);
                let declared = scope.declare(name, "constant", &mut errors);
                match lowered {
                    Some((expr, Ty::Number)) if declared => constants.push((name.clone(), expr)),
                    Some((_, Ty::Bool)) => errors.push(value, format!("constant `{name}` must be a number, not a boolean")),
                    _ => {}
                }
            }
        }
    }

    let ident = &declaration.ident;
    let mut required = |key: &str| -> Option<&Expr> {
        let found = values.get(key).copied();
        if found.is_none() {
            errors.push(ident, format!("missing key `{key}` in the declaration of `{ident}`"));
        }
        found
    };
    let name_expr = required("name");
    let support_expr = required("support");
    let weight = required("weight");

    let name = name_expr.and_then(|e| {
        let value = string_value(e);
        match &value {
            None => errors.push(e, "`name` must be a string literal, e.g. `name: \"bilinear\"`"),
            Some(n) if n.is_empty() => errors.push(e, "`name` must not be empty"),
            Some(_) => {}
        }
        value
    });
    let support = support_expr.and_then(|e| {
        let value = number_literal(e, "`support`", &mut errors)?;
        if !(value > 0.0 && value <= MAX_SUPPORT) {
            errors.push(
                e,
                format!("`support` must be > 0 and at most {MAX_SUPPORT} (input pixels at scale 1), found {value}"),
            );
            return None;
        }
        Some(value)
    });

    let lowered_weight = weight.and_then(|w| lower_weight(w, &scope, &mut errors));

    match (errors.0, name, support, lowered_weight) {
        (Some(error), ..) => Err(error),
        (None, Some(name), Some(support), Some((param, weight))) => Ok(FilterModel {
            attrs: declaration.attrs.clone(),
            vis: declaration.vis.clone(),
            ident: declaration.ident.clone(),
            name,
            support,
            params,
            constants,
            param,
            weight,
        }),
        // Every `None` above reported an error; this arm keeps the validator panic-free.
        (None, ..) => Err(syn::Error::new_spanned(ident, "invalid filter declaration")),
    }
}

fn string_value(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(s) if s.suffix().is_empty() => Some(s.value()),
            _ => None,
        },
        _ => None,
    }
}

/// A number literal, possibly negated (`support`, parameter defaults); reports its own errors.
fn number_literal(expr: &Expr, what: &str, errors: &mut Errors) -> Option<f64> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: lit @ (Lit::Int(_) | Lit::Float(_)),
            ..
        }) => literal_value(lit, errors),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => number_literal(&u.expr, what, errors).map(|v| -v),
        Expr::Group(g) => number_literal(&g.expr, what, errors),
        _ => {
            errors.push(expr, format!("{what} must be a number literal, e.g. `2.0`"));
            None
        }
    }
}

/// The value of a numeric literal: unsuffixed, finite in f64, integers exact in f64.
fn literal_value(lit: &Lit, errors: &mut Errors) -> Option<f64> {
    let (suffix, value) = match lit {
        Lit::Int(i) => (i.suffix(), int_value(i, errors)?),
        Lit::Float(f) => (f.suffix(), float_value(f, errors)?),
        _ => return None,
    };
    if !suffix.is_empty() {
        errors.push(
            lit,
            format!("a literal in a filter takes no type suffix (`{suffix}`): every number is an f64"),
        );
        return None;
    }
    Some(value)
}

fn int_value(i: &syn::LitInt, errors: &mut Errors) -> Option<f64> {
    match i.base10_parse::<u64>() {
        Ok(v) if v <= MAX_EXACT_INTEGER => Some(v as f64),
        _ => {
            errors.push(
                i,
                format!(
                    "integer literal `{}` is beyond 2^53, where f64 loses integers; write it as a float",
                    i.base10_digits()
                ),
            );
            None
        }
    }
}

fn float_value(f: &syn::LitFloat, errors: &mut Errors) -> Option<f64> {
    match f.base10_parse::<f64>() {
        Ok(v) if v.is_finite() => Some(v),
        _ => {
            errors.push(f, format!("float literal `{}` is not a finite f64", f.base10_digits()));
            None
        }
    }
}

/// `|x| body`: exactly one plain parameter, then a valid numeric body.
fn lower_weight(expr: &Expr, scope: &Scope, errors: &mut Errors) -> Option<(Ident, WeightExpr)> {
    let Expr::Closure(closure) = expr else {
        errors.push(expr, "`weight` must be a closure of the distance, e.g. `weight: |x| 1.0 - abs(x)`");
        return None;
    };
    if closure.inputs.len() != 1 {
        errors.push(
            &closure.inputs,
            format!(
                "the weight closure takes exactly one parameter (the distance), found {}",
                closure.inputs.len()
            ),
        );
        return None;
    }
    let Pat::Ident(param) = &closure.inputs[0] else {
        errors.push(&closure.inputs[0], "the weight parameter must be a plain name such as `x`");
        return None;
    };
    if matches!(&*closure.body, Expr::Block(b) if b.block.stmts.is_empty()) {
        errors.push(
            &closure.body,
            "the weight body is empty; it must compute the weight of distance `x`",
        );
        return None;
    }
    let mut scope = scope.clone();
    let declared = scope.declare(&param.ident, "the distance", errors);
    let (body, ty) = lower(&closure.body, &scope, errors)?;
    if !declared {
        return None;
    }
    if ty != Ty::Number {
        errors.push(&closure.body, "the weight body must evaluate to a number, not a boolean");
        return None;
    }
    Some((param.ident.clone(), body))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Number,
    Bool,
}

impl Ty {
    fn describe(self) -> &'static str {
        match self {
            Ty::Number => "a number",
            Ty::Bool => "a boolean",
        }
    }
}

/// Names visible at a point of the declaration: parameters, constants, the distance and
/// `let` bindings. No name may be declared twice (no shadowing), nor take a built-in's name.
#[derive(Clone, Default)]
struct Scope {
    names: Vec<(String, &'static str)>,
}

impl Scope {
    fn contains(&self, name: &str) -> bool {
        self.names.iter().any(|(n, _)| n == name)
    }

    /// Adds `ident` (a `kind` of name); false, with an error, when it would shadow a name.
    fn declare(&mut self, ident: &Ident, kind: &'static str, errors: &mut Errors) -> bool {
        let name = ident.to_string();
        if name == "PI" || name == "SUPPORT" || Function::lookup(&name).is_some() {
            errors.push(
                ident,
                format!("`{name}` is a built-in name of the filter language; choose another name"),
            );
            return false;
        }
        if let Some((_, earlier)) = self.names.iter().find(|(n, _)| *n == name) {
            errors.push(
                ident,
                format!("`{name}` is already declared (as {earlier}); names in a filter must not shadow each other"),
            );
            return false;
        }
        self.names.push((name, kind));
        true
    }

    fn list(&self) -> String {
        let mut names: Vec<&str> = self.names.iter().map(|(n, _)| n.as_str()).collect();
        names.extend(["PI", "SUPPORT"]);
        names.join(", ")
    }
}

/// Lowers one expression, reporting every problem inside it. `None` when it is invalid.
fn lower(expr: &Expr, scope: &Scope, errors: &mut Errors) -> Option<(WeightExpr, Ty)> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            number @ (Lit::Float(_) | Lit::Int(_)) => literal_value(number, errors).map(|v| (WeightExpr::Number(v), Ty::Number)),
            Lit::Bool(b) => Some((WeightExpr::Bool(b.value), Ty::Bool)),
            other => {
                errors.push(other, "only number and boolean literals are allowed in a weight");
                None
            }
        },
        Expr::Path(path) => {
            let Some(ident) = path.path.get_ident() else {
                errors.push(
                    path,
                    "only plain names are allowed here (the distance, a `let` binding, a declared constant or `PI`)",
                );
                return None;
            };
            let name = ident.to_string();
            if scope.contains(&name) {
                Some((WeightExpr::Name(ident.clone()), Ty::Number))
            } else if name == "PI" {
                Some((WeightExpr::Pi, Ty::Number))
            } else if name == "SUPPORT" {
                Some((WeightExpr::Support, Ty::Number))
            } else {
                errors.push(ident, format!("unknown identifier `{name}`; in scope: {}", scope.list()));
                None
            }
        }
        Expr::Paren(p) => lower(&p.expr, scope, errors),
        Expr::Group(g) => lower(&g.expr, scope, errors),
        Expr::Unary(u) => {
            let (op, want) = match u.op {
                syn::UnOp::Neg(_) => (UnaryOp::Neg, Ty::Number),
                syn::UnOp::Not(_) => (UnaryOp::Not, Ty::Bool),
                _ => {
                    errors.push(u, "unsupported unary operator in a weight (only `-` and `!`)");
                    return None;
                }
            };
            let (inner, ty) = lower(&u.expr, scope, errors)?;
            check_type(errors, &u.expr, ty, want)?;
            Some((WeightExpr::Unary(op, Box::new(inner)), want))
        }
        Expr::Binary(b) => {
            let op = binary_op(&b.op);
            let lhs = lower(&b.left, scope, errors);
            let rhs = lower(&b.right, scope, errors);
            let Some(op) = op else {
                errors.push(b.op, "unsupported operator in a weight; use + - * / < <= > >= == != && ||");
                return None;
            };
            let (lhs, lt) = lhs?;
            let (rhs, rt) = rhs?;
            let want = if op.takes_numbers() { Ty::Number } else { Ty::Bool };
            let l = check_type(errors, &b.left, lt, want);
            let r = check_type(errors, &b.right, rt, want);
            l.and(r)?;
            let out = if op.gives_number() { Ty::Number } else { Ty::Bool };
            Some((WeightExpr::Binary(op, Box::new(lhs), Box::new(rhs)), out))
        }
        Expr::Call(call) => {
            let Expr::Path(fpath) = &*call.func else {
                errors.push(&call.func, "only calls of named functions are allowed");
                return None;
            };
            let fname = fpath.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
            let args: Vec<_> = call.args.iter().map(|a| (a, lower(a, scope, errors))).collect();
            let Some(function) = Function::lookup(&fname) else {
                let known: Vec<_> = Function::ALL.iter().map(|(n, _)| *n).collect();
                errors.push(
                    &call.func,
                    format!(
                        "unknown function `{}`; a weight may call: {}",
                        fpath.to_token_stream(),
                        known.join(", ")
                    ),
                );
                return None;
            };
            if args.len() != function.arity() {
                errors.push(
                    call,
                    format!("`{}` takes {} argument(s), found {}", function.name(), function.arity(), args.len()),
                );
                return None;
            }
            let mut lowered = Vec::new();
            for (arg, result) in args {
                let (expr, ty) = result?;
                check_type(errors, arg, ty, Ty::Number)?;
                lowered.push(expr);
            }
            Some((WeightExpr::Call(function, lowered), Ty::Number))
        }
        Expr::MethodCall(m) => {
            errors.push(
                &m.method,
                format!("method calls are not supported; write `{}(..)` as a function call", m.method),
            );
            None
        }
        Expr::If(i) => {
            let cond = lower(&i.cond, scope, errors);
            let then = lower_block(&i.then_branch, scope, errors);
            let Some((_, otherwise)) = &i.else_branch else {
                errors.push(i, "an `if` in a weight needs an `else` branch (the weight is an expression)");
                return None;
            };
            let otherwise = lower(otherwise, scope, errors);
            let (cond, ct) = cond?;
            check_type(errors, &i.cond, ct, Ty::Bool)?;
            let (then, tt) = then?;
            let (otherwise, ot) = otherwise?;
            if tt != ot {
                errors.push(i, format!("`if` branches differ: {} and {}", tt.describe(), ot.describe()));
                return None;
            }
            Some((
                WeightExpr::If {
                    cond: Box::new(cond),
                    then: Box::new(then),
                    otherwise: Box::new(otherwise),
                },
                tt,
            ))
        }
        Expr::Block(b) => lower_block(&b.block, scope, errors),
        other => {
            errors.push(
                other,
                "unsupported syntax in a weight; allowed: numbers, names, + - * / comparisons, && || !, calls, if/else, blocks with `let`",
            );
            None
        }
    }
}

fn lower_block(block: &syn::Block, scope: &Scope, errors: &mut Errors) -> Option<(WeightExpr, Ty)> {
    let mut scope = scope.clone();
    let mut bindings = Vec::new();
    let mut value = None;
    let mut ok = true;
    let count = block.stmts.len();
    if count == 0 {
        errors.push_at(block.brace_token.span.join(), "empty block; it must end with a value");
        return None;
    }
    for (index, stmt) in block.stmts.iter().enumerate() {
        let last = index + 1 == count;
        match stmt {
            Stmt::Local(local) => {
                let Pat::Ident(pat) = &local.pat else {
                    errors.push(&local.pat, "a `let` in a weight binds one plain name, without a type");
                    ok = false;
                    continue;
                };
                let Some(init) = &local.init else {
                    errors.push(local, "a `let` in a weight needs a value");
                    ok = false;
                    continue;
                };
                match lower(&init.expr, &scope, errors) {
                    Some((expr, Ty::Number)) => bindings.push((pat.ident.clone(), expr)),
                    Some(_) => {
                        errors.push(&init.expr, "a `let` in a weight must bind a number");
                        ok = false;
                    }
                    None => ok = false,
                }
                if !scope.declare(&pat.ident, "a `let` binding", errors) {
                    ok = false;
                }
                if last {
                    errors.push(local, "the block ends with a `let`; it must end with a value");
                    ok = false;
                }
            }
            Stmt::Expr(expr, None) if last => value = lower(expr, &scope, errors),
            other => {
                errors.push(
                    other,
                    "unsupported statement in a weight; only `let name = value;` and a final value",
                );
                ok = false;
            }
        }
    }
    let (value, ty) = value?;
    if !ok {
        return None;
    }
    if bindings.is_empty() {
        return Some((value, ty));
    }
    Some((
        WeightExpr::Block {
            bindings,
            value: Box::new(value),
        },
        ty,
    ))
}

fn check_type(errors: &mut Errors, at: &Expr, found: Ty, want: Ty) -> Option<()> {
    if found == want {
        Some(())
    } else {
        errors.push(at, format!("expected {}, found {}", want.describe(), found.describe()));
        None
    }
}

fn binary_op(op: &syn::BinOp) -> Option<BinaryOp> {
    use syn::BinOp as B;
    Some(match op {
        B::Add(_) => BinaryOp::Add,
        B::Sub(_) => BinaryOp::Sub,
        B::Mul(_) => BinaryOp::Mul,
        B::Div(_) => BinaryOp::Div,
        B::Lt(_) => BinaryOp::Lt,
        B::Le(_) => BinaryOp::Le,
        B::Gt(_) => BinaryOp::Gt,
        B::Ge(_) => BinaryOp::Ge,
        B::Eq(_) => BinaryOp::Eq,
        B::Ne(_) => BinaryOp::Ne,
        B::And(_) => BinaryOp::And,
        B::Or(_) => BinaryOp::Or,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors_of(src: proc_macro2::TokenStream) -> Vec<String> {
        let decl: Declaration = syn::parse2(src).expect("parses");
        match validate(&decl) {
            Ok(_) => vec![],
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn reports_every_error_at_once() {
        let errors = errors_of(quote::quote! {
            pub struct Bad { name: "bad", support: 0.0, border: clamp, weight: |x| foo(x) + y }
        });
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert!(errors[0].contains("`border` is not a filter key"), "{errors:?}");
        assert!(errors.iter().any(|e| e.contains("`support` must be > 0")), "{errors:?}");
        assert!(errors.iter().any(|e| e.contains("unknown function `foo`")), "{errors:?}");
        assert!(errors.iter().any(|e| e.contains("unknown identifier `y`")), "{errors:?}");
    }

    #[test]
    fn accepts_params_constants_lets_and_branches() {
        let errors = errors_of(quote::quote! {
            pub struct Good {
                name: "good", support: 2,
                param a = -0.5,
                const B = a * 2.0,
                weight: |t| { let u = abs(t); if u < 1.0 { (B + 2.0) * u * u * u } else { sinc(u / SUPPORT) } },
            }
        });
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn refuses_shadowing_and_literals_out_of_range() {
        let errors = errors_of(quote::quote! {
            pub struct Bad {
                name: "bad", support: 1e30,
                param a = 1.0,
                const x = 18446744073709551616,
                const a = 1e400,
                const C = 1e39,
                weight: |x| { let a = x; a * 1u8 },
            }
        });
        let expected = [
            "`support` must be > 0 and at most 1024",
            "integer literal `18446744073709551616` is beyond 2^53",
            "float literal `1e400` is not a finite f64",
            "`a` is already declared (as parameter)",
            "`x` is already declared (as constant)",
            "no type suffix",
        ];
        for text in expected {
            assert!(errors.iter().any(|e| e.contains(text)), "missing `{text}` in {errors:?}");
        }
        // 1e39 overflows f32 but not f64: weights are evaluated in f64, so it is accepted.
        assert!(!errors.iter().any(|e| e.contains("1e39")), "{errors:?}");
    }
}
