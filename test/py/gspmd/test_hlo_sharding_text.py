"""Hand-written HloSharding texts of every form: pysdy parses and prints them exactly as XLA does."""

from __future__ import annotations

import pytest
import xla_oracle
from line_side import when

from pysdy.dialects.hlo_sharding import HloSharding, Kind, OpMetadata, ShardGroup, SubgroupType, c_escape, c_unescape
from pysdy.dialects.tile_assignment import Iota, TileAssignment

# Every form XLA writes, plus non-canonical spellings XLA rewrites when it parses them.
FORMS = [
    "{replicated}",
    "{manual}",
    "{unknown}",
    "{unreduced}",
    "{maximal device=3}",
    "{devices=[2,2]0,2,1,3}",
    "{devices=[2,2]0,1,2,3}",  # an iota written out stays a list
    "{devices=[2,2]0,1,2,7}",  # devices need not be 0..N-1
    "{devices=[4,2]<=[2,4]T(1,0)}",
    "{devices=[2,2]<=[4]}",
    "{devices=[1,1]<=[1]}",
    "{devices=[2,2]<=[2,2]T(0,1)}",  # identity transpose: <=[4]
    "{devices=[4]<=[1,4]T(1,0)}",  # size-1 reshape dim dropped
    "{devices=[2,2,2]<=[2,2,2]T(2,1,0)}",
    "{devices=[2,2,2]<=[2,1,2,2]T(0,2,1,3)}",  # dims 0 and 2 merge once the 1 between them goes
    "{ devices=[2, 2] 0 , 1,2,3 }",  # whitespace between tokens
    # last_tile_dim_replicate
    "{devices=[2,2,2]0,1,2,3,4,5,6,7 last_tile_dim_replicate}",
    "{devices=[2,1,2]3,1,2,0 last_tile_dim_replicate}",  # devices sorted inside each group
    "{devices=[2,2]1,0,3,2 last_tile_dim_replicate}",  # sorted into 0,1,2,3, still a list
    "{devices=[1,1,4]0,1,2,3 last_tile_dim_replicate}",  # nothing tiled: replicated
    "{devices=[4]<=[4] last_tile_dim_replicate}",
    "{devices=[2,2,1]<=[4] last_tile_dim_replicate}",  # size-1 replication dropped
    "{devices=[2,2,1]3,2,1,0 last_tile_dim_replicate}",
    "{devices=[2,4]<=[2,4]T(1,0) last_tile_dim_replicate}",  # sorted, still an iota
    "{devices=[3,4]<=[2,6]T(1,0) last_tile_dim_replicate}",
    "{devices=[4,3]<=[2,6]T(1,0) last_tile_dim_replicate}",  # group cuts an iota dim: a list
    "{devices=[3,8]<=[3,2,4]T(1,0,2) last_tile_dim_replicate}",
    "{devices=[3,2,2,2]<=[3,2,4]T(1,0,2) last_tile_dim_replicate}",
    # last_tile_dims
    "{devices=[2,2,2]<=[8] last_tile_dims={manual}}",
    "{devices=[2,1,2,2]<=[8] last_tile_dims={manual, replicated}}",
    "{devices=[2,2]<=[4] last_tile_dims={unreduced}}",
    "{devices=[2,2,2]<=[8] last_tile_dims={unreduced, manual}}",  # sorted: manual, unreduced, replicated
    "{devices=[2,2,2]<=[8] last_tile_dims={replicated, unreduced}}",
    "{devices=[2,2,2,2]<=[16] last_tile_dims={replicated, unreduced, manual}}",
    "{devices=[2,2,3,2]<=[24] last_tile_dims={manual, replicated, manual}}",  # same types merge
    "{devices=[2,2,2]<=[8] last_tile_dims={replicated, replicated}}",  # only replicated: last_tile_dim_replicate
    "{devices=[2,2]0,1,2,3 last_tile_dims={replicated}}",
    "{devices=[2,2,2]0,3,2,1,4,5,6,7 last_tile_dims={manual, replicated}}",  # replicated groups sorted
    "{devices=[2,2,2]7,6,5,4,3,2,1,0 last_tile_dims={replicated, manual}}",
    "{devices=[2,3,4]<=[12,2]T(1,0) last_tile_dims={replicated, manual}}",  # transposed, still an iota
    "{devices=[4,2,3]<=[6,2,2]T(1,0,2) last_tile_dims={unreduced, unreduced, replicated}}",
    "{devices=[1,4]<=[4] last_tile_dims={unreduced}}",  # nothing tiled: unreduced
    "{devices=[2,2]<=[4] last_tile_dims={manual, manual}}",
    "{devices=[1,2,2]<=[4] last_tile_dims={manual, replicated}}",
    "{devices=[2,2,1]<=[4] last_tile_dims={manual}}",  # size-1 subgroup dropped: plain tiles
    "{devices=[1,1,2]<=[2] last_tile_dims={replicated, manual}}",  # manual alone after dropping: manual
    "{devices=[1,2,1]<=[2] last_tile_dims={unreduced, manual}}",  # unreduced alone after dropping: kept
    "{devices=[1,1,1]<=[1] last_tile_dims={manual, replicated}}",
    "{devices=[2,2]<=[4] last_tile_dims={manual,replicated}}",
    "{devices=[2,2]<=[4] last_tile_dims={}}",
    # shard groups
    "{devices=[2]0,1 shard_as 0}",
    "{unknown shard_as 2}",
    "{replicated shard_like 1}",
    "{devices=[2,2]<=[4] shard_like 1 last_tile_dim_replicate}",
    "{devices=[1,4]<=[4] last_tile_dims={replicated} shard_as 3}",
    # tuples
    "{}",
    "{{replicated}}",
    "{{replicated}, {maximal device=0}}",
    "{{replicated},{devices=[2]0,1}, {devices=[2,2]<=[4] last_tile_dims={manual}}}",
    # metadata (not part of str(xla_client.HloSharding), see test_metadata_prints_as_xla)
    '{replicated metadata={op_name="a"}}',
    '{devices=[2]0,1 metadata={op_type="Add" op_name="x" source_file="f.py" source_line=3}}',
]


