"""`pysdy-explain` on the CLI fuzzer's mutated modules: an explanation, or a located diagnostic; never another error.

The sources are pysdy-opt's fuzz cases (cli_cases.py: lit inputs, hand-written snippets and random modules, mutated
one to three times), explained in this process; each explanation is also rendered as text, where every chain and
reshard is read. Split files are explained as a whole (pysdy-explain takes one module). The slow set runs many more.
"""

import pytest

import cli_cases
from pysdy.explanation.build import ExplainInputError, explain_text
from pysdy.explanation.text_report import summary_text, value_text

FAST_CASES = 40
SLOW_CASES = 600


def _check(seed: int, index: int) -> None:
    case = cli_cases.case(seed, index)
    text = case.source.decode("utf-8", errors="replace")
    try:
        explanation = explain_text(text, "fuzz.mlir")
    except ExplainInputError as error:
        assert str(error).startswith(("fuzz.mlir:", "loc(", "error:")) or ": error: " in str(error), (case.name, str(error))
        return
    summary_text(explanation)
    for tensor in explanation.tensors:
        value_text(tensor)


@pytest.mark.parametrize("index", range(FAST_CASES))
def test_fast_case(index):
    _check(0, index)


# Slow cases that found bugs, kept in the fast set: (2, 90) reshards an op's operand onto a maximal mesh; (2, 499)
# has a mesh of 2**63 - 1 devices, too many to list.
@pytest.mark.parametrize("seed, index", [(2, 90), (2, 499)])
def test_found_case(seed, index):
    _check(seed, index)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(SLOW_CASES))
def test_slow_case(index):
    _check(2, index)
