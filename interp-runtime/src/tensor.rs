//! A tensor as interp sees it: a cubecl handle plus shape, strides (in elements) and dtype.

use cubecl::server::Handle;

use crate::dtype::DType;
use crate::error::InterpError;
use crate::plan::RANKS;

/// A view of a device buffer: (N, C, L), (N, C, H, W) or (N, C, D, H, W). Any strides work
/// (NCHW, NHWC, NDHWC, slices, transposes); strides are in elements.
#[derive(Clone, Copy, Debug)]
pub struct TensorRef<'a> {
    /// The device buffer the view lives in.
    pub handle: &'a Handle,
    /// Logical sizes: N, C, then the spatial axes.
    pub shape: &'a [usize],
    /// Element strides, one per axis (0 broadcasts an axis in inputs).
    pub strides: &'a [usize],
    /// Element type of the buffer.
    pub dtype: DType,
}

impl<'a> TensorRef<'a> {
    /// A view of `handle`; nothing is checked until the view is used in a call.
    pub fn new(handle: &'a Handle, shape: &'a [usize], strides: &'a [usize], dtype: DType) -> Self {
        Self {
            handle,
            shape,
            strides,
            dtype,
        }
    }
}

/// A checked view of any accepted rank: no zero dimension, inside its buffer.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Checked {
    pub shape: Vec<usize>,
    pub strides: Vec<usize>,
}

impl Checked {
    /// Elements from the view's first to one past its last element.
    pub fn span(&self) -> usize {
        span(&self.shape, &self.strides)
    }
}

fn span(shape: &[usize], strides: &[usize]) -> usize {
    shape.iter().zip(strides).map(|(&n, s)| (n - 1) * s).sum::<usize>() + 1
}

/// A 4-D view as the gather kernels take it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Checked4 {
    pub shape: [usize; 4],
    pub strides: [usize; 4],
}

impl Checked4 {
    /// Elements from the view's first to one past its last element.
    pub fn span(&self) -> usize {
        span(&self.shape, &self.strides)
    }

    /// Whether channels are the innermost dimension (NHWC-like), so units should run with
    /// channels fastest.
    pub fn channels_last(&self) -> bool {
        let d = self.strides;
        self.shape[1] > 1 && d[1] <= d[3] && d[1] <= d[2]
    }
}

/// Checks rank, emptiness, dtype, the handle's offset against the device's binding
/// `alignment`, and that every element lies inside the buffer.
pub(crate) fn check_tensor(name: &'static str, t: &TensorRef, dtype: DType, alignment: u64) -> Result<Checked, InterpError> {
    if !RANKS.contains(&t.shape.len()) {
        return Err(InterpError::WrongRank {
            tensor: name,
            rank: t.shape.len(),
            shape: t.shape.to_vec(),
        });
    }
    if t.strides.len() != t.shape.len() {
        return Err(InterpError::StridesRank {
            tensor: name,
            strides: t.strides.len(),
            rank: t.shape.len(),
        });
    }
    if t.shape.contains(&0) {
        return Err(InterpError::ZeroSized {
            tensor: name,
            shape: t.shape.to_vec(),
        });
    }
    if t.dtype != dtype {
        return Err(InterpError::DtypeMismatch {
            tensor: name,
            expected: dtype,
            actual: t.dtype,
        });
    }
    let offset = t.handle.offset_start.unwrap_or(0);
    if alignment > 1 && !offset.is_multiple_of(alignment) {
        return Err(InterpError::MisalignedOffset {
            tensor: name,
            offset,
            alignment,
        });
    }
    let needed = t
        .shape
        .iter()
        .zip(t.strides)
        .map(|(&n, &s)| (n as u64 - 1).saturating_mul(s as u64))
        .fold(1u64, u64::saturating_add);
    let available = t.handle.size_in_used() / t.dtype.size() as u64;
    if needed > available {
        return Err(InterpError::BufferTooSmall {
            tensor: name,
            shape: t.shape.to_vec(),
            strides: t.strides.to_vec(),
            needed,
            available,
        });
    }
    let max = u32::MAX as u64;
    if needed > max {
        return Err(InterpError::IndexOverflow {
            what: format!("{name} extent in elements"),
            value: needed,
            max,
        });
    }
    Ok(Checked {
        shape: t.shape.to_vec(),
        strides: t.strides.to_vec(),
    })
}

/// Checks that no two elements of an output share an address (each is written once).
pub(crate) fn check_no_self_overlap(name: &'static str, t: &Checked) -> Result<(), InterpError> {
    let mut dims: Vec<(usize, usize)> = t
        .shape
        .iter()
        .copied()
        .zip(t.strides.iter().copied())
        .filter(|(n, _)| *n > 1)
        .collect();
    dims.sort_by_key(|&(_, s)| s);
    let mut span = 1usize;
    for (n, s) in dims {
        if s < span {
            return Err(InterpError::OverlappingOutput {
                tensor: name,
                shape: t.shape.to_vec(),
                strides: t.strides.to_vec(),
            });
        }
        span = s.saturating_mul(n);
    }
    Ok(())
}

/// The identity of a handle's allocation. cubecl 0.10 keeps the id private; its `Debug` form
/// (`ManagedMemoryId { value: N }`) is the one public view of it, pinned with the crate and
/// covered by the aliasing tests.
fn memory_id(handle: &Handle) -> Option<String> {
    let text = format!("{:?}", handle.memory);
    let start = text.find("ManagedMemoryId")?;
    let end = start + text[start..].find('}')?;
    Some(text[start..=end].to_string())
}

/// Bytes of its allocation a view can touch: from its first to one past its last element.
fn byte_range(t: &TensorRef, view: &Checked) -> std::ops::Range<u64> {
    let base = t.handle.offset_start.unwrap_or(0);
    base..base + (view.span() * t.dtype.size()) as u64
}

/// Refuses a destination whose bytes overlap its source's in one allocation (an in-place
/// call would race). Interleaved views of one buffer that never share an element are refused
/// too when their byte ranges overlap: the check compares ranges, not element sets.
pub(crate) fn check_no_alias(
    written: (&'static str, &TensorRef, &Checked),
    read: (&'static str, &TensorRef, &Checked),
) -> Result<(), InterpError> {
    let (written_name, w, w_view) = written;
    let (read_name, r, r_view) = read;
    let same = match (memory_id(w.handle), memory_id(r.handle)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    };
    let (written_bytes, read_bytes) = (byte_range(w, w_view), byte_range(r, r_view));
    if same && written_bytes.start < read_bytes.end && read_bytes.start < written_bytes.end {
        return Err(InterpError::Aliasing {
            written: written_name,
            read: read_name,
            written_bytes,
            read_bytes,
        });
    }
    Ok(())
}
