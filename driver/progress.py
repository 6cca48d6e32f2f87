"""A progress line on stderr for work that runs longer than a second: on a terminal only, rewritten in place, erased when done.

Piped or redirected, nothing is written, so outputs (and the lit tests that
compare them byte for byte) never see it.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO


class Progress:
    """`with Progress("pysdy-opt") as progress: progress.stage("propagating"); ...` shows
    `pysdy-opt: propagating (3 s)` once the work has run `delay` seconds, updated every `interval`."""

    def __init__(
        self, tool: str, stage: str = "working", stream: TextIO | None = None, delay: float = 1.0, interval: float = 0.5
    ):
        self.tool = tool
        self.stream = sys.stderr if stream is None else stream
        self.delay = delay
        self.interval = interval
        self._stage = stage
        self._start = 0.0
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._shown = False

    def stage(self, text: str) -> None:
        self._stage = text

    def __enter__(self) -> Progress:
        self._start = time.monotonic()
        if self.stream.isatty():
            self._thread = threading.Thread(target=self._run, name=f"{self.tool} progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        if self._shown:
            self.stream.write("\r\033[K")
            self.stream.flush()

    def _run(self) -> None:
        if self._done.wait(self.delay):
            return
        while not self._done.is_set():
            elapsed = time.monotonic() - self._start
            self.stream.write(f"\r\033[K{self.tool}: {self._stage} ({elapsed:.0f} s)")
            self.stream.flush()
            self._shown = True
            self._done.wait(self.interval)
