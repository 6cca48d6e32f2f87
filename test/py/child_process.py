"""Runs the tests' calls into jaxlib's C++ (Shardy's passes, XLA's compiler) in a child process, so that a C++
abort (a CHECK failure, a segfault) fails the one test that met it, with its message, instead of ending pytest.

A function decorated with `@in_child_process` runs in one long-lived child, started on first use and again
after it dies; its arguments and result travel pickled. Inside the child the decorator does nothing.
"""

from __future__ import annotations

import functools
import importlib
import os
import pickle
import struct
import subprocess
import sys
import tempfile
import traceback
from typing import Any, BinaryIO, Callable

_CHILD_FLAG = "PYSDY_TEST_CHILD_PROCESS"
_IN_CHILD = os.environ.get(_CHILD_FLAG) == "1"
# How much of the child's last stderr a crash report quotes.
_STDERR_TAIL = 4000


class ChildProcessCrash(Exception):
    """The child process died (killed by a signal or exited) while running a call."""


def in_child_process(function: Callable) -> Callable:
    """Runs `function` in the child process; a crash there raises ChildProcessCrash in the caller."""
    if _IN_CHILD:
        return function

    @functools.wraps(function)
    def call_in_child(*args, **kwargs):
        return _child().call(function.__module__, function.__qualname__, args, kwargs)

    return call_in_child


class _Child:
    """One child Python process serving calls over its stdin/stdout."""

    def __init__(self):
        self.stderr = tempfile.TemporaryFile()
        environment = dict(os.environ, **{_CHILD_FLAG: "1"})
        environment["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        self.process = subprocess.Popen(
            [sys.executable, "-u", __file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env=environment,
        )

    def alive(self) -> bool:
        return self.process.poll() is None

    def call(self, module: str, name: str, args: tuple, kwargs: dict) -> Any:
        self.stderr.seek(0)
        self.stderr.truncate()
        try:
            _send(self.process.stdin, (module, name, args, kwargs))
            ok, value = _receive(self.process.stdout)
        except (EOFError, BrokenPipeError, OSError):
            raise ChildProcessCrash(self._crash_report(f"{module}.{name}")) from None
        if ok:
            return value
        raise value

    def _crash_report(self, call: str) -> str:
        status = self.process.wait()
        how = f"signal {-status}" if status < 0 else f"exit status {status}"
        self.stderr.seek(0)
        tail = self.stderr.read().decode(errors="replace")[-_STDERR_TAIL:]
        return f"jaxlib's C++ ended the child process ({how}) in {call}; its stderr ends with:\n{tail}"


_current: _Child | None = None


def _child() -> _Child:
    global _current
    if _current is None or not _current.alive():
        _current = _Child()
    return _current


def _send(stream: BinaryIO, message: Any) -> None:
    data = pickle.dumps(message)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _receive(stream: BinaryIO) -> Any:
    header = stream.read(8)
    if len(header) < 8:
        raise EOFError
    (size,) = struct.unpack("<Q", header)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


def _serve() -> None:
    """The child's loop: run each requested function and send back its result or its exception."""
    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # whatever a call prints must not corrupt the replies
    while True:
        try:
            module, name, args, kwargs = _receive(requests)
        except EOFError:
            return
        try:
            function: Any = importlib.import_module(module)
            for part in name.split("."):
                function = getattr(function, part)
            reply = (True, function(*args, **kwargs))
            pickle.dumps(reply)
        except BaseException as error:  # noqa: BLE001 - every failure goes back to the caller
            reply = (False, _picklable(error))
        _send(replies, reply)


def _picklable(error: BaseException) -> BaseException:
    """The error itself if it survives pickling, else a RuntimeError with its type, message and traceback."""
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:  # noqa: BLE001
        text = "".join(traceback.format_exception(error))
        return RuntimeError(f"{type(error).__name__} in the child process: {error}\n{text}")


if __name__ == "__main__":
    _serve()
