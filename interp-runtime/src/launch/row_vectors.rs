//! Gathers of rows alone, read along the width in vectors. A gather whose column table is the
//! identity (the depth pass of a volume, the row pass of two passes, a call that leaves the
//! width as it is) sums, for each output, the same column of its row taps' source rows. Where
//! that width is contiguous in both tensors, it is an axis no table resamples, as channels are
//! in a channels-last gather: the same gather with the channel and width axes of both views
//! swapped, an identity over the channels as its column table, runs the channel-vector
//! kernels — a unit per vector of consecutive columns, each row tap one vector load — where
//! the scalar kernels ran a unit per column (planes: one scalar load per tap and channel).
//! Each output still sums its row taps in order with the weights `w_row * 1`: the same bits.
//! Measured on an H100 (docs/PERFORMANCE.md v23, against the scalar kernels): the tricubic
//! volume 64^3 -> 128^3 forward 1.32-1.41x in both layouts, antialiased and area volumes
//! 1.16-1.43x, NCHW two-pass downsamples 1.11-1.40x, nothing slower beyond the noise. Why it
//! generalizes: the swapped gather is the channels-last one-pass gather of channel vectors,
//! which reads each tap as whole lines per warp whatever the shape, where the scalar kernels'
//! loads wait on their own table loads and coordinates (the depth pass ran at 18% of DRAM).

use std::sync::Arc;

use cubecl::prelude::*;

use super::choice::{vectorization, Vectorization};
use super::io::GatherIo;
use super::table::DeviceTable;
use crate::tensor::Checked4;

/// Whether row passes read their width in vectors unless the tuning says otherwise (measured:
/// see the module's comment).
const ROW_VECTORS_BY_DEFAULT: bool = true;

/// The gather with its width read as channel vectors, and the column table that goes with it
/// (the identity over the channels, from the caller's cache), where the column table is the
/// identity, the width is contiguous in both views (or, channels-last, both views' rows hold
/// their pixels contiguously and the channels make no vectors: [`pixel_rows`]), the tuning
/// allows it (`Tuning::row_vectors`) and vectors of two lanes or more fit the swapped views
/// (the width a multiple of the lanes, the other strides too; `choice::vectorization`, which
/// also keeps a runtime's loop cap).
pub(super) fn rows_in_width_vectors<'a, R: Runtime>(
    client: &ComputeClient<R>,
    io: &GatherIo<'a>,
    rows: &DeviceTable,
    cols: &DeviceTable,
    identity: &dyn Fn(usize) -> Arc<DeviceTable>,
) -> Option<(GatherIo<'a>, Arc<DeviceTable>)> {
    if !cols.identity || !io.tuning.row_vectors.unwrap_or(ROW_VECTORS_BY_DEFAULT) {
        return None;
    }
    let contiguous = |v: &Checked4| v.strides[3] == 1 && v.shape[3] > 1;
    let (src_view, dst_view) = if contiguous(&io.src_view) && contiguous(&io.dst_view) {
        (io.src_view, io.dst_view)
    } else {
        // Only where both views fold: the channel-vector check costs a vectorization choice.
        let channel_vectors = || {
            matches!(
                vectorization(client, io, rows.mean_taps, (rows.width as u64, 1)),
                Vectorization::Channels(v) if v > 1
            )
        };
        match (pixel_rows(&io.src_view), pixel_rows(&io.dst_view)) {
            (Some(src), Some(dst)) if !channel_vectors() => (src, dst),
            _ => return None,
        }
    };
    let swapped = GatherIo {
        src_view: channels_for_width(src_view),
        dst_view: channels_for_width(dst_view),
        ..*io
    };
    match vectorization(client, &swapped, rows.mean_taps, (rows.width as u64, 1)) {
        Vectorization::Channels(v) if v > 1 => Some((swapped, identity(dst_view.shape[1]))),
        _ => None,
    }
}

/// A channels-last view whose rows hold their pixels contiguously (the channel stride 1, the
/// width's the channel count) read as one channel along a width of `width * channels`
/// elements: what a gather of rows alone does to each element of a row does not depend on
/// which pixel or channel it is. Measured on an H100 (docs/PERFORMANCE.md v31): the row pass
/// of RGB's two passes ran as one scalar channel a unit (long-scoreboard stalls, DRAM at
/// 12%); in width vectors it is the NCHW row pass.
fn pixel_rows(v: &Checked4) -> Option<Checked4> {
    let [n, c, h, w] = v.shape;
    let [sn, sc, sh, sw] = v.strides;
    (c > 1 && sc == 1 && sw == c).then_some(Checked4 {
        shape: [n, 1, h, w * c],
        strides: [sn, w * c, sh, 1],
    })
}

/// `v` with its channel and width axes swapped: (N, C, H, W) read as (N, W, H, C).
fn channels_for_width(v: Checked4) -> Checked4 {
    let [n, c, h, w] = v.shape;
    let [sn, sc, sh, sw] = v.strides;
    Checked4 {
        shape: [n, w, h, c],
        strides: [sn, sw, sh, sc],
    }
}
