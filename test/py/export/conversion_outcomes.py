"""How pysdy's `sdy-convert-global-to-local` compares with jaxlib's C++ on one module, and whether a per-device module
runs as its global one does: shared by the pass's tests."""

from __future__ import annotations

import re

import jax_corpus  # noqa: F401 (gives JAX its 8 CPU devices before the backend starts, in a child process too)
import located_outcomes
from child_process import ChildProcessCrash, in_child_process
from pysdy.dialects.context import make_context
from pysdy.runtime.host_inputs import random_inputs
from pysdy.runtime.module_info import module_info_of_text
from pysdy.runtime.per_device_check import check_per_device
from pysdy.runtime.reference import unpartitioned_text

PASS = "sdy-convert-global-to-local"
NOT_YET = "sdy-convert-global-to-local: pysdy does not implement converting '"
WRONG_VALUES = re.compile(r"sdy-convert-global-to-local: .* (would compute wrong values|would reduce whole values)")
SDY_COLLECTIVE = re.compile(
    r"sdy\.(all_reduce|all_gather|all_slice|all_to_all|collective_permute|reduce_scatter|replicated_to_unreduced) "
)


def cpp_or_none(text: str, pipeline: str) -> str | None:
    """The C++ outcome, None where it aborts."""
    try:
        return located_outcomes.cpp(text, pipeline)
    except ChildProcessCrash:
        return None


def as_cpp_or_refused(text: str, pipeline: str = PASS) -> str:
    """pysdy's outcome is the C++'s, or an error where pysdy refuses, or where the C++ fails or aborts anything
    (whether it runs right is for the caller to check); returns how they compare."""
    actual = located_outcomes.pysdy(text, pipeline)
    expected = cpp_or_none(text, pipeline)
    if (expected is None or expected.startswith("error: ")) and not actual.startswith("error: "):
        return "converted where the C++ fails"
    if actual == expected:
        return "converted" if not actual.startswith("error: ") and actual != located_outcomes.cpp(text, "") else "same"
    assert actual.startswith("error: loc("), actual
    assert NOT_YET in actual or WRONG_VALUES.search(actual), actual
    return "refused"


@in_child_process
def problems_running(global_text: str, local_text: str) -> list[str] | None:
    """What differs when the per-device module runs on the devices of its mesh against the global one (on one
    device; with manual computations, as XLA's Shardy partitions it); None where the global module has sdy
    collectives, which neither runs, or reads device ids, whose values differ from device to device, or has partial
    values."""
    if any(word in global_text for word in ("stablehlo.partition_id", "stablehlo.replica_id", "unreduced=")):
        return None  # (partial values have no meaning on one device either)
    with make_context():
        if unpartitioned_text(global_text) is None and "sdy.manual_computation" not in global_text:
            return None
        devices = module_info_of_text(global_text).mesh_device_count()
    inputs = random_inputs(module_info_of_text(global_text), seed=5)
    return check_per_device(global_text, local_text, inputs, devices).problems


def as_main(*texts: str) -> list[str]:
    """The texts with their one function named @main, which the harness runs."""
    names = re.findall(r"func\.func (?:public |private )?@([\w.]+)\(", texts[0])
    if len(names) != 1:
        return list(texts)
    return [re.sub(rf"@{re.escape(names[0])}\(", "@main(", text) for text in texts]
