"""`sdy-insert-explicit-reshards`, full and default versions, and `sdy-export-pipeline` with explicit collectives
(which runs the full version), C++ and pysdy, on random modules: the same printed module, or the same error.

Four sources of modules, each drawn from a seed:
- "random": the propagation tests' random modules as drawn (chains and DAGs of reshapes, dots, reductions,
  concatenates, slices...; open dimensions, priorities, sharding constraints, meshes with axes of size 1);
- "propagated": the same after jaxlib's C++ `sdy-propagation-pipeline`, closed, as its export part hands them on;
- "export-input": the same after the C++ steps of `sdy-propagation-pipeline` before its export part (the input of
  `sdy-export-pipeline`);
- "single-op": one op with random shardings (sub-axes, replicated and unreduced axes, non-divisible dimensions,
  reshapes whose dimensions span several factors, dots, reductions, gathers, scatters, sorts, convolutions...);
- "unreduced-target": a value meeting a function result or reshard with unreduced axes it does not have
  (unreduced_target_modules.py);
- "overflow-reshape": one reshape whose shardings have axes that do not divide the factors they shard, half of them
  with the same axes on both sides (overflow_reshape_modules.py).

Where jaxlib's C++ crashes the process (it reads past its factor map on some reshapes with overflow axes, and
aborts on unreduced axes its checks reject, or meeting a sharding on another mesh), pysdy must refuse with its diagnostic; the C++ is not run
there. Where pysdy refuses a reshard whose collectives stop short of its sharding, jaxlib emits collectives
ending elsewhere (test_reshard_to_collectives.py checks that on single reshards); such modules are left out. A fast sample runs by default, a large one is marked slow.
"""

from __future__ import annotations

import random
from typing import Callable

import pytest
from export_inputs import pipeline_steps, print_after_pysdy, step_index
from oracle import cpp_output
from jaxlib.mlir import ir

from propagation.random_modules import random_module
from propagation.single_op_modules import MORE_OP_GENERATORS, OP_GENERATORS, valid_random_module
from overflow_reshape_modules import overflow_reshape_module
from unreduced_target_modules import unreduced_target_module
from pysdy.dialects.context import make_context

PIPELINES = {
    "full": "func.func(sdy-insert-explicit-reshards{enable-full-version=true})",
    "default": "func.func(sdy-insert-explicit-reshards{enable-full-version=false})",
    "export-with-collectives": "sdy-export-pipeline{enable-insert-explicit-collectives=true}",
}
FAST_SEEDS = range(40)
SLOW_SEEDS = range(40, 2000)

# pysdy's diagnostics where the C++ crashes instead.
_CPP_CRASHES = (
    "cannot redistribute the reshape's axes",
    "the operands are sharded differently along a reduction factor",
    "the results of the operation have different unreduced axes",
    "some operands have unreduced axes but the operation has no results",
    "the sharding with unreduced axes has another mesh than its input",
    "the operand has unreduced axes but its user's sharding has another mesh",
    "the input and the output both have unreduced axes the other does not have",
)
_OFF_TARGET_RESHARD = "the collectives found do not reach the output sharding"


def _propagated(seed: int) -> str | None:
    try:
        return cpp_output(random_module(seed), "sdy-propagation-pipeline")
    except ir.MLIRError:
        return None  # a module jaxlib's propagation rejects (e.g. a sharding group it cannot satisfy)


def _export_input(seed: int) -> str | None:
    steps = pipeline_steps("default")[: step_index("default", "sdy-constant-or-scalar-merger")]
    try:
        return cpp_output(random_module(seed), ",".join(steps))
    except ir.MLIRError:
        return None


def _single_op(seed: int) -> str | None:
    families = sorted(OP_GENERATORS) + sorted(MORE_OP_GENERATORS)
    rng = random.Random(f"explicit-reshards-{seed}")
    with make_context():
        drawn = valid_random_module(rng, families[seed % len(families)])
    return None if drawn is None else drawn[1]


SOURCES: dict[str, Callable[[int], str | None]] = {
    "random": random_module,
    "propagated": _propagated,
    "export-input": _export_input,
    "single-op": _single_op,
    "unreduced-target": unreduced_target_module,
    "overflow-reshape": overflow_reshape_module,
}
# (source, pipeline) pairs.
CASES = [
    (source, pipeline)
    for source in ("random", "propagated", "single-op", "unreduced-target")
    for pipeline in ("full", "default")
]
CASES.append(("export-input", "export-with-collectives"))
CASES.append(("overflow-reshape", "full"))


def _outcome(run: Callable[[str, str], str], text: str, pipeline: str) -> str:
    try:
        return run(text, pipeline)
    except ir.MLIRError as error:
        return f"error: {error}"


def _crashes_cpp(pysdy_outcome: str) -> bool:
    return any(crash in pysdy_outcome for crash in _CPP_CRASHES)


def check_seed(source: str, seed: int, pipeline_name: str) -> None:
    text = SOURCES[source](seed)
    if text is None:
        return
    pipeline = PIPELINES[pipeline_name]
    actual = _outcome(print_after_pysdy, text, pipeline)
    if not _crashes_cpp(actual) and _OFF_TARGET_RESHARD not in actual:
        assert actual == _outcome(cpp_output, text, pipeline), text


@pytest.mark.parametrize("source, pipeline", CASES)
def test_pass_matches_cpp(source, pipeline):
    for seed in FAST_SEEDS:
        check_seed(source, seed, pipeline)


@pytest.mark.slow
@pytest.mark.parametrize("source, pipeline", CASES)
def test_pass_matches_cpp_on_more_seeds(source, pipeline):
    for seed in SLOW_SEEDS:
        check_seed(source, seed, pipeline)


@pytest.mark.parametrize("source, pipeline", [case for case in CASES if case[1] != "default"])
def test_random_modules_exercise_the_full_version(source, pipeline):
    """The C++ full version (or export pipeline) changes most of the fast sample."""
    pipeline = PIPELINES[pipeline]
    texts = [text for text in map(SOURCES[source], FAST_SEEDS) if text is not None]
    texts = [text for text in texts if not _crashes_cpp(_outcome(print_after_pysdy, text, pipeline))]

    def changes(text: str) -> bool:
        return _outcome(cpp_output, text, pipeline) != _outcome(cpp_output, text, "")

    changed = [text for text in texts if changes(text)]
    assert len(changed) > len(texts) // 2, (len(changed), len(texts))
