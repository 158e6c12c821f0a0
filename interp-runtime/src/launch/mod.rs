//! Device work, called only with validated inputs: build the per-axis tables (`table`),
//! choose how to run the gather (`choice`), launch it (`gather`).

mod choice;
mod gather;
mod table;

pub(crate) use gather::{gather, GatherIo};
pub(crate) use table::{build_table, Direction};

/// Calls `$launch!(source type, destination type, accumulator type)` for the dtypes of `$io`.
macro_rules! dispatch_dtypes {
    ($io:expr, $launch:ident) => {{
        use half::{bf16, f16};
        match ($io.src_dtype, $io.dst_dtype) {
            (DType::F32, DType::F32) => $launch!(f32, f32, f32),
            (DType::F16, DType::F16) => $launch!(f16, f16, f32),
            (DType::BF16, DType::BF16) => $launch!(bf16, bf16, f32),
            (DType::F64, DType::F64) => $launch!(f64, f64, f64),
            (DType::F16, DType::F32) => $launch!(f16, f32, f32),
            (DType::F32, DType::F16) => $launch!(f32, f16, f32),
            (DType::BF16, DType::F32) => $launch!(bf16, f32, f32),
            (DType::F32, DType::BF16) => $launch!(f32, bf16, f32),
            (src, dst) => unreachable!("no gather from {src} to {dst}: intermediates are in the accumulator type"),
        }
    }};
}

pub(crate) use dispatch_dtypes;

/// Units per cube of the one-dimensional launches.
const UNITS_PER_CUBE: u32 = 256;
