"""A bench's progress line: shown on a terminal's stderr, rewritten in place, and nothing when stderr is piped."""

from __future__ import annotations

import sys


def show(message: str) -> None:
    """Replaces the progress line with `message` (on a terminal only)."""
    if sys.stderr.isatty():
        print(f"\r\033[K{message}", end="", file=sys.stderr, flush=True)


def clear() -> None:
    """Erases the progress line before the bench prints results (on a terminal only)."""
    if sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr, flush=True)
