"""JAX programs with host callbacks (io_callback, pure_callback, debug.print: JAX puts each on a maximal mesh)
through `pysdy.jax.jit` on 8 CPU devices, on both routes: the results equal plain JAX's, and XLA gets the callbacks
on their one device beside the sharded inputs."""

from __future__ import annotations

import jax
import jax_corpus  # noqa: F401  (8 CPU devices, before the backend starts)
import numpy as np
import pytest
from corpus_programs import corpus_programs
from numerics import concrete_args, plain_jax_outputs

import pysdy.jax
from pysdy.runtime.comparison import mismatch

PROGRAMS = ["io_callback_on_sharded_input", "ordered_io_callback_and_debug_print", "io_callback_in_loop"]


def _host(values) -> list[np.ndarray]:
    return [np.asarray(value) for value in jax.tree.leaves(values)]


def _assert_callbacks_on_device_0(exported: str, route: str, program) -> None:
    if route == "sdy":
        assert "sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>" in exported
        assert "sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>" in exported
        return
    assert 'mhlo.sharding = "{maximal device=0}"' in exported and "sdy." not in exported
    first_input = program.in_shardings[0]._to_xla_hlo_sharding(len(program.abstract_args[0].shape))
    assert f'mhlo.sharding = "{first_input}"' in exported


@pytest.mark.parametrize("route", ["sdy", "gspmd"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_host_callback_program_matches_plain_jax(name, route):
    program = corpus_programs()[name]
    args = concrete_args(program)
    compiles_before = pysdy.jax.hook_summary().compiles
    with pysdy.jax.pipeline_hook(route=route):
        partitioned = _host(pysdy.jax.jit(program.fn, **program.jit_kwargs())(*args))
    assert pysdy.jax.hook_summary().compiles > compiles_before, "the call did not compile through pysdy"
    assert pysdy.jax.compilations()[-1].route == route
    _assert_callbacks_on_device_0(pysdy.jax.compilations()[-1].exported_module, route, program)
    same_shardings = plain_jax_outputs(name, on_mesh=True)
    one_device = plain_jax_outputs(name, on_mesh=False)
    assert len(partitioned) == len(same_shardings) == len(one_device)
    for index, (actual, on_mesh, alone) in enumerate(zip(partitioned, same_shardings, one_device)):
        assert mismatch(actual, on_mesh) is None, f"output {index} against jax.jit: {mismatch(actual, on_mesh)}"
        assert mismatch(actual, alone) is None, f"output {index} against one device: {mismatch(actual, alone)}"
