"""Reading collectives from partitioned HLO text: kinds, replica groups in both spellings, bytes per device and per run."""

import pytest

from pysdy.runtime.collectives import find_collectives, iota_groups, mesh_groups, sent_bytes_per_run, shape_bytes

HLO = """
HloModule m, entry_computation_layout={(f32[8,16]{1,0})->f32[8,16]{1,0}}

ENTRY %main (p: f32[8,16]) -> f32[8,16] {
  %p = f32[8,16]{1,0} parameter(0)
  %q = f32[4]{0} parameter(1)
  %r = bf16[4]{0} parameter(2)
  %all-reduce = f32[8,16]{1,0} all-reduce(%p), channel_id=1, replica_groups=[2,4]<=[8], use_global_device_ids=true, to_apply=%add
  %all-gather = f32[32,16]{1,0} all-gather(%all-reduce), channel_id=2, replica_groups=[4,2]<=[2,4]T(1,0), dimensions={0}, use_global_device_ids=true
  %reduce-scatter = f32[8,16]{1,0} reduce-scatter(%all-gather), channel_id=3, replica_groups={{0,1,2,3},{4,5,6,7}}, dimensions={0}, to_apply=%add
  %collective-permute-start = (f32[8,16]{1,0}, f32[8,16]{1,0}) collective-permute-start(%reduce-scatter), channel_id=4, source_target_pairs={{0,1},{1,0}}
  %collective-permute-done = f32[8,16]{1,0} collective-permute-done(%collective-permute-start)
  %tuple-all-reduce = (f32[4]{0}, bf16[4]{0}) all-reduce(%q, %r), replica_groups={}, to_apply=%add
  ROOT %all-to-all = f32[8,16]{1,0} all-to-all(%collective-permute-done), replica_groups={{0,1}}, dimensions={1}
}
"""


def test_kinds_in_text_order_without_async_done_halves():
    kinds = [c.kind for c in find_collectives(HLO, 8)]
    assert kinds == ["all-reduce", "all-gather", "reduce-scatter", "collective-permute", "all-reduce", "all-to-all"]


def test_iota_replica_groups_reshape_then_transpose():
    assert iota_groups("2,4", "8", None) == ((0, 1, 2, 3), (4, 5, 6, 7))
    assert iota_groups("4,2", "2,4", "1,0") == ((0, 4), (1, 5), (2, 6), (3, 7))


def test_mesh_replica_groups_vary_the_listed_axes():
    assert mesh_groups("'stage'=2,'local'=4", "'local'") == ((0, 1, 2, 3), (4, 5, 6, 7))
    assert mesh_groups("'axis_0'=4,'axis_1'=1,'axis_2'=2", "'axis_0'") == ((0, 2, 4, 6), (1, 3, 5, 7))
    assert mesh_groups("'a'=2,'b'=2,'c'=2", "'c','a'") == ((0, 4, 1, 5), (2, 6, 3, 7))
    assert mesh_groups("'x'=8", "'x'") == (tuple(range(8)),)
    # With device ids: iota over [4,2] transposed, so the mesh's devices run 0, 2, 4, 6, 1, 3, 5, 7.
    assert mesh_groups("'a'=1,'b'=1,'c'=2,'d'=4", "'c'", "4,2", "1,0") == ((0, 1), (2, 3), (4, 5), (6, 7))
    assert mesh_groups("'a'=1,'b'=1,'c'=2,'d'=4", "'d'", "4,2", "1,0") == ((0, 2, 4, 6), (1, 3, 5, 7))
    with pytest.raises(ValueError, match="unknown replica groups"):
        mesh_groups("'x'=8", "'y'")


def test_a_mesh_spelling_counts_bytes_in_its_groups():
    line = "  %ag = f32[16,4]{1,0} all-gather(%p), channel_id=5, replica_groups=mesh['a'=4,'b'=2] {'a'}, dimensions={0}"
    text = HLO.replace("  ROOT %all-to-all", line + "\n  ROOT %all-to-all")
    (gather,) = [c for c in find_collectives(text, 8) if c.name == "ag"]
    assert gather.groups == ((0, 2, 4, 6), (1, 3, 5, 7))
    assert gather.sent_bytes == 16 * 4 * 4 * 3 // 4
    with_ids = text.replace("mesh['a'=4,'b'=2] {'a'}", "mesh['a'=4,'b'=2], device_ids=([2,4]T(1,0)) {'a'}")
    (gather,) = [c for c in find_collectives(with_ids, 8) if c.name == "ag"]
    assert gather.groups == ((0, 1, 2, 3), (4, 5, 6, 7))


