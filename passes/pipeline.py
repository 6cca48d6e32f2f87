"""Pass pipelines: parse both spellings (sdy_opt flags and `--pass-pipeline=`) and build a PassManager.

Every `sdy-*` / `xla-sdy-*` name resolves to pysdy's Python pass and nothing
else; only upstream MLIR passes (`canonicalize`, `cse`, `inline`, ...) are
handed to MLIR's own pipeline parser. Python passes are added to the
PassManager as real MLIR passes, so timing and IR printing see them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from typing import Iterator, Union

from jaxlib.mlir import ir, passmanager

from pysdy.dialects.ir_memo import ir_memo, use_context
from pysdy.passes.diagnostics import nested_errors, report_nested_errors
from pysdy.passes.registry import (
    FUNC,
    MODULE,
    OptionError,
    Pass,
    PassFailure,
    is_sdy_pass_name,
    lookup_pass,
    unknown_pass_message,
)

# Upstream passes people put beside sdy passes; used for "did you mean" hints.
KNOWN_UPSTREAM_PASSES = ["canonicalize", "cse", "inline", "symbol-dce", "symbol-privatize", "sccp"]


class PipelineError(ValueError):
    """A pipeline that names an unknown pass, a bad option, or is malformed."""


@dataclasses.dataclass(frozen=True)
class PassStep:
    """One pass in a pipeline, with its options as written."""

    name: str
    options: tuple[tuple[str, str], ...] = ()

    def text(self) -> str:
        if not self.options:
            return self.name
        return self.name + "{" + " ".join(f"{k}={v}" for k, v in self.options) + "}"


@dataclasses.dataclass(frozen=True)
class NestedPipeline:
    """`op-name(step, step, ...)`: steps that run on every op of that name."""

    anchor: str
    steps: tuple[Step, ...]


Step = Union[PassStep, NestedPipeline]


def pipeline_text(steps: tuple[Step, ...]) -> str:
    """The textual pipeline of `steps` (what `parse_pipeline` reads back), e.g. for jaxlib's C++ pass manager."""
    parts = []
    for step in steps:
        parts.append(f"{step.anchor}({pipeline_text(step.steps)})" if isinstance(step, NestedPipeline) else step.text())
    return ",".join(parts)


# --------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------


def parse_options(text: str) -> tuple[tuple[str, str], ...]:
    """`a=1 b={x y} c="q r"` -> (("a", "1"), ("b", "x y"), ("c", "q r")); a bare `a` means `a=true`."""
    options = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t\n":
            i += 1
        if i >= n:
            break
        start = i
        while i < n and text[i] not in "= \t\n":
            i += 1
        key = text[start:i]
        if not key:
            raise PipelineError(f"malformed pass options '{text}'")
        if i < n and text[i] == "=":
            i += 1
            value, i = _read_option_value(text, i)
        else:
            value = "true"
        options.append((key, value))
    return tuple(options)


def _read_option_value(text: str, i: int) -> tuple[str, int]:
    n = len(text)
    if i < n and text[i] in "\"'":
        quote = text[i]
        end = text.find(quote, i + 1)
        if end < 0:
            raise PipelineError(f"unterminated quote in pass options '{text}'")
        return text[i + 1 : end], end + 1
    if i < n and text[i] == "{":
        return _read_braced(text, i)
    start = i
    while i < n and text[i] not in " \t\n":
        i += 1
    return text[start:i], i


def _read_braced(text: str, i: int) -> tuple[str, int]:
    """The text inside the balanced `{...}` starting at `i`, and the index after it."""
    depth, start = 0, i
    while i < len(text):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
        if depth == 0:
            return text[start + 1 : i - 1], i
    raise PipelineError(f"unbalanced braces in '{text}'")


def parse_pipeline(text: str) -> tuple[Step, ...]:
    """Parses MLIR's textual pipeline syntax, e.g. `builtin.module(func.func(cse),sdy-x{a=1})`.

    A pipeline that is one `builtin.module(...)` element is unwrapped, since
    pysdy pipelines always run on the module.
    """
    steps, i = _parse_elements(text.strip(), 0)
    if i != len(text.strip()):
        raise PipelineError(f"unexpected '{text.strip()[i:]}' in pass pipeline")
    if len(steps) == 1 and isinstance(steps[0], NestedPipeline) and steps[0].anchor == MODULE:
        return steps[0].steps
    return steps


