"""The C++ reference: jaxlib's bundled Shardy passes, used only to check pysdy's Python passes."""

from __future__ import annotations

from jaxlib.mlir import ir, passmanager

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


def cpp_rules(module_text: str, conservative: bool = False) -> list[tuple[str, str | None]]:
    """(op name, printed rule or None) for every op, as jaxlib's C++ registry writes them."""
    with make_context():
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
