"""`sdy-per-instruction-partitioning` (jax lines from 0.11): jaxlib's Shardy partitions each top-level op of a function
that has a sharded operand or result on its own, with its own partitioner passes (`sdy-convert-global-to-local`
and the passes before it), and wraps the local op in an `sdy.manual_computation`. pysdy has no such partitioner: it
selects the ops as the C++ does (with the `filter` option) and refuses at the first one; a module without one is
left as it is, as the C++ leaves it.
"""

from __future__ import annotations

import dataclasses
import re

from jaxlib.mlir import ir

from pysdy import versions
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.export.reshard_ir import is_fully_replicated
from pysdy.passes.registry import Pass, PassFailure, option, register_pass

_PASS = "sdy-per-instruction-partitioning"
# Ops never partitioned on their own: sharding metadata, and unreduced collectives (handled later in export).
_SKIPPED = frozenset(
    {
        "sdy.data_flow_edge",
        "sdy.manual_computation",
        "sdy.mesh",
        "sdy.propagation_barrier",
        "sdy.replicated_to_unreduced",
        "sdy.return",
        "sdy.sharded_to_unreduced",
        "sdy.sharding_constraint",
        "sdy.sharding_group",
        "mhlo.copy",
    }
)
_SHARDING_CUSTOM_CALLS = frozenset({"Sharding", "mhlo.sharding"})
# An int64 as LLVM's StringRef::getAsInteger reads it in base 10.
_INTEGER = re.compile(r"-?[0-9]+")


@dataclasses.dataclass(frozen=True)
class _Filter:
    """Which candidate ops to partition: by sequence number (`selectLow=N`, `selectHigh=N`) and by name parts."""

    select_all: bool = False
    low: int = -1
    high: int = -1
    names: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> _Filter:
        text = text.strip()
        if not text:
            return cls(select_all=True)
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            text = text[1:-1].strip()
        low, high, names = -1, -1, []
        for token in (raw.strip() for raw in text.split(",")):
            if not token:
                continue
            if token.startswith("selectLow="):
                low = _int64(token[len("selectLow="):].strip(), low)
            elif token.startswith("selectHigh="):
                high = _int64(token[len("selectHigh="):].strip(), high)
            else:
                names.append(token)
        return cls(False, low, high, tuple(names))

    def matches(self, op: ir.Operation, number: int) -> bool:
        if self.select_all:
            return True
        if (self.low >= 0 and number < self.low) or (self.high >= 0 and number > self.high):
            return False
        return not self.names or any(name in op.name for name in self.names)


def _int64(text: str, default: int) -> int:
    """`text` as an int64, or `default` where it is not one (the C++ then keeps its bound)."""
    if not _INTEGER.fullmatch(text):
        return default
    value = int(text)
    return value if -(2**63) <= value < 2**63 else default


@register_pass
@dataclasses.dataclass(frozen=True)
class PerInstructionPartitioningPass(Pass):
    argument = _PASS
    summary = "Partitions each op with a sharded operand or result on its own, in an sdy.manual_computation."
    line_field = "per_instruction_partitioning"

    enable_halo_exchange: bool = option(True, "Resolve windowed ops' permutation factors with halo exchanges.")
    filter: str = option("", "Which ops to partition: a comma-separated list of selectLow=N, selectHigh=N, op names.")
    partition_count: int = option(1, "The number of partitions.")
    replica_count: int = option(1, "The number of replicas.")
    rng_bit_generator_unsafe: bool = option(
        True, "Partition stablehlo.rng_bit_generator with per-device states.", line_field="per_instruction_rng_option"
    )

    def run(self, op: ir.Operation) -> None:
        selected = _selected_ops(op, _Filter.parse(self.filter))
        if selected:
            first = selected[0]
            first.location.emit_error(f"{_PASS}: pysdy does not implement partitioning '{first.name}' on its own")
            raise PassFailure()


def _selected_ops(module: ir.Operation, filter_: _Filter) -> list[ir.Operation]:
    """The top-level ops of the function bodies that the C++ partitions, numbered as it numbers its candidates."""
    selected, number = [], 0
    for func in _partitioned_functions(module):
        for block in func.regions[0].blocks:
            for nested in block.operations:
                nested = nested.operation
                if not _is_candidate(nested):
                    continue
                if filter_.matches(nested, number):
                    selected.append(nested)
                number += 1
    return selected


def _partitioned_functions(module: ir.Operation) -> list[ir.Operation]:
    """Every function; from jax 0.12 only `@main`, else the first public function."""
    funcs = [op.operation for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func"]
    if not versions.installed().per_instruction_main_function_only:
        return funcs
    main = [func for func in funcs if ir.StringAttr(func.attributes["sym_name"]).value == "main"]
    public = [func for func in funcs if "sym_visibility" not in func.attributes]
    return (main or public)[:1]


def _is_candidate(op: ir.Operation) -> bool:
    if op.has_trait(ir.IsTerminatorTrait) or op.name in _SKIPPED:
        return False
    if op.name == "stablehlo.custom_call":
        target = ir.StringAttr(op.attributes["call_target_name"]).value
        if target in _SHARDING_CUSTOM_CALLS:
            return False
    values = list(op.results) + list(op.operands)
    return any(not is_fully_replicated(get_sharding(value)) for value in values)
