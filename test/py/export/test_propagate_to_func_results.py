"""`sdy-propagate-to-func-results` against jaxlib's C++ on every pairing of a function result's own sharding with
the returned value's, on the main function and on a callee, and the table's fields for what the lines do there."""

from __future__ import annotations

import itertools

import pytest
from export_inputs import assert_same_output, print_after_pysdy
from oracle import cpp_output

from pysdy import versions

T = "tensor<8x6xf32>"
MESHES = """sdy.mesh @mesh = <["x"=4, "y"=2, "z"=3]>
sdy.mesh @other = <["x"=4, "y"=2, "z"=3], device_ids=[23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]>
sdy.mesh @empty = <[]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
"""
RETURNED = [
    None,
    "<@mesh, [{?}, {?}]>",
    "<@mesh, [{}, {}]>",
    '<@mesh, [{"x", ?}, {?}]>',
    '<@other, [{"x"}, {}]>',
    "<@empty, [{}, {}]>",
    "<@maximal_mesh_0, []>",
    "<mesh<[], device_ids=[1]>, []>",
    '<@mesh, [{}, {}], replicated={"y"}>',
    '<@mesh, [{"x"}, {}], unreduced={"y"}>',
]
OWN = [None, '<@mesh, [{}, {"z"}]>', "<@maximal_mesh_0, []>"]
PAIRS = list(itertools.product(OWN, RETURNED))
IDS = [f"{own}-{returned}" for own, returned in PAIRS]


def _results(shardings: list[str | None]) -> str:
    return ", ".join(T + (f" {{sdy.sharding = #sdy.sharding{s}}}" if s else "") for s in shardings)


def _returning(name: str, own: list[str | None], returned: list[str | None], private: bool = False) -> str:
    """A function `name` returning one value per sharding in `returned`, its results having the shardings `own`."""
    values = "".join(
        f"  %v{i} = stablehlo.negate %arg0" + (f" {{sdy.sharding = #sdy.sharding_per_value<[{s}]>}}" if s else "")
        + f" : {T}\n"
        for i, s in enumerate(returned)
    )
    returned_values = ", ".join(f"%v{i}" for i in range(len(returned)))
    types = ", ".join([T] * len(returned))
    visibility = "private " if private else ""
    return f"""func.func {visibility}@{name}(%arg0: {T}) -> ({_results(own)}) {{
{values}  return {returned_values} : {types}
}}
"""


def _main_module(own: list[str | None], returned: list[str | None]) -> str:
    return MESHES + _returning("main", own, returned)


def _callee_module(own: list[str | None], returned: list[str | None]) -> str:
    """@main calls @f and returns its results through unsharded ops, which the pass leaves alone."""
    count = len(returned)
    types = ", ".join([T] * count)
    uses = "".join(f"  %u{i} = stablehlo.abs %0#{i} : {T}\n" for i in range(count))
    main = f"""func.func @main(%arg0: {T}) -> ({types}) {{
  %0:{count} = call @f(%arg0) : ({T}) -> ({types})
{uses}  return {", ".join(f"%u{i}" for i in range(count))} : {types}
}}
"""
    return MESHES + main + _returning("f", own, returned, private=True)


@pytest.mark.parametrize("own, returned", PAIRS, ids=IDS)
def test_main_result_matches_cpp(own, returned):
    assert_same_output(_main_module([own], [returned]), "sdy-propagate-to-func-results")


@pytest.mark.parametrize("own, returned", PAIRS, ids=IDS)
def test_callee_result_matches_cpp(own, returned):
    assert_same_output(_callee_module([own], [returned]), "sdy-propagate-to-func-results")


@pytest.mark.parametrize("module", [_main_module, _callee_module], ids=["main", "callee"])
def test_several_results_match_cpp(module):
    own = [OWN[i % len(OWN)] for i in range(len(RETURNED))]
    assert_same_output(module(own, RETURNED), "sdy-propagate-to-func-results")


def test_cases_exercise_the_pass():
    """The C++ pass changes the callee's results, so the agreement above means something on every line."""
    text = _callee_module([OWN[i % len(OWN)] for i in range(len(RETURNED))], RETURNED)
    assert cpp_output(text, "sdy-propagate-to-func-results") != cpp_output(text, "")


def _main_result_after(text: str, run) -> str:
    """The printed signature line of @main after `run` (cpp_output or print_after_pysdy) ran the pass."""
    output = run(text, "sdy-propagate-to-func-results")
    return next(line for line in output.splitlines() if "func.func @main" in line)


@pytest.mark.parametrize("run", [cpp_output, print_after_pysdy], ids=["cpp", "pysdy"])
def test_main_results_filled_as_the_table_says(run):
    """On lines with `func_results_fill_main` the main function's unsharded result takes the returned value's
    sharding and its sharded result keeps its own; before, both are left as they are."""
    text = _main_module([None, '<@mesh, [{}, {"z"}]>'], ['<@mesh, [{"x", ?}, {?}]>', '<@mesh, [{"y"}, {}]>'])
    filled = f'{T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"x", ?}}, {{?}}]>}}'
    signature = _main_result_after(text, run)
    assert (filled in signature) == versions.installed().func_results_fill_main
    assert '[{}, {"z"}]' in signature and '[{"y"}, {}]' not in signature


@pytest.mark.parametrize("run", [cpp_output, print_after_pysdy], ids=["cpp", "pysdy"])
def test_maximal_returned_sharding_skipped_as_the_table_says(run):
    """On lines with `func_results_skip_maximal` a callee's result loses its sharding where a maximal sharding is
    returned; before, it takes the maximal sharding."""
    output = run(_callee_module(['<@mesh, [{}, {"z"}]>'], ["<@maximal_mesh_0, []>"]), "sdy-propagate-to-func-results")
    signature = next(line for line in output.splitlines() if "func.func private @f" in line)
    maximal = f"-> ({T} {{sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}})"
    if versions.installed().func_results_skip_maximal:
        assert signature.endswith(f"-> {T} {{")
    else:
        assert signature.endswith(f"{maximal} {{")
