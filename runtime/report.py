"""What a run did, for a person (aligned text) and for programs (JSON): shardings, memory, collectives, checks."""

from __future__ import annotations

import collections
import dataclasses
import json

from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.passes.common.func_attrs import arg_sharding_attrs, result_sharding_attrs
from pysdy.runtime.check import CheckResult
from pysdy.runtime.collectives import Collective, find_collectives
from pysdy.runtime.compile import CompiledModule
from pysdy.runtime.host_inputs import argument_name, result_name
from pysdy.runtime.module_info import main_function

_MEMORY_FIELDS = (
    ("argument", "argument_size_in_bytes"),
    ("output", "output_size_in_bytes"),
    ("alias", "alias_size_in_bytes"),
    ("temp", "temp_size_in_bytes"),
    ("generated_code", "generated_code_size_in_bytes"),
    ("peak", "peak_memory_in_bytes"),
)


@dataclasses.dataclass(frozen=True)
class ValueSharding:
    """One input or output of main: its name, type, sdy sharding after propagation and the HloSharding XLA used."""

    name: str
    type: str
    sdy_sharding: str | None
    hlo_sharding: str


@dataclasses.dataclass(frozen=True)
class Report:
    source: str
    route: str
    pipeline: str
    devices: tuple[str, ...]
    inputs: tuple[ValueSharding, ...]
    outputs: tuple[ValueSharding, ...]
    memory_per_device: dict[str, int]
    collectives: tuple[Collective, ...]
    notes: tuple[str, ...]
    check: CheckResult | None

    def to_json(self) -> dict:
        return {
            "source": self.source,
            "route": self.route,
            "pipeline": self.pipeline,
            "devices": list(self.devices),
            "inputs": [dataclasses.asdict(v) for v in self.inputs],
            "outputs": [dataclasses.asdict(v) for v in self.outputs],
            "memory_per_device_bytes": self.memory_per_device,
            "collectives": [c.to_json() for c in self.collectives],
            "collective_counts": dict(collections.Counter(c.kind for c in self.collectives)),
            "notes": list(self.notes),
            "check": None
            if self.check is None
            else {"reference": self.check.reference, "passed": self.check.passed, "mismatches": list(self.check.mismatches)},
        }

    def to_text(self) -> str:
        lines = [
            f"module:   {self.source}",
            f"route:    {self.route} ({self.pipeline}, then XLA)",
            f"devices:  {len(self.devices)} ({', '.join(self.devices)})",
            "",
            "shardings (sdy after propagation | HloSharding XLA compiled with):",
        ]
        width = max((len(v.name) + len(v.type) for v in self.inputs + self.outputs), default=0) + 2
        for value in self.inputs + self.outputs:
            label = f"{value.name} {value.type}"
            lines.append(f"  {label:<{width}} {value.sdy_sharding or '(none)'} | {value.hlo_sharding}")
        lines += ["", "memory per device:"]
        for name, size in self.memory_per_device.items():
            lines.append(f"  {name:<15} {bytes_text(size):>12}")
        counts = collections.Counter(c.kind for c in self.collectives)
        total = sum(c.sent_bytes for c in self.collectives)
        summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "none"
        lines += ["", f"collectives: {summary}; {bytes_text(total)} sent per device"]
        for c in self.collectives:
            lines.append(f"  {c.kind:<19} {c.shape:<24} groups {c.groups_text()}  sends {bytes_text(c.sent_bytes)}")
        if self.notes:
            lines += ["", "changed for XLA:"] + [f"  {note}" for note in self.notes]
        if self.check is not None:
            lines += ["", f"check against {self.check.reference}: {'passed' if self.check.passed else 'FAILED'}"]
            for index, problem in enumerate(self.check.mismatches):
                lines.append(f"  {result_name(index)}: {problem or 'equal'}")
        return "\n".join(lines) + "\n"


def bytes_text(size: int) -> str:
    """A byte count as a person reads it: `512 B`, `3.0 KiB`, `1.5 MiB`."""
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KiB"
    return f"{size / (1024 * 1024):.1f} MiB"


def _printed(attributes) -> list[str | None]:
    return [None if attribute is None else str(attribute) for attribute in attributes]


def _sdy_shardings(propagated_text: str) -> tuple[list[str | None], list[str | None]]:
    """main's argument and result shardings after pysdy's propagation, as sdy prints them."""
    with make_context():
        main = main_function(ir.Module.parse(propagated_text))
        return _printed(arg_sharding_attrs(main)), _printed(result_sharding_attrs(main))


def _values(names, specs, sdy, hlo) -> tuple[ValueSharding, ...]:
    return tuple(
        ValueSharding(name, spec.describe(), sdy_sharding, str(hlo_sharding))
        for name, spec, sdy_sharding, hlo_sharding in zip(names, specs, sdy, hlo)
    )


def memory_per_device(executable) -> dict[str, int]:
    """XLA's compiled memory statistics of an executable, per device: argument, output, alias, temp, generated code
    and peak bytes."""
    stats = executable.get_compiled_memory_stats()
    return {name: int(getattr(stats, field)) for name, field in _MEMORY_FIELDS}


def build_report(compiled: CompiledModule, source: str, check: CheckResult | None = None) -> Report:
    info = compiled.info
    sdy_args, sdy_results = _sdy_shardings(compiled.propagated_text)
    return Report(
        source=source,
        route=compiled.route,
        pipeline=compiled.pipeline,
        devices=tuple(f"{device.platform}:{device.id}" for device in compiled.devices),
        inputs=_values(
            [argument_name(i) for i in range(len(info.arguments))], info.arguments, sdy_args, compiled.parameter_shardings
        ),
        outputs=_values(
            [result_name(i) for i in range(len(info.results))], info.results, sdy_results, compiled.output_shardings
        ),
        memory_per_device=memory_per_device(compiled.executable),
        collectives=tuple(find_collectives(compiled.partitioned_hlo(), len(compiled.devices))),
        notes=tuple(compiled.notes),
        check=check,
    )


def report_json_text(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2) + "\n"
