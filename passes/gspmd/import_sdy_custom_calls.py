"""`xla-sdy-import-sdy-custom-calls`: `custom_call @Sharding` as `sdy.sharding_constraint`, `@xla.sdy.ShardingGroup`
as `sdy.sharding_group`.

As XLA's pass: a `@Sharding` custom call needs exactly one result and an
`sdy.sharding` (from `xla-sdy-import-shardings`); the dims its
`backend_config` lists as `unspecified_dims=[...]` are opened (none of a
maximal sharding, which has no dims). A
`@xla.sdy.ShardingGroup` custom call needs no uses and its group id in the
frontend attribute `xla.sdy.sharding_group_id`. Other custom calls stay.
"""

from __future__ import annotations

import dataclasses
import re

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.dialects.sdy import DimSharding, TensorSharding, TensorShardingPerValue
from pysdy.passes.common.custom_calls import custom_call_target
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.registry import Pass, PassFailure, register_pass

SHARDING_TARGET = "Sharding"
SHARDING_GROUP_TARGET = "xla.sdy.ShardingGroup"
SHARDING_GROUP_ID = "xla.sdy.sharding_group_id"
FRONTEND_ATTRIBUTES = "mhlo.frontend_attributes"
SHARDING = "sdy.sharding"
_UNSPECIFIED_DIMS = re.compile(r"^\s*unspecified_dims\s*=\s*\[([0-9,\s]*)\]\s*$")


def unspecified_dims(backend_config: str) -> list[int]:
    """The dims of XLA's sharding-op attributes `unspecified_dims=[0,2]` (none for an empty config)."""
    if not backend_config.strip():
        return []
    match = _UNSPECIFIED_DIMS.match(backend_config)
    if match is None:
        raise ValueError(f"cannot parse the Sharding custom call's backend_config \"{backend_config}\"")
    return [int(d) for d in match.group(1).split(",") if d.strip()]


def _fail(op: ir.Operation, message: str) -> None:
    op.location.emit_error(message)
    raise PassFailure()


def with_unspecified_dims_open(op: ir.Operation, sharding: TensorSharding) -> TensorSharding:
    """`sharding` with the dims the custom call's `backend_config` lists as `unspecified_dims` opened (none of a
    maximal sharding, which has no dims); a config it cannot read, or a dim out of range, is an error on `op`."""
    config = op.attributes["backend_config"] if "backend_config" in op.attributes else None
    try:
        dims = unspecified_dims(ir.StringAttr(config).value) if isinstance(config, ir.StringAttr) else []
    except ValueError as error:
        _fail(op, str(error))
    if not sharding.dims:
        return sharding  # a maximal sharding: the tensor is whole on one device, no dim to open
    bad = [d for d in dims if not 0 <= d < sharding.rank]
    if bad:
        _fail(op, f"unspecified_dims {bad} out of range for a rank-{sharding.rank} sharding")
    opened = tuple(
        DimSharding(dim.axes, False, dim.priority) if index in dims else dim for index, dim in enumerate(sharding.dims)
    )
    return dataclasses.replace(sharding, dims=opened)


def _import_sharding(op: ir.Operation) -> None:
    if len(op.results) != 1:
        _fail(op, "expected CustomCallOp with exactly one result")
    if SHARDING not in op.attributes:
        _fail(op, "expected CustomCallOp with a sharding attribute")
    sharding = TensorShardingPerValue.from_attr(op.attributes[SHARDING]).shardings[0]
    sharding = with_unspecified_dims_open(op, sharding)
    constraint = sdy.ShardingConstraintOp(
        op.operands[0], sharding.to_attr(), loc=op.location, ip=ir.InsertionPoint(op)
    ).operation
    op.results[0].replace_all_uses_with(constraint.results[0])
    op.erase()


def _import_sharding_group(op: ir.Operation) -> None:
    group_id = _group_id(op)
    if group_id is None:
        _fail(op, "expected CustomCallOp with a sharding group id.")
    if any(next(iter(result.uses), None) is not None for result in op.results):
        _fail(op, "xla.sdy.ShardingGroup CustomCallOp should have no uses.")
    sdy.ShardingGroupOp(op.operands[0], group_id, loc=op.location, ip=ir.InsertionPoint(op))
    op.erase()


def _group_id(op: ir.Operation) -> int | None:
    """The group id from the frontend attribute, written as an integer attribute (`3 : i64`) in a string."""
    if FRONTEND_ATTRIBUTES not in op.attributes:
        return None
    frontend = ir.DictAttr(op.attributes[FRONTEND_ATTRIBUTES])
    if SHARDING_GROUP_ID not in frontend:
        return None
    value = frontend[SHARDING_GROUP_ID]
    if isinstance(value, ir.StringAttr):
        try:
            value = ir.Attribute.parse(value.value)
        except ir.MLIRError:
            return None
    return ir.IntegerAttr(value).value if isinstance(value, ir.IntegerAttr) else None


@register_pass
@dataclasses.dataclass(frozen=True)
class ImportSdyCustomCallsPass(Pass):
    argument = "xla-sdy-import-sdy-custom-calls"
    summary = (
        "Converts a CustomCall with target name Sharding into a ShardingConstraintOp and with target name "
        "ShardingGroup into a ShardingGroupOp."
    )

    def run(self, module: ir.Operation) -> None:
        for op in nested_ops(module, name="stablehlo.custom_call"):
            target = custom_call_target(op)
            if target == SHARDING_TARGET:
                _import_sharding(op)
            elif target == SHARDING_GROUP_TARGET:
                _import_sharding_group(op)
