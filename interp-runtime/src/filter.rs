//! What a filter is: a name, a support and a weight of the signed distance. `filter!`
//! declares one in a few lines; implementing [`Filter`] by hand works the same way.

/// Largest support interp accepts, in input pixels at scale 1 (`filter!` refuses more at
/// compile time): a clamped filter reads `2 ceil(support)` taps per output.
pub const MAX_SUPPORT: f64 = 1024.0;

/// A resampling filter: a weight of the signed distance `x` (in input pixels at scale 1),
/// zero for `|x| > support`. How it is sampled (border rule, antialias, align_corners) is
/// chosen per call in [`Options`](crate::Options).
///
/// interp evaluates the weight in f64 on the host, where it builds exact tap tables, so a
/// filter is plain Rust: no GPU code.
///
/// ```
/// use interp_runtime::Filter;
///
/// /// A hand-written triangle of radius 2.
/// struct WideTent;
///
/// impl Filter for WideTent {
///     fn name(&self) -> &str { "wide-tent" }
///     fn support(&self) -> f64 { 2.0 }
///     fn weight(&self, x: f64) -> f64 { (1.0 - x.abs() / 2.0).max(0.0) }
/// }
/// assert_eq!(WideTent.weight(1.0), 0.5);
/// ```
pub trait Filter: Send + Sync + 'static {
    /// Name used in errors and benchmarks, e.g. `"lanczos3"`.
    fn name(&self) -> &str;
    /// Support radius at scale 1, in input pixels: finite, > 0 and at most [`MAX_SUPPORT`].
    fn support(&self) -> f64;
    /// The weight at signed distance `x`; must be finite inside the support.
    fn weight(&self, x: f64) -> f64;
}

/// The normalized sinc, `sin(pi x) / (pi x)`, 1 at 0: `filter!`'s `sinc`.
pub fn sinc(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        let px = std::f64::consts::PI * x;
        px.sin() / px
    }
}
