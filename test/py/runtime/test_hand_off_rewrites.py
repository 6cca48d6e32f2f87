"""The hand-off's rewrites of what jaxlib's XLA rejects or partitions badly (runtime/xla_limits.py,
runtime/expanding_broadcasts.py, runtime/shardings_as_constraints.py): each keeps the module's values and
shardings, and XLA then compiles it."""

from __future__ import annotations

import pytest
from jaxlib.mlir import ir
from runtime_runs import checked_run

from pysdy.dialects.context import make_context
from pysdy.passes.common.ir_walk import nested_ops_named
from pysdy.runtime.expanding_broadcasts import split_expanding_broadcasts
from pysdy.runtime.pysdy_passes import prepare_for_xla
from pysdy.runtime.shardings_as_constraints import shardings_as_constraints
from pysdy.runtime.xla_limits import pin_loop_invariants, unify_branch_results

_HEADER = """module @m attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
"""

# The loop state: a counter, the weight the body returns unchanged, and an accumulator.
LOOP = _HEADER + """
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                         %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%i = %c0, %w = %arg0, %acc = %arg1) : tensor<i32>, tensor<8x16xf32>, tensor<8x16xf32>
      attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"x"}, {"y"}]>, <@mesh, [{"x"}, {}]>]>}
    cond {
      %c3 = stablehlo.constant dense<3> : tensor<i32>
      %1 = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %i, %c1 : tensor<i32>
      %2 = stablehlo.multiply %acc, %w {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
      stablehlo.return %1, %w, %2 : tensor<i32>, tensor<8x16xf32>, tensor<8x16xf32>
    }
    return %0#2 : tensor<8x16xf32>
  }
}"""


def _rewritten(text: str, rewrite) -> ir.Module:
    module = ir.Module.parse(text)
    rewrite(module)
    assert module.operation.verify()
    return module


def _returned(region: ir.Region) -> list[ir.Value]:
    return list(list(region.blocks[0].operations)[-1].operands)


def test_loop_invariant_is_returned_through_a_constraint_to_its_loop_sharding():
    with make_context():
        module = _rewritten(LOOP, pin_loop_invariants)
        (loop,) = nested_ops_named(module.operation, {"stablehlo.while"})
        counter, weight, accumulator = _returned(loop.regions[1])
        constraint = weight.owner
        assert constraint.name == "sdy.sharding_constraint"
        assert constraint.operands[0] == loop.regions[1].blocks[0].arguments[1]
        assert str(constraint.attributes["sharding"]) == '#sdy.sharding<@mesh, [{"x"}, {"y"}]>'
        assert counter.owner.name == "stablehlo.add" and accumulator.owner.name == "stablehlo.multiply"
        assert str(loop.attributes["sdy.sharding"]).count("<@mesh") == 3


def test_a_loop_in_a_manual_computation_returns_its_invariants_replicated():
    """XLA's GSPMD export shards a loop in a manual body `{manual}`: its invariants are pinned too."""
    text = _HEADER + """
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%a: tensor<4x16xf32>) {
      %c0 = stablehlo.constant dense<0> : tensor<i32>
      %1:2 = stablehlo.while(%i = %c0, %w = %a) : tensor<i32>, tensor<4x16xf32>
      cond {
        %c3 = stablehlo.constant dense<3> : tensor<i32>
        %2 = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %2 : tensor<i1>
      } do {
        %c1 = stablehlo.constant dense<1> : tensor<i32>
        %2 = stablehlo.add %i, %c1 : tensor<i32>
        stablehlo.return %2, %w : tensor<i32>, tensor<4x16xf32>
      }
      sdy.return %1#1 : tensor<4x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}"""
    with make_context():
        module = _rewritten(text, pin_loop_invariants)
        (loop,) = nested_ops_named(module.operation, {"stablehlo.while"})
        counter, weight = _returned(loop.regions[1])
        assert counter.owner.name == "stablehlo.add"
        assert weight.owner.name == "sdy.sharding_constraint"
        assert str(weight.owner.attributes["sharding"]) == "#sdy.sharding<@mesh, [{}, {}]>"


