"""The collectives in a partitioned HLO module's text: kind, replica groups (explicit or iota), bytes per device.

Bytes are per device, from the shapes in the text: `operand_bytes` is the
buffer each device contributes, `sent_bytes` what each device sends under a
ring algorithm, (g-1)/g of the data for a group of g (twice that for an
all-reduce: reduce-scatter then all-gather); a collective-permute sends its
whole operand from each source.
"""

from __future__ import annotations

import dataclasses
import math
import re

import numpy as np

KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute", "collective-broadcast")
_ELEMENT_BYTES = {
    "pred": 1, "s4": 1, "u4": 1, "s8": 1, "u8": 1, "f8e4m3fn": 1, "f8e5m2": 1,
    "s16": 2, "u16": 2, "f16": 2, "bf16": 2,
    "s32": 4, "u32": 4, "f32": 4,
    "s64": 8, "u64": 8, "f64": 8, "c64": 8,
    "c128": 16,
}  # fmt: skip
_INSTRUCTION = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+) = (.+?) ([a-z][\w\-]*)\((.*?)\)(.*)$")
_ARRAY_SHAPE = re.compile(r"\b([a-z]\w*)\[([\d,]*)\]")
_OPERAND = re.compile(r"%([\w.\-]+)")
_EXPLICIT_GROUPS = re.compile(r"(?:replica_groups|source_target_pairs)=\{((?:\{[\d,]*\},?)*)\}")
_IOTA_GROUPS = re.compile(r"replica_groups=\[([\d,]+)\]<=\[([\d,]+)\](?:T\(([\d,]+)\))?")
# XLA's mesh spelling (jaxlib 0.10 on): `mesh['a'=4,'b'=2] {'a'}`, a group for each value of the axes not listed;
# the mesh's devices in iota order unless `, device_ids=([dims]T(perm))` says otherwise.
_MESH_GROUPS = re.compile(
    r"replica_groups=mesh\[([^\]]*)\](?:, device_ids=\(\[([\d,]+)\](?:T\(([\d,]+)\))?\))? \{([^}]*)\}"
)
_MESH_AXIS = re.compile(r"'([^']+)'=(\d+)")


@dataclasses.dataclass(frozen=True)
class Collective:
    """One collective op of the partitioned program."""

    kind: str
    name: str
    shape: str
    groups: tuple[tuple[int, ...], ...]
    operand_bytes: int
    sent_bytes: int
    location: str | None = None  # `file:line` of the source op XLA's metadata names, when the module had locations

    def groups_text(self) -> str:
        joiner = "->" if self.kind == "collective-permute" else ","
        return "{" + ",".join("{" + joiner.join(map(str, g)) + "}" for g in self.groups) + "}"

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "name": self.name,
            "shape": self.shape,
            "groups": [list(g) for g in self.groups],
            "operand_bytes_per_device": self.operand_bytes,
            "sent_bytes_per_device": self.sent_bytes,
            "location": self.location,
        }


def shape_bytes(shape: str) -> int:
    """Bytes of an HLO shape's arrays (a tuple's elements added up); tokens and unknown types count 0."""
    total = 0
    for element, dims in _ARRAY_SHAPE.findall(shape):
        if element in _ELEMENT_BYTES:
            total += _ELEMENT_BYTES[element] * math.prod(int(d) for d in dims.split(",") if d)
    return total


def iota_groups(group_dims: str, reshape_dims: str, transpose: str | None) -> tuple[tuple[int, ...], ...]:
    """`[G,S]<=[dims]T(perm)`: iota over prod(dims) devices, reshaped to dims, transposed, cut into G groups of S."""
    dims = [int(d) for d in reshape_dims.split(",")]
    devices = np.arange(math.prod(dims)).reshape(dims)
    if transpose:
        devices = devices.transpose([int(p) for p in transpose.split(",")])
    shape = [int(d) for d in group_dims.split(",")]
    return tuple(tuple(int(d) for d in row) for row in devices.reshape(shape[0], -1))


