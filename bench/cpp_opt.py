"""jaxlib's C++ passes as a command: `cpp_opt.py FILE [-PASS ...]` parses FILE, runs the passes, prints the module.

The C++ side of the bench's whole-process times, the counterpart of
`pysdy-opt FILE -PASS`. It imports jaxlib's MLIR bindings only (neither jax nor
pysdy), and its context has the dialects pysdy's context has, registered the
same way, with MLIR's multithreading off as in pysdy's context, so both sides
parse, run and print the same way. Exits 1 with the error on stderr when
parsing or a pass fails.
"""

from __future__ import annotations

import sys

from jaxlib.mlir import ir, passmanager
from jaxlib.mlir._mlir_libs import _jax_mlir_ext
from jaxlib.mlir.dialects import chlo, mhlo, sdy, stablehlo


def make_context() -> ir.Context:
    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    context = ir.Context()
    context.enable_multithreading(False)
    context.append_dialect_registry(registry)
    context.load_all_available_dialects()
    sdy.register_dialect(context)
    stablehlo.register_dialect(context)
    mhlo.register_mhlo_dialect(context)
    chlo.register_dialect(context)
    return context


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
