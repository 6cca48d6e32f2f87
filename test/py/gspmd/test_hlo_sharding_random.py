"""Random HloSharding texts (hypothesis): pysdy parses, canonicalizes, prints and compares them as XLA does."""

from __future__ import annotations

import pytest
import xla_oracle
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from pysdy.dialects.hlo_sharding import HloSharding, Kind, OpMetadata
from pysdy.dialects.tile_assignment import TileAssignment

DEVICE_COUNTS = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 36, 48, 64]
# The quick run reports a failure as drawn; the slow run also shrinks it.
FAST = settings(
    max_examples=200,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
SLOW = settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def factors(draw, count: int, max_ones: int) -> list[int]:
    """A random ordered factorization of `count`, with up to `max_ones` size-1 dims mixed in."""
    dims = []
    while count > 1:
        factor = draw(st.sampled_from([d for d in range(2, count + 1) if count % d == 0]))
        dims.append(factor)
        count //= factor
    for _ in range(draw(st.integers(0, max_ones))):
        dims.insert(draw(st.integers(0, len(dims))), 1)
    return dims or [1]


@st.composite
def tile_assignment_texts(draw) -> tuple[str, int]:
    """`[dims]` then a random device list or a random iota; also the number of tile dims."""
    count = draw(st.sampled_from(DEVICE_COUNTS))
    dims = draw(factors(count, max_ones=2))
    shape = f"[{','.join(map(str, dims))}]"
    if count > 1 and draw(st.booleans()):
        if draw(st.booleans()):
            devices = draw(st.permutations(range(count)))
        else:  # some of the 64 devices, in any order
            devices = draw(st.lists(st.integers(0, 63), min_size=count, max_size=count, unique=True))
        return shape + ",".join(map(str, devices)), len(dims)
    reshape_dims = draw(factors(count, max_ones=1))
    order = f"<=[{','.join(map(str, reshape_dims))}]"
    if len(reshape_dims) > 1:
        order += f"T({','.join(map(str, draw(st.permutations(range(len(reshape_dims))))))})"
    return shape + order, len(dims)


metadata_strings = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=6)
int32s = st.integers(-(2**31), 2**31 - 1)
metadata_entries = st.builds(
    OpMetadata,
    op_type=metadata_strings,
    op_name=metadata_strings,
    source_file=metadata_strings,
    source_line=int32s,
    source_end_column=int32s,
    profile_type=st.lists(st.integers(0, 3), max_size=3).map(tuple),
    stack_frame_id=int32s,
    metadata_payload=metadata_strings,
)


@st.composite
def metadata_texts(draw) -> str:
    entries = draw(st.lists(metadata_entries, min_size=1, max_size=3))
    if len(entries) == 1 and draw(st.booleans()):
        return f"metadata={entries[0].to_text()}"
    return "metadata={" + ", ".join(e.to_text() for e in entries) + "}"


@st.composite
def single_texts(draw, with_metadata: bool = False) -> str:
    """One sharding of any kind; its attributes in random order, as XLA's parser allows."""
    kind = draw(st.sampled_from(["replicated", "manual", "unknown", "unreduced", "maximal"] + ["tiled"] * 5))
    parts = []
    if kind == "maximal":
        parts.append(f"maximal device={draw(st.integers(0, 63))}")
    elif kind == "tiled":
        tiles, rank = draw(tile_assignment_texts())
        parts.append(f"devices={tiles}")
        subgroups = draw(st.integers(-1, rank))  # -1: last_tile_dim_replicate
        if subgroups == -1:
            parts.append("last_tile_dim_replicate")
        elif subgroups:
            types = draw(st.lists(st.sampled_from(["manual", "replicated", "unreduced"]), min_size=subgroups, max_size=subgroups))
            parts.append("last_tile_dims={" + ", ".join(types) + "}")
    else:
        parts.append(kind)
    if draw(st.booleans()):
        parts.append(f"{draw(st.sampled_from(['shard_as', 'shard_like']))} {draw(st.integers(0, 9))}")
    if with_metadata or draw(st.booleans()):
        parts.append(draw(metadata_texts()))
    return "{" + " ".join(draw(st.permutations(parts))) + "}"


