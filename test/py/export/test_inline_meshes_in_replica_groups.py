"""`sdy-inline-meshes` and the export pipeline on collectives whose `replica_groups` name meshes, C++ and pysdy:
the same module (jax 0.11 and 0.12 inline the meshes there as `#stablehlo.mesh`) or the same first error (jax
0.10's pass erases the meshes they still name; its export pipeline does not inline meshes)."""

from __future__ import annotations

import os

import pytest

from import_.import_oracle import run_cpp, run_py
from pysdy.versions import installed

with open(os.path.join(os.path.dirname(__file__), "replica_group_meshes_input.mlir")) as _file:
    TEXT = _file.read()


@pytest.mark.parametrize("pipeline", ["sdy-inline-meshes", "sdy-export-pipeline"])
def test_matches_cpp(pipeline):
    expected = run_cpp(TEXT, pipeline)
    if installed().inline_meshes_in_replica_groups:
        assert expected.count("#stablehlo.mesh<axes=") == 2 and "device_ids=dense<[7, 6" in expected
    elif pipeline == "sdy-inline-meshes":
        assert expected.startswith("error")
    assert run_py(TEXT, pipeline) == expected