def _parse_elements(text: str, i: int) -> tuple[tuple[Step, ...], int]:
    steps: list[Step] = []
    n = len(text)
    while i < n:
        while i < n and text[i] in " \t\n":
            i += 1
        start = i
        while i < n and text[i] not in "(){},\t\n ":
            i += 1
        name = text[start:i]
        if not name:
            raise PipelineError(f"expected a pass or op name at '{text[start:]}'")
        while i < n and text[i] in " \t\n":
            i += 1
        if i < n and text[i] == "(":
            inner, i = _parse_elements(text, i + 1)
            if i >= n or text[i] != ")":
                raise PipelineError(f"missing ')' after '{name}(' in pass pipeline")
            i += 1
            steps.append(NestedPipeline(name, inner))
        elif i < n and text[i] == "{":
            options, i = _read_braced(text, i)
            steps.append(PassStep(name, parse_options(options)))
        else:
            steps.append(PassStep(name))
        while i < n and text[i] in " \t\n":
            i += 1
        if i < n and text[i] == ",":
            i += 1
            continue
        break
    return tuple(steps), i


# --------------------------------------------------------------------------
# Building a PassManager
# --------------------------------------------------------------------------


def instantiate(step: PassStep) -> Pass | None:
    """The pysdy pass a step names (None for an upstream pass); raises PipelineError when unknown."""
    cls = lookup_pass(step.name)
    if cls is None:
        if is_sdy_pass_name(step.name):
            raise PipelineError(unknown_pass_message(step.name, KNOWN_UPSTREAM_PASSES))
        return None
    try:
        return cls.from_options(dict(step.options))
    except OptionError as error:
        raise PipelineError(str(error)) from None


def run_pass_on(pass_: Pass, op: ir.Operation) -> None:
    """Runs a pysdy pass on `op` (a module, or a function for function passes)."""
    op = op.operation
    use_context(op.context)
    if pass_.anchor == FUNC and op.name == MODULE:
        # As MLIR's pass manager, a function pass runs on every function even after one has failed.
        failed = False
        for func in functions_of(op):
            try:
                pass_.run(func)
            except PassFailure:
                failed = True
        if failed:
            raise PassFailure()
    else:
        pass_.run(op)


def functions_of(module: ir.Operation) -> list[ir.Operation]:
    return [op.operation for op in module.regions[0].blocks[0].operations if op.operation.name == FUNC]


# Whether the pass manager running the current Python pass verifies after each pass; a pipeline
# pass's nested pass manager does as its own does.
_running = threading.local()


def _verifies_by_default() -> bool:
    return getattr(_running, "verify", True)


@contextlib.contextmanager
def _running_with_verifier(verify: bool) -> Iterator[None]:
    previous = _verifies_by_default()
    _running.verify = verify
    try:
        yield
    finally:
        _running.verify = previous


def _as_mlir_pass(pass_: Pass, verify: bool):
    def run(op, mlir_pass):
        try:
            with _running_with_verifier(verify):
                run_pass_on(pass_, op)
        except PassFailure:
            mlir_pass.signal_pass_failure()

    return run


# A step of a function group: a pysdy function pass, or upstream pass text anchored on func.func.
FunctionStep = Union[Pass, str]


def _as_function_group(steps: list[FunctionStep], verify: bool, context: ir.Context | None):
    """A module pass running `steps` as MLIR runs adjacent `func.func(...)` pipelines, which it merges into one:
    on each function in turn, every step, each followed by the verifier on that function alone (which, unlike
    the module's, does not check the shardings' mesh references). The module is verified after the group: a
    function found invalid ends the group there, and the module's verifier reports it as jaxlib reports it."""
    upstream = {
        index: _upstream_function_pass_manager(step, verify, context)
        for index, step in enumerate(steps)
        if isinstance(step, str)
    }

    def run(op, mlir_pass):
        use_context(op.context)
        failed = False
        with _running_with_verifier(verify):
            for func in functions_of(op.operation):
                # As MLIR's pass manager: a failed step ends its function's steps, and the next function still runs.
                try:
                    if not run_steps(func):
                        break
                except PassFailure:
                    failed = True
        if failed:
            mlir_pass.signal_pass_failure()

    def run_steps(func: ir.Operation) -> bool:
        """Runs every step on `func`; False if the verifier then finds it invalid."""
        for index, step in enumerate(steps):
            if index in upstream:
                _run_nested(upstream[index], func)
                continue
            step.run(func)
            if verify and not _is_valid(func):
                return False
        return True

    return run


def _upstream_function_pass_manager(text: str, verify: bool, context: ir.Context | None) -> passmanager.PassManager:
    manager = passmanager.PassManager(FUNC, context)
    manager.enable_verifier(verify)
    try:
        manager.add(text)
    except ValueError:
        raise PipelineError(f"invalid pass pipeline '{FUNC}({text})'") from None
    return manager


def _run_nested(manager: passmanager.PassManager, op: ir.Operation) -> None:
    try:
        run_pass_manager(manager, op)
    except ir.MLIRError as error:
        report_nested_errors(error)
        raise PassFailure() from None