def mesh_groups(
    axes: str, grouped: str, device_dims: str | None = None, device_transpose: str | None = None
) -> tuple[tuple[int, ...], ...]:
    """`mesh[axes] {grouped}`: the mesh's devices (iota, or the iota over `device_dims` transposed by
    `device_transpose`) laid out row-major over its axes; one group per value of the other axes, its devices
    ordered by the grouped axes as listed."""
    names = [name for name, _ in _MESH_AXIS.findall(axes)]
    sizes = [int(size) for _, size in _MESH_AXIS.findall(axes)]
    listed = re.findall(r"'([^']+)'", grouped)
    if not names or any(name not in names for name in listed):
        raise ValueError(f"unknown replica groups: mesh[{axes}] {{{grouped}}}")
    devices = np.arange(math.prod(sizes))
    if device_dims is not None:
        devices = devices.reshape([int(d) for d in device_dims.split(",")])
        if device_transpose:
            devices = devices.transpose([int(p) for p in device_transpose.split(",")])
    inner = [names.index(name) for name in listed]
    order = [axis for axis in range(len(names)) if axis not in inner] + inner
    devices = devices.reshape(sizes).transpose(order)
    return tuple(tuple(int(d) for d in row) for row in devices.reshape(-1, math.prod(sizes[a] for a in inner)))


def _groups(attributes: str) -> tuple[tuple[int, ...], ...]:
    mesh = _MESH_GROUPS.search(attributes)
    if mesh:
        axes, device_dims, device_transpose, grouped = mesh.groups()
        return mesh_groups(axes, grouped, device_dims, device_transpose)
    if "replica_groups=mesh" in attributes:
        raise ValueError(f"unknown replica groups in: {attributes}")
    iota = _IOTA_GROUPS.search(attributes)
    if iota:
        return iota_groups(*iota.groups())
    explicit = _EXPLICIT_GROUPS.search(attributes)
    if not explicit:
        return ()
    return tuple(tuple(int(d) for d in g.split(",") if d) for g in re.findall(r"\{([\d,]*)\}", explicit.group(1)))


def _sent_bytes(kind: str, operand_bytes: int, result_bytes: int, group_size: int) -> int:
    if kind == "collective-permute":
        return operand_bytes
    if group_size <= 1:
        return 0
    share = (group_size - 1) / group_size
    if kind == "all-reduce":
        return round(2 * share * operand_bytes)
    if kind == "all-gather":
        return round(share * result_bytes)
    return round(share * operand_bytes)


def find_collectives(hlo_text: str, device_count: int) -> list[Collective]:
    """Every collective (async `-start` forms included, `-done` halves not) in the order the text lists them;
    empty replica groups mean one group of all `device_count` devices."""
    shapes: dict[str, str] = {}
    found = []
    frames = _stack_frames(hlo_text)
    for line in hlo_text.splitlines():
        match = _INSTRUCTION.match(line)
        if not match:
            continue
        name, shape, opcode, operands, attributes = match.groups()
        shapes[name] = shape
        kind = opcode.removesuffix("-start")
        if kind not in KINDS:
            continue
        operand_bytes = sum(shape_bytes(shapes.get(o, "")) for o in _OPERAND.findall(operands))
        result_bytes = shape_bytes(shape)
        if opcode.endswith("-start") and kind != "all-reduce":
            # An async start's result is a tuple of (operands, results[, scratch]); its last array is the result.
            arrays = _ARRAY_SHAPE.findall(shape)
            result_bytes = shape_bytes(f"{arrays[-1][0]}[{arrays[-1][1]}]") if arrays else 0
        groups = _groups(attributes) or (tuple(range(device_count)),)
        group_size = len(groups[0]) if groups and kind != "collective-permute" else 0
        sent = _sent_bytes(kind, operand_bytes, result_bytes, group_size)
        found.append(Collective(kind, name, shape, groups, operand_bytes, sent, _location(attributes, frames)))
    return found


