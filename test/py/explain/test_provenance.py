"""Provenance on hand-worked modules: each axis's chain names the annotation, the ops and the source lines worked out
by hand, and each reshard names the shardings that met, the annotations behind them and why neither won."""

import pytest

from oracle import cpp_output
from pysdy.explanation.build import ExplainInputError, explain_text

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'


def explain(body: str):
    return explain_text(MESH + body, "model.mlir")


def tensor(explanation, name: str):
    return next(t for t in explanation.tensors if t.name == name)


def chain(explanation, name: str, dim: int):
    return next(c for c in tensor(explanation, name).chains if c.dim == dim)


ARGUMENT_THROUGH_OPS = """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>} loc("x"),
                %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>} loc("w")) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> loc("model.py":10:5)
  %1 = stablehlo.tanh %0 : tensor<8x32xf32> loc("model.py":11:5)
  return %1 : tensor<8x32xf32> loc("model.py":12:5)
}
"""


def test_an_argument_axis_reaches_the_result_through_each_op_on_its_line():
    explanation = explain(ARGUMENT_THROUGH_OPS)
    rows = chain(explanation, "%1", 0)
    assert (rows.axis, rows.annotation.kind, rows.annotation.value, rows.annotation.origin) == (
        '"x"', "argument", "%arg0 (x)", "input: 0"
    )
    assert [(s.op, s.location, s.source, s.target) for s in rows.steps] == [
        ("stablehlo.dot_general", "model.py:10", "operand-0 (%arg0)", "result-0 (%0)"),
        ("stablehlo.tanh", "model.py:11", "operand-0 (%0)", "result-0 (%1)"),
    ]
    assert rows.steps[0].index < rows.steps[1].index
    assert rows.steps[0].rule.startswith("([i, k], [k, j])->([i, j]) {i=8, j=32, k=16}")
    columns = chain(explanation, "%1", 1)
    assert (columns.axis, columns.annotation.value) == ('"y"', "%arg1 (w)")
    assert [s.source for s in columns.steps] == ["operand-1 (%arg1)", "operand-0 (%0)"]
    result = chain(explanation, "result 0", 0)
    assert [(s.op, s.location) for s in result.steps][-1] == ("func.return", "model.py:12")
    assert explanation.reshards == ()


CONSTRAINT_AGAINST_ARGUMENT = """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>} loc("x")) -> tensor<8x16xf32> {
  %0 = stablehlo.tanh %arg0 : tensor<8x16xf32> loc("model.py":11:5)
  %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> : tensor<8x16xf32> loc("model.py":12:5)
  %2 = stablehlo.exponential %1 : tensor<8x16xf32> loc("model.py":13:5)
  return %2 : tensor<8x16xf32> loc("model.py":14:5)
}
"""


def test_a_constraint_shards_what_follows_and_its_clash_with_the_argument_is_explained():
    # By hand: the constraint gives its only-used input %0 its sharding {"y"} (Shardy's apply-sharding-constraints),
    # so the tanh meets the argument's {"x"}: the two disagree on dim 0's major axis and the argument is resharded.
    assert '%0 = stablehlo.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}' in cpp_output(
        MESH + CONSTRAINT_AGAINST_ARGUMENT, "sdy-propagation-pipeline"
    )
    explanation = explain(CONSTRAINT_AGAINST_ARGUMENT)
    downstream = chain(explanation, "%2", 0)
    assert (downstream.axis, downstream.annotation.kind, downstream.annotation.location) == (
        '"y"', "sharding constraint", "model.py:12"
    )
    assert downstream.annotation.sharding == '#sdy.sharding<@mesh, [{"y"}, {}]>'
    assert [(s.op, s.location) for s in downstream.steps] == [("stablehlo.exponential", "model.py:13")]
    [reshard] = explanation.reshards
    assert (reshard.value, reshard.op, reshard.location) == ("%arg0", "stablehlo.tanh", "model.py:11")
    assert (reshard.current, reshard.needed) == (
        '#sdy.sharding<@mesh, [{"x"}, {}]>', '#sdy.sharding<@mesh, [{"y"}, {}]>'
    )
    assert [a.kind for a in reshard.current_annotations] == ["argument"]
    assert [(a.kind, a.location) for a in reshard.needed_annotations] == [("sharding constraint", "model.py:12")]
    assert "disagree on the dimension's major axis" in reshard.reason
    assert reshard.bytes_per_device > 0


