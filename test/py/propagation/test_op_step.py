"""Differential tests: one propagation step through one op (`propagate_through_op`) vs. jaxlib's C++ passes.

Each case is a module with one mesh (1-3 axes) and one function whose
arguments carry random shardings (open and closed dimensions, sub-axes,
replicated and unreduced axes, priorities, some arguments unsharded) and whose
body is one op, sometimes with its own result sharding, returned to an
unannotated func result. The C++ `sdy-basic-propagate`,
`sdy-aggressive-propagate` or `sdy-op-priority-propagate` (optionally
conservative) runs on it, and we compare the argument shardings and the op's
`sdy.sharding` it leaves with what pysdy computes from the same input.

What a C++ run does for such a module, and so what pysdy is asked:
- it first pushes func result shardings to the returned values; the result is
  unannotated, so this does nothing;
- the greedy rewrite driver then visits the op, and visits it again in a new
  sweep whenever the previous sweep changed the IR, until nothing changes (the
  op does not re-add itself, but any change triggers another sweep). So we
  apply `propagate_through_op` repeatedly (args and the op's own result
  sharding, else None, at first; then the updated shardings) until it changes
  nothing;
- finally the returned value's sharding is pushed to the func result, which
  changes neither the args nor the op.
Basic and aggressive propagation use direction BOTH for every factor.
Op-priority propagation runs aggressive propagation three times to a fixed
point, with directions from the union of the first 1, 2, 3 op heuristics
(elementwise/reshape/transpose BOTH and dynamic-(update-)slice FORWARD; only
pass-through factors; any), which exercises FORWARD and NONE directions. The
rule is pysdy's (already checked equal to the C++ registry's).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Optional

import pytest
from jaxlib.mlir import ir

from oracle import cpp_output
from single_op_modules import MESH_NAME, OP_GENERATORS, valid_random_module

from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import FactorKind, Mesh, OpShardingRule, TensorSharding, TensorShardingPerValue
from pysdy.passes.propagation.factor_propagation import (
    AggressiveFactorPropagation,
    BasicFactorPropagation,
    PropagationDirection,
    union_of_directions,
)
from pysdy.passes.propagation.elementwise import ELEMENTWISE_OPS, is_elementwise
from pysdy.passes.propagation.op_step import propagate_through_op
from pysdy.passes.propagation.rules import get_or_create_rule

FAST_SEEDS = range(50)
SLOW_SEEDS = range(50, 1000)


# ---------------------------------------------------------------------------
# Both sides
# ---------------------------------------------------------------------------


def _arg_shardings(func_op) -> list[Optional[TensorSharding]]:
    shardings = []
    for attrs in func_op.arg_attrs:
        attrs = ir.DictAttr(attrs)
        shardings.append(TensorSharding.from_attr(attrs["sdy.sharding"]) if "sdy.sharding" in attrs else None)
    return shardings


def _result_shardings(op) -> list[Optional[TensorSharding]]:
    attrs = op.operation.attributes
    if "sdy.sharding" not in attrs:
        return [None] * len(op.results)
    return list(TensorShardingPerValue.from_attr(attrs["sdy.sharding"]).shardings)


def _body(module):
    func_op = module.body.operations[1]
    return func_op, func_op.regions[0].blocks[0].operations[0]


def _propagate_any(op_name: str, rule: OpShardingRule, factor: int) -> PropagationDirection:
    return PropagationDirection.BOTH


def _is_pass_through(op_name: str, rule: OpShardingRule, factor: int) -> PropagationDirection:
    if op_name in ELEMENTWISE_OPS or op_name in ("stablehlo.reshape", "stablehlo.transpose"):
        return PropagationDirection.BOTH
    if op_name in ("stablehlo.dynamic_slice", "stablehlo.dynamic_update_slice"):
        return PropagationDirection.FORWARD
    return PropagationDirection.NONE


def _only_pass_through_factors(op_name: str, rule: OpShardingRule, factor: int) -> PropagationDirection:
    if rule.factor_kind(factor) is FactorKind.PASS_THROUGH:
        return PropagationDirection.BOTH
    return PropagationDirection.NONE


# The op-priority schedule: run p uses the union of the first p + 1 heuristics.
OP_PRIORITY_HEURISTICS = [_is_pass_through, _only_pass_through_factors, _propagate_any]


@dataclass(frozen=True)
class Mode:
    """A C++ propagation pass and what it runs: a strategy, and per run the direction heuristics to union."""

    pass_name: str
    strategy: type
    runs: tuple[tuple[Callable, ...], ...]
    conservative: bool = False


MODES = {
    "basic": Mode("sdy-basic-propagate", BasicFactorPropagation, ((_propagate_any,),)),
    "aggressive": Mode("sdy-aggressive-propagate", AggressiveFactorPropagation, ((_propagate_any,),)),
    "op-priority": Mode(
        "sdy-op-priority-propagate",
        AggressiveFactorPropagation,
        tuple(tuple(OP_PRIORITY_HEURISTICS[: p + 1]) for p in range(len(OP_PRIORITY_HEURISTICS))),
    ),
}
MODES.update({
    f"{name}-conservative": Mode(mode.pass_name, mode.strategy, mode.runs, conservative=True)
    for name, mode in list(MODES.items())
})


def cpp_shardings(text: str, mode: Mode):
    """(arg shardings, op result shardings) after the C++ pass."""
    options = "{conservative-propagation=true}" if mode.conservative else ""
    module = ir.Module.parse(cpp_output(text, f"{mode.pass_name}{options}"))
    func_op, op = _body(module)
    return _arg_shardings(func_op), _result_shardings(op)


def python_shardings(text: str, mesh: Mesh, mode: Mode):
    """(arg shardings, op result shardings) from repeating `propagate_through_op` until it changes nothing, per run."""
    module = ir.Module.parse(text)
    func_op, op = _body(module)
    rule = get_or_create_rule(op, mode.conservative)
    operands = _arg_shardings(func_op)
    results = _result_shardings(op)
    if all(s is None for s in operands + results):
        return operands, results
    op_name = op.operation.name
    elementwise = is_elementwise(op.operation)
    for heuristics in mode.runs:

        def direction(factor: int) -> PropagationDirection:
            result = PropagationDirection.NONE
            for heuristic in heuristics:
                result = union_of_directions(result, heuristic(op_name, rule, factor))
            return result

        for _ in range(10):
            new_operands, new_results = propagate_through_op(
                operands, results, rule, MESH_NAME, mesh, mode.strategy(), direction,
                mode.conservative, op_name, is_elementwise=elementwise,
            )
            if all(s is None for s in new_operands + new_results):
                break
            operands = [new or old for new, old in zip(new_operands, operands)]
            results = [new or old for new, old in zip(new_results, results)]
    return operands, results


def _text(shardings):
    return [None if s is None else str(s.to_attr()) for s in shardings]


def check_case(family: str, seed: int, mode: Mode) -> None:
    rng = random.Random(f"{family}-{seed}")
    with make_context():
        drawn = valid_random_module(rng, family)
        if drawn is None:
            return
        mesh, text = drawn
        want = cpp_shardings(text, mode)
        got = python_shardings(text, mesh, mode)
        assert _text(got[0]) == _text(want[0]) and _text(got[1]) == _text(want[1]), (
            f"\n{text}\nC++:   {_text(want[0])} -> {_text(want[1])}\npysdy: {_text(got[0])} -> {_text(got[1])}"
        )


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("family", sorted(OP_GENERATORS))
def test_op_step_matches_cpp(family, mode):
    for seed in FAST_SEEDS:
        check_case(family, seed, MODES[mode])


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("family", sorted(OP_GENERATORS))
def test_op_step_matches_cpp_on_more_seeds(family, mode):
    for seed in SLOW_SEEDS:
        check_case(family, seed, MODES[mode])
