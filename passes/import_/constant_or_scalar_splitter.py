"""`sdy-constant-or-scalar-splitter`: give every non-constant use of a constant sub-computation, and of a
broadcast of a scalar, its own copy, so their uses don't share a sharding through them."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common.constants import replace_constant
from pysdy.passes.common.data_flow import NAMED_COMPUTATION
from pysdy.passes.import_.call_graph import (
    callee_name,
    clone_func_recursively,
    functions,
    has_body,
    original_func_name,
    post_order,
    set_callee,
)
from pysdy.passes.import_.symbols import SymbolTable
from pysdy.passes.registry import Pass, register_pass

GROUP_OP = "sdy.sharding_group"
CONSTANT_SOURCES = frozenset({"sdy.constant", "stablehlo.iota"})
TERMINATORS = frozenset({"func.return", "stablehlo.return", "sdy.return"})
SHAPE_PRESERVING_OPS = frozenset({"stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.slice"})
# Pure ops with MLIR's Elementwise or StableHLO's BroadcastingElementwise trait. (Shardy also counts
# sdy.sharding_constraint / reshard / propagation_barrier as elementwise, but they are not pure.)
PURE_ELEMENTWISE_OPS = frozenset(
    "stablehlo." + name
    for name in (
        "abs add and atan2 cbrt ceil clamp compare complex convert cosine count_leading_zeros divide "
        "exponential exponential_minus_one floor imag is_finite log log_plus_one logistic maximum minimum "
        "multiply negate not or popcnt power real reduce_precision remainder round_nearest_afz "
        "round_nearest_even rsqrt select shift_left shift_right_arithmetic shift_right_logical sign sine "
        "sqrt subtract tan tanh xor"
    ).split()
)
_SKIPPED_OPS = frozenset({"func.func", GROUP_OP})
# Ops that preserve constness by their name alone.
_CONSTANT_PRESERVING_OPS = SHAPE_PRESERVING_OPS | PURE_ELEMENTWISE_OPS


def _shape(value: ir.Value) -> list[int]:
    return list(value.type.shape) if isinstance(value.type, ir.ShapedType) and value.type.has_rank else []


def _keeps_shape(op: ir.Operation) -> bool:
    """Whether a one-operand op's result has its operand's shape (a bitcast that is elementwise)."""
    return _shape(op.operands[0]) == _shape(op.results[0])


def is_scalar(value: ir.Value) -> bool:
    value_type = value.type
    return isinstance(value_type, ir.ShapedType) and value_type.has_rank and value_type.rank == 0


@dataclasses.dataclass
class _Scope:
    """A function body or a named computation's body: its ops (with their names) in pre-order, not
    entering nested named computations, and whose constness it decides."""

    ops: list[tuple[ir.Operation, str]]
    func: ir.Operation
    named_computation: ir.Operation | None


@dataclasses.dataclass
class _FuncScan:
    """What one walk over a function finds: its scopes in the order they are split (named
    computations innermost first, in walk order, then the body), and its calls in walk order."""

    scopes: list[_Scope] = dataclasses.field(default_factory=list)
    calls: list[ir.Operation] = dataclasses.field(default_factory=list)


def _scan(func: ir.Operation, groups: set[ir.Value]) -> _FuncScan:
    """Walks `func` once; records in `groups` the values that sharding groups use."""
    scan = _FuncScan()

    def collect(root: ir.Operation, named_computation: ir.Operation | None) -> None:
        ops: list[tuple[ir.Operation, str]] = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            name = op.name
            ops.append((op, name))
            if name == "func.call":
                scan.calls.append(op)
            elif name == NAMED_COMPUTATION and op != root:
                collect(op, op)
                return ir.WalkResult.SKIP
            elif name == GROUP_OP:
                groups.add(op.operands[0])
            return ir.WalkResult.ADVANCE

        root.walk(visit, walk_order=ir.WalkOrder.PRE_ORDER)
        scan.scopes.append(_Scope(ops[1:], func, named_computation))

    collect(func, None)
    return scan


@dataclasses.dataclass
class _Splitter:
    """The module-wide state: which functions and named computations are not constant."""

    symbols: SymbolTable
    groups: set[ir.Value]
    non_constant_named_computations: set[str] = dataclasses.field(default_factory=set)
    non_constant_funcs: set[str] = dataclasses.field(default_factory=set)

    def is_constant_preserving(self, op: ir.Operation, name: str) -> bool:
        if name in _CONSTANT_PRESERVING_OPS:
            return True
        if name == "func.call":
            callee = self.symbols.lookup(callee_name(op))
            return original_func_name(callee) not in self.non_constant_funcs
        if name == NAMED_COMPUTATION:
            return ir.StringAttr(op.attributes["name"]).value not in self.non_constant_named_computations
        return name == "stablehlo.bitcast_convert" and _keeps_shape(op)

    def mark_non_constant(self, scope: _Scope) -> None:
        if scope.named_computation is not None:
            self.non_constant_named_computations.add(ir.StringAttr(scope.named_computation.attributes["name"]).value)
        self.non_constant_funcs.add(original_func_name(scope.func))

    def split(self, scope: _Scope) -> None:
        constants: list[ir.Operation] = []
        scalar_expansions: list[ir.Operation] = []
        constant_values: set[ir.Value] = set()
        # The values of constants and scalar expansions, each to the op defining it.
        splittable_values: dict[ir.Value, ir.Operation] = {}
        # The ops using a value of `splittable_values`; no other op has an operand to look at.
        users: set[ir.Operation] = set()

        def record(op: ir.Operation, into: list[ir.Operation]) -> None:
            into.append(op)
            for result in op.results:
                splittable_values[result] = op
                if into is constants:
                    constant_values.add(result)
                for use in result.uses:
                    users.add(use.owner.operation)

        constant = True
        for op, name in scope.ops:
            if name in _SKIPPED_OPS:
                continue
            if name == "stablehlo.constant":
                grouped = bool(self.groups) and op.result in self.groups
                if grouped:
                    self.groups.remove(op.result)
                op = replace_constant(op, "sdy.constant")
                name = "sdy.constant"
                if grouped:
                    self.groups.add(op.result)
            if name in CONSTANT_SOURCES:
                record(op, constants)
                continue
            uses_splittable = op in users
            preserving = self.is_constant_preserving(op, name)
            if preserving and (
                all(operand in constant_values for operand in op.operands)
                if uses_splittable
                else len(op.operands) == 0
            ):
                record(op, constants)
                continue
            if constant and not preserving and name not in TERMINATORS:
                constant = False
                self.mark_non_constant(scope)
            if name == "stablehlo.broadcast_in_dim" and is_scalar(op.operands[0]):
                record(op, scalar_expansions)
                continue
            if uses_splittable:
                for index, operand in enumerate(list(op.operands)):
                    if operand in splittable_values:
                        op.operands[index] = self.clone_sub_computation(operand, splittable_values)
        for op in scalar_expansions + constants[::-1]:
            remaining_users = [use.owner.operation for result in op.results for use in result.uses]
            if all(user.name == GROUP_OP for user in remaining_users):
                for user in remaining_users:
                    user.erase()
                op.erase()

    def clone_sub_computation(self, value: ir.OpResult, defining_op: dict[ir.Value, ir.Operation]) -> ir.Value:
        """A copy of the sub-computation defining `value`, placed before its ops (scalars are shared);
        `defining_op` has the op of every non-scalar value in it."""
        mapping: dict[ir.Value, ir.Value] = {}
        self._clone_into(value, defining_op, mapping)
        return mapping.get(value, value)

    def _clone_into(
        self, value: ir.OpResult, defining_op: dict[ir.Value, ir.Operation], mapping: dict[ir.Value, ir.Value]
    ) -> None:
        if value in mapping or is_scalar(value):
            return
        op = defining_op[value]
        operands = list(op.operands)
        for operand in operands:
            self._clone_into(operand, defining_op, mapping)
        clone = op.clone(ir.InsertionPoint(op))
        for index, operand in enumerate(operands):
            if operand in mapping:
                clone.operands[index] = mapping[operand]
        mapping.update(zip(op.results, clone.results))
        if clone.name == "func.call":
            set_callee(clone, clone_func_recursively(self.symbols.lookup(callee_name(clone)), self.symbols))
        if value in self.groups:
            for use in list(value.uses):
                if use.owner.name == GROUP_OP:
                    group = use.owner.operation.clone(ir.InsertionPoint(op))
                    group.operands[0] = mapping[value]


@register_pass
@dataclasses.dataclass(frozen=True)
class ConstantOrScalarSplitterPass(Pass):
    argument = "sdy-constant-or-scalar-splitter"
    summary = "Splits constant and scalar expansions so each has a single use."

    def run(self, op: ir.Operation) -> None:
        symbols = SymbolTable(op)
        groups: set[ir.Value] = set()
        scans = {func: _scan(func, groups) for func in functions(op) if has_body(func)}
        splitter = _Splitter(symbols, groups)
        for func in post_order(op, symbols, lambda func: scans[func].calls):
            for scope in scans[func].scopes:
                splitter.split(scope)
