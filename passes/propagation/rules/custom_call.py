"""Rules of stablehlo.custom_call, by call target: rules registered from Python first, then Shardy's built-in targets."""

from __future__ import annotations

import dataclasses
from typing import Callable, Optional

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.dialects.sdy import FactorKind, OpShardingRule
from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, pointwise_rule, shape_of
from pysdy.passes.diagnostics import emit_warning, warnings_are_dropped
from pysdy.passes.propagation.rules.registry import rule_for

CustomCallRuleFunction = Callable[[ir.OpView, bool], Optional[OpShardingRule]]

_USER_RULES: dict[str, CustomCallRuleFunction] = {}
_BUILTIN_RULES: dict[str, Callable[[ir.OpView], OpShardingRule]] = {}

# Targets Shardy knows and deliberately leaves without a rule (so no "unknown target" warning).
_TARGETS_WITHOUT_RULE = frozenset({
    "sdy_testonly",
    "tpu_custom_call",
    "xla_ffi_python_cpu_callback",
    "xla_ffi_python_gpu_callback",
    "xla_python_cpu_callback",
    "xla_python_gpu_callback",
})

_REPLICATED = FactorKind.NEED_REPLICATION


def register_custom_call_rule(target_name: str, fn: CustomCallRuleFunction | None = None, *, replace: bool = False):
    """Registers `fn(op, conservative) -> OpShardingRule | None` as the rule of custom calls to `target_name`.

    This is for targets the registry cannot know, such as your own FFI kernels.
    Use it directly or as a decorator (`@register_custom_call_rule("my_kernel")`).

    - A registered rule takes precedence over the built-in rule of the same
      target, so you can also replace one of those.
    - An `sdy.sharding_rule` already written on the op still wins over both.
    - The rule `fn` returns is marked `custom` (a user-defined rule, which
      Shardy always keeps); returning None leaves the op without a rule.
    - Registering a target twice raises ValueError unless `replace=True`;
      `unregister_custom_call_rule` removes the registration.
    """
    if fn is None:
        return lambda function: register_custom_call_rule(target_name, function, replace=replace)
    if target_name in _USER_RULES and not replace:
        raise ValueError(f"a sharding rule for custom call @{target_name} is already registered")
    _USER_RULES[target_name] = fn
    return fn


def unregister_custom_call_rule(target_name: str) -> CustomCallRuleFunction:
    """Removes and returns the rule registered for `target_name`; KeyError if there is none."""
    if target_name not in _USER_RULES:
        raise KeyError(f"no sharding rule is registered for custom call @{target_name}")
    return _USER_RULES.pop(target_name)


@rule_for("stablehlo.custom_call")
def custom_call(op, conservative):
    if op.results and not isinstance(op.results[0].type, ir.RankedTensorType):
        return None  # A tuple or token result: Shardy gives no rule, whatever the target.
    target = op.call_target_name.value
    user_rule = _USER_RULES.get(target)
    if user_rule is not None:
        rule = user_rule(op, conservative)
        return None if rule is None else dataclasses.replace(rule, is_custom=True)
    builtin_rule = _BUILTIN_RULES.get(target)
    if builtin_rule is not None:
        return builtin_rule(op)
    if target not in _TARGETS_WITHOUT_RULE:
        _warn_unknown_target_once(op, target)
    return None


_warned_about_unknown_target = False


def _warn_unknown_target_once(op, target: str) -> None:
    """Like Shardy, warn about the first unknown call target a process meets, and only that one."""
    global _warned_about_unknown_target
    if not _warned_about_unknown_target and not warnings_are_dropped():
        _warned_about_unknown_target = True
        emit_warning(op.location, f"custom call @{target} is unknown to SDY sharding rule registry")


NUM_BATCH_DIMS_ATTR = "num_batch_dims"


def register_batch_partitionable(target_name: str) -> None:
    """Gives custom calls to `target_name` JAX's FFI "batch partitioning" rule.

    This is the sharding-rule side of `jax.ffi.register_ffi_target_as_batch_partitionable`:
    the call's `mhlo.frontend_attributes` carry `num_batch_dims = "N"`; the
    leading N dimensions of every operand and result are one shared factor
    each, and every other dimension needs replication. A call without the
    attribute gets no rule. Shardy's registry itself knows no such rule
    (XLA's GSPMD partitioner reads the attribute), so this is opt-in.
    """
    register_custom_call_rule(target_name, _batch_partitioning_rule)