def _is_valid(func: ir.Operation) -> bool:
    try:
        return func.verify()
    except ir.MLIRError:
        return False


def build_pass_manager(
    steps: tuple[Step, ...], context: ir.Context | None = None, verify: bool | None = None
) -> passmanager.PassManager:
    """A PassManager on `builtin.module` running `steps` in order, verifying after each pass if `verify` (by
    default, as the pass manager running the current pass does, else yes).

    Function passes, in `func.func(...)` or named at module level (nested on
    every `func.func`, as sdy_opt does), run as MLIR runs them: adjacent ones
    as one group, function by function (see `_as_function_group`).
    """
    verify = _verifies_by_default() if verify is None else verify
    manager = passmanager.PassManager(MODULE, context)
    manager.enable_verifier(verify)
    _add_steps(manager, steps, verify, context)
    return manager


def _add_steps(
    manager: passmanager.PassManager, steps: tuple[Step, ...], verify: bool, context: ir.Context | None
) -> None:
    upstream: list[str] = []  # module-level upstream steps, added together
    group: list[FunctionStep] = []  # the function group being gathered

    def flush():
        if upstream:
            _add_upstream(manager, ",".join(upstream))
            upstream.clear()
        if group:
            _add_function_group(manager, list(group), verify, context)
            group.clear()

    for step in steps:
        if isinstance(step, NestedPipeline) and step.anchor == FUNC:
            if upstream:
                flush()
            group.extend(_function_steps(step.steps))
            continue
        pass_ = None if isinstance(step, NestedPipeline) else instantiate(step)
        if pass_ is not None and pass_.anchor == FUNC:
            if upstream:
                flush()
            group.append(pass_)
            continue
        if group:
            flush()
        if pass_ is None:
            upstream.append(_nested_text(step) if isinstance(step, NestedPipeline) else step.text())
            continue
        flush()
        manager.add(_as_mlir_pass(pass_, verify), name=pass_.name, argument=step.name, description=pass_.summary)
    flush()


def _function_steps(steps: tuple[Step, ...]) -> list[FunctionStep]:
    """The steps of a `func.func(...)` pipeline; adjacent upstream ones are joined."""
    result: list[FunctionStep] = []
    for step in steps:
        if isinstance(step, NestedPipeline):
            text = _nested_text(step)
        else:
            pass_ = instantiate(step)
            if pass_ is not None:
                if pass_.anchor == MODULE:
                    raise PipelineError(f"pass '{step.name}' runs on builtin.module and cannot be nested in func.func")
                result.append(pass_)
                continue
            text = step.text()
        if result and isinstance(result[-1], str):
            result[-1] += "," + text
        else:
            result.append(text)
    return result


def _add_function_group(
    manager: passmanager.PassManager, steps: list[FunctionStep], verify: bool, context: ir.Context | None
) -> None:
    """Adds a function group; one of upstream passes only is MLIR's own `func.func(...)` pipeline."""
    if all(isinstance(step, str) for step in steps):
        _add_upstream(manager, f"{FUNC}({','.join(steps)})")
        return
    if len(steps) == 1:
        name, argument, description = steps[0].name, steps[0].argument, steps[0].summary
    else:
        name, argument, description = f"'{FUNC}' Pipeline", "", "adjacent function passes, run function by function"
    manager.add(_as_function_group(steps, verify, context), name=name, argument=argument, description=description)


def _nested_text(step: NestedPipeline) -> str:
    inner = []
    for child in step.steps:
        if isinstance(child, NestedPipeline):
            inner.append(_nested_text(child))
        else:
            if lookup_pass(child.name) is not None or is_sdy_pass_name(child.name):
                raise PipelineError(f"pass '{child.name}' cannot be nested in '{step.anchor}'")
            inner.append(child.text())
    return f"{step.anchor}({','.join(inner)})"


def _add_upstream(manager: passmanager.PassManager, text: str) -> None:
    try:
        manager.add(text)
    except ValueError:
        names = [s.split("{")[0].strip() for s in text.replace("(", ",").replace(")", ",").split(",")]
        for name in names:
            if name and not _upstream_exists(name):
                raise PipelineError(unknown_pass_message(name, KNOWN_UPSTREAM_PASSES)) from None
        raise PipelineError(f"invalid pass pipeline '{text}'") from None


def _upstream_exists(name: str) -> bool:
    try:
        passmanager.PassManager(MODULE).add(name)
        return True
    except ValueError:
        try:
            passmanager.PassManager(MODULE).add(f"{FUNC}({name})")
            return True
        except ValueError:
            return False


