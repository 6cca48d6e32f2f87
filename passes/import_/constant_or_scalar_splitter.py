"""`sdy-constant-or-scalar-splitter`: give every non-constant use of a constant sub-computation, and of a
broadcast of a scalar, its own copy, so their uses don't share a sharding through them."""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.common.data_flow import NAMED_COMPUTATION
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.import_.call_graph import (
    callee_name,
    clone_func_recursively,
    original_func_name,
    post_order,
    set_callee,
)
from pysdy.passes.import_.symbols import SymbolTable
from pysdy.passes.registry import Pass, register_pass

GROUP_OP = "sdy.sharding_group"
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


def _shape(value: ir.Value) -> list[int]:
    return list(value.type.shape) if isinstance(value.type, ir.ShapedType) and value.type.has_rank else []


def is_pure_elementwise(op: ir.Operation) -> bool:
    if op.name in PURE_ELEMENTWISE_OPS:
        return True
    return op.name == "stablehlo.bitcast_convert" and _shape(op.operands[0]) == _shape(op.results[0])


def is_scalar(value: ir.Value) -> bool:
    return isinstance(value.type, ir.ShapedType) and value.type.has_rank and value.type.rank == 0


def _convert_constants(module: ir.Operation) -> None:
    """Turns every `stablehlo.constant` into an `sdy.constant`, which folding won't merge."""
    for op in nested_ops(module):
        if op.name != "stablehlo.constant":
            continue
        new = _as_sdy_constant(op)
        ir.InsertionPoint(op).insert(new)
        op.results[0].replace_all_uses_with(new.results[0])
        op.erase()


def _as_sdy_constant(op: ir.Operation) -> ir.Operation:
    """An `sdy.constant` with `op`'s attributes and location.

    Some dense attributes (e.g. of complex type) cannot be handed to Python;
    those constants are rebuilt from their generic text instead, which is
    much slower in a large module (printing one op numbers the whole module).
    """
    try:
        attributes = {name: op.attributes[name] for name in op.attributes}
    except (ValueError, TypeError, RuntimeError):
        text = op.get_asm(print_generic_op_form=True, enable_debug_info=True)
        return ir.Operation.parse(text.replace('"stablehlo.constant"', '"sdy.constant"', 1))
    return ir.Operation.create(
        "sdy.constant", results=[op.results[0].type], attributes=attributes, loc=op.location
    )


@dataclasses.dataclass
class _Splitter:
    """The module-wide state: which functions and named computations are not constant."""

    symbols: SymbolTable
    non_constant_named_computations: set[str] = dataclasses.field(default_factory=set)
    non_constant_funcs: set[str] = dataclasses.field(default_factory=set)

    def is_constant_preserving(self, op: ir.Operation) -> bool:
        if op.name == "func.call":
            callee = self.symbols.lookup(callee_name(op))
            return original_func_name(callee) not in self.non_constant_funcs
        if op.name == NAMED_COMPUTATION:
            return ir.StringAttr(op.attributes["name"]).value not in self.non_constant_named_computations
        return op.name in SHAPE_PRESERVING_OPS or is_pure_elementwise(op)

    def split_region(self, region: ir.Region, func: ir.Operation) -> None:
        constants: dict[ir.Operation, None] = {}
        scalar_expansions: dict[ir.Operation, None] = {}
        for op in _region_ops_skipping_named_computations(region):
            self.process(op, func, constants, scalar_expansions)
        for op in list(scalar_expansions) + list(reversed(constants)):
            users = [use.owner.operation for result in op.results for use in result.uses]
            if all(user.name == GROUP_OP for user in users):
                for user in users:
                    user.erase()
                op.erase()

    def process(self, op: ir.Operation, func: ir.Operation, constants, scalar_expansions) -> None:
        if op.name in ("func.func", GROUP_OP):
            return
        if self._is_constant_expression(op, constants):
            constants[op] = None
            return
        if not self.is_constant_preserving(op) and not _is_terminator(op):
            named = _enclosing_named_computation(op)
            if named is not None:
                self.non_constant_named_computations.add(ir.StringAttr(named.attributes["name"]).value)
            self.non_constant_funcs.add(original_func_name(func))
        if op.name == "stablehlo.broadcast_in_dim" and is_scalar(op.operands[0]):
            scalar_expansions[op] = None
            return
        for index, operand in enumerate(list(op.operands)):
            if isinstance(operand, ir.OpResult) and (
                operand.owner.operation in constants or operand.owner.operation in scalar_expansions
            ):
                op.operands[index] = self.clone_sub_computation(operand)

    def _is_constant_expression(self, op: ir.Operation, constants) -> bool:
        if op.name in ("sdy.constant", "stablehlo.iota"):
            return True
        return self.is_constant_preserving(op) and all(
            isinstance(v, ir.OpResult) and v.owner.operation in constants for v in op.operands
        )

    def clone_sub_computation(self, value: ir.OpResult) -> ir.Value:
        """A copy of the sub-computation defining `value`, placed before its ops (scalars are shared)."""
        if is_scalar(value):
            return value
        mapping: dict[ir.Value, ir.Value] = {}
        self._clone_into(value, mapping)
        return mapping[value]

    def _clone_into(self, value: ir.OpResult, mapping: dict[ir.Value, ir.Value]) -> None:
        if is_scalar(value) or value in mapping:
            return
        op = value.owner.operation
        for operand in op.operands:
            if isinstance(operand, ir.OpResult):
                self._clone_into(operand, mapping)
        clone = op.clone(ir.InsertionPoint(op))
        for index, operand in enumerate(op.operands):
            if operand in mapping:
                clone.operands[index] = mapping[operand]
        for old, new in zip(op.results, clone.results):
            mapping[old] = new
        if clone.name == "func.call":
            set_callee(clone, clone_func_recursively(self.symbols.lookup(callee_name(clone)), self.symbols))
        for use in list(value.uses):
            if use.owner.name == GROUP_OP:
                group = use.owner.operation.clone(ir.InsertionPoint(op))
                group.operands[0] = mapping[value]


def _is_terminator(op: ir.Operation) -> bool:
    return op.name in ("func.return", "stablehlo.return", "sdy.return")


def _enclosing_named_computation(op: ir.Operation) -> ir.Operation | None:
    parent = op.parent
    while parent is not None and parent.name != NAMED_COMPUTATION:
        parent = parent.parent
    return parent


def _region_ops_skipping_named_computations(region: ir.Region) -> list[ir.Operation]:
    """The ops nested in `region` in pre-order, not entering named computations."""
    found: list[ir.Operation] = []

    def visit(block: ir.Block) -> None:
        for op in block.operations:
            op = op.operation
            found.append(op)
            if op.name != NAMED_COMPUTATION:
                for nested_region in op.regions:
                    for nested_block in nested_region.blocks:
                        visit(nested_block)

    for block in region.blocks:
        visit(block)
    return found


@register_pass
@dataclasses.dataclass(frozen=True)
class ConstantOrScalarSplitterPass(Pass):
    argument = "sdy-constant-or-scalar-splitter"
    summary = "Splits constant and scalar expansions so each has a single use."

    def run(self, op: ir.Operation) -> None:
        _convert_constants(op)
        symbols = SymbolTable(op)
        splitter = _Splitter(symbols)
        for func in post_order(op, symbols):
            for named in nested_ops(func):
                if named.name == NAMED_COMPUTATION:
                    splitter.split_region(named.regions[0], func)
            splitter.split_region(func.regions[0], func)
