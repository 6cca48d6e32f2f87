"""`pysdy-opt`: sdy_opt's command line over pysdy's Python passes.

    pysdy-opt FILE|- [-o OUT] [-split-input-file] [-verify-diagnostics]
              [-sdy-pass[="opt=val ..."] ...] [--pass-pipeline='builtin.module(...)']
"""

from __future__ import annotations

import sys

from jaxlib.mlir import passmanager

from pysdy.dialects.context import make_context
from pysdy.driver.diagnostics import format_diagnostic
from pysdy.driver.opt import OptSettings, run_opt
from pysdy.driver.progress import Progress
from pysdy.driver.output_file import OutputError, check_output_file, write_output_file
from pysdy.driver.source import SourceError, decode_source, shown_name
from pysdy.passes.pipeline import (
    KNOWN_UPSTREAM_PASSES,
    PassStep,
    PipelineError,
    build_pass_manager,
    parse_options,
    parse_pipeline,
)
from pysdy.passes.registry import all_passes, is_sdy_pass_name, lookup_pass, unknown_pass_message
from pysdy.tools.internal_error import report_internal_error
from pysdy.versions import version_text

# Flags that take no value: flag name -> OptSettings field.
_SWITCHES = {
    "split-input-file": "split_input_file",
    "verify-diagnostics": "verify_diagnostics",
    "mlir-timing": "timing",
    "timing": "timing",
    "mlir-print-ir-after-all": "print_ir_after_all",
    "print-ir-after-all": "print_ir_after_all",
    "mlir-print-ir-before-all": "print_ir_before_all",
    "print-ir-before-all": "print_ir_before_all",
    "mlir-print-debuginfo": "print_debuginfo",
    "mlir-print-op-generic": "print_generic",
    "allow-unregistered-dialect": "allow_unregistered_dialect",
    "no-implicit-module": "no_implicit_module",
}


class UsageError(Exception):
    pass


def _help_text() -> str:
    lines = [
        "OVERVIEW: pysdy modular optimizer driver (sdy_opt-compatible, Python passes)",
        "",
        "USAGE: pysdy-opt [options] <input file|->",
        "",
        "OPTIONS:",
        "  -o <file>                  Output file (a regular file is replaced atomically; default: stdout)",
        "  --pass-pipeline=<text>     A textual pass pipeline, e.g. 'builtin.module(func.func(cse))'",
        "  -split-input-file          Split the input at '// -----' and process each part",
        "  -verify-diagnostics        Check diagnostics against expected-* comments",
        "  -mlir-timing               Print pass timing",
        "  -mlir-print-ir-after-all   Print the IR after every pass",
        "  -mlir-print-ir-before-all  Print the IR before every pass",
        "  -mlir-print-debuginfo      Print locations",
        "  -mlir-print-op-generic     Print the generic op form",
        "  -allow-unregistered-dialect  Parse ops of unregistered dialects (passes treat them as unknown ops)",
        "  -no-implicit-module        Do not wrap the input in a module: it must be a single builtin.module",
        "  -mlir-disable-threading    Accepted for sdy_opt compatibility: pysdy always runs MLIR",
        "                             single-threaded, so Python callbacks never run on MLIR's",
        "                             worker threads (where they would deadlock on the GIL)",
        "  -h, --help                 Show this help",
        "  --version                  Show pysdy's version and the jax/jaxlib whose Shardy it follows",
        "",
        "Passes (also usable inside --pass-pipeline):",
    ]
    for name, cls in all_passes().items():
        lines.append(f"  -{name:<50} {cls.summary}")
        for spec in cls.option_specs():
            default = spec.default.value if hasattr(spec.default, "value") else spec.default
            lines.append(f"      {spec.name}=<{spec.type_name()}>  {spec.help} (default: {default})")
    lines.append("")
    lines.append("Upstream MLIR passes such as " + ", ".join(KNOWN_UPSTREAM_PASSES) + " run as MLIR's own.")
    return "\n".join(lines) + "\n"


