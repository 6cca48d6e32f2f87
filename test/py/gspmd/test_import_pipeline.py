"""xla-sdy-stablehlo-import-pipeline on JAX programs lowered for GSPMD, checked against XLA's own import, JAX's own
Shardy lowering of the same program and XLA's compile of the GSPMD module.

Oracles: (1) each program is lowered twice (`jax_use_shardy_partitioner`
off, then on); the imported GSPMD module's shardings of @main's arguments and
results, its sharding constraints and its manual computations (in order)
must equal the Shardy module's, compared as XLA HloShardings (so axis names,
size-1 axes and how finely axes are cut do not matter) plus which dims are
open and the manual devices. (2) After pysdy's `sdy-propagation-pipeline`,
XLA compiles the module with its Shardy partitioner (its loops and
conditionals rewritten as the runtime hands them over, see `in_form_xla_compiles`), and
the compiled parameter shardings equal those of compiling the GSPMD module
with GSPMD; and pysdy's export of that module becomes the same HLO as XLA's
export of it (`xla_export_oracle`). (3) XLA's own import (`xla_import_oracle`)
of the GSPMD module prints the same mesh, @main argument shardings and
sharding constraints. A program JAX cannot lower for GSPMD is checked to fail
as JAX says."""

from __future__ import annotations

import functools

import jax
import jax_corpus
import pytest
import xla_export_oracle
import xla_import_oracle
from child_process import ChildProcessCrash
from jaxlib.mlir import ir
from line_side import when

from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import ManualAxes, Mesh, TensorSharding, TensorShardingPerValue
from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops, nested_ops_named
from pysdy.passes.gspmd.sdy_to_hlo_sharding import to_hlo_sharding
from pysdy.passes.import_.symbols import symbol_name
from pysdy.passes.pipeline import functions_of, parse_pipeline, run_pipeline
from pysdy.runtime.xla_limits import pin_loop_invariants, unify_branch_results

FAST = [
    "mlp_forward",
    "sharding_constraints_on_intermediates",
    "conflicting_annotations",
    "multiple_axes_per_dimension",
    "replicated_and_unconstrained",
    "shard_map_psum",
    "shard_map_all_to_all",
    "shard_map_psum_scatter_and_axis_index",
    "shard_map_inside_jit_mixed",
]
# JAX lowers unreduced shardings only for Shardy: without it a sharding constraint is a `@Sharding` custom
# call, and JAX's check that an unreduced value ends in `sdy.sharding_constraint` fails (jax 0.10.2,
# `check_unreduced_constraint` in jax/_src/interpreters/mlir.py).
NO_GSPMD_LOWERING = {"explicit_mesh_unreduced_matmul": "Expected last op to be sdy.sharding_constraint"}


def _check_no_gspmd_lowering(name: str) -> None:
    """The program JAX cannot lower for GSPMD fails with JAX's own message (so a JAX that can is noticed)."""
    with pytest.raises(AssertionError, match=NO_GSPMD_LOWERING[name]):
        lowerings(name)


@functools.cache
def lowerings(name: str) -> tuple[str, str]:
    """The program lowered for GSPMD and for Shardy; the flag is restored afterwards."""
    build = getattr(jax_corpus, name)
    before = jax.config.jax_use_shardy_partitioner
    try:
        jax.config.update("jax_use_shardy_partitioner", False)
        gspmd = build()
        jax.config.update("jax_use_shardy_partitioner", True)
        shardy = build()
    finally:
        jax.config.update("jax_use_shardy_partitioner", before)
    return gspmd, shardy


def imported(text: str, steps: str = "xla-sdy-stablehlo-import-pipeline") -> str:
    with make_context():
        module = ir.Module.parse(text)
        run_pipeline(module, parse_pipeline(steps))
        return str(module)


# --------------------------------------------------------------------------
# Oracle 1: the shardings JAX's Shardy lowering gives the same program
# --------------------------------------------------------------------------


def _comparable(sharding: TensorSharding | None, meshes: dict[str, Mesh], manual=()):
    """The sharding as XLA's HloSharding text and which dims are open (None for no sharding)."""
    if sharding is None:
        return None
    mesh = meshes[sharding.mesh]
    return to_hlo_sharding(sharding, mesh, manual).to_text(), tuple(not d.is_closed for d in sharding.dims)


