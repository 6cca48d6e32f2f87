"""The Python face of an explanation: prints readably in a terminal, renders itself in a notebook, saves as HTML."""

from __future__ import annotations

import dataclasses
import sys

from pysdy.explanation.build import explain_text
from pysdy.explanation.model import Explanation, TensorView
from pysdy.explanation.selection import tensors_at_line, tensors_named, tensors_of_op
from pysdy.explanation.text_report import summary_text, value_text


class ValueExplanation:
    """One value: its sharding and the chain behind each of its axes."""

    def __init__(self, tensor: TensorView, explanation: Explanation):
        self.tensor = tensor
        self._explanation = explanation

    def __str__(self) -> str:
        return value_text(self.tensor)

    def __repr__(self) -> str:
        return f"<ValueExplanation of {self.tensor.name}: {self.tensor.sharding or 'no sharding'}>"

    def show(self) -> None:
        """Prints the chains, in colour on a terminal."""
        sys.stdout.write(value_text(self.tensor, sys.stdout.isatty()))

    def _repr_html_(self) -> str:
        from pysdy.explanation.html_report import render_html

        reshards = tuple(r for r in self._explanation.reshards if r.value == self.tensor.name)
        return render_html(dataclasses.replace(self._explanation, tensors=(self.tensor,), reshards=reshards, collectives=()))


class ModuleExplanation:
    """A module's explanation: `print` it for the summary, ask `value("%3")` for one value's chains, show it in a
    notebook or `save_html` it for the report."""

    def __init__(self, explanation: Explanation):
        self.data = explanation

    def value(self, name: str) -> ValueExplanation:
        found, missing = tensors_named(self.data, [name])
        if missing:
            raise KeyError(f"no value named {name!r} in the module")
        return ValueExplanation(found[0], self.data)

    def at_line(self, line: int) -> list[ValueExplanation]:
        """The values made on `line` of the user's source (or of the .mlir file, for a module without locations)."""
        return [ValueExplanation(t, self.data) for t in tensors_at_line(self.data, line)]

    def of_op(self, op: str) -> list[ValueExplanation]:
        return [ValueExplanation(t, self.data) for t in tensors_of_op(self.data, op)]

    def __str__(self) -> str:
        return summary_text(self.data)

    def __repr__(self) -> str:
        return f"<ModuleExplanation of {self.data.title}: {len(self.data.tensors)} values, {len(self.data.reshards)} reshards>"

    def show(self) -> None:
        """Prints the summary, in colour on a terminal."""
        sys.stdout.write(summary_text(self.data, sys.stdout.isatty()))

    def html(self) -> str:
        from pysdy.explanation.html_report import render_html

        return render_html(self.data)

    def _repr_html_(self) -> str:
        return self.html()

    def save_html(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as out:
            out.write(self.html())


def explain(module_text: str, source_name: str = "<module>") -> ModuleExplanation:
    """Explains a StableHLO module's shardings (see `pysdy-explain`); raises ExplainInputError on a bad module."""
    return ModuleExplanation(explain_text(module_text, source_name))
