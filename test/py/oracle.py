"""The C++ reference: jaxlib's bundled Shardy passes, used only to check pysdy's Python passes.

The C++ runs in a child process (child_process.py): an abort there fails the test that met it.
"""

from __future__ import annotations

import functools

from jaxlib.mlir import ir, passmanager

from child_process import in_child_process
from pysdy.dialects.context import make_context
from pysdy.passes.propagation.rules import create_rule, get_or_create_rule


def _ops_in_order(module: ir.Module) -> list[ir.Operation]:
    ops: list[ir.Operation] = []

    def visit(op):
        ops.append(op.operation)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return ops


def _rule_texts(module: ir.Module) -> list[tuple[str, str | None]]:
    texts = []
    for op in _ops_in_order(module):
        attrs = op.attributes
        rule = str(attrs["sdy.sharding_rule"]) if "sdy.sharding_rule" in attrs else None
        texts.append((op.name, rule))
    return texts


@functools.cache
def _context() -> ir.Context:
    """One context for every C++ run here: a fresh one costs more than many a run."""
    return make_context()


@in_child_process
def cpp_output(text: str, pipeline: str) -> str:
    """The module after jaxlib's C++ `builtin.module(<pipeline>)`; ir.MLIRError where the pipeline fails."""
    with _context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(f"builtin.module({pipeline})").run(module.operation)
        return str(module)


@in_child_process
def cpp_pass_pipeline(pipeline: str) -> str:
    """jaxlib's printed pass manager for `builtin.module(<pipeline>)`: the C++ passes the pipeline expands to."""
    with _context():
        return str(passmanager.PassManager.parse(f"builtin.module({pipeline})"))


@in_child_process
def cpp_rules(module_text: str, conservative: bool = False) -> list[tuple[str, str | None]]:
    """(op name, printed rule or None) for every op, as jaxlib's C++ registry writes them."""
    with _context():
        module = ir.Module.parse(module_text)
        option = "{conservative-propagation=true}" if conservative else ""
        passmanager.PassManager.parse(
            f"builtin.module(func.func(sdy-populate-op-sharding-rules{option}))"
        ).run(module.operation)
        return _rule_texts(module)


def python_rules(module_text: str, conservative: bool = False) -> list[tuple[str, str | None]]:
    """(op name, printed rule or None) for every op, as pysdy's registry builds them."""
    with make_context():
        module = ir.Module.parse(module_text)
        for op in _ops_in_order(module):
            get_or_create_rule(op, conservative, set_on_op=True)
        return _rule_texts(module)


def assert_rules_match(module_text: str, conservative: bool = False) -> None:
    """Fails with the first op whose pysdy rule differs from the C++ one."""
    expected = cpp_rules(module_text, conservative)
    actual = python_rules(module_text, conservative)
    assert [name for name, _ in actual] == [name for name, _ in expected]
    for (name, want), (_, got) in zip(expected, actual):
        assert got == want, f"{name}:\n  C++:    {want}\n  pysdy:  {got}\nin module:\n{module_text}"
