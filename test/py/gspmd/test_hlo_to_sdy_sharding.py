"""HloShardings imported to Shardy on one mesh, checked by exporting them back and comparing with XLA.

Oracles: (1) every imported sharding, exported by `to_hlo_sharding` (itself
checked against JAX and XLA), is the original for XLA's own
`xla_client.HloSharding` equality; sdy's verifier accepts the meshes and
shardings. (2) Shardings exported from an iota mesh come back digit for digit
(up to axis names and how finely the mesh is cut); a set with every device
renamed by one order (a value tiling all devices in it) comes back as the
plain set on a mesh with those device ids. (3) Where the import cannot name a
set, the error names one of its values and each value alone imports.
(4) XLA's own import (`xla_import_oracle`) of the set as @main's argument
shardings prints the same mesh and shardings, for sets whose mesh XLA's
import can find (it aborts the process on the others) and without manual
subgroups (XLA's import drops manual axes, so it keeps the mesh in device
order where pysdy orders it for the manual axes).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import re

import numpy as np
import pytest
import xla_import_oracle
import xla_oracle
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from jaxlib.mlir import ir
from test_sdy_to_hlo_sharding import device_ids, mesh_axes, shardings

from pysdy.dialects.context import make_context
from pysdy.dialects.hlo_sharding import HloSharding, Kind, SubgroupType
from pysdy.dialects.sdy import AxisRef, DimSharding, Mesh, MeshAxis, TensorSharding
from pysdy.dialects.tile_assignment import Iota, TileAssignment
from pysdy import versions
from pysdy.passes.gspmd.hlo_to_sdy_sharding import ImportedShardings, import_shardings, maximal_mesh_name
from pysdy.passes.gspmd.sdy_to_hlo_sharding import to_hlo_sharding

# The quick run reports a failure as drawn; the slow run also shrinks it.
FAST = settings(
    max_examples=150,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
SLOW = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

DEVICE_COUNTS = [2, 3, 4, 6, 8, 12, 16, 24]
OTHER_KINDS = ["{replicated}", "{unknown}", "{manual}", "{unreduced}", "{maximal device=0}", "{maximal device=5}"]


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------


def rank_of(sharding: HloSharding) -> int | tuple[int, ...]:
    """The rank of a tensor the sharding fits: its data tile dims, else 2."""
    if sharding.kind is Kind.TUPLE:
        return tuple(rank_of(e) for e in sharding.elements)
    return len(sharding.data_tile_dims) if sharding.kind is Kind.TILED else 2


def leaves(values) -> list:
    return [leaf for value in values for leaf in (value if isinstance(value, tuple) else (value,))]


def import_and_check(originals: list[HloSharding], ranks=None) -> ImportedShardings:
    """Imports the shardings (of tensors of `rank_of` them unless given) and checks oracle (1) on every value."""
    imported = import_shardings(originals, ranks or [rank_of(s) for s in originals])
    flat_originals = leaves(o.elements if o.kind is Kind.TUPLE else o for o in originals)
    for original, value in zip(flat_originals, leaves(imported.values)):
        mesh = imported.mesh_of(value.sharding)
        # sdy keeps manual axes in mesh order (as it does unreduced ones), so export them so.
        order = [axis.name for axis in mesh.axes]
        manual_axes = sorted(value.manual_axes, key=order.index)
        exported = to_hlo_sharding(value.sharding, mesh, manual_axes)
        expected = expected_export(original, imported.mesh)
        xla_oracle.checks["import: XLA equality"] += 1
        same = xla_oracle.parse(exported.to_text()) == xla_oracle.parse(expected.to_text(include_metadata=False))
        xla_oracle.check(same, True, f"XLA equality of {original} and its import exported: {exported}")
    assert_sdy_accepts(imported)
    return imported


def expected_export(original: HloSharding, mesh: Mesh) -> HloSharding:
    """What exporting the import gives back: the original, except that {unknown} imports as open
    dims, a one-device tiling as replicated (as XLA reads it from a proto), and manual or
    unreduced without a tiled value (so with no mesh axes) as replicated."""
    if original.kind is Kind.UNKNOWN:
        return HloSharding.replicated()
    if original.kind is Kind.TILED and original.tile_assignment.num_devices == 1:
        return HloSharding.replicated()
    if original.kind in (Kind.MANUAL, Kind.UNREDUCED) and not mesh.axes:
        return HloSharding.replicated()
    return original


@functools.cache
def sdy_context() -> ir.Context:
    """One context for all checks (a fresh one per check would cost more than the check)."""
    return make_context()


def assert_sdy_accepts(imported: ImportedShardings) -> None:
    """sdy's verifier accepts the meshes and every sharding as an argument sharding."""
    with sdy_context():
        meshes = [("mesh", imported.mesh)] + list(imported.maximal_meshes)
        lines = [f"  sdy.mesh @{name} = {str(mesh.to_attr()).removeprefix('#sdy.mesh')}" for name, mesh in meshes]
        arguments = [
            f"%arg{i}: tensor<{'8x' * v.sharding.rank}f32> {{sdy.sharding = {v.sharding.to_attr()}}}"
            for i, v in enumerate(leaves(imported.values))
        ]
        text = "module {\n" + "\n".join(lines) + f"\n  func.func @main({', '.join(arguments)}) {{\n    return\n  }}\n}}"
        ir.Module.parse(text)
    xla_oracle.checks["xla"] += 1
    xla_oracle.checks["import: sdy verifier"] += 1