@st.composite
def sharding_texts(draw, with_metadata: bool = False) -> str:
    if draw(st.integers(0, 3)):
        return draw(single_texts(with_metadata))
    elements = draw(st.lists(single_texts(with_metadata), min_size=0 if not with_metadata else 1, max_size=3))
    return "{" + ", ".join(elements) + "}"


def check_round_trip(text: str) -> None:
    xla_oracle.assert_round_trip(text)


@FAST
@given(sharding_texts())
def test_random_sharding_matches_xla(text):
    check_round_trip(text)


@pytest.mark.slow
@SLOW
@given(sharding_texts())
def test_random_sharding_matches_xla_long(text):
    check_round_trip(text)


def check_equality(text: str, swap: tuple[int, int]) -> None:
    """pysdy's == and hash agree with XLA's == against variants of the sharding:
    the other representation of its tiles, two devices swapped, and other metadata."""
    sharding = HloSharding.from_text(text)
    # Variants are compared through their text, which for tiles of rank 0 (`devices=[]`) XLA cannot read.
    assume(sharding.kind is not Kind.TILED or sharding.tile_assignment.dims)
    variants = [sharding.with_metadata([OpMetadata(op_name="other")])]
    if sharding.kind is Kind.TILED:
        tiles = sharding.tile_assignment
        variants.append(_with_tiles(sharding, tiles.to_iota()))
        if tiles.num_devices > 1:  # XLA has no one-device list
            variants.append(_with_tiles(sharding, tiles.to_explicit()))
            devices = list(tiles.devices)
            i, j = (s % len(devices) for s in swap)
            devices[i], devices[j] = devices[j], devices[i]
            variants.append(_with_tiles(sharding, TileAssignment.from_devices(tiles.dims, devices)))
    for variant in variants:
        variant_text = variant.to_text()
        other = HloSharding.from_text(variant_text)
        xla_equal = xla_oracle.parse(text) == xla_oracle.parse(variant_text)
        xla_oracle.check(sharding == other, xla_equal, f"{text} == {variant_text}")
        if xla_equal:
            assert hash(sharding) == hash(other)


def _with_tiles(sharding: HloSharding, tiles: TileAssignment) -> HloSharding:
    return HloSharding(
        Kind.TILED, tiles, None, sharding.replicate_on_last_tile_dim, sharding.subgroup_types, (), sharding.shard_group
    )


@FAST
@given(single_texts(), st.tuples(st.integers(0, 63), st.integers(0, 63)))
def test_random_equality_matches_xla(text, swap):
    check_equality(text, swap)


@pytest.mark.slow
@SLOW
@given(single_texts(), st.tuples(st.integers(0, 63), st.integers(0, 63)))
def test_random_equality_matches_xla_long(text, swap):
    check_equality(text, swap)


def check_metadata(texts: list[str]) -> None:
    for text, xla_text in zip(texts, xla_oracle.printed_with_metadata(texts)):
        sharding = xla_oracle.as_translated(HloSharding.from_text(text))
        from_xla = HloSharding.from_text(xla_text)
        assert from_xla.to_text() == xla_text
        if from_xla == sharding:
            assert sharding.to_text() == xla_text, text
        else:
            # XLA's trip through HLO re-canonicalized the sharding itself (one-device tiles become
            # replicated; see also test_xla_text_is_not_always_a_fixed_point): the metadata must survive.
            assert _metadata(from_xla) == _metadata(sharding), text


def _metadata(sharding: HloSharding) -> list[tuple[OpMetadata, ...]]:
    return [e.metadata for e in sharding.elements] if sharding.kind is Kind.TUPLE else [sharding.metadata]


@settings(FAST, max_examples=25)
@given(st.lists(sharding_texts(with_metadata=True), min_size=1, max_size=4))
def test_random_metadata_prints_as_xla(texts):
    check_metadata(texts)


@pytest.mark.slow
@settings(SLOW, max_examples=500)
@given(st.lists(sharding_texts(with_metadata=True), min_size=1, max_size=4))
def test_random_metadata_prints_as_xla_long(texts):
    check_metadata(texts)
