"""An `sdy.data_flow_edge` on every value of modules with loops, conditionals, manual and named computations and
calls, through every propagation pass: pysdy-opt exits 0 or with a located diagnostic, never an internal error.

Shardy writes data-flow edges only on the values that own one (a loop's or a
computation's results); its export tests also write them on a loop's block
arguments, where jaxlib's C++ propagation crashes. Each case here routes
every use of one value through a new edge, with or without a sharding: a
block argument of a while body or condition, a case branch's value, a manual
or named computation's argument, a call's result, a function's argument.
"""

from __future__ import annotations

import dataclasses

import cli_cases
import cli_runner
import pytest
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy

from pysdy.dialects.context import make_context

MODULES = {
    "while": """
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<i32>)
    -> tensor<8x8xf32> {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg1) : tensor<8x8xf32>, tensor<i32>
    cond {
    %1 = stablehlo.compare LT, %iterArg_1, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.add %iterArg, %iterArg : tensor<8x8xf32>
    %2 = stablehlo.add %iterArg_1, %c : tensor<i32>
    stablehlo.return %1, %2 : tensor<8x8xf32>, tensor<i32>
  }
  return %0#0 : tensor<8x8xf32>
}
""",
    "case": """
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<i32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>})
    -> tensor<8x8xf32> {
  %0 = "stablehlo.case"(%arg0) ({
    %1 = stablehlo.negate %arg1 : tensor<8x8xf32>
    stablehlo.return %1 : tensor<8x8xf32>
  }, {
    %1 = stablehlo.abs %arg1 : tensor<8x8xf32>
    stablehlo.return %1 : tensor<8x8xf32>
  }) : (tensor<i32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
""",
    "manual_computation": """
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>]
      manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.multiply %arg1, %arg1 : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = stablehlo.add %0, %0 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
""",
    "named_computation": """
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.named_computation<"body">(%arg0) (%arg1: tensor<8x8xf32>) {
    %1 = stablehlo.exponential %arg1 : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
""",
    "call": """
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = call @callee(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
func.func private @callee(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.sine %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
""",
}

PASSES = [
    "-sdy-basic-propagate", "-sdy-aggressive-propagate", "-sdy-op-priority-propagate", "-sdy-user-priority-propagate",
    "-sdy-propagation-pipeline", "-sdy-propagation-pipeline=dedup-functions-fully=true", "-sdy-sink-data-flow-edges",
    "-sdy-export-pipeline",
]


@dataclasses.dataclass(frozen=True)
class Placement:
    """Where an edge goes: the module, the value's number in walk order, and whether the edge has a sharding."""

    module: str
    value: int
    sharded: bool


def _values(module: ir.Module) -> list[ir.Value]:
    """Every ranked-tensor block argument and op result in `module`, in walk order."""
    values: list[ir.Value] = []

    def visit(op):
        for region in op.regions:
            for block in region.blocks:
                values.extend(argument for argument in block.arguments)
        values.extend(op.results)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, walk_order=ir.WalkOrder.PRE_ORDER)
    return [value for value in values if isinstance(value.type, ir.RankedTensorType)]


def _with_edge(placement: Placement) -> str:
    with make_context():
        module = ir.Module.parse(MODULES[placement.module])
        value = _values(module)[placement.value]
        if isinstance(value, ir.BlockArgument):
            point = ir.InsertionPoint.at_block_begin(value.owner)
        else:
            point = ir.InsertionPoint(value.owner)
        rank = value.type.rank
        dims = ", ".join(['{"a"}'] + ["{}"] * (rank - 1)) if rank else ""
        sharding = ir.Attribute.parse(f"#sdy.sharding<@mesh, [{dims}]>") if placement.sharded else None
        with point, ir.Location.unknown():
            edge = sdy.DataFlowEdgeOp(value, sharding=sharding)
        if not isinstance(value, ir.BlockArgument):
            edge.operation.move_after(value.owner)
        value.replace_all_uses_except(edge.result, edge.operation)  # an edge is its input's only user
        return str(module)


def _placements() -> list[Placement]:
    placements = []
    with make_context():
        for name, text in MODULES.items():
            count = len(_values(ir.Module.parse(text)))
            placements += [Placement(name, index, sharded) for index in range(count) for sharded in (False, True)]
    return placements


PLACEMENTS = _placements()


@pytest.fixture(scope="module")
def runner():
    with cli_runner.Runner(timeout=120) as runner:
        yield runner


def test_every_kind_of_value_gets_an_edge():
    kinds = set()
    with make_context():
        for placement in PLACEMENTS:
            module = ir.Module.parse(MODULES[placement.module])
            value = _values(module)[placement.value]
            owner = value.owner.owner if isinstance(value, ir.BlockArgument) else value.owner
            kinds.add(f"{'argument of' if isinstance(value, ir.BlockArgument) else 'result of'} {owner.operation.name}")
    expected = {
        "argument of stablehlo.while", "argument of sdy.manual_computation", "argument of sdy.named_computation",
        "argument of func.func", "result of func.call", "result of stablehlo.case", "result of stablehlo.while",
    }
    assert expected <= kinds, expected - kinds


@pytest.mark.parametrize("flag", PASSES)
@pytest.mark.parametrize("placement", PLACEMENTS, ids=lambda p: f"{p.module}-{p.value}-{'sharded' * p.sharded or 'open'}")
def test_an_edge_on_any_value_gives_a_result_or_a_located_error(runner, placement, flag):
    case = cli_cases.Case(f"edge {placement} {flag}", _with_edge(placement).encode(), (cli_cases.INPUT, flag), False)
    outcome = runner.check(case)
    assert outcome.kind in cli_runner.ACCEPTED, f"{outcome.kind}: {case.name}\n{outcome.detail}\n{case.source.decode()}"
