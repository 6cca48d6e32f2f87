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
from pysdy.dialects.context import make_context

CASES_FILE = os.path.join(os.path.dirname(__file__), "replica_groups", "replica_group_meshes.mlir")
PIPELINES = ["sdy-lift-inlined-meshes", "sdy-import-pipeline", "sdy-propagation-pipeline"]


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