@pytest.mark.parametrize("text", FORMS)
def test_form_matches_xla(text):
    xla_oracle.assert_round_trip(text)


def test_xla_text_is_not_always_a_fixed_point():
    """XLA collapses a lone unreduced subgroup only when parsing, not when its own canonicalization makes one,
    so parsing its printed text again can change the sharding; pysdy does the same."""
    text = "{devices=[1,2,1]<=[2] last_tile_dims={unreduced, manual}}"
    once = xla_oracle.assert_round_trip(text)
    assert once.to_text() == "{devices=[1,2]<=[2] last_tile_dims={unreduced}}"
    assert HloSharding.from_text(once.to_text()) == HloSharding.unreduced()
    # Dropping every trivial subgroup dim can leave no tile dim at all: XLA prints `devices=[]`,
    # which neither XLA nor pysdy reads back.
    text = "{devices=[1,1]<=[1] last_tile_dims={manual, replicated}}"
    empty = xla_oracle.assert_round_trip(text)
    assert empty.to_text() == "{devices=[]<=[1]}" and empty.tile_assignment.dims == ()


METADATA = [
    '{replicated metadata={op_name="a"}}',
    '{replicated metadata={source_end_column=7 source_column=2 source_end_line=4 stack_frame_id=3 scheduling_name="s" '
    'profile_type={1,2} deduplicated_name="d" source_line=3 source_file="f" op_name="x" op_type="t" metadata_payload="p"}}',
    '{replicated metadata={op_name="a", op_type="b"}}',
    '{replicated metadata={source_line=0 op_name="" stack_frame_id=0 profile_type={0}}}',
    '{replicated metadata={source_line=-2147483648}}',
    '{replicated metadata={}}',
    '{replicated metadata={{}}}',
    '{replicated metadata={{op_name="a"}, {op_name="b"}}}',
    '{replicated metadata={{op_name="a"},{}}}',
    r'{replicated metadata={op_name="tab\there, quote\" and \' backslash\\ octal\101\x42 \u00e9 \177"}}',
    '{manual metadata={op_name="m"}}',
    '{unknown metadata={op_name="m"}}',
    '{unreduced metadata={op_name="m"}}',
    '{maximal device=2 metadata={op_name="m"}}',
    '{devices=[4]<=[4] metadata={op_name="m"} shard_as 1}',
    '{devices=[2,2]<=[4] last_tile_dims={manual} metadata={op_name="m"}}',
    '{devices=[2,2]0,1,2,3 last_tile_dim_replicate metadata={op_name="m"}}',
    '{devices=[1,4]<=[4] last_tile_dims={replicated} metadata={op_name="collapsed"}}',
    '{{replicated metadata={op_name="x"}}, {devices=[2,1]0,1 metadata={{op_name="y"}, {op_type="z"}}}}',
    '{{manual metadata={op_name="q"}}}',
]


