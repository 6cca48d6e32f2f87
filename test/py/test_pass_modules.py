"""The pass index names the module of every registered pass, and looking a pass up imports no unrelated module."""

import subprocess
import sys

from pysdy.passes.pass_modules import PASS_MODULES
from pysdy.passes.registry import _PASSES, _load_all_pass_modules


def test_the_index_names_the_module_registering_each_pass():
    _load_all_pass_modules()
    assert {name: cls.__module__ for name, cls in _PASSES.items()} == PASS_MODULES


def test_running_the_propagation_pipeline_imports_no_gspmd_pass():
    program = (
        "import sys\n"
        "from jaxlib.mlir import ir\n"
        "from pysdy.dialects.context import make_context\n"
        "from pysdy.passes.pipeline import parse_pipeline, run_pipeline\n"
        "text = '''sdy.mesh @mesh = <[\"a\"=2]>\n"
        "func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}]>}) -> tensor<8xf32> {\n"
        "  %0 = stablehlo.negate %arg0 : tensor<8xf32>\n"
        "  return %0 : tensor<8xf32>\n"
        "}'''\n"
        "with make_context():\n"
        "    module = ir.Module.parse(text)\n"
        "    run_pipeline(module, parse_pipeline('sdy-propagation-pipeline'))\n"
        "print(sorted(name for name in sys.modules if name.startswith('pysdy.passes.gspmd')))\n"
    )
    completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert completed.stdout.strip() == "[]"
