"""pysdy's runtime and `pysdy-run` on a module in the child process (child_process.py), where XLA compiles and runs
it: an abort in XLA fails the test that met it."""

from __future__ import annotations

import contextlib
import dataclasses
import io

import jax
import jax_corpus  # noqa: F401  (gives JAX its 8 CPU devices before the backend starts)
from child_process import in_child_process
from pysdy.runtime.check import CheckResult, check_outputs
from pysdy.runtime.collectives import find_collectives
from pysdy.runtime.compile import compile_module, compile_options, xla_compile
from pysdy.runtime.execute import execute
from pysdy.runtime.host_inputs import random_inputs
from pysdy.tools.pysdy_run import main


@dataclasses.dataclass(frozen=True)
class CheckedRun:
    """A run on random inputs: its check against the reference run, the pipeline pysdy ran, and the kinds of the
    collectives in the partitioned HLO."""

    check: CheckResult
    pipeline: str
    collective_kinds: frozenset[str]


@in_child_process
def checked_run(text: str, route: str) -> CheckedRun:
    """Compiles `text` by `route`, runs it on random inputs and checks the outputs (RuntimeInputError where the
    runtime refuses the module)."""
    compiled = compile_module(text, route=route)
    inputs = random_inputs(compiled.info)
    check = check_outputs(text, compiled, inputs, execute(compiled, inputs))
    collectives = find_collectives(compiled.partitioned_hlo(), len(compiled.devices))
    return CheckedRun(check, compiled.pipeline, frozenset(c.kind for c in collectives))


@in_child_process
def compiles_as_is(text: str, route: str) -> bool:
    """Whether XLA compiles `text` unchanged for 8 devices on `route` (raises RuntimeInputError with XLA's message
    where it does not; an abort fails the test)."""
    devices = jax.devices()[:8]
    xla_compile(text, devices, compile_options(devices, shardy=route == "sdy"))
    return True


@in_child_process
def run_cli(arguments: list[str]) -> tuple[int, str, str]:
    """`pysdy-run <arguments>`: its exit status, stdout and stderr."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = main(arguments)
    return status, stdout.getvalue(), stderr.getvalue()
