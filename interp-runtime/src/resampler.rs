//! A reusable plan: one (method, input shape, options) validated once, its tables built and
//! uploaded once per direction, then any number of forward and backward calls that pay the
//! gather alone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cubecl::prelude::*;

use crate::dtype::DType;
use crate::error::InterpError;
use crate::launch::{
    axis_table, check_device_array, check_loop_limit, depth_height_table, direction_taps, gather, route, weighted_product_by_default,
    Buffer, DeviceTable, Direction, GatherIo, Route, Slot, VolumeCall,
};
use crate::method::{resolve, Method, Rule};
use crate::options::{Options, Tuning};
use crate::plan::{axis_names, plan, Plan};
use crate::taps::forward_taps;
use crate::tensor::{check_no_alias, check_no_self_overlap, check_tensor, Checked, TensorRef};

/// One resize, planned once: a layer keeps one and calls [`forward`](Self::forward) and
/// [`backward`](Self::backward) every step. Tables are built on the first call of each
/// direction and kept on the device; the launch (strategy, vectors) is chosen per call from the
/// tensors' layout and dtype, a pure function of them.
///
/// ```
/// use interp_runtime::cubecl::prelude::*;
/// use interp_runtime::{DType, Mode, Options, Resampler, TensorRef};
///
/// let client = interp_runtime::default_client()?;
/// let up = Resampler::new(&client, Mode::Bicubic, [1, 3, 4, 4], &Options::size(8, 8))?;
/// assert_eq!(up.output_shape(), [1, 3, 8, 8]);
///
/// let x = client.create_from_slice(&[0.5f32; 48].map(f32::to_le_bytes).concat());
/// let y = client.empty(3 * 64 * 4);
/// up.forward(
///     TensorRef::new(&x, &[1, 3, 4, 4], &[48, 16, 4, 1], DType::F32),
///     TensorRef::new(&y, &[1, 3, 8, 8], &[192, 64, 8, 1], DType::F32),
/// )?;
/// let y: Vec<f32> = client.read_one(y).unwrap().chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
/// assert!(y.iter().all(|v| (v - 0.5).abs() < 1e-6)); // a constant stays constant
/// # Ok::<(), interp_runtime::InterpError>(())
/// ```
pub struct Resampler<R: Runtime> {
    client: ComputeClient<R>,
    name: String,
    rule: Rule,
    plan: Plan,
    tuning: Tuning,
    forward: Mutex<Option<Arc<Tables>>>,
    adjoint: Mutex<Option<Arc<Tables>>>,
    /// Identity tables of the lengths routes of other ranks than 4 read through.
    identities: Mutex<HashMap<usize, Arc<DeviceTable>>>,
    /// A rank-5 resize leaves its depth axis as it is: calls skip the depth pass.
    depth_identity: bool,
    /// A rank-5 resize builds the weighted depth x height product by default (few taps).
    weighted_product: bool,
}

/// Every spatial axis's table of one direction, on the device, outermost axis first, and for
/// volumes of nearest samplers and few-tap filters the depth and height tables' product (one
/// gather, no intermediate: `depth_height_table`).
struct Tables {
    axes: Vec<DeviceTable>,
    depth_height: Option<DeviceTable>,
}

/// A validated call: the caller's buffers and dtype, and the gathers that compute it.
struct Call<'a> {
    src: &'a cubecl::server::Handle,
    dst: &'a cubecl::server::Handle,
    dtype: DType,
    route: Route,
    tables: Arc<Tables>,
}

impl<R: Runtime> Resampler<R> {
    /// Plans a resize of inputs of `input_shape` ((N, C, L), (N, C, H, W) or (N, C, D, H, W))
    /// with `method` and `options` (one size or factor per spatial axis).
    ///
    /// # Errors
    /// [`InterpError`] when the options do not suit the method (e.g. antialias for a sampler),
    /// the filter is invalid, or a size is out of range (zero, beyond [`MAX_AXIS`](crate::MAX_AXIS),
    /// more elements than the 32-bit kernels index).
    pub fn new(
        client: &ComputeClient<R>,
        method: impl Into<Method>,
        input_shape: impl AsRef<[usize]>,
        options: &Options,
    ) -> Result<Self, InterpError> {
        let method = method.into();
        let rule = resolve(&method, options)?;
        let plan = plan(&rule, input_shape.as_ref(), options)?;
        // A table that cannot be built fails at the first call, as for other ranks.
        let (depth_identity, weighted_product) = match &plan.axes[..] {
            [depth, height, _] => match (forward_taps(&rule, depth), forward_taps(&rule, height)) {
                (Ok(d), Ok(h)) => (
                    d.is_identity(),
                    weighted_product_by_default(&options.tuning, (d.width(), h.width())),
                ),
                (d, _) => (d.is_ok_and(|taps| taps.is_identity()), false),
            },
            _ => (false, false),
        };
        Ok(Self {
            client: client.clone(),
            name: method.name().to_string(),
            rule,
            plan,
            tuning: options.tuning,
            forward: Mutex::new(None),
            adjoint: Mutex::new(None),
            identities: Mutex::new(HashMap::new()),
            depth_identity,
            weighted_product,
        })
    }

