"""Differential tests: rules of collectives, control flow, custom calls and rule-less ops vs. the C++ registry."""

import random

import pytest

from oracle import assert_rules_match, cpp_rules

from pysdy import versions


SEEDS = range(60)


def tensor(shape, element_type="f32"):
    return f"tensor<{''.join(f'{size}x' for size in shape)}{element_type}>"


class FunctionWriter:
    """Collects ops over fresh function arguments and prints them as one `func.func`."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.arg_types: list[str] = []
        self.lines: list[str] = []
        self._next_value = 0

    def arg(self, type_: str) -> str:
        self.arg_types.append(type_)
        return f"%arg{len(self.arg_types) - 1}"

    def op(self, num_results: int, text: str) -> str:
        """Appends `%vN(:k) = text`; returns the value name."""
        name = f"%v{self._next_value}"
        self._next_value += 1
        binding = name if num_results == 1 else f"{name}:{num_results}"
        self.lines.append(f"  {binding} = {text}")
        return name

    def shape(self, min_rank=0, max_rank=4):
        return [self.rng.choice([1, 2, 3, 4, 5, 6, 8, 12]) for _ in range(self.rng.randint(min_rank, max_rank))]

    def text(self) -> str:
        args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(self.arg_types))
        body = "\n".join(self.lines)
        return f"func.func @main({args}) {{\n{body}\n  return\n}}\n"


def signature(operand_types, result_types):
    return f"({', '.join(operand_types)}) -> ({', '.join(result_types)})"


def replica_groups(size):
    return f"dense<[[{', '.join(map(str, range(size)))}]]> : tensor<1x{size}xi64>"


ADD_REGION = """({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %sum = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %sum : tensor<f32>
  })"""


def variadic_shapes(writer, first, count, keep_dims):
    """`count` shapes: `first`, then shapes of rank >= len(first) that agree with it on `keep_dims`."""
    shapes = [first]
    for _ in range(count - 1):
        shape = writer.shape(min_rank=len(first), max_rank=max(len(first), 4))
        for dim in keep_dims:
            shape[dim] = first[dim]
        shapes.append(shape)
    return shapes


def add_collectives(writer: FunctionWriter):
    rng = writer.rng
    # Collectives that keep shapes; all_reduce is variadic with operands of any lower rank.
    first = writer.shape()
    shapes = [first] + [first[: rng.randint(0, len(first))] for _ in range(rng.randint(0, 2))]
    args = [writer.arg(tensor(s)) for s in shapes]
    types = [tensor(s) for s in shapes]
    writer.op(len(args), f'"stablehlo.all_reduce"({", ".join(args)}) {ADD_REGION} '
              f'{{replica_groups = {replica_groups(2)}}} : {signature(types, types)}')
    for name, attrs in [
        ("collective_permute", "source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>"),
        ("collective_broadcast", f"replica_groups = {replica_groups(2)}"),
        ("cross-replica-sum", f"replica_groups = {replica_groups(2)}"),
    ]:
        type_ = tensor(writer.shape())
        writer.op(1, f'"stablehlo.{name}"({writer.arg(type_)}) {{{attrs}}} : {signature([type_], [type_])}')

    # all_gather: the gathered dim grows by the group size.
    first = writer.shape(min_rank=1)
    dim, group = rng.randrange(len(first)), rng.randint(1, 4)
    shapes = variadic_shapes(writer, first, rng.randint(1, 3), keep_dims=[])
    results = [[size * group if d == dim else size for d, size in enumerate(s)] for s in shapes]
    writer.op(len(shapes), f'"stablehlo.all_gather"({", ".join(writer.arg(tensor(s)) for s in shapes)}) '
              f'{{all_gather_dim = {dim} : i64, replica_groups = {replica_groups(group)}}} : '
              f'{signature([tensor(s) for s in shapes], [tensor(s) for s in results])}')

    # reduce_scatter: the scattered dim shrinks by the group size.
    shape = writer.shape(min_rank=1)
    dim, group = rng.randrange(len(shape)), rng.randint(1, 3)
    shape[dim] *= group
    result = [size // group if d == dim else size for d, size in enumerate(shape)]
    writer.op(1, f'"stablehlo.reduce_scatter"({writer.arg(tensor(shape))}) {ADD_REGION} '
              f'{{scatter_dimension = {dim} : i64, replica_groups = {replica_groups(group)}}} : '
              f'{signature([tensor(shape)], [tensor(result)])}')

    # all_to_all: the split dim shrinks and the concat dim grows (possibly the same dim).
    first = writer.shape(min_rank=1)
    split, concat, count = rng.randrange(len(first)), rng.randrange(len(first)), rng.randint(1, 3)
    shapes = variadic_shapes(writer, first, rng.randint(1, 3), keep_dims=[])
    for s in shapes:
        s[split] *= count
    results = []
    for s in shapes:
        result = list(s)
        result[split] //= count
        result[concat] *= count
        results.append(result)
    writer.op(len(shapes), f'"stablehlo.all_to_all"({", ".join(writer.arg(tensor(s)) for s in shapes)}) '
              f'{{split_dimension = {split} : i64, concat_dimension = {concat} : i64, split_count = {count} : i64, '
              f'replica_groups = {replica_groups(count)}}} : '
              f'{signature([tensor(s) for s in shapes], [tensor(s) for s in results])}')


POINTWISE_TARGETS = [
    "annotate_device_placement", "Cholesky", "CompactWyHelper", "InspectSharding",
    "InvertDiagBlocksLowerTriangular", "InvertDiagBlocksUpperTriangular", "LayoutConstraint",
    "mhlo.erf", "MoveToDevice", "MoveToHost", "X64SplitHigh", "X64SplitLow",
    "xla.megascale.provide_metadata", "X64Combine",
]
TARGETS_WITHOUT_RULE = [
    "sdy_testonly", "tpu_custom_call", "xla_python_cpu_callback", "xla_python_gpu_callback",
    "xla_ffi_python_cpu_callback", "xla_ffi_python_gpu_callback",
    # Unknown to the registry, including ones JAX emits and ones a reader may expect to be special.
    "my_ffi_kernel", "Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape", "cusolver_getrf_ffi",
    "lapack_sgeqrf_ffi", "mhlo.topk_v2", "CustomSPMDPartitioning",
]
# jaxlib 0.12's registry knows `TopK` (as `mhlo.topk`); on a call of other shapes than top-k's its C++ rule is
# invalid or aborts, so it is only written well-formed there.
TOP_K_TARGETS = ["mhlo.topk", "TopK"] if versions.installed().top_k_custom_call_has_rule else ["mhlo.topk"]
if not versions.installed().top_k_custom_call_has_rule:
    TARGETS_WITHOUT_RULE.append("TopK")


def custom_call(writer, target, operand_shapes, result_shapes, attrs=""):
    args = [writer.arg(tensor(s)) for s in operand_shapes]
    return writer.op(
        len(result_shapes),
        f"stablehlo.custom_call @{target}({', '.join(args)}) {attrs} : "
        f"{signature([tensor(s) for s in operand_shapes], [tensor(s) for s in result_shapes])}",
    )


def batch_dims_attr(rng):
    """Sometimes JAX-style frontend attributes naming batch dims; Shardy's registry ignores them."""
    return rng.choice(["", f'{{mhlo.frontend_attributes = {{num_batch_dims = "{rng.randint(0, 2)}"}}}}'])


