"""`sdy-drop-sharding-and-mesh`: remove every `sdy.sharding` (on ops and on function arguments and results) and
every `sdy.mesh` op, as jaxlib 0.10.2's C++ pass does.

Version difference: jaxlib 0.10.2 erases every mesh op, even one a sharding constraint or a collective still
names (the module then fails to verify); jaxlib 0.11.2 and 0.12.0.1 keep those, and 0.12.0.1 adds the
`keep-module-sharding-metadata` option.
"""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common.func_attrs import SHARDING, num_arguments, num_results, set_arg_attrs, set_result_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.registry import Pass, register_pass


@register_pass
@dataclasses.dataclass(frozen=True)
class DropShardingAndMeshPass(Pass):
    argument = "sdy-drop-sharding-and-mesh"
    summary = "Drops all shardings and meshes."

    def run(self, op: ir.Operation) -> None:
        for nested in nested_ops(op):
            attributes = nested.attributes
            if SHARDING in attributes:
                del attributes[SHARDING]
            if nested.name == "func.func":
                set_arg_attrs(nested, dict.fromkeys(range(num_arguments(nested))))
                set_result_attrs(nested, dict.fromkeys(range(num_results(nested))))
        for mesh_op in nested_ops(op, name="sdy.mesh"):
            mesh_op.erase()
