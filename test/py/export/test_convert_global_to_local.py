"""`sdy-convert-global-to-local`, C++ and pysdy, on every jax line: pysdy leaves a module as it is where the C++
does, and refuses with an error at the op where the C++ converts the module to local shapes (which pysdy does not
implement) or fails; and the options of the three passes of Shardy's partitioner that pysdy registers are the
installed C++'s, with their defaults."""

from __future__ import annotations

import functools
import os
import re

import pytest
from jaxlib.mlir import passmanager

import located_outcomes
from child_process import ChildProcessCrash, in_child_process
from jax_corpus import corpus, program_names
from line_side import when
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import PipelineError, build_pass_manager, parse_pipeline
from pysdy.passes.registry import lookup_pass

PASS = "sdy-convert-global-to-local"
REFUSAL = "sdy-convert-global-to-local: pysdy does not implement converting '"
_PROPAGATE_AND_EXPORT = "sdy-propagation-pipeline,sdy-export-pipeline{enable-insert-explicit-collectives=true}"

with open(os.path.join(os.path.dirname(__file__), "convert_global_to_local_cases.mlir")) as _file:
    CASES = [case.strip() for case in _file.read().split("// -----")]


def _cpp_keeps(text: str, pipeline: str) -> bool:
    """Whether the C++ pass leaves the module as it is (False where it changes it, fails or aborts)."""
    try:
        return located_outcomes.cpp(text, pipeline) == located_outcomes.cpp(text, "")
    except ChildProcessCrash:
        return False


def _assert_as_cpp(text: str, pipeline: str = PASS) -> None:
    actual = located_outcomes.pysdy(text, pipeline)
    if _cpp_keeps(text, pipeline):
        assert actual == located_outcomes.cpp(text, "")
    else:
        assert actual.startswith("error: loc(") and REFUSAL in actual, actual


@pytest.mark.parametrize("case", range(len(CASES)))
def test_kept_as_cpp_or_refused(case):
    _assert_as_cpp(CASES[case])


def test_cases_have_kept_and_converted_modules():
    kept = sum(_cpp_keeps(text, PASS) for text in CASES)
    assert 8 <= kept <= len(CASES) - 8


@when("convert_global_to_local_device_counts")
@pytest.mark.parametrize("counts", ["partition-count=4", "replica-count=2", "partition-count=0 replica-count=8"])
@pytest.mark.parametrize("case", range(0, len(CASES), 4))
def test_one_device_count_kept_as_cpp_or_refused(case, counts):
    _assert_as_cpp(CASES[case], f"{PASS}{{{counts}}}")


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
def test_kept_as_cpp_or_refused_on_exported_jax_programs(program):
    exported = _cpp_exported(program)
    if exported.startswith("error: "):
        pytest.skip(f"jaxlib's export fails on it: {exported}")
    _assert_as_cpp(exported)


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
