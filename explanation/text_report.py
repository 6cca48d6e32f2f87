"""An explanation as text for a terminal: the module's summary, or the chains of chosen values; colour only when asked."""

from __future__ import annotations

from pysdy.explanation.model import Annotation, AxisChain, Explanation, Reshard, TensorView
from pysdy.explanation.suggestions import replicated, shard_suggestion
from pysdy.runtime.report import bytes_text

_REPLICATED_SHOWN = 5


class _Style:
    """ANSI colours, or nothing."""

    def __init__(self, colour: bool):
        self.colour = colour

    def _wrap(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.colour else text

    def heading(self, text: str) -> str:
        return self._wrap("1", text)

    def op(self, text: str) -> str:
        return self._wrap("36", text)

    def annotation(self, text: str) -> str:
        return self._wrap("32", text)

    def cost(self, text: str) -> str:
        return self._wrap("33", text)

    def quiet(self, text: str) -> str:
        return self._wrap("2", text)


def tensor_type(tensor: TensorView) -> str:
    return f"{tensor.dtype}[{','.join(map(str, tensor.shape))}]"


def annotation_text(annotation: Annotation | None) -> str:
    if annotation is None:
        return "no annotation found"
    where = f" at {annotation.location}" if annotation.location else ""
    label = annotation.value if annotation.value.startswith(annotation.kind) else f"{annotation.kind} {annotation.value}"
    return f"the {label} {annotation.sharding}{where} [{annotation.origin}]"


def summary_text(explanation: Explanation, colour: bool = False) -> str:
    """The module: its meshes, the reshards and collectives by cost, the largest replicated tensors, and where each
    argument's and result's axes come from."""
    style = _Style(colour)
    lines = [style.heading(f"module {explanation.title} ({explanation.source})")]
    for mesh in explanation.meshes:
        axes = " x ".join(f"{name}={size}" for name, size in mesh.axes)
        lines.append(f"mesh @{mesh.name}: {axes} ({mesh.size} devices)")
    lines += ["", style.heading("Reshards and collectives propagation leaves, costliest first (bytes each device sends):")]
    if not explanation.reshards:
        lines.append("  none: every op's operands and results agree")
    for number, reshard in enumerate(explanation.reshards, 1):
        lines += _reshard_lines(number, reshard, style)
    lines += ["", style.heading("Largest tensors left replicated:")]
    lines += _replicated_lines(explanation, style) or ["  none"]
    lines += ["", style.heading("Arguments and results:")]
    for tensor in explanation.tensors:
        if tensor.role in ("argument", "result"):
            lines.append(f"  {tensor.name} {tensor_type(tensor)} {tensor.sharding or '(no sharding)'}")
            for chain in tensor.chains:
                hops = f" through {len(chain.steps)} step{'s' if len(chain.steps) != 1 else ''}" if chain.steps else ""
                lines.append(f"      dim {chain.dim} on {chain.axis}: {style.annotation(annotation_text(chain.annotation))}{hops}")
    return "\n".join(lines) + "\n"


def _reshard_lines(number: int, reshard: Reshard, style: _Style) -> list[str]:
    where = f" at {reshard.location}" if reshard.location else ""
    collectives = ", ".join(reshard.collectives) or "no collective"
    lines = [
        f"  {number}. {style.cost(bytes_text(reshard.bytes_per_device))} {collectives}: {reshard.value} "
        f"for {style.op(reshard.op)}{where}",
        f"       as it is:  {reshard.current}",
    ]
    lines += [f"         from {style.annotation(annotation_text(a))}" for a in reshard.current_annotations]
    lines.append(f"       as needed: {reshard.needed}")
    lines += [f"         from {style.annotation(annotation_text(a))}" for a in reshard.needed_annotations]
    lines.append(f"       why: {reshard.reason}")
    return lines


def _replicated_lines(explanation: Explanation, style: _Style) -> list[str]:
    candidates = sorted(
        (t for t in explanation.tensors if replicated(t) and t.shape and t.mesh is not None), key=lambda t: -t.bytes
    )
    lines = []
    for tensor in candidates[:_REPLICATED_SHOWN]:
        mesh = explanation.mesh(tensor.mesh)
        suggestion = None if mesh is None else shard_suggestion(tensor, mesh)
        where = f" at {tensor.location}" if tensor.location else ""
        lines.append(f"  {tensor.name} {tensor_type(tensor)} {style.cost(bytes_text(tensor.bytes))}{where}")
        if suggestion is not None:
            sdy, spec = suggestion
            lines.append(f"      would be sharded by with_sharding_constraint(..., {spec}) (sdy: {sdy})")
    return lines


def value_text(tensor: TensorView, colour: bool = False) -> str:
    """One value: its sharding and, per axis, the annotation it came from and each step that carried it."""
    style = _Style(colour)
    defined = f" = {style.op(tensor.op)}" if tensor.op else f" ({tensor.role})"
    where = f" at {tensor.location}" if tensor.location else ""
    lines = [style.heading(f"{tensor.name}{defined}") + f" {tensor_type(tensor)}{where}"]
    lines.append(f"  sharding {tensor.sharding or '(none: replicated)'}")
    if not tensor.chains:
        lines.append("  no axis shards it")
    for chain in tensor.chains:
        lines += _chain_lines(chain, style)
    return "\n".join(lines) + "\n"


def _chain_lines(chain: AxisChain, style: _Style) -> list[str]:
    lines = [f"  dim {chain.dim} on {chain.axis}, from {style.annotation(annotation_text(chain.annotation))}"]
    for step in chain.steps:
        where = f" at {step.location}" if step.location else ""
        rule = f"  {style.quiet(step.rule)}" if step.rule else ""
        lines.append(f"      step {step.index}: {style.op(step.op)}{where}: {step.source} -> {step.target}{rule}")
    return lines
