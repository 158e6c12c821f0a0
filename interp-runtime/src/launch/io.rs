//! What one gather reads and writes: the validated views of its source and destination, their
//! dtypes, and the call's tuning.

use cubecl::server::Handle;

use crate::dtype::DType;
use crate::options::Tuning;
use crate::tensor::Checked4;

/// Source and destination of one gather, already validated.
pub(crate) struct GatherIo<'a> {
    pub src: &'a Handle,
    pub src_view: Checked4,
    pub src_dtype: DType,
    pub dst: &'a Handle,
    pub dst_view: Checked4,
    pub dst_dtype: DType,
    pub tuning: Tuning,
}

impl GatherIo<'_> {
    /// Bytes of the wider of the two element types (what a unit loads or stores per element).
    pub fn element_bytes(&self) -> usize {
        self.src_dtype.size().max(self.dst_dtype.size())
    }
}
