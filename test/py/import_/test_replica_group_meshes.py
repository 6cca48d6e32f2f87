"""Meshes named or inlined in collectives' `#stablehlo.replica_group_mesh_axes` (JAX 0.11+), through the import
passes and the propagation pipeline, C++ and pysdy; and JAX's own shard_map + psum lowering of the installed JAX.

jaxlib 0.10.2's C++ already parses and lifts these attributes (JAX 0.10 does not emit them), so every case runs on
0.10.2 too; they skip only on a jaxlib that cannot parse them.
"""

from __future__ import annotations

import functools
import os

import pytest
from jaxlib.mlir import ir

from import_oracle import run_cpp, run_py
from pysdy import versions
from pysdy.dialects.context import make_context

CASES_FILE = os.path.join(os.path.dirname(__file__), "replica_groups", "replica_group_meshes.mlir")
PIPELINES = ["sdy-lift-inlined-meshes", "sdy-import-pipeline", "sdy-propagation-pipeline"]

NAMED_MESHES = """sdy.mesh @single = <[], device_ids=[3]>
sdy.mesh @reversed = <["x"=2, "y"=2], device_ids=[3, 2, 1, 0]> {stablehlo.mesh = {axes = [{name = "a", size = 4 : i64}]}}
func.func @main(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
      replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @single, axes = []>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "stablehlo.all_gather"(%0) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>,
      replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @reversed, axes = [#stablehlo.axis_ref<name = "y">]>,
      use_global_device_ids}> : (tensor<4x8xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x8xf32>
}
"""


@functools.cache
def _installed_jaxlib_parses_replica_group_mesh_axes() -> bool:
    with make_context():
        try:
            ir.Attribute.parse("#stablehlo.replica_group_mesh_axes<mesh = @m, axes = []>")
        except ir.MLIRError:
            return False
        return True


needs_replica_group_mesh_axes = pytest.mark.skipif(
    not _installed_jaxlib_parses_replica_group_mesh_axes(),
    reason="the installed jaxlib cannot parse #stablehlo.replica_group_mesh_axes",
)


def _cases() -> dict[str, str]:
    with open(CASES_FILE) as file:
        parts = file.read().split("// -----")
    return {part.split("module @", 1)[1].split(" ", 1)[0]: part for part in parts}


@needs_replica_group_mesh_axes
@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("case", list(_cases()))
def test_pipeline_matches_cpp(case, pipeline):
    text = _cases()[case]
    expected = run_cpp(text, pipeline)
    assert not expected.startswith("error"), expected
    assert run_py(text, pipeline) == expected


@needs_replica_group_mesh_axes
@pytest.mark.parametrize("line", versions.LINES, ids=lambda line: line.name)
def test_inline_meshes_on_named_replica_group_meshes_by_line(line):
    """jaxlib 0.11 on inline the `sdy.mesh` (not its `stablehlo.mesh` attribute) into the replica groups that
    name it; 0.10's C++ erases the meshes all the same and the module fails to verify, as pysdy's does there."""
    if line is not versions.installed():
        pytest.skip(f"jaxlib {line.name}'s C++ passes are not the installed ones")
    expected = run_cpp(NAMED_MESHES, "sdy-inline-meshes")
    if line.line >= (0, 11):
        assert "#stablehlo.mesh<axes=[], device_ids=dense<3> : tensor<1xi64>>" in expected
        assert (
            '#stablehlo.mesh<axes=[<name = "x", size = 2>, <name = "y", size = 2>], '
            "device_ids=dense<[3, 2, 1, 0]> : tensor<4xi64>>" in expected
        )
    else:
        assert expected == "error: 'stablehlo.all_reduce' op replica_groups: mesh symbol 'single' not found"
    assert run_py(NAMED_MESHES, "sdy-inline-meshes") == expected


@needs_replica_group_mesh_axes
@pytest.mark.parametrize("case", list(_cases()))
def test_inline_meshes_matches_cpp(case):
    text = _cases()[case]
    assert run_py(text, "sdy-inline-meshes") == run_cpp(text, "sdy-inline-meshes")


@needs_replica_group_mesh_axes
def test_inlined_mesh_with_device_ids_is_refused():
    """jaxlib's C++ lifts it without its device order; pysdy refuses rather than change which devices reduce."""
    mesh = (
        '#stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "x", size = 8>], '
        "device_ids = dense<[7, 6, 5, 4, 3, 2, 1, 0]> : tensor<8xi64>>"
    )
    text = (
        "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        '  %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, '
        f'replica_groups = #stablehlo.replica_group_mesh_axes<mesh = {mesh}, axes = [#stablehlo.axis_ref<name = "x">]>, '
        "use_global_device_ids}> ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %s = stablehlo.add %a, %b : tensor<f32>\n"
        "    stablehlo.return %s : tensor<f32>\n"
        "  }) : (tensor<8xf32>) -> tensor<8xf32>\n"
        "  return %0 : tensor<8xf32>\n"
        "}\n"
    )
    assert run_py(text, "sdy-lift-inlined-meshes") == (
        f"error: an inlined {_printed_mesh(mesh)} with device ids cannot be lifted without losing its device order"
    )


def _printed_mesh(mesh: str) -> str:
    with make_context():
        return str(ir.Attribute.parse(mesh))


def test_shard_map_psum_from_installed_jax_matches_cpp():
    """The installed JAX's own lowering (replica groups naming a mesh on JAX 0.11+, device lists before)."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    import jax_corpus  # noqa: F401  (8 CPU devices)

    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
    body = jax.shard_map(lambda a: jax.lax.psum(a, "x"), mesh=mesh, in_specs=P("x", "y"), out_specs=P(None, "y"))
    lowered = jax.jit(body, in_shardings=NamedSharding(mesh, P("x", "y"))).lower(jax.ShapeDtypeStruct((8, 16), jnp.float32))
    text = lowered.as_text()
    for pipeline in PIPELINES:
        expected = run_cpp(text, pipeline)
        assert not expected.startswith("error"), expected
        assert run_py(text, pipeline) == expected, pipeline
