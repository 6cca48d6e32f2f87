"""The attributes of a func.func's arguments and results (`arg_attrs` / `res_attrs`), written as MLIR writes them.

Setting attributes rewrites only the touched arguments' (or results')
dictionaries, and `arg_attrs` / `res_attrs` once per call: a pass that touches
every argument sets them all in one call, or its cost grows with the square of
the argument count. When every dictionary ends up empty, `arg_attrs` /
`res_attrs` is removed altogether, as MLIR's FunctionOpInterface does.
"""

from __future__ import annotations

from collections.abc import Mapping

from jaxlib.mlir import ir

from pysdy.dialects.ir_memo import ir_memo
from pysdy.dialects.sdy import TensorSharding

SHARDING = "sdy.sharding"
ARG_ATTRS = "arg_attrs"
RESULT_ATTRS = "res_attrs"


def function_type(func: ir.Operation) -> ir.FunctionType:
    return ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)


def num_arguments(func: ir.Operation) -> int:
    return len(function_type(func).inputs)


def num_results(func: ir.Operation) -> int:
    return len(function_type(func).results)


def result_types(func: ir.Operation) -> list[ir.Type]:
    return list(function_type(func).results)


def _get(func: ir.Operation, key: str, index: int, name: str) -> ir.Attribute | None:
    if key not in func.attributes:
        return None
    entries = ir.DictAttr(ir.ArrayAttr(func.attributes[key])[index])
    return entries[name] if name in entries else None


def _update(func: ir.Operation, key: str, count, name: str, values: Mapping[int, ir.Attribute | None]) -> None:
    """Sets (None: removes) entry `name` of each listed argument's (or result's) dictionary in one rewrite
    of `arg_attrs` / `res_attrs`; `count()` (the number of arguments or results) is needed only when
    the attribute is absent."""
    if key in func.attributes:
        entries = list(ir.ArrayAttr(func.attributes[key]))
    elif all(value is None for value in values.values()):
        return
    else:
        entries = [ir.DictAttr.get({}) for _ in range(count())]
    changed = False
    for index, value in values.items():
        current = {named.name: named.attr for named in ir.DictAttr(entries[index])}
        if value is None:
            if name not in current:
                continue
            del current[name]
        else:
            current[name] = value
        entries[index] = ir.DictAttr.get(current)
        changed = True
    if not changed:
        return
    if all(len(ir.DictAttr(entry)) == 0 for entry in entries):
        del func.attributes[key]  # as MLIR does when every dictionary is empty
    else:
        func.attributes[key] = ir.ArrayAttr.get(entries)


def get_arg_attr(func: ir.Operation, index: int, name: str = SHARDING) -> ir.Attribute | None:
    return _get(func, ARG_ATTRS, index, name)


def set_arg_attr(func: ir.Operation, index: int, value: ir.Attribute | None, name: str = SHARDING) -> None:
    """Sets (or with None removes) one attribute of argument `index`."""
    set_arg_attrs(func, {index: value}, name)


def set_arg_attrs(func: ir.Operation, values: Mapping[int, ir.Attribute | None], name: str = SHARDING) -> None:
    """Sets (or with None removes) attribute `name` of each argument in `values` at once."""
    _update(func, ARG_ATTRS, lambda: num_arguments(func), name, values)


def get_result_attr(func: ir.Operation, index: int, name: str = SHARDING) -> ir.Attribute | None:
    return _get(func, RESULT_ATTRS, index, name)


def set_result_attr(func: ir.Operation, index: int, value: ir.Attribute | None, name: str = SHARDING) -> None:
    """Sets (or with None removes) one attribute of result `index`."""
    set_result_attrs(func, {index: value}, name)


def set_result_attrs(func: ir.Operation, values: Mapping[int, ir.Attribute | None], name: str = SHARDING) -> None:
    """Sets (or with None removes) attribute `name` of each result in `values` at once."""
    _update(func, RESULT_ATTRS, lambda: num_results(func), name, values)


def arg_shardings(func: ir.Operation) -> list[TensorSharding | None]:
    """The sharding of each argument, None where it has none."""
    if ARG_ATTRS not in func.attributes:
        return [None] * num_arguments(func)
    return list(_shardings(func.attributes[ARG_ATTRS]))


def result_shardings(func: ir.Operation) -> list[TensorSharding | None]:
    """The sharding of each result, None where it has none."""
    if RESULT_ATTRS not in func.attributes:
        return [None] * num_results(func)
    return list(_shardings(func.attributes[RESULT_ATTRS]))


def arg_sharding(func: ir.Operation, index: int) -> TensorSharding | None:
    """The sharding of argument `index`, None if it has none."""
    if ARG_ATTRS not in func.attributes:
        return None
    return _shardings(func.attributes[ARG_ATTRS])[index]


def arg_sharding_attrs(func: ir.Operation) -> tuple[ir.Attribute | None, ...]:
    """The `sdy.sharding` attribute of each argument, None where it has none."""
    if ARG_ATTRS not in func.attributes:
        return (None,) * num_arguments(func)
    return _sharding_attrs(func.attributes[ARG_ATTRS])


def result_sharding_attrs(func: ir.Operation) -> tuple[ir.Attribute | None, ...]:
    """The `sdy.sharding` attribute of each result, None where it has none."""
    if RESULT_ATTRS not in func.attributes:
        return (None,) * num_results(func)
    return _sharding_attrs(func.attributes[RESULT_ATTRS])


# Memoized by the `arg_attrs` / `res_attrs` array: attributes are uniqued.
@ir_memo(1 << 10)
def _sharding_attrs(entries: ir.Attribute) -> tuple[ir.Attribute | None, ...]:
    """The `sdy.sharding` of each dictionary of an `arg_attrs` / `res_attrs` array."""
    dicts = (ir.DictAttr(entry) for entry in ir.ArrayAttr(entries))
    return tuple(d[SHARDING] if SHARDING in d else None for d in dicts)


@ir_memo(1 << 10)
def _shardings(entries: ir.Attribute) -> tuple[TensorSharding | None, ...]:
    return tuple(None if attr is None else TensorSharding.from_attr(attr) for attr in _sharding_attrs(entries))