def add_custom_calls(writer: FunctionWriter):
    rng = writer.rng
    # Pointwise targets; extra operands may have a lower rank, as the C++ allows.
    for target in rng.sample(POINTWISE_TARGETS, 5):
        result = writer.shape()
        operands = [result] + [result[: rng.randint(0, len(result))] for _ in range(rng.randint(0, 1))]
        custom_call(writer, target, operands, [result], attrs=batch_dims_attr(rng))
    # X64Combine feeding an rng_bit_generator keeps the state replicated.
    state = writer.shape(min_rank=1, max_rank=2)
    combined = writer.op(1, f"stablehlo.custom_call @X64Combine({writer.arg(tensor(state, 'ui32'))}, "
                            f"{writer.arg(tensor(state, 'ui32'))}) : "
                            f"{signature([tensor(state, 'ui32')] * 2, [tensor(state, 'ui64')])}")
    writer.op(2, f'"stablehlo.rng_bit_generator"({combined}) {{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}} : '
                 f"{signature([tensor(state, 'ui64')], [tensor(state, 'ui64'), tensor(writer.shape(1), 'ui32')])}")
    for target in rng.sample(TARGETS_WITHOUT_RULE, 4):
        custom_call(writer, target, [writer.shape() for _ in range(rng.randint(0, 2))],
                    [writer.shape() for _ in range(rng.randint(1, 2))], attrs=batch_dims_attr(rng))

    batch = writer.shape(max_rank=2)
    n = rng.choice([1, 3, 4, 8])
    custom_call(writer, "Eigh", [batch + [n, n]], [batch + [n, n], batch + [n]])
    m, n = rng.choice([1, 2, 5, 8]), rng.choice([1, 3, 4, 8])
    custom_call(writer, rng.choice(["Qr", "QrDecompositionBlock"]), [batch + [m, n]],
                [batch + [m, n], batch + [min(m, n)]])
    custom_call(writer, "ProductOfElementaryHouseholderReflectors",
                [batch + [m, n], batch + [rng.randint(1, 6)]], [batch + [m, n]])

    n = rng.choice([1, 4, 8, 16])
    k = rng.randint(1, n)
    custom_call(writer, rng.choice(TOP_K_TARGETS), [batch + [n]], [batch + [k], batch + [k]],
                attrs=f"{{mhlo.attributes = {{k = {k} : i64, largest = true}}, mhlo.version = 1 : i64}}")
    shape = writer.shape(min_rank=1)
    reduced = list(shape)
    dim = rng.randrange(len(shape))
    reduced[dim] = rng.randint(1, shape[dim])
    custom_call(writer, rng.choice(["ApproxTopK", "PartialReduce"]), [shape, shape, [], []], [reduced, reduced])

    # A rule already on the op is kept as written, custom or not, known target or not.
    shape = writer.shape(min_rank=2, max_rank=2)
    custom_call(writer, rng.choice(["my_ffi_kernel", "MoveToHost"]), [shape], [shape[::-1]],
                attrs=f"{{sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([j, i]) "
                      f"{{i={shape[0]}, j={shape[1]}}}{rng.choice(['', ', custom'])}>}}")
    # A tuple or token first result: no rule, whatever the target.
    shape = writer.shape()
    target = rng.choice(["my_ffi_kernel", "MoveToHost", "X64SplitLow", "annotate_device_placement"])
    writer.op(1, f"stablehlo.custom_call @{target}({writer.arg(tensor(shape))}) : "
                 f"({tensor(shape)}) -> tuple<{tensor(shape)}, tensor<i32>>")
    writer.op(2, f"stablehlo.custom_call @{target}({writer.arg(tensor(shape))}) : "
                 f"({tensor(shape)}) -> (!stablehlo.token, {tensor(shape)})")