def test_unsharded_loop_is_left_alone():
    text = LOOP.replace(
        """      attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, [{"x"}, {"y"}]>, <@mesh, [{"x"}, {}]>]>}\n""",
        "",
    )
    with make_context():
        assert str(_rewritten(text, pin_loop_invariants)) == str(ir.Module.parse(text))


def test_op_shardings_become_constraints_on_the_results_they_shard():
    with make_context():
        module = _rewritten(LOOP, shardings_as_constraints)
        (loop,) = nested_ops_named(module.operation, {"stablehlo.while"})
        assert "sdy.sharding" not in loop.attributes
        body = list(loop.regions[1].blocks[0].operations)
        multiply = next(op for op in body if op.name == "stablehlo.multiply")
        assert "sdy.sharding" not in multiply.attributes
        (use,) = multiply.results[0].uses
        assert use.owner.name == "sdy.sharding_constraint"
        assert str(use.owner.attributes["sharding"]) == '#sdy.sharding<@mesh, [{"x"}, {}]>'
        # Only the loop's used result has a constraint, right after the loop; the function keeps its shardings.
        (returned,) = _returned(module.body.operations[1].regions[0])
        assert returned.owner.name == "sdy.sharding_constraint" and returned.owner.operands[0] == loop.results[2]
        assert len(nested_ops_named(module.operation, {"sdy.sharding_constraint"})) == 2
        assert 'sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>' in str(module.body.operations[1])


def test_a_loop_with_unreduced_axes_keeps_its_sharding_and_its_invariants_pinned_on_the_sdy_route():
    """jaxlib 0.10's XLA crashes on a sharded loop whose invariants its HLO conversion lifts (pjit_test's scans of
    unreduced gradients): a loop keeping its sharding has them pinned on the sdy route too."""
    text = LOOP.replace('<@mesh, [{"x"}, {}]>]>}\n    cond', '<@mesh, [{"x"}, {}], unreduced={"y"}>]>}\n    cond')
    assert text != LOOP
    with make_context():
        module = ir.Module.parse(text)
        prepare_for_xla(module, "sdy")
        assert module.operation.verify()
        (loop,) = nested_ops_named(module.operation, {"stablehlo.while"})
        assert "unreduced" in str(loop.attributes["sdy.sharding"])
        _, weight, _ = _returned(loop.regions[1])
        assert weight.owner.name == "sdy.sharding_constraint"


def test_a_maximal_sharding_stays_on_its_op():
    text = """module @m attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
  func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = stablehlo.custom_call @callback(%arg0) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
    return %1 : tensor<8xf32>
  }
}"""
    with make_context():
        module = _rewritten(text, shardings_as_constraints)
        (call,) = nested_ops_named(module.operation, {"stablehlo.custom_call"})
        assert str(call.attributes["sdy.sharding"]) == "#sdy.sharding_per_value<[<@maximal_mesh_0, []>]>"
        (negate,) = nested_ops_named(module.operation, {"stablehlo.negate"})
        assert "sdy.sharding" not in negate.attributes
        assert [op.name for op in nested_ops_named(module.operation, {"sdy.sharding_constraint"})] == ["sdy.sharding_constraint"]


BRANCHES = _HEADER + """
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = "stablehlo.case"(%arg0) ({
      %1 = stablehlo.sine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
      stablehlo.return %1 : tensor<8x8xf32>
    }, {
      %1 = stablehlo.cosine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x8xf32>
      stablehlo.return %1 : tensor<8x8xf32>
    }, {
      stablehlo.return %arg1 : tensor<8x8xf32>
    }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<i32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}"""


def test_branches_return_their_values_with_the_case_result_sharding():
    with make_context():
        module = _rewritten(BRANCHES, unify_branch_results)
        (case,) = nested_ops_named(module.operation, {"stablehlo.case"})
        (sine,), (cosine,), (argument,) = (_returned(branch) for branch in case.regions)
        for constrained, source in ((sine, "stablehlo.sine"), (argument, None)):
            assert constrained.owner.name == "sdy.sharding_constraint"
            assert str(constrained.owner.attributes["sharding"]) == '#sdy.sharding<@mesh, [{"y"}, {}]>'
            assert source is None or constrained.owner.operands[0].owner.name == source
        assert cosine.owner.name == "stablehlo.cosine"


