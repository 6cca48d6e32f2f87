"""`sdy-propagate-to-func-results`: give function results the shardings of the values their functions return."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import TensorSharding
from pysdy.passes.common import func_attrs
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.common.main_function import main_func
from pysdy.passes.export.reshard_ir import MeshTable
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
        line = versions.installed()
        meshes = MeshTable(op)
        for func in op.regions[0].blocks[0].operations:
            func = func.operation
            if func.name != "func.func" or not func.regions[0].blocks:  # declarations have no results to read
                continue
            if func == main and not line.func_results_fill_main:
                continue
            terminator = list(func.regions[0].blocks[0].operations)[-1].operation
            if terminator.name != "func.return":
                continue
            shardings = [get_sharding(value) for value in terminator.operands]
            if line.func_results_skip_maximal:
                shardings = [None if s is not None and meshes.of(s).is_maximal else s for s in shardings]
            if func == main:
                _fill_unsharded_results(func, shardings)
            else:
                func_attrs.set_result_attrs(func, {
                    index: None if sharding is None else sharding.to_attr() for index, sharding in enumerate(shardings)
                })


def _fill_unsharded_results(func: ir.Operation, shardings: list[TensorSharding | None]) -> None:
    """The main function keeps the shardings its results have; each other result takes its returned value's."""
    current = func_attrs.result_shardings(func)
    func_attrs.set_result_attrs(func, {
        index: sharding.to_attr()
        for index, sharding in enumerate(shardings)
        if sharding is not None and current[index] is None
    })
