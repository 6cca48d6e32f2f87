"""The runner of JAX's test files (jax_test_files.py) on a small test file of its own: every outcome recorded, a child
that aborts named by its test and the file run on without it, a file that does not import reported as such; and
which plain passes a hooked run lost."""

from __future__ import annotations

import textwrap

from jax_test_files import FileRun, RecordedOutcome, lost_passes, run_test_file

_FILE = textwrap.dedent(
    """
    import os
    import pytest

    def test_passes():
        pass

    def test_fails():
        assert 1 == 2, "one is not two"

    def test_aborts():
        os.abort()

    def test_skips():
        pytest.skip("not here")

    def test_after_the_abort():
        pass
    """
)


def test_every_outcome_is_recorded_and_an_abort_names_its_test(tmp_path):
    (tmp_path / "sample_test.py").write_text(_FILE)
    run = run_test_file("sample_test.py", str(tmp_path / "work"), hooked=False, folder=str(tmp_path))
    assert run.deaths == ("sample_test.py::test_aborts: killed by signal 6",)
    assert run.import_error is None
    assert run.hook_summary is None
    assert run.outcomes == {
        "sample_test.py::test_passes": RecordedOutcome("passed", ""),
        "sample_test.py::test_fails": RecordedOutcome("failed", "AssertionError: one is not two assert 1 == 2"),
        "sample_test.py::test_skips": RecordedOutcome("skipped", "Skipped: not here"),
        "sample_test.py::test_after_the_abort": RecordedOutcome("passed", ""),
    }


def test_a_file_that_does_not_import_is_reported(tmp_path):
    (tmp_path / "broken_test.py").write_text("import no_such_module_anywhere\n")
    run = run_test_file("broken_test.py", str(tmp_path / "work"), hooked=False, folder=str(tmp_path))
    assert run.outcomes == {}
    assert run.import_error == "ModuleNotFoundError: No module named 'no_such_module_anywhere'"


def test_lost_passes_are_the_plain_passes_not_passed_hooked():
    def run(**outcomes: str) -> FileRun:
        recorded = {test_id: RecordedOutcome(outcome, "") for test_id, outcome in outcomes.items()}
        return FileRun(recorded, 1.0, (), None, None)

    plain = run(
        kept="passed", failed_hooked="passed", skipped_hooked="passed", missing_hooked="passed", plain_fail="failed"
    )
    hooked = run(kept="passed", failed_hooked="failed", skipped_hooked="skipped", plain_fail="failed")
    assert lost_passes(plain, hooked) == ["failed_hooked", "skipped_hooked", "missing_hooked"]