def add_control_flow_and_rule_less_ops(writer: FunctionWriter):
    rng = writer.rng
    shapes = [writer.shape() for _ in range(rng.randint(1, 3))]
    values = [writer.arg(tensor(s)) for s in shapes]
    types = [tensor(s) for s in shapes]
    flag = writer.arg("tensor<i1>")
    index = writer.arg("tensor<i32>")
    token = writer.arg("!stablehlo.token")

    loop_types = types + ["tensor<i1>"]
    block_args = ", ".join(f"%it{i}: {t}" for i, t in enumerate(loop_types))
    next_values = ", ".join(["%next"] + [f"%it{i}" for i in range(1, len(loop_types))])
    writer.op(len(loop_types), f'"stablehlo.while"({", ".join(values + [flag])}) ({{\n'
                               f"    ^bb0({block_args}):\n"
                               f"      stablehlo.return %it{len(types)} : tensor<i1>\n"
                               f"  }}, {{\n"
                               f"    ^bb0({block_args}):\n"
                               f"      %next = stablehlo.add %it0, %it0 : {types[0]}\n"
                               f"      stablehlo.return {next_values} : {', '.join(loop_types)}\n"
                               f"  }}) : {signature(loop_types, loop_types)}")
    branches = ", ".join(
        f"{{\n      stablehlo.return {', '.join(values)} : {', '.join(types)}\n  }}" for _ in range(2)
    )
    writer.op(len(types), f'"stablehlo.if"({flag}) ({branches}) : (tensor<i1>) -> ({", ".join(types)})')
    branches = ", ".join(
        f"{{\n      stablehlo.return {', '.join(values)} : {', '.join(types)}\n  }}" for _ in range(rng.randint(1, 3))
    )
    writer.op(len(types), f'"stablehlo.case"({index}) ({branches}) : (tensor<i32>) -> ({", ".join(types)})')
    writer.op(len(types) + 1, f"stablehlo.optimization_barrier {', '.join(values + [token])} : "
                              f"{', '.join(types + ['!stablehlo.token'])}")

    # Tokens, tuples, host transfers and constants.
    shape = shapes[0]
    new_token = writer.op(1, "stablehlo.create_token : !stablehlo.token")
    joined = writer.op(1, f"stablehlo.after_all {token}, {new_token} : !stablehlo.token")
    writer.op(2, f'"stablehlo.infeed"({joined}) {{infeed_config = ""}} : '
                 f"(!stablehlo.token) -> ({types[0]}, !stablehlo.token)")
    writer.op(1, f'"stablehlo.outfeed"({values[0]}, {joined}) {{outfeed_config = ""}} : '
                 f"({types[0]}, !stablehlo.token) -> !stablehlo.token")
    writer.op(1, f'"stablehlo.send"({values[0]}, {joined}) {{channel_handle = #stablehlo.channel_handle<handle = 1, '
                 f"type = 2>, is_host_transfer = true}} : ({types[0]}, !stablehlo.token) -> !stablehlo.token")
    writer.op(2, f'"stablehlo.recv"({joined}) {{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, '
                 f"is_host_transfer = true}} : (!stablehlo.token) -> ({types[0]}, !stablehlo.token)")
    tuple_type = f"tuple<{', '.join(types)}>"
    packed = writer.op(1, f"stablehlo.tuple {', '.join(values)} : {tuple_type}")
    element = rng.randrange(len(types))
    writer.op(1, f"stablehlo.get_tuple_element {packed}[{element}] : ({tuple_type}) -> {types[element]}")
    writer.op(1, f"stablehlo.constant dense<1.0> : {tensor(shape)}")
    writer.op(1, "stablehlo.partition_id : tensor<ui32>")