def test_metadata_prints_as_xla():
    """With metadata, pysdy's text is what XLA writes into `mhlo.sharding`."""
    expected = xla_oracle.printed_with_metadata(METADATA)
    for text, xla_text in zip(METADATA, expected):
        sharding = xla_oracle.as_translated(HloSharding.from_text(text))
        assert sharding.to_text() == xla_text, text
        assert HloSharding.from_text(xla_text).to_text() == xla_text


def test_metadata_values():
    sharding = HloSharding.from_text(r'{replicated metadata={{op_name="a\tb" source_line=3 profile_type={1,2}}, {}}}')
    assert sharding.metadata == (OpMetadata(op_name="a\tb", source_line=3, profile_type=(1, 2)), OpMetadata())
    assert HloSharding.from_text("{replicated}").metadata == ()
    assert HloSharding.from_text("{replicated metadata={}}").metadata == (OpMetadata(),)


def test_c_escapes_round_trip_bytes():
    text = "".join(chr(c) for c in range(256)) + "\udcff"  # every code point below 256, and a lone byte
    assert c_unescape(c_escape(text)) == text
    assert c_escape('a"\\\n\x01é') == 'a\\"\\\\\\n\\001\\303\\251'


def test_values():
    sharding = HloSharding.from_text("{devices=[4,2,2]<=[2,8]T(1,0) last_tile_dims={manual} shard_like 3}")
    assert sharding.kind is Kind.TILED
    assert sharding.tile_assignment.iota == Iota((2, 8), (1, 0))
    assert sharding.tile_assignment.array()[3, 1, 0] == 7  # flat position 14 of 0,8,1,9,...,7,15
    assert sharding.subgroup_types == (SubgroupType.MANUAL,)
    assert sharding.data_tile_dims == (4, 2)
    assert sharding.shard_group == ShardGroup(3, shard_like=True)
    assert HloSharding.from_text("{maximal device=5}") == HloSharding.maximal(5)
    assert HloSharding.from_text("{unknown shard_as 2}") == HloSharding.unknown().with_shard_group(ShardGroup(2))
    assert HloSharding.from_text("{devices=[2,2]<=[4] last_tile_dim_replicate}").data_tile_dims == (2,)
    with pytest.raises(ValueError, match="replicated sharding has no tiles"):
        HloSharding.replicated().data_tile_dims
    pair = HloSharding.from_text("{{replicated}, {manual}}")
    assert pair == HloSharding.tuple_of([HloSharding.replicated(), HloSharding.manual()])


def test_constructors_canonicalize_like_parsing():
    tiles = TileAssignment.from_devices((2, 2, 2), [0, 3, 2, 1, 4, 5, 6, 7])
    assert HloSharding.subgroup(tiles, [SubgroupType.REPLICATED, SubgroupType.MANUAL]).to_text() == str(
        xla_oracle.parse("{devices=[2,2,2]0,3,2,1,4,5,6,7 last_tile_dims={replicated, manual}}")
    )
    assert HloSharding.partially_replicated(tiles).to_text() == str(
        xla_oracle.parse("{devices=[2,2,2]0,3,2,1,4,5,6,7 last_tile_dim_replicate}")
    )
    with pytest.raises(ValueError, match="3 subgroup types for a tile shape of rank 2"):
        HloSharding.subgroup(TileAssignment.from_devices((2, 2), range(4)), [SubgroupType.MANUAL] * 3)


