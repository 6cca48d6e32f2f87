"""Debug dumps of a module to `<directory>/<name>.mlir`, as Shardy's saveModuleOp writes them.

An empty directory means no dump. The directory is not created: a file that
cannot be written is reported on stderr and the pass goes on, as in Shardy.
"""

from __future__ import annotations

import os
import sys

from jaxlib.mlir import ir


def save_module(module: ir.Operation, directory: str, name: str) -> None:
    if not directory:
        return
    path = os.path.join(directory, f"{name}.mlir")
    try:
        with open(path, "w") as out:
            out.write(str(module))
    except OSError as error:
        print(f"error when writing file {path}: {error.strerror}", file=sys.stderr)
