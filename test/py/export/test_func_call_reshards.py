"""`sdy-insert-func-call-reshards` against jaxlib's C++ pass on every pairing of callee and call result shardings.

The shardings cover what decides whether a call is resharded: maximal meshes (host callbacks), an empty
mesh, two meshes of the same shape under different names, an inlined mesh, open and closed dimensions,
replicated and unreduced axes, sub-axes, and a missing sharding on either side.
"""

from __future__ import annotations

import itertools

import pytest
from export_inputs import assert_same_output
from oracle import cpp_output

MESHES = """sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @mesh2 = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
sdy.mesh @empty = <[]>
"""
SHARDINGS = [
    None,
    "<@mesh, [{}, {}]>",
    "<@mesh, [{?}, {?}]>",
    '<@mesh, [{"x"}, {}]>',
    '<@mesh, [{"x", ?}, {?}]>',
    '<@mesh2, [{"x"}, {}]>',
    "<@mesh2, [{}, {}]>",
    "<@maximal_mesh_0, []>",
    "<@maximal_mesh_1, []>",
    "<@empty, [{}, {}]>",
    '<@mesh, [{}, {}], replicated={"y"}>',
    '<@mesh, [{}, {}], unreduced={"y"}>',
    '<@mesh, [{"y":(1)2}, {}]>',
    '<mesh<["x"=2, "y"=4]>, [{"x"}, {}]>',
]
# The second result of the callee, and of the call when the call has shardings.
SECOND = [None, '<@mesh, [{}, {"y"}]>', "<@maximal_mesh_0, []>"]
CALL_SECOND = ["<@mesh, [{}, {}]>", "<@maximal_mesh_0, []>"]


def _result_attr(sharding: str | None) -> str:
    return "" if sharding is None else f" {{sdy.sharding = #sdy.sharding{sharding}}}"


def _module(callee: tuple, call: tuple | None) -> str:
    call_attr = "" if call is None else f" {{sdy.sharding = #sdy.sharding_per_value<[{call[0]}, {call[1]}]>}}"
    pair = "(tensor<8x16xf32>, tensor<8x16xf32>)"
    return MESHES + f"""func.func @main(%arg0: tensor<8x16xf32>) -> {pair} {{
  %0:2 = func.call @f(%arg0){call_attr} : (tensor<8x16xf32>) -> {pair}
  return %0#0, %0#1 : tensor<8x16xf32>, tensor<8x16xf32>
}}
func.func private @f(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32>{_result_attr(callee[0])}, tensor<8x16xf32>{_result_attr(callee[1])}) {{
  return %arg0, %arg0 : tensor<8x16xf32>, tensor<8x16xf32>
}}
"""


CALLS = [None] + [call for call in itertools.product(SHARDINGS[1:], CALL_SECOND)]


@pytest.mark.parametrize("callee", list(itertools.product(SHARDINGS, SECOND)), ids=str)
def test_call_reshards_match_cpp(callee):
    for call in CALLS:
        assert_same_output(_module(callee, call), "sdy-insert-func-call-reshards")


# (callee results, call results) whose C++ outcomes differ: untouched; changed without a reshard; resharded.
OUTCOME_EXAMPLES = [
    ((None, None), None),
    (("<@maximal_mesh_0, []>", None), ("<@mesh, [{?}, {?}]>", "<@mesh, [{}, {}]>")),
    (('<@mesh, [{"x"}, {}]>', None), ('<@mesh2, [{"x"}, {}]>', "<@mesh, [{}, {}]>")),
]


def test_pairings_exercise_every_outcome():
    """C++ leaves some calls alone, changes some without a reshard and reshards others, so agreement means something."""
    outcomes = set()
    for callee, call in OUTCOME_EXAMPLES:
        text = _module(callee, call)
        printed = cpp_output(text, "sdy-insert-func-call-reshards")
        outcomes.add((printed != cpp_output(text, ""), "sdy.reshard" in printed))
    assert outcomes == {(False, False), (True, False), (True, True)}