def test_branches_without_a_case_sharding_take_the_first_sharded_branch_value_s():
    text = BRANCHES.replace(""" {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : (tensor<i32>)""", " : (tensor<i32>)")
    with make_context():
        module = _rewritten(text, unify_branch_results)
        (case,) = nested_ops_named(module.operation, {"stablehlo.case"})
        (sine,), (cosine,), (argument,) = (_returned(branch) for branch in case.regions)
        assert sine.owner.name == "stablehlo.sine"
        for constrained in (cosine, argument):
            assert str(constrained.owner.attributes["sharding"]) == '#sdy.sharding<@mesh, [{"x"}, {}]>'


BROADCASTS = _HEADER + """
  func.func public @main(%arg0: tensor<1x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                         %arg1: tensor<1x1xf32>) -> (tensor<16x32xf32>, tensor<1x4xf32>, tensor<4x32xf32>) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : (tensor<1x32xf32>) -> tensor<16x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<1x4xf32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [2, 1] : (tensor<1x32xf32>) -> tensor<4x32x1xf32>
    %3 = stablehlo.reshape %2 : (tensor<4x32x1xf32>) -> tensor<4x32xf32>
    return %0, %1, %3 : tensor<16x32xf32>, tensor<1x4xf32>, tensor<4x32xf32>
  }
}"""


def test_broadcasts_stretching_size_1_dims_become_a_reshape_sharded_like_the_operand_and_a_broadcast():
    with make_context():
        module = _rewritten(BROADCASTS, split_expanding_broadcasts)
        broadcasts = nested_ops_named(module.operation, {"stablehlo.broadcast_in_dim"})
        reshapes = {str(op.results[0].type): op for op in nested_ops_named(module.operation, {"stablehlo.reshape"})}
        stretched, size_1_kept, unstretched = broadcasts
        assert str(stretched.attributes["broadcast_dimensions"]) == "array<i64: 1>"
        assert str(stretched.attributes["sdy.sharding"]) == '#sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>'
        reshape = stretched.operands[0].owner
        assert str(reshape.results[0].type) == "tensor<32xf32>" and isinstance(reshape.operands[0], ir.BlockArgument)
        assert str(reshape.attributes["sdy.sharding"]) == '#sdy.sharding_per_value<[<@mesh, [{"y"}]>]>'
        assert str(size_1_kept.attributes["broadcast_dimensions"]) == "array<i64: 0>"
        assert str(size_1_kept.operands[0].type) == "tensor<1xf32>"
        assert "sdy.sharding" not in size_1_kept.operands[0].owner.attributes
        assert str(unstretched.attributes["broadcast_dimensions"]) == "array<i64: 2, 1>"
        assert "tensor<4x32xf32>" in reshapes


@pytest.mark.parametrize("route", ["gspmd", "sdy"])
@pytest.mark.parametrize("text", [LOOP, BRANCHES, BROADCASTS], ids=["loop", "branches", "broadcasts"])
def test_xla_compiles_and_runs_the_rewritten_module_right(text, route):
    run = checked_run(text, route)
    assert run.check.passed, run.check.mismatches


def test_a_broadcast_that_only_added_the_size_1_dims_is_broadcast_from_its_source():
    """reshape(broadcast_in_dim(x)) would give back x: the new broadcast takes x itself (jaxlib's compile folds such
    a reshape and then fails to translate the module, "Failed to get shape")."""
    text = _HEADER + """
  func.func public @main(%arg0: tensor<32xf32>) -> tensor<16x32xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<16x32xf32>
    return %1 : tensor<16x32xf32>
  }
}"""
    with make_context():
        module = _rewritten(text, split_expanding_broadcasts)
        assert not nested_ops_named(module.operation, {"stablehlo.reshape"})
        *_, stretched = nested_ops_named(module.operation, {"stablehlo.broadcast_in_dim"})
        assert isinstance(stretched.operands[0], ir.BlockArgument)
        assert str(stretched.attributes["broadcast_dimensions"]) == "array<i64: 1>"
