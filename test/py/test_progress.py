"""The progress line: shown on a terminal once work runs past its delay, erased at the end; nothing when piped."""

import io
import time

from pysdy.driver.progress import Progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


def wait_for_output(stream, timeout=30.0):
    deadline = time.monotonic() + timeout  # catches a hang only
    while not stream.getvalue() and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_terminal_sees_the_stage_and_then_a_cleared_line():
    terminal = Terminal()
    with Progress("pysdy-opt", "running the pipeline on big.mlir", stream=terminal, delay=0.0, interval=0.01):
        wait_for_output(terminal)
    text = terminal.getvalue()
    assert text.startswith("\r\033[Kpysdy-opt: running the pipeline on big.mlir (")
    assert text.endswith("\r\033[K")


def test_work_shorter_than_the_delay_shows_nothing():
    terminal = Terminal()
    with Progress("pysdy-opt", stream=terminal, delay=3600.0):
        pass
    assert terminal.getvalue() == ""


def test_a_pipe_gets_nothing():
    piped = io.StringIO()
    with Progress("pysdy-run", stream=piped, delay=0.0, interval=0.01):
        time.sleep(0.05)
    assert piped.getvalue() == ""
