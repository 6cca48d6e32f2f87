"""Runs the tests' calls into jaxlib's C++ (Shardy's passes, XLA's compiler) in a child process, so that a C++
abort (a CHECK failure, a segfault) or hang fails the one test that met it, with its message, instead of ending
or stalling pytest.

A function decorated with `@in_child_process` runs in one long-lived child, started on first use and again
after it dies; its arguments and result travel pickled, so they are text, numbers and containers of them, never
MLIR or XLA objects. `@in_child_process(fresh=True)` runs each call in a child of its own (for C++ that
remembers something per process). Inside the child the decorator does nothing.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import os
import pickle
import select
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
# How long one call may take before the child is taken for hung and ended.
CALL_TIMEOUT_SECONDS = 300


class ChildProcessCrash(Exception):
    """The child process died (killed by a signal or exited) or hung while running a call."""


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    """One of an ir.MLIRError's `error_diagnostics` as it comes from the child: jaxlib's DiagnosticInfo as text."""

    severity: str
    location: str
    message: str
    notes: tuple[Diagnostic, ...]

    @staticmethod
    def of(info) -> Diagnostic:
        return Diagnostic(str(info.severity), str(info.location), info.message, tuple(map(Diagnostic.of, info.notes)))


def in_child_process(function: Callable | None = None, *, fresh: bool = False) -> Callable:
    """Runs `function` in the child process; a crash there raises ChildProcessCrash in the caller."""
    if function is None:
        return functools.partial(in_child_process, fresh=fresh)
    if _IN_CHILD:
        return function

    @functools.wraps(function)
    def call_in_child(*args, **kwargs):
        request = (list(sys.path), function.__module__, function.__qualname__, args, kwargs)
        if not fresh:
            return _child().call(request)
        child = _Child()
        try:
            return child.call(request)
        finally:
            child.end()

    return call_in_child


class _Child:
    """One child Python process serving calls over pipes."""

    def __init__(self):
        self.stderr = tempfile.TemporaryFile()
        environment = dict(os.environ, **{_CHILD_FLAG: "1"})
        self.process = subprocess.Popen(
            [sys.executable, "-u", __file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env=environment,
        )

    def alive(self) -> bool:
        return self.process.poll() is None

    def _kill(self) -> None:
        self.process.kill()
        self.process.wait()

    def end(self) -> None:
        self._kill()
        for stream in (self.process.stdin, self.process.stdout, self.stderr):
            stream.close()

    def call(self, request: tuple) -> Any:
        module, name = request[1], request[2]
        self.stderr.seek(0)
        self.stderr.truncate()
        try:
            _send(self.process.stdin, request)
            ready, _, _ = select.select([self.process.stdout], [], [], CALL_TIMEOUT_SECONDS)
            if not ready:
                self._kill()
                raise ChildProcessCrash(self._report(f"did not answer within {CALL_TIMEOUT_SECONDS} s", module, name))
            ok, value = _receive(self.process.stdout)
        except (EOFError, BrokenPipeError, OSError):
            raise ChildProcessCrash(self._report(self._exit_status(), module, name)) from None
        except BaseException:
            # Interrupted between request and reply (e.g. Ctrl-C): the child's next reply would answer this call.
            self._kill()
            raise
        if ok:
            return value
        raise value

    def _exit_status(self) -> str:
        status = self.process.wait()
        return f"ended with signal {-status}" if status < 0 else f"ended with exit status {status}"

    def _report(self, what: str, module: str, name: str) -> str:
        self.stderr.seek(0)
        tail = self.stderr.read().decode(errors="replace")[-_STDERR_TAIL:]
        return f"the child process running {module}.{name} (jaxlib's C++) {what}; its stderr ends with:\n{tail}"


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
    requests = sys.stdin.buffer
    # Replies go to a copy of stdout; whatever a call prints, from Python or C++, goes to stderr.
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    while True:
        try:
            path, module, name, args, kwargs = _receive(requests)
        except EOFError:
            return
        sys.path[:] = path
        try:
            function: Any = importlib.import_module(module)
            for part in name.split("."):
                function = getattr(function, part)
            reply = (True, function(*args, **kwargs))
            data = pickle.dumps(reply)
        except BaseException as error:  # noqa: BLE001 - every failure goes back to the caller
            data = pickle.dumps((False, _picklable(error)))
        replies.write(struct.pack("<Q", len(data)) + data)
        replies.flush()


def _picklable(error: BaseException) -> BaseException:
    """The error, noting the child's traceback: itself if it pickles, else the same type made again from its
    arguments and attributes (an MLIRError's diagnostics as `Diagnostic`s), else a RuntimeError with its type and
    message."""
    note = "in the child process:\n" + "".join(traceback.format_exception(error))
    for candidate in (error, _remade(error)):
        if candidate is None:
            continue
        try:
            candidate.add_note(note)
            return pickle.loads(pickle.dumps(candidate))
        except Exception:  # noqa: BLE001
            continue
    return RuntimeError(f"{type(error).__name__} in the child process: {error}\n{note}")


def _remade(error: BaseException) -> BaseException | None:
    try:
        remade = type(error)(*error.args)
        for key, value in vars(error).items():
            if key == "_error_diagnostics":  # an ir.MLIRError's: C++ objects
                value = [Diagnostic.of(info) for info in value]
            setattr(remade, key, value)
        return remade
    except Exception:  # noqa: BLE001
        return None


if __name__ == "__main__":
    # Serve from the module `child_process`, not `__main__`, so that what it pickles (Diagnostic) unpickles here.
    import child_process

    child_process._serve()
