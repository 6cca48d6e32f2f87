"""`xla-sdy-stablehlo-import-pipeline`: a StableHLO module with GSPMD `mhlo.sharding`s into the sdy dialect, in XLA's order.

XLA (as bundled with jaxlib 0.10.2) runs `xla-sdy-import-shardings`, then
its round-trip import passes: `symbol-dce`, `xla-sdy-import-constants`,
`xla-sdy-import-sdy-custom-calls`, `xla-sdy-open-while-free-vars-sharding`,
a non-folding `canonicalize` and `sdy-import-func-calls`. Here
`xla-sdy-shard-map-import` runs right after the sharding import, where
XLA's pipeline had it before the shard_map pattern left its stablehlo
import, since JAX still lowers shard_map that way without Shardy. Left out:
the StableHLO clean-ups XLA runs around them (`stablehlo-canonicalize-from-hlo-import`,
`stablehlo-ext-prepare-for-hlo-export`, the canonicalizer), which change no
sharding, and `sdy-import-func-calls`: its data-flow edges on named computations make
`sdy-propagation-pipeline` (jaxlib's C++ one too) reject the module, and
that pipeline imports the calls itself.
"""

from __future__ import annotations

import dataclasses

from jaxlib.mlir import ir

from pysdy.passes.gspmd.import_constants import ImportConstantsPass
from pysdy.passes.gspmd.import_sdy_custom_calls import ImportSdyCustomCallsPass
from pysdy.passes.gspmd.import_shardings import ImportShardingsPass
from pysdy.passes.gspmd.open_while_free_vars_sharding import OpenWhileFreeVarsShardingPass
from pysdy.passes.gspmd.shard_map_import import ShardMapImportPass
from pysdy.passes.pipeline import run_pass_on, symbol_dce
from pysdy.passes.registry import Pass, option, register_pass


@register_pass
@dataclasses.dataclass(frozen=True)
class StablehloImportPipelinePass(Pass):
    argument = "xla-sdy-stablehlo-import-pipeline"
    summary = "Run passes to import a StableHLO module with `mhlo.shardings` into the SDY (Shardy) dialect."

    allow_propagation_to_args: str = option(
        "", "Comma-separated booleans: whether @main's argument shardings are open; one value applies to all"
    )
    allow_propagation_to_results: str = option(
        "", "Comma-separated booleans: whether @main's result shardings are open; one value applies to all"
    )

    def run(self, op: ir.Operation) -> None:
        ImportShardingsPass(self.allow_propagation_to_args, self.allow_propagation_to_results).run(op)
        ShardMapImportPass().run(op)
        symbol_dce(op)
        run_pass_on(ImportConstantsPass(), op)
        ImportSdyCustomCallsPass().run(op)
        run_pass_on(OpenWhileFreeVarsShardingPass(), op)
