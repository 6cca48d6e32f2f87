"""The per-device harness: which piece of a global tensor each device holds, and per-device modules run on 8 CPU
devices against their global module on one: made by jaxlib's C++ partitioner, and made by pysdy's and tampered with
to show the harness can fail."""

from __future__ import annotations

import jax_corpus  # noqa: F401 (gives JAX its 8 CPU devices before the backend starts)
import numpy as np
import pytest
from child_process import ChildProcessCrash, in_child_process
from jaxlib.mlir import ir
from oracle import cpp_output
from partitioned_programs import CONTRACTING, PROGRAMS, partitioner_pipeline

from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import Mesh, TensorSharding
from pysdy.passes.pipeline import parse_pipeline, run_pipeline
from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.module_info import TensorSpec
from pysdy.runtime.per_device import Placement
from pysdy.runtime.per_device_check import PerDeviceRun, check_per_device


def _placement(mesh_text: str, sharding_text: str, shape: tuple[int, ...]) -> Placement:
    with make_context():
        mesh = Mesh.from_attr(ir.Attribute.parse(mesh_text))
        sharding = TensorSharding.from_attr(ir.Attribute.parse(sharding_text))
    return Placement(sharding, mesh, TensorSpec(shape, np.dtype(np.float32)))


def _ranges(piece: tuple[slice, ...]) -> list[tuple[int, int]]:
    return [(s.start, s.stop) for s in piece]


def test_pieces_follow_the_mesh_device_ids():
    # Device ids reversed: partition p sits at mesh position 7 - p, so at x = (7 - p) // 4, y = (7 - p) % 4.
    placement = _placement(
        '#sdy.mesh<["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>', '#sdy.sharding<@m, [{"y"}, {"x"}]>', (8, 4)
    )
    assert _ranges(placement.piece(0)) == [(6, 8), (2, 4)]
    assert _ranges(placement.piece(5)) == [(4, 6), (0, 2)]
    assert _ranges(placement.piece(7)) == [(0, 2), (0, 2)]


def test_pieces_of_a_sub_axis_and_of_two_axes():
    # "x":(2)4 is the minor 4 of x = 8 after its major 2: partition p is at x % 4 along it.
    sub_axis = _placement('#sdy.mesh<["x"=8]>', '#sdy.sharding<@m, [{"x":(2)4}]>', (8,))
    assert [_ranges(sub_axis.piece(p)) for p in (0, 1, 2, 5, 7)] == [[(0, 2)], [(2, 4)], [(4, 6)], [(2, 4)], [(6, 8)]]
    two_axes = _placement('#sdy.mesh<["x"=2, "y"=4]>', '#sdy.sharding<@m, [{"y", "x"}, {}]>', (16, 3))
    # Major axis first: the piece index is y * 2 + x.
    assert _ranges(two_axes.piece(6)) == [(10, 12), (0, 3)]  # x = 1, y = 2
    assert _ranges(two_axes.piece(1)) == [(4, 6), (0, 3)]  # x = 0, y = 1


def test_an_unevenly_split_dimension_is_refused():
    placement = _placement('#sdy.mesh<["x"=4]>', '#sdy.sharding<@m, [{"x"}]>', (6,))
    with pytest.raises(RuntimeInputError, match="split 4 ways"):
        placement.piece(0)


def _inputs(text: str) -> list[np.ndarray]:
    with make_context():
        module = ir.Module.parse(text)
        main = next(op for op in module.body.operations if op.operation.name == "func.func")
        types = ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value).inputs
        shapes = [tuple(ir.RankedTensorType(t).shape) for t in types]
    rng = np.random.default_rng(7)
    return [rng.standard_normal(shape).astype(np.float32) for shape in shapes]


@in_child_process
def _checked(global_text: str, local_text: str, inputs: list[np.ndarray]) -> PerDeviceRun:
    return check_per_device(global_text, local_text, inputs, 8)


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_the_cpp_partitioner_output_runs_as_the_global_module(name):
    text = PROGRAMS[name]
    try:
        local = cpp_output(text, partitioner_pipeline())
    except ChildProcessCrash as crash:
        pytest.skip(f"jaxlib's C++ partitioner aborts on it on this line: {str(crash).splitlines()[-1]}")
    assert "sdy.all" not in local and "sdy.reshard" not in local  # really per-device code
    run = _checked(text, local, _inputs(text))
    assert run.problems == []
    for actual, expected in zip(run.outputs, run.reference):
        np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-5)


def _pysdy_local(text: str) -> str:
    """The per-device module pysdy's own passes make of `text`."""
    with make_context():
        module = ir.Module.parse(text)
        run_pipeline(module, parse_pipeline(partitioner_pipeline()))
        return str(module)


def test_a_wrong_reduction_is_found():
    local = _pysdy_local(CONTRACTING)
    tampered = local.replace("stablehlo.add %arg2, %arg3", "stablehlo.maximum %arg2, %arg3")
    assert tampered != local
    run = _checked(CONTRACTING, tampered, _inputs(CONTRACTING))
    assert len(run.problems) == 1 and "differs from the unpartitioned run" in run.problems[0]


def test_copies_of_a_piece_that_disagree_are_found():
    # Summing over pairs of devices rather than over the four of "y": devices sharing a piece hold different sums.
    local = _pysdy_local(CONTRACTING)
    groups = "dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>"
    assert groups in local
    tampered = local.replace(groups, "dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>")
    run = _checked(CONTRACTING, tampered, _inputs(CONTRACTING))
    assert any("copy of a piece differs" in problem for problem in run.problems), run.problems


def test_a_module_with_sdy_collectives_left_is_refused():
    with make_context():
        module = ir.Module.parse(CONTRACTING)
        run_pipeline(module, parse_pipeline(partitioner_pipeline().rsplit(",", 1)[0]))
        partly = str(module)
    with pytest.raises(RuntimeInputError, match="still has 'sdy.all_reduce'"):
        _checked(CONTRACTING, partly, _inputs(CONTRACTING))
