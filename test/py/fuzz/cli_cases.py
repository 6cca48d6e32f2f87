"""Fuzz cases for pysdy-opt: real modules, mutated, under real and odd command lines.

Seeds are the inputs of this project's lit tests (each `// -----` part, with
the passes its RUN line names), hand-written Shardy snippets (priorities,
sub-axes, nested manual and named computations, groups, calls, control flow,
`mhlo.sharding` modules for the GSPMD import), random valid modules
(`propagation/random_modules.py`) and, on request, JAX-lowered programs (Shardy
and GSPMD lowerings of `jax_corpus`). A case applies one to three mutations
(broken meshes, axis sizes 0/negative/huge, sub-axes, priorities, ranks,
shapes, manual axes, HloSharding strings, truncation, random bytes, ...) and
picks passes and flags; some cases instead garble the command line. Case
number `i` of seed `s` is the same case on every machine: `case(s, i)`.
"""

from __future__ import annotations

import dataclasses
import functools
import glob
import os
import random
import re
import shlex
import sys

INPUT = "{input}"
OUTPUT = "{output}"

_HERE = os.path.dirname(os.path.abspath(__file__))
_REPO = os.path.dirname(os.path.dirname(os.path.dirname(_HERE)))


@dataclasses.dataclass(frozen=True)
class Case:
    """pysdy-opt `args` (with INPUT/OUTPUT placeholders) on input bytes `source`, read from stdin when `stdin`."""

    name: str
    source: bytes
    args: tuple[str, ...]
    stdin: bool = False
    command_line_error_allowed: bool = False  # a garbled command line may end in a `pysdy-opt: ...` line


@dataclasses.dataclass(frozen=True)
class Seed:
    name: str
    text: str
    passes: tuple[str, ...]  # the flags its source runs it with


# ----- seeds -----

_HAND_WRITTEN = {
    "priorities_and_sub_axes": (
        """sdy.mesh @mesh = <["a"=4, "b"=2, "c"=3]>
func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2}p1, {"c"}p0]>},
                %arg1: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a":(2)2, "b"}p2], replicated={"a":(1)2}>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}p3, {}]>}) {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a":(1)2, ?}p0, {?}]> : tensor<8x4xf32>
  %2 = stablehlo.tanh %1 : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
""",
        ("-sdy-propagation-pipeline",),
    ),
    "nested_manual_computations": (
        """sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c"}]>}) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%x: tensor<8x8xf32>) {
    %1 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"b"}, {"c"}]>] out_shardings=[<@mesh, [{"b"}, {"c"}]>] manual_axes={"b", "c"} (%y: tensor<4x4xf32>) {
      %2 = stablehlo.multiply %y, %y : tensor<4x4xf32>
      sdy.return %2 : tensor<4x4xf32>
    } : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = stablehlo.add %1, %x : tensor<8x8xf32>
    sdy.return %3 : tensor<8x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
""",
        ("-sdy-propagation-pipeline",),
    ),
    "named_computations_and_calls": (
        """sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
  %0 = sdy.named_computation<"outer">(%arg0) in_shardings=[<@mesh, [{"x"}, {?}]>] out_shardings=[<@mesh, [{?}, {"y"}]>] (%a: tensor<8x16xf32>) {
    %1 = sdy.named_computation<"inner">(%a) (%b: tensor<8x16xf32>) {
      %2 = stablehlo.exponential %b : tensor<8x16xf32>
      sdy.return %2 : tensor<8x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    sdy.return %1 : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = call @helper(%0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %4 = call @helper(%3) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}
func.func private @helper(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
""",
        ("-sdy-propagation-pipeline",),
    ),
    "groups_reshards_and_control_flow": (
        """sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @maximal = <[], device_ids=[1]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<i32>) -> tensor<8x8xf32> {
  sdy.sharding_group %arg0 group_id=3 : tensor<8x8xf32>
  %0 = sdy.reshard %arg0 <@mesh, [{"b"}, {"a"}]> : tensor<8x8xf32>
  sdy.sharding_group %0 group_id=3 : tensor<8x8xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.while(%iterArg = %0, %i = %c) : tensor<8x8xf32>, tensor<i32>
    cond {
    %2 = stablehlo.compare LT, %i, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    %3 = stablehlo.add %iterArg, %iterArg : tensor<8x8xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %4 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %3, %4 : tensor<8x8xf32>, tensor<i32>
  }
  %5 = stablehlo.custom_call @foo(%1#0) {sdy.sharding = #sdy.sharding_per_value<[<@maximal, []>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %5 : tensor<8x8xf32>
}
""",
        ("-sdy-propagation-pipeline",),
    ),
    "declarations_and_calls": (
        """sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func private @declared(tensor<8x4xf32>) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>})
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x4xf32> {
  %0 = call @callee(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
func.func private @callee(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.transpose %arg0, dims = [0, 1] : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
""",
        ("-sdy-propagation-pipeline",),
    ),
    "gspmd_module": (
        """module @jit_f attributes {mhlo.num_partitions = 8 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"},
                         %arg1: tensor<16x8xf32> {mhlo.sharding = "{devices=[2,4]<=[4,2]T(1,0)}"})
      -> (tensor<8x8xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {mhlo.sharding = "{devices=[2,2,2]<=[8] last_tile_dims={manual}}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {mhlo.sharding = "{replicated}"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %3 = stablehlo.add %2, %2 {mhlo.sharding = "{maximal device=3}"} : tensor<8x8xf32>
    return %3 : tensor<8x8xf32>
  }
}
""",
        ("-xla-sdy-stablehlo-import-pipeline", "-sdy-propagation-pipeline"),
    ),
}

