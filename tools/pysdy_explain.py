"""`pysdy-explain`: why each value of a module is sharded as it is, and what its reshards cost.

    pysdy-explain FILE [--value NAME | --line N | --op NAME] [--html OUT] [--json] [--color WHEN]

Without a selection it prints the module's summary: the reshards and
collectives propagation leaves (costliest first, each with its cause), the
largest tensors left replicated with an annotation that would shard them, and
where the axes of every argument and result come from.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from pysdy.tools.argument_parser import ToolArgumentParser


def _parser() -> ToolArgumentParser:
    parser = ToolArgumentParser(
        prog="pysdy-explain",
        description="Explain a module's shardings: the annotation and propagation steps behind every axis, and the "
        "cause and cost of every reshard.",
    )
    parser.add_argument("file", help="a StableHLO module with sdy (or mhlo.sharding) shardings; '-' for stdin")
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--value", action="append", metavar="NAME", help="explain this value (%%arg0, %%12); repeatable")
    chosen.add_argument(
        "--line", type=int, metavar="N",
        help="explain the values made on this line: of the Python source for a module JAX lowered with locations, "
        "else of the .mlir file",
    )  # fmt: skip
    chosen.add_argument("--op", metavar="NAME", help="explain the results of every op called NAME (stablehlo.dot_general)")
    parser.add_argument("--html", metavar="OUT", help="also write the HTML report (one self-contained file) to OUT")
    parser.add_argument("--json", action="store_true", help="print the explanation as JSON instead of text")
    parser.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="colour the text (auto: on a terminal)"
    )
    return parser


def _read_source(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as source:
            return source.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise _UsageError(f"could not open input file '{path}': {reason}") from None


class _UsageError(Exception):
    pass


def _selected(explanation, arguments) -> list | None:
    """The tensors the command line chose, or None for the summary."""
    from pysdy.explanation.selection import tensors_at_line, tensors_named, tensors_of_op

    if arguments.value:
        found, missing = tensors_named(explanation, arguments.value)
        if missing:
            raise _UsageError(f"no value named {', '.join(repr(m) for m in missing)} in the module")
        return found
    if arguments.line is not None:
        found = tensors_at_line(explanation, arguments.line)
        if not found:
            raise _UsageError(f"no value is made on line {arguments.line}")
        return found
    if arguments.op:
        found = tensors_of_op(explanation, arguments.op)
        if not found:
            raise _UsageError(f"no op called '{arguments.op}' has a tensor result")
        return found
    return None


def _run(arguments: argparse.Namespace) -> int:
    from pysdy.driver.progress import Progress
    from pysdy.explanation.build import explain_text
    from pysdy.explanation.text_report import summary_text, value_text

    text = _read_source(arguments.file)
    source = "<stdin>" if arguments.file == "-" else arguments.file
    with Progress("pysdy-explain", f"propagating {source} with its debug info") as progress:
        explanation = explain_text(text, source)
        chosen = _selected(explanation, arguments)
        if arguments.html:
            from pysdy.explanation.html_report import render_html

            progress.stage("writing the HTML report")
            _write(arguments.html, render_html(explanation))
    colour = arguments.color == "always" or (arguments.color == "auto" and sys.stdout.isatty())
    if arguments.json:
        data = dataclasses.asdict(explanation) if chosen is None else [dataclasses.asdict(t) for t in chosen]
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    elif chosen is None:
        sys.stdout.write(summary_text(explanation, colour))
    else:
        sys.stdout.write("\n".join(value_text(tensor, colour) for tensor in chosen))
    return 0


def _write(path: str, content: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(content)
    except OSError as error:
        raise _UsageError(f"could not write '{path}': {error.strerror}") from None


def main(argv: list[str] | None = None) -> int:
    arguments = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    from pysdy.explanation.build import ExplainInputError
    from pysdy.tools.internal_error import report_internal_error

    try:
        return _run(arguments)
    except _UsageError as error:
        sys.stderr.write(f"pysdy-explain: error: {error}\n")
        return 1
    except ExplainInputError as error:
        sys.stderr.write(f"{error}\n")
        return 1
    except Exception as error:  # a pysdy bug: reported as one, never as a bare traceback
        return report_internal_error("pysdy-explain", error)


if __name__ == "__main__":
    sys.exit(main())
