"""The MLIR context pysdy parses into: jaxlib's dialects (func, stablehlo, sdy, mhlo, chlo, ...).

Importing jax itself is not needed (and costs about a second), so the context
is assembled from jaxlib's registration hooks directly.

Every pysdy context runs with MLIR's multithreading off. MLIR verifies nested
isolated-from-above ops (functions, named and manual computations) and runs
nested pass pipelines on worker threads, and diagnostics emitted there reach
the Python bindings' handlers on those threads; the handlers take the GIL,
which the thread that called `parse` or `PassManager.run` holds while it waits
for the workers: a deadlock (jaxlib 0.10-0.12 do not release the GIL around
those calls). With threading off, every diagnostic and every Python callback
runs on the calling thread.
"""

from jaxlib.mlir import ir
from jaxlib.mlir._mlir_libs import _jax_mlir_ext
from jaxlib.mlir.dialects import chlo, mhlo, sdy, stablehlo

from pysdy.dialects.ir_memo import use_context


def make_context(allow_unregistered_dialects: bool = False) -> ir.Context:
    """Returns a fresh context with every dialect a JAX-lowered module may use.

    With `allow_unregistered_dialects`, ops of unknown dialects parse (as
    `-allow-unregistered-dialect` does in mlir-opt) and passes see them as ops
    they know nothing about.
    """
    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    context = ir.Context()
    context.enable_multithreading(False)
    context.allow_unregistered_dialects = allow_unregistered_dialects
    context.append_dialect_registry(registry)
    context.load_all_available_dialects()
    sdy.register_dialect(context)
    stablehlo.register_dialect(context)
    mhlo.register_mhlo_dialect(context)
    chlo.register_dialect(context)
    # pysdy's next work is in this context: memos of an earlier one would keep it alive (work that builds IR
    # objects without running a pass, such as a test's module generator, never reaches a pass's `use_context`).
    use_context(context)
    return context
