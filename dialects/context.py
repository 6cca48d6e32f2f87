"""The MLIR context pysdy parses into: jaxlib's dialects (func, stablehlo, sdy, mhlo, chlo, ...).

Importing jax itself is not needed (and costs about a second), so the context
is assembled from jaxlib's registration hooks directly.
"""

from jaxlib.mlir import ir
from jaxlib.mlir._mlir_libs import _jax_mlir_ext
from jaxlib.mlir.dialects import chlo, mhlo, sdy, stablehlo


def make_context() -> ir.Context:
    """Returns a fresh context with every dialect a JAX-lowered module may use."""
    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    context = ir.Context()
    context.append_dialect_registry(registry)
    context.load_all_available_dialects()
    sdy.register_dialect(context)
    stablehlo.register_dialect(context)
    mhlo.register_mhlo_dialect(context)
    chlo.register_dialect(context)
    return context
