"""Run a pass pipeline over a source buffer the way sdy_opt does, returning output and diagnostics."""

from __future__ import annotations

import dataclasses
import re
from typing import Callable

from jaxlib.mlir import ir, passmanager

from pysdy.dialects.context import make_context
from pysdy.driver import verify_diagnostics
from pysdy.driver.diagnostics import Diagnostic, DiagnosticCollector, format_diagnostic, internal_error
from pysdy.driver.source import SPLIT_MARKER, Chunk, NotAModuleError, chunk_position, parse_source, split_source
from pysdy.passes.diagnostics import warnings_to
from pysdy.passes.pipeline import Step, build_pass_manager, run_pass_manager


@dataclasses.dataclass(frozen=True)
class OptSettings:
    """What to do with each buffer, from the command line."""

    steps: tuple[Step, ...] = ()
    split_input_file: bool = False
    verify_diagnostics: bool = False
    timing: bool = False
    print_ir_after_all: bool = False
    print_ir_before_all: bool = False
    print_debuginfo: bool = False
    print_generic: bool = False
    verify_each: bool = True
    allow_unregistered_dialect: bool = False
    no_implicit_module: bool = False


# Builds the pass manager for the steps, in the context, with the verifier on or off: pysdy's, or (for the bench's C++
# stand-in) one running jaxlib's C++ passes.
ManagerBuilder = Callable[[tuple[Step, ...], ir.Context, bool], passmanager.PassManager]


@dataclasses.dataclass
class OptResult:
    output: str
    errors: str
    succeeded: bool


def run_opt(
    text: str, source_name: str, settings: OptSettings, build_manager: ManagerBuilder = build_pass_manager
) -> OptResult:
    """Processes `text` (every split chunk when asked) and joins the outputs with `// -----`.

    A chunk that fails in any way, a pysdy bug included, is reported and the
    other chunks are still processed and printed.
    """
    chunks = split_source(text) if settings.split_input_file else [Chunk(text, 1)]
    source_lines = {source_name: text.split("\n")}
    outputs, errors, succeeded = [], [], True
    for chunk in chunks:
        try:
            output, diagnostics, ok = _process_chunk(chunk.text, source_name, settings, build_manager)
        except Exception as error:  # a pysdy bug: reported on its chunk, never a traceback
            output, diagnostics, ok = None, [internal_error(error, chunk_position(chunk, source_name))], False
        if output is not None:
            outputs.append(output)
        errors.extend(format_diagnostic(d, source_lines) for d in diagnostics)
        succeeded = succeeded and ok
    return OptResult(
        (SPLIT_MARKER + "\n").join(outputs),
        "".join(e + "\n" for e in errors),
        succeeded,
    )


def _process_chunk(
    text: str, source_name: str, settings: OptSettings, build_manager: ManagerBuilder
) -> tuple[str | None, list[Diagnostic], bool]:
    context = make_context(settings.allow_unregistered_dialect)
    collector = DiagnosticCollector(context)
    output = None
    with context, collector:
        try:
            module = parse_source(text, source_name, context, not settings.no_implicit_module)
            manager = build_manager(settings.steps, context, settings.verify_each)
            if settings.timing:
                manager.enable_timing()
            if settings.print_ir_after_all or settings.print_ir_before_all:
                manager.enable_ir_printing(
                    print_before_all=settings.print_ir_before_all,
                    print_after_all=settings.print_ir_after_all,
                    enable_debug_info=settings.print_debuginfo,
                )
            with warnings_to(collector.record_warning):
                run_pass_manager(manager, module.operation)
            output = module.operation.get_asm(
                enable_debug_info=settings.print_debuginfo,
                print_generic_op_form=settings.print_generic,
            )
            if not output.endswith("\n"):
                output += "\n"
        except NotAModuleError:
            pass  # reported on the op
        except ir.MLIRError as error:
            collector.add_from_error(error)
            if not collector.has_errors:
                collector.diagnostics.append(Diagnostic("error", str(error), chunk_position(Chunk(text, 1), source_name)))
    diagnostics = collector.diagnostics
    if settings.verify_diagnostics:
        diagnostics = [_without_op_dump_notes(d) for d in diagnostics]
        expectations = verify_diagnostics.parse_expectations(text, source_name)
        problems = verify_diagnostics.verify(diagnostics, expectations, source_name)
        return output, problems, not problems
    return output, diagnostics, output is not None and not collector.has_errors


# An op as MLIR prints it: `%0 = stablehlo.add ...`, `%0:2 = ...`, `func.func @f(...`, `"func.func"() ...`.
_PRINTED_OP = re.compile(r'(%[\w#:]+(, %[\w#:]+)* = )?"?[a-z_]+\.[a-z_.]+')


def _without_op_dump_notes(diagnostic: Diagnostic) -> Diagnostic:
    """`diagnostic` without the notes that print the op it is about: MLIR's `see current operation` and Shardy's op
    notes are attached only while the context prints ops on diagnostics, which sdy_opt turns off for
    -verify-diagnostics (the Python bindings cannot), so they are no part of what such a run checks."""
    notes = tuple(
        note
        for note in diagnostic.notes
        if not note.message.startswith("see current operation")
        and not (note.position == diagnostic.position and _PRINTED_OP.match(note.message))
    )
    return dataclasses.replace(diagnostic, notes=notes)
