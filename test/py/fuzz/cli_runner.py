"""Runs pysdy-opt fuzz cases fast and safely, and classifies how each one ended.

Starting Python and importing pysdy costs about a second, so a server process
imports `pysdy.tools.pysdy_opt` once and forks a child per run; the child is
exactly what the `pysdy-opt` script does (`sys.exit(main(argv))`) with its
standard streams on files, so a hang is a timeout of that child, a crash is the
signal that ended it, and two forks from the same imported state must print
the same bytes. The server never builds MLIR objects itself, and runs with
OpenBLAS single-threaded, so it has no threads a fork could leave half-locked.

`python cli_runner.py --serve` is the server (a JSON request per stdin line);
`Runner` starts and talks to it; `check(case)` runs a case twice and returns
its `Outcome`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile

from cli_cases import INPUT, OUTPUT, Case

# How a case may end, best first; every other outcome is a finding.
EXIT_0 = "exit 0"
EXIT_1_DIAGNOSTIC = "exit 1 with a diagnostic"
EXIT_1_UNLOCATED = "exit 1 without a file:line:col diagnostic"
INTERNAL_ERROR = "internal error"
CRASH = "crash (signal or other exit status)"
HANG = "hang (timeout)"
NONDETERMINISTIC = "nondeterministic"
INPUT_MODIFIED = "input modified"
OUTCOMES = (EXIT_0, EXIT_1_DIAGNOSTIC, EXIT_1_UNLOCATED, INTERNAL_ERROR, CRASH, HANG, NONDETERMINISTIC, INPUT_MODIFIED)
ACCEPTED = (EXIT_0, EXIT_1_DIAGNOSTIC)

# A file position, or a location the input wrote without one (`loc("name")`), shown as MLIR prints it.
_LOCATED = re.compile(rb"^(?:.+:\d+:\d+|loc\(.+\)): error: ", re.MULTILINE)
_USAGE = re.compile(rb"^pysdy-opt: (?!internal error)", re.MULTILINE)


@dataclasses.dataclass(frozen=True)
class Run:
    """One run of pysdy-opt: exit status (negative: killed by that signal; None: timed out) and what it wrote."""

    status: int | None
    stdout: bytes
    stderr: bytes
    output_file: bytes | None


@dataclasses.dataclass(frozen=True)
class Outcome:
    kind: str
    case: Case
    detail: str = ""


class Runner:
    """A fork server for pysdy-opt runs; use as a context manager."""

    def __init__(self, timeout: float = 60.0):
        self.timeout = timeout
        self._server: subprocess.Popen | None = None
        self._workdir = tempfile.mkdtemp(prefix="pysdy-fuzz-")

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc) -> None:
        if self._server is not None:
            self._server.stdin.close()
            self._server.wait()
        shutil.rmtree(self._workdir, ignore_errors=True)

    def _request(self, request: dict) -> dict:
        if self._server is None or self._server.poll() is not None:
            env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONHASHSEED="0")
            env.pop("PYSDY_TRACEBACK", None)
            self._server = subprocess.Popen(
                [sys.executable, os.path.abspath(__file__), "--serve"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True,
            )
        self._server.stdin.write(json.dumps(request) + "\n")
        self._server.stdin.flush()
        return json.loads(self._server.stdout.readline())

    def run(self, case: Case) -> Run:
        """Runs `case` once in a fresh folder, the same path every time; the input file is `in.mlir` there."""
        folder = os.path.join(self._workdir, "run")
        os.mkdir(folder)
        try:
            input_path = os.path.join(folder, "in.mlir")
            with open(input_path, "wb") as f:
                f.write(case.source)
            args = [a.replace(INPUT, input_path).replace(OUTPUT, os.path.join(folder, "out.mlir")) for a in case.args]
            reply = self._request({"args": args, "folder": folder, "stdin": case.stdin, "timeout": self.timeout})
            with open(os.path.join(folder, "stdout"), "rb") as f:
                stdout = f.read()
            with open(os.path.join(folder, "stderr"), "rb") as f:
                stderr = f.read()
            output_path = os.path.join(folder, "out.mlir")
            output_file = open(output_path, "rb").read() if os.path.isfile(output_path) else None
            with open(input_path, "rb") as f:
                if f.read() != case.source:
                    stderr += b"\n[fuzz] the input file was modified\n"
            return Run(reply["status"], stdout, stderr, output_file)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def check(self, case: Case) -> Outcome:
        """Runs `case` twice and classifies it (see OUTCOMES)."""
        first = self.run(case)
        kind = _classify(case, first)
        if kind not in ACCEPTED:
            return Outcome(kind, case, first.stderr[-2000:].decode(errors="replace"))
        second = self.run(case)
        if _comparable(case, second) != _comparable(case, first):
            return Outcome(NONDETERMINISTIC, case, _difference(first, second))
        return Outcome(kind, case)


def _classify(case: Case, run: Run) -> str:
    if b"[fuzz] the input file was modified" in run.stderr:
        return INPUT_MODIFIED
    if run.status is None:
        return HANG
    if run.status not in (0, 1):
        return CRASH
    if b"internal error" in run.stderr or b"Traceback (most recent call last)" in run.stderr:
        return INTERNAL_ERROR
    if run.status == 0:
        return EXIT_0
    if _LOCATED.search(run.stderr) or (case.command_line_error_allowed and _USAGE.search(run.stderr)):
        return EXIT_1_DIAGNOSTIC
    return EXIT_1_UNLOCATED


def _comparable(case: Case, run: Run) -> Run:
    """The run without what may differ between runs: the times `-mlir-timing` reports (MLIR's "Rest", the total
    less the passes' times, can come out slightly negative)."""
    if "-mlir-timing" not in case.args:
        return run
    return dataclasses.replace(run, stderr=re.sub(rb"[ \d.%()-]+", b" ", run.stderr))


def _difference(first: Run, second: Run) -> str:
    for field in dataclasses.fields(Run):
        a, b = getattr(first, field.name), getattr(second, field.name)
        if a != b:
            return f"{field.name} differs: {str(a)[:300]!r} vs {str(b)[:300]!r}"
    return ""


# ----- the server -----


def _serve() -> None:
    from pysdy.passes.registry import all_passes
    from pysdy.tools import pysdy_opt

    all_passes()  # import every pass module once, before forking
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.write(json.dumps({"status": _fork_and_wait(pysdy_opt.main, request)}) + "\n")
        sys.stdout.flush()


def _fork_and_wait(main, request: dict) -> int | None:
    folder = request["folder"]
    pid = os.fork()
    if pid == 0:
        _child(main, request["args"], folder, request["stdin"])
    pidfd = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([pidfd], [], [], request["timeout"])
        if not ready:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
        _, wait_status = os.waitpid(pid, 0)
    finally:
        os.close(pidfd)
    return os.waitstatus_to_exitcode(wait_status)


def _child(main, args: list[str], folder: str, use_stdin: bool) -> None:
    """Becomes `pysdy-opt ARGS` run in `folder`; never returns."""
    code = 70
    try:
        os.chdir(folder)
        # Not os.devnull: on a shared machine an old pysdy-opt's `-o /dev/null` can replace it with a file.
        stdin = os.open(os.path.join(folder, "in.mlir" if use_stdin else "empty"), os.O_RDONLY | os.O_CREAT, 0o644)
        stdout = os.open(os.path.join(folder, "stdout"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        stderr = os.open(os.path.join(folder, "stderr"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        for fd, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
            os.dup2(fd, target)
            os.close(fd)
        sys.argv = ["pysdy-opt", *args]
        try:
            code = main(args)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


if __name__ == "__main__" and sys.argv[1:] == ["--serve"]:
    _serve()