@pytest.mark.parametrize("conservative", [False, True])
@pytest.mark.parametrize("seed", SEEDS)
def test_rules_match_cpp(seed, conservative):
    writer = FunctionWriter(random.Random(seed))
    for _ in range(3):
        add_collectives(writer)
        add_custom_calls(writer)
    add_control_flow_and_rule_less_ops(writer)
    assert_rules_match(writer.text(), conservative)


def test_rule_less_ops_really_get_no_rule_from_cpp():
    """Guards the differential test above: the C++ leaves these ops without a rule (so pysdy must too)."""
    writer = FunctionWriter(random.Random(0))
    add_control_flow_and_rule_less_ops(writer)
    rules = dict(cpp_rules(writer.text()))
    for name in [
        "stablehlo.while", "stablehlo.if", "stablehlo.case", "stablehlo.optimization_barrier",
        "stablehlo.create_token", "stablehlo.after_all", "stablehlo.infeed", "stablehlo.outfeed",
        "stablehlo.send", "stablehlo.recv", "stablehlo.tuple", "stablehlo.get_tuple_element",
        "stablehlo.constant", "stablehlo.partition_id", "stablehlo.return", "func.return",
    ]:
        assert name in rules and rules[name] is None, name


def test_size_zero_dims_match_cpp():
    assert_rules_match("""
func.func @main(%arg0: tensor<0x4xf32>, %arg1: tensor<8x0xf32>) {
  %0 = "stablehlo.all_to_all"(%arg1) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 2 : i64,
      replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x0xf32>) -> tensor<4x0xf32>
  %1 = "stablehlo.collective_permute"(%arg1) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}
      : (tensor<8x0xf32>) -> tensor<8x0xf32>
  %2:2 = stablehlo.custom_call @mhlo.topk(%arg1) {mhlo.attributes = {k = 0 : i64, largest = true}}
      : (tensor<8x0xf32>) -> (tensor<8x0xf32>, tensor<8x0xi32>)
  %3 = stablehlo.custom_call @MoveToDevice(%arg0) : (tensor<0x4xf32>) -> tensor<0x4xf32>
  return
}
""")


@pytest.mark.parametrize("line", versions.LINES, ids=lambda line: line.name)
def test_top_k_target_by_line(line):
    """jaxlib 0.12's registry gives `TopK` the rule of `mhlo.topk`; earlier lines do not know the target."""
    if line is not versions.installed():
        pytest.skip(f"jaxlib {line.name}'s C++ registry is not the installed one")
    module = """
func.func @main(%arg0: tensor<4x8xf32>) {
  %0:2 = stablehlo.custom_call @TopK(%arg0) : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return
}
"""
    expected = (
        "#sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=4, j=8} need_replication={j} blocked_propagation={j}>"
        if line.line >= (0, 12)
        else None
    )
    assert dict(cpp_rules(module))["stablehlo.custom_call"] == expected
    assert_rules_match(module)


def test_sdy_collectives_get_no_rule():
    module = """
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x4xf32>
  %1 = sdy.all_slice [{}, {"x"}] %0 out_sharding=<@mesh, [{}, {"y", "x"}]> : tensor<8x4xf32>
  %2 = sdy.all_reduce {"z"} %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x4xf32>
  %3 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x4xf32>
  %4 = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"y", "x"}]> : tensor<8x4xf32>
  %5 = sdy.reduce_scatter [{}, {"z"}] %arg0 out_sharding=<@mesh, [{"x"}, {"y", "z"}]> : tensor<8x4xf32>
  return
}
"""
    assert all(rule is None for _, rule in cpp_rules(module))
    assert_rules_match(module)