_PASS_FLAG = re.compile(r"^-{1,2}[a-z]")
_NOT_PASSES = {"-split-input-file", "-verify-diagnostics", "-o"}


def _lit_seeds() -> list[Seed]:
    seeds = []
    for path in sorted(glob.glob(os.path.join(_REPO, "test", "lit", "*", "*.mlir"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        passes = _run_line_passes(text)
        parts = re.split(r"^// -----.*$", text, flags=re.MULTILINE)
        for index, part in enumerate(parts):
            body = "\n".join(line for line in part.split("\n") if not line.lstrip().startswith("//")).strip()
            if body:
                name = f"lit:{os.path.relpath(path, os.path.join(_REPO, 'test', 'lit'))}#{index}"
                seeds.append(Seed(name, body + "\n", passes))
    return seeds


def _run_line_passes(text: str) -> tuple[str, ...]:
    match = re.search(r"^// RUN: (?:not )?pysdy-opt (.*)$", text, flags=re.MULTILINE)
    if match is None:
        return ()
    command = re.split(r"\s(?:\||2>|>|<|&&)", match.group(1))[0]
    try:
        words = shlex.split(command)
    except ValueError:
        return ()
    return tuple(w for w in words if _PASS_FLAG.match(w) and w.split("=")[0] not in _NOT_PASSES and _is_pass(w))


def _is_pass(flag: str) -> bool:
    """Whether the flag names a pass the installed line accepts with its options (a RUN line that checks the error
    for a misspelled pass, or for an option another jax line has, does not)."""
    from pysdy.passes.pipeline import PipelineError
    from pysdy.passes.registry import all_passes
    from pysdy.tools.pysdy_opt import UsageError, parse_args

    name = flag.lstrip("-").split("=")[0]
    if not (name == "pass-pipeline" or name in all_passes() or name in PASS_FLAGS_UPSTREAM):
        return False
    try:
        parse_args([flag, "-"])
    except (UsageError, PipelineError):
        return False
    return True


def _random_module_seeds(count: int) -> list[Seed]:
    sys.path.insert(0, os.path.join(os.path.dirname(_HERE), "propagation"))
    from random_modules import random_module

    return [Seed(f"random_module:{n}", random_module(n), ("-sdy-propagation-pipeline",)) for n in range(count)]


def _jax_seeds(names: list[str]) -> list[Seed]:
    """Each program lowered for Shardy and for GSPMD (`mhlo.sharding`, imported before propagation)."""
    sys.path.insert(0, os.path.dirname(_HERE))
    import jax
    import jax_corpus

    seeds = []
    for name in names:
        build = getattr(jax_corpus, name)
        seeds.append(Seed(f"jax:{name}", build(), ("-sdy-propagation-pipeline",)))
        before = jax.config.jax_use_shardy_partitioner
        try:
            jax.config.update("jax_use_shardy_partitioner", False)
            gspmd = build()
        except Exception:  # a program JAX lowers only for Shardy
            continue
        finally:
            jax.config.update("jax_use_shardy_partitioner", before)
        seeds.append(Seed(f"jax-gspmd:{name}", gspmd, ("-xla-sdy-stablehlo-import-pipeline", "-sdy-propagation-pipeline")))
    return seeds


JAX_FAST = ["mlp_forward", "shard_map_psum"]


def jax_program_names() -> list[str]:
    sys.path.insert(0, os.path.dirname(_HERE))
    import jax_corpus

    return jax_corpus.program_names()


@functools.cache
def seeds(jax_programs: tuple[str, ...] = ()) -> tuple[Seed, ...]:
    hand = [Seed(f"hand:{name}", text, passes) for name, (text, passes) in _HAND_WRITTEN.items()]
    return tuple(hand + _lit_seeds() + _random_module_seeds(40) + _jax_seeds(list(jax_programs)))


# ----- mutations -----

_SIZES = ["0", "-1", "1", "3", "7", "2147483648", "9223372036854775807", "18446744073709551617", "100000000000000000000"]
_NUMBERS = ["0", "-1", "1", "2", "3", "4", "5", "8", "16", "-2", "65536", "2147483647", "9223372036854775808"]
_AXIS_NAMES = ['"a"', '"b"', '"x"', '"y"', '"zz"', '""', '"a"', '"_axis_0"', '"é"', '"a b"']


def _replace_one(rng: random.Random, text: str, pattern: str, replacement) -> str:
    matches = list(re.finditer(pattern, text))
    if not matches:
        return text
    m = rng.choice(matches)
    new = replacement(m) if callable(replacement) else replacement
    return text[: m.start()] + new + text[m.end() :]


def _axis_size(rng, text):
    return _replace_one(rng, text, r'(?<=")=\d+', lambda m: "=" + rng.choice(_SIZES))


def _axis_name(rng, text):
    return _replace_one(rng, text, r'"[A-Za-z_][\w]*"(?==\d)', lambda m: rng.choice(_AXIS_NAMES))


def _mesh_reference(rng, text):
    return _replace_one(rng, text, r"(?<=<)@\w+", lambda m: rng.choice(["@unknown", "@maximal_mesh_0", m.group(0) + "x"]))


def _device_ids(rng, text):
    ids = [rng.choice(_NUMBERS) for _ in range(rng.choice([0, 1, 2, 4, 8, 9]))]
    if rng.random() < 0.5 and len(ids) > 1:
        ids = [str(i) for i in rng.sample(range(len(ids)), len(ids))]
    return _replace_one(rng, text, r"\]>(?=\s*(?:\n|\{|$))", f"], device_ids=[{', '.join(ids)}]>")


def _maximal_mesh(rng, text):
    return _replace_one(rng, text, r"sdy\.mesh @(\w+) = <\[[^\]]*\][^>]*>", lambda m: f"sdy.mesh @{m.group(1)} = <[], device_ids=[{rng.choice(_NUMBERS)}]>")


def _sharding_axis(rng, text):
    return _replace_one(rng, text, r'\{"[\w]+"', lambda m: "{" + rng.choice(_AXIS_NAMES + [_sub_axis(rng)]))


def _sub_axis(rng) -> str:
    return f'{rng.choice(_AXIS_NAMES)}:({rng.choice(_NUMBERS)}){rng.choice(_NUMBERS)}'


def _sub_axis_params(rng, text):
    return _replace_one(rng, text, r":\(\d+\)\d+", lambda m: f":({rng.choice(_NUMBERS)}){rng.choice(_NUMBERS)}")


def _priority(rng, text):
    return _replace_one(rng, text, r"\}(?=[,\]])", lambda m: "}p" + rng.choice(["0", "1", "99", "-1", "1099511627776", "x"]))


def _dim_count(rng, text):
    if rng.random() < 0.5:
        return _replace_one(rng, text, r"\[\{[^\[\]]*?\}(?=[,\]])", lambda m: m.group(0) + ", {}")
    return _replace_one(rng, text, r", \{[^{}\[\]]*\}(?=\])", "")


def _open_closed(rng, text):
    if rng.random() < 0.5:
        return _replace_one(rng, text, r", \?\}|\{\?\}", lambda m: "}" if m.group(0) == ", ?}" else "{}")
    return _replace_one(rng, text, r"\{(\"[^{}]*)\}", lambda m: "{" + m.group(1) + ", ?}")


def _replicated_or_unreduced(rng, text):
    kind = rng.choice(["replicated", "unreduced"])
    axes = ", ".join(rng.sample(_AXIS_NAMES[:5], rng.randint(1, 2)))
    return _replace_one(rng, text, r"(?<=\])>(?=[\]}\s:,])", f", {kind}={{{axes}}}>")


def _shape(rng, text):
    return _replace_one(rng, text, r"(?<=tensor<)(\d+)(?=x|\w)", lambda m: rng.choice(["0", "1", "3", "5", "7", "16", "64", "?", "4294967296"]))


def _manual_axes(rng, text):
    axes = ", ".join(rng.sample(_AXIS_NAMES, rng.randint(0, 3)))
    return _replace_one(rng, text, r"manual_axes=\{[^}]*\}", f"manual_axes={{{axes}}}")


def _factor_size(rng, text):
    return _replace_one(rng, text, r"(?<=[{ ])([a-z])=(\d+)(?=[,}])", lambda m: f"{m.group(1)}={rng.choice(_NUMBERS)}")


def _hlo_sharding(rng, text):
    return _replace_one(rng, text, r'mhlo\.sharding = "[^"]*"', lambda m: f'mhlo.sharding = "{_random_hlo_sharding(rng)}"')


def _random_hlo_sharding(rng) -> str:
    kind = rng.randrange(8)
    dims = [rng.choice(["1", "2", "4", "8", "3", "0", "-1"]) for _ in range(rng.randint(1, 4))]
    tail = rng.choice(["", " last_tile_dim_replicate", " last_tile_dims={manual}", " last_tile_dims={replicated, manual}", " metadata={op_name=\"x\"}"])
    if kind == 0:
        return rng.choice(["{replicated}", "{manual}", "{unknown}", "{}", "{maximal device=" + rng.choice(_NUMBERS) + "}"])
    if kind == 1:
        return f"{{devices=[{','.join(dims)}]<=[{rng.choice(_NUMBERS)}]{tail}}}"
    if kind == 2:
        reshape = [rng.choice(["2", "4", "8"]) for _ in range(rng.randint(1, 3))]
        perm = ",".join(str(i) for i in rng.sample(range(len(reshape)), len(reshape)))
        return f"{{devices=[{','.join(dims)}]<=[{','.join(reshape)}]T({perm}){tail}}}"
    if kind == 3:
        ids = ",".join(rng.choice(_NUMBERS) for _ in range(rng.randint(1, 9)))
        return f"{{devices=[{','.join(dims)}]{ids}{tail}}}"
    if kind == 4:
        return "{" + ", ".join(_random_hlo_sharding(rng).strip("{}").join("{}") for _ in range(rng.randint(1, 3))) + "}"
    if kind == 5:
        return "{devices=[" + ",".join(dims)
    if kind == 6:
        return rng.choice(["", "{", "}", "{devices=[2,2]<=[4]", "{replicated", "garbage", "{devices=[]<=[]}"])
    return f"{{devices=[{','.join(dims)}]<=[8]{tail}}}"


def _element_type(rng, text):
    new = rng.choice(["i1", "i8", "i64", "bf16", "f64", "complex<f32>", "f8E4M3FN", "ui32"])
    return _replace_one(rng, text, r"(?<=x)f32(?=>)|(?<=<)f32(?=>)", new)


def _mesh_axis_order(rng, text):
    def shuffled(match):
        axes = re.findall(r'"[^"]*"=\d+', match.group(1))
        rng.shuffle(axes)
        return "<[" + ", ".join(axes) + "]"

    return _replace_one(rng, text, r"<\[((?:\"[^\"]*\"=\d+(?:, )?)+)\]", shuffled)


def _copy_sharding(rng, text):
    shardings = re.findall(r"#sdy\.sharding(?:_per_value)?<[^\n]*?>(?=[}\]])", text)
    if not shardings:
        return text
    kind = rng.choice(shardings)
    prefix = "#sdy.sharding_per_value" if kind.startswith("#sdy.sharding_per_value") else "#sdy.sharding<"
    return _replace_one(rng, text, re.escape(prefix) + r"[^\n]*?>(?=[}\]])", kind)


def _edge_input(rng, text):
    """An `sdy.data_flow_edge` (or a new one before a return) on another value of the module: a block argument of
    a while, case or computation, a call result, a function argument, any op's result."""
    values = sorted(set(re.findall(r"%[\w#]+", text)))
    if not values:
        return text
    value = rng.choice(values)
    if "sdy.data_flow_edge %" in text and rng.random() < 0.7:
        return _replace_one(rng, text, r"(?<=sdy\.data_flow_edge )%[\w#]+", value)
    edge = f"  %fuzz_edge = sdy.data_flow_edge {value} : tensor<8xf32>\n"
    return _replace_one(rng, text, r"\n(?=\s*(?:return|stablehlo\.return|sdy\.return)\b)", "\n" + edge)


def _truncate(rng, text):
    return text[: rng.randrange(len(text) + 1)]


def _random_bytes(rng, text):
    position = rng.randrange(len(text) + 1)
    noise = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))).decode(errors="surrogateescape")
    return text[:position] + noise + text[position:]


