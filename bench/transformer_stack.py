"""The bench's program: an unrolled pre-norm JAX transformer stack, as a function to jit and as StableHLO text.

Each layer (layernorm, multi-head attention, MLP, residuals) is unrolled with a
Python loop; the stack takes in_shardings on a 2x4 ("data", "model") mesh of 8
CPU devices (the caller sets `jax_num_cpu_devices` to 8 before JAX makes its CPU
backend). `transformer_stack_text` is its `jax.jit(...).lower(...).as_text()`:
about 95 lines and 107 ops per layer. Benches that compile it take the function.
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


def transformer_stack_text(layers: int) -> str:
    """StableHLO text of `layers` unrolled pre-norm transformer layers, sharded on a ("data", "model") mesh."""
    import jax

    stack = transformer_stack(layers)
    return jax.jit(stack.function, in_shardings=stack.in_shardings).lower(*stack.arguments).as_text()


def count_ops(text: str) -> int:
    """Operations inside the module's top-level ops (func bodies), nested regions included."""
    from jaxlib.mlir import ir

    from pysdy.dialects.context import make_context

    with make_context():
        module = ir.Module.parse(text)
        count = 0

        def visit(_op):
            nonlocal count
            count += 1
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
        return count - 1 - len(module.body.operations)