def assert_error_names_a_value(originals: list[HloSharding], error: ValueError) -> None:
    """Oracle (3): the error names a value of the set, and each value alone imports."""
    xla_oracle.checks["import: error names a value"] += 1
    named = [int(i) for i in re.findall(r"value (\d+)", str(error))]
    assert named and all(i < len(originals) for i in named), str(error)
    for original in originals:
        import_and_check([original])


# --------------------------------------------------------------------------
# Hand-written cases
# --------------------------------------------------------------------------


def imported_texts(texts: list[str]) -> tuple[str, list[str], list[tuple[str, ...]]]:
    imported = import_and_check([HloSharding.from_text(t) for t in texts])
    with sdy_context():
        return (
            str(imported.mesh.to_attr()),
            [str(v.sharding.to_attr()) for v in leaves(imported.values)],
            [v.manual_axes for v in leaves(imported.values)],
        )


def test_iota_tilings_refine_one_mesh():
    mesh, dims, manual = imported_texts(
        ["{devices=[4,2]<=[8]}", "{devices=[2,4]<=[8]}", "{devices=[2,1,4]<=[2,4]T(1,0) last_tile_dim_replicate}"]
    )
    assert mesh == '#sdy.mesh<["_axis_0"=2, "_axis_1"=2, "_axis_2"=2]>'
    assert dims == [
        '#sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}, {"_axis_2"}]>',
        '#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1", "_axis_2"}]>',
        '#sdy.sharding<@mesh, [{"_axis_1"}, {}]>',
    ]
    assert manual == [(), (), ()]


def test_crossing_cuts_become_sub_axes():
    """[2,3] and [3,2] over 6 devices cut them at 2 and at 3, which cross: one axis of 6."""
    mesh, dims, _ = imported_texts(["{devices=[2,3]<=[6]}", "{devices=[3,2]<=[6]}"])
    assert mesh == '#sdy.mesh<["_axis_0"=6]>'
    assert dims == [
        '#sdy.sharding<@mesh, [{"_axis_0":(1)2}, {"_axis_0":(2)3}]>',
        '#sdy.sharding<@mesh, [{"_axis_0":(1)3}, {"_axis_0":(3)2}]>',
    ]


def test_transposed_iota_names_axes_minor_first():
    mesh, dims, _ = imported_texts(["{devices=[4,2]<=[2,4]T(1,0)}"])
    assert mesh == '#sdy.mesh<["_axis_0"=2, "_axis_1"=4]>'
    assert dims == ['#sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>']


