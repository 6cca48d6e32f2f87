"""The hook's verify mode: jaxlib's C++ Shardy runs the same pipelines on JAX's module, and any difference from
pysdy's result is named by op and source line.

The C++ runs in the process, as XLA's own Shardy route would run it on the
same module during the compile. pysdy's pipelines are handed to it as their
expansion into jaxlib's pass names (the steps pysdy runs), so an option only
pysdy's text pipelines spell is compared too. pysdy's own passes, which
have no C++ twin (named `pysdy-...`, such as the call inlining of the gspmd
route), run as pysdy's on both sides.
"""

from __future__ import annotations

from jaxlib.mlir import ir, passmanager

from pysdy.dialects.context import make_context
from pysdy.driver.diagnostics import position_of
from pysdy.passes.common.ir_walk import nested_ops
from pysdy.passes.pipeline import PassStep, PipelineError, instantiate, parse_pipeline, pipeline_text, run_pipeline

# The prefix of pysdy's own passes, which run before Shardy's in a hand-off's pipelines.
PYSDY_OWNED = "pysdy-"
# Differences named per module; more are counted, not listed.
LISTED_PER_MODULE = 5


def jaxlib_spelling(pipeline: str) -> str:
    """`pipeline` as jaxlib's pass manager reads it: pysdy's pipeline passes expanded into their steps."""
    parts = []
    for step in parse_pipeline(pipeline):
        pass_ = instantiate(step) if isinstance(step, PassStep) else None
        parts.append(pipeline_text(pass_.steps()) if hasattr(pass_, "steps") else pipeline_text((step,)))
    return ",".join(parts)


def differences_from_jaxlib(module_name: str, jax_text: str, pipelines: tuple[str, ...], pysdy_text: str) -> list[str]:
    """How jaxlib's C++ result of `pipelines` on `jax_text` differs from pysdy's (`pysdy_text`); empty if identical."""
    own = [pipeline for pipeline in pipelines if pipeline.startswith(PYSDY_OWNED)]
    shardy = [pipeline for pipeline in pipelines if not pipeline.startswith(PYSDY_OWNED)]
    with make_context():
        try:
            manager = passmanager.PassManager.parse(f"builtin.module({','.join(map(jaxlib_spelling, shardy))})")
        except (ValueError, PipelineError) as error:
            return [f"'{module_name}': cannot verify: jaxlib has no C++ passes for {', '.join(pipelines)} ({error})"]
        cpp = ir.Module.parse(jax_text)
        try:
            for pipeline in own:
                run_pipeline(cpp, parse_pipeline(pipeline))
            manager.run(cpp.operation)
        except ir.MLIRError as error:
            return [f"'{module_name}': jaxlib's C++ fails where pysdy does not: {error}"]
        ours = ir.Module.parse(pysdy_text)
        if str(cpp) == str(ours):
            return []
        return _named_differences(module_name, cpp, ours)


def _named_differences(module_name: str, cpp: ir.Module, ours: ir.Module) -> list[str]:
    cpp_ops, our_ops = nested_ops(cpp.operation, pre_order=True), nested_ops(ours.operation, pre_order=True)
    found = []
    for theirs, mine in zip(cpp_ops, our_ops):
        if theirs.name != mine.name:
            found.append(f"{_where(mine)}: pysdy has '{mine.name}' where jaxlib's C++ has '{theirs.name}'")
            break
        expected, actual = _attributes(theirs), _attributes(mine)
        for key in sorted(set(expected) | set(actual)):
            if expected.get(key) != actual.get(key):
                found.append(
                    f"{_where(mine)}: {mine.name} {key}: pysdy {actual.get(key, '(none)')}, "
                    f"jaxlib's C++ {expected.get(key, '(none)')}"
                )
    if not found and len(cpp_ops) != len(our_ops):
        found.append(f"pysdy's module has {len(our_ops)} ops, jaxlib's C++ {len(cpp_ops)}")
    if not found:
        found.append("the printed modules differ outside op names and attributes")
    listed = [f"'{module_name}': {difference}" for difference in found[:LISTED_PER_MODULE]]
    if len(found) > LISTED_PER_MODULE:
        listed.append(f"'{module_name}': {len(found) - LISTED_PER_MODULE} more differences")
    return listed


def _attributes(op: ir.Operation) -> dict[str, str]:
    attributes = op.attributes
    return {attributes[i].name: str(attributes[i].attr) for i in range(len(attributes))}


def _where(op: ir.Operation) -> str:
    position = position_of(op.location)
    return f"{position.file}:{position.line}:{position.col}" if position else str(op.location)
