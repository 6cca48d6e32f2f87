"""Which unused ops Shardy's propagation erases, against jaxlib: one unused copy of each op kind.

For every op kind in the JAX corpus (after the C++ import pipeline), a copy
of one instance whose result nobody uses is inserted; after jaxlib's
`sdy-basic-propagate`, the copy is gone exactly when pysdy's sharding graph
marks it erasable (what pysdy's propagation then erases).
"""

import functools

import pytest
from jaxlib.mlir import ir

from jax_corpus import corpus
from oracle import cpp_output
from pysdy.dialects.context import make_context
from pysdy.passes.propagation.sharding_graph import ShardingGraph

MARK = "test_unused_copy"
SKIPPED = ("builtin.module", "func.func", "sdy.mesh", "sdy.data_flow_edge")


def _copyable(op: ir.Operation) -> bool:
    if op.name in SKIPPED or not op.results or op.has_trait(ir.IsTerminatorTrait):
        return False
    # Copies must sit directly in a function, and a value may feed only one data-flow edge.
    if op.parent.name != "func.func":
        return False
    return not any(use.owner.name == "sdy.data_flow_edge" for r in op.results for use in r.uses)


def _erasable(module: ir.Module, ops) -> list[bool]:
    """Whether pysdy's propagation erases each of `ops` of `module` once its results are unused."""
    graph = ShardingGraph(module.operation, conservative=False)
    return [graph.nodes[graph.node_of(op)].erasable for op in ops]


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
                copies[op.name] = copy
            propagated = ir.Module.parse(cpp_output(str(module), "sdy-basic-propagate"))
            copies = dict(zip(copies, _erasable(module, list(copies.values()))))
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


# Unused ops with regions or of sdy's own, each marked: the corpus has none unused (their results feed edges).
REGION_OPS = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<i1>, %arg2: tensor<i32>,
                %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0:2 = stablehlo.while(%i = %arg2, %v = %arg0) : tensor<i32>, tensor<8xf32> attributes {mark = "pure while"}
    cond {
      %c = stablehlo.compare LT, %i, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %n = stablehlo.negate %v : tensor<8xf32>
      stablehlo.return %i, %n : tensor<i32>, tensor<8xf32>
    }
  %1:2 = stablehlo.while(%i = %arg2, %v = %arg0) : tensor<i32>, tensor<8xf32> attributes {mark = "effectful while"}
    cond {
      %c = stablehlo.compare LT, %i, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %n = stablehlo.custom_call @effect(%v) {has_side_effect = true} : (tensor<8xf32>) -> tensor<8xf32>
      stablehlo.return %i, %n : tensor<i32>, tensor<8xf32>
    }
  %2 = "stablehlo.if"(%arg1) ({
    stablehlo.return %arg0 : tensor<8xf32>
  }, {
    %n = stablehlo.abs %arg0 : tensor<8xf32>
    stablehlo.return %n : tensor<8xf32>
  }) {mark = "pure if"} : (tensor<i1>) -> tensor<8xf32>
  %3 = "stablehlo.case"(%arg2) ({
    stablehlo.return %arg0 : tensor<8xf32>
  }) {mark = "pure case"} : (tensor<i32>) -> tensor<8xf32>
  %4 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<4xf32>) {
    %n = stablehlo.negate %a : tensor<4xf32>
    sdy.return %n : tensor<4xf32>
  } {mark = "pure manual computation"} : (tensor<8xf32>) -> tensor<8xf32>
  %5 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<4xf32>) {
    %n = "stablehlo.all_reduce"(%a) ({
      ^bb0(%l: tensor<f32>, %r: tensor<f32>):
        %s = stablehlo.add %l, %r : tensor<f32>
        stablehlo.return %s : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %n : tensor<4xf32>
  } {mark = "all-reducing manual computation"} : (tensor<8xf32>) -> tensor<8xf32>
  %6 = sdy.named_computation<"body">(%arg0) (%a: tensor<8xf32>) {
    sdy.return %a : tensor<8xf32>
  } {mark = "pure named computation"} : (tensor<8xf32>) -> tensor<8xf32>
  %7 = "stablehlo.optimization_barrier"(%arg0) {mark = "optimization barrier"} : (tensor<8xf32>) -> tensor<8xf32>
  %8 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD {mark = "propagation barrier"} : tensor<8xf32>
  %9 = sdy.all_gather [{"x"}] %arg3 out_sharding=<@mesh, [{}]> {mark = "all_gather"} : tensor<8xf32>
  %10 = sdy.constant {mark = "constant"} dense<1.0> : tensor<8xf32>
  %11 = stablehlo.constant dense<0.0> : tensor<f32>
  %12 = stablehlo.reduce(%arg0 init: %11) across dimensions = [0] {mark = "effectful reduce"} : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    reducer(%l: tensor<f32>, %r: tensor<f32>) {
      %s = stablehlo.custom_call @effect(%l, %r) {has_side_effect = true} : (tensor<f32>, tensor<f32>) -> tensor<f32>
      stablehlo.return %s : tensor<f32>
    }
  return %arg0 : tensor<8xf32>
}
"""


def _marks(module: ir.Module) -> dict[str, ir.Operation]:
    return {ir.StringAttr(op.attributes["mark"]).value: op for op in _ops(module) if "mark" in op.attributes}


def test_unused_region_and_sdy_ops_are_erased_exactly_when_cpp_erases_them():
    with make_context():
        module = ir.Module.parse(REGION_OPS)
        marks = _marks(module)
        predicted = dict(zip(marks, _erasable(module, list(marks.values()))))
        survivors = set(_marks(ir.Module.parse(cpp_output(REGION_OPS, "sdy-basic-propagate"))))
    assert len(predicted) == 12
    assert {mark: mark not in survivors for mark in predicted} == predicted
    # Both verdicts occur, so neither an always-erase nor a never-erase rule passes.
    assert set(predicted.values()) == {True, False}
