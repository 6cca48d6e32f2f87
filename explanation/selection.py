"""Which values of an explanation a question is about: by name, by source line, by op."""

from __future__ import annotations

from pysdy.explanation.model import Explanation, TensorView


def tensors_named(explanation: Explanation, names: list[str]) -> tuple[list[TensorView], list[str]]:
    """The tensors called `names` (`%12`, `arg0` and `12` also match `%arg0` and `%12`), and the names matching none."""
    by_name = {tensor.name: tensor for tensor in explanation.tensors}
    found, missing = [], []
    for name in names:
        tensor = by_name.get(name) or by_name.get("%" + name)
        if tensor is None:
            missing.append(name)
        else:
            found.append(tensor)
    return found, missing


def tensors_at_line(explanation: Explanation, line: int) -> list[TensorView]:
    """The tensors whose defining op sits on `line` of its source (the user's Python file, or the .mlir file)."""
    return [t for t in explanation.tensors if t.location is not None and t.location.rsplit(":", 1)[-1] == str(line)]


def tensors_of_op(explanation: Explanation, op: str) -> list[TensorView]:
    """The results of every op called `op` (`stablehlo.dot_general`; `dot_general` matches it too)."""
    return [t for t in explanation.tensors if t.op is not None and (t.op == op or t.op.split(".", 1)[-1] == op)]
