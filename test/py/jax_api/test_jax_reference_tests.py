"""A quick sample of JAX's own tests run with `pysdy.jax.install()` for the session (pysdy_hook_plugin.py) on 8 CPU
devices, from the reference copy of JAX's test files for the installed JAX: the two that once gave silent wrong
values, one each of sharded linear algebra, custom partitioning and shard_alike, and one that once crashed JAX
after a hand-off (the whole files run in the slow suite, test_jax_test_files_through_hook.py)."""

from __future__ import annotations

import os

import jax
import pytest
from jax_test_files import reference_folder, run_test_file

# How long the child may take: a test file's import and one test, on a busy machine.
_TIMEOUT_SECONDS = 240

TESTS = [
    # Its manual computation gets the C++'s out_shardings (test/lit/propagation/manual_computation_free_axes.mlir).
    "shard_map_test.py::CustomPartitionerTest::test_partially_sharded_dim_with_auto",
    # A replicated value made unreduced: a device's copy each, or pysdy's refusal (runtime/unreduced_sources.py).
    "pjit_test.py::ShardingInTypesTest::test_cet_unreduced",
    # Its compiled program once had an all-reduce JAX's own route does not (the export's broadcast_in_dim).
    "linalg_sharding_test.py::LinalgShardingTest::test_batch_axis_sharding_jvp10",
    # A custom partitioning inside a scan: the gspmd route once took the process down.
    "custom_partitioning_test.py::CustomPartitionerTest::test_custom_partitioner_with_scan",
    # Two sharding groups meeting through a matmul.
    "shard_alike_test.py::ShardAlikeTest::test_double_shard_alike",
    # JAX 0.10.2 segfaulted in its next context's set_thread_pool while the hook kept a context between hand-offs.
    "shard_map_test.py::ShardMapTest::test_pure_callback_return_multiple_arrays",
]
# What the hook may answer instead of the JAX test's value: pysdy's refusal, never a wrong value.
REFUSALS = {"pjit_test.py::ShardingInTypesTest::test_cet_unreduced": "PysdyExportError: pysdy cannot hand"}


@pytest.mark.parametrize("test_id", TESTS)
def test_jax_reference_test_through_the_hook(test_id, tmp_path):
    pytest.importorskip("absl", reason="JAX's test files need absl-py")
    file_name = test_id.split("::")[0]
    if not os.path.exists(os.path.join(reference_folder(), file_name)):
        pytest.skip(f"no reference copy of JAX's tests at {reference_folder()}")
    run = run_test_file(file_name, str(tmp_path), hooked=True, test_ids=(test_id,), timeout_seconds=_TIMEOUT_SECONDS)
    if run.import_error is not None:
        pytest.skip(f"{file_name} does not import on jax {jax.__version__}: {run.import_error}")
    assert not run.deaths, run.deaths
    assert test_id in run.outcomes, f"{test_id} did not run (the child's log is in {tmp_path})"
    outcome = run.outcomes[test_id]
    if test_id in REFUSALS and REFUSALS[test_id] in outcome.message:
        return
    assert outcome.outcome == "passed", outcome.message
