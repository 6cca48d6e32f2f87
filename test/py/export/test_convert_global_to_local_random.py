"""`sdy-convert-global-to-local` on hypothesis-generated modules: jaxlib's C++ propagates and exports each (explicit
collectives), then pysdy's conversion of that module equals the C++'s or refuses it (conversion_outcomes.py); and
pysdy's own whole partitioner (propagation, explicit collectives, conversion) gives a per-device program that runs
on the mesh's devices as the module runs on one. Hypothesis reports the failing module as "Falsifying example"."""

from __future__ import annotations

import collections

import pytest
from hypothesis import Phase, given
from hypothesis_settings import module_settings
from jaxlib.mlir import ir

import jax_corpus  # noqa: F401 (gives JAX its 8 CPU devices before the backend starts)
import located_outcomes
from child_process import in_child_process
from conversion_outcomes import as_cpp_or_refused
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import parse_pipeline, run_pipeline
from pysdy.runtime.host_inputs import random_inputs
from pysdy.runtime.module_info import module_info_of_text
from pysdy.runtime.per_device_check import check_per_device
from pysdy.runtime.pysdy_passes import partitioner_pipeline
from propagation.random_modules import modules, random_module

_EXPORT = "sdy-propagation-pipeline,sdy-export-pipeline{enable-insert-explicit-collectives=true}"
_DEVICES = 8


@in_child_process
def _pysdy_partitioned_problems(text: str) -> list[str] | None:
    """What differs when pysdy's per-device program of `text` runs against `text` on one device; None where pysdy
    refuses it or its mesh is not 8 devices."""
    with make_context():
        module = ir.Module.parse(text)
        if module_info_of_text(text).mesh_device_count() != _DEVICES:
            return None
        try:
            run_pipeline(module, parse_pipeline(partitioner_pipeline(_DEVICES)))
        except ir.MLIRError:
            return None
        local = str(module)
    return check_per_device(text, local, random_inputs(module_info_of_text(text), seed=7), _DEVICES).problems


def _check(text: str) -> str:
    """How the conversion of the C++'s export compares (`export fails` where the C++'s export fails), after
    checking pysdy's own partitioned program runs right."""
    assert _pysdy_partitioned_problems(text) in ([], None)
    exported = located_outcomes.cpp(text, _EXPORT)
    if exported.startswith("error: "):
        return "export fails"
    return as_cpp_or_refused(exported)


@given(modules(no_dead_values=True))
@module_settings(40, (Phase.explicit, Phase.generate))
def test_random_modules_convert_as_cpp_and_run_right(text):
    _check(text)


def test_random_modules_are_often_converted():
    """Not a refusal of everything: of 60 seeded modules, some convert as the C++ does. (Most have a dimension its
    mesh axes do not divide, 3 or 6 split 2 or 4 ways, which needs `sdy-pad-for-divisibility` first: the C++ conversion
    aborts on those and pysdy refuses them.)"""
    outcomes = collections.Counter(_check(random_module(seed, no_dead_values=True)) for seed in range(60))
    assert outcomes["converted"] + outcomes["same"] >= 8, outcomes


@pytest.mark.slow
@given(modules(no_dead_values=True))
@module_settings(600, tuple(Phase))
def test_many_random_modules_convert_as_cpp_and_run_right(text):
    _check(text)