def test_explicit_list_that_is_an_iota_needs_no_device_ids():
    mesh, dims, _ = imported_texts(["{devices=[2,2]0,2,1,3}"])
    assert mesh == '#sdy.mesh<["_axis_0"=2, "_axis_1"=2]>'
    assert dims == ['#sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>']


def test_device_orders_no_iota_has_get_device_ids():
    mesh, dims, _ = imported_texts(["{devices=[2,3]0,3,1,4,2,5}"])
    assert mesh == '#sdy.mesh<["_axis_0"=2, "_axis_1"=3], device_ids=[0, 3, 1, 4, 2, 5]>'
    assert dims == ['#sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>']
    # The iota XLA's import cannot name (its tile dims cut across the iota's dims).
    mesh, dims, _ = imported_texts(["{devices=[2,3]<=[2,3]T(1,0)}", "{devices=[6]<=[6]}"])
    assert mesh == '#sdy.mesh<["_axis_0"=6], device_ids=[0, 3, 1, 4, 2, 5]>'
    assert dims[0] == '#sdy.sharding<@mesh, [{"_axis_0":(1)2}, {"_axis_0":(2)3}]>'
    # A value's order in which the others are block permutations (inside replication groups, in any order).
    mesh, dims, _ = imported_texts(
        ["{devices=[4]3,1,2,0}", "{devices=[2,2]3,2,1,0}", "{devices=[2,1,2]3,1,2,0 last_tile_dim_replicate}"]
    )
    assert mesh == '#sdy.mesh<["_axis_0"=2, "_axis_1"=2], device_ids=[3, 1, 2, 0]>'
    assert dims == [
        '#sdy.sharding<@mesh, [{"_axis_0", "_axis_1"}]>',
        '#sdy.sharding<@mesh, [{"_axis_1"}, {"_axis_0"}]>',
        '#sdy.sharding<@mesh, [{"_axis_0"}, {}]>',
    ]


def test_device_ids_recovered_from_values_that_each_replicate_most_axes():
    """No value tiles every axis; the values' tiles, one after the other, still order the devices."""
    mesh = Mesh((MeshAxis("x", 2), MeshAxis("y", 2), MeshAxis("z", 2)), (6, 3, 0, 5, 7, 1, 2, 4))
    on = [TensorSharding("mesh", (DimSharding((AxisRef(name),)),)) for name in "xyz"]
    imported = import_and_check([to_hlo_sharding(s, mesh) for s in on])
    assert imported.mesh == Mesh(tuple(MeshAxis(f"_axis_{k}", 2) for k in range(3)), mesh.device_ids)
    assert [v.sharding.dims[0].axes for v in imported.values] == [(AxisRef(f"_axis_{k}"),) for k in range(3)]


def test_replicated_unknown_manual_unreduced_and_maximal():
    imported = import_and_check(
        [HloSharding.from_text(t) for t in ["{devices=[4]<=[4]}"] + OTHER_KINDS + ["{maximal device=0}"]]
    )
    with sdy_context():
        texts = [str(v.sharding.to_attr()) for v in imported.values]
    assert texts[1:] == [
        "#sdy.sharding<@mesh, [{}, {}]>",
        "#sdy.sharding<@mesh, [{?}, {?}]>",
        "#sdy.sharding<@mesh, [{}, {}]>",
        '#sdy.sharding<@mesh, [{}, {}], unreduced={"_axis_0"}>',
        f"#sdy.sharding<@{maximal_mesh_name(0)}, []>",
        f"#sdy.sharding<@{maximal_mesh_name(5)}, []>",
        f"#sdy.sharding<@{maximal_mesh_name(0)}, []>",
    ]
    assert imported.values[3].manual_axes == ("_axis_0",)
    assert [name for name, _ in imported.maximal_meshes] == [maximal_mesh_name(0), maximal_mesh_name(5)]
    assert imported.maximal_meshes[1][1] == Mesh((), (5,))