def shardings_of(text: str) -> dict[str, list]:
    """@main's argument and result shardings, the constraints' and the manual computations', in order."""
    with make_context():
        module = ir.Module.parse(text)
        top = module.operation
        meshes = {
            symbol_name(op.operation): Mesh.from_attr(op.operation.attributes["mesh"])
            for op in top.regions[0].blocks[0].operations
            if op.operation.name == "sdy.mesh"
        }
        main = next(f for f in functions_of(top) if symbol_name(f) == "main")
        found = {
            "arguments": [_comparable(s, meshes) for s in func_attrs.arg_shardings(main)],
            "results": [_comparable(s, meshes) for s in func_attrs.result_shardings(main)],
            "constraints": [],
            "manual computations": [],
        }
        for op in nested_ops_named(top, {"sdy.sharding_constraint", "sdy.manual_computation"}, pre_order=True):
            if op.name == "sdy.sharding_constraint":
                found["constraints"].append(_comparable(TensorSharding.from_attr(op.attributes["sharding"]), meshes))
                continue
            manual = ManualAxes.from_attr(op.attributes["manual_axes"]).axes
            shardings = [
                TensorShardingPerValue.from_attr(op.attributes[k]).shardings for k in ("in_shardings", "out_shardings")
            ]
            mesh_name = next((s.mesh for group in shardings for s in group), None)
            # The manual devices: a scalar sharded only by the manual axes.
            devices = _comparable(TensorSharding(mesh_name, ()), meshes, manual) if mesh_name else None
            found["manual computations"].append(
                ([_comparable(s, meshes) for s in shardings[0]], [_comparable(s, meshes) for s in shardings[1]], devices)
            )
        return found


@pytest.mark.parametrize("name", FAST)
def test_import_equals_jax_shardy_lowering(name):
    gspmd, shardy = lowerings(name)
    assert "mhlo.sharding" in gspmd and "sdy.sharding" not in gspmd
    ours = shardings_of(imported(gspmd))
    theirs = shardings_of(shardy)
    assert ours == theirs


# Where pysdy's import of JAX's GSPMD lowering is known to differ from JAX's Shardy lowering.
_SHARD_AS = (
    "jax.shard_alike lowers for GSPMD to `@Sharding` calls of `{unknown shard_as N}`, which XLA's import makes "
    "fully open sharding constraints (oracle 3), and so does pysdy's; JAX's Shardy lowering has sdy.sharding_group "
    "ops instead"
)
IMPORT_DIFFERS = {
    "shard_alike_output_like_input": _SHARD_AS,
    "shard_alike_chained": _SHARD_AS,
    "shard_alike_conflicting_constraints": _SHARD_AS,
    "shard_alike_around_shard_map": _SHARD_AS,
    "shard_alike_inside_shard_map": _SHARD_AS,
    "shard_alike_in_scan_body": _SHARD_AS,
}


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(reason=IMPORT_DIFFERS[n], strict=True)) if n in IMPORT_DIFFERS else n
        for n in jax_corpus.program_names()
    ],
)
def test_import_equals_jax_shardy_lowering_whole_corpus(name):
    if name in NO_GSPMD_LOWERING:
        _check_no_gspmd_lowering(name)
        return
    gspmd, shardy = lowerings(name)
    assert shardings_of(imported(gspmd)) == shardings_of(shardy)


# --------------------------------------------------------------------------
# Oracle 2: XLA compiles the imported, propagated module like the GSPMD one
# --------------------------------------------------------------------------


def compiled_parameter_shardings(text: str, shardy: bool) -> list[str]:
    parameters, _ = xla_export_oracle.compiled_shardings(text, xla_export_oracle.DEVICES, shardy)
    return parameters


