"""`xla-sdy-stablehlo-round-trip-export-callback-custom-calls`: host-callback custom calls in the shape XLA's compiler expects.

A callback with a single used non-tuple result returns it in a one-element
tuple, read back by a `get_tuple_element` that carries the callback's
`mhlo.sharding`. A callback whose results are unused stays as it is, as in
jaxlib 0.10.2's XLA (test_export_lit_inputs.py compares).
"""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.gspmd.export_shardings import HLO_SHARDING
from pysdy.passes.registry import MODULE, Pass, register_pass

PYTHON_CALLBACKS = (
    "xla_python_cpu_callback",
    "xla_python_gpu_callback",
    "xla_ffi_python_cpu_callback",
    "xla_ffi_python_gpu_callback",
)


def _clone_with_results(custom_call: ir.Operation, result_types: list[ir.Type]) -> ir.Operation:
    attributes = {name: custom_call.attributes[name] for name in custom_call.attributes}
    with ir.InsertionPoint(custom_call), custom_call.location:
        return ir.Operation.create(
            "stablehlo.custom_call", results=result_types, operands=list(custom_call.operands), attributes=attributes
        )


def _has_uses(op: ir.Operation) -> bool:
    return any(True for result in op.results for _ in result.uses)


@register_pass
@dataclasses.dataclass(frozen=True)
class StablehloRoundTripExportCallbackCustomCallsPass(Pass):
    argument = "xla-sdy-stablehlo-round-trip-export-callback-custom-calls"
    summary = "Converts the `CustomCallOp`s for host callbacks in XLA into the pattern that the XLA compiler recognizes."
    anchor = MODULE

    def run(self, op: ir.Operation) -> None:
        for custom_call in nested_ops(op, name="stablehlo.custom_call"):
            if ir.StringAttr(custom_call.attributes["call_target_name"]).value not in PYTHON_CALLBACKS:
                continue
            results = list(custom_call.results)
            if not _has_uses(custom_call) or len(results) != 1 or isinstance(results[0].type, ir.TupleType):
                continue
            tuple_call = _clone_with_results(custom_call, [ir.TupleType.get_tuple([results[0].type])])
            with ir.InsertionPoint(custom_call), custom_call.location:
                element = ir.Operation.create(
                    "stablehlo.get_tuple_element",
                    results=[results[0].type],
                    operands=[tuple_call.results[0]],
                    attributes={"index": ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 0)},
                )
            if HLO_SHARDING in custom_call.attributes:
                element.attributes[HLO_SHARDING] = custom_call.attributes[HLO_SHARDING]
            results[0].replace_all_uses_with(element.results[0])
            custom_call.erase()
