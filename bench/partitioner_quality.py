"""Prints, per program, what pysdy's own partitioning costs on each device beside XLA's Shardy partitioner: peak
memory and collective bytes sent, from XLA's compiled executables.

Usage (from the repo root): `.venv/bin/python bench/partitioner_quality.py [--programs a,b,...]`.
Programs: the bundled examples, the small one-collective programs (test/py/partitioned_programs.py) and the JAX
corpus (test/py/jax_corpus.py). Each is compiled for 8 CPU devices by pysdy-run's runtime twice: on the sdy route
(pysdy's propagation, then XLA's Shardy partitioner) and on the pysdy route (pysdy partitions, XLA compiles the
per-device program). Columns, per device: `peak KiB` (XLA's compiled memory statistics), `sent B` (bytes the
collectives of the compiled HLO send, runtime/collectives.py), each route, and pysdy's over XLA's. A program pysdy
refuses to partition reads `refused` (the first line of why). Nothing here is timed.
"""

from __future__ import annotations

import argparse
import os
import sys

_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path[:0] = [os.path.join(_ROOT, "test", "py")]

import jax_corpus  # noqa: E402  (gives JAX its 8 CPU devices before the backend starts)
from partitioned_programs import PROGRAMS  # noqa: E402

from pysdy.versions import version_text  # noqa: E402

EXAMPLES = ("mlp.mlir", "transformer_block.mlir")


def _programs() -> dict[str, str]:
    programs = {}
    for name in EXAMPLES:
        with open(os.path.join(_ROOT, "examples", name)) as source:
            programs[f"examples/{name}"] = source.read()
    return {**programs, **PROGRAMS, **jax_corpus.corpus()}


def _costs(text: str, route: str) -> tuple[int, int]:
    """Peak memory and collective bytes sent per device."""
    from pysdy.runtime.collectives import sent_bytes_per_run
    from pysdy.runtime.compile import compile_module
    from pysdy.runtime.report import memory_per_device

    compiled = compile_module(text, devices=8, route=route)
    devices = len(compiled.devices)
    return memory_per_device(compiled.executable)["peak"], sent_bytes_per_run(compiled.partitioned_hlo(), devices)


def _ratio(ours: int, theirs: int) -> str:
    if theirs == 0:
        return "-" if ours == 0 else "inf"
    return f"{ours / theirs:.2f}"


def main() -> None:
    from pysdy.runtime.errors import RuntimeInputError

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", help="comma-separated program names (default: all)")
    arguments = parser.parse_args()
    programs = _programs()
    if arguments.programs:
        programs = {name: programs[name] for name in arguments.programs.split(",")}
    print(version_text())
    header = ("program", "XLA peak KiB", "pysdy peak KiB", "ratio", "XLA sent B", "pysdy sent B", "ratio")
    print(f"{header[0]:<46} " + " ".join(f"{h:>14}" for h in header[1:]))
    more_bytes = []
    for name, text in programs.items():
        try:
            xla_peak, xla_sent = _costs(text, "sdy")
        except RuntimeInputError as error:
            print(f"{name:<46} XLA's route fails: {str(error).splitlines()[0][:80]}", flush=True)
            continue
        try:
            peak, sent = _costs(text, "pysdy")
        except RuntimeInputError as error:
            reason = str(error).splitlines()[-1].split(": ", 1)[-1][:90]
            print(f"{name:<46} {xla_peak / 1024:>14.1f} {'refused':>14} {'':>14} {xla_sent:>14}  {reason}", flush=True)
            continue
        cells = (
            f"{xla_peak / 1024:.1f}", f"{peak / 1024:.1f}", _ratio(peak, xla_peak),
            str(xla_sent), str(sent), _ratio(sent, xla_sent),
        )  # fmt: skip
        print(f"{name:<46} " + " ".join(f"{c:>14}" for c in cells), flush=True)
        if sent > xla_sent:
            more_bytes.append(name)
    print("pysdy sends more bytes than XLA on: " + (", ".join(more_bytes) if more_bytes else "none"))


if __name__ == "__main__":
    main()
