"""Reading and writing func.func argument/result attributes with MLIR's own rules.

Setting one attribute rewrites that argument's dictionary; when every
dictionary of the function ends up empty, `arg_attrs` / `res_attrs` is
removed altogether, as MLIR's FunctionOpInterface does.
"""

from __future__ import annotations

from jaxlib.mlir import ir

SHARDING = "sdy.sharding"
_ARG_ATTRS = "arg_attrs"
_RESULT_ATTRS = "res_attrs"


def num_arguments(func: ir.Operation) -> int:
    return len(func.regions[0].blocks[0].arguments)


def num_results(func: ir.Operation) -> int:
    return len(ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).results)


def result_types(func: ir.Operation) -> list[ir.Type]:
    return list(ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value).results)


def _dicts(func: ir.Operation, key: str, count: int) -> list[ir.DictAttr] | None:
    if key not in func.attributes:
        return None
    return [ir.DictAttr(d) for d in ir.ArrayAttr(func.attributes[key])][:count] or None


def _get(func: ir.Operation, key: str, count: int, index: int, name: str) -> ir.Attribute | None:
    if key not in func.attributes or index >= count:
        return None
    entries = ir.DictAttr(ir.ArrayAttr(func.attributes[key])[index])
    return entries[name] if name in entries else None


def _set(func: ir.Operation, key: str, count: int, index: int, name: str, value: ir.Attribute | None) -> None:
    dicts = _dicts(func, key, count)
    entries = {} if dicts is None else {a.name: a.attr for a in dicts[index]}
    old = entries.get(name)
    if value is None:
        if old is None:
            return
        del entries[name]
    else:
        if old is not None and old == value:
            return
        entries[name] = value
    new = ir.DictAttr.get(entries)
    if dicts is None:
        if not entries:
            return
        dicts = [ir.DictAttr.get({}) for _ in range(count)]
    dicts[index] = new
    if all(len(d) == 0 for d in dicts):
        del func.attributes[key]
    else:
        func.attributes[key] = ir.ArrayAttr.get(dicts)


def get_arg_attr(func: ir.Operation, index: int, name: str = SHARDING) -> ir.Attribute | None:
    return _get(func, _ARG_ATTRS, num_arguments(func), index, name)


def set_arg_attr(func: ir.Operation, index: int, value: ir.Attribute | None, name: str = SHARDING) -> None:
    """Sets (or with None removes) one attribute of argument `index`."""
    _set(func, _ARG_ATTRS, num_arguments(func), index, name, value)


def get_result_attr(func: ir.Operation, index: int, name: str = SHARDING) -> ir.Attribute | None:
    return _get(func, _RESULT_ATTRS, num_results(func), index, name)


def set_result_attr(func: ir.Operation, index: int, value: ir.Attribute | None, name: str = SHARDING) -> None:
    """Sets (or with None removes) one attribute of result `index`."""
    _set(func, _RESULT_ATTRS, num_results(func), index, name, value)
