"""Immutable Python values of the sdy dialect's attributes, with lossless ir.Attribute conversions.

Every value has `from_attr(attr)` and `to_attr()`; printing always goes through
MLIR's printer (`str(value.to_attr())`), so the text is exactly what sdy_opt
prints. MLIR uniques attributes, so reading the same attribute again returns
the value already built (a bounded cache keyed by the attribute).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Union

from jaxlib.mlir import ir
from jaxlib.mlir.dialects import sdy, stablehlo

from pysdy.dialects.ir_memo import ir_memo

# --------------------------------------------------------------------------
# Meshes
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class MeshAxis:
    """A named axis of a mesh: `"x"=4`."""

    name: str
    size: int

    @classmethod
    def from_attr(cls, attr: ir.Attribute) -> MeshAxis:
        axis = sdy.MeshAxisAttr(attr)
        return cls(axis.name, axis.size)

    def to_attr(self) -> ir.Attribute:
        return sdy.MeshAxisAttr.get(self.name, self.size)


@dataclass(frozen=True)
class Mesh:
    """A logical mesh: named axes (major to minor) and an optional device order.

    `device_ids` is empty for the default iota order. A mesh with no axes and a
    single device id is a maximal mesh (the whole tensor on one device).
    """

    axes: tuple[MeshAxis, ...]
    device_ids: tuple[int, ...] = ()

    @classmethod
    def from_attr(cls, attr: ir.Attribute) -> Mesh:
        mesh = sdy.MeshAttr(attr)
        return cls(
            tuple(MeshAxis.from_attr(a) for a in mesh.axes), tuple(mesh.device_ids)
        )

    def to_attr(self) -> ir.Attribute:
        return sdy.MeshAttr.get([a.to_attr() for a in self.axes], list(self.device_ids))

    @property
    def total_size(self) -> int:
        size = 1
        for axis in self.axes:
            size *= axis.size
        return size

    @property
    def is_maximal(self) -> bool:
        return not self.axes and len(self.device_ids) == 1

    @property
    def is_empty(self) -> bool:
        """No axes and no device ids: compatible with any mesh (a maximal mesh is not empty)."""
        return not self.axes and not self.device_ids

    def axis_size(self, name: str) -> int | None:
        for axis in self.axes:
            if axis.name == name:
                return axis.size
        return None

    def axis_index(self, name: str) -> int | None:
        for index, axis in enumerate(self.axes):
            if axis.name == name:
                return index
        return None


# --------------------------------------------------------------------------
# Axis references and shardings
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class SubAxisInfo:
    """Which part of a full axis a sub-axis is: `(pre_size)size`."""

    pre_size: int
    size: int

    @property
    def next_pre_size(self) -> int:
        return self.pre_size * self.size


@dataclass(frozen=True)
class AxisRef:
    """A full mesh axis (`"x"`) or a sub-axis of one (`"x":(2)4`)."""

    name: str
    sub_axis: SubAxisInfo | None = None

    @classmethod
    def from_attr(cls, attr: ir.Attribute) -> AxisRef:
        return cls._from(sdy.AxisRefAttr(attr), sdy.SubAxisInfoAttr)

    @classmethod
    def from_stablehlo_attr(cls, attr: ir.Attribute) -> AxisRef:
        """`#stablehlo.axis_ref<name = "x">`, as a ReplicaGroupV3 collective names its axes."""
        return cls._from(stablehlo.AxisRefAttr(attr), stablehlo.SubAxisInfoAttr)

    @classmethod
    def _from(cls, ref, sub_axis_info_type) -> AxisRef:
        info = ref.sub_axis_info
        if info is None:
            return cls(ref.name)
        info = sub_axis_info_type(info)
        return cls(ref.name, SubAxisInfo(info.pre_size, info.size))

    def to_attr(self) -> ir.Attribute:
        if self.sub_axis is None:
            return sdy.AxisRefAttr.get(self.name)
        info = sdy.SubAxisInfoAttr.get(self.sub_axis.pre_size, self.sub_axis.size)
        return sdy.AxisRefAttr.get(self.name, info)

    def size(self, mesh: Mesh) -> int:
        if self.sub_axis is not None:
            return self.sub_axis.size
        size = mesh.axis_size(self.name)
        if size is None:
            raise KeyError(self.name)
        return size

    def __str__(self) -> str:
        if self.sub_axis is None:
            return f'"{self.name}"'
        return f'"{self.name}":({self.sub_axis.pre_size}){self.sub_axis.size}'


@dataclass(frozen=True)
class DimSharding:
    """The axes one tensor dimension is sharded on, major to minor.

    An open dimension (`{"x", ?}`) may be sharded further by propagation; a
    closed one (`{"x"}`) may not. `priority` is the user priority `pN`.
    """

    axes: tuple[AxisRef, ...] = ()
    is_closed: bool = True
    priority: int | None = None

    @classmethod
    def from_attr(cls, attr: ir.Attribute) -> DimSharding:
        dim = sdy.DimensionShardingAttr(attr)
        return cls(
            tuple(AxisRef.from_attr(a) for a in dim.axes), dim.is_closed, dim.priority
        )

    def to_attr(self) -> ir.Attribute:
        return sdy.DimensionShardingAttr.get(
            [a.to_attr() for a in self.axes], self.is_closed, self.priority
        )


MeshOrRef = Union[str, Mesh]


@dataclass(frozen=True)
class TensorSharding:
    """`#sdy.sharding<@mesh, [dims...], replicated={...}, unreduced={...}>`.

    `mesh` is the mesh symbol name, or the mesh itself when it is inlined. `reduction` is how the unreduced
    axes are to be reduced (`sum`, or on jax lines from 0.11 `max` or `min`: `unreduced=max{...}`).
    """

    mesh: MeshOrRef
    dims: tuple[DimSharding, ...]
    replicated: tuple[AxisRef, ...] = ()
    unreduced: tuple[AxisRef, ...] = ()
    reduction: str = "sum"

    @classmethod
    def from_attr(cls, attr: ir.Attribute) -> TensorSharding:
        return _tensor_sharding_from_attr(attr)

    @classmethod
    def _read(cls, attr: ir.Attribute) -> TensorSharding:
        sharding = sdy.TensorShardingAttr(attr)
        mesh_or_ref = sharding.mesh_or_ref
        if isinstance(mesh_or_ref, ir.FlatSymbolRefAttr):
            mesh: MeshOrRef = mesh_or_ref.value
        else:
            mesh = Mesh.from_attr(mesh_or_ref)
        return cls(
            mesh,
            tuple(DimSharding.from_attr(d) for d in sharding.dimension_shardings),
            tuple(AxisRef.from_attr(a) for a in sharding.replicated_axes),
            tuple(AxisRef.from_attr(a) for a in sharding.unreduced_axes),
            # The bindings have the kind from jax 0.11 (versions.py's unreduced_reduction_kinds); tests that play
            # another line's passes on older bindings read sum.
            sharding.reduction_op.name.lower() if hasattr(sharding, "reduction_op") else "sum",
        )

    def to_attr(self) -> ir.Attribute:
        return _tensor_sharding_to_attr(self, ir.Context.current)

    def _build(self) -> ir.Attribute:
        mesh = self.mesh if isinstance(self.mesh, str) else self.mesh.to_attr()
        reduction = {} if self.reduction == "sum" else {"reduction_op": getattr(sdy.ReductionOp, self.reduction.upper())}
        return sdy.TensorShardingAttr.get(
            mesh,
            [d.to_attr() for d in self.dims],
            [a.to_attr() for a in self.replicated],
            [a.to_attr() for a in self.unreduced],
            **reduction,
        )

    @classmethod
    def fully_open(cls, mesh: MeshOrRef, rank: int) -> TensorSharding:
        return cls(mesh, tuple(DimSharding((), False) for _ in range(rank)))

    @classmethod
    def fully_closed(cls, mesh: MeshOrRef, rank: int) -> TensorSharding:
        return cls(mesh, tuple(DimSharding((), True) for _ in range(rank)))

    @property
    def rank(self) -> int:
        return len(self.dims)


@dataclass(frozen=True)
class TensorShardingPerValue:
    """`#sdy.sharding_per_value<[...]>`: one sharding per result of an op."""

    shardings: tuple[TensorSharding, ...]

    @classmethod
    def from_attr(cls, attr: ir.Attribute) -> TensorShardingPerValue:
        return _per_value_from_attr(attr)

    @classmethod
    def _read(cls, attr: ir.Attribute) -> TensorShardingPerValue:
        per_value = sdy.TensorShardingPerValueAttr(attr)
        return cls(tuple(TensorSharding.from_attr(s) for s in per_value.shardings))

    def to_attr(self) -> ir.Attribute:
        return _per_value_to_attr(self, ir.Context.current)

    def _build(self) -> ir.Attribute:
        return sdy.TensorShardingPerValueAttr.get([s.to_attr() for s in self.shardings])


@dataclass(frozen=True)
class ManualAxes:
    """`#sdy<manual_axes{"x", "y"}>`: the axes a manual computation is manual on."""

    axes: tuple[str, ...]

    @classmethod
    def from_attr(cls, attr: ir.Attribute) -> ManualAxes:
        manual = sdy.ManualAxesAttr(attr)
        return cls(tuple(manual[i] for i in range(len(manual))))

    def to_attr(self) -> ir.Attribute:
        return sdy.ManualAxesAttr.get([ir.StringAttr.get(a) for a in self.axes])


# --------------------------------------------------------------------------
# Op sharding rules
# --------------------------------------------------------------------------


class FactorKind(enum.Enum):
    """What sharding a factor costs (a factor's `type` in Shardy's terms)."""

    PASS_THROUGH = "pass_through"
    REDUCTION = "reduction"
    NEED_REPLICATION = "need_replication"
    PERMUTATION = "permutation"


# A tensor mapping is, per dimension, the tuple of factor indices (major to
# minor) that dimension is made of.
TensorMapping = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class OpShardingRule:
    """`#sdy.op_sharding_rule`: how an op's dimensions relate through factors."""

    factor_sizes: tuple[int, ...]
    operand_mappings: tuple[TensorMapping, ...]
    result_mappings: tuple[TensorMapping, ...]
    reduction_factors: tuple[int, ...] = ()
    need_replication_factors: tuple[int, ...] = ()
    permutation_factors: tuple[int, ...] = ()
    blocked_propagation_factors: tuple[int, ...] = ()
    is_custom: bool = False

    @classmethod
    def from_attr(cls, attr: ir.Attribute) -> OpShardingRule:
        return _op_sharding_rule_from_attr(attr)

    @classmethod
    def _read(cls, attr: ir.Attribute) -> OpShardingRule:
        rule = sdy.OpShardingRuleAttr(attr)

        def mapping(tensor_attr: ir.Attribute) -> TensorMapping:
            return tuple(
                tuple(sdy.DimMappingAttr(d).factor_indices)
                for d in sdy.TensorMappingAttr(tensor_attr).dim_mappings
            )

        return cls(
            tuple(rule.factor_sizes),
            tuple(mapping(m) for m in rule.operand_mappings),
            tuple(mapping(m) for m in rule.result_mappings),
            tuple(rule.reduction_factors),
            tuple(rule.need_replication_factors),
            tuple(rule.permutation_factors),
            tuple(rule.blocked_propagation_factors),
            rule.is_custom,
        )

    def to_attr(self) -> ir.Attribute:
        def mapping(tensor: TensorMapping) -> ir.Attribute:
            return sdy.TensorMappingAttr.get(
                [sdy.DimMappingAttr.get(list(factors)) for factors in tensor]
            )

        return sdy.OpShardingRuleAttr.get(
            list(self.factor_sizes),
            [mapping(m) for m in self.operand_mappings],
            [mapping(m) for m in self.result_mappings],
            list(self.reduction_factors),
            list(self.need_replication_factors),
            list(self.permutation_factors),
            list(self.blocked_propagation_factors),
            self.is_custom,
        )

    @property
    def num_factors(self) -> int:
        return len(self.factor_sizes)

    def factor_kind(self, factor: int) -> FactorKind:
        if factor in self.reduction_factors:
            return FactorKind.REDUCTION
        if factor in self.need_replication_factors:
            return FactorKind.NEED_REPLICATION
        if factor in self.permutation_factors:
            return FactorKind.PERMUTATION
        return FactorKind.PASS_THROUGH


# Shardings repeat across a module (and its passes), so conversions either way
# are memoized: an attribute by its (uniqued) identity, a value by itself and
# the context its attribute lives in.
_CACHE_SIZE = 1 << 14


@ir_memo(_CACHE_SIZE)
def _tensor_sharding_from_attr(attr: ir.Attribute) -> TensorSharding:
    return TensorSharding._read(attr)


@ir_memo(_CACHE_SIZE)
def _op_sharding_rule_from_attr(attr: ir.Attribute) -> OpShardingRule:
    return OpShardingRule._read(attr)


@ir_memo(_CACHE_SIZE)
def _per_value_from_attr(attr: ir.Attribute) -> TensorShardingPerValue:
    return TensorShardingPerValue._read(attr)


@ir_memo(_CACHE_SIZE)
def _tensor_sharding_to_attr(sharding: TensorSharding, context: ir.Context) -> ir.Attribute:
    return sharding._build()


@ir_memo(_CACHE_SIZE)
def _per_value_to_attr(per_value: TensorShardingPerValue, context: ir.Context) -> ir.Attribute:
    return per_value._build()
