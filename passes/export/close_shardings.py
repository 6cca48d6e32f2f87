"""`sdy-close-shardings`: close every dimension of every sharding and drop replicated axes."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.dialects.sdy import DimSharding, TensorSharding
from pysdy.passes.common.sharding_walker import transform_shardings
from pysdy.passes.registry import MODULE, Pass, register_pass


def closed_like(sharding: TensorSharding) -> TensorSharding:
    dims = tuple(DimSharding(d.axes, True, d.priority) for d in sharding.dims)
    return dataclasses.replace(sharding, dims=dims, replicated=())


@register_pass
@dataclasses.dataclass(frozen=True)
class CloseShardingsPass(Pass):
    argument = "sdy-close-shardings"
    summary = "Closes tensor shardings and drops replicated axes."
    anchor = MODULE

    def run(self, op: ir.Operation) -> None:
        transform_shardings(op, closed_like)