@pytest.mark.parametrize("line", versions.LINES, ids=lambda line: line.name)
def test_maximal_meshes_are_named_as_each_lines_xla_names_them(monkeypatch, line):
    """jaxlib 0.10 and 0.11's XLA import `{maximal device=N}` onto `@maximal_mesh_N`, 0.12's onto `@single_device_N`
    (test_import_equals_xla_import checks the installed line against its XLA)."""
    monkeypatch.setattr(versions, "installed", lambda: line)
    expected = {(0, 10): "maximal_mesh_3", (0, 11): "maximal_mesh_3", (0, 12): "single_device_3"}[line.line]
    imported = import_and_check([HloSharding.from_text("{maximal device=3}")])
    assert imported.values[0].sharding.mesh == expected
    assert imported.maximal_meshes == ((expected, Mesh((), (3,))),)


def test_manual_and_unreduced_subgroups():
    mesh, dims, manual = imported_texts(
        [
            "{devices=[2,4]<=[2,4]T(1,0) last_tile_dims={manual}}",
            "{devices=[2,2,2]<=[8] last_tile_dims={unreduced, replicated}}",
        ]
    )
    # The manual subgroup reads the iota's minor digit before its major one, and sdy lists
    # manual axes in mesh order, so the mesh puts them in that order (with device ids).
    assert mesh == '#sdy.mesh<["_axis_0"=2, "_axis_1"=2, "_axis_2"=2], device_ids=[0, 4, 1, 5, 2, 6, 3, 7]>'
    assert dims == [
        '#sdy.sharding<@mesh, [{"_axis_0"}]>',
        '#sdy.sharding<@mesh, [{"_axis_2"}], unreduced={"_axis_0"}>',
    ]
    assert manual == [("_axis_1", "_axis_2"), ()]


@pytest.mark.parametrize(
    "texts",
    [
        ["{devices=[4,2]<=[8]}", "{devices=[2,4]<=[8]}", "{devices=[2,1,4]<=[2,4]T(1,0) last_tile_dim_replicate}"],
        ["{devices=[1,2,4]<=[8] last_tile_dims={replicated}}", "{devices=[2,2,2]<=[2,2,2]T(2,1,0) last_tile_dim_replicate}"],
        ["{devices=[8]<=[8]}", "{replicated}", "{unknown}", "{manual}", "{maximal device=0}", "{maximal device=5}"],
    ],
    ids=["refined_mesh", "replicated_subgroups", "other_kinds"],
)
def test_import_equals_xla_import(texts):
    shardings = [HloSharding.from_text(t) for t in texts]
    ranks = [rank_of(s) for s in shardings]
    arguments = ", ".join(
        f'%arg{i}: tensor<{"8x" * rank}f32> {{mhlo.sharding = "{text}"}}' for i, (text, rank) in enumerate(zip(texts, ranks))
    )
    module = (
        "module @m attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {\n"
        f"  func.func public @main({arguments}) {{\n    return\n  }}\n}}"
    )
    with sdy_context():
        xla = ir.Module.parse(xla_import_oracle.xla_import(module))
        meshes = [op.operation for op in xla.body.operations if op.operation.name == "sdy.mesh"]
        main = next(op.operation for op in xla.body.operations if op.operation.name == "func.func")
        xla_mesh = str(meshes[0].attributes["mesh"])
        xla_shardings = [str(ir.DictAttr(entry)["sdy.sharding"]) for entry in ir.ArrayAttr(main.attributes["arg_attrs"])]
        imported = import_and_check(shardings, ranks)
        assert str(imported.mesh.to_attr()) == xla_mesh
        assert [str(v.sharding.to_attr()) for v in imported.values] == xla_shardings
    xla_oracle.checks["xla"] += 1


def test_tuples_import_element_by_element():
    imported = import_and_check([HloSharding.from_text("{{devices=[2]<=[2]}, {maximal device=1}, {replicated}}")])
    assert isinstance(imported.values[0], tuple) and len(imported.values[0]) == 3
    assert [name for name, _ in imported.maximal_meshes] == [maximal_mesh_name(1)]


