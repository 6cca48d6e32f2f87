"""`sdy-convert-global-to-local`, C++ and pysdy, on every jax line: pysdy's output equals the C++'s, or pysdy
refuses with an error, either at an op it does not convert yet or where the per-device program would compute wrong
values (with the C++ computing them or failing there); and the options of the three passes of Shardy's partitioner
that pysdy registers are the installed C++'s, with their defaults. That what pysdy converts also runs right is
checked by test/py/runtime/test_pysdy_partitioned_runs.py."""

from __future__ import annotations

import functools
import os
import re

import pytest
from jaxlib.mlir import passmanager

import jax_corpus  # noqa: F401 (gives JAX its 8 CPU devices before the backend starts)
import located_outcomes
from child_process import in_child_process
from conversion_outcomes import PASS, SDY_COLLECTIVE, WRONG_VALUES, as_cpp_or_refused, as_main, cpp_or_none, problems_running
from jax_corpus import corpus, program_names
from line_side import when
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import PipelineError, build_pass_manager, parse_pipeline
from pysdy.passes.registry import lookup_pass

_PROPAGATE_AND_EXPORT = "sdy-propagation-pipeline,sdy-export-pipeline{enable-insert-explicit-collectives=true}"

with open(os.path.join(os.path.dirname(__file__), "convert_global_to_local_cases.mlir")) as _file:
    CASES = [case.strip() for case in _file.read().split("// -----")]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_as_cpp_or_refused(case):
    """And what pysdy converts runs as the module does, wherever the module runs."""
    outcome = as_cpp_or_refused(CASES[case])
    local = located_outcomes.pysdy(CASES[case], PASS)
    if outcome == "refused" or local.startswith("error: "):
        return
    problems = problems_running(*as_main(CASES[case], local))
    if outcome == "converted where the C++ fails" and not SDY_COLLECTIVE.search(CASES[case]):
        assert problems == []  # nothing else vouches for pysdy's program
    else:
        # (sdy collectives run only inside whole programs: test_pysdy_partitioned_runs.py runs those)
        assert problems in ([], None)


def test_where_pysdy_finds_wrong_values_the_cpp_program_computes_them():
    """Cases pysdy refuses for the values their per-device program would compute, that the C++ converts and that
    run on one device: the C++'s program gives other values than the module."""
    checked = 0
    for text in CASES:
        refusal, converted = located_outcomes.pysdy(text, PASS), cpp_or_none(text, PASS)
        if not WRONG_VALUES.search(refusal) or converted is None or converted.startswith("error: "):
            continue
        problems = problems_running(*as_main(text, converted))
        if problems is None:
            continue
        assert problems, f"the C++'s program of this case runs right, yet pysdy refuses it:\n{text}\n{refusal}"
        checked += 1
    assert checked >= 1


def test_cases_have_converted_and_refused_modules():
    outcomes = [as_cpp_or_refused(text) for text in CASES]
    assert outcomes.count("converted") >= 6 and outcomes.count("refused") >= 8, outcomes


@when("convert_global_to_local_device_counts")
@pytest.mark.parametrize("counts", ["partition-count=4", "replica-count=2", "partition-count=0 replica-count=8"])
@pytest.mark.parametrize("case", range(0, len(CASES), 4))
def test_one_device_count_as_cpp_or_refused(case, counts):
    as_cpp_or_refused(CASES[case], f"{PASS}{{{counts}}}")


@when("convert_global_to_local_device_counts")
@pytest.mark.parametrize("counts", ["partition-count=2 replica-count=2", "replica-count=3 partition-count=8"])
@pytest.mark.parametrize("case", range(0, len(CASES), 4))
def test_both_device_counts_fail_as_cpp(case, counts):
    """From jax 0.11 the C++ fails on any module given more than one partition and more than one replica."""
    pipeline = f"{PASS}{{{counts}}}"
    expected = located_outcomes.cpp(CASES[case], pipeline)
    assert "does not support both replica_count > 1 and partition_count > 1 yet." in expected
    assert located_outcomes.pysdy(CASES[case], pipeline) == expected


@when("convert_global_to_local_device_counts", False)
@pytest.mark.parametrize("option", ["partition-count", "replica-count"])
def test_device_count_options_are_unknown(option):
    pipeline = f"{PASS}{{{option}=2}}"
    with make_context():
        with pytest.raises(ValueError, match=f"no such option {option}\n"):
            passmanager.PassManager.parse(f"builtin.module({pipeline})")
        with pytest.raises(PipelineError, match=f"no such option '{option}' for pass '{PASS}'"):
            build_pass_manager(parse_pipeline(pipeline))


@functools.cache
def _cpp_exported(program: str) -> str:
    return located_outcomes.cpp(corpus()[program], _PROPAGATE_AND_EXPORT)


@pytest.mark.parametrize("program", program_names())
def test_as_cpp_or_refused_on_exported_jax_programs(program):
    exported = _cpp_exported(program)
    if exported.startswith("error: "):
        pytest.skip(f"jaxlib's export fails on it: {exported}")
    as_cpp_or_refused(exported)


def test_most_exported_jax_programs_that_convert_convert_as_cpp():
    """Not a refusal left at every op: pysdy converts many programs, to the C++'s module where the C++ converts them
    (jax 0.11's aborts on a dot whose partial result is not marked unreduced; test_pysdy_partitioned_runs.py runs
    those)."""
    outcomes = []
    for program in program_names():
        exported = _cpp_exported(program)
        if not exported.startswith("error: "):
            outcomes.append(as_cpp_or_refused(exported))
    assert outcomes.count("converted") >= 5, outcomes
    assert outcomes.count("converted") + outcomes.count("converted where the C++ fails") >= 12, outcomes


@in_child_process
def _cpp_options(name: str) -> dict[str, str]:
    """The options jaxlib prints for the pass, by name, with their default values."""
    with make_context():
        step = f"func.func({name})" if name == "sdy-resolve-single-device-sharding" else name
        try:
            printed = str(passmanager.PassManager.parse(f"builtin.module({step})"))
        except ValueError:
            return {}
    options = re.search(re.escape(name) + r"\{(.*?)\}", printed)
    return dict(re.findall(r"([\w-]+)=(\S*)", options.group(1))) if options else {}


@pytest.mark.parametrize(
    "name", ["sdy-convert-global-to-local", "sdy-per-instruction-partitioning", "sdy-resolve-single-device-sharding"]
)
def test_options_and_defaults_are_the_lines(name):
    cls = lookup_pass(name)
    expected = _cpp_options(name)
    if cls is None:
        assert expected == {}, f"jaxlib has {name}, pysdy does not"
        return
    actual = {}
    for spec in cls.option_specs():
        default = str(spec.default).lower() if spec.type is bool else str(spec.default)
        actual[spec.name] = default
    assert actual == expected
