"""`sdy-propagation-pipeline`: jaxlib's step sequence, and jaxlib's output on every JAX corpus program."""

import re

import pytest
from jaxlib.mlir import passmanager

from jax_corpus import corpus, program_names
from propagation_oracle import cpp_output, first_difference, pysdy_output
from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import NestedPipeline
from pysdy.passes.propagation.propagation_pipeline import PropagationPipelinePass

_PASS_NAME = re.compile(r"(?:^|[,(])([a-z][a-z0-9.-]*)(?=[{,()]|$)")
# jaxlib's debug dumps between stages; pysdy leaves them out.
_NOT_MIRRORED = {"func.func", "sdy-save-module"}


def _pass_names(pipeline_text: str) -> list[str]:
    return [name for name in _PASS_NAME.findall(pipeline_text) if name not in _NOT_MIRRORED]


def _text(steps) -> str:
    parts = []
    for step in steps:
        if isinstance(step, NestedPipeline):
            parts.append(f"{step.anchor}({','.join(s.text() for s in step.steps)})")
        else:
            parts.append(step.text())
    return ",".join(parts)


@pytest.mark.parametrize("dedup", [False, True])
def test_steps_are_jaxlib_expansion_of_the_pipeline(dedup):
    option = str(dedup).lower()
    with make_context():
        expanded = str(passmanager.PassManager.parse(f"builtin.module(sdy-propagation-pipeline{{dedup-functions-fully={option}}})"))
    expected = _pass_names(expanded[len("builtin.module(") : -1])
    assert _pass_names(_text(PropagationPipelinePass(dedup_functions_fully=dedup).steps())) == expected


def _cases():
    for pipeline in ["sdy-propagation-pipeline", "sdy-propagation-pipeline{dedup-functions-fully=true}"]:
        for program in program_names():
            yield pytest.param(program, pipeline, id=f"{program}-{pipeline}")


@pytest.mark.parametrize("program,pipeline", list(_cases()))
def test_pipeline_matches_cpp_on_jax_programs(program, pipeline):
    text = corpus()[program]
    expected = cpp_output(text, pipeline)
    actual = pysdy_output(text, pipeline)
    assert actual == expected, first_difference(expected, actual)
