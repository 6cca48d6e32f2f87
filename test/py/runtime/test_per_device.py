"""The per-device harness: which piece of a global tensor each device holds, and per-device modules run on 8 CPU
devices against their global module on one, made by jaxlib's C++ partitioner and, to show the harness can fail,
tampered with."""

from __future__ import annotations

import jax_corpus  # noqa: F401 (gives JAX its 8 CPU devices before the backend starts)
import numpy as np
import pytest
from child_process import in_child_process
from jaxlib.mlir import ir
from oracle import cpp_output

from pysdy import versions
from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import Mesh, TensorSharding
from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.module_info import TensorSpec
from pysdy.runtime.per_device import Placement, PerDeviceRun, check_per_device


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


MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>'


def _module(signature: str, body: str, mesh: str = MESH) -> str:
    return f"{mesh}\nfunc.func @main({signature} {{\n{body}\n}}"


def _sharded(shape: str, *dims: tuple[str, ...]) -> str:
    """`tensor<SHAPE x f32>` with a sharding of each dimension on the axes listed for it."""
    text = ", ".join("{" + ", ".join(f'"{axis}"' for axis in axes) + "}" for axes in dims)
    return f"tensor<{shape}xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{text}]>}}"


def _negate(shape: str, given: tuple, returned: tuple) -> str:
    """A program whose one op takes its argument sharded as `given` to its result sharded as `returned`."""
    return _module(
        f"%a: {_sharded(shape, *given)}) -> ({_sharded(shape, *returned)})",
        f"  %0 = stablehlo.negate %a : tensor<{shape}xf32>\n  return %0 : tensor<{shape}xf32>",
    )


CONTRACTING = _module(
    f"%a: {_sharded('8x16', ('x',), ('y',))}, %b: {_sharded('16x32', ('y',), ())}) -> "
    f"({_sharded('8x32', ('x',), ())})",
    "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> "
    "tensor<8x32xf32>\n  %1 = stablehlo.add %0, %0 : tensor<8x32xf32>\n  return %1 : tensor<8x32xf32>",
)
# Every kind of collective the C++ partitioner makes, one program each.
PROGRAMS = {
    "all_reduce": CONTRACTING,
    "all_gather": _negate("8x16", (("x",), ("y",)), ((), ())),
    "all_to_all": _negate("8x16", (("y",), ()), ((), ("y",))),
    "collective_permute": _negate("16", (("x", "y"),), (("y", "x"),)),
    "all_slice": _negate("8x16", ((), ()), (("x",), ("y",))),
    "device_ids": CONTRACTING.replace(MESH, 'sdy.mesh @mesh = <["x"=2, "y"=4], device_ids=[3, 7, 2, 6, 1, 5, 0, 4]>'),
}


def _partitioner_pipeline() -> str:
    """jaxlib's C++ propagation, explicit collectives and conversion to local shapes, replica groups as device ids."""
    line = versions.installed()
    options = []
    if line.convert_global_to_local_device_counts:
        options.append("partition-count=8")
    if line.convert_global_to_local_rgv3_by_default:
        options.append("enable-rgv3=false")
    convert = "sdy-convert-global-to-local" + ("{" + " ".join(options) + "}" if options else "")
    return f"sdy-propagation-pipeline,sdy-export-pipeline{{enable-insert-explicit-collectives=true}},{convert}"


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
    local = cpp_output(text, _partitioner_pipeline())
    assert "sdy.all" not in local and "sdy.reshard" not in local  # really per-device code
    run = _checked(text, local, _inputs(text))
    assert run.problems == []
    for actual, expected in zip(run.outputs, run.reference):
        np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-5)


def test_a_wrong_reduction_is_found():
    local = cpp_output(CONTRACTING, _partitioner_pipeline())
    tampered = local.replace("stablehlo.add %arg2, %arg3", "stablehlo.maximum %arg2, %arg3")
    assert tampered != local
    run = _checked(CONTRACTING, tampered, _inputs(CONTRACTING))
    assert len(run.problems) == 1 and "differs from the unpartitioned run" in run.problems[0]


def test_copies_of_a_piece_that_disagree_are_found():
    # Summing over pairs of devices rather than over the four of "y": devices sharing a piece hold different sums.
    local = cpp_output(CONTRACTING, _partitioner_pipeline())
    groups = "dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>"
    assert groups in local
    tampered = local.replace(groups, "dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>")
    run = _checked(CONTRACTING, tampered, _inputs(CONTRACTING))
    assert any("copy of a piece differs" in problem for problem in run.problems), run.problems


def test_a_module_with_sdy_collectives_left_is_refused():
    partly = cpp_output(CONTRACTING, "sdy-propagation-pipeline,sdy-export-pipeline{enable-insert-explicit-collectives=true}")
    with pytest.raises(RuntimeInputError, match="still has 'sdy.all_reduce'"):
        _checked(CONTRACTING, partly, _inputs(CONTRACTING))
