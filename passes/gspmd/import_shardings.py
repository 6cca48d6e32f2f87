"""`xla-sdy-import-shardings`: XLA's `mhlo.sharding` attributes as `sdy.sharding`s on one mesh found from them all.

As XLA's pass of that name: every function argument, result and op sharding
is read; one global mesh `@mesh` (axes `_axis_0`, `_axis_1`, ...) and one
`@maximal_mesh_N` (`@single_device_N` from jaxlib 0.12) per device of a
`{maximal device=N}` sharding are added at the top of the module; each `mhlo.sharding` is replaced by an `sdy.sharding`.
Op shardings are closed ({unknown} stays open); arguments and results of
`@main` are open where `allow-propagation-to-args` / `-results` say so. A
tuple sharding gives one sharding per result; a non-tuple sharding on an op
with several results applies to each (as HLO reads it on a tuple shape); an
op without results takes its first element at rank 0, as XLA does.

Unlike XLA (whose import CHECK-fails on tile assignments that need a device
list, and keeps `mhlo.sharding` in a module whose shardings are all
replicated), the mesh is found by `hlo_to_sdy_sharding.import_shardings`,
which names any set of tile assignments one mesh can name (sub-axes,
`device_ids`), and a module with only non-tiled shardings gets an empty
`@mesh`. A sharding no mesh names is an error on its op or function.

Manual axes have no place in an `sdy.sharding`; for the shard_map import
that follows, `@SPMDFullToShardShape` and `@Sharding` custom calls and
`mhlo.copy` ops whose sharding is manual on some axes keep them in
`xla.sdy.manual_axes` (the shard_map import removes it again).
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.dialects.hlo_sharding import HloSharding, Kind
from pysdy.dialects.sdy import DimSharding, ManualAxes, Mesh, TensorSharding, TensorShardingPerValue
from pysdy.passes.common import func_attrs
from pysdy.passes.common.custom_calls import custom_call_target
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.values import type_rank
from pysdy.passes.gspmd.hlo_to_sdy_sharding import (
    GLOBAL_MESH_NAME,
    ImportedSharding,
    ImportedShardings,
    ShardingImportError,
    import_shardings,
)
from pysdy.passes.import_.symbols import SymbolTable, symbol_name
from pysdy.passes.pipeline import functions_of
from pysdy.passes.registry import Pass, PassFailure, option, register_pass

MHLO_SHARDING = "mhlo.sharding"
MANUAL_AXES = "xla.sdy.manual_axes"
MAIN = "main"
# Custom calls whose manual axes the shard_map import reads (and `mhlo.copy`, the
# constraint XLA's export writes when it does not keep `@Sharding` custom calls).
KEEPS_MANUAL_AXES = frozenset({"SPMDFullToShardShape", "Sharding"})
COPY = "mhlo.copy"


def parse_bool_list(text: str) -> tuple[bool, ...]:
    """`true,false,...` as booleans; raises ValueError on anything else."""
    values = []
    for item in filter(None, (part.strip().lower() for part in text.split(","))):
        if item not in ("true", "false", "1", "0"):
            raise ValueError(f"'{item}' is not a boolean")
        values.append(item in ("true", "1"))
    return tuple(values)


def _allows(flags: tuple[bool, ...], index: int) -> bool:
    """XLA's reading of an allow-propagation list: empty is false, one value is for all, else one per value."""
    if not flags:
        return False
    return flags[0] if len(flags) == 1 else flags[index]


@dataclasses.dataclass
class _Site:
    """One `mhlo.sharding`: where it sits, the leaf shardings and ranks of its values, and how to write the result."""

    owner: ir.Operation  # the op, or the function of an argument or result
    label: str
    leaves: list[tuple[HloSharding, int]]
    write: Callable[[list[ImportedSharding]], None]


