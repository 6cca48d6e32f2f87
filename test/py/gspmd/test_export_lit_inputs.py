"""The inputs of the gspmd export lit tests, exported by XLA itself, and the shardings they expect, made by JAX.

Each case of the lit files (split at `// -----`) that XLA's own
`xla-sdy-stablehlo-export-pipeline` can take is exported by XLA (through
jaxlib's GSPMD fallback, see xla_export_oracle.py) and by pysdy, and both
become the same HLO; since the lit file checks pysdy's output exactly, its
expectations are XLA's. The shardings a PartitionSpec can say are also
compared with what JAX's `NamedSharding` lowers them to.
"""

from __future__ import annotations

import pathlib
import re

import pytest
import xla_oracle
from jax._src.lib import xla_client as xc
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec
from xla_export_oracle import assert_exports_as_xla

LIT = pathlib.Path(__file__).parents[2] / "lit" / "gspmd"
_FUNC = re.compile(r"func\.func @([\w.]+)\(")


def lit_cases(file_name: str) -> dict[str, str]:
    """Each case of a lit file without its comments, by the name of its first function."""
    cases = {}
    for chunk in (LIT / file_name).read_text().split("\n// -----\n"):
        text = "\n".join(line for line in chunk.splitlines() if not line.lstrip().startswith("//")).strip()
        cases[_FUNC.search(text).group(1)] = text
    return cases


def as_main_module(case: str) -> str:
    """The case as the module XLA compiles: its first function public and named `main`, 8 partitions."""
    name = _FUNC.search(case).group(1)
    body = case.replace(f"func.func @{name}(", "func.func public @main(", 1)
    return f"module @m attributes {{mhlo.num_partitions = 8 : i32}} {{\n{body}\n}}"


def check_lines(file_name: str, name: str) -> str:
    """The CHECK lines of the case whose first function is `name`, unescaped."""
    for chunk in (LIT / file_name).read_text().split("\n// -----\n"):
        if f"func.func @{name}(" in chunk:
            lines = [line for line in chunk.splitlines() if line.startswith("// CHECK")]
            return "\n".join(lines).replace("{{[{][{]}}", "{{").replace("{{$}}", "")
    raise KeyError(name)


# --------------------------------------------------------------------------
# XLA's export of the lit inputs
# --------------------------------------------------------------------------

# @manual_body is an outlined manual computation body on its own: as an entry computation XLA's
# partitioner aborts the process on it (a manual subgroup reaching a non-manual tensor).
NOT_FOR_XLA = {"export_shardings.mlir": {"manual_body"}}
LIT_INPUTS = [
    pytest.param(case, id=f"{file_name.removesuffix('.mlir')}:{name}")
    for file_name in (
        "export_manual_reduction_collectives.mlir",
        "export_ops.mlir",
        "shard_map_export.mlir",
        "export_shardings.mlir",
        "export_callback_custom_calls.mlir",
    )
    for name, case in lit_cases(file_name).items()
    if name not in NOT_FOR_XLA.get(file_name, set())
]


def test_cases_left_out_of_the_xla_comparison_exist():
    for file_name, names in NOT_FOR_XLA.items():
        assert names <= set(lit_cases(file_name))


@pytest.mark.parametrize("case", LIT_INPUTS)
def test_lit_inputs_export_as_xla(case):
    assert_exports_as_xla(as_main_module(case))


# --------------------------------------------------------------------------
# JAX's lowering of the shardings export_shardings.mlir expects
# --------------------------------------------------------------------------

_HLO_SHARDING = re.compile(r'mhlo\.sharding = "((?:[^"\\]|\\.)*)"')
_X2_Y4 = (("x", 2), ("y", 4))
_REVERSED = tuple(range(7, -1, -1))
P = PartitionSpec

# Per case: its mesh (axes, device ids), then each `mhlo.sharding` of its CHECK lines in order, as a
# PartitionSpec with its manual axes, or a list of them for a tuple sharding. Sub-axes, explicitly
# replicated axes and meshes without axes, which a PartitionSpec cannot say, are left to XLA above.
JAX_SPECS = {
    "fully_replicated": (_X2_Y4, (), [(P(None, None), ())]),
    "tiled_iota": (_X2_Y4, (), [(P("x", "y"), ())]),
    "transposed_iota": (_X2_Y4, (), [(P("y", "x"), ())]),
    "mesh_device_ids": (_X2_Y4, _REVERSED, [(P("y", "x"), ())]),
    "partially_replicated": (_X2_Y4, (), [(P(None, "y"), ())]),
    "unreduced": (_X2_Y4, (), [(P("x", None, unreduced={"y"}), ())]),
    "unreduced_and_replicated": (_X2_Y4, (), [(P(None, None, unreduced={"y"}), ())]),
    "tuple_sharding": (_X2_Y4, (), [[(P(None, ("x", "y")), ()), (P(None, "y"), ())]]),
    "func_results": (_X2_Y4, (), [(P("x", None), ()), (P(None, ("x", "y")), ())]),
    "manual_body": (
        _X2_Y4,
        (),
        [(P(None, "y"), ("x",)), (P(None, None), ("x",)), (P("y", None), ("x",)), (P(None, None), ("x", "y"))],
    ),
    "control_flow": (_X2_Y4, (), [(P("x", None), ())]),
    "open_dims_priorities": (_X2_Y4, (), [(P("x", None), ())]),
    "if_op": (_X2_Y4, (), [(P("x", None), ()), (P(None, "y"), ())]),
    "topk": (_X2_Y4, (), [[(P("x", None), ()), (P("x", None), ())]]),
}


def jax_hlo_sharding(axes, device_ids, spec: PartitionSpec, manual: tuple[str, ...]) -> xc.HloSharding:
    types = tuple(AxisType.Manual if name in manual else AxisType.Explicit for name, _ in axes)
    mesh = AbstractMesh(tuple(size for _, size in axes), tuple(name for name, _ in axes), axis_types=types)
    return NamedSharding(mesh, spec, _logical_device_ids=device_ids or None)._to_xla_hlo_sharding(len(spec))


@pytest.mark.parametrize("name", list(JAX_SPECS))
def test_lit_shardings_are_what_jax_lowers_the_specs_to(name):
    axes, device_ids, specs = JAX_SPECS[name]
    texts = _HLO_SHARDING.findall(check_lines("export_shardings.mlir", name))
    assert len(texts) == len(specs), texts
    for text, spec in zip(texts, specs):
        expected = xc.HloSharding.from_string(text)
        elements = expected.tuple_elements() if isinstance(spec, list) else [expected]
        for element, (partition_spec, manual) in zip(elements, spec if isinstance(spec, list) else [spec], strict=True):
            jax = jax_hlo_sharding(axes, device_ids, partition_spec, manual)
            xla_oracle.check(str(element), str(jax), f"{name}: {partition_spec} manual={manual}")
            xla_oracle.check(element == jax, True, f"{name}: XLA reads {element} as JAX's {jax}")