def _delete_span(rng, text):
    start = rng.randrange(len(text) + 1)
    return text[:start] + text[start + rng.randint(1, 40) :]


def _duplicate_or_swap_lines(rng, text):
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    if rng.random() < 0.5:
        lines.insert(j, lines[i])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _split_marker(rng, text):
    lines = text.split("\n")
    lines.insert(rng.randrange(len(lines) + 1), "// -----")
    return "\n".join(lines)


def _flip_character(rng, text):
    if not text:
        return text
    i = rng.randrange(len(text))
    return text[:i] + rng.choice('{}[]()<>"@%:=,?#0129-x \n') + text[i + 1 :]


# Mutations that keep a module parseable more often come first and are drawn more often.
MUTATIONS = [
    _axis_size, _axis_name, _mesh_reference, _device_ids, _maximal_mesh, _sharding_axis, _sub_axis_params,
    _priority, _dim_count, _open_closed, _replicated_or_unreduced, _shape, _manual_axes, _factor_size,
    _hlo_sharding, _element_type, _mesh_axis_order, _copy_sharding, _edge_input, _truncate, _random_bytes,
    _delete_span, _duplicate_or_swap_lines, _split_marker, _flip_character,
]
_WEIGHTS = [4, 3, 2, 2, 1, 4, 3, 3, 3, 3, 2, 3, 3, 2, 4, 2, 3, 3, 3, 1, 1, 1, 1, 1, 1]