@register_pass
@dataclasses.dataclass(frozen=True)
class ImportShardingsPass(Pass):
    argument = "xla-sdy-import-shardings"
    summary = "Builds the mesh and converts the shardings from `mhlo.sharding` to `sdy.sharding`."

    allow_propagation_to_args: str = option(
        "", "Comma-separated booleans: whether @main's argument shardings are open; one value applies to all"
    )
    allow_propagation_to_results: str = option(
        "", "Comma-separated booleans: whether @main's result shardings are open; one value applies to all"
    )

    def run(self, module: ir.Operation) -> None:
        open_args = self._flags(module, "allow-propagation-to-args", self.allow_propagation_to_args)
        open_results = self._flags(module, "allow-propagation-to-results", self.allow_propagation_to_results)
        sites: list[_Site] = []
        for func in functions_of(module):
            is_main = symbol_name(func) == MAIN
            sites += _function_sites(func, open_args if is_main else (), open_results if is_main else ())
            sites += _op_sites(func)
        if not sites:
            return
        imported, index = _import(sites)
        symbols = SymbolTable(module)
        body = module.regions[0].blocks[0]
        first = body.operations[0] if len(body.operations) else None
        mesh_names = {}
        for name, mesh in [(GLOBAL_MESH_NAME, imported.mesh), *imported.maximal_meshes]:
            op = _create_mesh(mesh, module.location, first, body)
            mesh_names[name] = symbols.insert(op, name)
        for site in sites:
            site.write([_renamed(imported.values[index[leaf]], mesh_names) for leaf in site.leaves])

    def _flags(self, module: ir.Operation, name: str, text: str) -> tuple[bool, ...]:
        try:
            return parse_bool_list(text)
        except ValueError as error:
            module.location.emit_error(f"invalid value for option '{name}' of pass '{self.argument}': {error}")
            raise PassFailure() from None


def _create_mesh(mesh: Mesh, location: ir.Location, first: ir.Operation | None, body: ir.Block) -> ir.Operation:
    """An `sdy.mesh` before `first` (or in the empty `body`), to be named by the symbol table."""
    insertion_point = ir.InsertionPoint(first) if first is not None else ir.InsertionPoint(body)
    return sdy.MeshOp("mesh", mesh.to_attr(), loc=location, ip=insertion_point).operation


def _renamed(value: ImportedSharding, mesh_names: dict[str, str]) -> ImportedSharding:
    """The sharding on the mesh's symbol as inserted (renamed if the module already had that name)."""
    name = mesh_names[value.sharding.mesh]
    if name == value.sharding.mesh:
        return value
    return dataclasses.replace(value, sharding=dataclasses.replace(value.sharding, mesh=name))


# --------------------------------------------------------------------------
# Reading the shardings
# --------------------------------------------------------------------------


def _parse(owner: ir.Operation, label: str, attr: ir.Attribute) -> HloSharding:
    if not isinstance(attr, ir.StringAttr):
        owner.location.emit_error(f"{label}: `{MHLO_SHARDING}` must be a string, got {attr}")
        raise PassFailure()
    try:
        return HloSharding.from_text(attr.value)
    except ValueError as error:
        owner.location.emit_error(f"{label}: cannot parse `{MHLO_SHARDING}` \"{attr.value}\": {error}")
        raise PassFailure() from None


def _single(owner: ir.Operation, label: str, sharding: HloSharding) -> HloSharding:
    """The sharding of one non-tuple value: a one-element tuple stands for its element."""
    if sharding.kind is not Kind.TUPLE:
        return sharding
    if len(sharding.elements) == 1:
        return sharding.elements[0]
    owner.location.emit_error(
        f"{label} has a tuple sharding of {len(sharding.elements)} elements, but sdy shards only single tensors"
    )
    raise PassFailure()


def _open_dims(sharding: TensorSharding) -> TensorSharding:
    return dataclasses.replace(sharding, dims=tuple(DimSharding(d.axes, False, d.priority) for d in sharding.dims))


