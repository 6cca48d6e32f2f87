"""`sdy-remove-propagation-debug-info`: strip the sharding-origin and propagation-edge attributes propagation's debug modes leave."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.registry import MODULE, Pass, register_pass

DEBUG_ATTRS = (
    "sdy.propagation_edges",
    "sdy.block_arg_propagation_edges",
    "sdy.result_propagation_edges",
    "sdy.sharding_origins",
    "sdy.block_arg_sharding_origins",
    "sdy.result_sharding_origins",
)


@register_pass
@dataclasses.dataclass(frozen=True)
class RemovePropagationDebugInfoPass(Pass):
    argument = "sdy-remove-propagation-debug-info"
    summary = "Removes propagation debug info (propagation edges and origin shardings) during export."
    anchor = MODULE

    def run(self, op: ir.Operation) -> None:
        for nested in nested_ops(op):
            if nested.name == "func.func":
                _remove_from_func(nested)
                continue
            for name in DEBUG_ATTRS:
                if name in nested.attributes:
                    del nested.attributes[name]


def _remove_from_func(func: ir.Operation) -> None:
    for name in DEBUG_ATTRS:
        func_attrs.set_arg_attrs(func, dict.fromkeys(range(func_attrs.num_arguments(func))), name)
        func_attrs.set_result_attrs(func, dict.fromkeys(range(func_attrs.num_results(func))), name)
