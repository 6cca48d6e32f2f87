"""`sdy-drop-sharding-and-mesh`, C++ and pysdy: the same printed module on a hand-written module and on every JAX
corpus program; the same first error where jaxlib 0.10.2 erases a mesh that is still named."""

from __future__ import annotations

import os

import pytest

from import_.import_oracle import run_cpp, run_py
from jax_corpus import corpus, program_names
from line_side import when

PASS = "sdy-drop-sharding-and-mesh"
INPUT = os.path.join(os.path.dirname(__file__), "drop_sharding_and_mesh_input.mlir")

STILL_NAMED = """
sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


def test_hand_written_module_matches_cpp():
    with open(INPUT) as file:
        text = file.read()
    expected = run_cpp(text, PASS)
    assert "sdy.mesh" not in expected and "sdy.sharding =" not in expected
    assert run_py(text, PASS) == expected


@when("drop_sharding_keeps_referenced_meshes", False)
def test_mesh_still_named_is_erased_as_in_jaxlib_0_10():
    expected = run_cpp(STILL_NAMED, PASS)
    assert expected.startswith("error")
    assert run_py(STILL_NAMED, PASS) == expected


@when("drop_sharding_keeps_referenced_meshes")
def test_mesh_still_named_is_kept_as_from_jaxlib_0_11():
    text = STILL_NAMED.replace("func.func", 'sdy.mesh @unnamed = <["b"=2]>\nfunc.func', 1)
    expected = run_cpp(text, PASS)
    assert "sdy.mesh @mesh" in expected and "@unnamed" not in expected
    assert run_py(text, PASS) == expected


@when("drop_sharding_keep_metadata_option")
def test_keep_module_sharding_metadata_is_refused_loudly():
    assert run_py(STILL_NAMED, PASS + "{keep-module-sharding-metadata=true}").startswith("error")


@pytest.mark.parametrize("program", program_names())
def test_jax_program_matches_cpp(program):
    text = corpus()[program]
    assert run_py(text, PASS) == run_cpp(text, PASS)
