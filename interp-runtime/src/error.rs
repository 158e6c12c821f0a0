//! Every way a call can be refused. Each message names the offending values.

use crate::dtype::DType;

/// Why a call refused to launch. Nothing was written. Every message names the values at
/// fault; the fields carry them for programs.
#[allow(missing_docs)] // Each variant's message documents it and its fields.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum InterpError {
    #[error("{tensor} must be a 3-D (N, C, L), 4-D (N, C, H, W) or 5-D (N, C, D, H, W) tensor, got rank {rank} (shape {shape:?})")]
    WrongRank {
        tensor: &'static str,
        rank: usize,
        shape: Vec<usize>,
    },
    #[error("{tensor} has {strides} strides for a rank-{rank} shape")]
    StridesRank { tensor: &'static str, strides: usize, rank: usize },
    #[error("{tensor} has a zero-sized dimension: shape {shape:?}")]
    ZeroSized { tensor: &'static str, shape: Vec<usize> },
    #[error("{tensor} has dtype {actual}, expected {expected}")]
    DtypeMismatch {
        tensor: &'static str,
        expected: DType,
        actual: DType,
    },
    #[error("dtype {dtype} has no interp kernels (they take f32, f16, bf16 and f64)")]
    ForeignDtype { dtype: String },
    #[error("dtype {dtype} is not supported by this device ({runtime})")]
    UnsupportedDtype { dtype: DType, runtime: String },
    #[error("{tensor}: shape {shape:?} with strides {strides:?} reaches element {needed}, but its buffer holds {available} elements")]
    BufferTooSmall {
        tensor: &'static str,
        shape: Vec<usize>,
        strides: Vec<usize>,
        needed: u64,
        available: u64,
    },
    #[error("{tensor}: strides {strides:?} make elements of shape {shape:?} overlap; an output must not alias itself")]
    OverlappingOutput {
        tensor: &'static str,
        shape: Vec<usize>,
        strides: Vec<usize>,
    },
    #[error("{tensor} has shape {actual:?}, but this resampler was planned for {expected:?}")]
    InputShape {
        tensor: &'static str,
        expected: Vec<usize>,
        actual: Vec<usize>,
    },
    #[error("output has shape {actual:?}, but the options give {expected:?}")]
    OutputShape { expected: Vec<usize>, actual: Vec<usize> },
    #[error("grad_out has shape {actual:?}, but the forward output for input {input:?} with these options is {expected:?}")]
    GradOutShape {
        input: Vec<usize>,
        expected: Vec<usize>,
        actual: Vec<usize>,
    },
    #[error("the options give {given} spatial sizes or factors, but a rank-{rank} input (shape {shape:?}) has {} spatial axes", rank - 2)]
    ResizeAxes { given: usize, rank: usize, shape: Vec<usize> },
    #[error("a resize takes one to three spatial sizes or factors (L; H, W; D, H, W), got {given}")]
    SpatialAxes { given: usize },
    #[error("input (shape, strides) {input:?} and output {output:?}: no two axes that a pass of the 5-D route leaves alone fold into one in both views (one's stride must be the other's length times its stride), so the kernels cannot index them; make one of them contiguous first")]
    UnfoldableLayout {
        input: (Vec<usize>, Vec<usize>),
        output: (Vec<usize>, Vec<usize>),
    },
    #[error("`{mode}` does not accept {option}: {reason}")]
    UnsupportedOption {
        mode: String,
        option: &'static str,
        reason: &'static str,
    },
    #[error("filter `{filter}` cannot be used: {reason}")]
    InvalidFilter { filter: String, reason: String },
    #[error("an output of this call sums up to {rows} rows x {cols} columns of taps; even in two passes one kernel invocation would run {iterations} loop iterations, and {runtime} runs at most {max} per invocation, all loops counted together (Mesa's llvmpipe silently stops there), so the call is refused rather than summed short")]
    LoopLimit {
        iterations: u64,
        rows: u64,
        cols: u64,
        runtime: String,
        max: u64,
    },
    #[error("no {runtime} device: {reason}. {hint}")]
    NoDevice {
        runtime: &'static str,
        reason: String,
        hint: &'static str,
    },
    #[error("scale factor for the {axis} axis must be finite and > 0, got {value}")]
    InvalidScale { axis: &'static str, value: f64 },
    #[error("output size for the {axis} axis must be > 0, got {value}")]
    InvalidSize { axis: &'static str, value: usize },
    #[error("scale factor {scale} on the {axis} axis turns input length {input} into output length 0")]
    EmptyOutput { axis: &'static str, input: usize, scale: f64 },
    #[error("{tensor} {axis} length {length} exceeds the longest axis the kernels index ({max})")]
    AxisTooLong {
        axis: &'static str,
        tensor: &'static str,
        length: u64,
        max: u64,
    },
    #[error(
        "{written} shares memory with {read} (bytes {written_bytes:?} and {read_bytes:?} of one buffer); interp never resamples in place"
    )]
    Aliasing {
        written: &'static str,
        read: &'static str,
        written_bytes: std::ops::Range<u64>,
        read_bytes: std::ops::Range<u64>,
    },
    #[error("{tensor} starts {offset} bytes into its buffer; this device binds buffers only at multiples of {alignment} bytes")]
    MisalignedOffset { tensor: &'static str, offset: u64, alignment: u64 },
    #[error("{what} needs {bytes} bytes in one allocation, more than this device allows ({max})")]
    AllocationTooLarge { what: String, bytes: u64, max: u64 },
    #[error("{what} = {value} exceeds the kernels' 32-bit index range (max {max})")]
    IndexOverflow { what: String, value: u64, max: u64 },
}

impl InterpError {
    /// The error with the mode's name where it names the filter behind a built-in mode.
    pub(crate) fn renamed(self, name: &str) -> Self {
        match self {
            InterpError::UnsupportedOption { option, reason, .. } => InterpError::UnsupportedOption {
                mode: name.to_string(),
                option,
                reason,
            },
            InterpError::InvalidFilter { reason, .. } => InterpError::InvalidFilter {
                filter: name.to_string(),
                reason,
            },
            other => other,
        }
    }
}
