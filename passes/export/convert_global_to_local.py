"""`sdy-convert-global-to-local`: jaxlib's Shardy rewrites a partitioned module from global to local (per-device)
shapes, its sdy collectives into StableHLO collectives, its manual computations and sdy constants away, and fails
on any other sdy op (a reshard, a sharding constraint, ...). pysdy does not implement that conversion: it leaves a
module the C++ leaves as it is (no sdy op but meshes and named computations, no dimension sharded on more than
one device) and refuses at the first op or function the C++ would rewrite or fail on. Like the C++, it fails on a
module given both more than one replica and more than one partition.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common.func_attrs import arg_shardings, result_shardings
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.export.reshard_ir import MeshTable
from pysdy.passes.registry import Pass, PassFailure, option, register_pass

_PASS = "sdy-convert-global-to-local"
# The sdy ops the conversion keeps as they are.
_KEPT_SDY_OPS = frozenset({"sdy.mesh", "sdy.named_computation", "sdy.return"})


@register_pass
@dataclasses.dataclass(frozen=True)
class ConvertGlobalToLocalPass(Pass):
    argument = _PASS
    summary = "Converts an SDY program from global shapes to local shapes."

    combine_multi_dimension_reduce_scatter: bool = option(
        False, "Combine multi-dimension reduce-scatter into a single reduce-scatter."
    )
    enable_rgv3: bool = option(
        versions.installed().convert_global_to_local_rgv3_by_default,
        "Use StableHLO ReplicaGroupV3 (mesh-axes based) for collectives.",
    )
    partition_count: int = option(1, "The number of partitions.", line_field="convert_global_to_local_device_counts")
    per_dim_all_gather: bool = option(
        False, "Keep per-dimension all-gather without combining them into a single all-gather."
    )
    replica_count: int = option(1, "The number of replicas.", line_field="convert_global_to_local_device_counts")

    def run(self, op: ir.Operation) -> None:
        if self.replica_count > 1 and self.partition_count > 1:
            op.location.emit_error(
                "Shardy partitioner convert_global_to_local does not support both replica_count > 1 and "
                "partition_count > 1 yet."
            )
            raise PassFailure()
        meshes = MeshTable(op)
        for nested in nested_ops(op, pre_order=True)[1:]:
            reason = _conversion(nested, meshes)
            if reason is not None:
                nested.location.emit_error(f"{_PASS}: pysdy does not implement converting '{nested.name}' {reason}")
                raise PassFailure()


def _conversion(op: ir.Operation, meshes: MeshTable) -> Optional[str]:
    """What the C++ would convert (or fail on) at `op`, None when it leaves the op as it is."""
    if op.name.startswith("sdy.") and op.name not in _KEPT_SDY_OPS:
        return "(an sdy op) to local shapes"
    if any(_splits(sharding, meshes) for sharding in _shardings_on(op)):
        return "with a dimension sharded across devices to local shapes"
    return None


def _shardings_on(op: ir.Operation) -> list[Optional[TensorSharding]]:
    """The shardings `op` carries: a function's arguments' and results', a named computation's, any op's results'."""
    if op.name == "func.func":
        return arg_shardings(op) + result_shardings(op)
    shardings: list[Optional[TensorSharding]] = []
    for name in ("sdy.sharding", "in_shardings", "out_shardings"):
        if name in op.attributes:
            shardings.extend(TensorShardingPerValue.from_attr(op.attributes[name]).shardings)
    return shardings


def _splits(sharding: Optional[TensorSharding], meshes: MeshTable) -> bool:
    """Whether a dimension is sharded on axes of more than one device (its local size differs)."""
    if sharding is None:
        return False
    mesh = meshes.of(sharding)
    for dim in sharding.dims:
        size = 1
        for axis in dim.axes:
            size *= axis.size(mesh)
        if size > 1:
            return True
    return False