def parse_args(argv: list[str]) -> tuple[str, str | None, OptSettings]:
    """(input, output, settings) from sdy_opt-style arguments."""
    settings: dict = {}
    steps: list = []
    input_file, output_file = None, None
    pipeline_given = pass_flag_given = False
    i = 0
    options_end = len(argv)
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "--" and options_end == len(argv):  # as in mlir-opt: every later argument is a file
            options_end = i
            continue
        if arg == "-" or not arg.startswith("-") or i > options_end:
            if input_file is not None:
                raise UsageError(f"more than one input file: '{input_file}' and '{arg}'")
            input_file = arg
            continue
        name, has_value, value = arg.lstrip("-").partition("=")
        if name != "o" and shown_name(arg) != arg:
            raise UsageError(f"option '{shown_name(arg)}' is not UTF-8 text")
        if name in ("h", "help"):
            raise SystemExit(_print_help())
        if name == "version":
            raise SystemExit(_print_version())
        if name == "o":
            if not has_value:
                if i >= len(argv):
                    raise UsageError("-o needs a file name")
                value, i = argv[i], i + 1
            output_file = value
        elif name == "pass-pipeline":
            if not has_value:
                if i >= len(argv):
                    raise UsageError("--pass-pipeline needs a pipeline")
                value, i = argv[i], i + 1
            pipeline_given = True
            steps.extend(parse_pipeline(value))
        elif name in _SWITCHES:
            settings[_SWITCHES[name]] = True
        elif name == "mlir-disable-threading":
            if has_value and value.lower() not in ("true", "1"):
                raise UsageError(
                    f"'-mlir-disable-threading={value}' is not supported: pysdy always runs MLIR single-threaded"
                )
        elif lookup_pass(name) is not None or _is_upstream_pass(name):
            pass_flag_given = True
            steps.append(PassStep(name, parse_options(value) if has_value else ()))
        else:
            raise UsageError(unknown_pass_message(name, KNOWN_UPSTREAM_PASSES).replace("pass", "option or pass", 1))
    if pipeline_given and pass_flag_given:
        raise UsageError("'--pass-pipeline' cannot be used with individual pass flags")
    # Resolving every step now reports unknown passes and bad options before reading input.
    with make_context() as context:
        build_pass_manager(tuple(steps), context)
    return input_file or "-", output_file, OptSettings(steps=tuple(steps), **settings)


def _is_upstream_pass(name: str) -> bool:
    if is_sdy_pass_name(name):
        return False
    with make_context():
        try:
            passmanager.PassManager("builtin.module").add(name)
            return True
        except ValueError:
            return False


def _print_help() -> int:
    sys.stdout.write(_help_text())
    return 0


def _print_version() -> int:
    sys.stdout.write(version_text() + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        return _run(argv)
    except Exception as error:  # a pysdy bug: report it as one, never as a bare traceback
        return report_internal_error("pysdy-opt", error)


def _run(argv: list[str]) -> int:
    try:
        input_file, output_file, settings = parse_args(argv)
    except (UsageError, PipelineError) as error:
        sys.stderr.write(f"pysdy-opt: {error}\n")
        return 1
    source_name = "<stdin>" if input_file == "-" else shown_name(input_file)
    try:
        if input_file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(input_file, "rb") as source:
                data = source.read()
    except OSError as error:
        sys.stderr.write(f"pysdy-opt: could not open input file '{source_name}': {error.strerror}\n")
        return 1
    to_file = output_file not in (None, "-")
    try:
        if to_file:
            check_output_file(output_file)
        text = decode_source(data, source_name)
    except OutputError as error:
        sys.stderr.write(f"pysdy-opt: {error}\n")
        return 1
    except SourceError as error:
        lines = data.decode("utf-8", errors="replace").split("\n")
        sys.stderr.write(format_diagnostic(error.diagnostic, {source_name: lines}) + "\n")
        return 1
    with Progress("pysdy-opt", f"running the pipeline on {source_name}"):
        result = run_opt(text, source_name, settings)
    sys.stderr.write(result.errors)
    if result.output and (result.succeeded or settings.split_input_file):
        if not to_file:
            sys.stdout.write(result.output)
        else:
            try:
                write_output_file(output_file, result.output)
            except OutputError as error:
                sys.stderr.write(f"pysdy-opt: {error}\n")
                return 1
    return 0 if result.succeeded else 1


if __name__ == "__main__":
    sys.exit(main())
