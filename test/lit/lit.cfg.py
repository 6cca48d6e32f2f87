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

# What the installed jaxlib's XLA names a `{maximal device=N}` mesh on import (`maximal_mesh` or `single_device`,
# pysdy.versions): RUN lines pass it to filecheck as -DMAXIMAL_MESH=%xla_maximal_mesh.
from pysdy.passes.gspmd.hlo_to_sdy_sharding import maximal_mesh_prefix  # noqa: E402

config.substitutions.append(("%xla_maximal_mesh", maximal_mesh_prefix()))
