"""Memo caches keyed by MLIR objects, emptied whenever pysdy starts work in another context.

An attribute or type keeps its context, and everything uniqued in it, alive.
Memos that outlived their context would keep every context a process ever
made: thousands in a test run, gigabytes of memory. So the memos only ever
hold objects of the context the latest pass ran in.
"""

from __future__ import annotations

import functools
from typing import Callable, TypeVar

from jaxlib.mlir import ir

F = TypeVar("F", bound=Callable)

_memos: list = []
_current_context: ir.Context | None = None


def ir_memo(maxsize: int) -> Callable[[F], F]:
    """`functools.lru_cache(maxsize)`, emptied by `use_context` when the context changes."""

    def decorate(function: F) -> F:
        memo = functools.lru_cache(maxsize=maxsize)(function)
        _memos.append(memo)
        return memo

    return decorate


def use_context(context: ir.Context) -> None:
    """Called before a pass runs: drops every memo entry if they belong to another context."""
    global _current_context
    if context is _current_context:
        return
    for memo in _memos:
        memo.cache_clear()
    _current_context = context
