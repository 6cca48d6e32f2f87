"""Whether any sharding a function reads (its own, its ops', its callees' arguments') has unreduced axes, so passes can skip unreduced-axis handling when none does."""

from __future__ import annotations

from typing import Sequence

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.dialects.ir_memo import ir_memo
from pysdy.dialects.sdy import TensorSharding, TensorShardingPerValue
from pysdy.passes.common import func_attrs
from pysdy.passes.common.data_flow import REGION_EDGE_OPS
from pysdy.passes.common.value_shardings import OWN_SHARDING_ATTR, SHARDING
from pysdy.passes.export.unflatten_call_graph import callee_name


@ir_memo(1 << 14)
def _attr_has_unreduced(attr: ir.Attribute) -> bool:
    """For a sharding or sharding-per-value attribute (attributes are uniqued, so this is memoized by identity)."""
    if sdy.TensorShardingAttr.isinstance(attr):
        return bool(TensorSharding.from_attr(attr).unreduced)
    return any(s.unreduced for s in TensorShardingPerValue.from_attr(attr).shardings)


# The attributes `value_shardings.get_sharding` reads an op's shardings from, where not `sdy.sharding`.
_SHARDING_ATTR_NAMES = {
    **{name: (attr,) for name, attr in OWN_SHARDING_ATTR.items()},
    **{name: ("in_shardings", "out_shardings") for name in REGION_EDGE_OPS},
}


def _any_unreduced(shardings: Sequence[TensorSharding | None]) -> bool:
    return any(s is not None and s.unreduced for s in shardings)


def holds_unreduced_axes(func: ir.Operation, ops: Sequence[ir.Operation], funcs: dict[str, ir.Operation]) -> bool:
    """Whether a sharding of `func`'s arguments or results, of one of `ops` (the ops nested in `func`),
    or of an argument of a function one of them calls has unreduced axes."""
    if _any_unreduced(func_attrs.arg_shardings(func)) or _any_unreduced(func_attrs.result_shardings(func)):
        return True
    for op in ops:
        name = op.name
        attributes = op.attributes
        attr_names = _SHARDING_ATTR_NAMES.get(name)
        if attr_names is None:  # most ops: their results' shardings only
            if SHARDING in attributes and _attr_has_unreduced(attributes[SHARDING]):
                return True
            if name == "func.call" and _any_unreduced(func_attrs.arg_shardings(funcs[callee_name(op)])):
                return True
        elif any(n in attributes and _attr_has_unreduced(attributes[n]) for n in attr_names):
            return True
    return False