# ----- command lines -----

PASS_FLAGS = [
    "-sdy-propagation-pipeline", "-sdy-propagation-pipeline=dedup-functions-fully=true", "-sdy-import-pipeline",
    "-sdy-export-pipeline", "-sdy-basic-propagate", "-sdy-aggressive-propagate",
    "-sdy-aggressive-propagate=propagation-strategy=basic", "-sdy-op-priority-propagate", "-sdy-user-priority-propagate",
    "-sdy-insert-explicit-reshards", "-sdy-reshard-to-collectives", "-sdy-close-shardings",
    "-sdy-populate-op-sharding-rules", "-sdy-add-data-flow-edges", "-sdy-sink-data-flow-edges",
    "-sdy-apply-sharding-constraints", "-sdy-sharding-group-import", "-sdy-manual-axes-cleanup",
    "-sdy-remove-size-one-axes", "-sdy-constant-or-scalar-splitter", "-sdy-flatten-call-graph",
    "-sdy-import-func-calls", "-sdy-export-named-computations", "-sdy-update-non-divisible-input-output-shardings",
    "-sdy-remove-sub-axes-in-input-output-shardings", "-xla-sdy-stablehlo-import-pipeline",
    "-xla-sdy-stablehlo-export-pipeline", "-xla-sdy-import-shardings", "-xla-sdy-stablehlo-export-pipeline=keep-hlo-sharding-constraints=true",
    "-canonicalize", "-cse", "-inline", "-symbol-dce",
]
PASS_FLAGS_UPSTREAM = ("canonicalize", "cse", "inline", "symbol-dce")
_EXTRA_FLAGS = [
    ("-mlir-print-debuginfo", 0.1), ("-mlir-print-op-generic", 0.05), ("-allow-unregistered-dialect", 0.1),
    ("-mlir-disable-threading", 0.05), ("-verify-diagnostics", 0.05), ("-mlir-print-ir-after-all", 0.02),
    ("-mlir-timing", 0.02),
]

