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
# `jaxlib-0.12` etc.: files checking one jax line's Shardy (`REQUIRES:` / `UNSUPPORTED:` it) run on that line only.
from pysdy import versions  # noqa: E402  (the venv running lit has pysdy)

config.available_features.add(f"jaxlib-{versions.installed().name}")
