//! Which depth x height products a volume's call may read in one gather instead of two passes
//! (`VolumeTables` for `route`): the measured rules of docs/PERFORMANCE.md v18 and v19.

use cubecl::prelude::*;
use cubecl::server::Handle;

use super::io::GatherIo;
use super::route::{depth_height, ProductRows, VolumeTables};
use super::runs::runs;
use super::table::DeviceTable;
use crate::dtype::DType;
use crate::options::{Strategy, Tuning};
use crate::tensor::Checked;

/// Whether a weighted filter's product table is built by default: where the forward reads at
/// most two taps per row along depth and along height (linear filters without antialias), so
/// that a product row holds at most 4 forward entries (16 in the adjoint of a 2x upsample).
/// The v19 A/B on an H100 (trilinear 2x up, two workloads) found the product 1.44-1.56x
/// faster than two passes channels-last in f16 and bf16, both directions; tricubic (16
/// forward entries a row) lost 0.59-0.77x there, so wider filters keep the two passes.
pub(crate) fn weighted_product_by_default(tuning: &Tuning, forward_widths: (usize, usize)) -> bool {
    tuning.volume_product.is_none() && forward_widths.0 <= 2 && forward_widths.1 <= 2
}

/// The tables a call's route may use: `product` and `width` (its rows and columns, where the
/// product is built) between `src` and `dst` (the caller's handles and validated views).
///
/// - Rows that are single runs (every forward of a nearest sampler): in every layout (v18).
/// - Rows of several runs (the adjoint of a depth upsample): channels-last (v18: NCHW lost
///   0.82-0.93x in the kernels that read rows as runs), and NCHW where the runs kernel reads
///   the gather (v19: 1.43x f32, 1.50x bf16 over the two passes).
/// - Weighted rows: channels-last in f16 and bf16 (v19: the two passes' f32 intermediate is
///   twice their tensors' bytes), not in f32 (forward 0.65-0.76x, backward 1.23-1.26x) nor NCHW
///   (0.34-0.89x).
/// - `Tuning::volume_product = Some(true)` or a forced runs kernel: every product, any layout.
pub(crate) struct VolumeCall<'a, R: Runtime> {
    pub client: &'a ComputeClient<R>,
    pub tuning: Tuning,
    pub dtype: DType,
    pub depth_identity: bool,
    pub product: Option<&'a DeviceTable>,
    pub width: &'a DeviceTable,
    pub src: (&'a Handle, &'a Checked),
    pub dst: (&'a Handle, &'a Checked),
}

impl<R: Runtime> VolumeCall<'_, R> {
    pub(crate) fn tables(&self) -> VolumeTables {
        let rows = self.product.map(|t| {
            if t.unit_runs() {
                ProductRows::Runs
            } else if t.split_runs() {
                ProductRows::SplitRuns
            } else {
                ProductRows::Weighted
            }
        });
        let forced = self.tuning.volume_product == Some(true) || self.tuning.strategy == Some(Strategy::Runs);
        let runs_read = || rows == Some(ProductRows::SplitRuns) && self.tuning.strategy.is_none() && self.runs_read_product();
        VolumeTables {
            depth_identity: self.depth_identity,
            depth_height: rows,
            product_any_layout: forced || runs_read(),
            weighted_channels_last: matches!(self.dtype, DType::F16 | DType::BF16),
        }
    }

    /// Whether the runs kernel would read the product gather (its default rule takes rows of
    /// several runs wherever it applies), where both views fold depth into height.
    fn runs_read_product(&self) -> bool {
        let (Some(product), Some((src_view, dst_view))) = (self.product, depth_height(self.src.1, self.dst.1)) else {
            return false;
        };
        let io = GatherIo {
            src: self.src.0,
            src_view,
            src_dtype: self.dtype,
            dst: self.dst.0,
            dst_view,
            dst_dtype: self.dtype,
            tuning: self.tuning,
        };
        runs(self.client, &io, product, self.width).is_some()
    }
}