def test_no_tiled_values_give_a_mesh_without_axes():
    imported = import_and_check([HloSharding.from_text("{replicated}"), HloSharding.from_text("{devices=[1,1]<=[1]}")])
    assert imported.mesh == Mesh(())


def test_manual_subgroup_device_order_is_mesh_order():
    """sdy lists manual axes in mesh order, so the mesh must put them in the subgroup's order: here
    the order led by the first value explains every tiling but puts the halves of the manual
    axis the other way round."""
    texts = [
        "{devices=[4,1,2]0,2,1,3,4,7,5,6 last_tile_dim_replicate}",
        "{devices=[4,1,2]0,4,1,5,2,7,3,6 last_tile_dim_replicate}",
        "{devices=[1,1,4,2]0,4,1,5,2,7,3,6 last_tile_dims={manual, replicated}}",
    ]
    mesh, dims, manual = imported_texts(texts)
    assert mesh == '#sdy.mesh<["_axis_0"=2, "_axis_1"=2, "_axis_2"=2], device_ids=[0, 1, 2, 3, 4, 5, 7, 6]>'
    assert dims[2] == "#sdy.sharding<@mesh, [{}, {}]>"
    assert manual[2] == ("_axis_1", "_axis_2")


def test_contrary_manual_orders_are_an_error():
    shardings = [
        HloSharding.from_text("{devices=[2,4]<=[8] last_tile_dims={manual}}"),
        HloSharding.from_text("{devices=[2,4]<=[2,2,2]T(0,2,1) last_tile_dims={manual}}"),
    ]
    with pytest.raises(ValueError) as info:
        import_shardings(shardings, [1, 1])
    assert "value 1 cannot be named: the devices of its manual subgroup ask for an order of the mesh's axes" in str(
        info.value
    )
    assert_error_names_a_value(shardings, info.value)


def test_values_that_cannot_be_named_are_errors():
    def error(texts: list[str], ranks=None) -> str:
        shardings = [HloSharding.from_text(t) for t in texts]
        with pytest.raises(ValueError) as info:
            import_shardings(shardings, ranks or [rank_of(s) for s in shardings])
        return str(info.value)

    assert error(["{devices=[4]<=[4]}", "{devices=[8]<=[8]}"]) == "value 1 cannot be named: it tiles 8 devices, value 0 tiles 4"
    assert "manual devices need whole mesh axes, but value 1 cuts across them" in error(
        ["{devices=[2,3]<=[6] last_tile_dims={manual}}", "{devices=[3,2]<=[6]}"]
    )
    message = error(["{devices=[2,2]0,1,2,3}", "{devices=[2,2]0,3,1,2}"])
    assert message.startswith("no mesh order names every value") and "value 1 cannot be named" in message
    assert error(["{devices=[2]5,9}"]) == "value 0 cannot be named: its 2 devices are not 0..1"
    assert "value 0 has 2 tuple elements but 1 ranks" in error(["{{replicated}, {replicated}}"], [(1,)])
    assert "tiles 1 dims of a rank-2 tensor" in error(["{devices=[2]<=[2]}"], [2])


# --------------------------------------------------------------------------
# Oracle (2): shardings exported from an iota mesh come back
# --------------------------------------------------------------------------


def digit_ranges(refs, mesh: Mesh, merge_all: bool) -> tuple[tuple[int, int], ...]:
    """The refs as ranges of the device order's digits (cuts from the major end), touching
    neighbours merged (after sorting when `merge_all`); size-1 ranges dropped."""
    starts, cut = {}, 1
    for axis in mesh.axes:
        starts[axis.name] = cut
        cut *= axis.size
    ranges = []
    for ref in refs:
        low = starts[ref.name] * (ref.sub_axis.pre_size if ref.sub_axis else 1)
        high = low * ref.size(mesh)
        if low < high:
            ranges.append((low, high))
    merged: list[list[int]] = []
    for low, high in sorted(ranges) if merge_all else ranges:
        if merged and merged[-1][1] == low:
            merged[-1][1] = high
        else:
            merged.append([low, high])
    return tuple(map(tuple, merged))


