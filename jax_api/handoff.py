"""pysdy's propagation of one JAX-lowered module and the hand-off form of the route XLA compiles it on.

sdy route (the default, as JAX compiles): the module after pysdy's
`sdy-propagation-pipeline` in the re-propagatable form XLA's Shardy
partitioner takes; XLA propagates again (finding nothing to add) and
partitions. gspmd route: after `xla-sdy-stablehlo-export-pipeline`, for XLA's
GSPMD partitioner.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
from typing import Iterator

from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.passes.diagnostics import warnings_to
from pysdy.runtime.errors import RuntimeInputError
from pysdy.runtime.pysdy_passes import prepare_for_xla, propagate

# Warnings of pysdy's passes (e.g. ops without a sharding rule, which Shardy also propagates nothing through) are
# logged here once per message, as XLA's own Shardy route keeps them from the user.
LOGGER = logging.getLogger("pysdy.jax")
_LOGGED: set[str] = set()


# Hand-offs share one context, renewed every HAND_OFFS_PER_CONTEXT hand-offs: a context costs as much as handing
# off a small module, and pysdy's memos (parsed shardings, rules, propagation steps) last as long as the context
# pysdy works in, so JAX's thousands of small modules pay for them once. What a context uniques (types,
# attributes, locations) stays until it goes; the renewal bounds that.
HAND_OFFS_PER_CONTEXT = 64


class _SharedContext:
    """The hand-offs' context: a module global behind a lock, never thread-local storage. JAX runs host
    callbacks, which may compile and so hand off, on XLA's worker threads, and Python clears such a thread's
    state as each callback returns: a context kept in it is freed there, which crashes Python 3.11 (a segfault
    in PyObject_GC_Del, seen in JAX's shard_map_test on jax 0.10.2). The lock also keeps two threads from
    switching pysdy's memos between contexts under each other."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self.context = None
        self.uses = 0

    @contextlib.contextmanager
    def entered(self) -> Iterator[ir.Context]:
        with self._lock:
            if self.context is None or self.uses >= HAND_OFFS_PER_CONTEXT:
                self.context, self.uses = make_context(), 0
            self.uses += 1
            with self.context:
                yield self.context


SHARED_CONTEXT = _SharedContext()


class PysdyExportError(RuntimeError):
    """pysdy's pipeline rejected a JAX module; the message carries the pass diagnostics."""


@dataclasses.dataclass(frozen=True)
class HandOff:
    """What XLA gets on `route`: the module text, the pipelines pysdy ran, the module right after them (before the
    route's hand-off changes; kept only when asked, for verify mode), and a note for each sharding changed for XLA's
    sake."""

    route: str
    text: str
    pipelines: tuple[str, ...]
    propagated_text: str | None
    notes: tuple[str, ...]


def hand_off(
    module_text: str, module_name: str = "module", route: str = "sdy", keep_propagated_text: bool = False
) -> HandOff:
    """JAX's module (a module JAX lowered with `mhlo.sharding`s is imported first) through pysdy for `route`.

    The module is re-parsed in pysdy's own context (shared by the hand-offs), so JAX's context and its
    module are never modified.
    """
    with SHARED_CONTEXT.entered(), warnings_to(_log_once):
        try:
            module = ir.Module.parse(module_text)
        except ir.MLIRError as error:
            raise PysdyExportError(f"pysdy cannot parse the module JAX lowered for '{module_name}':\n{error}") from None
        try:
            pipelines = propagate(module, route)
            propagated = module.operation.get_asm(enable_debug_info=True) if keep_propagated_text else None
            notes = prepare_for_xla(module, route)
        except ir.MLIRError as error:
            raise PysdyExportError(_failure_message(module_name, error)) from None
        except RuntimeInputError as error:
            raise PysdyExportError(f"pysdy cannot hand '{module_name}' to XLA:\n  {error}") from None
        text = module.operation.get_asm(enable_debug_info=True)
        return HandOff(route, text, tuple(pipelines), propagated, tuple(notes))


def export_for_gspmd(module_text: str, module_name: str = "module") -> HandOff:
    """The hand-off of the gspmd route: after pysdy's `sdy-propagation-pipeline` and `xla-sdy-stablehlo-export-pipeline`."""
    return hand_off(module_text, module_name, "gspmd")


def _log_once(location: ir.Location, message: str) -> None:
    if message not in _LOGGED:
        _LOGGED.add(message)
        LOGGER.info("%s: %s", location, message)


def _failure_message(module_name: str, error: ir.MLIRError) -> str:
    lines = [f"pysdy's pipeline failed on '{module_name}':"]
    for diagnostic in error.error_diagnostics:
        lines.append(f"  {diagnostic.location}: error: {diagnostic.message}")
    if len(lines) == 1:
        lines.append(f"  {error}")
    return "\n".join(lines)
