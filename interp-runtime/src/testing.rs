//! Helpers shared by the tests, the `tour` demo and the benchmark: tensors in several
//! layouts, poison for "never written", deterministic random data, dtype encoding, error
//! measures. Not needed to use interp.

use cubecl::prelude::*;
use cubecl::server::Handle;

use crate::{DType, TensorRef};

/// How a logical (N, C, spatial...) tensor is laid out in memory, for every rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Contiguous N, C, then the spatial axes (NCL, NCHW, NCDHW).
    Nchw,
    /// Channels last: contiguous N, the spatial axes, C (NLC, NHWC, NDHWC).
    Nhwc,
    /// A view into a larger channels-first buffer (the last spatial axis padded by 2, the one
    /// before it by 1): non-contiguous, with gaps that must never be written.
    PaddedView,
}

/// Every layout.
pub const LAYOUTS: [Layout; 3] = [Layout::Nchw, Layout::Nhwc, Layout::PaddedView];

impl Layout {
    /// Strides (elements) and buffer length for `shape` (any rank >= 3).
    pub fn strides(self, shape: impl AsRef<[usize]>) -> (Vec<usize>, usize) {
        let shape = shape.as_ref();
        let rank = shape.len();
        // Axes outermost first, and the padded length of each.
        let order: Vec<usize> = match self {
            Layout::Nhwc => [0].into_iter().chain(2..rank).chain([1]).collect(),
            _ => (0..rank).collect(),
        };
        let padded = |a: usize| match self {
            Layout::PaddedView if a == rank - 1 => shape[a] + 2,
            Layout::PaddedView if a == rank - 2 && rank > 3 => shape[a] + 1,
            _ => shape[a],
        };
        let mut strides = vec![0; rank];
        let mut step = 1;
        for &a in order.iter().rev() {
            strides[a] = step;
            step *= padded(a);
        }
        (strides, step)
    }
}

/// A device buffer holding a view of any rank.
pub struct DeviceTensor {
    /// The buffer.
    pub handle: Handle,
    /// Logical shape (N, C, spatial...).
    pub shape: Vec<usize>,
    /// Element strides.
    pub strides: Vec<usize>,
    /// Element type.
    pub dtype: DType,
    /// Buffer length in elements.
    pub len: usize,
}

impl DeviceTensor {
    /// The view as a call takes it.
    pub fn view(&self) -> TensorRef<'_> {
        TensorRef::new(&self.handle, &self.shape, &self.strides, self.dtype)
    }

    /// Offsets of the view's elements, in logical row-major order.
    pub fn offsets(&self) -> Vec<usize> {
        let mut out = vec![0usize];
        for (&n, &s) in self.shape.iter().zip(&self.strides) {
            out = out.iter().flat_map(|&base| (0..n).map(move |i| base + i * s)).collect();
        }
        out
    }
}

/// A quiet NaN in every dtype: what "never written" looks like.
pub const POISON: f64 = f64::NAN;

/// Little-endian bytes of `values` in `dtype`.
pub fn encode(dtype: DType, values: &[f64]) -> Vec<u8> {
    match dtype {
        DType::F32 => values.iter().flat_map(|&v| (v as f32).to_le_bytes()).collect(),
        DType::F16 => values.iter().flat_map(|&v| half::f16::from_f64(v).to_le_bytes()).collect(),
        DType::BF16 => values.iter().flat_map(|&v| half::bf16::from_f64(v).to_le_bytes()).collect(),
        DType::F64 => values.iter().flat_map(|&v| v.to_le_bytes()).collect(),
    }
}

/// Values of little-endian `bytes` in `dtype`.
pub fn decode(dtype: DType, bytes: &[u8]) -> Vec<f64> {
    match dtype {
        DType::F32 => bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()) as f64)
            .collect(),
        DType::F16 => bytes
            .chunks_exact(2)
            .map(|b| half::f16::from_le_bytes(b.try_into().unwrap()).to_f64())
            .collect(),
        DType::BF16 => bytes
            .chunks_exact(2)
            .map(|b| half::bf16::from_le_bytes(b.try_into().unwrap()).to_f64())
            .collect(),
        DType::F64 => bytes.chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().unwrap())).collect(),
    }
}

/// Values as the dtype stores them.
pub fn quantize(dtype: DType, values: &[f64]) -> Vec<f64> {
    decode(dtype, &encode(dtype, values))
}

/// Uploads logical row-major `values` into `layout`; the gaps of the buffer hold poison.
pub fn upload<R: Runtime>(
    client: &ComputeClient<R>,
    values: &[f64],
    shape: impl AsRef<[usize]>,
    layout: Layout,
    dtype: DType,
) -> DeviceTensor {
    let shape = shape.as_ref().to_vec();
    let (strides, len) = layout.strides(&shape);
    let mut t = DeviceTensor {
        handle: client.empty(0),
        shape,
        strides,
        dtype,
        len,
    };
    let mut buffer = vec![POISON; len];
    for (offset, v) in t.offsets().into_iter().zip(values) {
        buffer[offset] = *v;
    }
    t.handle = client.create_from_slice(&encode(dtype, &buffer));
    t
}

/// A destination entirely filled with poison.
pub fn poisoned<R: Runtime>(client: &ComputeClient<R>, shape: impl AsRef<[usize]>, layout: Layout, dtype: DType) -> DeviceTensor {
    let shape = shape.as_ref().to_vec();
    let (strides, len) = layout.strides(&shape);
    let handle = client.create_from_slice(&encode(dtype, &vec![POISON; len]));
    DeviceTensor {
        handle,
        shape,
        strides,
        dtype,
        len,
    }
}

/// The view's values in logical row-major order, and whether every element outside the view
/// still holds poison.
pub fn download<R: Runtime>(client: &ComputeClient<R>, t: &DeviceTensor) -> (Vec<f64>, bool) {
    let bytes = client.read_one(t.handle.clone()).expect("read back");
    let all = decode(t.dtype, &bytes);
    let offsets = t.offsets();
    let mut inside = vec![false; t.len];
    let values = offsets
        .iter()
        .map(|&o| {
            inside[o] = true;
            all[o]
        })
        .collect();
    let gaps_untouched = all.iter().zip(&inside).all(|(v, &i)| i || v.is_nan());
    (values, gaps_untouched)
}

/// Raw bytes of a buffer, for bitwise comparisons.
pub fn raw<R: Runtime>(client: &ComputeClient<R>, t: &DeviceTensor) -> Vec<u8> {
    client.read_one(t.handle.clone()).expect("read back").to_vec()
}

/// Deterministic uniform values in [-1, 1) (xorshift), different for every seed.
pub fn random(len: usize, seed: u64) -> Vec<f64> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        })
        .collect()
}

/// Max |a - b| over max(1, max |b|); NaN anywhere gives infinity.
pub fn relative_error(actual: &[f64], expected: &[f64]) -> f64 {
    let scale = expected.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    actual.iter().zip(expected).fold(0.0f64, |m, (a, e)| {
        let d = (a - e).abs();
        if d.is_nan() {
            f64::INFINITY
        } else {
            m.max(d / scale)
        }
    })
}
