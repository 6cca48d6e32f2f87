"""The chain behind each axis of a value: the annotation it started from and every propagation step that carried it.

Walking back from the value: the step that first brought the axis to it (the
earliest recorded step whose target it is), then the step that first brought
it to that step's source before then, and so on, until a value whose own
annotation has the axis. Crossing a call (operand to
callee argument, callee result to call result) is no step, only the same
tensor under another name. The annotation is the origin Shardy recorded for
the axis on the value; the chain is the recorded edges. Both come from the same
run, so they agree unless an origin tie broke differently (Shardy's origins of
a merged axis), which the chain's own start then settles.
"""

from __future__ import annotations

import math

from pysdy.explanation.annotations import annotation_of
from pysdy.explanation.model import Annotation, AxisChain, Step
from pysdy.explanation.recorded_module import Event, RecordedModule, ValueKey, axis_name

_RULE_PREFIX = "#sdy.op_sharding_rule<"


def axis_chains(recorded: RecordedModule, value: ValueKey) -> tuple[AxisChain, ...]:
    sharding = recorded.sharding(value)
    if sharding is None:
        return ()
    chains = []
    for dim, dim_sharding in enumerate(sharding.dims):
        for axis in dim_sharding.axes:
            chains.append(axis_chain(recorded, value, dim, str(axis)))
    return tuple(chains)


def axis_chain(recorded: RecordedModule, value: ValueKey, dim: int, axis: str) -> AxisChain:
    events, start = _trace(recorded, value, axis)
    return AxisChain(dim, axis, _annotation(recorded, value, start, axis), tuple(_step(recorded, e) for e in events))


def _trace(recorded: RecordedModule, value: ValueKey, axis: str) -> tuple[list[Event], ValueKey]:
    """The steps from the start of the axis's chain to `value`, in order, and the value the chain starts at.

    A depth-first walk back: through the earliest step that brought the axis
    to the current value before the bound, else across a call to the same
    tensor under another name. The first walk that reaches a value annotated
    with the axis wins; failing that, the longest."""
    name = axis_name(axis)
    seen: set = set()
    best: tuple[list[Event], ValueKey] = ([], value)
    has_origin = False

    def walk(current: ValueKey, bound: float, events: list[Event]) -> tuple[list[Event], ValueKey] | None:
        nonlocal best, has_origin
        if (current, bound) in seen:
            return None
        seen.add((current, bound))
        origin = _origin(recorded, current, name)
        if origin == "self":
            return events, current
        # Failing an annotated start, the longest walk; among equals the first reaching a recorded origin.
        if len(events) > len(best[0]) or (origin is not None and not has_origin and len(events) == len(best[0])):
            best = (list(events), current)
            has_origin = has_origin or origin is not None
        arriving = [e for e in recorded.events.get(current, ()) if axis_name(e.axis) == name and e.step < bound]
        if arriving:
            event = min(arriving, key=lambda e: e.step)
            if event.source is None:
                return None
            return walk(event.source, event.step, events + [event])
        for other in recorded.links(current):
            if _has_axis(recorded, other, name):
                found = walk(other, bound, events)
                if found is not None:
                    return found
        return None

    events, start = walk(value, math.inf, []) or best
    return list(reversed(events)), start


def _origin(recorded: RecordedModule, value: ValueKey, name: str) -> str | None:
    origins = recorded.origins.get(value, {})
    return next((origin for axis, origin in origins.items() if axis_name(axis) == name), None)


def _has_axis(recorded: RecordedModule, value: ValueKey, name: str) -> bool:
    sharding = recorded.sharding(value)
    return sharding is not None and any(axis.name == name for dim in sharding.dims for axis in dim.axes)


def _annotation(recorded: RecordedModule, value: ValueKey, start: ValueKey, axis: str) -> Annotation | None:
    name = axis_name(axis)
    for holder in (start, value):
        origin = _origin(recorded, holder, name)
        if origin is not None:
            found = annotation_of(recorded, origin, holder)
            if found is not None:
                return found
    return None


def _step(recorded: RecordedModule, event: Event) -> Step:
    rule = recorded.rule(event.op)
    rule_text = None
    if rule is not None:
        printed = str(event.op.attributes["sdy.sharding_rule"])
        rule_text = printed[len(_RULE_PREFIX) : -1] if printed.startswith(_RULE_PREFIX) else printed
    source = event.source_end if event.source is None else f"{event.source_end} ({recorded.name(event.source)})"
    return Step(
        event.step, event.op.name, recorded.op_location(event.op), source,
        f"{event.target_end} ({recorded.name(event.target)})", rule_text,
    )  # fmt: skip
