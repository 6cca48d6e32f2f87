"""`sdy-propagate-to-func-results`: give every non-main function's results the shardings of the values it returns."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common import func_attrs
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.export.remove_sub_axes_in_input_output_shardings import main_func
from pysdy.passes.registry import MODULE, Pass, PassFailure, register_pass


@register_pass
@dataclasses.dataclass(frozen=True)
class PropagateToFuncResultsPass(Pass):
    argument = "sdy-propagate-to-func-results"
    summary = "Propagate shardings from the func terminator to func results."
    anchor = MODULE

    def run(self, op: ir.Operation) -> None:
        main = main_func(op)
        if main is None:
            op.location.emit_error("Failed to find the main function")
            raise PassFailure()
        for func in op.regions[0].blocks[0].operations:
            func = func.operation
            if func.name != "func.func" or func == main or not func.regions[0].blocks:  # declarations have no results to read
                continue
            terminator = list(func.regions[0].blocks[0].operations)[-1].operation
            if terminator.name != "func.return":
                continue
            shardings = map(get_sharding, terminator.operands)
            func_attrs.set_result_attrs(func, {
                index: None if sharding is None else sharding.to_attr() for index, sharding in enumerate(shardings)
            })
