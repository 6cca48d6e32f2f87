"""A bench's progress line reaches a terminal's stderr, rewritten in place, and nothing reaches a pipe."""

import os
import pty
import subprocess
import sys

BENCH = os.path.join(os.path.dirname(__file__), "..", "..", "bench")
PROGRAM = "import progress\nprogress.show('run 1 ...')\nprogress.show('run 2 ...')\nprogress.clear()\nprint('result')\n"


def _run(stderr) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=BENCH, stdout=subprocess.PIPE, stderr=stderr, timeout=60, check=True
    )


def test_progress_is_silent_when_stderr_is_a_pipe():
    completed = _run(subprocess.PIPE)
    assert completed.stderr == b""
    assert completed.stdout == b"result\n"


def test_progress_rewrites_one_line_on_a_terminal():
    controller, terminal = pty.openpty()
    try:
        completed = _run(terminal)
        os.close(terminal)
        terminal = None
        shown = b""
        while True:
            try:
                chunk = os.read(controller, 1024)
            except OSError:  # the terminal is closed and drained
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if terminal is not None:
            os.close(terminal)
        os.close(controller)
    assert shown == b"\r\x1b[Krun 1 ...\r\x1b[Krun 2 ...\r\x1b[K"
    assert completed.stdout == b"result\n"