EQUALITY = [
    ("{devices=[2,2]0,1,2,3}", "{devices=[2,2]<=[4]}"),
    ("{devices=[2,2]0,2,1,3}", "{devices=[2,2]<=[2,2]T(1,0)}"),
    ("{devices=[2,2]0,1,2,3}", "{devices=[4]<=[4]}"),
    ('{devices=[2,2]0,1,2,3 metadata={op_name="a"}}', "{devices=[2,2]<=[4]}"),
    ("{devices=[2,2]0,1,2,3 shard_as 1}", "{devices=[2,2]<=[4]}"),
    ("{devices=[2,2]0,1,2,3 shard_as 1}", "{devices=[2,2]<=[4] shard_like 1}"),
    ("{devices=[2,2]0,1,2,3 shard_as 1}", "{devices=[2,2]<=[4] shard_as 1}"),
    ("{devices=[2,2]0,1,2,3 last_tile_dims={manual}}", "{devices=[2,2]<=[4] last_tile_dims={unreduced}}"),
    ("{devices=[2,2]1,0,3,2 last_tile_dim_replicate}", "{devices=[2,2]<=[4] last_tile_dim_replicate}"),
    ("{devices=[1,4]<=[4] last_tile_dims={replicated}}", "{replicated}"),
    ("{replicated}", "{manual}"),
    ("{maximal device=1}", "{maximal device=2}"),
    ('{{replicated metadata={op_name="a"}}, {manual}}', "{{replicated}, {manual}}"),
    ("{{replicated}, {manual}}", "{{manual}, {replicated}}"),
]


@pytest.mark.parametrize("left, right", EQUALITY)
def test_equality_is_xla_equality(left, right):
    a, b = HloSharding.from_text(left), HloSharding.from_text(right)
    xla_equal = xla_oracle.parse(left) == xla_oracle.parse(right)
    xla_oracle.check(a == b, xla_equal, f"{left} == {right}")
    if xla_equal:
        assert hash(a) == hash(b)


# (text, message pysdy gives, what XLA does with it). XLA "accepts" some nonsense pysdy refuses;
# "aborts" marks texts that kill XLA's process, so they are never given to it.
ERRORS = [
    ("", "column 1: expected '{' to start a sharding, got end of text", "rejects"),
    ("replicated", "column 1: expected '{' to start a sharding, got 'replicated'", "rejects"),
    ("{replicated", "column 12: expected a sharding attribute or '}', got end of text", "rejects"),
    ("{replicated}}", "column 13: unexpected '}' after the sharding", "rejects"),
    ("{replicatd}", "column 2: unknown sharding attribute 'replicatd'", "rejects"),
    ("{maximal}", "column 2: 'maximal' needs 'device=N'", "rejects"),
    ("{devices=[2,2]<=[2,2]}", "column 22: expected 'T(' after 2 iota reshape dims", "rejects"),
    ("{devices=[2,2]<=[4]T(0)}", "column 20: a single iota reshape dim takes no 'T(...)'", "rejects"),
    ("{devices=[2,2]<=[2,2]T(0,1,2)}", "column 22: T(0,1,2) is not a permutation of the 2 reshape dims", "rejects"),
    ("{devices=[]0}", "column 10: the tile shape needs at least one dim", "rejects"),
    ("{devices=[1,1]0}", "column 15: an explicit device list needs more than one device", "rejects"),
    ("{devices=[2,2]0,1,2,3,}", "column 23: expected an integer device id, got '}'", "rejects"),
    ("{devices=[2,2]0,1,2,3 $}", "column 23: unexpected character '$'", "rejects"),
    ("{devices=[2,2]<=[4] last_tile_dims={manual, bogus}}", "column 45: unknown subgroup type 'bogus'", "rejects"),
    ("{devices=[2]<=[2] last_tile_dims={manual, replicated}}", "2 subgroup types but the tile shape has only 1 dims", "aborts"),
    ("{replicated metadata={op_name=x}}", "column 31: expected a quoted string for 'op_name', got 'x'", "rejects"),
    ('{replicated metadata={foo="a"}}', "column 23: unknown metadata attribute 'foo'", "rejects"),
    ('{replicated metadata={op_name="a" op_name="b"}}', "column 35: metadata attribute 'op_name' appears twice", "rejects"),
    ("{replicated metadata={source_line=2147483648}}", "'source_line' must fit in 32 bits", "rejects"),
    ("{replicated metadata={profile_type={4}}}", "column 36: profile types are 0..3, got {4}", "rejects"),
    (r'{replicated metadata={op_name="a\q"}}', r"in 'op_name': unknown escape sequence \q", "rejects"),
    ('{replicated metadata={op_name="abc}}', "column 31: unterminated string", "rejects"),
    ("{{replicated}, {{manual}}}", "column 17: tuple shardings cannot be nested", "rejects"),
    ("{{replicated} {manual}}", "column 15: expected '}' or ',' after a tuple element, got '{'", "rejects"),
    ("{replicated shard_as}", "column 21: expected an integer shard group id, got '}'", "rejects"),
    ("{replicated manual}", "column 13: 'manual' conflicts with 'replicated'", "accepts"),
    ("{maximal device=-1}", "column 17: device id must be at least 0, got -1", "accepts"),
    ("{maximal device=1 device=2}", "column 19: 'device' appears twice", "accepts"),
    ("{replicated device=2}", "column 2: 'device=' belongs to 'maximal', not 'replicated'", "rejects"),
    # XLA's parser accepts or rejects this one by jax line: see SHORT_DEVICE_LIST below.
    ("{devices=[2,2]0,1,2}", "column 15: tile shape [2,2] needs 4 devices, got 3", "by line"),
    ("{devices=[2,2]0,1,1,3}", "column 15: device 1 appears more than once", "accepts"),
    ("{devices=[2,2]0,-1,2,3}", "column 17: device id must be at least 0, got -1", "accepts"),
    # XLA wraps these around to negative device ids (found by the CLI fuzzer: pysdy crashed importing them).
    ("{maximal device=9223372036854775808}", "column 17: device id 9223372036854775808 does not fit in a 64-bit integer", "accepts"),
    ("{devices=[2]0,9223372036854775808}", "column 15: device id 9223372036854775808 does not fit in a 64-bit integer", "accepts"),
    ("{devices=[2,2]<=[2,2]T(1,1)}", "column 22: T(1,1) is not a permutation", "accepts"),
    ("{devices=[2,0]<=[0]}", "column 13: tile dim must be at least 1, got 0", "accepts"),
    ("{devices=[2,2]<=[4] last_tile_dims={manual, maximal}}", "column 45: unknown subgroup type 'maximal'", "accepts"),
    ("{replicated last_tile_dim_replicate}", "column 13: 'last_tile_dim_replicate' needs 'devices='", "accepts"),
    ("{replicated shard_as 1 shard_like 2}", "column 24: 'shard_like' conflicts with 'shard_as'", "accepts"),
    ("{devices=[2,2]<=[4] shard_as -1}", "column 30: shard group id must be at least 0, got -1", "accepts"),
    ("{devices=[2,2]<=[3]}", "column 17: the iota has 3 devices but tile shape [2,2] needs 4", "aborts"),
    (
        "{devices=[2,2]<=[4] last_tile_dim_replicate last_tile_dims={manual}}",
        "column 45: 'last_tile_dims' conflicts with 'last_tile_dim_replicate'",
        "aborts",
    ),
]


