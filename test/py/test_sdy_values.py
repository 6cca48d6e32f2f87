"""The sdy attribute values convert to and from jaxlib's ir.Attribute without loss."""

from hypothesis import given, settings
from hypothesis import strategies as st
from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import (
    AxisRef,
    DimSharding,
    ManualAxes,
    Mesh,
    MeshAxis,
    OpShardingRule,
    SubAxisInfo,
    TensorSharding,
    TensorShardingPerValue,
)

CONTEXT = make_context()

names = st.sampled_from(["a", "b", "x", "y", "data", "model"])
sub_axes = st.builds(SubAxisInfo, st.sampled_from([1, 2, 4]), st.sampled_from([2, 4, 8]))
axis_refs = st.builds(AxisRef, names, st.none() | sub_axes)
dims = st.builds(
    DimSharding,
    st.lists(axis_refs, max_size=3).map(tuple),
    st.booleans(),
    st.none() | st.integers(0, 5),
)
meshes = st.builds(
    Mesh,
    st.lists(st.builds(MeshAxis, names, st.integers(1, 8)), max_size=3, unique_by=lambda a: a.name).map(tuple),
    st.just(()),
)
tensor_shardings = st.builds(
    TensorSharding,
    st.sampled_from(["mesh", "other_mesh"]) | meshes,
    st.lists(dims, max_size=4).map(tuple),
    st.lists(axis_refs, max_size=2).map(tuple),
    st.lists(axis_refs, max_size=2).map(tuple),
)


def roundtrip(value):
    with CONTEXT:
        attr = value.to_attr()
        again = type(value).from_attr(ir.Attribute.parse(str(attr)))
        assert again == value
        assert str(again.to_attr()) == str(attr)


@settings(max_examples=300, deadline=None)
@given(tensor_shardings)
def test_tensor_sharding_roundtrips_through_its_printed_attribute(sharding):
    roundtrip(sharding)


@settings(max_examples=50, deadline=None)
@given(st.lists(tensor_shardings, min_size=1, max_size=3).map(tuple))
def test_sharding_per_value_roundtrips(shardings):
    roundtrip(TensorShardingPerValue(shardings))


def test_mesh_with_device_ids_and_maximal_mesh_roundtrip():
    roundtrip(Mesh((MeshAxis("a", 2), MeshAxis("b", 2)), (3, 1, 2, 0)))
    maximal = Mesh((), (5,))
    roundtrip(maximal)
    assert maximal.is_maximal


def test_manual_axes_roundtrip():
    roundtrip(ManualAxes(("a", "b")))


def test_printed_sharding_is_sdy_syntax():
    sharding = TensorSharding(
        "mesh",
        (DimSharding((AxisRef("a", SubAxisInfo(2, 4)),), False, 1), DimSharding()),
        (AxisRef("b"),),
        (AxisRef("c"),),
    )
    with CONTEXT:
        assert str(sharding.to_attr()) == (
            '#sdy.sharding<@mesh, [{"a":(2)4, ?}p1, {}], replicated={"b"}, unreduced={"c"}>'
        )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 16), min_size=1, max_size=6),
    st.data(),
)
def test_op_sharding_rule_roundtrips(factor_sizes, data):
    n = len(factor_sizes)
    factor_lists = st.lists(st.integers(0, n - 1), min_size=1, max_size=2).map(tuple)
    # The rule printer needs at least one operand and one result.
    mappings = st.lists(st.lists(factor_lists, max_size=3).map(tuple), min_size=1, max_size=3).map(tuple)
    special = data.draw(st.permutations(range(n)))
    cut1, cut2, cut3 = sorted(data.draw(st.lists(st.integers(0, n), min_size=3, max_size=3)))
    rule = OpShardingRule(
        tuple(factor_sizes),
        data.draw(mappings),
        data.draw(mappings),
        tuple(special[:cut1]),
        tuple(special[cut1:cut2]),
        tuple(special[cut2:cut3]),
        tuple(data.draw(st.lists(st.integers(0, n - 1), max_size=2, unique=True))),
        data.draw(st.booleans()),
    )
    roundtrip(rule)
