"""`sdy-pad-for-divisibility`: jaxlib's Shardy pads each tensor whose sharding does not divide its shape to a
divisible shape (masking the padding where an op would read it). pysdy checks what the C++ checks first, a function
argument or result with a non-divisible sharding (the C++'s error, then its conversion's), and refuses any other
non-divisible sharding (it does not implement the padding); a module without one is left as it is, as the C++ leaves it.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Optional

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.export.reshard_ir import MeshTable
from pysdy.passes.pipeline import functions_of
from pysdy.passes.registry import FUNC, MODULE, Pass, PassFailure, register_pass


def _is_divisible(sharding: Optional[TensorSharding], type_: ir.Type, meshes: MeshTable) -> bool:
    if sharding is None or not isinstance(type_, ir.RankedTensorType):
        return True
    mesh = meshes.of(sharding)
    for dim, size in zip(sharding.dims, type_.shape):
        if size != ir.ShapedType.get_dynamic_size() and size % math.prod(ref.size(mesh) for ref in dim.axes):
            return False
    return True


def _check_function_io(func: ir.Operation, meshes: MeshTable) -> None:
    func_type = func_attrs.function_type(func)
    for kind, shardings, types in (
        ("argument", func_attrs.arg_shardings(func), func_type.inputs),
        ("result", func_attrs.result_shardings(func), func_type.results),
    ):
        for index, (sharding, type_) in enumerate(zip(shardings, types)):
            if not _is_divisible(sharding, type_, meshes):
                func.location.emit_error(
                    f"'func.func' op {kind} #{index} has a non-divisible sharding. "
                    "Shardy expects function IO to be divisible."
                )
                # Shardy's conversion then fails on the function (printed without its body).
                func.location.emit_error(
                    "failed to legalize operation 'func.func' that was explicitly marked illegal: "
                    + func.get_asm(print_generic_op_form=True, skip_regions=True, assume_verified=True)
                )
                raise PassFailure()


def _check_body(func: ir.Operation, meshes: MeshTable) -> None:
    for op in nested_ops(func)[:-1]:
        values = list(op.results)
        shardings = [get_sharding(value) for value in values]
        if op.name == "sdy.manual_computation":
            values += list(op.operands)
            shardings += TensorShardingPerValue.from_attr(op.attributes["in_shardings"]).shardings
        for value, sharding in zip(values, shardings):
            if not _is_divisible(sharding, value.type, meshes):
                op.location.emit_error(
                    "sdy-pad-for-divisibility: pysdy does not implement padding a tensor whose sharding does not "
                    "divide its shape"
                )
                raise PassFailure()


@register_pass
@dataclasses.dataclass(frozen=True)
class PadForDivisibilityPass(Pass):
    argument = "sdy-pad-for-divisibility"
    summary = "Pads tensors with non-divisible shardings to divisible shapes."

    @property
    def anchor(self) -> str:
        return MODULE if versions.installed().pad_for_divisibility_on_module else FUNC

    def run(self, op: ir.Operation) -> None:
        funcs = functions_of(op) if op.name == MODULE else [op]
        meshes = MeshTable(op if op.name == MODULE else op.parent)
        for func in funcs:
            if not func.regions[0].blocks:  # a declaration: no body to pad
                continue
            _check_function_io(func, meshes)
            _check_body(func, meshes)