_GARBLED_COMMAND_LINES = [
    lambda rng: ["-sdy-no-such-pass"],
    lambda rng: ["-o"],
    lambda rng: ["-o", "."],
    lambda rng: ["-o", "missing/folder/out.mlir"],
    lambda rng: ["nonexistent.mlir"],
    lambda rng: ["--pass-pipeline=" + _garble(rng, "builtin.module(sdy-propagation-pipeline,func.func(cse))")],
    lambda rng: ["--pass-pipeline=builtin.module(sdy-basic-propagate)", "-sdy-basic-propagate"],
    lambda rng: [rng.choice(PASS_FLAGS).split("=")[0] + "=" + _garble(rng, "x=1 y={a b} z=\"q\"")],
    lambda rng: ["-sdy-aggressive-propagate=propagation-strategy=" + rng.choice(["", "fast", "é", "{", "1"])],
    lambda rng: ["-sdy-propagation-pipeline=dedup-functions-fully=" + rng.choice(["", "2", "maybe", "tru"])],
    lambda rng: ["-mlir-disable-threading=false"],
    lambda rng: ["--", "-"],
    lambda rng: ["-" + _garble(rng, "split-input-file")],
    lambda rng: ["--pass-pipeline"],
    lambda rng: ["--pass-pipeline=", "-o", OUTPUT],
    lambda rng: [rng.choice(PASS_FLAGS).split("=")[0] + "=x=" + b"\xff\xfe".decode(errors="surrogateescape")],
]


