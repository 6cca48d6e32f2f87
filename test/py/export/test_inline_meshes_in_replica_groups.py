"""`sdy-inline-meshes` and the export pipeline on collectives whose `replica_groups` name meshes, C++ and pysdy:
the same module (jax 0.11 and 0.12 inline the meshes there as `#stablehlo.mesh`) or the same first error (jax
0.10's pass erases the meshes they still name; its export pipeline does not inline meshes)."""

from __future__ import annotations

import os

import pytest

from import_.import_oracle import run_cpp, run_py
from line_side import when

with open(os.path.join(os.path.dirname(__file__), "replica_group_meshes_input.mlir")) as _file:
    TEXT = _file.read()


@when("inline_meshes_in_replica_groups")
@pytest.mark.parametrize("pipeline", ["sdy-inline-meshes", "sdy-export-pipeline"])
def test_meshes_named_by_replica_groups_are_inlined(pipeline):
    expected = run_cpp(TEXT, pipeline)
    assert expected.count("#stablehlo.mesh<axes=") == 2 and "device_ids=dense<[7, 6" in expected
    assert run_py(TEXT, pipeline) == expected


@when("inline_meshes_in_replica_groups", False)
def test_inline_meshes_fails_on_meshes_replica_groups_still_name():
    expected = run_cpp(TEXT, "sdy-inline-meshes")
    assert expected.startswith("error")
    assert run_py(TEXT, "sdy-inline-meshes") == expected


@when("inline_meshes_in_replica_groups", False)
def test_export_pipeline_leaves_meshes_named():
    expected = run_cpp(TEXT, "sdy-export-pipeline")
    assert "#stablehlo.mesh<axes=" not in expected
    assert run_py(TEXT, "sdy-export-pipeline") == expected
