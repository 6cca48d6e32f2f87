"""`sdy-remove-sub-axes-in-input-output-shardings`: on the main function's inputs/outputs, cut each open dimension at its first sub-axis."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import DimSharding, TensorSharding
from pysdy.passes.common.main_function import main_func
from pysdy.passes.common.sharding_walker import transform_func_shardings
from pysdy.passes.registry import MODULE, Pass, PassFailure, register_pass


def without_sub_axes(sharding: TensorSharding) -> TensorSharding:
    dims = []
    for dim in sharding.dims:
        if dim.is_closed:
            dims.append(dim)
            continue
        axes = []
        for axis in dim.axes:
            if axis.sub_axis is not None:
                break
            axes.append(axis)
        dims.append(DimSharding(tuple(axes), dim.is_closed, dim.priority))
    return dataclasses.replace(sharding, dims=tuple(dims))


@register_pass
@dataclasses.dataclass(frozen=True)
class RemoveSubAxesInInputOutputShardingsPass(Pass):
    argument = "sdy-remove-sub-axes-in-input-output-shardings"
    summary = "Removes sub-axes in input/output shardings."
    anchor = MODULE

    def run(self, op: ir.Operation) -> None:
        func = main_func(op)
        if func is None:
            op.location.emit_error("Failed to find the main function")
            raise PassFailure()
        transform_func_shardings(func, without_sub_axes)