# Two things XLA (jaxlib 0.10.2) rejects before its Shardy partitioner runs, in modules that only a
# propagation leaves: JAX never shards a while loop and never gives case branches different shardings,
# and XLA's own flow exports (adds reshards) before converting to HLO. jaxlib's C++ `sdy-propagation-pipeline`
# run on JAX's own Shardy lowering leaves the same modules and XLA fails on them the same way, so the
# oracle rewrites them as the runtime does before its hand-off (runtime/xla_limits.py), shardings kept.
#
# (a) A sharded `stablehlo.while` whose body returns an argument unchanged: the conversion to HLO makes
# that operand a captured value outside the loop tuple but keeps its element of the while's sharding,
# so the tuple sharding has one element too many (in larger modules the process segfaults after it).
SHARDED_WHILE_WITH_INVARIANT_OPERAND = """
module @repro attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=8]>
  func.func public @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                         %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8xf32>, tensor<8xf32>
      attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{"x"}]>]>}
    cond {
      %c = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %1 = stablehlo.add %iterArg, %iterArg_0 : tensor<8xf32>
      stablehlo.return %iterArg, %1 : tensor<8xf32>, tensor<8xf32>
    }
    return %0#1 : tensor<8xf32>
  }
}
"""
# (b) Case branches returning values of different shardings: HLO's verifier wants one sharding on all
# branch roots of a conditional.
CASE_BRANCHES_WITH_DIFFERENT_SHARDINGS = """
module @repro attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %0 = "stablehlo.case"(%arg0) ({
      %1 = stablehlo.sine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
      stablehlo.return %1 : tensor<8x8xf32>
    }, {
      %1 = stablehlo.cosine %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>} : tensor<8x8xf32>
      stablehlo.return %1 : tensor<8x8xf32>
    }) : (tensor<i32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
"""


def in_form_xla_compiles(text: str) -> str:
    """The module with its loops and conditionals rewritten as the runtime hands them to XLA."""
    with make_context():
        module = ir.Module.parse(text)
        pin_loop_invariants(module)
        unify_branch_results(module)
        return str(module)


@pytest.mark.parametrize(
    "text, message, constraint",
    [
        (
            SHARDED_WHILE_WITH_INVARIANT_OPERAND,
            "has 2 leaf nodes while this sharding has 3",
            'sdy.sharding_constraint %iterArg <@mesh, [{"x"}]>',
        ),
        (
            CASE_BRANCHES_WITH_DIFFERENT_SHARDINGS,
            "Inconsistent conditional sharding among instructions",
            'sdy.sharding_constraint %1 <@mesh, [{"x"}, {}]>',
        ),
    ],
    ids=["while_with_invariant_operand", "case_branches"],
)
def test_xla_compiles_the_rewritten_form_of_what_it_rejects(text, message, constraint):
    with pytest.raises(Exception, match=message):
        compiled_parameter_shardings(text, True)
    rewritten = in_form_xla_compiles(text)
    assert rewritten.count("sdy.sharding_constraint") == 1 and constraint in rewritten, rewritten
    assert rewritten.count("sdy.sharding_per_value") == text.count("sdy.sharding_per_value")
    compiled_parameter_shardings(rewritten, True)


def _compile_check(name: str) -> None:
    gspmd, _ = lowerings(name)
    propagated = imported(gspmd, "xla-sdy-stablehlo-import-pipeline,sdy-propagation-pipeline")
    # jaxlib's compile path exports sharding constraints but not reshards (see runtime/xla_limits.py).
    propagated = propagated.replace("sdy.reshard", "sdy.sharding_constraint")
    propagated = in_form_xla_compiles(propagated)
    assert compiled_parameter_shardings(propagated, True) == compiled_parameter_shardings(gspmd, False)