def placement(sharding: TensorSharding, mesh: Mesh, manual_axes) -> tuple:
    """Where the sharding puts the device digits: per dim, manual, unreduced, and the rest."""
    dims = tuple(digit_ranges(d.axes, mesh, False) for d in sharding.dims)
    manual = digit_ranges([AxisRef(n) for n in manual_axes], mesh, True)
    unreduced = digit_ranges(sharding.unreduced, mesh, True)
    used = [r for d in sharding.dims for r in d.axes] + [AxisRef(n) for n in manual_axes] + list(sharding.unreduced)
    used_ranges = digit_ranges(used, mesh, True)
    everything = digit_ranges([AxisRef(a.name) for a in mesh.axes], mesh, True)
    return dims, manual, unreduced, _complement(everything, used_ranges)


def _complement(everything, used) -> tuple[tuple[int, int], ...]:
    """The digit ranges of `everything` not in `used` (both sorted and merged)."""
    rest, cut = [], 1
    for low, high in used:
        if cut < low:
            rest.append((cut, low))
        cut = high
    if everything and cut < everything[-1][1]:
        rest.append((cut, everything[-1][1]))
    return tuple(rest)


# --------------------------------------------------------------------------
# Random cases
# --------------------------------------------------------------------------


@st.composite
def exported_cases(draw, with_device_ids: bool):
    """Shardings on one random mesh, each with its own manual axes, exported by `to_hlo_sharding`;
    sometimes other kinds too. With device ids, the first value tiles the whole mesh in mesh
    order (so its order explains every value)."""
    axes = draw(mesh_axes())
    mesh = Mesh(axes, draw(device_ids(axes, listed_iota=False)) if with_device_ids else ())
    cases = []
    if mesh.device_ids:
        cases.append((TensorSharding("mesh", (DimSharding(tuple(AxisRef(a.name) for a in axes)),)), ()))
    for _ in range(draw(st.integers(1, 5))):
        manual = tuple(a.name for a in axes if draw(st.integers(0, 4)) == 0)
        cases.append((draw(shardings(mesh, sub_axes=True, manual=manual)), manual))
    exported = [to_hlo_sharding(s, mesh, m) for s, m in cases]
    others = draw(st.lists(st.sampled_from(OTHER_KINDS), max_size=2))
    return mesh, cases, exported, [HloSharding.from_text(t) for t in others]


def check_exported(case) -> None:
    mesh, cases, exported, others = case
    ranks = [s.rank for s, _ in cases] + [rank_of(o) for o in others]
    imported = import_and_check(exported + others, ranks)
    if imported.mesh.total_size != mesh.total_size:
        # Only tiled values tell the device count; without one the mesh has no axes.
        kinds = {e.kind for e in exported if e.kind is Kind.TILED and e.tile_assignment.num_devices > 1}
        xla_oracle.check((kinds, imported.mesh.axes), (set(), ()), f"no tiled values among {exported}")
        return
    if mesh.device_ids:
        return
    for (sharding, manual), value in zip(cases, imported.values):
        expected = placement(sharding, mesh, manual)
        got = placement(value.sharding, imported.mesh, value.manual_axes)
        xla_oracle.checks["import: digits of exported sharding"] += 1
        xla_oracle.check(got, expected, f"digits of {sharding} manual={manual} and of its import {value}")


@FAST
@given(exported_cases(with_device_ids=False))
def test_shardings_exported_from_an_iota_mesh_come_back(case):
    check_exported(case)


@FAST
@given(exported_cases(with_device_ids=True))
def test_shardings_exported_from_a_mesh_with_device_ids_round_trip(case):
    check_exported(case)


@pytest.mark.slow
@SLOW
@given(st.booleans().flatmap(lambda ids: exported_cases(with_device_ids=ids)))
def test_exported_shardings_long(case):
    check_exported(case)


