"""For a tensor left replicated, the annotation that would shard it: its largest dimension on the mesh's axes that divide it."""

from __future__ import annotations

from pysdy.explanation.model import MeshView, TensorView


def replicated(tensor: TensorView) -> bool:
    return not any(tensor.dim_axes)


def shard_suggestion(tensor: TensorView, mesh: MeshView) -> tuple[str, str] | None:
    """`(sdy sharding, JAX PartitionSpec)` splitting the tensor's largest dimension over as many of the mesh's axes,
    largest first, as divide it evenly; None if no axis divides any dimension."""
    if not tensor.shape:
        return None
    best: tuple[int, int, list[str]] | None = None
    for dim, extent in enumerate(tensor.shape):
        axes, parts = [], 1
        for name, size in sorted(mesh.axes, key=lambda axis: -axis[1]):
            if size > 1 and extent % (parts * size) == 0:
                axes.append(name)
                parts *= size
        if axes and (best is None or (parts, extent) > (best[1], tensor.shape[best[0]])):
            best = (dim, parts, [name for name, _ in mesh.axes if name in axes])
    if best is None:
        return None
    dim, _, axes = best
    sdy_dims = ", ".join("{" + ", ".join(f'"{a}"' for a in axes) + "}" if d == dim else "{}" for d in range(len(tensor.shape)))
    entry = repr(axes[0]) if len(axes) == 1 else "(" + ", ".join(map(repr, axes)) + ")"
    spec = ", ".join(entry if d == dim else "None" for d in range(len(tensor.shape)))
    return f"#sdy.sharding<@{mesh.name}, [{sdy_dims}]>", f"P({spec})"
