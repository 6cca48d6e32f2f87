"""The child process the tests run jaxlib's C++ in: a C++ abort or a hang fails only the call that met it, with its
message; errors and results come back as they were; the next call gets a new child."""

from __future__ import annotations

import os
import time

import child_process
import pytest
from child_process import ChildProcessCrash, Diagnostic, in_child_process
from jax._src.lib import xla_client as xc
from jaxlib.mlir import ir

from pysdy.dialects.context import make_context


@in_child_process
def process_id() -> int:
    return os.getpid()


@in_child_process(fresh=True)
def fresh_process_id() -> int:
    return os.getpid()


@in_child_process
def tile_shape_of_a_tuple() -> list[int]:
    """XLA CHECK-fails (aborts) asked for the tiles of a tuple sharding."""
    return xc.HloSharding.from_string("{{replicated}, {maximal device=0}}").tile_assignment_dimensions()


@in_child_process
def parse(text: str) -> str:
    with make_context():
        return str(ir.Module.parse(text))


@in_child_process
def sleep(seconds: float) -> None:
    time.sleep(seconds)


@in_child_process
def print_and_return(value: str) -> str:
    print("printed, not a reply")
    os.write(1, b"written to file descriptor 1, not a reply\n")
    return value


def test_calls_share_one_child_outside_this_process():
    assert process_id() == process_id() != os.getpid()


def test_a_cpp_abort_fails_the_call_with_its_check_message_and_the_next_call_gets_a_new_child():
    before = process_id()
    with pytest.raises(ChildProcessCrash, match=r"(?s)ended with signal 6.*Check failed: !IsTuple\(\)"):
        tile_shape_of_a_tuple()
    assert process_id() != before


def test_an_mlir_error_comes_back_with_its_message_and_diagnostics():
    with pytest.raises(ir.MLIRError, match="expected non-function type") as error:
        parse("func.func @f( {")
    assert error.value.error_diagnostics == [
        Diagnostic("DiagnosticSeverity.ERROR", 'loc("-":1:14)', "expected non-function type", ())
    ]


def test_what_a_call_prints_does_not_disturb_the_replies():
    assert print_and_return("reply") == "reply"
    assert parse("module {\n}") == "module {\n}\n"


def test_a_hang_fails_the_call_after_the_timeout(monkeypatch):
    before = process_id()
    with monkeypatch.context() as patched:
        patched.setattr(child_process, "CALL_TIMEOUT_SECONDS", 1)
        with pytest.raises(ChildProcessCrash, match="did not answer within 1 s"):
            sleep(30)
    # The next call starts a new child (importing jaxlib), under the normal limit: on a busy machine that takes more
    # than the 1 s the hang was caught in.
    assert process_id() != before


def test_a_fresh_call_gets_a_child_of_its_own():
    assert len({fresh_process_id(), fresh_process_id(), process_id()}) == 3
