"""What `sdy-convert-global-to-local` adds after an op whose split reduction leaves partial results that no sdy
collective finishes (local_semantics.unfinished_reduction_axes), as jaxlib 0.12's Shardy adds it.

- A dot or convolution, or a gather's masked result: an all-reduce (sum)
  over the reduction's axes.
- A reduce or scatter with one result: an all-reduce over those axes with a
  copy of its body.
- A reduce with several results (an argmax): each partial result gets a
  trailing dimension of size 1 and is gathered along it over those axes;
  a second reduce with the same body and initial values reduces that
  dimension.

Every user of the op's results then reads the finished values.
"""

from __future__ import annotations

from typing import Sequence

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, Mesh
from pysdy.passes.export.local_collectives import CollectiveBuilder, reshape
from pysdy.passes.export.local_rewrites import keep_only_attributes
from pysdy.passes.export.reshard_ir import sort_and_merge_axes


def finish_partial_results(
    op: ir.Operation, axes: Sequence[AxisRef], mesh: Mesh, mesh_or_ref: ir.Attribute, build: CollectiveBuilder
) -> None:
    results = list(op.results)
    axes = sort_and_merge_axes(list(axes), mesh)  # (in mesh order, as an sdy collective names them)
    with ir.InsertionPoint.after(op), op.location:
        if op.name not in ("stablehlo.reduce", "stablehlo.scatter"):
            finished = [build.all_reduce(results[0], axes, "sum", mesh, mesh_or_ref)]
        elif len(results) == 1:
            finished = [build.all_reduce_as(results[0], axes, op, mesh, mesh_or_ref)]
        else:
            finished = _gathered_and_reduced(op, axes, mesh, mesh_or_ref, build)
    for result, value in zip(results, finished):
        readers = [use.owner.operation for use in result.uses if _made_here(use.owner, value)]
        result.replace_all_uses_except(value, readers)


def _gathered_and_reduced(
    reduce: ir.Operation, axes: Sequence[AxisRef], mesh: Mesh, mesh_or_ref: ir.Attribute, build: CollectiveBuilder
) -> list[ir.Value]:
    inputs = []
    for result in reduce.results:
        rank = len(result.type.shape)
        widened = reshape(result, [*result.type.shape, 1])
        inputs.append(build.all_gather_along(widened, rank, axes, mesh, mesh_or_ref))
    again = reduce.clone(ip=ir.InsertionPoint.current)
    keep_only_attributes(again, frozenset({"dimensions"}))
    again.attributes["dimensions"] = ir.DenseI64ArrayAttr.get([len(reduce.results[0].type.shape)])
    for index, value in enumerate(inputs):
        again.operands[index] = value
    return list(again.results)


def _made_here(user: ir.Operation, finished: ir.Value) -> bool:
    """Whether `user` is one of the ops that finish the result (they come before `finished`'s op, which ends them)."""
    user, last = user.operation, finished.owner.operation
    return user == last or (user.block == last.block and user.is_before_in_block(last))
