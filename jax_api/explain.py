"""`pysdy.jax.explain`: a jitted function's shardings explained down to the user's source lines, with what its compile
costs on pysdy's route and on XLA's own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pysdy.explanation.api import ModuleExplanation


def explain(jitted: Any, *args: Any, compile: bool = True, **kwargs: Any) -> ModuleExplanation:
    """Lowers `jitted` (a `jax.jit` or `pysdy.jax.jit` function) for `args` with its source locations and explains
    the module; with `compile`, also compiles it with XLA on pysdy's gspmd route and on XLA's own for the report's
    memory and collectives."""
    # Imported here: `import pysdy.jax` (the hook's users) need none of the explanation's modules.
    from pysdy.explanation.api import ModuleExplanation
    from pysdy.explanation.build import explain_text
    from pysdy.explanation.compiled_figures import with_compiled_figures
    from pysdy.runtime.compile import compile_module

    text = jitted.lower(*args, **kwargs).as_text(debug_info=True)
    name = getattr(jitted, "__name__", type(jitted).__name__)
    explanation = explain_text(text, f"jit({name})")
    if compile:
        explanation = with_compiled_figures(explanation, text, compile_module(text, source_name=f"jit({name})"))
    return ModuleExplanation(explanation)
