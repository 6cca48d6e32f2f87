"""A `pysdy-opt` stand-in that runs jaxlib's C++ passes: the same command lines, files read and printed the same way.

    python bench/cpp_sdy_opt.py FILE|- [-o OUT] [-split-input-file] [-verify-diagnostics]
                                [-sdy-pass[="opt=val ..."] ...] [--pass-pipeline='builtin.module(...)']

Only the passes differ from pysdy-opt: the pipeline is handed to
`passmanager.PassManager.parse`, so every pass is Shardy's C++ as jaxlib
bundles it (XLA's `xla-sdy-*` passes are not in jaxlib: asking for one is an
error). Splitting, parsing, diagnostics, `-verify-diagnostics` and printing
reuse pysdy's driver, so a lit test sees the same text either way wherever
the passes agree. A pass given as a flag runs on the module, or nested in
`func.func(...)` where it runs on functions (as sdy_opt nests it). A flag
this stand-in cannot honour is an error (exit 1), never ignored.
"""

from __future__ import annotations

import dataclasses
import sys

from jaxlib.mlir import passmanager

from pysdy.dialects.context import make_context
from pysdy.driver.opt import OptSettings, run_opt

# Flags that turn on a setting of pysdy's driver, by the OptSettings field.
_SWITCHES = {
    "split-input-file": "split_input_file",
    "verify-diagnostics": "verify_diagnostics",
    "allow-unregistered-dialect": "allow_unregistered_dialect",
    "no-implicit-module": "no_implicit_module",
    "mlir-print-debuginfo": "print_debuginfo",
    "mlir-print-op-generic": "print_generic",
}


class UsageError(Exception):
    pass


@dataclasses.dataclass
class Settings:
    input_file: str = "-"
    output_file: str | None = None
    pipeline: str | None = None  # `builtin.module(...)` text
    pass_flags: list[str] = dataclasses.field(default_factory=list)  # one pipeline element per pass flag
    switches: dict[str, bool] = dataclasses.field(default_factory=dict)  # the OptSettings fields flags turn on


def parse_args(argv: list[str]) -> Settings:
    settings = Settings()
    input_given = False
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "-" or not arg.startswith("-"):
            if input_given:
                raise UsageError(f"more than one input file: '{settings.input_file}' and '{arg}'")
            settings.input_file, input_given = arg, True
            continue
        name, has_value, value = arg.lstrip("-").partition("=")
        if name in ("o", "pass-pipeline") and not has_value:
            if i >= len(argv):
                raise UsageError(f"{arg} needs a value")
            value, i = argv[i], i + 1
        if name == "o":
            settings.output_file = value
        elif name == "pass-pipeline":
            settings.pipeline = value
        elif name in _SWITCHES and not has_value:
            settings.switches[_SWITCHES[name]] = True
        elif name == "mlir-disable-threading" and value.lower() in ("", "true", "1"):
            pass  # every context here is single-threaded already (pysdy's make_context)
        else:  # a pass, or a flag pipeline_text reports as unsupported
            settings.pass_flags.append(f"{name}{{{value}}}" if has_value else name)
    if settings.pipeline is not None and settings.pass_flags:
        raise UsageError("'--pass-pipeline' cannot be used with individual pass flags")
    return settings


def pipeline_text(settings: Settings) -> str:
    """The whole pipeline as PassManager.parse reads it; pass flags that run on functions nested in func.func."""
    if settings.pipeline is not None:
        return settings.pipeline
    elements: list[str] = []
    for element in settings.pass_flags:
        if _parses(f"builtin.module({element})"):
            elements.append(element)
        elif not _parses(f"builtin.module(func.func({element}))"):
            raise UsageError(f"'{element}' is neither a pass of jaxlib's C++ nor a flag this stand-in honours")
        elif elements and elements[-1].startswith("func.func("):
            elements[-1] = elements[-1][:-1] + "," + element + ")"
        else:
            elements.append(f"func.func({element})")
    return f"builtin.module({','.join(elements)})"


def _parses(text: str) -> bool:
    with make_context():
        try:
            passmanager.PassManager.parse(text)
        except ValueError:
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    try:
        settings = parse_args(sys.argv[1:] if argv is None else argv)
        pipeline = pipeline_text(settings)
        if not _parses(pipeline):
            raise UsageError(f"jaxlib's C++ passes cannot run the pipeline '{pipeline}'")
    except UsageError as error:
        sys.stderr.write(f"cpp-sdy-opt: {error}\n")
        return 1
    source_name = "<stdin>" if settings.input_file == "-" else settings.input_file
    try:
        if settings.input_file == "-":
            text = sys.stdin.read()
        else:
            with open(settings.input_file, encoding="utf-8") as source:
                text = source.read()
    except (OSError, UnicodeDecodeError) as error:
        sys.stderr.write(f"cpp-sdy-opt: could not read input file '{source_name}': {error}\n")
        return 1
    opt_settings = OptSettings(**settings.switches)
    result = run_opt(text, source_name, opt_settings, lambda steps, context, verify: _cpp_manager(pipeline, verify))
    sys.stderr.write(result.errors)
    if result.output and (result.succeeded or opt_settings.split_input_file):
        if settings.output_file in (None, "-"):
            sys.stdout.write(result.output)
        else:
            with open(settings.output_file, "w", encoding="utf-8") as out:
                out.write(result.output)
    return 0 if result.succeeded else 1


def _cpp_manager(pipeline: str, verify: bool) -> passmanager.PassManager:
    manager = passmanager.PassManager.parse(pipeline)
    manager.enable_verifier(verify)
    return manager


if __name__ == "__main__":
    sys.exit(main())
