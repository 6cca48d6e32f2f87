"""The explanation as one self-contained HTML page (jinja2, autoescaped, nothing fetched from the network)."""

from __future__ import annotations

import math

import jinja2

from pysdy.explanation.model import CollectiveView, Explanation, MeshView, TensorView
from pysdy.explanation.suggestions import replicated, shard_suggestion
from pysdy.explanation.text_report import annotation_text, tensor_type
from pysdy.runtime.report import bytes_text
from pysdy.explanation.tiles import tile_devices, tile_grid

# Well-separated colours for devices, cycled beyond ten.
PALETTE = (
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
)  # fmt: skip
_DRAWN_MESH_DEVICES = 512  # meshes (and collectives' groups) larger than this are listed, not drawn
_DRAWN_TILES = 1024
_INTERMEDIATES_DRAWN = 12
_MEMORY_FIELDS = ("argument", "output", "temp", "peak")
_TENSOR_WIDTH = 360
_SCALAR_WIDTH = 60
_CELL = 34

_ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("pysdy.explanation", "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)


def device_colour(device: int) -> str:
    return PALETTE[device % len(PALETTE)]


def text_colour(fill: str) -> str:
    """Dark text on a light fill, white on a dark one (by the fill's relative luminance)."""
    red, green, blue = (int(fill[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return "#1a1a1a" if 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.55 else "#ffffff"


def devices_text(devices: tuple[int, ...]) -> str:
    """`0,4` or, for a run of three or more consecutive ids, `0–7`."""
    if len(devices) >= 3 and list(devices) == list(range(devices[0], devices[-1] + 1)):
        return f"{devices[0]}–{devices[-1]}"
    return ",".join(map(str, devices))


def drawn_tensors(explanation: Explanation) -> list[TensorView]:
    """Every argument and result, the values reshards touch, and the largest other values."""
    reshaped = {r.value for r in explanation.reshards}
    chosen = [t for t in explanation.tensors if t.role in ("argument", "result") or t.name in reshaped]
    others = sorted((t for t in explanation.tensors if t not in chosen and t.shape), key=lambda t: -t.bytes)
    chosen += others[:_INTERMEDIATES_DRAWN]
    order = {id(t): i for i, t in enumerate(explanation.tensors)}
    return sorted(chosen, key=lambda t: order[id(t)])


def _mesh_grid(mesh: MeshView) -> tuple[int, int]:
    """Rows and columns of a mesh's picture: the first axis down, the others across."""
    if not mesh.axes:
        return 1, max(1, len(mesh.device_ids))
    rows = mesh.axes[0][1] if len(mesh.axes) > 1 else 1
    return rows, max(1, mesh.size // rows)


def _mesh_view(mesh: MeshView) -> dict:
    rows, columns = _mesh_grid(mesh)
    drawn = 0 < len(mesh.device_ids) <= _DRAWN_MESH_DEVICES
    cells = []
    if drawn:
        for position, device in enumerate(mesh.device_ids):
            row, column = divmod(position, columns)
            colour = device_colour(device)
            cells.append({
                "x": column * _CELL, "y": row * _CELL, "device": device, "colour": colour, "text": text_colour(colour),
            })  # fmt: skip
    down = f"{mesh.axes[0][0]}={mesh.axes[0][1]}" if len(mesh.axes) > 1 else ""
    return {
        "name": mesh.name,
        "axes": " × ".join(f"{name}={size}" for name, size in mesh.axes) or "no axes",
        "down": down,
        "left": 7 * len(down) + 10 if down else 0,
        "across": " × ".join(f"{name}={size}" for name, size in (mesh.axes[1:] if len(mesh.axes) > 1 else mesh.axes)),
        "size": mesh.size,
        "drawn": drawn,
        "width": columns * _CELL,
        "height": rows * _CELL,
        "cells": cells,
    }


def _tile_layout(grid: tuple[int, ...]) -> tuple[int, int]:
    """Rows and columns of a tensor's picture: dim 0's tiles down, the other dimensions' tiles across."""
    if len(grid) < 2:
        return 1, (grid[0] if grid else 1)
    return grid[0], math.prod(grid[1:])


def _tensor_view(tensor: TensorView, explanation: Explanation) -> dict:
    mesh = explanation.mesh(tensor.mesh)
    grid = tile_grid(tensor, mesh)
    devices = tile_devices(tensor, mesh)
    rows, columns = _tile_layout(grid)
    extent_down = tensor.shape[0] if len(tensor.shape) >= 2 else 1
    extent_across = math.prod(tensor.shape[1:]) if len(tensor.shape) >= 2 else (tensor.shape[0] if tensor.shape else 1)
    picture_width = _TENSOR_WIDTH if tensor.shape else _SCALAR_WIDTH
    height = max(40, min(240, round(picture_width * extent_down / max(1, extent_across))))
    tiles = []
    if rows * columns <= _DRAWN_TILES:
        width, tile_height = picture_width / columns, height / rows
        for tile, holders in devices.items():
            if len(grid) >= 2:
                row, column = tile[0], _flat(tile[1:], grid[1:])
            else:
                row, column = 0, (tile[0] if tile else 0)
            colour = device_colour(holders[0]) if holders else "#999999"
            tiles.append({
                "index": ",".join(map(str, tile)), "devices": ",".join(map(str, holders)),
                "label": devices_text(holders) if holders else _nobody_named(tensor),
                "colour": colour, "text": text_colour(colour),
                "x": column * width, "y": row * tile_height, "width": width, "height": tile_height,
            })  # fmt: skip
    suggestion = shard_suggestion(tensor, mesh) if mesh is not None and replicated(tensor) and tensor.shape else None
    return {
        "tensor": tensor,
        "type": tensor_type(tensor),
        "bytes": bytes_text(tensor.bytes),
        "grid": " × ".join(map(str, grid)) or "1",
        "caption": "rows: dim 0's tiles; across: the other dimensions' tiles in order" if len(grid) >= 3 else "",
        "width": picture_width,
        "height": height,
        "tiles": tiles,
        "chains": [
            {"chain": c, "annotation": annotation_text(c.annotation)} for c in tensor.chains
        ],
        "suggestion": suggestion,
    }


def _nobody_named(tensor: TensorView) -> str:
    """A tile's label when no device ids are known for it."""
    if tensor.role == "shard_map body":
        return "each device its own"
    return "devices not listed" if tensor.mesh is not None else "every device"


def _flat(index: tuple[int, ...], sizes: tuple[int, ...]) -> int:
    flat = 0
    for value, size in zip(index, sizes):
        flat = flat * size + value
    return flat


def _collective_mesh(collective: CollectiveView, meshes: tuple[MeshView, ...]) -> MeshView | None:
    """The first drawable mesh holding every device of the collective's groups."""
    grouped = {device for group in collective.groups for device in group}
    return next(
        (m for m in meshes if 0 < len(m.device_ids) <= _DRAWN_MESH_DEVICES and grouped <= set(m.device_ids)), None
    )


def _collective_view(collective: CollectiveView, meshes: tuple[MeshView, ...]) -> dict:
    group_of = {device: number for number, group in enumerate(collective.groups) for device in group}
    mesh = _collective_mesh(collective, meshes)
    cells = []
    if mesh is not None:
        _, columns = _mesh_grid(mesh)
        for position, device in enumerate(mesh.device_ids):
            row, column = divmod(position, columns)
            number = group_of.get(device)
            colour = "#eeeeee" if number is None else PALETTE[number % len(PALETTE)]
            cells.append({
                "x": column * 22, "y": row * 22, "device": device, "colour": colour, "text": text_colour(colour),
                "group": "" if number is None else str(number),
            })  # fmt: skip
    rows, columns = _mesh_grid(mesh) if mesh is not None else (0, 0)
    return {
        "collective": collective,
        "mesh": mesh.name if mesh is not None else "",
        "bytes": bytes_text(collective.sent_bytes),
        "groups": ";".join(",".join(map(str, g)) for g in collective.groups),
        "groups_text": " ".join("{" + ",".join(map(str, g)) + "}" for g in collective.groups),
        "cells": cells,
        "width": columns * 22,
        "height": rows * 22,
    }


def _memory_chart(explanation: Explanation) -> dict | None:
    """Bars of bytes per device, one group per route and one bar per field, on one scale from 0 to the largest."""
    if not explanation.routes:
        return None
    largest = max((r.memory.get(f, 0) for r in explanation.routes for f in _MEMORY_FIELDS), default=0) or 1
    bar, spacing, plot_height, left, top = 30, 4, 200, 84, 20
    group_width = len(_MEMORY_FIELDS) * (bar + spacing) - spacing
    widest_label = 7 * max(len(r.route) for r in explanation.routes)  # 7px per character of the 11px monospace font
    between = max(40, widest_label - group_width + 20)
    bars, groups = [], []
    for number, route in enumerate(explanation.routes):
        start = left + number * (group_width + between)
        groups.append({"route": route.route, "x": start + group_width / 2})
        for index, field in enumerate(_MEMORY_FIELDS):
            value = route.memory.get(field, 0)
            height = plot_height * value / largest
            bars.append({
                "route": route.route, "field": field, "bytes": value, "label": bytes_text(value),
                "x": start + index * (bar + spacing), "y": top + plot_height - height, "width": bar, "height": height,
                "colour": PALETTE[index],
            })  # fmt: skip
    ticks = [
        {"y": top + plot_height * (1 - share), "label": bytes_text(round(largest * share))} for share in (0, 0.5, 1)
    ]
    plot_width = len(explanation.routes) * (group_width + between)
    return {
        "bars": bars, "groups": groups, "width": left + max(plot_width, 110 * len(_MEMORY_FIELDS)) + 20,
        "height": top + plot_height + 60, "base": top + plot_height, "left": left, "top": top, "ticks": ticks,
        "legend": [{"field": f, "colour": PALETTE[i], "x": left + i * 110} for i, f in enumerate(_MEMORY_FIELDS)],
    }  # fmt: skip


def render_html(explanation: Explanation) -> str:
    """The report, one HTML file with its styles, pictures and script inline."""
    return _ENVIRONMENT.get_template("report.html.j2").render(
        explanation=explanation,
        meshes=[_mesh_view(m) for m in explanation.meshes],
        tensors=[_tensor_view(t, explanation) for t in drawn_tensors(explanation)],
        reshards=[
            {"reshard": r, "bytes": bytes_text(r.bytes_per_device),
             "current": [annotation_text(a) for a in r.current_annotations],
             "needed": [annotation_text(a) for a in r.needed_annotations]}
            for r in sorted(explanation.reshards, key=lambda r: -r.bytes_per_device)
        ],  # fmt: skip
        collectives=[_collective_view(c, explanation.meshes) for c in explanation.collectives],
        memory=_memory_chart(explanation),
        routes=[
            {"route": r.route, "memory": {f: bytes_text(r.memory.get(f, 0)) for f in _MEMORY_FIELDS},
             "count": r.collective_count, "bytes": bytes_text(r.collective_bytes)}
            for r in explanation.routes
        ],  # fmt: skip
        fields=_MEMORY_FIELDS,
        total_reshard_bytes=bytes_text(sum(r.bytes_per_device for r in explanation.reshards)),
    )
