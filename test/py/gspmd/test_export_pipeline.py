"""pysdy's `xla-sdy-stablehlo-export-pipeline` against XLA's own (jaxlib 0.10.2), and its output against XLA's GSPMD compiler.

Oracles (see xla_export_oracle.py): XLA's export of the same sdy module,
compared as the HLO both become; XLA's Shardy compile of JAX programs (the
main function's parameter and output shardings after pysdy's propagation and
export); and XLA's GSPMD compile of pysdy's output (the shardings it reads back).
"""

from __future__ import annotations

import re

import pytest
import xla_oracle
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from jax._src.lib import xla_client as xc
from jaxlib.mlir import ir
from xla_export_oracle import (
    DEVICES,
    assert_exports_as_xla,
    compiled_shardings,
    pysdy_export,
)

from pysdy import versions
from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import AxisRef, DimSharding, Mesh, MeshAxis, SubAxisInfo, TensorSharding
from pysdy.passes.pipeline import parse_pipeline, run_pipeline

FAST = settings(
    max_examples=12,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
SLOW = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_HEADER = 'module @m attributes {mhlo.num_partitions = 8 : i32} {\n  sdy.mesh @mesh = <["x"=2, "y"=4]>\n'

# Reshards to and from maximal shardings; jaxlib 0.12's XLA drops those between a maximal sharding and a replicated
# one (or none), in either direction, and exports the others (versions.xla_export_drops_maximal_replicated_reshards).
MAXIMAL_RESHARDS = """
  sdy.mesh @other = <["a"=8]>
  sdy.mesh @one = <[], device_ids=[0]>
  sdy.mesh @two = <[], device_ids=[1]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], replicated={"x"}>},
                         %arg1: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = sdy.reshard %arg0 <@one, []> : tensor<8x16xf32>
    %1 = stablehlo.cosine %0 {sdy.sharding = #sdy.sharding_per_value<[<@one, []>]>} : tensor<8x16xf32>
    %2 = sdy.reshard %1 <@other, [{}, {}]> : tensor<8x16xf32>
    %3 = sdy.reshard %2 <@two, []> : tensor<8x16xf32>
    %4 = sdy.reshard %3 <@one, []> : tensor<8x16xf32>
    %5 = sdy.reshard %4 <@mesh, [{"x"}, {}]> : tensor<8x16xf32>
    %6 = sdy.reshard %5 <@two, []> : tensor<8x16xf32>
    %7 = sdy.reshard %arg1 <@one, []> : tensor<8x16xf32>
    %8 = sdy.sharding_constraint %7 <@mesh, [{}, {}]> : tensor<8x16xf32>
    %9 = sdy.reshard %8 <@mesh, [{}, {}], unreduced={"y"}> : tensor<8x16xf32>
    %10 = sdy.reshard %9 <@one, []> : tensor<8x16xf32>
    %11 = sdy.reshard %10 <@one, []> : tensor<8x16xf32>
    %12 = stablehlo.add %6, %11 : tensor<8x16xf32>
    return %12 : tensor<8x16xf32>
  }"""

HAND_CASES = {
    "tiled_replicated_and_results": """
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                        %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>})
      -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, tensor<8x16xf32>) {
    %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x16xf32>
    return %0, %arg1 : tensor<8x16xf32>, tensor<8x16xf32>
  }""",
    "sub_axes_replicated_unreduced_device_ids": """
  sdy.mesh @ids = <["a"=4, "b"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@ids, [{"a"}, {}]>},
                        %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(1)2}, {}], replicated={"x"}>})
      -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) {
    %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y":(2)2, "x"}, {}]>]>} : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }""",
    "maximal_mesh_and_tuple_sharding": """
  sdy.mesh @maximal = <[], device_ids=[3]>
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = false}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
        %p = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x", "y"}]>, <@mesh, [{}, {"y"}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
    %1 = stablehlo.multiply %0#1, %0#1 {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : tensor<8x16xf32>
    return %0#0, %1 : tensor<8x16xf32>, tensor<8x16xf32>
  }""",
    "constraint_reshard_constant_barrier_collectives": """
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"y"}, {}]> : tensor<8x16xf32>
    %1 = sdy.reshard %0 <@mesh, [{}, {"y"}]> : tensor<8x16xf32>
    %2 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} dense<1.0> : tensor<8x16xf32>
    %3 = sdy.propagation_barrier %2 allowed_direction=NONE : tensor<8x16xf32>
    %4 = stablehlo.add %1, %3 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"y"}]>]>} : tensor<8x16xf32>
    %5 = sdy.all_gather [{}, {"y"}] %4 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
    %6 = sdy.all_reduce {"x"} %5 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
    return %6 : tensor<8x16xf32>
  }""",
    "manual_computations_full_partial_nested_and_calls": """
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x16xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x"} (%a: tensor<4x16xf32>) {
      %1 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{}, {"y"}]>] manual_axes={"y"} (%b: tensor<4x4xf32>) {
        %2 = stablehlo.negate %b : tensor<4x4xf32>
        sdy.return %2 : tensor<4x4xf32>
      } : (tensor<4x16xf32>) -> tensor<4x16xf32>
      %3 = func.call @helper(%1) : (tensor<4x16xf32>) -> tensor<4x16xf32>
      sdy.return %3 : tensor<4x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %4 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x", "y"}, {}]>] out_shardings=[<@mesh, [{"x", "y"}, {}]>] manual_axes={"x", "y"} (%c: tensor<1x16xf32>) {
      sdy.return %c : tensor<1x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %4 : tensor<8x16xf32>
  }
  func.func private @helper(%arg0: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %0 = stablehlo.abs %arg0 : tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }""",
    "reshards_between_one_device_and_all": MAXIMAL_RESHARDS,
    "while_without_sharding": """
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
    %0:2 = stablehlo.while(%i = %arg0, %v = %arg1) : tensor<i32>, tensor<8x16xf32>
      cond {
        %k = stablehlo.constant dense<3> : tensor<i32>
        %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %one = stablehlo.constant dense<1> : tensor<i32>
        %n = stablehlo.add %i, %one : tensor<i32>
        stablehlo.return %n, %v : tensor<i32>, tensor<8x16xf32>
      }
    return %0#1 : tensor<8x16xf32>
  }""",
}


@pytest.mark.parametrize("name", list(HAND_CASES))
def test_hand_written_forms_export_as_xla(name):
    assert_exports_as_xla(_HEADER + HAND_CASES[name] + "\n}")


@pytest.mark.parametrize("line", versions.LINES, ids=lambda line: line.name)
def test_reshards_between_one_device_and_all_export_as_each_lines_xla(monkeypatch, line):
    """MAXIMAL_RESHARDS's eleven constraints, as XLA's export of each line keeps them (the hand-written case above
    compares the installed line with its XLA): jaxlib 0.12 drops %0 and %7 (replicated or unsharded to maximal),
    %2 (maximal to replicated) and %3 (replicated to maximal), and keeps maximal to maximal, tiled, or unreduced."""
    monkeypatch.setattr(versions, "installed", lambda: line)
    exported = pysdy_export(_HEADER + MAXIMAL_RESHARDS + "\n}")
    kept = exported.count("stablehlo.custom_call @Sharding(")
    assert kept == (7 if line.xla_export_drops_maximal_replicated_reshards else 11)
    assert ("stablehlo.cosine %arg0 " in exported) == line.xla_export_drops_maximal_replicated_reshards


# --------------------------------------------------------------------------
# Random modules
# --------------------------------------------------------------------------


@st.composite
def meshes(draw) -> Mesh:
    """Two or three axes over 8 devices, sometimes in a permuted device order."""
    sizes = draw(st.sampled_from([(2, 4), (4, 2), (2, 2, 2), (8, 1), (1, 8)]))
    names = draw(st.permutations(["x", "y", "z"]))[: len(sizes)]
    ids = ()
    if draw(st.booleans()):
        ids = tuple(draw(st.permutations(range(DEVICES))))
        if ids == tuple(range(DEVICES)):
            ids = ()
    return Mesh(tuple(MeshAxis(n, s) for n, s in zip(names, sizes)), ids)


def _pieces(mesh: Mesh, draw) -> list[AxisRef]:
    """Each axis whole, or an axis of size 4 or 8 cut into two sub-axes."""
    pieces = []
    for axis in mesh.axes:
        if axis.size >= 4 and draw(st.booleans()):
            pieces += [AxisRef(axis.name, SubAxisInfo(1, 2)), AxisRef(axis.name, SubAxisInfo(2, axis.size // 2))]
        else:
            pieces.append(AxisRef(axis.name))
    return pieces


@st.composite
def shardings(draw, mesh: Mesh, rank: int, free: tuple[str, ...] | None = None) -> TensorSharding:
    """Distinct pieces spread over the dims (dim sizes 8 and 16 take any of them)."""
    pieces = [p for p in _pieces(mesh, draw) if mesh.axis_size(p.name) > 1 and (free is None or p.name in free)]
    chosen = draw(st.lists(st.sampled_from(pieces), unique=True, max_size=len(pieces))) if pieces else []
    dims = [[] for _ in range(rank)]
    for piece in chosen:
        dims[draw(st.integers(0, rank - 1))].append(piece)
    for dim in dims:
        dim.sort(key=lambda p: (p.name, p.sub_axis.pre_size if p.sub_axis else 0))
        if len({p.name for p in dim}) != len(dim):
            dim.clear()  # sub-axes of one axis in a dim would merge; keep the case simple
    return TensorSharding("mesh", tuple(DimSharding(tuple(d)) for d in dims))


def _attr(sharding: TensorSharding) -> str:
    return str(sharding.to_attr())


@st.composite
def random_modules(draw) -> str:
    mesh = draw(meshes())
    with make_context():
        mesh_text = str(mesh.to_attr()).removeprefix("#sdy.mesh")
        args = [draw(shardings(mesh, 2)) for _ in range(2)]
        result = draw(shardings(mesh, 2))
        constraint = draw(shardings(mesh, 2))
        manual_axis = draw(st.sampled_from([a.name for a in mesh.axes]))
        manual_size = mesh.axis_size(manual_axis)
        rest = tuple(a.name for a in mesh.axes if a.name != manual_axis)
        free = draw(shardings(mesh, 2, free=rest))
        manual_dim = free.dims[0]
        in_out = TensorSharding("mesh", (DimSharding((AxisRef(manual_axis),) + manual_dim.axes), free.dims[1]))
        lines = [
            'module @m attributes {mhlo.num_partitions = 8 : i32} {',
            f"  sdy.mesh @mesh = {mesh_text}",
            f"  func.func public @main(%arg0: tensor<8x16xf32> {{sdy.sharding = {_attr(args[0])}}}, "
            f"%arg1: tensor<8x16xf32> {{sdy.sharding = {_attr(args[1])}}}) -> (tensor<8x16xf32> {{sdy.sharding = {_attr(result)}}}) {{",
            f"    %0 = sdy.sharding_constraint %arg0 {_attr(constraint)[len('#sdy.sharding'):]} : tensor<8x16xf32>",
            f"    %1 = sdy.manual_computation(%0, %arg1) in_shardings=[{_attr(in_out)[len('#sdy.sharding'):]}, {_attr(in_out)[len('#sdy.sharding'):]}] "
            f"out_shardings=[{_attr(in_out)[len('#sdy.sharding'):]}] manual_axes={{\"{manual_axis}\"}} "
            f"(%a: tensor<{8 // manual_size}x16xf32>, %b: tensor<{8 // manual_size}x16xf32>) {{",
            f"      %2 = stablehlo.add %a, %b : tensor<{8 // manual_size}x16xf32>",
            f"      sdy.return %2 : tensor<{8 // manual_size}x16xf32>",
            "    } : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>",
            "    return %1 : tensor<8x16xf32>",
            "  }",
            "}",
        ]
    return "\n".join(lines)


@FAST
@given(random_modules())
def test_random_modules_export_as_xla(module):
    assert_exports_as_xla(module)


@pytest.mark.slow
@SLOW
@given(random_modules())
def test_random_modules_export_as_xla_long(module):
    assert_exports_as_xla(module)


# --------------------------------------------------------------------------
# JAX programs: propagation and export against XLA's Shardy compile
# --------------------------------------------------------------------------

FAST_PROGRAMS = [
    "mlp_forward",
    "attention_forward",
    "shard_map_psum",
    "cond_branches",
    "multiple_axes_per_dimension",
    "explicit_mesh_unreduced_matmul",  # an all-reduce of unreduced partial sums: a fully manual computation
]
_NUM_PARTITIONS = re.compile(r"mhlo.num_partitions = (\d+)")


def _main_shardings(module_text: str) -> tuple[list[str | None], list[str | None]]:
    with make_context():
        module = ir.Module.parse(module_text)
        main = next(op for op in module.body.operations if ir.StringAttr(op.attributes["sym_name"]).value == "main")
        def read(key):
            if key not in main.attributes:
                return None
            return [ir.StringAttr(ir.DictAttr(d)["mhlo.sharding"]).value if "mhlo.sharding" in ir.DictAttr(d) else None for d in ir.ArrayAttr(main.attributes[key])]
        n_args = len(main.regions[0].blocks[0].arguments)
        return read("arg_attrs") or [None] * n_args, read("res_attrs") or []


def _same(exported: str | None, compiled: str) -> bool:
    expected = xc.HloSharding.from_string(compiled)
    if exported is None:
        return expected.is_replicated()
    return xc.HloSharding.from_string(exported) == expected


def _check_compiled_shardings(exported_module: str, compiled: tuple[list[str], list[str]]) -> None:
    """pysdy's @main shardings are those of XLA's executable (`compiled_shardings`)."""
    args, results = _main_shardings(exported_module)
    parameters, outputs = compiled
    for index, (text, xla) in enumerate(zip(args, parameters)):
        xla_oracle.checks["xla"] += 1
        assert _same(text, xla), f"argument {index}: pysdy {text}, XLA {xla}"
    for index, (text, xla) in enumerate(zip(results, outputs)):
        xla_oracle.checks["xla"] += 1
        assert _same(text, xla), f"result {index}: pysdy {text}, XLA {xla}"


# Loops whose free variables the HLO translation lifts into the loop state: the translation then gives the
# while a tuple sharding longer than its state and XLA aborts (RET_CHECK in hlo_sharding.cc). XLA's own
# export of the same propagated module aborts the same way, so only the GSPMD compile is left out.
XLA_ABORTS_ON_EXPORTED_LOOPS = {
    "scan_over_layers",
    "scan_over_layers_grad",
    "while_loop_power_iteration",
    "linalg_solve_lu",
    "shard_alike_in_scan_body",
}
def _check_program(name: str) -> None:
    from jax_corpus import corpus

    text = corpus()[name]
    partitions = int(_NUM_PARTITIONS.search(text).group(1))
    exported = pysdy_export(text, options="", before="sdy-propagation-pipeline")
    _check_compiled_shardings(exported, compiled_shardings(text, partitions, shardy=True))
    if name not in XLA_ABORTS_ON_EXPORTED_LOOPS:
        _check_compiled_shardings(exported, compiled_shardings(exported, partitions, shardy=False))


@pytest.mark.parametrize("name", FAST_PROGRAMS)
def test_jax_programs_propagate_and_export_as_xla_compiles_them(name):
    _check_program(name)


def _all_programs():
    from jax_corpus import program_names

    return program_names()


# Programs XLA's compile reshapes before its own Shardy propagation, so that it propagates a different module
# (jaxlib's C++ propagation of the module JAX lowered agrees with pysdy's: the propagation tests compare them).
PROPAGATION_DIFFERS = {
    # Shardy has no rule for `chlo.top_k` (jaxlib's C++ propagation warns and leaves its results unsharded, as
    # pysdy's does), while XLA first turns it into an `mhlo.topk` custom call, which it shards.
    "top_k_last_axis": "XLA shards chlo.top_k as mhlo.topk; Shardy's registry has no chlo.top_k rule",
    # XLA inlines the loop body's call and lifts the loop-invariant weight out of the loop state: the loop then
    # carries the host callback's maximal result directly, which shares no mesh with the sharded input, so
    # XLA leaves the loop (and main's result) unsharded; on JAX's module the call's own result sharding
    # carries the input's sharding around the loop.
    "io_callback_in_loop": "XLA inlines the call and lifts the loop invariant before propagating",
}


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(reason=PROPAGATION_DIFFERS[n], strict=True)) if n in PROPAGATION_DIFFERS else n
        for n in _all_programs()
    ],
)
def test_jax_programs_propagate_and_export_as_xla_compiles_them_long(name):
    _check_program(name)


def test_default_options_compile_with_gspmd_as_exported():
    """Copies for constraints and a replicated sharding on control flow (XLA's defaults) are what the GSPMD
    partitioner then reads."""
    module = _HEADER + HAND_CASES["while_without_sharding"] + "\n}"
    exported = pysdy_export(module, options="")
    assert 'stablehlo.while' in exported and 'mhlo.sharding = "{replicated}"' in exported
    _check_compiled_shardings(exported, compiled_shardings(exported, DEVICES, shardy=False))
    exported = pysdy_export(_HEADER + HAND_CASES["constraint_reshard_constant_barrier_collectives"] + "\n}", options="")
    assert exported.count("mhlo.copy") == 3 and "@Sharding" not in exported
    _check_compiled_shardings(exported, compiled_shardings(exported, DEVICES, shardy=False))


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------


def _export_errors(module_text: str) -> list[str]:
    with make_context():
        module = ir.Module.parse(module_text)
        with pytest.raises(ir.MLIRError) as error:
            run_pipeline(module, parse_pipeline("builtin.module(xla-sdy-stablehlo-export-pipeline)"))
        return [d.message for d in error.value.error_diagnostics]


def test_what_xla_would_export_wrongly_is_reported_on_the_op():
    module = _HEADER + """
  func.func public @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<8x16xf32> {
    %0 = sdy.sharded_to_unreduced [{"x", "y"}, {}] %arg0 out_sharding=<@mesh, [{}, {}], unreduced={"x", "y"}> : tensor<8x16xf32>
    %1 = sdy.all_reduce {"x", "y"} %0 out_sharding=<@mesh, [{}, {}]> : tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
}"""
    messages = _export_errors(module)
    assert any("pysdy cannot export 'sdy.sharded_to_unreduced' of axes of different sizes" in m for m in messages), messages


def test_sharding_over_an_axis_twice_is_an_error_on_the_op():
    module = _HEADER + """
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, xla.sdy.manual_axes = #sdy<manual_axes{"x"}>} : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }
}"""
    messages = _export_errors(module)
    assert any("cannot export sharding" in m and "more than once" in m for m in messages), messages

