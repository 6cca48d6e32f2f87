"""`pysdy-run`: propagate a module with pysdy, compile it with XLA for N devices, run it, check and report.

    pysdy-run FILE [--devices N] [--inputs in.npz] [--outputs out.npz] [--route gspmd|sdy|pysdy]
              [--check] [--report [text|json|html]] [-o report.html]

    --route pysdy: pysdy partitions the module (propagation, explicit collectives, local shapes) and XLA
    only compiles and runs the per-device program.
"""

from __future__ import annotations

import argparse
import os
import sys

from pysdy.tools.argument_parser import ToolArgumentParser

# Read by JAX and XLA when they start, unless already set: the CPU backend gets 8 virtual devices, and
# XLA logs only errors (its warning that GSPMD is deprecated would come with every GSPMD-route run, and
# its device list with every run). jaxlib reads them when its first C++ library loads, so main() sets them
# before anything imports jaxlib (the error reporting's imports included).
_ENVIRONMENT_DEFAULTS = {"JAX_NUM_CPU_DEVICES": "8", "TF_CPP_MIN_LOG_LEVEL": "2"}


def _parser() -> ToolArgumentParser:
    parser = ToolArgumentParser(
        prog="pysdy-run",
        description="Propagate shardings with pysdy, compile with XLA for N devices, run on host inputs.",
    )
    parser.add_argument("file", help="a StableHLO module with sdy (or mhlo.sharding) shardings; '-' for stdin")
    parser.add_argument("--devices", type=int, help="how many devices (partitions); default: the module's mesh")
    parser.add_argument("--inputs", help="an .npz with main's arguments named arg0..argN (default: random, seed 0)")
    parser.add_argument("--outputs", help="write main's results to this .npz as result0..resultN")
    parser.add_argument(
        "--route", choices=("gspmd", "sdy", "pysdy"), default="gspmd",
        help="who partitions: XLA's GSPMD or Shardy partitioner after pysdy's propagation, or pysdy itself (XLA then "
        "compiles pysdy's per-device program)",
    )  # fmt: skip
    parser.add_argument("--check", action="store_true", help="compare with the module run unpartitioned on one device")
    parser.add_argument(
        "--report", nargs="?", const="text", choices=("text", "json", "html"),
        help="print shardings, memory and collectives; html: write the explained report (with -o) as one file",
    )  # fmt: skip
    parser.add_argument("-o", "--output", metavar="FILE", help="where --report html writes the report")
    return parser


def _read_source(path: str) -> str:
    from pysdy.runtime.errors import RuntimeInputError

    if path == "-":
        return sys.stdin.read()
    try:
        with open(path) as source:
            return source.read()
    except OSError as error:
        raise RuntimeInputError(f"could not open input file '{path}': {error.strerror}") from None


def _summary(name: str, array) -> str:
    import numpy as np

    values = np.array2string(array.ravel()[:6], precision=4, separator=", ")
    more = ", ..." if array.size > 6 else ""
    shape = ",".join(str(d) for d in array.shape)
    return f"{name} {array.dtype.name}[{shape}]: {values[:-1]}{more}]"


def _write_html_report(text: str, source: str, compiled, path: str) -> None:
    from pysdy.explanation.build import ExplainInputError, explain_text
    from pysdy.explanation.compiled_figures import with_compiled_figures
    from pysdy.explanation.html_report import render_html
    from pysdy.runtime.errors import RuntimeInputError

    try:
        explanation = with_compiled_figures(explain_text(text, source), text, compiled)
    except ExplainInputError as error:
        raise RuntimeInputError(f"could not explain the module: {error}") from None
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(render_html(explanation))
    except OSError as error:
        raise RuntimeInputError(f"could not write '{path}': {error.strerror}") from None


def _run(arguments: argparse.Namespace) -> int:
    from pysdy.driver.progress import Progress
    from pysdy.runtime.check import check_outputs
    from pysdy.runtime.compile import compile_module
    from pysdy.runtime.execute import execute
    from pysdy.runtime.host_inputs import random_inputs, read_inputs, result_name, write_outputs
    from pysdy.runtime.report import build_report, report_json_text

    text = _read_source(arguments.file)
    source = "<stdin>" if arguments.file == "-" else arguments.file
    with Progress("pysdy-run", f"propagating and compiling {source}") as progress:
        compiled = compile_module(text, devices=arguments.devices, route=arguments.route, source_name=source)
        inputs = read_inputs(arguments.inputs, compiled.info) if arguments.inputs else random_inputs(compiled.info)
        progress.stage("running")
        outputs = execute(compiled, inputs)
        if arguments.outputs:
            write_outputs(arguments.outputs, outputs)
        progress.stage("checking against the reference")
        check = check_outputs(text, compiled, inputs, outputs) if arguments.check else None
        if arguments.report == "html":
            progress.stage("explaining and writing the report")
            _write_html_report(text, source, compiled, arguments.output)
    if arguments.report == "json":
        sys.stdout.write(report_json_text(build_report(compiled, source, check)))
    else:
        for note in compiled.notes:
            sys.stderr.write(f"pysdy-run: note: {note}\n")
        for index, output in enumerate(outputs):
            sys.stdout.write(_summary(result_name(index), output) + "\n")
        if arguments.report == "text":
            sys.stdout.write("\n" + build_report(compiled, source, check).to_text())
        elif arguments.report == "html":
            sys.stdout.write(f"report: {arguments.output}\n")
        elif check is not None:
            sys.stdout.write(f"check against {check.reference}: {'passed' if check.passed else 'FAILED'}\n")
    if check is not None and not check.passed:
        problems = "; ".join(f"{result_name(i)}: {p}" for i, p in enumerate(check.mismatches) if p)
        sys.stderr.write(f"pysdy-run: error: outputs differ from {check.reference}: {problems}\n")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    arguments = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if arguments.report == "html" and not arguments.output:
        parser.error("--report html needs -o FILE, the report to write")
    if arguments.output and arguments.report != "html":
        parser.error("-o FILE goes with --report html")
    for name, value in _ENVIRONMENT_DEFAULTS.items():
        os.environ.setdefault(name, value)
    from pysdy.runtime.errors import RuntimeInputError
    from pysdy.tools.internal_error import report_internal_error

    try:
        return _run(arguments)
    except RuntimeInputError as error:
        sys.stderr.write(f"pysdy-run: error: {error}\n")
        return 1
    except Exception as error:  # a pysdy bug: report it as one, never as a bare traceback
        return report_internal_error("pysdy-run", error)


if __name__ == "__main__":
    sys.exit(main())