def _garble(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(text) + 1)
        text = text[:i] + rng.choice(["(", ")", "{", "}", ",", "=", " ", "'", '"', "", "é", "\\"]) + text[i + rng.randint(0, 2) :]
    return text


def case(seed: int, index: int, jax_programs: tuple[str, ...] = ()) -> Case:
    """Case number `index` of the family `seed` (the same on every machine)."""
    rng = random.Random(f"{seed}:{index}")
    base = rng.choice(seeds(jax_programs))
    if rng.random() < 0.05:
        garbled = rng.choice(_GARBLED_COMMAND_LINES)(rng)
        args = (INPUT, *garbled) if rng.random() < 0.8 else tuple(garbled)
        return Case(f"{seed}:{index} {base.name} garbled command line", base.text.encode(), args, False, True)
    text, names = base.text, []
    for mutation in rng.choices(MUTATIONS, _WEIGHTS, k=rng.choice([0, 1, 1, 2, 2, 3])):
        text = mutation(rng, text)
        names.append(mutation.__name__.lstrip("_"))
    passes = list(base.passes) if base.passes and rng.random() < 0.5 else rng.sample(PASS_FLAGS, rng.choice([1, 1, 2, 3]))
    flags = [flag for flag, chance in _EXTRA_FLAGS if rng.random() < chance]
    if "// -----" in text or rng.random() < 0.1:
        flags.append("-split-input-file")
    if rng.random() < 0.3:
        flags += ["-o", OUTPUT]
    use_stdin = rng.random() < 0.1
    args = ("-" if use_stdin else INPUT, *passes, *flags)
    source = text.encode(errors="surrogateescape")  # random bytes travel through the text as escapes
    return Case(f"{seed}:{index} {base.name} [{'+'.join(names) or 'unmutated'}]", source, args, use_stdin)
