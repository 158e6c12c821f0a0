//! The public entry points: validate everything, then launch.

use cubecl::prelude::*;
use interp_kernels::Filter;

use crate::error::InterpError;
use crate::launch::{build_table, gather, Direction, GatherIo};
use crate::options::{FilterVisitor, InterpolateOptions, ResizeOptions};
use crate::plan::{plan, Plan};
use crate::tensor::{check_no_self_overlap, check_tensor, TensorRef};

/// The forward output shape `interpolate` will produce for `input_shape` with `options`.
pub fn output_shape(input_shape: [usize; 4], options: &InterpolateOptions) -> Result<[usize; 4], InterpError> {
    Ok(plan(&options.mode.desc(), input_shape, &options.resize_options())?.output)
}

/// Resamples `input` into `output` with a built-in mode.
pub fn interpolate<R: Runtime>(
    client: &ComputeClient<R>,
    input: TensorRef,
    output: TensorRef,
    options: &InterpolateOptions,
) -> Result<Plan, InterpError> {
    struct Forward<'a, R: Runtime> {
        client: &'a ComputeClient<R>,
        input: TensorRef<'a>,
        output: TensorRef<'a>,
        options: ResizeOptions,
    }
    impl<R: Runtime> FilterVisitor for Forward<'_, R> {
        type Output = Result<Plan, InterpError>;
        fn visit<F: Filter>(self) -> Self::Output {
            interpolate_with::<R, F>(self.client, self.input, self.output, &self.options)
        }
    }
    options.mode.visit(Forward {
        client,
        input,
        output,
        options: options.resize_options(),
    })
}

/// Gradient of [`interpolate`]: reads `grad_out`, writes every element of `grad_in`
/// (deterministically, no atomics).
pub fn interpolate_backward<R: Runtime>(
    client: &ComputeClient<R>,
    grad_out: TensorRef,
    grad_in: TensorRef,
    options: &InterpolateOptions,
) -> Result<Plan, InterpError> {
    struct Backward<'a, R: Runtime> {
        client: &'a ComputeClient<R>,
        grad_out: TensorRef<'a>,
        grad_in: TensorRef<'a>,
        options: ResizeOptions,
    }
    impl<R: Runtime> FilterVisitor for Backward<'_, R> {
        type Output = Result<Plan, InterpError>;
        fn visit<F: Filter>(self) -> Self::Output {
            interpolate_backward_with::<R, F>(self.client, self.grad_out, self.grad_in, &self.options)
        }
    }
    options.mode.visit(Backward {
        client,
        grad_out,
        grad_in,
        options: options.resize_options(),
    })
}

/// [`interpolate`] for any declared filter, built-in or your own.
pub fn interpolate_with<R: Runtime, F: Filter>(
    client: &ComputeClient<R>,
    input: TensorRef,
    output: TensorRef,
    options: &ResizeOptions,
) -> Result<Plan, InterpError> {
    let dtype = input.dtype;
    check_dtype(client, dtype)?;
    let src = check_tensor("input", &input, dtype)?;
    let plan = plan(&F::DESC, src.shape, options)?;
    let dst = check_tensor("output", &output, dtype)?;
    if dst.shape != plan.output {
        return Err(InterpError::OutputShape {
            expected: plan.output,
            actual: output.shape.to_vec(),
        });
    }
    check_no_self_overlap("output", &dst)?;
    let rows = build_table::<R, F>(client, &plan.rows, Direction::Forward);
    let cols = build_table::<R, F>(client, &plan.cols, Direction::Forward);
    let io = GatherIo {
        src: input.handle,
        src_view: src,
        dst: output.handle,
        dst_view: dst,
        src_dtype: dtype,
        dst_dtype: dtype,
    };
    gather(client, &io, &rows, &cols);
    Ok(plan)
}

/// [`interpolate_backward`] for any declared filter.
pub fn interpolate_backward_with<R: Runtime, F: Filter>(
    client: &ComputeClient<R>,
    grad_out: TensorRef,
    grad_in: TensorRef,
    options: &ResizeOptions,
) -> Result<Plan, InterpError> {
    let dtype = grad_out.dtype;
    check_dtype(client, dtype)?;
    let dst = check_tensor("grad_in", &grad_in, dtype)?;
    let plan = plan(&F::DESC, dst.shape, options)?;
    let src = check_tensor("grad_out", &grad_out, dtype)?;
    if src.shape != plan.output {
        return Err(InterpError::GradOutShape {
            input: plan.input,
            expected: plan.output,
            actual: grad_out.shape.to_vec(),
        });
    }
    check_no_self_overlap("grad_in", &dst)?;
    let rows = build_table::<R, F>(client, &plan.rows, Direction::Adjoint);
    let cols = build_table::<R, F>(client, &plan.cols, Direction::Adjoint);
    let io = GatherIo {
        src: grad_out.handle,
        src_view: src,
        dst: grad_in.handle,
        dst_view: dst,
        src_dtype: dtype,
        dst_dtype: dtype,
    };
    gather(client, &io, &rows, &cols);
    Ok(plan)
}

fn check_dtype<R: Runtime>(client: &ComputeClient<R>, dtype: crate::dtype::DType) -> Result<(), InterpError> {
    if dtype.is_supported(client) {
        Ok(())
    } else {
        Err(InterpError::UnsupportedDtype {
            dtype,
            runtime: R::name(client).to_string(),
        })
    }
}