def _function_sites(func: ir.Operation, open_args: tuple[bool, ...], open_results: tuple[bool, ...]) -> list[_Site]:
    name = symbol_name(func)
    function_type = func_attrs.function_type(func)
    sites = []
    for kind, types, getter, setter, flags in (
        ("argument", function_type.inputs, func_attrs.get_arg_attr, func_attrs.set_arg_attrs, open_args),
        ("result", function_type.results, func_attrs.get_result_attr, func_attrs.set_result_attrs, open_results),
    ):
        if flags and len(flags) not in (1, len(types)):
            func.location.emit_error(
                f"allow-propagation-to-{kind}s has {len(flags)} values for the {len(types)} {kind}s of @{name}"
            )
            raise PassFailure()
        for index, type_ in enumerate(types):
            attr = getter(func, index, MHLO_SHARDING)
            if attr is None:
                continue
            label = f"{kind} {index} of @{name}"
            sharding = _single(func, label, _parse(func, label, attr))

            def write(values, index=index, setter=setter, is_open=_allows(flags, index)):
                sharding = values[0].sharding
                setter(func, {index: (_open_dims(sharding) if is_open else sharding).to_attr()})
                setter(func, {index: None}, MHLO_SHARDING)

            sites.append(_Site(func, label, [(sharding, type_rank(type_))], write))
    return sites


def _op_sites(func: ir.Operation) -> list[_Site]:
    # Snapshot first: a failing site raises, which a walk callback must not.
    ops = [op for op in nested_ops(func, pre_order=True) if op != func and MHLO_SHARDING in op.attributes]
    return [_op_site(op) for op in ops]


def _op_site(op: ir.Operation) -> _Site:
    label = f"the result of {op.name}" if len(op.results) == 1 else f"the results of {op.name}"
    sharding = _parse(op, label, op.attributes[MHLO_SHARDING])
    elements = list(sharding.elements) if sharding.kind is Kind.TUPLE else None
    ranks = [type_rank(result.type) for result in op.results]
    if not ranks:
        leaves = [((elements or [sharding])[0], 0)]
    elif elements is None:
        leaves = [(sharding, rank) for rank in ranks]
    elif len(elements) == len(ranks):
        leaves = list(zip(elements, ranks))
    else:
        op.location.emit_error(f"{label}: a tuple sharding of {len(elements)} elements for {len(ranks)} results")
        raise PassFailure()

    def write(values):
        op.attributes[func_attrs.SHARDING] = TensorShardingPerValue(tuple(v.sharding for v in values)).to_attr()
        del op.attributes[MHLO_SHARDING]
        # Each value lists its manual axes in mesh order.
        manual = list(dict.fromkeys(axis for v in values for axis in v.manual_axes))
        if manual and (op.name == COPY or custom_call_target(op) in KEEPS_MANUAL_AXES):
            op.attributes[MANUAL_AXES] = ManualAxes(tuple(manual)).to_attr()

    return _Site(op, label, leaves, write)


# --------------------------------------------------------------------------
# Importing them together
# --------------------------------------------------------------------------


def _import(sites: list[_Site]) -> tuple[ImportedShardings, dict[tuple[HloSharding, int], int]]:
    """Imports each distinct (sharding, rank) once, and gives its index in the imported values; a
    sharding no mesh names is an error on the first site that has it."""
    distinct: dict[tuple[HloSharding, int], int] = {}
    first_site: list[tuple[_Site, int]] = []
    for site in sites:
        for position, leaf in enumerate(site.leaves):
            if leaf not in distinct:
                distinct[leaf] = len(distinct)
                first_site.append((site, position))
    labels = [_leaf_label(site, position) for site, position in first_site]
    try:
        imported = import_shardings([s for s, _ in distinct], [r for _, r in distinct], labels)
    except ShardingImportError as error:
        site, _ = first_site[error.value]
        site.owner.location.emit_error(f"no mesh names every sharding of the module: {error}")
        raise PassFailure() from None
    return imported, distinct


def _leaf_label(site: _Site, position: int) -> str:
    if len(site.leaves) == 1:
        return site.label
    return f"{site.label} (result {position})"
