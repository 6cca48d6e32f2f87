"""From a module's text to its Explanation: one recording run of pysdy's propagation pipeline, read back as plain data."""

from __future__ import annotations

from jaxlib.mlir import ir

from pysdy.dialects.context import make_context
from pysdy.dialects.sdy import Mesh
from pysdy.driver.diagnostics import DiagnosticCollector, format_diagnostic
from pysdy.driver.source import NotAModuleError, parse_source
from pysdy.explanation.chains import axis_chains
from pysdy.explanation.debug_run import propagate_recording
from pysdy.explanation.model import Explanation, MeshView, TensorView
from pysdy.explanation.recorded_module import FuncResult, RecordedModule, ValueKey
from pysdy.explanation.reshards import find_reshards
from pysdy.explanation.sizes import tensor_bytes
from pysdy.passes.common.data_flow import MANUAL_COMPUTATION
from pysdy.passes.common.manual_axes import enclosing_manual_computation
from pysdy.passes.diagnostics import warnings_to


# The largest mesh whose devices an explanation lists (and a report draws).
LISTED_DEVICES = 4096


class ExplainInputError(Exception):
    """The module cannot be explained: the message holds MLIR-style diagnostics (`file:line:col: error: ...`)."""


def explain_text(text: str, source_name: str = "<module>", title: str | None = None) -> Explanation:
    """The explanation of a StableHLO module with sdy (or, after import, GSPMD) shardings.

    Where the run recording each propagation step fails (jaxlib 0.10's verifier rejects the steps a loop's
    data-flow edge records), the chains are read from a run recording the origins alone: each axis's annotation,
    without the steps between."""
    try:
        return _explain(text, source_name, title, with_steps=True)
    except ExplainInputError:
        return _explain(text, source_name, title, with_steps=False)


def _explain(text: str, source_name: str, title: str | None, with_steps: bool) -> Explanation:
    context = make_context()
    collector = DiagnosticCollector(context)
    with context, collector:
        try:
            module = parse_source(text, source_name, context)
            with warnings_to(collector.record_warning):
                propagated = propagate_recording(module.operation, with_steps)
            recorded = RecordedModule(module.operation, propagated)
            return explain_recorded(recorded, title or _module_title(module), source_name)
        except NotAModuleError:
            pass  # reported on the op
        except ir.MLIRError as error:
            collector.add_from_error(error)
    lines = {source_name: text.split("\n")}
    errors = [format_diagnostic(d, lines) for d in collector.diagnostics if d.severity == "error"]
    raise ExplainInputError("\n".join(errors) or f"{source_name}: error: the module could not be explained")


def _module_title(module: ir.OpView) -> str:
    attributes = module.operation.attributes
    return ir.StringAttr(attributes["sym_name"]).value if "sym_name" in attributes else "module"


def explain_recorded(recorded: RecordedModule, title: str, source: str) -> Explanation:
    meshes = _meshes(recorded.module)
    return Explanation(
        title=title,
        source=source,
        meshes=tuple(_mesh_view(name, mesh) for name, mesh in meshes.items() if not mesh.is_empty),
        tensors=tuple(_tensor_view(recorded, value, meshes) for value in recorded.values if _is_tensor(recorded, value)),
        reshards=tuple(find_reshards(recorded, meshes)),
    )


def _meshes(module: ir.Operation) -> dict[str, Mesh]:
    found = {}
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name == "sdy.mesh":
            found[ir.StringAttr(op.operation.attributes["sym_name"]).value] = Mesh.from_attr(op.operation.attributes["mesh"])
    return found


def _mesh_view(name: str, mesh: Mesh) -> MeshView:
    """The mesh's device at each position; none listed for a mesh too large to draw."""
    device_ids = tuple(mesh.device_ids)
    if not device_ids and mesh.total_size <= LISTED_DEVICES:
        device_ids = tuple(range(mesh.total_size))
    return MeshView(name, tuple((axis.name, axis.size) for axis in mesh.axes), device_ids)


def _is_tensor(recorded: RecordedModule, value: ValueKey) -> bool:
    type_ = recorded.type(value)
    return isinstance(type_, ir.RankedTensorType) and type_.has_static_shape


def _role(recorded: RecordedModule, value: ValueKey) -> str:
    """`argument` or `result` of main, `shard_map body` for a value each device holds its own of (inside a manual
    computation), else `intermediate`."""
    if isinstance(value, FuncResult):
        return "result" if recorded.functions[value.function] == recorded.main else "intermediate"
    owner = value.owner.owner.operation if isinstance(value, ir.BlockArgument) else value.owner
    if owner == recorded.main:
        return "argument"
    manual = owner if owner.name == MANUAL_COMPUTATION and isinstance(value, ir.BlockArgument) else None
    if manual is not None or enclosing_manual_computation(owner) is not None:
        return "shard_map body"
    return "intermediate"


def _tensor_view(recorded: RecordedModule, value: ValueKey, meshes: dict[str, Mesh]) -> TensorView:
    type_ = ir.RankedTensorType(recorded.type(value))
    sharding = recorded.sharding(value)
    role = _role(recorded, value)
    mesh_name = sharding.mesh if sharding is not None and isinstance(sharding.mesh, str) else None
    if sharding is None and role != "shard_map body" and len(meshes) == 1:
        mesh_name = next(iter(meshes))  # no sharding: replicated on the module's one mesh
    return TensorView(
        name=recorded.name(value),
        role=role,
        shape=tuple(type_.shape),
        dtype=str(type_.element_type),
        bytes=tensor_bytes(type_),
        mesh=mesh_name,
        sharding=None if sharding is None else str(sharding.to_attr()),
        dim_axes=() if sharding is None else tuple(tuple(_axis_text(a) for a in dim.axes) for dim in sharding.dims),
        location=recorded.location(value),
        chains=axis_chains(recorded, value),
        op=value.owner.name if isinstance(value, ir.OpResult) else None,
    )


def _axis_text(axis) -> str:
    """An axis as the model spells it: `x`, or a sub-axis `x:(1)2`."""
    return axis.name if axis.sub_axis is None else f"{axis.name}:({axis.sub_axis.pre_size}){axis.sub_axis.size}"