def run_pass_manager(manager: passmanager.PassManager, op: ir.Operation) -> None:
    """Runs `manager` on `op`. On failure raises the pass manager's ir.MLIRError, or the error a pass reported
    from a nested run (a pipeline pass's pipeline, an upstream function pass), whose diagnostics keep their notes."""
    with nested_errors() as errors:
        try:
            manager.run(op)
        except ir.MLIRError as error:
            if errors and not error.error_diagnostics:
                raise errors[0] from None
            raise


def run_pipeline(module: ir.Module, steps: tuple[Step, ...]) -> None:
    """Runs `steps` on `module`; raises ir.MLIRError (with diagnostics) when a pass fails."""
    with _reused_pass_manager(steps, module.context, _verifies_by_default()) as manager:
        run_pass_manager(manager, module.operation)


@ir_memo(256)
def _idle_pass_managers(steps: tuple[Step, ...], context: ir.Context, verify: bool) -> list[passmanager.PassManager]:
    """The built managers of these steps in this context that no run is using (emptied with pysdy's other memos
    when work moves to another context)."""
    return []


@contextlib.contextmanager
def _reused_pass_manager(steps: tuple[Step, ...], context: ir.Context, verify: bool) -> Iterator[passmanager.PassManager]:
    """A manager running `steps`, built once per context and reused: the hook hands off thousands of small modules
    with the same few pipelines, and building their managers was a fifth of a small hand-off. A run in progress
    (a pipeline's own steps, another thread) holds its manager, so a second one is built for a second run."""
    idle = _idle_pass_managers(steps, context, verify)
    manager = idle.pop() if idle else build_pass_manager(steps, context, verify=verify)
    try:
        yield manager
    finally:
        idle.append(manager)


def run_steps_in_pass(op: ir.Operation, steps: tuple[Step, ...], pass_argument: str) -> None:
    """Runs `steps` on `op` from inside a pipeline pass; failures become that pass's diagnostics.

    The pipeline is one pass, which the enclosing pass manager verifies after it as it verifies any pass; its
    steps run without the verifier between them (verifying a large module after each of thirty-odd steps cost
    more than all their own work), except after a step that `leaves_invalid_ir`, verified as jaxlib verifies it.
    Those are verified even when the enclosing pass manager verifies nothing: the steps after them would run on
    invalid IR (where jaxlib's C++, unverified, crashes)."""
    with contextlib.ExitStack() as held:
        try:
            managers = [
                held.enter_context(_reused_pass_manager(run, op.context, verify))
                for run, verify in _runs_by_verification(steps)
            ]
        except PipelineError as error:
            op.location.emit_error(f"{pass_argument}: {error}")
            raise PassFailure() from None
        for manager in managers:
            _run_nested(manager, op)


def symbol_dce(op: ir.Operation) -> None:
    """Runs MLIR's own `symbol-dce` on `op` from inside a pass; its errors become that pass's diagnostics."""
    with _reused_pass_manager((PassStep("symbol-dce"),), op.context, False) as manager:
        _run_nested(manager, op)


def _runs_by_verification(steps: tuple[Step, ...]) -> list[tuple[tuple[Step, ...], bool]]:
    """`steps` cut into runs of steps needing no verifier and runs needing it after each step: a step that
    leaves invalid IR, with the function steps adjacent to it, which MLIR runs as one group function by function
    (so a function failing an earlier step does not stop the later ones on the other functions)."""
    runs: list[tuple[tuple[Step, ...], bool]] = []
    unverified: list[Step] = []
    for segment in _function_groups(steps):
        if any(_leaves_invalid_ir(step) for step in segment):
            if unverified:
                runs.append((tuple(unverified), False))
                unverified = []
            runs.append((segment, True))
        else:
            unverified.extend(segment)
    if unverified:
        runs.append((tuple(unverified), False))
    return runs


def _function_groups(steps: tuple[Step, ...]) -> list[tuple[Step, ...]]:
    """`steps` in segments: each maximal run of adjacent function steps, and each other step alone."""
    segments: list[list[Step]] = []
    for step in steps:
        if _is_function_step(step) and segments and _is_function_step(segments[-1][-1]):
            segments[-1].append(step)
        else:
            segments.append([step])
    return [tuple(segment) for segment in segments]


def _is_function_step(step: Step) -> bool:
    if isinstance(step, NestedPipeline):
        return step.anchor == FUNC
    pass_class = lookup_pass(step.name)
    return pass_class is not None and pass_class.anchor == FUNC


def _leaves_invalid_ir(step: Step) -> bool:
    if isinstance(step, NestedPipeline):
        return any(_leaves_invalid_ir(inner) for inner in step.steps)
    pass_class = lookup_pass(step.name)
    return pass_class is not None and pass_class.leaves_invalid_ir
