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

# What the installed jax line's Shardy does, as lit features: versions.py's fields (each true one by name, another
# value as <field>=<value>). A file checking one side of a difference says `REQUIRES:` / `UNSUPPORTED:` with them
# (test_versions.py checks that every side has one).
from pysdy import versions  # noqa: E402  (the venv running lit has pysdy)

config.available_features.update(versions.installed().lit_features())

# What the installed line's XLA names a `{maximal device=N}` mesh on import, as the versions table says (not as pysdy
# computes it): RUN lines pass it to filecheck as -DMAXIMAL_MESH=%xla_maximal_mesh.
_single_device_names = versions.installed().xla_import_single_device_mesh_names
config.substitutions.append(("%xla_maximal_mesh", "single_device" if _single_device_names else "maximal_mesh"))
