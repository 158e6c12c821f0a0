//! Element types interp launches on.

use cubecl::ir::{ElemType, FloatKind, StorageType};
use cubecl::prelude::*;

/// Element type of a tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// IEEE binary32.
    F32,
    /// IEEE binary16 (sums accumulate in f32).
    F16,
    /// bfloat16 (sums accumulate in f32; CUDA only).
    BF16,
    /// IEEE binary64 (CUDA only).
    F64,
}

impl DType {
    /// Every dtype, in a fixed order.
    pub const ALL: [DType; 4] = [DType::F32, DType::F16, DType::BF16, DType::F64];

    /// Bytes per element.
    pub const fn size(self) -> usize {
        match self {
            DType::F32 => 4,
            DType::F16 | DType::BF16 => 2,
            DType::F64 => 8,
        }
    }

    /// The type sums are accumulated in: f64 for f64, else f32.
    pub const fn accumulator(self) -> DType {
        match self {
            DType::F64 => DType::F64,
            _ => DType::F32,
        }
    }

    pub(crate) fn storage(self) -> StorageType {
        let kind = match self {
            DType::F32 => FloatKind::F32,
            DType::F16 => FloatKind::F16,
            DType::BF16 => FloatKind::BF16,
            DType::F64 => FloatKind::F64,
        };
        StorageType::Scalar(ElemType::Float(kind))
    }

    /// Whether the device behind `client` can load, store and compute in this type.
    pub fn is_supported<R: Runtime>(self, client: &ComputeClient<R>) -> bool {
        client.properties().supports_type(self.storage())
    }
}

impl std::fmt::Display for DType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DType::F32 => "f32",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::F64 => "f64",
        })
    }
}
