"""JAX's own test files, each run whole in child processes without and with pysdy's hook (in verify mode, on the sdy
and the pysdy route): every test that passes plainly passes hooked, no hooked child dies, and the hook's verify mode
finds no difference."""

from __future__ import annotations

import os

import jax
import pytest
from jax_test_files import FILES, RecordedOutcome, lost_passes, reference_folder, run_test_file

# One child's bound, the same for both runs: shard_map_test takes about 6 min plainly on a quiet machine.
TIMEOUT_SECONDS = 3600


@pytest.mark.slow
@pytest.mark.parametrize("route", ["sdy", "pysdy"])
@pytest.mark.parametrize("file_name", FILES)
def test_every_plain_pass_passes_through_the_hook(file_name, route, tmp_path):
    """On the default route, and on the pysdy route (pysdy partitions; what it refuses falls back with a warning)."""
    pytest.importorskip("absl", reason="JAX's test files need absl-py")
    if not os.path.exists(os.path.join(reference_folder(), file_name)):
        pytest.skip(f"no reference copy of {file_name} at {reference_folder()}")
    plain = run_test_file(file_name, str(tmp_path), hooked=False, timeout_seconds=TIMEOUT_SECONDS)
    if plain.import_error is not None:
        pytest.skip(f"{file_name} does not import on jax {jax.__version__}: {plain.import_error}")
    hooked = run_test_file(
        file_name, str(tmp_path), hooked=True, verify=True, timeout_seconds=TIMEOUT_SECONDS, route=route
    )
    missing = RecordedOutcome("not run", "")
    lost = [
        f"{test_id}: {hooked.outcomes.get(test_id, missing).outcome}: {hooked.outcomes.get(test_id, missing).message}"
        for test_id in lost_passes(plain, hooked)
    ]
    problems = [f"hooked child died in {death}" for death in hooked.deaths] + lost
    differences = (hooked.hook_summary or {}).get("differences", [])
    problems += [f"verify difference: {difference}" for difference in differences]
    assert not problems, "\n".join(problems)
    assert hooked.hook_summary is not None, f"no hooked child of {file_name} wrote its hook summary (see {tmp_path})"
