"""What the program costs once XLA compiled it, on pysdy's route and on XLA's own: memory per device and collectives,
each of pysdy's collectives matched back, by the source line XLA's metadata names, to the reshards behind it."""

from __future__ import annotations

import dataclasses

from pysdy.explanation.model import CollectiveView, Explanation, Reshard, RouteFigures
from pysdy.runtime.collectives import Collective, find_collectives
from pysdy.runtime.compile import CompiledModule, compile_options, xla_compile
from pysdy.runtime.report import memory_per_device

XLA_ROUTE = "XLA's own Shardy"


def with_compiled_figures(explanation: Explanation, text: str, compiled: CompiledModule) -> Explanation:
    """`explanation` with the routes' figures and pysdy's collectives: `compiled` is pysdy's compile of `text`; XLA's
    own route compiles `text` as it is, for the same devices."""
    devices = compiled.devices
    own = xla_compile(text, devices, compile_options(devices, shardy=True))
    pysdy_collectives = [_in_source(c, explanation.source) for c in find_collectives(compiled.partitioned_hlo(), len(devices))]
    own_collectives = find_collectives(own.hlo_modules()[0].to_string(), len(devices))
    routes = (
        _figures(f"pysdy ({compiled.route} route)", compiled.executable, pysdy_collectives),
        _figures(XLA_ROUTE, own, own_collectives),
    )
    views = tuple(_view(c, explanation.reshards) for c in pysdy_collectives)
    return dataclasses.replace(explanation, collectives=views, routes=routes)


def _in_source(collective: Collective, source: str) -> Collective:
    """The collective with a position in the unnamed buffer XLA was given (`-:12`, MLIR's name for it) placed in the
    source file the module came from."""
    if collective.location is None or not collective.location.startswith("-:"):
        return collective
    return dataclasses.replace(collective, location=source + collective.location[1:])


def _figures(route: str, executable, collectives: list[Collective]) -> RouteFigures:
    return RouteFigures(route, memory_per_device(executable), len(collectives), sum(c.sent_bytes for c in collectives))


def _view(collective: Collective, reshards: tuple[Reshard, ...]) -> CollectiveView:
    return CollectiveView(
        collective.kind, collective.name, collective.shape, collective.groups, collective.sent_bytes,
        collective.location, _explanation(collective, reshards),
    )  # fmt: skip


def _explanation(collective: Collective, reshards: tuple[Reshard, ...]) -> str | None:
    """The cause of the reshard behind the collective: one on its source line of its kind; else one of its kind that
    moves the same bytes per device (XLA often names the op before the reshard, whose result it reshards); else
    any on its line. None when nothing matches: XLA's partitioner then chose the collective on its own."""
    same_kind = [r for r in reshards if collective.kind in r.collectives]
    here = [r for r in same_kind if collective.location is not None and r.location == collective.location]
    if not here:
        here = [r for r in same_kind if r.bytes_per_device == collective.sent_bytes]
        if len(here) > 1:
            here = []
    if not here and collective.location is not None:
        here = [r for r in reshards if r.location == collective.location]
    if not here:
        return None
    return " | ".join(f"{r.value} for {r.op}{_at(r.location)}: {r.reason}" for r in here)


def _at(location: str | None) -> str:
    return f" at {location}" if location else ""