@pytest.mark.parametrize("name", ["mlp_forward", "sharding_constraints_on_intermediates", "shard_map_inside_jit_mixed"])
def test_propagated_import_compiles_like_gspmd(name):
    _compile_check(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", jax_corpus.program_names())
def test_propagated_import_compiles_like_gspmd_whole_corpus(name):
    if name in NO_GSPMD_LOWERING:
        _check_no_gspmd_lowering(name)
        return
    _compile_check(name)


# Where the HLO of pysdy's export differs from XLA's export of the same module. pysdy's export marks the add
# in the body of the manual computation's `stablehlo.reduce` `{manual}`, as XLA's does, but StableHLO's
# printer writes a reduce whose body is one op as `applies stablehlo.add`, without that op's attributes, so
# the text `xla_export_oracle` translates to HLO has lost it.
EXPORT_HLO_DIFFERS = {
    "shard_map_inside_jit_mixed": "the printed export loses the {manual} sharding of a reduce body's add",
}


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(reason=EXPORT_HLO_DIFFERS[n], strict=True)) if n in EXPORT_HLO_DIFFERS else n
        for n in jax_corpus.program_names()
        if n not in NO_GSPMD_LOWERING
    ],
)
def test_propagated_import_exports_as_xla_whole_corpus(name):
    gspmd, _ = lowerings(name)
    propagated = in_form_xla_compiles(
        imported(gspmd, "xla-sdy-stablehlo-import-pipeline,sdy-propagation-pipeline")
    )
    xla_export_oracle.assert_exports_as_xla(propagated)


# --------------------------------------------------------------------------
# Oracle 3: XLA's own import of the GSPMD module
# --------------------------------------------------------------------------


def _made_for_a_while_free_variable(constraint: ir.Operation) -> bool:
    """A constraint all of whose uses are inside one `stablehlo.while` it is not in, as
    `xla-sdy-open-while-free-vars-sharding` makes for a loop's free variable (XLA's round trip through HLO
    turns a loop-invariant operand into one, so its import has constraints pysdy's import need not)."""
    loops = set()
    for use in constraint.results[0].uses:
        op = use.owner.operation
        while op.name not in ("stablehlo.while", "func.func"):
            op = op.parent.operation
        loops.add(op if op.name == "stablehlo.while" else None)
    return len(loops) == 1 and None not in loops


def imported_shardings(text: str) -> tuple[list[str], list[str | None], list[str], list[str]]:
    """The meshes, @main's argument shardings, and each sharding constraint's and op's sharding in the module in
    walk order (the constraints on a while loop's free variables left out), as printed."""
    with make_context():
        module = ir.Module.parse(text)
        top = module.operation
        meshes = [str(op.attributes["mesh"]) for op in top.regions[0].blocks[0].operations if op.name == "sdy.mesh"]
        main = next(f for f in functions_of(top) if symbol_name(f) == "main")
        arguments = [str(a) if a is not None else None for a in func_attrs.arg_sharding_attrs(main)]
        constraints, ops = [], []
        for op in nested_ops(top, pre_order=True):
            if op.name == "sdy.sharding_constraint":
                if not _made_for_a_while_free_variable(op):
                    constraints.append(str(op.attributes["sharding"]))
            elif op.name != "func.func" and "sdy.sharding" in op.attributes:
                ops.append(str(op.attributes["sdy.sharding"]))
        return meshes, arguments, constraints, ops


SHARD_GROUPS = """
module @shard_groups attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]<=[8] shard_as 5}"},
                         %arg1: tensor<8x16xf32> {mhlo.sharding = "{unknown shard_like 6}"})
      -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "", has_side_effect = true, mhlo.sharding = "{unknown shard_as 0}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.multiply %arg0, %arg1 : tensor<8x16xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {backend_config = "", has_side_effect = true, mhlo.sharding = "{unknown shard_as 0}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %3 = stablehlo.negate %arg1 : tensor<8x16xf32>
    %4 = stablehlo.custom_call @Sharding(%3) {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate shard_like 1}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %5 = stablehlo.abs %arg1 : tensor<8x16xf32>
    %6 = stablehlo.custom_call @Sharding(%5) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate shard_as 2}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %7 = stablehlo.add %arg0, %arg1 {mhlo.sharding = "{replicated shard_like 3}"} : tensor<8x16xf32>
    return %2, %4, %6, %7 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  }
}
"""


def test_shard_groups_import_as_xla_does():
    """XLA's import drops `shard_as N` / `shard_like N` and imports the sharding (an unknown one fully open)."""
    ours = imported_shardings(imported(SHARD_GROUPS))
    assert ours == imported_shardings(xla_import_oracle.xla_import(SHARD_GROUPS))
    open_, first, first_open = "[{?}, {?}]", '[{"_axis_0"}, {}]', '[{"_axis_0"}, {?}]'
    assert ours[2] == [f"#sdy.sharding<@mesh, {dims}>" for dims in (open_, open_, first, first_open)]
    assert "sdy.sharding_group" not in imported(SHARD_GROUPS)


