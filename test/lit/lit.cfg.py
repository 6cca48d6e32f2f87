"""lit configuration: run every .mlir test here with pysdy-opt and the Python filecheck."""

import os
import sys

import lit.formats

config.name = "pysdy"
config.test_format = lit.formats.ShTest()
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
# pysdy-opt and filecheck live beside the Python running lit (the project's venv).
config.environment["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")
config.excludes = ["lit.cfg.py"]

# What the installed jax line's Shardy does, as lit features named after versions.py's fields: a case that only one
# side of a difference prints says `REQUIRES: <field>` or `UNSUPPORTED: <field>` (an enum field as <field>=<value>).
from pysdy import versions  # noqa: E402

config.available_features.update(versions.installed().lit_features())
