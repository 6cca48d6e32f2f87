"""The factor bookkeeping every op sharding rule shares: add factors, then build the rule.

A rule is built by adding factors one at a time. Each factor has a size, a
kind, and the dimension it occupies in each operand and result (or none).
When the rule is built, every dimension that received no factor gets a fresh
factor of size 1 (operands first, then results, in dimension order), which is
how Shardy numbers them too.
"""

from __future__ import annotations

import functools

from typing import Callable, Iterable, Sequence

from jaxlib.mlir import ir

from pysdy.dialects.sdy import FactorKind, OpShardingRule

# Marks "this tensor has no dimension for the factor".
NO_DIM = -1

Shape = tuple[int, ...]


def shape_of(value_or_type) -> Shape:
    """The static shape of a ranked tensor value or type; () for anything unranked."""
    type_ = value_or_type.type if isinstance(value_or_type, ir.Value) else value_or_type
    if isinstance(type_, ir.RankedTensorType):
        return tuple(type_.shape)
    return ()


class RuleBuilder:
    """Accumulates factors for one op and builds its `OpShardingRule`."""

    def __init__(self, operand_shapes: Sequence[Shape], result_shapes: Sequence[Shape]):
        self.operand_ranks = [len(s) for s in operand_shapes]
        self.result_ranks = [len(s) for s in result_shapes]
        self._operand_dims: list[list[list[int]]] = [[[] for _ in range(r)] for r in self.operand_ranks]
        self._result_dims: list[list[list[int]]] = [[[] for _ in range(r)] for r in self.result_ranks]
        self._factor_sizes: list[int] = []
        self._kinds: dict[FactorKind, list[int]] = {kind: [] for kind in FactorKind}
        self._blocked: list[int] = []

    @classmethod
    def for_op(cls, op) -> RuleBuilder:
        """A builder sized for `op`'s operands and results."""
        op = getattr(op, "operation", op)
        return cls([shape_of(v) for v in op.operands], [shape_of(v) for v in op.results])

    @property
    def num_factors(self) -> int:
        return len(self._factor_sizes)

    def _new_factor(self, size: int, kind: FactorKind, blocked: bool) -> int:
        index = len(self._factor_sizes)
        self._factor_sizes.append(size)
        if kind is not FactorKind.PASS_THROUGH:
            self._kinds[kind].append(index)
        if blocked:
            self._blocked.append(index)
        return index

    def add_factor(
        self,
        operand_dims: Sequence[int],
        result_dims: Sequence[int],
        size: int,
        kind: FactorKind = FactorKind.PASS_THROUGH,
        blocked: bool = False,
    ) -> RuleBuilder:
        """Adds a factor at `operand_dims[i]` of operand i and `result_dims[j]` of result j.

        `NO_DIM` means that tensor does not have the factor.
        """
        assert len(operand_dims) == len(self._operand_dims), "one dim per operand"
        assert len(result_dims) == len(self._result_dims), "one dim per result"
        index = self._new_factor(size, kind, blocked)
        for tensor, dim in zip(self._operand_dims, operand_dims):
            if dim != NO_DIM:
                tensor[dim].append(index)
        for tensor, dim in zip(self._result_dims, result_dims):
            if dim != NO_DIM:
                tensor[dim].append(index)
        return self

    def add_factor_to_all(
        self, dim: int, size: int, kind: FactorKind = FactorKind.PASS_THROUGH, blocked: bool = False
    ) -> RuleBuilder:
        """Adds a factor at `dim` of every operand and result that has dimensions (scalars are skipped)."""
        index = self._new_factor(size, kind, blocked)
        for tensor in self._operand_dims + self._result_dims:
            if tensor:
                tensor[dim].append(index)
        return self

    def add_pointwise(
        self, shape: Sequence[int], kind_of: Callable[[int], FactorKind] | None = None
    ) -> RuleBuilder:
        """One factor per dimension of `shape`, shared by every non-scalar tensor."""
        for dim, size in enumerate(shape):
            self.add_factor_to_all(dim, size, kind_of(dim) if kind_of else FactorKind.PASS_THROUGH)
        return self

    def add_pointwise_if(
        self,
        shape: Sequence[int],
        predicate: Callable[[int], bool],
        kind_of: Callable[[int], FactorKind] | None = None,
    ) -> RuleBuilder:
        """Like `add_pointwise`, for the dimensions where `predicate(dim)` holds."""
        for dim, size in enumerate(shape):
            if predicate(dim):
                self.add_factor_to_all(dim, size, kind_of(dim) if kind_of else FactorKind.PASS_THROUGH)
        return self

    def add_pointwise_if_sizes_match(
        self,
        in_shape: Sequence[int],
        out_shape: Sequence[int],
        on_mismatch: Callable[[int, RuleBuilder], None] = lambda dim, builder: None,
    ) -> RuleBuilder:
        """A shared factor per dimension whose size is the same in and out; `on_mismatch` otherwise."""
        assert len(in_shape) == len(out_shape)
        for dim, (in_size, out_size) in enumerate(zip(in_shape, out_shape)):
            if in_size == out_size:
                self.add_factor_to_all(dim, in_size)
            else:
                on_mismatch(dim, self)
        return self

    def add_pointwise_with_kind_for_mismatch(
        self,
        in_shape: Sequence[int],
        out_shape: Sequence[int],
        mismatch_kind: FactorKind,
        mismatch_blocked: bool = False,
    ) -> RuleBuilder:
        """A shared factor per dimension (of the input's size); `mismatch_kind` where sizes differ.

        With `mismatch_blocked`, the factors of differing dimensions are also blocked.
        """
        assert len(in_shape) == len(out_shape)
        for dim, (in_size, out_size) in enumerate(zip(in_shape, out_shape)):
            if in_size == out_size:
                self.add_factor_to_all(dim, in_size)
            else:
                self.add_factor_to_all(dim, in_size, mismatch_kind, mismatch_blocked)
        return self

    def build(self, is_custom: bool = False) -> OpShardingRule:
        """The rule; dimensions with no factor get a size-1 factor of their own."""
        sizes = list(self._factor_sizes)

        def finish(tensors: Iterable[list[list[int]]]) -> tuple:
            mappings = []
            for tensor in tensors:
                dims = []
                for factors in tensor:
                    if factors:
                        dims.append(tuple(factors))
                    else:
                        dims.append((len(sizes),))
                        sizes.append(1)
                mappings.append(tuple(dims))
            return tuple(mappings)

        operand_mappings = finish(self._operand_dims)
        result_mappings = finish(self._result_dims)
        return OpShardingRule(
            factor_sizes=tuple(sizes),
            operand_mappings=operand_mappings,
            result_mappings=result_mappings,
            reduction_factors=tuple(self._kinds[FactorKind.REDUCTION]),
            need_replication_factors=tuple(self._kinds[FactorKind.NEED_REPLICATION]),
            permutation_factors=tuple(self._kinds[FactorKind.PERMUTATION]),
            blocked_propagation_factors=tuple(self._blocked),
            is_custom=is_custom,
        )


def pointwise_rule(op) -> OpShardingRule:
    """Dimension d of every tensor is factor d, sized like dimension d of the first result.

    Tensors of a variadic op may have lower ranks; a tensor without dimension
    d simply lacks factor d, as in Shardy's pointwise builder.
    """
    op = getattr(op, "operation", op)
    builder = RuleBuilder.for_op(op)
    for dim, size in enumerate(shape_of(op.results[0])):
        builder.add_factor(
            [dim if dim < rank else NO_DIM for rank in builder.operand_ranks],
            [dim if dim < rank else NO_DIM for rank in builder.result_ranks],
            size,
        )
    return builder.build()


def identity_rule(shape: Sequence[int], num_operands: int, num_results: int) -> OpShardingRule:
    """All operands and results have `shape` and are sharded alike (a data-flow edge)."""
    return _identity_rule(tuple(shape), num_operands, num_results)


@functools.lru_cache(maxsize=4096)  # plain values: every edge of a shape and arity has the same rule
def _identity_rule(shape: tuple[int, ...], num_operands: int, num_results: int) -> OpShardingRule:
    return RuleBuilder([shape] * num_operands, [shape] * num_results).add_pointwise(shape).build()