@st.composite
def partially_manual_cases(draw):
    """Partially manual shardings exported from one random mesh with random device ids, with no
    value that lays out the whole mesh (so the import's order comes from the values alone)."""
    axes = draw(mesh_axes())
    mesh = Mesh(axes, draw(device_ids(axes, listed_iota=False)))
    cases = []
    for _ in range(draw(st.integers(1, 4))):
        manual = tuple(a.name for a in axes if draw(st.integers(0, 2)) == 0)
        cases.append((draw(shardings(mesh, sub_axes=True, manual=manual)), manual))
    return mesh, cases, [to_hlo_sharding(s, mesh, m) for s, m in cases], []


def crosses_an_axis(cases) -> bool:
    """Whether two sub-axes of one mesh axis overlap without one containing the other's cut."""
    cuts: dict[str, set[int]] = {}
    for sharding, _ in cases:
        for ref in [r for d in sharding.dims for r in d.axes] + list(sharding.replicated) + list(sharding.unreduced):
            if ref.sub_axis is not None:
                cuts.setdefault(ref.name, set()).update({ref.sub_axis.pre_size, ref.sub_axis.next_pre_size})
    return any(a % b and b % a for points in cuts.values() for a in points for b in points)


def check_partially_manual(case) -> None:
    """Oracle (1) on the import; the import finds no mesh order only where sub-axes cut across
    a mesh axis (its orders come from the values' tiles, which then need not give the mesh's)."""
    try:
        check_exported(case)
    except ValueError as error:
        xla_oracle.checks["import: crossing sub-axes leave no order"] += 1
        xla_oracle.check(crosses_an_axis(case[1]), True, f"{case[0]} {[e.to_text() for e in case[2]]}: {error}")
        assert_error_names_a_value(case[2], error)


@FAST
@given(partially_manual_cases())
def test_partially_manual_shardings_on_a_mesh_with_device_ids_round_trip(case):
    check_partially_manual(case)


@pytest.mark.slow
@SLOW
@given(partially_manual_cases())
def test_partially_manual_shardings_long(case):
    check_partially_manual(case)


@st.composite
def factors(draw, count: int) -> list[int]:
    dims = []
    while count > 1:
        factor = draw(st.sampled_from([d for d in range(2, count + 1) if count % d == 0]))
        dims.append(factor)
        count //= factor
    return dims or [1]


@st.composite
def tiled_shardings(draw, count: int, devices: tuple[int, ...] | None) -> HloSharding:
    """Random tile dims (the last one to three maybe subgroups) over a random iota of `count`
    devices, its devices renamed by `devices` when given."""
    reshape_dims = draw(factors(count))
    iota = Iota.canonical(reshape_dims, draw(st.permutations(range(len(reshape_dims)))))
    dims = draw(factors(count))
    if draw(st.booleans()):
        dims.insert(draw(st.integers(0, len(dims))), 1)
    if devices is None:
        tiles = TileAssignment.from_iota(dims, iota)
    else:
        tiles = TileAssignment.from_devices(dims, np.asarray(devices)[iota.devices()])
    if draw(st.booleans()):
        return HloSharding.partially_replicated(tiles)
    types = draw(st.lists(st.sampled_from(list(SubgroupType)), max_size=min(2, len(dims))))
    return HloSharding.subgroup(tiles, types)


@st.composite
def iota_cases(draw) -> list[HloSharding]:
    count = draw(st.sampled_from(DEVICE_COUNTS))
    return draw(st.lists(tiled_shardings(count, None), min_size=1, max_size=4))


