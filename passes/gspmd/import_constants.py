"""`xla-sdy-import-constants`: each `stablehlo.constant` as an `sdy.constant`, which greedy rewriters do not fold
(so constants XLA sank into loops stay there), as XLA's pass of that name does."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common.constants import replace_constant
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
            replace_constant(op, "sdy.constant")