def _batch_partitioning_rule(op, conservative):
    attributes = op.attributes
    if "mhlo.frontend_attributes" not in attributes:
        return None
    frontend = attributes["mhlo.frontend_attributes"]
    if NUM_BATCH_DIMS_ATTR not in frontend:
        return None
    num_batch_dims = int(ir.StringAttr(frontend[NUM_BATCH_DIMS_ATTR]).value)
    operand_shapes = [shape_of(v) for v in op.operands]
    result_shapes = [shape_of(v) for v in op.results]
    builder = RuleBuilder(operand_shapes, result_shapes)
    batch_shape = result_shapes[0][:num_batch_dims]
    for dim, size in enumerate(batch_shape):
        builder.add_factor_to_all(dim, size)
    tensors = [(True, i, s) for i, s in enumerate(operand_shapes)] + [(False, i, s) for i, s in enumerate(result_shapes)]
    for is_operand, index, shape in tensors:
        for dim in range(num_batch_dims, len(shape)):
            operand_dims = [dim if is_operand and i == index else NO_DIM for i in range(len(operand_shapes))]
            result_dims = [dim if not is_operand and i == index else NO_DIM for i in range(len(result_shapes))]
            builder.add_factor(operand_dims, result_dims, shape[dim], _REPLICATED)
    return builder.build()


def _builtin(*targets: str):
    def register(function):
        for target in targets:
            _BUILTIN_RULES[target] = function
        return function

    return register


@_builtin(
    "annotate_device_placement", "Cholesky", "CompactWyHelper", "InspectSharding",
    "InvertDiagBlocksLowerTriangular", "InvertDiagBlocksUpperTriangular",
    "LayoutConstraint", "mhlo.erf", "MoveToDevice", "MoveToHost",
    "X64SplitHigh", "X64SplitLow", "xla.megascale.provide_metadata",
)
def _elementwise(op):
    return pointwise_rule(op)


@_builtin("X64Combine")
def _x64_combine(op):
    """Pointwise, unless it feeds an rng_bit_generator, whose state must stay replicated."""
    feeds_rng = any(use.owner.name == "stablehlo.rng_bit_generator" for use in op.result.uses)
    shape = shape_of(op.result)
    if not feeds_rng or not shape:
        return pointwise_rule(op)
    return RuleBuilder.for_op(op).add_factor_to_all(0, shape[0], _REPLICATED, blocked=True).build()


@_builtin("Eigh")
def _eigh(op):
    """Batch dims pass through; the eigenvalues' last dim is the matrix's last dim."""
    shape = shape_of(op.operands[0])
    row, col = len(shape) - 2, len(shape) - 1
    return (
        RuleBuilder.for_op(op)
        .add_pointwise(shape[:-2])
        .add_factor([row], [row, NO_DIM], shape[row])
        .add_factor([col], [col, row], shape[col])
        .build()
    )


@_builtin("Qr", "QrDecompositionBlock")
def _qr(op):
    """Batch dims pass through; the matrix dims and the taus' dim need replication."""
    shape = shape_of(op.operands[0])
    row, col = len(shape) - 2, len(shape) - 1
    return (
        RuleBuilder.for_op(op)
        .add_pointwise(shape[:-2])
        .add_factor([row], [row, NO_DIM], shape[row], _REPLICATED)
        .add_factor([col], [col, NO_DIM], shape[col], _REPLICATED)
        .add_factor([NO_DIM], [NO_DIM, row], shape_of(op.results[1])[row], _REPLICATED)
        .build()
    )


@_builtin("ProductOfElementaryHouseholderReflectors")
def _householder_product(op):
    """Batch dims pass through; the matrix dims and the taus' dim need replication."""
    shape = shape_of(op.operands[0])
    row, col = len(shape) - 2, len(shape) - 1
    return (
        RuleBuilder.for_op(op)
        .add_pointwise(shape[:-2])
        .add_factor([row, NO_DIM], [row], shape[row], _REPLICATED)
        .add_factor([col, NO_DIM], [col], shape[col], _REPLICATED)
        .add_factor([NO_DIM, row], [NO_DIM], shape_of(op.operands[1])[row], _REPLICATED)
        .build()
    )


@_builtin("mhlo.topk", *(("TopK",) if versions.installed().top_k_custom_call_has_rule else ()))
def _top_k(op):
    """Pointwise; the dimension top-k shrinks needs replication and blocks propagation."""
    return (
        RuleBuilder.for_op(op)
        .add_pointwise_with_kind_for_mismatch(
            shape_of(op.operands[0]), shape_of(op.results[0]), _REPLICATED, mismatch_blocked=True
        )
        .build()
    )


@_builtin("ApproxTopK", "PartialReduce")
def _approx_top_k(op):
    """Operands (values, indices, init value, init index); the reduced dim splits into an input and an output factor."""
    in_shape, out_shape = shape_of(op.operands[0]), shape_of(op.results[0])
    num_scalar_operands = len(op.operands) - 2
    builder = RuleBuilder.for_op(op)
    for dim, (in_size, out_size) in enumerate(zip(in_shape, out_shape)):
        if in_size == out_size:
            builder.add_factor_to_all(dim, in_size)
        else:
            builder.add_factor([dim, dim] + [NO_DIM] * num_scalar_operands, [NO_DIM, NO_DIM], in_size)
            builder.add_factor(
                [NO_DIM] * len(op.operands), [dim, dim], out_size, _REPLICATED, blocked=True
            )
    return builder.build()