@st.composite
def permuted_cases(draw) -> tuple[list[HloSharding], list[HloSharding]]:
    """Random iota shardings, and the same with every device renamed by one random order,
    the first value tiling all devices in that order; and some in random orders of their own."""
    count = draw(st.sampled_from(DEVICE_COUNTS))
    order = tuple(draw(st.permutations(range(count))))
    iota_shardings = draw(st.lists(tiled_shardings(count, None), min_size=1, max_size=3))
    renamed = [HloSharding.tiled(TileAssignment.from_devices([count], order))]
    renamed += [_renamed(sharding, order) for sharding in iota_shardings]
    scrambled = [
        draw(tiled_shardings(count, tuple(draw(st.permutations(range(count))))))
        for _ in range(draw(st.integers(0, 2)))
    ]
    return [HloSharding.tiled(TileAssignment.from_iota([count], Iota.canonical([count], [0])))] + iota_shardings, renamed + scrambled


def _renamed(sharding: HloSharding, order: tuple[int, ...]) -> HloSharding:
    """The sharding with device d renamed order[d]."""
    if sharding.kind is not Kind.TILED:
        return sharding
    tiles = sharding.tile_assignment
    tiles = TileAssignment.from_devices(tiles.dims, np.asarray(order)[np.asarray(tiles.devices)])
    # Same tile shape and subgroups (already canonical); a replication group's devices sorted anew.
    if sharding.replicate_on_last_tile_dim or sharding.subgroup_types[-1:] == (SubgroupType.REPLICATED,):
        tiles = tiles.sort_last_dim()
    return dataclasses.replace(sharding, tile_assignment=tiles)


def check_iota_case(originals: list[HloSharding]) -> ImportedShardings | None:
    """Imports and checks the set; returns the import, or None after checking the error."""
    try:
        return import_and_check(originals)
    except ValueError as error:
        assert len(originals) > 1, f"a single value always imports: {originals[0]}: {error}"
        assert_error_names_a_value(originals, error)
        return None


def check_permuted_case(case) -> None:
    plain, renamed = case
    imported = check_iota_case(plain)
    if imported is not None and not imported.mesh.device_ids and len(renamed) == len(plain):
        # The first value's order names the renamed values as the iota order names the plain ones
        # (unless the iota order names them too: the renaming can itself be a block permutation).
        renamed_import = import_and_check(renamed)
        if renamed_import.mesh.device_ids:
            xla_oracle.checks["import: renamed equals plain"] += 1
            xla_oracle.check(
                (renamed_import.mesh, renamed_import.values),
                (Mesh(imported.mesh.axes, renamed[0].tile_assignment.devices), imported.values),
                "the renamed values are the plain ones on a mesh with device ids",
            )
    else:
        check_iota_case(renamed)


@FAST
@given(iota_cases())
def test_random_iotas(originals):
    check_iota_case(originals)


@FAST
@given(permuted_cases())
def test_random_device_orders(case):
    check_permuted_case(case)


@pytest.mark.slow
@SLOW
@given(iota_cases())
def test_random_iotas_long(originals):
    check_iota_case(originals)


@pytest.mark.slow
@SLOW
@given(permuted_cases())
def test_random_device_orders_long(case):
    check_permuted_case(case)


def test_every_tiling_of_twelve_devices_alone_imports():
    """Exhaustive over small cases: every tile shape over 12 devices with every canonical iota."""
    count = 0
    for dims in ([12], [2, 6], [6, 2], [3, 4], [4, 3], [2, 2, 3], [2, 3, 2], [3, 2, 2]):
        for reshape_dims in ([12], [2, 6], [6, 2], [3, 4], [4, 3], [2, 2, 3], [2, 3, 2], [3, 2, 2]):
            for perm in itertools.permutations(range(len(reshape_dims))):
                iota = Iota.canonical(reshape_dims, perm)
                import_and_check([HloSharding.tiled(TileAssignment.from_iota(dims, iota))])
                count += 1
    assert count == 8 * (1 + 4 * 2 + 3 * 6)


def test_device_count_is_the_product_of_the_mesh():
    imported = import_and_check([HloSharding.from_text("{devices=[3,1,4]<=[12] last_tile_dim_replicate}")])
    assert imported.mesh.total_size == 12 and math.prod(a.size for a in imported.mesh.axes) == 12