def test_groups_of_each_spelling():
    found = find_collectives(HLO, 8)
    assert found[0].groups == ((0, 1, 2, 3), (4, 5, 6, 7))
    assert found[1].groups == ((0, 4), (1, 5), (2, 6), (3, 7))
    assert found[2].groups == ((0, 1, 2, 3), (4, 5, 6, 7))
    assert found[3].groups == ((0, 1), (1, 0))
    assert found[3].groups_text() == "{{0->1},{1->0}}"
    assert found[4].groups == (tuple(range(8)),)


def test_bytes_per_device_follow_the_ring_formulas():
    found = find_collectives(HLO, 8)
    tile = 8 * 16 * 4
    assert [c.operand_bytes for c in found] == [tile, tile, 4 * tile, tile, 16 + 8, tile]
    assert found[0].sent_bytes == 2 * 3 * tile // 4  # all-reduce over 4: 2 (g-1)/g
    assert found[1].sent_bytes == 4 * tile // 2  # all-gather over 2: (g-1)/g of the gathered result
    assert found[2].sent_bytes == 3 * 4 * tile // 4  # reduce-scatter over 4: (g-1)/g of the operand
    assert found[3].sent_bytes == tile  # a permute sends its operand
    assert found[4].sent_bytes == round(2 * 7 / 8 * (16 + 8))  # tuple shape f32[4] + bf16[4], 8 devices


def test_shape_bytes_adds_tuple_elements_and_skips_tokens():
    assert shape_bytes("(f32[2,3]{1,0}, pred[4]{0}, token[])") == 2 * 3 * 4 + 4
    assert shape_bytes("c64[2]{0}") == 16


LOOP_HLO = """
HloModule m

%body (p: (s32[], f32[8])) -> (s32[], f32[8]) {
  %p = (s32[], f32[8]{0}) parameter(0)
  %x = f32[8]{0} get-tuple-element(%p), index=1
  %i = s32[] get-tuple-element(%p), index=0
  %all-reduce = f32[8]{0} all-reduce(%x), replica_groups=[4,2]<=[8], to_apply=%add
  ROOT %t = (s32[], f32[8]{0}) tuple(%i, %all-reduce)
}

%cond (q: (s32[], f32[8])) -> pred[] {
  %q = (s32[], f32[8]{0}) parameter(0)
  ROOT %c = pred[] constant(true)
}

%left (l: f32[8]) -> f32[8] {
  %l = f32[8]{0} parameter(0)
  ROOT %all-gather = f32[16]{0} all-gather(%l), replica_groups=[4,2]<=[8], dimensions={0}
}

%right (r: f32[8]) -> f32[8] {
  ROOT %r = f32[8]{0} parameter(0)
}

ENTRY %main (a: f32[8], b: s32[]) -> f32[8] {
  %a = f32[8]{0} parameter(0)
  %b = s32[] parameter(1)
  %init = (s32[], f32[8]{0}) tuple(%b, %a)
  %while = (s32[], f32[8]{0}) while(%init), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"5"}}
  %y = f32[8]{0} get-tuple-element(%while), index=1
  ROOT %conditional = f32[8]{0} conditional(%b, %y, %y), branch_computations={%left, %right}
}
"""


def test_bytes_per_run_count_a_loop_body_once_per_trip_and_every_branch():
    all_reduce, all_gather = find_collectives(LOOP_HLO, 8)
    assert (all_reduce.sent_bytes, all_gather.sent_bytes) == (32, 32)  # 2 (g-1)/g of 32 B; (g-1)/g of 64 B
    assert sent_bytes_per_run(LOOP_HLO, 8) == 5 * 32 + 32


def test_bytes_per_run_of_a_loop_of_unknown_trip_count_count_it_once():
    text = LOOP_HLO.replace(', backend_config={"known_trip_count":{"n":"5"}}', "")
    assert sent_bytes_per_run(text, 8) == 32 + 32
