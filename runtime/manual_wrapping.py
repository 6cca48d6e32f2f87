"""A per-device module as a global one whose `@main` is one fully manual computation, the form JAX's jit (through
XLA's Shardy partitioner) compiles and calls with global arrays, as it does shard_map.

A module for one partition, or without any sharding on `@main` but on an empty mesh, needs no wrapping: nothing in
it is split (its shardings are dropped). Otherwise
`@main` gets back its global argument and result types, with their shardings; its body becomes the body of an
`sdy.manual_computation` over every axis of the mesh, taking and giving the same shardings, so XLA partitions
nothing and runs pysdy's per-device code on each device. Shardings inside name axes that are manual there, so the
ops' and the other functions' shardings are dropped (the per-device code needs none), as are the global shardings
sdy-convert-global-to-local records on the module.
"""

from __future__ import annotations

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.dialects.sdy import ManualAxes, TensorSharding, TensorShardingPerValue
from pysdy.passes.common.func_attrs import arg_shardings, num_arguments, num_results, result_shardings
from pysdy.passes.common.func_attrs import set_arg_attrs, set_result_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.values import type_rank
from pysdy.passes.export.convert_global_to_local import MAIN_SHARDING_RECORDS
from pysdy.passes.export.reshard_ir import MeshTable, is_empty_mesh
from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.module_info import main_function

def wrap_in_manual_computation(module: ir.Module, global_types: ir.FunctionType, partitions: int) -> None:
    """Rewrites the per-device `module` in place into its global, fully manual form (see the module docstring)."""
    main = main_function(module)
    meshes = MeshTable(module.operation)
    given = _padded(arg_shardings(main), len(global_types.inputs)) + _padded(
        result_shardings(main), len(global_types.results)
    )
    partial = [index for index, sharding in enumerate(given) if sharding is not None and sharding.unreduced]
    if partial:
        raise RuntimeInputError(
            f"@main's {_value_name(partial[0], len(global_types.inputs))} has unreduced axes: the pysdy route hands "
            "XLA no partial values (XLA would report the value replicated)"
        )
    if partitions == 1 or all(sharding is None or is_empty_mesh(meshes.of(sharding)) for sharding in given):
        # One device, or no sharding on a mesh with axes: the module is its own per-device program.
        set_arg_attrs(main, {i: None for i in range(num_arguments(main))}, "sdy.sharding")
        set_result_attrs(main, {i: None for i in range(num_results(main))}, "sdy.sharding")
        _drop_inner_shardings(module, main)
        return
    mesh_ref = _one_mesh_ref(given, meshes)
    shardings = [  # (a sharding on an empty mesh is replicated on any)
        s if s is not None and not is_empty_mesh(meshes.of(s)) else TensorSharding.fully_closed(mesh_ref, type_rank(t))
        for s, t in zip(given, list(global_types.inputs) + list(global_types.results))
    ]
    inputs, outputs = shardings[: len(global_types.inputs)], shardings[len(global_types.inputs) :]
    _drop_inner_shardings(module, main)
    body = main.regions[0].blocks[0]
    local_types = [argument.type for argument in body.arguments]
    ops = [op.operation for op in body.operations]
    old_return = ops.pop()
    with main.location:
        local_block = ir.Block.create_at_start(main.regions[0], local_types)  # moved into the manual region below
        for old, new in zip(body.arguments, local_block.arguments):
            old.replace_all_uses_with(new)
        for argument, type_ in zip(body.arguments, global_types.inputs):
            argument.set_type(type_)
        with ir.InsertionPoint(old_return):
            manual = sdy.ManualComputationOp(
                list(global_types.results),
                list(body.arguments),
                TensorShardingPerValue(tuple(inputs)).to_attr(),
                TensorShardingPerValue(tuple(outputs)).to_attr(),
                ManualAxes(tuple(axis.name for axis in meshes.of(shardings[0]).axes)).to_attr(),
            ).operation
            ir.Operation.create("func.return", operands=list(manual.results))
        local_block.append_to(manual.regions[0])
        for op in ops:
            ir.InsertionPoint(local_block).insert(op.detach_from_parent())
        with ir.InsertionPoint(local_block):
            sdy.ReturnOp(list(old_return.operands))
        old_return.erase()
    main.attributes["function_type"] = ir.TypeAttr.get(global_types)
    set_arg_attrs(main, {i: s.to_attr() for i, s in enumerate(inputs)})
    set_result_attrs(main, {i: s.to_attr() for i, s in enumerate(outputs)})


def _drop_inner_shardings(module: ir.Module, main: ir.Operation) -> None:
    for op in nested_ops(module.operation):
        if op.name == "func.func" and op != main:
            set_arg_attrs(op, {i: None for i in range(num_arguments(op))})
            set_result_attrs(op, {i: None for i in range(num_results(op))})
        elif op.name != "func.func" and "sdy.sharding" in op.attributes:
            del op.attributes["sdy.sharding"]
    attributes = module.operation.attributes
    for name in MAIN_SHARDING_RECORDS:
        if name in attributes:
            del attributes[name]


def _value_name(index: int, arguments: int) -> str:
    return f"argument {index}" if index < arguments else f"result {index - arguments}"


def _padded(shardings: list, count: int) -> list:
    return list(shardings) + [None] * (count - len(shardings))


def _one_mesh_ref(shardings: list, meshes: MeshTable):
    """The mesh (as the shardings name it) of every sharding; the pysdy route runs on one mesh."""
    found = {meshes.of(s): s.mesh for s in shardings if s is not None and not is_empty_mesh(meshes.of(s))}
    if len(found) != 1:
        raise RuntimeInputError(f"pysdy's per-device program spans {len(found)} meshes; the pysdy route needs one")
    return next(iter(found.values()))
