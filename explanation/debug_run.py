"""pysdy's `sdy-propagation-pipeline`, run once with its debug info kept: origins, propagation edges and sharding rules.

The run is the pipeline users run, step for step, and gives every value the
sharding that pipeline gives it; only what it records differs: propagation
records where each axis came from (`debug-sharding-origins`) and which step
carried it (`debug-propagation-edge-sharding`), the export sinks the origins
onto the ops that own data-flow edges (not the steps: a data-flow edge that
recorded none cannot be written, so the steps through loop, branch and
`shard_map` boundaries are left out), the sharding rules stay on the ops, and
the export inserts a reshard wherever an op's operands and results disagree
(`enable-full-version`, as XLA's Shardy partitioner runs it; the pipeline's
default leaves most of those to the partitioner). Where that full version
refuses a module, the pipeline's own reshards are recorded instead. Before the run,
every op's location is wrapped in a name carrying its first result's name in
the input module (as MLIR prints it), so values read after the run can be
named as the user's module names them.
"""

from __future__ import annotations

import dataclasses
import re

from jaxlib.mlir import ir

from pysdy.dialects.sdy import TensorSharding

from pysdy.passes.common import func_attrs
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.common.value_shardings import get_sharding
from pysdy.passes.propagation.debug_info import SHARDING_ORIGIN_NAME
from pysdy.passes.pipeline import NestedPipeline, PassStep, Step, build_pass_manager, run_pass_manager
from pysdy.passes.propagation.propagation_pipeline import PropagationPipelinePass

_NAME_PREFIX = "pysdy-value="
_NAMED = re.compile(r'^loc\("' + re.escape(_NAME_PREFIX) + r'([^"@]*)@([^"]*)"')
_RECORDING_OPTIONS = {
    "sdy-user-priority-propagate": (("debug-sharding-origins", "true"), ("debug-propagation-edge-sharding", "true")),
    # Steps through data-flow edges are recorded on the edges; no sinking: see the module's docstring.
    "sdy-insert-explicit-reshards": (("enable-full-version", "true"),),
    "sdy-sink-data-flow-edges": (("sink-debug-sharding-origins", "true"),),
}
_DROPS_RULES = "sdy-drop-sharding-rules"


def _recording(step: Step, with_steps: bool) -> Step | None:
    if isinstance(step, NestedPipeline):
        steps = tuple(s for s in (_recording(inner, with_steps) for inner in step.steps) if s is not None)
        return NestedPipeline(step.anchor, steps) if steps else None
    if step.name == _DROPS_RULES:
        return None
    options = dict(step.options)
    options.update(_RECORDING_OPTIONS.get(step.name, ()))
    if not with_steps:
        options.pop("debug-propagation-edge-sharding", None)
    return PassStep(step.name, tuple(options.items()))


def recording_steps(with_steps: bool = True) -> tuple[Step, ...]:
    """The propagation pipeline's steps with the recording options on and the sharding rules kept; `with_steps`
    False records the origins alone (jaxlib 0.10's verifier rejects the steps a loop's data-flow edge records)."""
    steps = (_recording(step, with_steps) for step in PropagationPipelinePass().steps())
    return tuple(s for s in steps if s is not None)


def name_values(module: ir.Operation) -> None:
    """Wraps every op's location in `pysdy-value=<its first result's name>@<op name>`; in functions other than
    `main` the name is `@function:%name`, since each function numbers its values afresh."""
    for func in module.operation.regions[0].blocks[0].operations:
        if func.operation.name != "func.func":
            continue
        state = ir.AsmState(func.operation)
        prefix = function_prefix(func.operation)
        for op in nested_ops(func.operation):
            if op.results and op.name != "func.func":
                name = prefix + op.results[0].get_name(state)
                op.location = ir.Location.name(f"{_NAME_PREFIX}{name}@{op.name}", childLoc=op.location)


