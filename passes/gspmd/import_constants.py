"""`xla-sdy-import-constants`: each `stablehlo.constant` as an `sdy.constant`, which greedy rewriters do not fold
(so constants XLA sank into loops stay there), as XLA's pass of that name does."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.registry import FUNC, Pass, register_pass


@register_pass
@dataclasses.dataclass(frozen=True)
class ImportConstantsPass(Pass):
    argument = "xla-sdy-import-constants"
    summary = "Converts stablehlo.constant into sdy.constant."
    anchor = FUNC

    def run(self, func: ir.Operation) -> None:
        for op in nested_ops(func, name="stablehlo.constant"):
            constant = sdy.ConstantOp(
                op.attributes["value"], results=[op.results[0].type], loc=op.location, ip=ir.InsertionPoint(op)
            ).operation
            for name in op.attributes:
                if name != "value":
                    constant.attributes[name] = op.attributes[name]
            op.results[0].replace_all_uses_with(constant.results[0])
            op.erase()