PRIORITIES = """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1, {}]>} loc("a"),
                %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}p0, {}]>} loc("b")) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32> loc("model.py":20:5)
  return %0 : tensor<8x16xf32> loc("model.py":21:5)
}
"""


def test_user_priority_decides_a_conflict_and_the_reason_names_the_priorities():
    explanation = explain(PRIORITIES)
    won = chain(explanation, "%0", 0)
    assert (won.axis, won.annotation.value, won.annotation.sharding) == (
        '"y"', "%arg1 (b)", '#sdy.sharding<@mesh, [{"y"}p0, {}]>'
    )
    [reshard] = explanation.reshards
    assert reshard.value == "%arg0" and reshard.location == "model.py:20"
    assert "priority p0, the other's p1: p0 propagates first" in reshard.reason


SHARD_MAP = """
func.func @main(%arg0: tensor<8x16xf32> loc("x")) -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%a: tensor<4x16xf32>) {
    %b = stablehlo.tanh %a : tensor<4x16xf32> loc("model.py":31:7)
    sdy.return %b : tensor<4x16xf32> loc("model.py":32:7)
  } : (tensor<8x16xf32>) -> tensor<8x16xf32> loc("model.py":30:5)
  %1 = stablehlo.exponential %0 : tensor<8x16xf32> loc("model.py":33:5)
  return %1 : tensor<8x16xf32> loc("model.py":34:5)
}
"""


def test_shard_map_specs_are_the_annotations_of_what_flows_in_and_out():
    explanation = explain(SHARD_MAP)
    into = chain(explanation, "%arg0", 0)
    assert (into.annotation.kind, into.annotation.origin, into.annotation.location) == (
        "shard_map input", "mc_0_input: 0", "model.py:30"
    )
    out = chain(explanation, "%1", 0)
    assert (out.annotation.kind, out.annotation.origin) == ("shard_map output", "mc_0_output: 0")
    assert [(s.op, s.location) for s in out.steps] == [("stablehlo.exponential", "model.py:33")]


CONTRACTED_ON_Y = """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>},
                %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x32xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> loc("model.py":40:5)
  return %0 : tensor<8x32xf32>
}
"""


def test_a_contraction_over_a_sharded_dimension_is_explained_as_partial_sums():
    [reduce] = explain(CONTRACTED_ON_Y).reshards
    assert (reduce.op, reduce.location, reduce.collectives) == ("stablehlo.dot_general", "model.py:40", ("all-reduce",))
    assert reduce.current == 'partial sums over {"y"}'
    assert "operand 0 dim 1 on {\"y\"}; operand 1 dim 0 on {\"y\"}" in reduce.reason
    assert {a.value for a in reduce.current_annotations} == {"%arg0", "%arg1"}
    # Each device holds the whole 8x32 f32 result (1024 B) in partial sums; a ring all-reduce over the 4 devices of
    # "y" sends 2 * 3/4 of it.
    assert reduce.bytes_per_device == 1536


THROUGH_A_CALL = """
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = func.call @inner(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32> loc("model.py":50:5)
  %1 = stablehlo.exponential %0 : tensor<8x16xf32> loc("model.py":51:5)
  return %1 : tensor<8x16xf32>
}
func.func private @inner(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = stablehlo.tanh %arg0 : tensor<8x16xf32> loc("model.py":60:5)
  return %0 : tensor<8x16xf32>
}
"""


def test_a_chain_crosses_a_call_into_its_callee_and_back():
    explanation = explain(THROUGH_A_CALL)
    after = chain(explanation, "%1", 0)
    assert after.annotation.value == "%arg0"
    assert [(s.op, s.location) for s in after.steps] == [
        ("stablehlo.tanh", "model.py:60"), ("stablehlo.exponential", "model.py:51")
    ]


def test_a_module_that_does_not_parse_is_reported_where_it_fails():
    with pytest.raises(ExplainInputError, match=r"^model.mlir:3:7: error: expected operation name"):
        explain("func.func @main() {\n  %0 = \n}")