    /// The input shape this resampler was planned for.
    pub fn input_shape(&self) -> &[usize] {
        &self.plan.input
    }

    /// The output shape it produces.
    pub fn output_shape(&self) -> &[usize] {
        &self.plan.output
    }

    /// The method's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `output = resize(input)`. Both are any-strided views of the planned shapes, of one
    /// dtype; every element of `output` is written, nothing else.
    ///
    /// # Errors
    /// [`InterpError`] for a wrong shape, rank, dtype, stride or buffer size, an output that
    /// overlaps itself or the input, an unbindable offset, or tables the device cannot hold.
    /// Nothing is written then.
    pub fn forward(&self, input: TensorRef, output: TensorRef) -> Result<(), InterpError> {
        self.run(&self.call(input, output, Direction::Forward)?)
    }

    /// `grad_in = resize^T(grad_out)`, the exact adjoint of [`forward`](Self::forward): a
    /// gather in a fixed order, no atomics, the same bits on every run.
    ///
    /// # Errors
    /// As [`forward`](Self::forward), with `grad_out` of the output shape and `grad_in` of the
    /// input shape.
    pub fn backward(&self, grad_out: TensorRef, grad_in: TensorRef) -> Result<(), InterpError> {
        self.run(&self.call(grad_out, grad_in, Direction::Adjoint)?)
    }

    /// Validates a source and a destination against the plan's shapes in `direction` (named
    /// input/output forward, grad_out/grad_in backward), builds the direction's tables on
    /// first use, and routes the call through the kernels (which checks an intermediate fits
    /// the device).
    fn call<'a>(&self, src: TensorRef<'a>, dst: TensorRef<'a>, direction: Direction) -> Result<Call<'a>, InterpError> {
        let ((src_name, src_shape), (dst_name, dst_shape)) = match direction {
            Direction::Forward => (("input", &self.plan.input), ("output", &self.plan.output)),
            Direction::Adjoint => (("grad_out", &self.plan.output), ("grad_in", &self.plan.input)),
        };
        let dtype = src.dtype;
        check_dtype(&self.client, dtype)?;
        let alignment = self.client.properties().memory.alignment;
        let src_view = check_tensor(src_name, &src, dtype, alignment)?;
        check_shape(src_name, &src_view, src_shape, &self.plan)?;
        let dst_view = check_tensor(dst_name, &dst, dtype, alignment)?;
        check_shape(dst_name, &dst_view, dst_shape, &self.plan)?;
        check_no_self_overlap(dst_name, &dst_view)?;
        check_no_alias((dst_name, &dst, &dst_view), (src_name, &src, &src_view))?;
        let tables = self.tables(direction)?;
        let volume = VolumeCall {
            client: &self.client,
            tuning: self.tuning,
            dtype,
            depth_identity: self.depth_identity,
            product: tables.depth_height.as_ref(),
            width: tables.axes.last().expect("plans have a spatial axis"),
            src: (src.handle, &src_view),
            dst: (dst.handle, &dst_view),
        };
        let route = route(&src_view, &dst_view, volume.tables())?;
        if route.intermediate > 0 {
            let what = format!("the intermediate of a {:?} -> {:?} resize", src_view.shape, dst_view.shape);
            let bytes = dtype.accumulator().size() as u64;
            check_device_array(
                &self.client,
                &what,
                &format!("elements of {what}"),
                route.intermediate as u64,
                bytes,
            )?;
        }
        Ok(Call {
            src: src.handle,
            dst: dst.handle,
            dtype,
            route,
            tables,
        })
    }