def function_prefix(func: ir.Operation) -> str:
    """`""` for `main`, `@name:` for other functions: what value names in `func` start with."""
    name = ir.StringAttr(func.attributes["sym_name"]).value
    return "" if name == "main" else f"@{name}:"


def input_name(op: ir.Operation, result_number: int = 0) -> tuple[str, bool] | None:
    """The name the input module gave `op`'s result, and whether `op` is the op that had it: an op a pass made
    carries the name of the op it came from (a reshard or all-reduce the name of the op it follows)."""
    match = _NAMED.match(str(op.location))
    if match is None:
        return None
    name, original_op = match.groups()
    if len(op.results) > 1:
        name = f"{name.split('#')[0]}#{result_number}"
    return name, original_op == op.name or (original_op, op.name) in _BECOMES

# Ops the pipeline rewrites into another op of the same meaning: export makes each sharding constraint a reshard.
_BECOMES = {("sdy.sharding_constraint", "sdy.reshard")}


@dataclasses.dataclass(frozen=True)
class Propagated:
    """The module as propagation left it, before export's reshards (which may reshard an op's operands and change
    the op's own sharding, and rewrite a constraint's reshard): every value's sharding then, and the sharding each
    sharding constraint asked for, by its origin name."""

    shardings: dict[ir.Value, TensorSharding | None]
    constraint_shardings: dict[str, str]
    # main's argument and result shardings as the input wrote them, priorities included (propagation drops
    # those): ("input", i) / ("output", i) -> the printed sharding.
    written: dict[tuple[str, int], str]


def propagate_recording(module: ir.Operation, with_steps: bool = True) -> Propagated:
    """Runs the recording pipeline on `module` in place; returns what propagation left before export's reshards."""
    name_values(module)
    written = _written_shardings(module)
    steps = recording_steps(with_steps)
    split = next(i for i, step in enumerate(steps) if _reshards(step))
    run_pass_manager(build_pass_manager(steps[:split], module.context), module)
    asked, shardings = {}, {}
    for op in nested_ops(module):
        if SHARDING_ORIGIN_NAME in op.attributes and "sharding" in op.attributes:
            asked[ir.StringAttr(op.attributes[SHARDING_ORIGIN_NAME]).value] = str(op.attributes["sharding"])
        for region in op.regions:
            for block in region.blocks:
                shardings.update((argument, get_sharding(argument)) for argument in block.arguments)
        if op.name != "func.func":
            shardings.update((result, get_sharding(result)) for result in op.results)
    partitioner = steps[split:]
    probe = module.clone()
    try:
        run_pass_manager(build_pass_manager(partitioner, module.context), probe)
    except ir.MLIRError:
        partitioner = _minimal(partitioner)
    finally:
        probe.erase()
    run_pass_manager(build_pass_manager(partitioner, module.context), module)
    return Propagated(shardings, asked, written)


def _written_shardings(module: ir.Operation) -> dict[tuple[str, int], str]:
    written = {}
    for op in module.regions[0].blocks[0].operations:
        func = op.operation
        if func.name == "func.func" and ir.StringAttr(func.attributes["sym_name"]).value == "main":
            for side, attrs in (("input", func_attrs.arg_sharding_attrs(func)), ("output", func_attrs.result_sharding_attrs(func))):
                written.update(((side, i), str(a)) for i, a in enumerate(attrs) if a is not None)
    return written


def _minimal(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """The steps with export's reshards as the pipeline's default inserts them."""

    def step_of(step: Step) -> Step:
        if isinstance(step, NestedPipeline):
            return NestedPipeline(step.anchor, tuple(map(step_of, step.steps)))
        return PassStep(step.name, tuple((k, "false" if k == "enable-full-version" else v) for k, v in step.options))

    return tuple(map(step_of, steps))


def _reshards(step: Step) -> bool:
    """Whether the step is (or nests) the first partitioner step: export's reshards."""
    if isinstance(step, NestedPipeline):
        return any(map(_reshards, step.steps))
    return step.name in ("sdy-verify-unreduced-axes", "sdy-insert-explicit-reshards")
