"""Writing `-o FILE` as mlir-opt would, except that a regular file is replaced atomically.

A symlink is written through (its target is replaced, the link stays); a
device, FIFO or other non-regular file is opened and written in place; a
regular file is replaced by a temporary file renamed over it, which keeps the
old file's mode, while a new file gets the usual mode (0666 less the umask).
Failures are `OutputError`s with mlir-opt's wording, meant for one line.
"""

from __future__ import annotations

import errno
import os
import stat

from pysdy.driver.source import shown_name


class OutputError(Exception):
    """The output file cannot be opened or written; the message names it and why."""


def check_output_file(path: str) -> None:
    """Raises OutputError now for an output file that cannot be written, before any work is done."""
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        directory = os.path.dirname(target)
        if not os.path.isdir(directory):
            raise _cannot_open(path, "No such file or directory") from None
        if not os.access(directory, os.W_OK):
            raise _cannot_open(path, "Permission denied") from None
        return
    except OSError as error:
        raise _cannot_open(path, error.strerror) from None
    if stat.S_ISDIR(mode):
        raise _cannot_open(path, "Is a directory")
    if not os.access(target, os.W_OK):
        raise _cannot_open(path, "Permission denied")


def write_output_file(path: str, text: str) -> None:
    """Writes `text` to `path` as described above; raises OutputError on failure."""
    target = os.path.realpath(path)
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        existing = None
    except OSError as error:
        raise _cannot_open(path, error.strerror) from None
    try:
        if existing is not None and not stat.S_ISREG(existing.st_mode):
            if stat.S_ISDIR(existing.st_mode):
                raise _cannot_open(path, "Is a directory")
            with open(target, "w", encoding="utf-8") as out:
                out.write(text)
            return
        _replace_atomically(target, text, None if existing is None else stat.S_IMODE(existing.st_mode))
    except OSError as error:
        raise OutputError(f"cannot write output file '{shown_name(path)}': {error.strerror}") from None


def _replace_atomically(target: str, text: str, mode: int | None) -> None:
    directory, name = os.path.split(target)
    temp_path, fd = _create_temp(directory, name)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temp_path, target)
    except BaseException:
        os.unlink(temp_path)
        raise


def _create_temp(directory: str, name: str) -> tuple[str, int]:
    """A new file beside the target, created with mode 0666 so that the umask applies as to any new file."""
    for attempt in range(100):
        temp_path = os.path.join(directory, f".{name}.pysdy-opt-{os.getpid()}-{attempt}")
        try:
            return temp_path, os.open(temp_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name")


def _cannot_open(path: str, reason: str) -> OutputError:
    return OutputError(f"cannot open output file '{shown_name(path)}': {reason}")
