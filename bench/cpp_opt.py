"""jaxlib's C++ passes as a command: `cpp_opt.py FILE [-PASS ...]` parses FILE, runs the passes, prints the module.

The C++ side of the bench's whole-process times, the counterpart of
`pysdy-opt FILE -PASS`. It imports jaxlib's MLIR bindings and pysdy's context
(neither jax nor any pysdy pass): the same dialects, registered the same way,
with MLIR's multithreading off, so both sides parse, run and print the same
way. Exits 1 with the error on stderr when parsing or a pass fails.
"""

from __future__ import annotations

import sys

from jaxlib.mlir import ir, passmanager

from pysdy.dialects.context import make_context  # jaxlib's dialects, as pysdy-opt's context has them


def run_passes(module: ir.Module, passes: list[str]) -> None:
    """Runs `passes` (pass names with their options, as in a pipeline) on `module` in one PassManager."""
    passmanager.PassManager.parse(f"builtin.module({','.join(passes)})").run(module.operation)


def main(argv: list[str]) -> int:
    path, passes = argv[0], [argument.removeprefix("-") for argument in argv[1:]]
    with make_context():
        try:
            with open(path) as f:
                module = ir.Module.parse(f.read())
            if passes:
                run_passes(module, passes)
        except (OSError, ir.MLIRError, ValueError) as error:
            print(f"{path}: error: {error}", file=sys.stderr)
            return 1
        print(module)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