# Pairs of @main argument shardings whose device orders are transposes or reshapes of the iota, as XLA exports
# them: one mesh must name both.
TRANSPOSED_IOTAS = [
    ("{devices=[2,4]<=[4,2]T(1,0)}", "{devices=[2,4]<=[8]}"),
    ("{devices=[4,2]<=[2,4]T(1,0)}", "{devices=[2,4]<=[8]}"),
    ("{devices=[2,4]<=[4,2]T(1,0)}", "{devices=[4,2]<=[8]}"),
    ("{devices=[2,4]<=[2,2,2]T(1,0,2)}", "{devices=[8,1]<=[8]}"),
    ("{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}", "{devices=[8,1]<=[2,4]T(1,0)}"),
    ("{devices=[4,1,2]<=[2,2,2]T(0,2,1) last_tile_dim_replicate}", "{devices=[2,4]<=[8]}"),
    ("{devices=[2,2,2]<=[8] last_tile_dim_replicate}", "{devices=[2,4]<=[2,2,2]T(2,0,1)}"),
    ("{devices=[1,8]<=[2,2,2]T(2,1,0)}", "{devices=[2,2,2]<=[2,2,2]T(1,2,0) last_tile_dim_replicate}"),
]


@pytest.mark.parametrize("first, second", TRANSPOSED_IOTAS)
def test_transposed_and_reshaped_iotas_import_as_xla_does(first, second):
    text = f"""
module @orders attributes {{mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32}} {{
  func.func public @main(%arg0: tensor<8x16xf32> {{mhlo.sharding = "{first}"}},
                         %arg1: tensor<8x16xf32> {{mhlo.sharding = "{second}"}}) -> tensor<8x16xf32> {{
    %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
    return %0 : tensor<8x16xf32>
  }}
}}"""
    ours = imported_shardings(imported(text))
    assert ours == imported_shardings(xla_import_oracle.xla_import(text))
    assert len(ours[0]) == 1 and None not in ours[1]


def _has_shard_map(gspmd: str) -> bool:
    return "@SPMDFullToShardShape" in gspmd


# XLA's import (the oracle) crashes on this program on the lines that say so (versions.py).
ORACLE_CRASH = "ordered_io_callback_and_debug_print"


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", [n for n in jax_corpus.program_names() if n not in NO_GSPMD_LOWERING and n != ORACLE_CRASH]
)
def test_import_equals_xla_import_whole_corpus(name):
    _assert_import_equals_xla_import(name)


@pytest.mark.slow
@when("xla_import_crashes_on_ordered_callbacks", False)
def test_import_equals_xla_import_on_ordered_callbacks():
    _assert_import_equals_xla_import(ORACLE_CRASH)


def _assert_import_equals_xla_import(name: str) -> None:
    """XLA's import (jaxlib 0.10.2) leaves a shard_map's custom calls as they are, so for a program with a
    shard_map only the argument shardings are compared; the constraints are compared as sets, since XLA's round
    trip through HLO may inline, reorder or drop ops."""
    gspmd, _ = lowerings(name)
    meshes, arguments, constraints, _ = imported_shardings(imported(gspmd))
    xla_meshes, xla_arguments, xla_constraints, _ = imported_shardings(xla_import_oracle.xla_import(gspmd))
    assert (meshes, arguments) == (xla_meshes, xla_arguments)
    if not _has_shard_map(gspmd):
        assert set(constraints) == set(xla_constraints)


@pytest.mark.slow
@when("xla_import_crashes_on_ordered_callbacks")
def test_xla_import_crash_is_where_versions_says():
    """The oracle's crash is jaxlib's: its import dies on the program, pysdy's imports it."""
    gspmd, _ = lowerings(ORACLE_CRASH)
    with pytest.raises(ChildProcessCrash):
        xla_import_oracle.xla_import(gspmd)
    assert "sdy.mesh" in imported(gspmd)
