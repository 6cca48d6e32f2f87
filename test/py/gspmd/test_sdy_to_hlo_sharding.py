"""Shardy shardings converted to HloSharding, checked against JAX's NamedSharding and XLA's Shardy export.

Two oracles: JAX's `NamedSharding._to_xla_hlo_sharding` for what a
PartitionSpec can say (full axes, unreduced and manual axes, logical device
ids), and XLA's own export of `sdy.sharding` (jaxlib's StableHLO-to-HLO
translation, `mlir_module_to_xla_computation`) for sub-axes, explicit
replicated axes, open dims, mesh device ids, empty and maximal meshes.
"""

from __future__ import annotations

import math
import re

import pytest
import xla_oracle
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from jax._src.lib import xla_client as xc
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec

from pysdy.dialects.context import make_context
from pysdy.dialects.hlo_sharding import HloSharding
from pysdy.dialects.sdy import AxisRef, DimSharding, Mesh, MeshAxis, SubAxisInfo, TensorSharding
from pysdy.passes.gspmd.sdy_to_hlo_sharding import to_hlo_sharding

# The quick run reports a failure as drawn; the slow run also shrinks it.
FAST = settings(
    max_examples=400,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
SLOW = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

MAX_DEVICES = 16
MAX_RANK = 3
AXIS_SIZES = [1, 2, 3, 4, 4, 5, 6, 6, 7, 8, 8, 8]


# --------------------------------------------------------------------------
# Random meshes and shardings
# --------------------------------------------------------------------------


@st.composite
def mesh_axes(draw) -> tuple[MeshAxis, ...]:
    """One to three axes of sizes 1..8 (composite sizes, which have sub-axes, more often), at most
    16 devices in all, names in random order."""
    names = draw(st.permutations(["x", "y", "z"]))[: draw(st.integers(1, 3))]
    axes, total = [], 1
    for name in names:
        size = draw(st.sampled_from([s for s in AXIS_SIZES if s * total <= MAX_DEVICES]))
        axes.append(MeshAxis(name, size))
        total *= size
    return tuple(axes)


@st.composite
def device_ids(draw, axes: tuple[MeshAxis, ...], listed_iota: bool) -> tuple[int, ...]:
    """Empty (the iota order) or a random order of the devices, which is the iota itself only
    when `listed_iota` (an sdy mesh never lists it; JAX's logical device ids may)."""
    count = math.prod(a.size for a in axes)
    if draw(st.booleans()):
        return ()
    if listed_iota and draw(st.integers(0, 3)) == 0:
        return tuple(range(count))
    ids = tuple(draw(st.permutations(range(count))))
    return () if ids == tuple(range(count)) or count == 1 else ids


def _sorted_and_merged(refs: list[AxisRef], mesh: Mesh) -> tuple[AxisRef, ...]:
    """Refs in mesh order with neighbouring sub-axes merged, as sdy wants replicated/unreduced axes."""
    order = [a.name for a in mesh.axes]
    refs = sorted(refs, key=lambda r: (order.index(r.name), r.sub_axis.pre_size if r.sub_axis else 1))
    return _merged(refs, mesh)


def _merged(refs: list[AxisRef], mesh: Mesh) -> tuple[AxisRef, ...]:
    """Merges each sub-axis into the one before it when it continues it (sdy rejects mergeable neighbours)."""
    out: list[AxisRef] = []
    for ref in refs:
        last = out[-1] if out else None
        if (
            last is not None
            and last.name == ref.name
            and last.sub_axis is not None
            and ref.sub_axis is not None
            and last.sub_axis.next_pre_size == ref.sub_axis.pre_size
        ):
            pre_size, size = last.sub_axis.pre_size, last.sub_axis.size * ref.sub_axis.size
            full = pre_size == 1 and size == mesh.axis_size(ref.name)
            out[-1] = AxisRef(ref.name) if full else AxisRef(ref.name, SubAxisInfo(pre_size, size))
        else:
            out.append(ref)
    return tuple(out)


@st.composite
def axis_pieces(draw, axis: MeshAxis, split: bool) -> list[AxisRef]:
    """The axis whole, or (when `split`) cut into consecutive sub-axes of random sizes."""
    if not split or axis.size == 1:
        return [AxisRef(axis.name)]
    sizes, rest = [], axis.size
    while rest > 1:
        size = draw(st.sampled_from([d for d in range(2, rest + 1) if rest % d == 0]))
        sizes.append(size)
        rest //= size
    if len(sizes) == 1:
        return [AxisRef(axis.name)]
    pieces, pre_size = [], 1
    for size in sizes:
        pieces.append(AxisRef(axis.name, SubAxisInfo(pre_size, size)))
        pre_size *= size
    return pieces


@st.composite
def dim_shardings_of(draw, mesh: Mesh, axes: list[AxisRef]) -> DimSharding:
    """The axes in random order, open or closed, with or without a priority (sdy gives none
    to an empty closed dim)."""
    refs = _merged(list(draw(st.permutations(axes))), mesh)
    is_closed = draw(st.booleans())
    priority = None if is_closed and not refs else draw(st.sampled_from([None, 0, 1]))
    return DimSharding(refs, is_closed, priority)


@st.composite
def shardings(draw, mesh: Mesh, sub_axes: bool, manual: tuple[str, ...] = ()) -> TensorSharding:
    """A random sharding on `mesh`: each piece of each non-manual axis goes to a dim, to the
    explicitly replicated axes, to the unreduced axes or nowhere. Without `sub_axes`, axes stay
    whole and size-1 axes are never unreduced (JAX drops them, XLA keeps them)."""
    rank = draw(st.integers(0, MAX_RANK))
    dims: list[list[AxisRef]] = [[] for _ in range(rank)]
    replicated: list[AxisRef] = []
    unreduced_refs: list[AxisRef] = []
    roles = ["none", "replicated", "unreduced"] + [f"dim{d}" for d in range(rank)] * 3
    for axis in mesh.axes:
        if axis.name in manual:
            continue
        for piece in draw(axis_pieces(axis, sub_axes and draw(st.integers(0, 2)) > 0)):
            role = draw(st.sampled_from(roles))
            if role == "replicated":
                replicated.append(piece)
            elif role == "unreduced" and (sub_axes or axis.size > 1):
                unreduced_refs.append(piece)
            elif role.startswith("dim"):
                dims[int(role[3:])].append(piece)
    dim_shardings = tuple(draw(dim_shardings_of(mesh, axes)) for axes in dims)
    return TensorSharding(
        "mesh",
        dim_shardings,
        _sorted_and_merged(replicated, mesh),
        _sorted_and_merged(unreduced_refs, mesh),
    )


# --------------------------------------------------------------------------
# Oracle 1: JAX's NamedSharding
# --------------------------------------------------------------------------


def jax_hlo_sharding(sharding: TensorSharding, mesh: Mesh, manual_axes: tuple[str, ...]) -> xc.HloSharding:
    """What JAX lowers the same sharding to: a PartitionSpec on an abstract mesh with Manual axes."""
    types = tuple(AxisType.Manual if a.name in manual_axes else AxisType.Explicit for a in mesh.axes)
    abstract = AbstractMesh(tuple(a.size for a in mesh.axes), tuple(a.name for a in mesh.axes), axis_types=types)
    spec = PartitionSpec(
        *(tuple(ref.name for ref in dim.axes) or None for dim in sharding.dims),
        unreduced=frozenset(ref.name for ref in sharding.unreduced),
    )
    logical_ids = mesh.device_ids or None
    return NamedSharding(abstract, spec, _logical_device_ids=logical_ids)._to_xla_hlo_sharding(sharding.rank)


def check_against_jax(mesh: Mesh, manual: tuple[str, ...], tensor_shardings: list[TensorSharding]) -> None:
    for sharding in tensor_shardings:
        expected = jax_hlo_sharding(sharding, mesh, manual)
        assert_same(to_hlo_sharding(sharding, mesh, manual), expected, f"{sharding} manual={manual}")


@st.composite
def jax_cases(draw) -> tuple[Mesh, tuple[str, ...], list[TensorSharding]]:
    """A mesh, its manual axes (none of size 1: JAX drops those, XLA keeps them) and shardings on it.

    Only JAX checks manual and unreduced axes together (XLA's export refuses them together)."""
    axes = draw(mesh_axes())
    mesh = Mesh(axes, draw(device_ids(axes, listed_iota=True)))
    manual = tuple(a.name for a in axes if a.size > 1 and draw(st.integers(0, 3)) == 0)
    tensor_shardings = draw(
        st.lists(shardings(mesh, sub_axes=False, manual=manual), min_size=1, max_size=8)
    )
    return mesh, manual, tensor_shardings


@FAST
@given(jax_cases())
def test_random_shardings_match_jax(case):
    check_against_jax(*case)


@pytest.mark.slow
@SLOW
@given(jax_cases())
def test_random_shardings_match_jax_long(case):
    check_against_jax(*case)


# --------------------------------------------------------------------------
# Oracle 2: XLA's Shardy export
# --------------------------------------------------------------------------

_PARAMETER_SHARDING = re.compile(r"parameter\((\d+)\), sharding=(\{(?:[^{}]|\{[^{}]*\})*\})")


def xla_exported(mesh: Mesh, tensor_shardings: list[TensorSharding]) -> list[str | None]:
    """The `sharding=` XLA gives each sharding, as the arguments of one module translated to HLO
    (None where the parameter gets no sharding)."""
    with make_context():
        mesh_text = str(mesh.to_attr()).removeprefix("#sdy.mesh")
        arguments = [
            f"%arg{i}: tensor<{'8x' * s.rank}f32> {{sdy.sharding = {s.to_attr()}}}"
            for i, s in enumerate(tensor_shardings)
        ]
    module = (
        f"module @m attributes {{mhlo.num_partitions = {MAX_DEVICES} : i32}} {{\n"
        f"  sdy.mesh @mesh = {mesh_text}\n"
        f"  func.func public @main({', '.join(arguments)}) {{\n    return\n  }}\n}}"
    )
    exported = {int(i): text for i, text in _PARAMETER_SHARDING.findall(xla_oracle.hlo_text(module))}
    return [exported.get(i) for i in range(len(tensor_shardings))]


def check_against_xla(mesh: Mesh, tensor_shardings: list[TensorSharding]) -> None:
    for sharding, text in zip(tensor_shardings, xla_exported(mesh, tensor_shardings)):
        converted = to_hlo_sharding(sharding, mesh)
        if text is None:
            # XLA drops the tiling of a scalar over one device (a tile shape with no dims)
            # altogether; unsharded is replicated.
            xla_oracle.check((sharding.rank, mesh.total_size), (0, 1), f"XLA exports no sharding for {sharding}")
            xla_oracle.check(converted, HloSharding.replicated(), f"pysdy's sharding for {sharding}")
            continue
        assert_same(converted, xla_oracle.parse(text), str(sharding))
        xla_oracle.check(converted.to_text(), text, f"HLO text of {sharding}")


@st.composite
def xla_cases(draw) -> tuple[Mesh, list[TensorSharding]]:
    axes = draw(mesh_axes())
    mesh = Mesh(axes, draw(device_ids(axes, listed_iota=False)))
    tensor_shardings = draw(st.lists(shardings(mesh, sub_axes=True), min_size=1, max_size=8))
    return mesh, tensor_shardings


@FAST
@given(xla_cases())
def test_random_shardings_match_xla_export(case):
    check_against_xla(*case)


@pytest.mark.slow
@SLOW
@given(xla_cases())
def test_random_shardings_match_xla_export_long(case):
    check_against_xla(*case)


def test_meshes_without_axes_match_xla_export():
    """An empty mesh replicates any tensor; a maximal mesh puts a scalar on its one device."""
    empty = Mesh(())
    closed_dims = [(), (True,), (False, True), (True, True, False)]
    check_against_xla(empty, [TensorSharding("mesh", tuple(DimSharding((), c) for c in dims)) for dims in closed_dims])
    for device in [0, 3, 15]:
        check_against_xla(Mesh((), (device,)), [TensorSharding("mesh", ())])
    assert to_hlo_sharding(TensorSharding("mesh", ()), Mesh((), (5,))).to_text() == "{maximal device=5}"
    assert to_hlo_sharding(TensorSharding.fully_open("mesh", 2), empty).to_text() == "{replicated}"


def test_single_device_tiling_is_replicated_as_in_xla_export():
    """XLA reads the exported sharding back from a proto, which makes one-device tiles replicated."""
    mesh = Mesh((MeshAxis("x", 1), MeshAxis("y", 1)))
    tensor_shardings = [
        TensorSharding("mesh", (DimSharding((AxisRef("x"),)), DimSharding((AxisRef("y"),)))),
        TensorSharding("mesh", ()),
        TensorSharding("mesh", (DimSharding((AxisRef("y"), AxisRef("x"))),)),
    ]
    check_against_xla(mesh, tensor_shardings)
    assert {to_hlo_sharding(s, mesh).to_text() for s in tensor_shardings} == {"{replicated}"}


# --------------------------------------------------------------------------
# Manual axes (XLA's export semantics; the translation oracle cannot pass them)
# --------------------------------------------------------------------------


def test_manual_axes_as_xla_export_makes_them():
    mesh = Mesh((MeshAxis("x", 2), MeshAxis("y", 4), MeshAxis("z", 1)))
    on_y = TensorSharding("mesh", (DimSharding((AxisRef("y"),)),))
    assert to_hlo_sharding(on_y, mesh, ("x",)).to_text() == "{devices=[4,2]<=[2,4]T(1,0) last_tile_dims={manual}}"
    # Every axis manual: manual, whatever the dims say.
    assert to_hlo_sharding(TensorSharding("mesh", ()), mesh, ("x", "y", "z")).to_text() == "{manual}"
    # A size-1 manual axis still makes a manual subgroup, which XLA collapses to manual when nothing
    # else is tiled (JAX drops size-1 axes first and says replicated).
    single = Mesh((MeshAxis("x", 1), MeshAxis("y", 1)))
    assert to_hlo_sharding(TensorSharding.fully_closed("mesh", 2), single, ("x",)).to_text() == "{manual}"


def test_manual_sub_axis_conflicts_are_errors():
    mesh = Mesh((MeshAxis("x", 4), MeshAxis("y", 2)))
    on_x = TensorSharding("mesh", (DimSharding((AxisRef("x"),)),))
    with pytest.raises(ValueError, match="more than once"):
        to_hlo_sharding(on_x, mesh, ("x",))
    on_x_part = TensorSharding("mesh", (DimSharding((AxisRef("x", SubAxisInfo(1, 2)),)),))
    with pytest.raises(ValueError, match="overlaps"):
        to_hlo_sharding(on_x_part, mesh, ("x",))
    with pytest.raises(ValueError, match="not an axis"):
        to_hlo_sharding(on_x, mesh, ("w",))
    with pytest.raises(ValueError, match="repeat"):
        to_hlo_sharding(on_x, mesh, ("y", "y"))


# --------------------------------------------------------------------------
# Invalid shardings
# --------------------------------------------------------------------------


def test_invalid_shardings_are_errors():
    mesh = Mesh((MeshAxis("x", 8),))
    cases = {
        "not an axis": [AxisRef("w")],
        "does not fit": [AxisRef("x", SubAxisInfo(4, 4))],
        "overlaps": [AxisRef("x", SubAxisInfo(1, 4)), AxisRef("x", SubAxisInfo(2, 2))],
        "more than once": [AxisRef("x", SubAxisInfo(1, 2)), AxisRef("x", SubAxisInfo(1, 2))],
    }
    for message, refs in cases.items():
        with pytest.raises(ValueError, match=message):
            to_hlo_sharding(TensorSharding("mesh", (DimSharding(tuple(refs)),)), mesh)
    half = AxisRef("x", SubAxisInfo(1, 2))
    for replicated, message in [(half, "more than once"), (AxisRef("x", SubAxisInfo(1, 4)), "overlaps")]:
        with pytest.raises(ValueError, match=message):
            to_hlo_sharding(TensorSharding("mesh", (DimSharding((half,)),), replicated=(replicated,)), mesh)


# --------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------


def assert_same(sharding: HloSharding, expected: xc.HloSharding, what: str) -> None:
    """pysdy's sharding prints as the oracle's, XLA reads that text as the oracle's value,
    and pysdy's value matches XLA's in kind, tiles, device order, iota form and subgroups."""
    xla_oracle.assert_matches(sharding, expected)
    xla_oracle.check(xla_oracle.parse(sharding.to_text()) == expected, True, f"XLA reads back {what}")
