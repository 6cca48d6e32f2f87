"""The command-line tools' argument parser: a usage error is `<tool>: error: ...` with exit status 1, as MLIR's are."""

from __future__ import annotations

import argparse
import sys


class ToolArgumentParser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(1)
