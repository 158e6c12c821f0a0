//! Burn's default `Wgpu` and `Cuda` backends wrap `CubeBackend` in `Fusion`, which records
//! operations and runs them later: interp registers as a custom operation of the stream. The
//! call is validated before it is registered, so a bad call fails at the call, not at a sync.

use std::marker::PhantomData;

use burn::tensor::Shape;
use burn_fusion::stream::{Operation, OperationStreams};
use burn_fusion::{Fusion, FusionBackend, FusionRuntime};
use burn_ir::{CustomOpIr, HandleContainer, OperationIr, OperationOutput, TensorIr};
use interp_runtime::InterpError;

use crate::backend::{InterpBackend, Resize4};
use crate::cube::interp_dtype;

impl<B: FusionBackend + InterpBackend> InterpBackend for Fusion<B> {
    fn interp_forward(
        x: burn::tensor::ops::FloatTensor<Self>,
        resize: &Resize4,
    ) -> Result<burn::tensor::ops::FloatTensor<Self>, InterpError> {
        register::<B>(x, resize, false)
    }

    fn interp_backward(
        grad_out: burn::tensor::ops::FloatTensor<Self>,
        resize: &Resize4,
    ) -> Result<burn::tensor::ops::FloatTensor<Self>, InterpError> {
        register::<B>(grad_out, resize, true)
    }
}

/// The recorded operation: run on the inner backend when the stream executes.
#[derive(Clone, Debug)]
struct InterpOp<B> {
    desc: CustomOpIr,
    resize: Resize4,
    adjoint: bool,
    _backend: PhantomData<B>,
}

impl<B: FusionBackend + InterpBackend> Operation<B::FusionRuntime> for InterpOp<B> {
    fn execute(&self, handles: &mut HandleContainer<<B::FusionRuntime as FusionRuntime>::FusionHandle>) {
        let ([input], [output]) = self.desc.as_fixed();
        let src = handles.get_float_tensor::<B>(input);
        let result = if self.adjoint {
            B::interp_backward(src, &self.resize)
        } else {
            B::interp_forward(src, &self.resize)
        };
        // Shapes, options and dtype were validated at registration; what remains is the
        // device's (e.g. a dtype it lacks), which has no way back from a deferred stream.
        let dst = result.unwrap_or_else(|error| panic!("interp_burn (fused stream): {error}"));
        handles.register_float_tensor::<B>(&output.id, dst);
    }
}

fn register<B: FusionBackend + InterpBackend>(
    src: burn_fusion::FusionTensor<B::FusionRuntime>,
    resize: &Resize4,
    adjoint: bool,
) -> Result<burn_fusion::FusionTensor<B::FusionRuntime>, InterpError> {
    interp_dtype(src.dtype)?;
    let client = src.client.clone();
    let shape = if adjoint { resize.input } else { resize.output };
    let streams = OperationStreams::with_inputs([&src]);
    let out = TensorIr::uninit(client.create_empty_handle(), Shape::from(shape), src.dtype);
    let name = if adjoint { "interp_backward" } else { "interp_forward" };
    let desc = CustomOpIr::new(name, &[src.into_ir()], &[out]);
    let op = InterpOp::<B> {
        desc: desc.clone(),
        resize: resize.clone(),
        adjoint,
        _backend: PhantomData,
    };
    Ok(client.register(streams, OperationIr::Custom(desc), op).output())
}
