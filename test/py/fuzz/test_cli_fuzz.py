"""pysdy-opt on mutated real modules and odd command lines: exit 0, or exit 1 with a located diagnostic.

Never an internal error, a signal or a hang (each run has a timeout), the same
bytes on a second run, and the input file untouched (see cli_runner.py). The
default set is small; the slow set runs many more cases, JAX programs among
the seeds. `bench/fuzz_pysdy_opt.py` runs 10,000.
"""

import pytest

import cli_cases
import cli_runner

FAST_CASES = 60
SLOW_CASES = 1500


@pytest.fixture(scope="module")
def runner():
    with cli_runner.Runner(timeout=120) as runner:
        yield runner


def _assert_fine(outcome: cli_runner.Outcome) -> None:
    assert outcome.kind in cli_runner.ACCEPTED, (
        f"{outcome.kind}: case {outcome.case.name}\n"
        f"pysdy-opt {' '.join(outcome.case.args)}\n{outcome.detail}\n--- input ---\n"
        + outcome.case.source.decode(errors="replace")
    )


@pytest.mark.parametrize("index", range(FAST_CASES))
def test_fast_case(runner, index):
    _assert_fine(runner.check(cli_cases.case(0, index, tuple(cli_cases.JAX_FAST))))


@pytest.mark.slow
@pytest.mark.parametrize("index", range(SLOW_CASES))
def test_slow_case(runner, index):
    _assert_fine(runner.check(cli_cases.case(1, index, tuple(cli_cases.jax_program_names()))))


def test_the_cases_cover_every_mutation_and_garbled_command_lines():
    cases = [cli_cases.case(0, index) for index in range(400)]
    names = " ".join(case.name for case in cases)
    for mutation in cli_cases.MUTATIONS:
        assert mutation.__name__.lstrip("_") in names
    assert any(case.command_line_error_allowed for case in cases)
    assert any(case.stdin for case in cases)


def test_a_case_is_the_same_case_every_time():
    assert cli_cases.case(5, 17) == cli_cases.case(5, 17)
    assert cli_cases.case(5, 17) != cli_cases.case(5, 18)


def _case(source: bytes, *args: str, allowed: bool = False) -> cli_cases.Case:
    return cli_cases.Case("handmade", source, (cli_cases.INPUT, *args), False, allowed)


VALID = b"""sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


@pytest.mark.parametrize(
    "case,kind",
    [
        (_case(VALID, "-sdy-propagation-pipeline"), cli_runner.EXIT_0),
        (_case(VALID.replace(b'"a"=2', b'"a"=0'), "-sdy-propagation-pipeline"), cli_runner.EXIT_1_DIAGNOSTIC),
        (_case(VALID, "-sdy-no-such-pass"), cli_runner.EXIT_1_UNLOCATED),
        (_case(VALID, "-sdy-no-such-pass", allowed=True), cli_runner.EXIT_1_DIAGNOSTIC),
    ],
)
def test_outcomes_are_classified(runner, case, kind):
    assert runner.check(case).kind == kind


def test_timing_reports_compare_equal_whatever_the_times():
    case = _case(VALID, "-sdy-basic-propagate", "-mlir-timing")
    report = "  ----Wall Time----  ----Name----\n    {} ( {}%)  BasicPropagationPass\n   {} ( {}%)  Rest\n"
    first = cli_runner.Run(1, b"", report.format("0.0012", "98.1", "0.0001", "1.9").encode(), None)
    second = cli_runner.Run(1, b"", report.format("0.0013", "100.2", "-0.0000", "-0.2").encode(), None)
    different = cli_runner.Run(1, b"", report.format("0.0012", "98.1", "0.0001", "1.9").replace("Rest", "Other").encode(), None)
    assert cli_runner._difference(cli_runner._comparable(case, first), cli_runner._comparable(case, second)) == ""
    assert cli_runner._difference(cli_runner._comparable(case, first), cli_runner._comparable(case, different))
