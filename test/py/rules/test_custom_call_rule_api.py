"""The Python API for custom-call rules: register, override, unregister, and how it ranks against other rules."""

import pytest
from jaxlib.mlir import ir

from oracle import cpp_rules
from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules import (
    create_rule,
    get_or_create_rule,
    register_batch_partitionable,
    register_custom_call_rule,
    unregister_custom_call_rule,
)
from pysdy.passes.diagnostics import warnings_to
from pysdy.passes.propagation.rules import custom_call as custom_call_rules
from pysdy.passes.propagation.rules.builder import RuleBuilder, shape_of

TRANSPOSE_RULE = "#sdy.op_sharding_rule<([i, j])->([j, i]) {i=8, j=4}, custom>"


def module_with_call(target, attrs=""):
    return f"""
func.func @main(%arg0: tensor<8x4xf32>) -> tensor<4x8xf32> {{
  %0 = stablehlo.custom_call @{target}(%arg0) {attrs} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}}
"""


def same_shape_module(target):
    return f"""
func.func @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {{
  %0 = stablehlo.custom_call @{target}(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}}
"""


def rule_text(module_text, conservative=False, keep_existing=True):
    """The printed rule pysdy gives the module's custom call (None if it gets none)."""
    with make_context():
        module = ir.Module.parse(module_text)
        call = next(op for op in module.body.operations[0].regions[0].blocks[0].operations
                    if op.operation.name == "stablehlo.custom_call")
        rule = get_or_create_rule(call, conservative) if keep_existing else create_rule(call, conservative)
        return None if rule is None else str(rule.to_attr())


def transpose_rule(op, conservative):
    rows, cols = shape_of(op.operands[0])
    return RuleBuilder.for_op(op).add_factor([0], [1], rows).add_factor([1], [0], cols).build()


@pytest.fixture
def target():
    """A fresh target name, unregistered again after the test if the test left it registered."""
    name = "my_ffi_transpose"
    yield name
    try:
        unregister_custom_call_rule(name)
    except KeyError:
        pass


def test_registered_rule_is_what_the_registry_produces_and_is_custom(target):
    assert rule_text(module_with_call(target)) is None
    register_custom_call_rule(target, transpose_rule)
    assert rule_text(module_with_call(target)) == TRANSPOSE_RULE


def test_decorator_form(target):
    @register_custom_call_rule(target)
    def rule(op, conservative):
        return transpose_rule(op, conservative)

    assert rule_text(module_with_call(target)) == TRANSPOSE_RULE


def test_cpp_accepts_and_keeps_the_written_rule(target):
    """The rule pysdy writes is valid for Shardy's C++, which then keeps it as written."""
    register_custom_call_rule(target, transpose_rule)
    with make_context():
        module = ir.Module.parse(module_with_call(target))
        call = module.body.operations[0].regions[0].blocks[0].operations[0]
        get_or_create_rule(call, set_on_op=True)
        written = str(module)
    assert dict(cpp_rules(written))["stablehlo.custom_call"] == TRANSPOSE_RULE


def test_registering_twice_needs_replace(target):
    register_custom_call_rule(target, transpose_rule)
    with pytest.raises(ValueError, match=target):
        register_custom_call_rule(target, lambda op, conservative: None)
    register_custom_call_rule(target, lambda op, conservative: None, replace=True)
    assert rule_text(module_with_call(target)) is None


def test_unregister_restores_the_previous_behaviour(target):
    register_custom_call_rule(target, transpose_rule)
    assert unregister_custom_call_rule(target) is transpose_rule
    assert rule_text(module_with_call(target)) is None
    with pytest.raises(KeyError):
        unregister_custom_call_rule(target)


def test_user_rule_overrides_a_builtin_target():
    builtin = "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>"
    assert rule_text(same_shape_module("MoveToHost")) == builtin

    def replicated(op, conservative):
        return RuleBuilder.for_op(op).add_pointwise((8, 4), lambda dim: FactorKind.NEED_REPLICATION).build()

    register_custom_call_rule("MoveToHost", replicated)
    try:
        assert rule_text(same_shape_module("MoveToHost")) == (
            "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} need_replication={i, j}, custom>"
        )
    finally:
        unregister_custom_call_rule("MoveToHost")
    assert rule_text(same_shape_module("MoveToHost")) == builtin


