"""What an explanation holds, as plain data: meshes, tensors with the chains behind their axes, reshards, collectives, memory.

Everything here is built from one pysdy propagation run (and, for the report,
one XLA compile per route) and read by the text, JSON and HTML renderings; none
of it refers to MLIR objects, so a rendering never reaches back into the IR.
Values are named as MLIR prints the input module (`%arg0`, `%12`; in a
function other than main, `@f:%3`); a value a pass made is named after the op
it came from (`%12/all_reduce`), or, with a location of its own, by its number
in the pipeline's output (`%40<reshard>`). Source positions read `file.py:line`.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class MeshView:
    """A mesh: its axes in order and the device at each position (row-major over the axes); `device_ids` is empty
    for a mesh too large to list."""

    name: str
    axes: tuple[tuple[str, int], ...]
    device_ids: tuple[int, ...]

    @property
    def size(self) -> int:
        total = 1
        for _, size in self.axes:
            total *= size
        return total


@dataclasses.dataclass(frozen=True)
class Annotation:
    """A sharding the user wrote, where an axis's chain starts.

    `kind` says what wrote it: `argument`, `result`, `sharding constraint`,
    `shard_map input`, `shard_map output` (JAX's names for Shardy's function
    inputs and outputs, `sdy.sharding_constraint` and `sdy.manual_computation`
    edges); `origin` is Shardy's origin name for it (`input: 0`,
    `constraint_2`, `mc_0_input: 1`).
    """

    kind: str
    origin: str
    value: str
    sharding: str
    location: str | None


@dataclasses.dataclass(frozen=True)
class Step:
    """One propagation step that carried an axis one hop: through `op`, from one of its operands or results to
    another, at step `index` of the run (Shardy's `step-N`)."""

    index: int
    op: str
    location: str | None
    source: str  # e.g. `operand-0 (%3)`
    target: str  # e.g. `result-0 (%4)`
    rule: str | None  # the op's sharding rule, e.g. `([i, k], [k, j])->([i, j]) {i=32, j=16, k=64}`


@dataclasses.dataclass(frozen=True)
class AxisChain:
    """How one axis came to shard one dimension of a value: the annotation it started from, then each step in
    order (the last step reaches the value). An annotated value's own axes have no steps."""

    dim: int
    axis: str
    annotation: Annotation | None
    steps: tuple[Step, ...]


@dataclasses.dataclass(frozen=True)
class TensorView:
    """A value of the program: its global shape and how it is cut.

    `dim_axes` lists, per dimension, the mesh axes that shard it, major first
    (a sub-axis as Shardy prints it, `x:(1)2`). `role` is `argument`,
    `result`, `intermediate` or `shard_map body` (a value of a manual
    computation's body, which each device holds its own of). A value without
    a sharding names the module's mesh when it has one: it is replicated.
    """

    name: str
    role: str
    shape: tuple[int, ...]
    dtype: str
    bytes: int
    mesh: str | None
    sharding: str | None
    dim_axes: tuple[tuple[str, ...], ...]
    location: str | None
    chains: tuple[AxisChain, ...] = ()
    op: str | None = None  # the op defining it (None for arguments and results)


@dataclasses.dataclass(frozen=True)
class Reshard:
    """A place where two shardings meet and propagation left the value to be resharded: the value as it is
    (`current`), the sharding `op` needs it in (`needed`), the annotations behind each, why propagation did
    not make them agree, and the bytes each device sends to get from one to the other."""

    value: str
    op: str
    location: str | None
    current: str
    needed: str
    current_annotations: tuple[Annotation, ...]
    needed_annotations: tuple[Annotation, ...]
    reason: str
    collectives: tuple[str, ...]
    bytes_per_device: int


@dataclasses.dataclass(frozen=True)
class CollectiveView:
    """A collective XLA's partitioner put in the compiled program, with the source position its metadata names and,
    where one matches it, the explanation of the reshard behind it."""

    kind: str
    name: str
    shape: str
    groups: tuple[tuple[int, ...], ...]
    sent_bytes: int
    location: str | None
    explanation: str | None


@dataclasses.dataclass(frozen=True)
class RouteFigures:
    """One way of compiling the program (pysdy's route or XLA's own) and what it costs per device."""

    route: str
    memory: dict[str, int]  # argument, output, alias, temp, peak: bytes per device, from XLA's memory stats
    collective_count: int
    collective_bytes: int


@dataclasses.dataclass(frozen=True)
class Explanation:
    """All of it, for one module."""

    title: str
    source: str
    meshes: tuple[MeshView, ...]
    tensors: tuple[TensorView, ...]
    reshards: tuple[Reshard, ...]
    collectives: tuple[CollectiveView, ...] = ()
    routes: tuple[RouteFigures, ...] = ()

    def mesh(self, name: str | None) -> MeshView | None:
        return next((mesh for mesh in self.meshes if mesh.name == name), None)
