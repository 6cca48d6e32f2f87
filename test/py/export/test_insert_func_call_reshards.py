"""`sdy-insert-func-call-reshards` against jaxlib's C++ on every pairing of a callee result sharding with a
call result sharding: open, closed, sharded, on another mesh, on a maximal mesh, with replicated or
unreduced axes or a priority, or missing."""

from __future__ import annotations

import itertools

import pytest
from export_inputs import assert_same_output
from oracle import cpp_output

T = "tensor<8x6xf32>"
MESHES = """sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @other = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
"""
SHARDINGS = [
    None,
    "<@mesh, [{?}, {?}]>",
    "<@mesh, [{}, {}]>",
    '<@mesh, [{"x"}, {?}]>',
    '<@mesh, [{"x", ?}, {?}]>',
    '<@mesh, [{"x"}, {}]>',
    '<@mesh, [{"x":(1)2}, {}]>',
    "<@other, [{?}, {?}]>",
    '<@other, [{"x"}, {}]>',
    "<@maximal_mesh_0, []>",
    '<@mesh, [{}, {}], replicated={"y"}>',
    '<@mesh, [{"x"}, {}], unreduced={"y"}>',
    '<@mesh, [{"x"}p1, {}]>',
]


def _module(func_shardings: list[str | None], call_shardings: list[str | None] | None) -> str:
    """@main calls @f once; @f returns its argument once per given result sharding."""
    count = len(func_shardings)
    types = ", ".join([T] * count)
    results = ", ".join(T + (f" {{sdy.sharding = #sdy.sharding{s}}}" if s else "") for s in func_shardings)
    call_attr = f" {{sdy.sharding = #sdy.sharding_per_value<[{', '.join(call_shardings)}]>}}" if call_shardings else ""
    uses = "".join(f"  %u{i} = stablehlo.abs %0#{i} : {T}\n" for i in range(count))
    returned = ", ".join(f"%u{i}" for i in range(count))
    return f"""{MESHES}func.func @main(%arg0: {T}) -> ({types}) {{
  %0:{count} = call @f(%arg0){call_attr} : ({T}) -> ({types})
{uses}  return {returned} : {types}
}}
func.func private @f(%arg0: {T}) -> ({results}) {{
  return {", ".join(["%arg0"] * count)} : {types}
}}
"""


PAIRS = list(itertools.product(SHARDINGS, SHARDINGS))


@pytest.mark.parametrize("func_sharding, call_sharding", PAIRS, ids=[f"{f}-{c}" for f, c in PAIRS])
def test_one_result(func_sharding, call_sharding):
    call_shardings = [call_sharding] if call_sharding else None
    assert_same_output(_module([func_sharding], call_shardings), "sdy-insert-func-call-reshards")


SEVERAL_RESULTS = {
    # The missing result sharding is fully open on the first non-maximal mesh, and the maximal one stays.
    "maximal_missing_and_sharded": (["<@maximal_mesh_0, []>", None, '<@other, [{"x"}, {}]>'], None),
    "maximal_missing_and_sharded_call_sharded": (
        ["<@maximal_mesh_0, []>", None, '<@other, [{"x"}, {}]>'],
        ['<@mesh, [{"y"}, {?}]>', "<@mesh, [{?}, {?}]>", '<@other, [{"x"}, {?}]>'],
    ),
    # Only maximal or missing: the callee's results count as missing.
    "maximal_and_missing": (["<@maximal_mesh_0, []>", None], ['<@mesh, [{"x"}, {?}]>', "<@other, [{?}, {?}]>"]),
}


@pytest.mark.parametrize("case", SEVERAL_RESULTS)
def test_several_results(case):
    func_shardings, call_shardings = SEVERAL_RESULTS[case]
    text = _module(func_shardings, call_shardings)
    assert cpp_output(text, "sdy-insert-func-call-reshards") != cpp_output(text, "")
    assert_same_output(text, "sdy-insert-func-call-reshards")
