"""Which unused ops Shardy's propagation erases, against jaxlib: one unused copy of each op kind.

For every op kind in the JAX corpus (after the C++ import pipeline), a copy
of one instance whose result nobody uses is inserted; after jaxlib's
`sdy-basic-propagate`, the copy is gone exactly when pysdy's
`may_be_erased_when_unused` says so.
"""

import functools

import pytest
from jaxlib.mlir import ir

from jax_corpus import corpus
from oracle import cpp_output
from pysdy.dialects.context import make_context
from pysdy.passes.propagation.dead_ops import may_be_erased_when_unused

MARK = "test_unused_copy"
SKIPPED = ("builtin.module", "func.func", "sdy.mesh", "sdy.data_flow_edge")


def _copyable(op: ir.Operation) -> bool:
    if op.name in SKIPPED or not op.results or op.has_trait(ir.IsTerminatorTrait):
        return False
    # Copies must sit directly in a function, and a value may feed only one data-flow edge.
    if op.parent.name != "func.func":
        return False
    return not any(use.owner.name == "sdy.data_flow_edge" for r in op.results for use in r.uses)


def _ops(module: ir.Module) -> list[ir.Operation]:
    ops = []
    module.operation.walk(lambda op: (ops.append(op.operation), ir.WalkResult.ADVANCE)[1])
    return ops


@functools.cache
def erased_by_cpp() -> dict[str, tuple[bool, bool]]:
    """op kind -> (C++ erased the unused copy, pysdy says it would be erased)."""
    verdicts: dict[str, tuple[bool, bool]] = {}
    for text in corpus().values():
        with make_context():
            module = ir.Module.parse(cpp_output(text, "sdy-import-pipeline"))
            copies = {}
            for op in _ops(module):
                if op.name in verdicts or op.name in copies or not _copyable(op):
                    continue
                copy = op.clone(ir.InsertionPoint(op))
                copy.attributes[MARK] = ir.UnitAttr.get()
                copies[op.name] = may_be_erased_when_unused(copy)
            propagated = ir.Module.parse(cpp_output(str(module), "sdy-basic-propagate"))
            survivors = {op.name for op in _ops(propagated) if MARK in op.attributes}
            for name, predicted in copies.items():
                verdicts[name] = (name not in survivors, predicted)
    return verdicts


def test_the_corpus_has_many_op_kinds_to_check():
    assert len(erased_by_cpp()) >= 40


@pytest.mark.parametrize("op_kind", sorted(erased_by_cpp()))
def test_unused_op_is_erased_exactly_when_cpp_erases_it(op_kind):
    cpp_erased, predicted = erased_by_cpp()[op_kind]
    assert predicted == cpp_erased