@pytest.mark.parametrize("text, message, xla", ERRORS)
def test_malformed_text_is_a_clear_error(text, message, xla):
    with pytest.raises(ValueError) as error:
        HloSharding.from_text(text)
    first_line, quoted, caret = str(error.value).splitlines()
    assert first_line.startswith("invalid HloSharding at column ")
    assert message in first_line
    column = int(first_line.split("column ")[1].split(":")[0])
    assert quoted == f"  {text}" and caret == "  " + " " * (column - 1) + "^"
    if xla == "rejects":
        with pytest.raises(Exception, match="error"):
            xla_oracle.parse(text)
    elif xla == "accepts":
        xla_oracle.parse(text)


SHORT_DEVICE_LIST = "{devices=[2,2]0,1,2}"


@when("xla_parser_checks_device_count")
def test_xla_rejects_a_device_list_shorter_than_the_tiles():
    with pytest.raises(Exception, match="error"):
        xla_oracle.parse(SHORT_DEVICE_LIST)


@when("xla_parser_checks_device_count", False)
def test_xla_accepts_a_device_list_shorter_than_the_tiles():
    xla_oracle.parse(SHORT_DEVICE_LIST)


UNREDUCED_SHARDINGS = ["{devices=[2,2]<=[4] last_tile_dims={unreduced}}", "{unreduced}", "{replicated}"]


@when("xla_translation_records_unreduced_reduction")
def test_xla_translation_records_the_reduction_of_unreduced_shardings():
    record = 'metadata={op_type="sdy::reduction_op" op_name="SUM"}'
    assert xla_oracle.printed_with_metadata(UNREDUCED_SHARDINGS) == [
        f"{{devices=[2,2]<=[4] last_tile_dims={{unreduced}} {record}}}",
        f"{{unreduced {record}}}",
        "{replicated}",
    ]


@when("xla_translation_records_unreduced_reduction", False)
def test_xla_translation_keeps_unreduced_shardings_as_they_are():
    assert xla_oracle.printed_with_metadata(UNREDUCED_SHARDINGS) == UNREDUCED_SHARDINGS
