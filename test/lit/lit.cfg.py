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
