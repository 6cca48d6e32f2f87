"""A transformer block's training step through `pysdy.jax.jit` on 8 CPU devices: shardings, collectives, numerics.

    python examples/jax_transformer_block.py [--show-module]

The parameters are sharded Megatron-style over "model" and the batch over
"data" on a 2x4 mesh; pysdy propagates the shardings and XLA partitions
pysdy's module (XLA's Shardy partitioner, the hook's default route) and runs the step. The script prints where the results live,
the collectives XLA inserted, and how the results compare with the same step run
unpartitioned by plain JAX on one device (within float32's relative tolerance).
"""

from __future__ import annotations

import argparse
import collections
import re
import sys

import jax

jax.config.update("jax_num_cpu_devices", 8)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import pysdy.jax  # noqa: E402
from pysdy.runtime.comparison import mismatch  # noqa: E402

BATCH, SEQUENCE, MODEL, HIDDEN, HEADS = 8, 16, 64, 128, 4


def layer_norm(x):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(jnp.var(x, axis=-1, keepdims=True) + 1e-5)


def attention(params, x):
    wq, wk, wv, wo = params
    batch, sequence, _ = x.shape

    def heads(t):
        return t.reshape(batch, sequence, HEADS, -1)

    q, k, v = heads(x @ wq), heads(x @ wk), heads(x @ wv)
    logits = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(q.shape[-1])
    causal = jnp.tril(jnp.ones((sequence, sequence), dtype=bool))
    weights = jax.nn.softmax(jnp.where(causal, logits, -1e9), axis=-1)
    return jnp.einsum("bhqk,bkhd->bqhd", weights, v).reshape(batch, sequence, -1) @ wo


def block(params, x):
    attention_params, (w_in, w_out) = params
    x = x + attention(attention_params, layer_norm(x))
    return x + jax.nn.gelu(layer_norm(x) @ w_in) @ w_out


def loss(params, x):
    return jnp.mean(block(params, x) ** 2)


def parameters(rng):
    def weight(*shape):
        return (rng.standard_normal(shape) / np.sqrt(shape[0])).astype(np.float32)

    return (tuple(weight(MODEL, MODEL) for _ in range(4)), (weight(MODEL, HIDDEN), weight(HIDDEN, MODEL)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show-module", action="store_true", help="print the module pysdy hands XLA")
    options = parser.parse_args()

    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    column, row = NamedSharding(mesh, P(None, "model")), NamedSharding(mesh, P("model", None))
    param_shardings = ((column, column, column, row), (column, row))
    batch_sharding = NamedSharding(mesh, P("data", None, None))

    rng = np.random.default_rng(0)
    params, x = parameters(rng), rng.standard_normal((BATCH, SEQUENCE, MODEL)).astype(np.float32)
    step = pysdy.jax.jit(
        jax.value_and_grad(loss), in_shardings=(param_shardings, batch_sharding), out_shardings=(None, param_shardings)
    )
    value, grads = step(params, x)
    lowered = step.lower(params, x)
    compiled_hlo = lowered.compile().as_text()

    expected_value, expected_grads = jax.jit(jax.value_and_grad(loss))(*jax.device_put((params, x), jax.devices()[0]))
    results = [np.asarray(a) for a in jax.tree.leaves((value, grads))]
    expected = [np.asarray(b) for b in jax.tree.leaves((expected_value, expected_grads))]
    differences = [float(np.max(np.abs(a - b))) for a, b in zip(results, expected)]
    # Partitioned reductions add in another order: each result is compared within its dtype's relative tolerance.
    mismatches = [m for m in map(mismatch, results, expected) if m is not None]
    collectives = collections.Counter(
        re.search(r"= \S+ ([a-z-]+?)(-start)?\(", line).group(1)
        for line in compiled_hlo.splitlines()
        if re.search(r"= \S+ (all-reduce|all-gather|all-to-all|collective-permute|reduce-scatter)(-start)?\(", line)
    )
    if options.show_module:
        print(lowered.exported_text())
    print(f"loss {float(value):.6f} on {len(value.sharding.device_set)} devices, sharded as {value.sharding.spec}")
    print("gradient shardings:", [str(g.sharding.spec) for g in jax.tree.leaves(grads)])
    print("collectives XLA inserted:", dict(sorted(collectives.items())))
    print(f"largest difference from unpartitioned JAX: {max(differences):.2e}")
    print(f"equal to unpartitioned JAX within tolerance: {'; '.join(mismatches) or 'yes'}")
    print(f"compiles through pysdy: {len(pysdy.jax.compilations())}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