# The source position in an instruction's metadata: `source_file="f.py" source_line=7`, or (jaxlib 0.10 on) a
# `stack_frame_id=N` into the module's tables, printed after its instructions' computations begin.
_SOURCE = re.compile(r'source_file="([^"]*)" source_line=(\d+)')
_FRAME = re.compile(r"stack_frame_id=(\d+)")
_TABLE_ROW = re.compile(r"^(\d+) (.*)$")
_FIELD = re.compile(r"(\w+)=(\d+)")


def _stack_frames(hlo_text: str) -> dict[int, str]:
    """Stack frame id -> `file:line` of its innermost position, from the module's FileNames, FileLocations and
    StackFrames tables."""
    tables: dict[str, dict[int, str]] = {}
    current = None
    for line in hlo_text.splitlines():
        if line in ("FileNames", "FunctionNames", "FileLocations", "StackFrames"):
            current = tables.setdefault(line, {})
            continue
        row = _TABLE_ROW.match(line) if current is not None else None
        if row is None:
            current = None if not line.strip() else current
            continue
        current[int(row.group(1))] = row.group(2)
    files = {i: name.strip('"') for i, name in tables.get("FileNames", {}).items()}
    positions = {}
    for i, row in tables.get("FileLocations", {}).items():
        fields = dict((k, int(v)) for k, v in _FIELD.findall(row))
        positions[i] = f"{files.get(fields.get('file_name_id'), '?')}:{fields.get('line', 0)}"
    frames = {}
    for i, row in tables.get("StackFrames", {}).items():
        fields = dict((k, int(v)) for k, v in _FIELD.findall(row))
        if fields.get("file_location_id") in positions:
            frames[i] = positions[fields["file_location_id"]]
    return frames


def _location(attributes: str, frames: dict[int, str]) -> str | None:
    source = _SOURCE.search(attributes)
    if source is not None:
        return f"{source.group(1)}:{source.group(2)}"
    frame = _FRAME.search(attributes)
    return None if frame is None else frames.get(int(frame.group(1)))


_COMPUTATION = re.compile(r"^(ENTRY )?%?([\w.\-]+) \(.*\{$")
_LOOP = re.compile(r"\bbody=%([\w.\-]+)")
_TRIP_COUNT = re.compile(r'"known_trip_count":\{"n":"(\d+)"\}')
_CALLED = re.compile(r"(?:condition|to_apply|calls|true_computation|false_computation)=%([\w.\-]+)")
_BRANCHES = re.compile(r"branch_computations=\{([^}]*)\}")


def sent_bytes_per_run(hlo_text: str, device_count: int) -> int:
    """The bytes each device sends in one run of the program: each collective's `sent_bytes` times the number of
    times its computation runs (a while body's known trip count, 1 where XLA does not know it; a conditional's
    every branch counted, an upper bound)."""
    bodies: dict[str, list[str]] = {}
    entry = None
    name = None
    for line in hlo_text.splitlines():
        header = _COMPUTATION.match(line)
        if header:
            name = header.group(2)
            bodies[name] = []
            entry = name if header.group(1) else entry
        elif line.startswith("}"):
            name = None
        elif name is not None:
            bodies[name].append(line)
    runs: dict[str, int] = {}

    def visit(computation: str, times: int) -> None:
        runs[computation] = runs.get(computation, 0) + times
        for line in bodies.get(computation, ()):
            loop = _LOOP.search(line)
            if loop:
                trips = _TRIP_COUNT.search(line)
                visit(loop.group(1), times * (int(trips.group(1)) if trips else 1))
            for called in _CALLED.findall(line):
                visit(called, times)
            for branches in _BRANCHES.findall(line):
                for branch in re.findall(r"%([\w.\-]+)", branches):
                    visit(branch, times)

    if entry is None:
        return 0
    visit(entry, 1)
    return sum(
        runs.get(computation, 0) * sum(c.sent_bytes for c in find_collectives("\n".join(lines), device_count))
        for computation, lines in bodies.items()
    )