def test_rule_already_on_the_op_wins_over_a_registered_one(target):
    register_custom_call_rule(target, lambda op, conservative: pytest.fail("must not be called"))
    existing = "#sdy.op_sharding_rule<([i, j])->([j, i]) {i=8, j=4}>"
    module = module_with_call(target, f"{{sdy.sharding_rule = {existing}}}")
    assert rule_text(module) == existing


def test_rule_receives_the_conservative_flag(target):
    seen = []

    def record(op, conservative):
        seen.append((op.operation.name, conservative))
        return transpose_rule(op, conservative)

    register_custom_call_rule(target, record)
    rule_text(module_with_call(target), conservative=True)
    rule_text(module_with_call(target), conservative=False)
    assert seen == [("stablehlo.custom_call", True), ("stablehlo.custom_call", False)]


@pytest.fixture
def warnings_seen(monkeypatch):
    """Warnings passes emit, with Shardy's once-per-process flag reset for the test."""
    monkeypatch.setattr(custom_call_rules, "_warned_about_unknown_target", False)
    seen = []
    with warnings_to(lambda location, message: seen.append(message)):
        yield seen


def test_only_the_first_unknown_target_warns_as_in_shardy(target, warnings_seen):
    assert rule_text(module_with_call(target)) is None
    assert rule_text(same_shape_module("another_unknown_kernel")) is None
    assert warnings_seen == [f"custom call @{target} is unknown to SDY sharding rule registry"]


def test_a_registered_target_does_not_warn(target, warnings_seen):
    register_custom_call_rule(target, transpose_rule)
    rule_text(module_with_call(target))
    assert warnings_seen == []


def test_targets_shardy_deliberately_skips_do_not_warn(warnings_seen):
    assert rule_text(same_shape_module("tpu_custom_call")) is None
    assert rule_text(same_shape_module("xla_ffi_python_cpu_callback")) is None
    assert warnings_seen == []


def batched_call_module(target, num_batch_dims):
    attrs = f'{{mhlo.frontend_attributes = {{num_batch_dims = "{num_batch_dims}"}}}}'
    return f"""
func.func @main(%arg0: tensor<4x6x3x5xf32>, %arg1: tensor<4x6x5xf32>) -> tensor<4x6x3xf32> {{
  %0 = stablehlo.custom_call @{target}(%arg0, %arg1) {attrs} : (tensor<4x6x3x5xf32>, tensor<4x6x5xf32>) -> tensor<4x6x3xf32>
  return %0 : tensor<4x6x3xf32>
}}
"""


def test_batch_partitionable_target_shares_leading_dims_and_replicates_the_rest(target):
    register_batch_partitionable(target)
    assert rule_text(batched_call_module(target, 2)) == (
        "#sdy.op_sharding_rule<([i, j, k, l], [i, j, m])->([i, j, n]) "
        "{i=4, j=6, k=3, l=5, m=5, n=3} need_replication={k, l, m, n}, custom>"
    )
    assert rule_text(batched_call_module(target, 1)) == (
        "#sdy.op_sharding_rule<([i, j, k, l], [i, m, n])->([i, o, p]) "
        "{i=4, j=6, k=3, l=5, m=6, n=5, o=6, p=3} need_replication={j, k, l, m, n, o, p}, custom>"
    )


def test_batch_partitionable_call_without_num_batch_dims_gets_no_rule(target):
    register_batch_partitionable(target)
    assert rule_text(same_shape_module(target)) is None


def test_jaxlib_cpp_registry_gives_batch_partitioned_calls_no_rule():
    """Why batch partitioning is opt-in: Shardy's own registry does not read num_batch_dims."""
    rules = cpp_rules(batched_call_module("some_batched_ffi_kernel", 2))
    assert dict(rules)["stablehlo.custom_call"] is None