    fn run(&self, call: &Call) -> Result<(), InterpError> {
        let tables = &call.tables;
        let acc = call.dtype.accumulator();
        let mid = (call.route.intermediate > 0).then(|| self.client.empty(call.route.intermediate * acc.size()));
        let buffer = |b: Buffer, caller| match b {
            Buffer::Caller => (caller, call.dtype),
            Buffer::Intermediate => (mid.as_ref().expect("a route with an intermediate allocates it"), acc),
        };
        for pass in &call.route.passes {
            let table = |slot| match slot {
                Slot::Axis(k) => TableRef::Axis(&tables.axes[k]),
                Slot::Identity(len) => TableRef::Shared(self.identity(len)),
                Slot::DepthHeight => TableRef::Axis(tables.depth_height.as_ref().expect("routed only where it is built")),
            };
            let (rows, cols) = (table(pass.rows), table(pass.cols));
            let ((src, src_dtype), (dst, dst_dtype)) = (buffer(pass.src.0, call.src), buffer(pass.dst.0, call.dst));
            let io = GatherIo {
                src,
                src_view: pass.src.1,
                src_dtype,
                dst,
                dst_view: pass.dst.1,
                dst_dtype,
                tuning: self.tuning,
            };
            gather(&self.client, &io, rows.get(), cols.get(), &|len| self.identity(len));
        }
        Ok(())
    }

    /// The identity table of `len`, uploaded once per resampler (rank routes and the 2-D
    /// two-pass gather).
    fn identity(&self, len: usize) -> Arc<DeviceTable> {
        let mut cache = self.identities.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry(len)
            .or_insert_with(|| Arc::new(DeviceTable::identity(&self.client, len)))
            .clone()
    }

    /// The direction's tables, built and uploaded on first use: both axes are built and
    /// checked on the host before anything is uploaded.
    fn tables(&self, direction: Direction) -> Result<Arc<Tables>, InterpError> {
        let slot = match direction {
            Direction::Forward => &self.forward,
            Direction::Adjoint => &self.adjoint,
        };
        // A poisoned lock only means another call panicked mid-build; the slot is still valid.
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tables) = &*slot {
            return Ok(tables.clone());
        }
        // Each axis's taps once: its table, and the depth x height product from them.
        let (mut taps, mut host) = (Vec::new(), Vec::new());
        for (axis, name) in self.plan.axes.iter().zip(axis_names(self.plan.input.len())) {
            let axis_taps = direction_taps(&self.rule, axis, direction)?;
            host.push(axis_table(&self.client, name, &axis_taps, direction)?);
            taps.push(axis_taps);
        }
        // The tables each gather of the route pairs (identities have one slot a row).
        let widths: Vec<usize> = host.iter().map(|t| t.width()).collect();
        match widths[..] {
            [length] => check_loop_limit(&self.client, 1, length)?,
            [height, width] => check_loop_limit(&self.client, height, width)?,
            [depth, height, width] => {
                check_loop_limit(&self.client, depth, 1)?;
                check_loop_limit(&self.client, height, width)?;
            }
            _ => unreachable!("plans have one to three spatial axes"),
        }
        // The product of depth and height, where it is exact, or weighted where the tuning asks
        // for it or the filter has few taps (`weighted_product_by_default`), and the runtime's
        // loop limit allows its rows beside the width's (else the two passes run); whether a
        // call reads it is `VolumeCall`'s rule.
        let product = self.tuning.volume_product;
        let depth_height = match &taps[..] {
            [depth, height, _] if !self.depth_identity && product != Some(false) => depth_height_table(
                &self.client,
                depth,
                height,
                direction,
                product == Some(true) || self.weighted_product,
            )
            .filter(|t| check_loop_limit(&self.client, t.width(), widths[2]).is_ok()),
            _ => None,
        };
        let tables = Arc::new(Tables {
            axes: host.iter().map(|t| t.upload(&self.client)).collect(),
            depth_height: depth_height.map(|t| t.upload(&self.client)),
        });
        *slot = Some(tables.clone());
        Ok(tables)
    }
}

/// A table of the call's direction, or an identity shared by the resampler's calls.
enum TableRef<'a> {
    Axis(&'a DeviceTable),
    Shared(Arc<DeviceTable>),
}

impl TableRef<'_> {
    fn get(&self) -> &DeviceTable {
        match self {
            TableRef::Axis(table) => table,
            TableRef::Shared(table) => table,
        }
    }
}

/// Refuses a view whose shape is not the one the plan expects.
fn check_shape(name: &'static str, view: &Checked, expected: &[usize], plan: &Plan) -> Result<(), InterpError> {
    if view.shape == expected {
        return Ok(());
    }
    let (expected, actual) = (expected.to_vec(), view.shape.clone());
    Err(match name {
        "output" => InterpError::OutputShape { expected, actual },
        "grad_out" => InterpError::GradOutShape {
            input: plan.input.clone(),
            expected,
            actual,
        },
        tensor => InterpError::InputShape { tensor, expected, actual },
    })
}

pub(crate) fn check_dtype<R: Runtime>(client: &ComputeClient<R>, dtype: DType) -> Result<(), InterpError> {
    if dtype.is_supported(client) {
        Ok(())
    } else {
        Err(InterpError::UnsupportedDtype {
            dtype,
            runtime: R::name(client).to_string(),
        })
    }
}
