"""What an sdy collective says, read from its attributes: its axes, an all-to-all's parameters, its reduction.

The bindings have no reader for axis-ref lists (`#sdy<axis_ref_list{...}>`) or all-to-all parameters, so both are
read from their text: axis lists through a sharding of the same axes, parameters (`{"x", "y":(1)2}: 0->1`) by
pattern.
"""

from __future__ import annotations

import re

from jaxlib.mlir import ir

from pysdy.dialects.sdy import AxisRef, SubAxisInfo, TensorSharding
from pysdy.passes.common.reduction_bodies import REDUCTION_OP_VALUES

_PARAM = re.compile(r"\{([^}]*)\}: (\d+)->(\d+)")
_AXIS = re.compile(r'"([^"]+)"(?::\((\d+)\)(\d+))?')
_REDUCTION_NAMES = {value: name for name, value in REDUCTION_OP_VALUES.items()}


def axis_list(op: ir.Operation, name: str) -> tuple[AxisRef, ...]:
    """The axes of an axis-list attribute (an all-reduce's `reduction_axes`, say)."""
    text = str(op.attributes[name])
    return _dims(f"[{text[text.index('{') : -1]}]")[0]


def axis_lists(op: ir.Operation, name: str) -> tuple[tuple[AxisRef, ...], ...]:
    """The axes per dimension of a list-of-axis-lists attribute (an all-gather's `gathering_axes`, say)."""
    text = str(op.attributes[name])
    return _dims(text[text.index("[") : -1])


def _dims(dims_text: str) -> tuple[tuple[AxisRef, ...], ...]:
    dims = TensorSharding.from_attr(ir.Attribute.parse(f"#sdy.sharding<@m, {dims_text}>")).dims
    return tuple(dim.axes for dim in dims)


def all_to_all_params(op: ir.Operation) -> list[tuple[int, tuple[AxisRef, ...], int]]:
    """The (source dim, axes, target dim) parameters of an `sdy.all_to_all`."""
    params = []
    for axes, source, target in _PARAM.findall(str(op.attributes["params"])):
        refs = tuple(
            AxisRef(name, SubAxisInfo(int(pre), int(size)) if size else None) for name, pre, size in _AXIS.findall(axes)
        )
        params.append((int(source), refs, int(target)))
    return params


def reduction(op: ir.Operation) -> str:
    """`sum`, `max` or `min`: how a reducing collective reduces (`sum` without a `reduction_op`)."""
    if "reduction_op" not in op.attributes:
        return "sum"
    return _REDUCTION_NAMES[ir.IntegerAttr(op.attributes["reduction_op"]).value]
