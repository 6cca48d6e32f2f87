"""The transformer stack of bench/propagation.py as a program to jit: its function, arguments and shardings.

bench/propagation.py lowers the stack to text; a bench that compiles it needs
the function itself. `jax.jit(stack.function, in_shardings=stack.in_shardings)
.lower(*stack.arguments).as_text()` is exactly `transformer_stack_text(layers)`
(test/py/test_bench_hook_stacks.py checks it).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable

BATCH, SEQUENCE, MODEL, HEADS, HIDDEN = 8, 128, 256, 8, 1024


@dataclasses.dataclass(frozen=True)
class TransformerStack:
    function: Callable
    arguments: tuple  # jax.ShapeDtypeStruct pytrees: lowering and compiling need no data
    in_shardings: Any
    out_shardings: Any  # the activations' sharding, as they come in


def transformer_stack(layers: int) -> TransformerStack:
    """`layers` unrolled pre-norm transformer layers on a 2x4 ("data", "model") mesh of 8 devices."""
    import jax
    import jax.numpy as jnp
    from jax import lax
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    def layer_norm(x, scale, bias):
        centered = x - x.mean(-1, keepdims=True)
        variance = (centered * centered).mean(-1, keepdims=True)
        return centered * lax.rsqrt(variance + 1e-5) * scale + bias

    def attention(x, wq, wk, wv, wo):
        def split_heads(t):
            return t.reshape(BATCH, SEQUENCE, HEADS, MODEL // HEADS)

        q, k, v = split_heads(x @ wq), split_heads(x @ wk), split_heads(x @ wv)
        scores = jnp.einsum("bshd,bthd->bhst", q, k) / math.sqrt(MODEL // HEADS)
        out = jnp.einsum("bhst,bthd->bshd", jax.nn.softmax(scores, axis=-1), v)
        return out.reshape(BATCH, SEQUENCE, MODEL) @ wo

    def mlp(x, w1, b1, w2, b2):
        return jnp.maximum(x @ w1 + b1, 0.0) @ w2 + b2

    def stack(x, params):
        for ln1_scale, ln1_bias, wq, wk, wv, wo, ln2_scale, ln2_bias, w1, b1, w2, b2 in params:
            x = x + attention(layer_norm(x, ln1_scale, ln1_bias), wq, wk, wv, wo)
            x = x + mlp(layer_norm(x, ln2_scale, ln2_bias), w1, b1, w2, b2)
        return x

    vector, column, row = P(), P(None, "model"), P("model", None)
    layer_params = [
        ((MODEL,), vector), ((MODEL,), vector),
        ((MODEL, MODEL), column), ((MODEL, MODEL), column), ((MODEL, MODEL), column), ((MODEL, MODEL), row),
        ((MODEL,), vector), ((MODEL,), vector),
        ((MODEL, HIDDEN), column), ((HIDDEN,), P("model")), ((HIDDEN, MODEL), row), ((MODEL,), vector),
    ]  # fmt: skip
    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto))
    params = [tuple(jax.ShapeDtypeStruct(shape, jnp.float32) for shape, _ in layer_params)] * layers
    param_shardings = [tuple(NamedSharding(mesh, spec) for _, spec in layer_params)] * layers
    x = jax.ShapeDtypeStruct((BATCH, SEQUENCE, MODEL), jnp.float32)
    activations = NamedSharding(mesh, P("data"))
    return TransformerStack(stack, (x, params), (activations, param_shardings), activations)
